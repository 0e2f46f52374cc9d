import { z } from 'zod';
import { fullFileReadBaseline } from './baseline';
import { defineTool } from './define';
import { resolveProject } from './project-scope';
import { lookupIds } from './read/lookup';
import { ID_SHAPE, namePart } from './read/symbol-id';
import { detailParam, fieldsParam, symbolView } from './read/view';

export const MAX_IDS = 100;

export const symbolsTool = defineTool({
  name: 'symbols',
  title: 'Several symbols by id',
  description:
    'Fetch up to 100 symbols by id in one call, in input order (repeats once); ids not found are listed in missing. ' +
    'Same fields and detail as symbol; moved files resolve with symbol_moved warnings. Empty only when no id resolves.',
  tier: 'lite',
  toolset: 'core',
  readOnly: true,
  idempotent: true,
  baseline: 'full_file_read',
  input: z.object({
    project: z.string().optional().describe('Project name; defaults to the ?project= pin of the MCP URL.'),
    ids: z
      .array(z.string().min(1).max(2000))
      .min(1)
      .max(MAX_IDS)
      .describe(`Symbol ids as symbol takes them; 1–${MAX_IDS} ids.`),
    fields: fieldsParam,
    detail: detailParam,
  }),
  output: z.object({ symbols: z.array(symbolView), missing: z.array(z.string()) }),
  handler: async (args, ctx) => {
    const ids = [...new Set(args.ids)];
    const project = await resolveProject(ctx, args.project);
    if (!project) return { symbols: [], missing: ids };
    const found = await lookupIds(ctx, project.id, ids, { fields: args.fields, detail: args.detail });
    await fullFileReadBaseline(ctx, project.id, found.files);
    const symbols = ids.flatMap((id) => {
      const view = found.found.get(id);
      return view ? [view] : [];
    });
    const missing = ids.filter((id) => !found.found.has(id));
    if (found.malformed.length > 0) {
      ctx.meta.warn('malformed_id', `${found.malformed.length} id(s) are not of the shape ${ID_SHAPE}`, { ids: found.malformed.slice(0, 20) });
    }
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
