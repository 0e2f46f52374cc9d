import * as z from 'zod';
import { fullFileReadBaseline } from './baseline';
import { defineTool, type ToolContext } from './define';
import { PROJECT_PARAM } from './describe';
import { resolveProject } from './project-scope';
import { nestedSymbols, type SymbolRow } from '../db/source';
import { lookupOrExplain } from './read/unresolved';
import { detailParam, fieldsParam, outlinesByOwner, symbolView, type SymbolView } from './read/view';

/** Source lines (and characters) `symbol` returns; a longer symbol is cut at a line end with a `read` step for the rest. */
export const SOURCE_LINES = 100;
export const SOURCE_CHARS = 8000;
/** Kinds whose members are symbols of their own: a long one is answered by its head and an outline of its members. */
const CONTAINER_KINDS = new Set(['Class', 'Struct', 'Interface', 'Trait', 'Enum']);
/** From this many lines, a container (detail unset) may be answered by head + outline, when that is the shorter answer. */
export const OUTLINE_FROM_LINES = 40;
/** Members an outline shows at most (the rest: read on). */
const OUTLINE_MEMBERS = 200;


/** The view with its source cut to SOURCE_LINES lines / SOURCE_CHARS characters (whole lines, at least one); null when it fits. */
function cutSource(view: SymbolView, startLine: number): { view: SymbolView; shown: number; total: number } | null {
  if (view.source === undefined) return null;
  const lines = view.source.split('\n');
  let shown = Math.min(lines.length, SOURCE_LINES);
  for (let chars = 0, k = 0; k < shown; k++) {
    chars += lines[k].length + 1;
    if (chars > SOURCE_CHARS && k > 0) shown = k;
  }
  if (shown >= lines.length) return null;
  return { view: { ...view, source: lines.slice(0, shown).join('\n'), source_truncated: startLine + shown }, shown, total: lines.length };
}

/**
 * A long class (struct, interface, trait, enum) with detail unset: its source
 * up to its first member, then an outline of its direct members (id, kind,
 * signature, lines) instead of their bodies — when that answer is the shorter.
 */
async function containerOutline(ctx: ToolContext, projectId: string, view: SymbolView, row: SymbolRow, capped: SymbolView): Promise<{ view: SymbolView; shown: number; total: number } | null> {
  if (!CONTAINER_KINDS.has(row.kind) || view.source === undefined) return null;
  const lines = view.source.split('\n');
  if (lines.length < OUTLINE_FROM_LINES) return null;
  const nested = await nestedSymbols(ctx.db, projectId, [row], OUTLINE_MEMBERS * 4);
  const members = (outlinesByOwner(nested.filter((r) => r.parent === row.qualified_name)).get(row.id) ?? []).slice(0, OUTLINE_MEMBERS);
  if (members.length === 0) return null;
  const shown = Math.max(1, Math.min(lines.length - 1, members[0].start_line - row.start_line));
  const outlined: SymbolView = { ...view, source: lines.slice(0, shown).join('\n'), source_truncated: row.start_line + shown, outline: members };
  return JSON.stringify(outlined).length < JSON.stringify(capped).length ? { view: outlined, shown, total: lines.length } : null;
}

/**
 * The symbol as answered: its source capped (cutSource), or for a long
 * container with detail unset, head + outline (containerOutline). A cut
 * source has `source_truncated`, an info warning and a ready `read` of the
 * remaining lines.
 */
async function answer(ctx: ToolContext, project: { id: string; name: string }, view: SymbolView, row: SymbolRow, auto: boolean): Promise<SymbolView> {
  const cut = cutSource(view, row.start_line);
  const outlined = auto ? await containerOutline(ctx, project.id, view, row, cut?.view ?? view) : null;
  const done = outlined ?? cut;
  if (!done) return view;
  const { shown, total } = done;
  const next = row.start_line + shown;
  const rest = total - shown;
  const what = outlined ? `its first ${shown} and outline its ${outlined.view.outline?.length} member(s)` : `its first ${shown}`;
  ctx.meta.warn('source_truncated', `${view.id} spans ${total} lines; source holds ${what} (read continues at line ${next})`, { shown_lines: shown, total_lines: total, next_line: next }, 'info');
  ctx.meta.next('read', { project: project.name, path: view.file_path ?? row.file_path, offset: next, limit: rest }, `the remaining ${rest} line(s) of the symbol`);
  return done.view;
}

export const symbolTool = defineTool({
  name: 'symbol',
  title: 'Symbol by id',
  description:
    `A symbol's source by id instead of its file (≤${SOURCE_LINES} lines; a long class: head + member outline; read on); unknown id: symbol null; moved file: new id (symbol_moved).`,
  tier: 'lite',
  toolset: 'core',
  baseline: 'full_file_read',
  input: z.object({
    project: z.string().optional().describe(PROJECT_PARAM),
    id: z.string().min(1).max(2000).describe('1–2000 chars, e.g. a.ts::Cls.run#Method; ~N for the Nth repeat in a file'),
    fields: fieldsParam,
    // Unset: full, but a long container may come as head + outline (containerOutline).
    detail: detailParam.unwrap().optional().describe(detailParam.description ?? ''),
  }),
  output: z.object({ symbol: symbolView.nullable() }),
  handler: async (args, ctx) => {
    const project = await resolveProject(ctx, args.project);
    if (!project) return { symbol: null };
    const { found, explain } = await lookupOrExplain(ctx, project, args.id, { fields: args.fields, detail: args.detail ?? 'full' });
    fullFileReadBaseline(ctx, project.id, found.files);
    const view = found.found.get(args.id);
    const row = found.rows.get(args.id);
    if (view && row) {
      return { symbol: await answer(ctx, project, view, row, args.detail === undefined && !args.fields) };
    }
    await explain();
    return { symbol: null };
  },
});
