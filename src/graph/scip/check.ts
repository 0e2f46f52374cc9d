/**
 * Checks a decoded SCIP index against the files of the push it arrived with, before anything
 * is written: which documents cover pushed files (paths relative to the project root, every
 * occurrence inside its file), which are skipped and why, and whether the index belongs to
 * this project at all. Refusals throw PincherError; partial mismatches come back as warnings.
 */
import { PincherError } from '../../errors';
import { pathProblem } from '../../upload/paths';
import type { ScipDocument, ScipIndex } from './decode';

/** Why a document of the index was left out. */
export type ScipSkipReason = 'path_outside_project' | 'unknown_path' | 'range_outside_file' | 'duplicate_path';

export interface ScipCheck {
  /** Documents that cover pushed files, their paths as pushed. */
  documents: ScipDocument[];
  skipped: { path: string; reason: ScipSkipReason }[];
}

const SAMPLE = 5;

const RERUN = 'run the indexer at the root of the pushed folder, on the same checkout, right before the push (docs/graph.md, "Precise graph from CI"); or push with --no-scip';

/** The largest 0-based line an occurrence of the document reaches. */
function lastLine(doc: ScipDocument): number {
  let max = -1;
  for (const o of doc.occurrences) max = Math.max(max, o.range[0], o.range[2]);
  return max;
}

/**
 * `lines` holds every pushed file the index may cover, with its line count (newlines + 1);
 * null when the stored content is not text (then no document may cover it). `pushed`, the
 * pushed paths, lets a refusal say where the index was produced instead.
 */
export function checkScip(index: ScipIndex, lines: ReadonlyMap<string, number | null>, pushed: readonly string[] = [...lines.keys()]): ScipCheck {
  if (index.documents.length === 0) {
    throw new PincherError('invalid_scip', 'the SCIP index holds no documents', {
      suggestion: `check that the indexer found the project's sources (a tsconfig.json / pyproject.toml at the root); ${RERUN}`,
      details: { tool: index.toolName || null },
    });
  }
  const documents: ScipDocument[] = [];
  const skipped: ScipCheck['skipped'] = [];
  const seen = new Set<string>();
  for (const doc of index.documents) {
    const path = doc.relativePath.replace(/^\.\//, '');
    if (pathProblem(path)) skipped.push({ path: doc.relativePath.slice(0, 300), reason: 'path_outside_project' });
    else if (seen.has(path)) skipped.push({ path, reason: 'duplicate_path' });
    else if (!lines.has(path)) skipped.push({ path, reason: 'unknown_path' });
    else if (lastLine(doc) >= (lines.get(path) ?? 0)) skipped.push({ path, reason: 'range_outside_file' });
    else documents.push(path === doc.relativePath ? doc : { ...doc, relativePath: path });
    seen.add(path);
  }
  if (documents.length === 0) throw mismatch(index, skipped, pushed);
  return { documents, skipped };
}

/** No document covers a pushed file: say what the index seems to be for. */
function mismatch(index: ScipIndex, skipped: ScipCheck['skipped'], pushed: readonly string[]): PincherError {
  const counts = countReasons(skipped);
  const sample = skipped.slice(0, SAMPLE).map((s) => s.path);
  const details = { tool: index.toolName || null, project_root: index.projectRoot.slice(0, 300) || null, documents: index.documents.length, skipped: counts, sample };
  const shift = rootShift(skipped.filter((s) => s.reason === 'unknown_path').map((s) => s.path), pushed);
  if (shift) {
    const where = shift.kind === 'below' ? `the folder '${shift.prefix}' of the pushed tree` : `a folder above the pushed one (its paths start with '${shift.prefix}')`;
    return new PincherError('scip_mismatch', `the SCIP index was produced for ${where}, not for the pushed root; nothing was changed`, {
      suggestion:
        shift.kind === 'below'
          ? `run the indexer at the root of the pushed folder (e.g. scip-typescript index --cwd . at the push root), or push '${shift.prefix}' as its own project`
          : `run the indexer in the pushed folder itself, or push the folder the indexer ran in`,
      details: { ...details, root_prefix: shift.prefix, root_shift: shift.kind },
    });
  }
  if (counts.range_outside_file) {
    return new PincherError('scip_mismatch', `the SCIP index does not match the pushed files (${counts.range_outside_file} document(s) reach past the end of their file: it was produced from another commit); nothing was changed`, {
      suggestion: RERUN,
      details,
    });
  }
  return new PincherError('scip_mismatch', `none of the ${index.documents.length} document(s) of the SCIP index is a pushed file; nothing was changed`, {
    suggestion: RERUN,
    details,
  });
}

export function countReasons(skipped: readonly { reason: ScipSkipReason }[]): Partial<Record<ScipSkipReason, number>> {
  const out: Partial<Record<ScipSkipReason, number>> = {};
  for (const s of skipped) out[s.reason] = (out[s.reason] ?? 0) + 1;
  return out;
}

/**
 * A folder prefix that turns most unknown document paths into pushed ones: `below` when the
 * indexer ran in a sub-folder of the pushed root (pushed = prefix + doc), `above` when it ran
 * in a parent (doc = prefix + pushed).
 */
function rootShift(unknown: readonly string[], pushed: readonly string[]): { kind: 'below' | 'above'; prefix: string } | null {
  if (unknown.length === 0) return null;
  const probe = unknown.slice(0, 50);
  const votes = new Map<string, number>();
  const pushedSet = new Set(pushed);
  for (const doc of probe) {
    for (const p of pushed) {
      if (p.length > doc.length && p.endsWith(`/${doc}`)) {
        const key = `below\0${p.slice(0, p.length - doc.length)}`;
        votes.set(key, (votes.get(key) ?? 0) + 1);
      }
    }
    const parts = doc.split('/');
    for (let i = 1; i < parts.length; i++) {
      if (pushedSet.has(parts.slice(i).join('/'))) {
        const key = `above\0${parts.slice(0, i).join('/')}/`;
        votes.set(key, (votes.get(key) ?? 0) + 1);
      }
    }
  }
  let best: [string, number] | null = null;
  for (const v of votes) if (!best || v[1] > best[1]) best = v;
  if (!best || best[1] * 2 < probe.length) return null;
  const [kind, prefix] = best[0].split('\0') as ['below' | 'above', string];
  return { kind, prefix };
}
