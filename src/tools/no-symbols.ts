import type { ProjectRow } from '../db/projects';
import type { ToolContext } from './define';

/**
 * When the project holds files but not one extracted symbol, a lookup that
 * missed says so (`extractor_emitted_nothing`) instead of reading as a wrong
 * name or an empty corpus: no symbol search or did-you-mean can help, so the
 * steps are a grep for the text in the stored files and health for the
 * extraction failures. Returns true when it answered the miss.
 *
 * @example
 * if (explainNoSymbols(ctx, project, 'listen')) return { symbol: null };
 */
export function explainNoSymbols(ctx: ToolContext, project: Pick<ProjectRow, 'name' | 'fileCount' | 'symbolCount'>, text: string | undefined, what = 'no lookup'): boolean {
  if (!holdsNoSymbols(project)) return false;
  ctx.meta.empty(
    'extractor_emitted_nothing',
    `project '${project.name}' holds ${project.fileCount} file(s) but the extractor found no symbol in any of them, so ${what} can match; health lists its extraction failures`,
    { project: project.name, files: project.fileCount },
  );
  if (text) ctx.meta.next('grep', { project: project.name, pattern: text, literal: true, ignore_case: true }, 'search the stored text instead');
  ctx.meta.next('health', { project: project.name }, 'see the extraction failures by reason');
  return true;
}

/** Whether explainNoSymbols answers a miss in `project`: files, and not one symbol. */
export function holdsNoSymbols(project: Pick<ProjectRow, 'fileCount' | 'symbolCount'>): boolean {
  return project.symbolCount <= 0 && project.fileCount > 0;
}
