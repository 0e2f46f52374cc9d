import { z } from 'zod';
import { fullFileReadBaseline } from './baseline';
import { defineTool } from './define';
import { resolveProject } from './project-scope';
import { lookupIds } from './read/lookup';
import { explainUnresolvedId } from './read/unresolved';
import { detailParam, fieldsParam, symbolView } from './read/view';

export const symbolTool = defineTool({
  name: 'symbol',
  title: 'One symbol by id',
  description:
    'Fetch one symbol by id `{file_path}::{qualified_name}#{Kind}` (from search, symbols or context): metadata and its exact source, ' +
    'or a skeleton. A malformed or unknown id answers symbol: null with target_not_resolved and next steps; ' +
    'an id whose file moved resolves to the new id with a symbol_moved warning.',
  tier: 'lite',
  toolset: 'core',
  readOnly: true,
  idempotent: true,
  baseline: 'full_file_read',
  input: z.object({
    project: z.string().optional().describe('Project name; defaults to the ?project= pin of the MCP URL.'),
    id: z.string().min(1).max(2000).describe('Symbol id, e.g. src/app.ts::Server.start#Method (a repeat in one file ends in ~N).'),
    fields: fieldsParam,
    detail: detailParam,
  }),
  output: z.object({ symbol: symbolView.nullable() }),
  handler: async (args, ctx) => {
    const project = await resolveProject(ctx, args.project);
    if (!project) return { symbol: null };
    const found = await lookupIds(ctx, project.id, [args.id], { fields: args.fields, detail: args.detail });
    await fullFileReadBaseline(ctx, project.id, found.files);
    const view = found.found.get(args.id);
    if (view) return { symbol: view };
    await explainUnresolvedId(ctx, project, args.id);
    return { symbol: null };
  },
});
