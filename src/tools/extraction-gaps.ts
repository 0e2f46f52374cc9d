import { extractionGaps, gapLabel, type ExtractionGap } from '../db/extraction-gaps';
import type { MovedSymbol } from '../db/names';
import type { ToolContext } from './define';

/** Gap files listed in one answer. */
export const SHOWN_GAPS = 10;

/**
 * After a lookup missed: when files of the project were not fully extracted
 * (failed, over budget, or parsed with errors), says so instead of letting
 * the miss read as an absence. A gap file whose content holds `text` makes
 * the miss `low_confidence_extractor` (when `setEmpty`), with a grep step
 * into it; otherwise an `extraction_incomplete` warning names the files.
 * Returns true when it set the empty reason.
 *
 * @example
 * if (await explainExtractionGaps(ctx, project, 'parseConfig', { setEmpty: true })) return;
 */
export function explainExtractionGaps(
  ctx: ToolContext,
  project: { id: string; name: string },
  text: string | null,
  opts: { setEmpty: boolean; corpus?: string; path?: string },
): Promise<boolean> {
  return startExtractionGaps(ctx, project, text, opts)();
}

/**
 * explainExtractionGaps in two steps: the gaps are asked for now (sharing the
 * round trip of whatever else the caller asks for at once), and reported by
 * calling the returned function, in the caller's order. With `unlessMoved`,
 * none are read when that symbol has moved.
 */
export function startExtractionGaps(
  ctx: ToolContext,
  project: { id: string; name: string },
  text: string | null,
  opts: { setEmpty: boolean; corpus?: string; path?: string; unlessMoved?: MovedSymbol | null },
): () => Promise<boolean> {
  const asked = extractionGaps(ctx.db, project.id, { text, corpus: opts.corpus, path: opts.path, limit: SHOWN_GAPS + 1, ...(opts.unlessMoved ? { unlessMoved: opts.unlessMoved } : {}) });
  // A caller that fails before reporting never awaits it.
  asked.catch(() => undefined);
  return async () => reportExtractionGaps(ctx, project, text, await asked, opts);
}

/**
 * explainExtractionGaps over gaps already read (up to SHOWN_GAPS + 1 of
 * them, as extractionGaps orders them), e.g. in the caller's own round trip.
 */
export function reportExtractionGaps(
  ctx: ToolContext,
  project: { id: string; name: string },
  text: string | null,
  gaps: readonly ExtractionGap[],
  opts: { setEmpty: boolean },
): boolean {
  if (gaps.length === 0) return false;
  const shown = gaps.slice(0, SHOWN_GAPS);
  const more = gaps.length > SHOWN_GAPS ? ' (and more; health lists them all)' : '';
  const files = shown.map((g) => ({ path: g.path, status: g.status, reason: g.reason, partial: g.partial, mentions: g.mentions === 1 }));
  const mentioning = text === null ? [] : shown.filter((g) => g.mentions === 1);
  const grepStep = () => {
    const first = mentioning[0];
    ctx.meta.next('grep', { project: project.name, pattern: text, literal: true, path: first.path }, `find '${text}' in ${first.path}, which the extractor could not read fully`);
  };
  if (mentioning.length > 0 && opts.setEmpty) {
    ctx.meta.empty(
      'low_confidence_extractor',
      `no extracted symbol matches '${text}', but it appears in ${mentioning.length} file(s) the extractor could not read fully: ${mentioning.map(gapLabel).join('; ')}; its definition is likely there`,
      { text, files: files.filter((f) => f.mentions) },
    );
    grepStep();
    ctx.meta.next('health', { project: project.name }, 'see every extraction failure by reason');
    return true;
  }
  ctx.meta.warn(
    'extraction_incomplete',
    `${shown.length} file(s) of project '${project.name}' were not fully extracted${more}, so a symbol defined there can be missing from this answer: ${shown.map(gapLabel).join('; ')}`,
    { files },
  );
  if (mentioning.length > 0) grepStep();
  return false;
}
