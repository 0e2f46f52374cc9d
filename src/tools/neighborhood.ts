import * as z from 'zod';
import { parseSymbolId, parseSymbolRef } from '../symbols/symbol-id';
import { namePick } from '../db/name-pick';
import { fileSizes } from '../db/graph';
import { fileSymbolColumns, likelyFileSymbols, SIBLING_COLUMNS, type SiblingRow } from '../db/source';
import { fullFileReadBaseline } from './baseline';
import { defineTool } from './define';
import { resolveProject } from './project-scope';
import { exactlyOne, nodeOut, resolveTarget, rootView } from './graph-common';

const DEFAULT_LIMIT = 50;
/** Files whose symbols a name lookup fetches along, betting the definition chosen lies in one of them. */
const LIKELY_FILES = 3;
const MAX_OFFSET = 10_000;

/** Where a sibling sits relative to the symbol: before or after it, nested inside it, or around it (a container). */
type Position = 'before' | 'after' | 'inside' | 'around';

function positionOf(s: Pick<SiblingRow, 'start_byte' | 'end_byte'>, target: Pick<SiblingRow, 'start_byte' | 'end_byte'>): Position {
  if (s.start_byte >= target.start_byte && s.end_byte <= target.end_byte) return 'inside';
  if (s.start_byte <= target.start_byte && s.end_byte >= target.end_byte) return 'around';
  return s.start_byte < target.start_byte ? 'before' : 'after';
}

const sibling = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.string(),
  parent: z.string().nullable(),
  signature: z.string(),
  start_line: z.number(),
  end_line: z.number(),
  position: z.enum(['before', 'after', 'inside', 'around']).describe('relative to the symbol: before/after it, nested inside it, or a container around it'),
});

export const neighborhoodTool = defineTool({
  name: 'neighborhood',
  title: 'What else its file defines',
  description:
    'The other symbols defined in the same file as one symbol (exactly one of id, name), in source order, each with its position ' +
    '(before, after, inside, around) relative to it. Paginated with limit/offset (total, has_more, next_offset). ' +
    'Ambiguous name: first match, alternatives in warnings. Works for every language: it needs no call graph.',
  tier: 'lite',
  toolset: 'full',
  baseline: 'full_file_read',
  input: z.object({
    project: z.string().optional().describe('Project name; defaults to the ?project= pin of the MCP URL.'),
    id: z.string().min(1).max(2000).optional().describe('Symbol id {file_path}::{qualified_name}#{Kind}. Not with name.'),
    name: z.string().max(500).regex(/\S/, 'name must be non-empty').optional().describe('Name or Class.method; non-empty. Not with id.'),
    limit: z.number().int().min(1).max(200).default(DEFAULT_LIMIT).describe(`Symbols per page, 1–200, default ${DEFAULT_LIMIT}.`),
    offset: z
      .number()
      .int()
      .min(0)
      .max(MAX_OFFSET)
      .default(0)
      .describe(`Symbols to skip, 0–${MAX_OFFSET}, default 0. Past the last one: empty with cap_dropped_all.`),
  }),
  output: z.object({
    symbol: nodeOut.nullable(),
    siblings: z.array(sibling),
    total: z.number(),
    has_more: z.boolean(),
    next_offset: z.number().optional(),
  }),
  handler: async (args, ctx) => {
    exactlyOne('neighborhood', { id: args.id, name: args.name });
    const empty = { symbol: null, siblings: [], total: 0, has_more: false };
    const project = await resolveProject(ctx, args.project);
    if (!project) return empty;
    // An id names its file: the file's symbols and size are asked for in the target's own round trip. A name does
    // not: the symbols of the files likely to define it ride along with the name lookup instead.
    const named = args.id === undefined ? null : parseSymbolId(args.id)?.path;
    const fileFacts = (path: string) => Promise.all([fileSymbolColumns(ctx.db, project.id, path, SIBLING_COLUMNS), fileSizes(ctx.db, project.id, [path])]);
    const early = named ? fileFacts(named) : null;
    early?.catch(() => undefined);
    const likely = args.name === undefined ? null : likelyFileSymbols(ctx.db, project.id, [namePick(parseSymbolRef(args.name).name)], LIKELY_FILES);
    likely?.catch(() => undefined);
    const target = await resolveTarget(ctx, 'neighborhood', project, { id: args.id, name: args.name }, { limit: args.limit });
    if (!target) return empty;

    const inLikely = (await likely?.catch(() => null))?.filter((s) => s.file_path === target.file_path);
    const [symbols, sizes] = await (early && named === target.file_path
      ? early
      : inLikely?.length
        ? [inLikely, [{ path: target.file_path, size: inLikely[0].file_size }]]
        : fileFacts(target.file_path));
    const all = symbols.filter((s) => s.id !== target.id);
    const page = all.slice(args.offset, args.offset + args.limit);
    const hasMore = args.offset + page.length < all.length;
    const step = (offset: number) => ({ project: project.name, id: target.id, limit: args.limit, offset });
    if (page.length === 0) {
      if (all.length > 0) {
        ctx.meta.empty('cap_dropped_all', `offset ${args.offset} is past the last of ${all.length} other symbol(s) in ${target.file_path}`, { cap: 'offset', offset: args.offset, total: all.length });
        ctx.meta.next('neighborhood', step(0), 'rewind to the first page');
      } else {
        ctx.meta.empty('no_results_in_corpus', `${target.id} is the only symbol defined in ${target.file_path}`, { id: target.id });
        ctx.meta.next('trace', { project: project.name, id: target.id, direction: 'both' }, 'its callers and callees in other files');
      }
    } else if (hasMore) {
      ctx.meta.next('neighborhood', step(args.offset + page.length), `fetch the next page (${all.length - args.offset - page.length} more)`);
    }
    fullFileReadBaseline(ctx, project.id, sizes);
    return {
      symbol: rootView(target),
      siblings: page.map((s) => ({
        id: s.id,
        name: s.name,
        kind: s.kind,
        parent: s.parent,
        signature: s.signature,
        start_line: s.start_line,
        end_line: s.end_line,
        position: positionOf(s, target),
      })),
      total: all.length,
      has_more: hasMore,
      ...(hasMore ? { next_offset: args.offset + page.length } : {}),
    };
  },
});
