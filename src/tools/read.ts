import * as z from 'zod';
import { PincherError } from '../errors';
import { FILE_SYMBOL_COLUMNS, fileSymbolColumns, fileWithSymbols, type FileSymbol, type StoredFile } from '../db/source';
import { didYouMean } from '../util/did-you-mean';
import { splitQualified } from '../util/qualified-ref';
import { fullFileReadBaseline, linesChars, splitLinesChars } from './baseline';
import { tokensForBytes } from '../envelope/tokens';
import { defineTool, type ToolContext } from './define';
import { explainExtractionGaps } from './extraction-gaps';
import { PROJECT_PARAM } from './describe';
import { resolveProject } from './project-scope';
import { ANCHOR_PATTERN, anchoredText, checkAnchors, splitLines } from './read/anchors';
import { explainMissingFile, explainUnreadable, normaliseRepoPath } from './read/files';
import { MAX_MAP_ENTRIES, mapEntry, structuralMap } from './read/map';
import { refLabels, resolveRef } from '../symbols/resolve';
import { parseSymbolRef } from '../symbols/symbol-id';

/** Most lines one read returns; a larger request gets the map and the first window. */
export const MAX_LINES = 400;
/** Lines returned without limit, and per window of an over-budget request. */
export const WINDOW = 200;

const output = z.object({
  path: z.string(),
  language: z.string().optional(),
  total_lines: z.number().optional(),
  start_line: z.number().optional(),
  end_line: z.number().optional(),
  text: z.string().optional().describe('Lines as LINE:HASH|content, one per line.'),
  truncated: z.boolean().optional(),
  next_offset: z.number().optional(),
  symbol: z.object({ id: z.string(), qualified_name: z.string(), kind: z.string(), start_line: z.number(), end_line: z.number() }).optional(),
  map: z.array(mapEntry).optional(),
  anchors: z
    .object({
      matched: z.array(z.string()),
      stale: z.array(z.object({ anchor: z.string(), current: z.string().nullable(), moved_to: z.number().nullable().describe('where the line now is; null: it changed') })),
    })
    .optional(),
});
type Output = z.infer<typeof output>;

export const readTool = defineTool({
  name: 'read',
  title: 'Read source',
  description:
    `Source as LINE:HASH|content lines (a definition: symbol). Over ${MAX_LINES} lines: the map, the first ${WINDOW} lines and next_offset (budget_truncated).`,
  tier: 'lite',
  toolset: 'core',
  baseline: 'full_file_read',
  input: z.object({
    project: z.string().optional().describe(PROJECT_PARAM),
    path: z.string().min(1).max(1024).describe('Relative, no .. segments, 1–1024 chars'),
    offset: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('1-based; not with symbol'),
    limit: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(`Positive, default ${WINDOW}; with symbol: caps its lines`),
    symbol: z
      .string()
      .max(500)
      .regex(/\S/, 'symbol must be non-empty')
      .optional()
      .describe(`Name, Class.method or Name@line; non-empty, ≤500 chars; whole if ≤${MAX_LINES} lines; combines with limit and map`),
    map: z
      .boolean()
      .default(false)
      .describe(
        `Structural map, needs a language extractor; with path alone: only the map; ≤${MAX_MAP_ENTRIES} entries (map_truncated)`,
      ),
    anchors: z
      .array(z.string().regex(ANCHOR_PATTERN, 'anchors are LINE:HASH, e.g. 12:ab3f'))
      .min(1)
      .max(500)
      .optional()
      .describe('1–500 LINE:HASH to check (stale_anchor); alone: only the check'),
  }),
  output,
  handler: async (args, ctx) => {
    if (args.symbol !== undefined && args.offset !== undefined) {
      throw new PincherError('invalid_params', 'invalid arguments for read: symbol and offset cannot be combined', {
        suggestion: 'read the symbol with symbol (limit caps its lines), or a line window with offset and limit',
        details: { issues: [{ param: 'offset', message: 'not with symbol' }] },
      });
    }
    const path = normaliseRepoPath(args.path);
    const project = await resolveProject(ctx, args.project);
    if (!project) return { path };
    // The file's symbols ride in the same round trip whenever the call may need them (a symbol, the map, a long file).
    const { file, symbols } = await fileWithSymbols(ctx.db, project.id, path, mayNeedSymbols(args));
    if (!file) {
      await explainMissingFile(ctx, project, path);
      return { path };
    }
    if (file.content === null) {
      explainUnreadable(ctx, project, file);
      return { path, language: file.language };
    }
    fullFileReadBaseline(ctx, project.id, [{ path, size: file.size }]);
    return readContent(ctx, project.name, project.id, { ...file, content: file.content }, args, symbols);
  },
});

interface Args {
  offset?: number;
  limit?: number;
  symbol?: string;
  map: boolean;
  anchors?: string[];
}

async function readContent(
  ctx: ToolContext,
  projectName: string,
  projectId: string,
  file: StoredFile & { content: string },
  args: Args,
  prefetched: FileSymbol[] | null,
): Promise<Output> {
  const lines = splitLines(file.content);
  const out: Output = { path: file.path, language: file.language, total_lines: lines.length };
  const step = (extra: Record<string, unknown>) => ({ project: projectName, path: file.path, ...extra });
  if (args.anchors) out.anchors = anchorCheck(ctx, file.path, lines, args.anchors, step);
  if (args.anchors && !args.map && args.offset === undefined && args.limit === undefined && args.symbol === undefined) {
    // Anchors alone: the native check reads each anchored line.
    const at = [...new Set(args.anchors.map((a) => Number(a.slice(0, a.indexOf(':')))))];
    ctx.meta.baseline('lines_read', tokensForBytes(at.reduce((n, l) => n + linesChars(file.content, l, l), 0)));
  }

  const wantsLines = args.offset !== undefined || args.limit !== undefined || args.symbol !== undefined || (!args.map && !args.anchors);
  const symbols = await fileSymbolsIfNeeded(ctx, projectId, file, lines.length, args, prefetched);

  let chosen: FileSymbol | null = null;
  if (args.symbol !== undefined) {
    chosen = pickSymbol(ctx, file.path, symbols, args.symbol, step);
    if (!chosen) {
      const wanted = parseSymbolRef(args.symbol).name;
      await explainExtractionGaps(ctx, { id: projectId, name: projectName }, splitQualified(wanted)?.name ?? wanted, { setEmpty: false, path: file.path });
      return out;
    }
    out.symbol = { id: chosen.id, qualified_name: chosen.qualified_name, kind: chosen.kind, start_line: chosen.start_line, end_line: chosen.end_line };
  }

  let oversized = false;
  if (wantsLines) {
    if (lines.length === 0) {
      ctx.meta.diagnose('empty_file', 'info', `${file.path} is an empty file`);
      Object.assign(out, { text: '', truncated: false });
    } else {
      const start = chosen ? chosen.start_line : (args.offset ?? 1);
      if (start > lines.length) {
        ctx.meta.empty('cap_dropped_all', `offset ${start} is past the end of ${file.path} (${lines.length} lines)`, { cap: 'offset', total_lines: lines.length });
        ctx.meta.next('read', step({ offset: Math.max(1, lines.length - WINDOW + 1), limit: WINDOW }), 'read the last lines of the file');
        return out;
      }
      // goal: what the call asks for (the symbol, or the requested lines); cap: what limit allows of it.
      const last = chosen ? Math.min(chosen.end_line, lines.length) : lines.length;
      const goal = chosen || args.limit !== undefined || args.offset === undefined ? last : Math.min(last, start + WINDOW - 1);
      const cap = args.limit !== undefined ? Math.min(goal, start + args.limit - 1) : goal;
      oversized = cap - start + 1 > MAX_LINES;
      const end = oversized || (!chosen && args.limit === undefined) ? Math.min(cap, start + WINDOW - 1) : cap;
      const truncated = end < (chosen ? goal : cap);
      Object.assign(out, { start_line: start, end_line: end, text: anchoredText(lines, start, end), truncated });
      // A window of lines: reading exactly those lines natively is the baseline (a symbol or a map needs the file).
      if (!chosen && !args.map) ctx.meta.baseline('lines_read', tokensForBytes(splitLinesChars(file.content, lines, start, end)));
      // More lines in scope (the symbol, or the file): say where to continue; a cut request continues with what is left of it.
      if (end < last) {
        out.next_offset = end + 1;
        const rest = truncated ? Math.min((chosen ? goal : cap) - end, MAX_LINES) : WINDOW;
        ctx.meta.next('read', step({ offset: end + 1, limit: rest }), truncated ? `the rest of the request: lines ${end + 1}–${end + rest}` : `the next lines after ${end}`);
      }
      if (oversized) {
        ctx.meta.warn(
          'budget_truncated',
          `the request spans ${cap - start + 1} lines, over max_lines ${MAX_LINES}: returned the map and lines ${start}–${end}; next_steps continues`,
          { max_lines: MAX_LINES, requested_lines: cap - start + 1, returned: [start, end] },
        );
      }
    }
  }

  if (args.map || oversized) {
    const map = structuralMap(symbols, chosen ?? undefined);
    out.map = map.entries;
    if (out.map.length === 0) explainEmptyMap(ctx, file, out.text === undefined, step);
    if (map.entries.length < map.total) {
      ctx.meta.warn(
        'map_truncated',
        `the map holds ${map.total} symbols; shown: ${map.entries.length} (nesting depth ≤ ${map.depth ?? 0}); read with symbol and map zooms into one of them`,
        { shown: map.entries.length, total: map.total, depth: map.depth ?? 0, max_entries: MAX_MAP_ENTRIES },
      );
    }
  }
  return out;
}

/** The file's symbols, fetched only when a symbol, a map, or an over-budget read may need them. */
async function fileSymbolsIfNeeded(ctx: ToolContext, projectId: string, file: StoredFile, total: number, args: Args, prefetched: FileSymbol[] | null): Promise<FileSymbol[]> {
  const mayOverflow = (args.limit ?? (args.offset === undefined ? total : 0)) > MAX_LINES;
  if (args.symbol === undefined && !args.map && !mayOverflow) return [];
  if (file.language === 'none') return [];
  return prefetched ?? fileSymbolColumns(ctx.db, projectId, file.path, FILE_SYMBOL_COLUMNS);
}

/** Whether fileSymbolsIfNeeded may want the symbols, before the file's length is known. */
function mayNeedSymbols(args: Args): boolean {
  return args.symbol !== undefined || args.map || (args.limit ?? (args.offset === undefined ? Infinity : 0)) > MAX_LINES;
}

function pickSymbol(
  ctx: ToolContext,
  path: string,
  symbols: readonly FileSymbol[],
  text: string,
  step: (extra: Record<string, unknown>) => Record<string, unknown>,
): FileSymbol | null {
  const ref = parseSymbolRef(text);
  const { chosen, matches } = resolveRef(symbols, ref);
  const labels = refLabels(matches, ref.name);
  if (!chosen) {
    const guess = matches.length ? undefined : didYouMean(ref.name, [...new Set(symbols.flatMap((s) => [s.qualified_name, s.name]))]);
    const why = matches.length
      ? `no '${ref.name}' spans line ${ref.line} in ${path}; it is at ${labels.join(', ')}`
      : `no symbol '${ref.name}' in ${path}${guess ? ` (did you mean '${guess}'?)` : ''}`;
    ctx.meta.empty('target_not_resolved', why, { symbol: text, ...(matches.length ? { candidates: labels } : {}) });
    for (const label of labels.slice(0, 3)) ctx.meta.next('read', step({ symbol: label }), `read ${label}`);
    if (guess) ctx.meta.next('read', step({ symbol: guess }), `read '${guess}'`);
    ctx.meta.next('read', step({ map: true }), `see every symbol of ${path} with its line range`);
    return null;
  }
  if (ref.line === undefined && matches.length > 1) {
    ctx.meta.warn('ambiguous_symbol', `'${ref.name}' names ${matches.length} symbols in ${path} (${labels.join(', ')}); returned the first, pick one with Name@line`, {
      candidates: labels,
    });
    for (const label of labels.slice(1, 4)) ctx.meta.next('read', step({ symbol: label }), `read the other ${label}`);
  }
  return chosen;
}

/** Lines one re-read step covers around stale anchors. */
const MAX_REREAD = 200;

function anchorCheck(
  ctx: ToolContext,
  path: string,
  lines: readonly string[],
  anchors: readonly string[],
  step: (extra: Record<string, unknown>) => Record<string, unknown>,
): Output['anchors'] {
  const check = checkAnchors(lines, anchors);
  if (check.stale.length > 0) {
    const moved = check.stale.filter((s) => s.moved_to !== null);
    const changed = check.stale.length - moved.length;
    const parts = [
      ...(moved.length ? [`${moved.length} moved (${moved.slice(0, 5).map((s) => `${s.anchor.split(':')[0]}→${s.moved_to}`).join(', ')})`] : []),
      ...(changed ? [`${changed} changed`] : []),
    ];
    ctx.meta.warn(
      'stale_anchor',
      `${check.stale.length} of ${anchors.length} anchor(s) no longer match the indexed ${path}: ${parts.join(', ')}; re-read the current lines before editing`,
      { path, stale: check.stale.slice(0, 50) },
    );
    // One ready read of where the lines are now: moved lines at their new number, changed ones at their old one.
    const at = check.stale.map((s) => s.moved_to ?? Math.min(Number(s.anchor.split(':')[0]), lines.length)).filter((n) => n >= 1);
    if (at.length) {
      const from = Math.min(...at);
      const to = Math.min(Math.max(...at), from + MAX_REREAD - 1);
      ctx.meta.next('read', step({ offset: from, limit: to - from + 1 }), `the current lines ${from}–${to} of ${path}, with fresh anchors`);
    }
  }
  return check;
}

function explainEmptyMap(ctx: ToolContext, file: StoredFile, alone: boolean, step: (extra: Record<string, unknown>) => Record<string, unknown>): void {
  const unsupported = file.language === 'none';
  const reason = unsupported ? 'unsupported_language' : 'extractor_emitted_nothing';
  const why = unsupported
    ? `${file.path} is stored for grep and read but no extractor handles its language, so it has no structural map`
    : file.status === 'failed'
      ? `${file.path} failed extraction (${file.reason ?? 'parse_error'}), so it has no structural map`
      : `the ${file.language} extractor found no definitions in ${file.path}`;
  if (alone) {
    ctx.meta.empty(reason, why, { path: file.path, language: file.language });
    ctx.meta.next('read', step({ limit: WINDOW }), `read the lines of ${file.path} instead`);
  } else {
    ctx.meta.warn(reason, why, { path: file.path, language: file.language });
  }
}
