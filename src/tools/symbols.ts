import * as z from 'zod';
import { fullFileReadBaseline } from './baseline';
import { defineTool } from './define';
import { PROJECT_PARAM } from './describe';
import { resolveProject } from './project-scope';
import { lookupIds } from './read/lookup';
import { ID_SHAPE, namePart } from '../symbols/symbol-id';
import { detailParam, fieldsParam, symbolView } from './read/view';
import { explainNoSymbols } from './no-symbols';

export const MAX_IDS = 100;

export const symbolsTool = defineTool({
  name: 'symbols',
  title: 'Symbols by id',
  description:
    'symbol for many ids at once; ids not found go to missing; moved files: symbol_moved.',
  tier: 'lite',
  toolset: 'core',
  baseline: 'full_file_read',
  input: z.object({
    project: z.string().optional().describe(PROJECT_PARAM),
    ids: z
      .array(z.string().min(1).max(2000))
      .min(1)
      .max(MAX_IDS)
      .describe(`1–${MAX_IDS}`),
    // Stated once, in symbol: the two tools sit side by side in the core list.
    fields: fieldsParam.describe('As in symbol'),
    detail: detailParam.describe('As in symbol; default full'),
  }),
  output: z.object({ symbols: z.array(symbolView), missing: z.array(z.string()) }),
  handler: async (args, ctx) => {
    const ids = [...new Set(args.ids)];
    const project = await resolveProject(ctx, args.project);
    if (!project) return { symbols: [], missing: ids };
    const found = await lookupIds(ctx, project.id, ids, { fields: args.fields, detail: args.detail });
    fullFileReadBaseline(ctx, project.id, found.files);
    const symbols = ids.flatMap((id) => {
      const view = found.found.get(id);
      return view ? [view] : [];
    });
    const missing = ids.filter((id) => !found.found.has(id));
    if (found.malformed.length > 0) {
      ctx.meta.warn('malformed_id', `${found.malformed.length} id(s) are not of the shape ${ID_SHAPE}`, { ids: found.malformed.slice(0, 20) });
    }
    if (symbols.length === 0 && explainNoSymbols(ctx, project, namePart(missing[0] ?? '') || undefined, 'no id')) return { symbols, missing };
    if (symbols.length === 0) {
      ctx.meta.empty('target_not_resolved', `none of the ${ids.length} id(s) resolves to a symbol in project '${project.name}'`, {
        missing: missing.slice(0, 20),
      });
    }
    const first = missing[0];
    if (first && namePart(first)) {
      ctx.meta.next('search', { project: project.name, query: namePart(first) }, `find the current id of '${namePart(first)}'`);
    }
    return { symbols, missing };
  },
});
