import { codeUnitOrder } from '../util/order';
import * as z from 'zod';
import { fileAt, listingChars, projectListing, type FolderListing, type ListedFile } from '../db/content';
import { tokensForBytes } from '../envelope/tokens';
import { defineTool, type ToolContext } from './define';
import { PROJECT_PARAM } from './describe';
import { paramError } from './params';
import { resolveProject } from './project-scope';

const entry = z.object({
  name: z.string(),
  path: z.string(),
  type: z.enum(['dir', 'file']),
  language: z.string().optional(),
  size: z.number().optional().describe('bytes'),
  symbols: z.number().optional(),
  files: z.number().optional().describe('Files anywhere under this folder.'),
});
type Entry = z.infer<typeof entry>;

const output = z.object({
  path: z.string().describe("The folder listed ('' = project root)."),
  entries: z.array(entry),
  total: z.number(),
  has_more: z.boolean(),
});
type Output = z.infer<typeof output>;

export const lsTool = defineTool({
  name: 'ls',
  title: 'List a folder',
  description: 'List one folder of a project: sub-folders first (with file counts), then files (language, size, symbols), each sorted by name; deeper levels follow their folder.',
  tier: 'lite',
  toolset: 'full',
  baseline: 'walk_directory',
  input: z.object({
    path: z.string().max(1024).default('').describe("One folder relative to the project root ('' or '.' is the root; a file path lists that file); no '..' segments. Default ''."),
    max_depth: z.number().int().min(1).max(5).default(1).describe('Levels to list: 1–5, default 1; base-10 strings accepted.'),
    limit: z.number().int().min(1).max(1000).default(200).describe('Entries returned: 1–1000, default 200; base-10 strings accepted.'),
    project: z.string().optional().describe(PROJECT_PARAM),
  }),
  output,
  handler: async (args, ctx) => ls(args, ctx),
});

/** `./src/`, `/src`, `src` → `src`; '' and '.' → ''. */
export function normaliseDir(path: string): string {
  const dir = path.trim().replace(/^(\.\/|\/)+/, '').replace(/\/+$/, '');
  return dir === '.' ? '' : dir;
}

async function ls(args: { path: string; max_depth: number; limit: number; project?: string }, ctx: ToolContext): Promise<Output> {
  const dir = normaliseDir(args.path);
  if (dir.split('/').some((s) => s === '..' || (s === '' && dir !== '') || s === '.')) {
    throw paramError('ls', 'path', "must be a folder relative to the project root, without '..' or empty segments", "pass e.g. 'src/db', or '' for the root");
  }
  const project = await resolveProject(ctx, args.project);
  if (!project) return { path: dir, entries: [], total: 0, has_more: false };

  const listing = await projectListing(ctx.db, project, dir || undefined, args.max_depth);
  // walk_directory: the full listing of the scope, one `path size` line per file under it.
  ctx.meta.baseline('walk_directory', tokensForBytes(listing.chars));

  if (listing.total === 0) {
    if (dir === '') {
      ctx.meta.empty('no_results_in_corpus', `project '${project.name}' has no files; push its source first`);
      ctx.meta.next('list', {}, 'confirm the right project is scoped');
      return { path: dir, entries: [], total: 0, has_more: false };
    }
    const file = await fileAt(ctx.db, project.id, dir);
    if (file) return { path: dir, entries: [fileEntry(file, file.path.split('/').pop() ?? file.path)], total: 1, has_more: false };
    const parent = await nearestFolder(ctx.db, project.id, dir);
    ctx.meta.empty('target_not_resolved', `'${dir}' is not a folder or file of '${project.name}'; the nearest existing folder is '${parent || '(root)'}'`, { path: dir, nearest: parent });
    ctx.meta.next('ls', { path: parent, project: project.name }, 'list the nearest existing folder');
    return { path: dir, entries: [], total: 0, has_more: false };
  }

  const entries = tree(listing, dir, args.max_depth);
  const page = entries.slice(0, args.limit);
  const hasMore = entries.length > page.length;
  if (hasMore) {
    ctx.meta.next('ls', { path: dir, max_depth: args.max_depth, limit: Math.min(1000, entries.length), project: project.name }, `list all ${entries.length} entries`);
  }
  return { path: dir, entries: page, total: entries.length, has_more: hasMore };
}

function fileEntry(f: ListedFile, name: string): Entry {
  return { name, path: f.path, type: 'file', language: f.language, size: f.size, symbols: f.symbols };
}

interface Folder {
  dirs: Map<string, Folder>;
  files: { name: string; row: ListedFile }[];
  count: number;
}

/**
 * Entries down to `depth` levels below `dir`, pre-order: at each level folders first, then files, by name. The files
 * deeper than `depth` come as counts per folder at the last level, and count in every folder above it.
 */
function tree(listing: Pick<FolderListing, 'files' | 'deeper'>, dir: string, depth: number): Entry[] {
  const root: Folder = { dirs: new Map(), files: [], count: 0 };
  /** The folder `parts` name below the root, made on the way, each counting `n` more files. */
  const folder = (parts: readonly string[], n: number): Folder => {
    let node = root;
    node.count += n;
    for (const part of parts) {
      let next = node.dirs.get(part);
      if (!next) node.dirs.set(part, (next = { dirs: new Map(), files: [], count: 0 }));
      next.count += n;
      node = next;
    }
    return node;
  };
  for (const f of listing.files) {
    const parts = (dir ? f.path.slice(dir.length + 1) : f.path).split('/');
    folder(parts.slice(0, -1), 1).files.push({ name: parts[parts.length - 1], row: f });
  }
  for (const d of listing.deeper) folder(d.folder.split('/'), d.files);
  const out: Entry[] = [];
  const walk = (node: Folder, prefix: string, level: number) => {
    for (const name of [...node.dirs.keys()].sort(codeUnitOrder)) {
      const sub = node.dirs.get(name) as Folder;
      const path = prefix ? `${prefix}/${name}` : name;
      out.push({ name, path, type: 'dir', files: sub.count });
      if (level < depth) walk(sub, path, level + 1);
    }
    for (const f of [...node.files].sort((a, b) => codeUnitOrder(a.name, b.name))) out.push(fileEntry(f.row, f.name));
  };
  walk(root, dir, 1);
  return out;
}

/** The deepest ancestor of `dir` that holds files ('' when only the root does). */
async function nearestFolder(d1: D1Database, projectId: string, dir: string): Promise<string> {
  const parts = dir.split('/');
  for (let n = parts.length - 1; n > 0; n--) {
    const candidate = parts.slice(0, n).join('/');
    if ((await listingChars(d1, projectId, candidate)).files > 0) return candidate;
  }
  return '';
}
