import { z } from 'zod';
import { fullFileReadBaseline } from './baseline';
import { defineTool } from './define';
import { PROJECT_PARAM } from './describe';
import { resolveProject } from './project-scope';
import { lookupIds } from './read/lookup';
import { explainUnresolvedId } from './read/unresolved';
import { detailParam, fieldsParam, symbolView } from './read/view';

export const symbolTool = defineTool({
  name: 'symbol',
  title: 'Symbol by id',
  description:
    "A symbol's source or skeleton by id (not the whole file); unknown id: symbol null; moved file: new id (symbol_moved).",
  tier: 'lite',
  toolset: 'core',
  readOnly: true,
  idempotent: true,
  baseline: 'full_file_read',
  input: z.object({
    project: z.string().optional().describe(PROJECT_PARAM),
    id: z.string().min(1).max(2000).describe('e.g. a.ts::Cls.run#Method; ~N for the Nth repeat in a file'),
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
    if (view) return { symbol: view };
    await explainUnresolvedId(ctx, project, args.id);
    return { symbol: null };
  },
});
