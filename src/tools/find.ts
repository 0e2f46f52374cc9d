import { codeUnitOrder } from '../util/order';
import * as z from 'zod';
import { filePage, listedFiles, pathsOrderedAlike, type FileFilter, type ListedFile } from '../db/content';
import { projectListing, type BaselineProject } from './baseline';
import { BoundedMap } from '../util/bounded-map';
import { languageStats } from '../db/projects';
import { tokensForBytes } from '../envelope/tokens';
import { defineTool, type ToolContext } from './define';
import { PROJECT_PARAM } from './describe';
import type { Glob } from '../util/glob';
import { globArg, globParamText, paramError } from './params';
import { parseSize } from './grep/sizes';
import { resolveProject } from './project-scope';

const fileOut = z.object({
  path: z.string(),
  language: z.string(),
  size: z.number().describe('bytes'),
  symbols: z.number(),
  status: z.string().describe('indexed | failed | skipped'),
});

const output = z.object({
  files: z.array(fileOut).describe('Matching files by path.'),
  total: z.number(),
  has_more: z.boolean(),
});
type Output = z.infer<typeof output>;

const size = z.union([z.number(), z.string().max(32)]);

interface Args {
  pattern?: string;
  language?: string;
  min_size?: number | string;
  max_size?: number | string;
  limit: number;
  project?: string;
}

export const findFilesTool = defineTool({
  name: 'find',
  title: 'Find files',
  description: 'Find files of a project by path glob, language and size; returns path, language, size, symbols and index status, sorted by path.',
  tier: 'lite',
  toolset: 'full',
  baseline: 'walk_directory',
  input: z.object({
    pattern: z
      .string()
      .max(1000)
      .optional()
      .describe(globParamText(1000)),
    language: z.string().max(50).optional().describe('Language id, e.g. typescript, python, markdown (none = no extractor).'),
    min_size: size.optional().describe('Smallest size: non-negative bytes, or with a unit: 10k, 2m, 1gb (K = 1024).'),
    max_size: size.optional().describe('Largest size, same forms as min_size; not below min_size.'),
    limit: z.number().int().min(1).max(1000).default(100).describe('Files returned: 1–1000, default 100; base-10 strings accepted.'),
    project: z.string().optional().describe(PROJECT_PARAM),
  }),
  output,
  handler: async (args, ctx) => find(args, ctx),
});

function sizeArg(name: 'min_size' | 'max_size', value: number | string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const bytes = parseSize(value);
  if (bytes === null) {
    throw paramError('find', name, `'${String(value).slice(0, 40)}' is not a non-negative size`, 'pass bytes (2048) or a number with a unit: 10k, 2m, 1gb (K = 1024 bytes)');
  }
  return bytes;
}

async function find(args: Args, ctx: ToolContext): Promise<Output> {
  const minSize = sizeArg('min_size', args.min_size);
  const maxSize = sizeArg('max_size', args.max_size);
  if (minSize !== undefined && maxSize !== undefined && minSize > maxSize) {
    throw paramError('find', 'max_size', `${maxSize} bytes is below min_size (${minSize} bytes)`, 'pass a max_size not below min_size, or drop one of them');
  }
  let glob: Glob | null = null;
  if (args.pattern !== undefined) glob = globArg('find', 'pattern', args.pattern);
  const empty: Output = { files: [], total: 0, has_more: false };
  const project = await resolveProject(ctx, args.project);
  if (!project) return empty;

  const filter: FileFilter = { language: args.language, minSize, maxSize };
  // walk_directory: the full listing of the project, one `path size` line per file (asked for in the same round trip).
  const [found, listing] = await Promise.all([firstFiles(ctx.db, project, filter, glob, args.limit), projectListing(ctx, project)]);
  ctx.meta.baseline('walk_directory', tokensForBytes(listing.chars));

  if (found.total === 0) {
    if (listing.files === 0) {
      ctx.meta.empty('no_results_in_corpus', `project '${project.name}' has no files; push its source first`);
      ctx.meta.next('list', {}, 'confirm the right project is scoped');
    } else await explainNarrow(args, ctx, { project, filter, glob, files: listing.files });
    return empty;
  }
  const files = found.first.map((f) => ({ path: f.path, language: f.language, size: f.size, symbols: f.symbols, status: f.status }));
  const hasMore = found.total > files.length;
  if (hasMore) ctx.meta.next('find', { ...stepArgs(args), limit: Math.min(1000, found.total), project: project.name }, `list all ${found.total} matching files`);
  return { files, total: found.total, has_more: hasMore };
}

const byPath = (a: ListedFile, b: ListedFile) => codeUnitOrder(a.path, b.path);

/** Per project generation (its paths are fixed): whether SQLite orders its paths as JavaScript does (pathsOrderedAlike). */
const orderedAlike = new BoundedMap<string, boolean>(256);

async function pathOrderAlike(d1: D1Database, project: BaselineProject): Promise<boolean> {
  const key = `${project.id}@${project.generation}`;
  const known = orderedAlike.get(key);
  if (known !== undefined) return known;
  const alike = await pathsOrderedAlike(d1, project.id);
  orderedAlike.set(key, alike);
  return alike;
}

/**
 * The first `limit` matching files by path and how many match. No glob, or a
 * plain one (a folder, a name ending: Glob.plain): SQL filters, counts and cuts
 * the page. Any other glob: the candidate rows come back and the glob tests each.
 */
async function firstFiles(d1: D1Database, project: BaselineProject, filter: FileFilter, glob: Glob | null, limit: number): Promise<{ first: ListedFile[]; total: number }> {
  if (!glob || glob.plain) {
    const [page, alike] = await Promise.all([filePage(d1, project.id, filter, glob?.plain ?? {}, limit), pathOrderAlike(d1, project)]);
    // JavaScript orders a few characters (U+E000–U+FFFF against astral ones) unlike SQLite: then every match is sorted here.
    if (alike) return { first: page.rows.sort(byPath), total: page.total };
  }
  const all = await matchingFiles(d1, project.id, filter, glob);
  return { first: all.slice(0, limit), total: all.length };
}

async function matchingFiles(d1: D1Database, projectId: string, filter: FileFilter, glob: Glob | null): Promise<ListedFile[]> {
  // A glob under a folder reads that folder's range of paths; one anywhere seeks its name ending, if it has one.
  const narrow = glob?.folder ? { under: glob.folder } : { ending: glob?.ending || undefined };
  const rows = await listedFiles(d1, projectId, { ...filter, ...narrow, pathContains: glob?.literals });
  const kept = glob ? rows.filter((f) => glob.test(f.path)) : rows;
  return kept.sort(byPath);
}

/**
 * How many files match: counted in SQL without a glob or with a plain one (no rows read back), by listing the
 * candidates and testing the glob otherwise; with no condition at all, every file of the project (`files`).
 */
async function countMatching(d1: D1Database, projectId: string, filter: FileFilter, glob: Glob | null, files: number): Promise<number> {
  if (!glob && Object.values(filter).every((v) => v === undefined)) return files;
  if (!glob || glob.plain) return (await filePage(d1, projectId, filter, glob?.plain ?? {}, 1)).total;
  return (await matchingFiles(d1, projectId, filter, glob)).length;
}

type FilterName = 'pattern' | 'language' | 'min_size' | 'max_size';

/** Names the filter whose removal brings back the most files, and steps to that call. */
async function explainNarrow(args: Args, ctx: ToolContext, c: { project: { id: string; name: string }; filter: FileFilter; glob: Glob | null; files: number }): Promise<void> {
  const present = (['pattern', 'language', 'min_size', 'max_size'] as const).filter((k) => args[k] !== undefined);
  // Every count (and the language list) is asked for at once: one round trip.
  const counts = present.map((name) => {
    const filter = { ...c.filter, ...(name === 'language' ? { language: undefined } : {}), ...(name === 'min_size' ? { minSize: undefined } : {}), ...(name === 'max_size' ? { maxSize: undefined } : {}) };
    return countMatching(ctx.db, c.project.id, filter, name === 'pattern' ? null : c.glob, c.files);
  });
  const langs = args.language !== undefined ? languageStats(ctx.db, c.project.id) : null;
  // Awaited in turn: one that fails first leaves the others unawaited.
  for (const asked of [...counts, langs]) asked?.catch(() => undefined);
  let best: { name: FilterName; count: number } | null = null;
  for (const [k, name] of present.entries()) {
    const count = await counts[k];
    if (count > 0 && (!best || count > best.count)) best = { name, count };
  }
  let hint = '';
  if (langs) {
    const stats = await langs;
    if (!stats.some((l) => l.language === args.language)) hint = `; its languages are ${stats.map((l) => `${l.language} (${l.files})`).join(', ')}`;
  }
  const filters = present.map((k) => `${k}=${JSON.stringify(args[k])}`).join(', ');
  const culprit = best ? `; dropping ${best.name} finds ${best.count}` : '';
  ctx.meta.empty('query_too_narrow', `no file of '${c.project.name}' (${c.files} files) matches ${filters}${culprit}${hint}`, {
    filters: present,
    ...(best ? { filter: best.name } : {}),
  });
  if (best) {
    const step = stepArgs(args);
    delete step[best.name];
    ctx.meta.next('find', { ...step, project: c.project.name }, `drop ${best.name}: ${best.count} file(s) match`);
  } else ctx.meta.next('find', { project: c.project.name }, 'list every file of the project');
}

function stepArgs(a: Args): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (a.pattern !== undefined) out.pattern = a.pattern;
  if (a.language !== undefined) out.language = a.language;
  if (a.min_size !== undefined) out.min_size = a.min_size;
  if (a.max_size !== undefined) out.max_size = a.max_size;
  if (a.limit !== 100) out.limit = a.limit;
  return out;
}
