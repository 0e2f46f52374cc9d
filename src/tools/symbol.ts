import * as z from 'zod';
import { fullFileReadBaseline } from './baseline';
import { defineTool, type ToolContext } from './define';
import { PROJECT_PARAM } from './describe';
import { resolveProject } from './project-scope';
import { lookupIds } from './read/lookup';
import { explainUnresolvedId } from './read/unresolved';
import { detailParam, fieldsParam, symbolView, type SymbolView } from './read/view';

/** Source lines (and characters) `symbol` returns; a longer symbol is cut at a line end with a `read` step for the rest. */
export const SOURCE_LINES = 100;
export const SOURCE_CHARS = 8000;

/**
 * The view with its source cut to SOURCE_LINES lines / SOURCE_CHARS characters
 * (whole lines, at least one): `source_truncated` says what was left out, a
 * warning and a ready `read` of the remaining lines continue it.
 */
function capSource(ctx: ToolContext, projectName: string, view: SymbolView, startLine: number): SymbolView {
  if (view.source === undefined) return view;
  const lines = view.source.split('\n');
  let shown = Math.min(lines.length, SOURCE_LINES);
  for (let chars = 0, k = 0; k < shown; k++) {
    chars += lines[k].length + 1;
    if (chars > SOURCE_CHARS && k > 0) shown = k;
  }
  if (shown >= lines.length) return view;
  const next = startLine + shown;
  const rest = lines.length - shown;
  const truncated = { shown_lines: shown, total_lines: lines.length, next_line: next };
  const path = view.file_path ?? view.id.slice(0, view.id.indexOf('::'));
  ctx.meta.warn('source_truncated', `${view.id} spans ${lines.length} lines; source holds its first ${shown} (read continues at line ${next})`, truncated, 'info');
  ctx.meta.next('read', { project: projectName, path, offset: next, limit: rest }, `the remaining ${rest} line(s) of the symbol`);
  return { ...view, source: lines.slice(0, shown).join('\n'), source_truncated: next };
}

export const symbolTool = defineTool({
  name: 'symbol',
  title: 'Symbol by id',
  description:
    `A symbol's source by id instead of its file (≤${SOURCE_LINES} lines; read on), or skeleton; unknown id: symbol null; moved file: new id (symbol_moved).`,
  tier: 'lite',
  toolset: 'core',
  baseline: 'full_file_read',
  input: z.object({
    project: z.string().optional().describe(PROJECT_PARAM),
    id: z.string().min(1).max(2000).describe('1–2000 chars, e.g. a.ts::Cls.run#Method; ~N for the Nth repeat in a file'),
    fields: fieldsParam,
    detail: detailParam,
  }),
  output: z.object({ symbol: symbolView.nullable() }),
  handler: async (args, ctx) => {
    const project = await resolveProject(ctx, args.project);
    if (!project) return { symbol: null };
    const found = await lookupIds(ctx, project.id, [args.id], { fields: args.fields, detail: args.detail });
    fullFileReadBaseline(ctx, project.id, found.files);
    const view = found.found.get(args.id);
    const row = found.rows.get(args.id);
    if (view && row) return { symbol: capSource(ctx, project.name, view, row.start_line) };
    await explainUnresolvedId(ctx, project, args.id);
    return { symbol: null };
  },
});
