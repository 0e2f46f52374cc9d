import { PincherError } from '../../errors';
import { pathsByBasename, type StoredFile } from '../../db/source';
import type { ToolContext } from '../define';

/**
 * A repository path as indexed: '/'-separated, relative, no '.' or '..'
 * segments. A leading './' is dropped; anything that escapes the root is an
 * `invalid_path` error.
 */
export function normaliseRepoPath(raw: string): string {
  const path = raw.trim().replace(/^(\.\/)+/, '');
  const segments = path.split('/');
  if (path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) || path.includes('\\') || path.includes('\0') || segments.some((s) => s === '..' || s === '.')) {
    throw new PincherError('invalid_path', `'${raw.slice(0, 200)}' is not a project-relative path`, {
      suggestion: 'pass the path relative to the project root with / separators, as list and search return it (e.g. src/app.ts)',
    });
  }
  return path;
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** target_not_resolved for a path the project does not hold, with files of the same name as next steps. */
export async function explainMissingFile(ctx: ToolContext, project: { id: string; name: string }, path: string): Promise<void> {
  const base = basename(path);
  const similar = base ? await pathsByBasename(ctx.db, project.id, base, 5) : [];
  ctx.meta.empty(
    'target_not_resolved',
    `no file '${path}' in project '${project.name}'${similar.length ? `; files named ${base}: ${similar.join(', ')}` : ''}`,
    { path, ...(similar.length ? { similar } : {}) },
  );
  for (const p of similar.slice(0, 3)) ctx.meta.next('read', { project: project.name, path: p }, `read ${p}, which has the same file name`);
  const stem = base.replace(/\.[^.]*$/, '') || base;
  if (stem) ctx.meta.next('search', { project: project.name, query: stem }, `find symbols named like '${stem}' and the files that hold them`);
  ctx.meta.next('list', {}, 'check which projects are indexed');
}

/** target_not_resolved for a file whose content was not stored (binary, not UTF-8, too large). */
export function explainUnreadable(ctx: ToolContext, project: { name: string }, file: StoredFile): void {
  const reason = file.reason ?? 'binary';
  ctx.meta.empty(
    'target_not_resolved',
    `${file.path} was pushed but skipped (${reason}): its content is not stored, so there is no text to read`,
    { path: file.path, status: file.status, reason },
  );
  ctx.meta.next('health', { project: project.name }, 'see every skipped or failed file of the project with its reason');
}
