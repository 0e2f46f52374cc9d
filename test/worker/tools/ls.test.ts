import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { callTool, rest, type Json } from '../helpers';
import { folderListing, projectListing, STORED_LISTING_MAX_DEPTH, STORED_LISTING_MIN_FILES } from '../../../src/db/content';
import { getProjectByName } from '../../../src/db/projects';

const PROJECT = 'ls-main';
const FILES: Record<string, string> = {
  'README.md': '# Top\n',
  'package.json': '{"name": "x"}\n',
  'src/index.ts': 'export const a = 1;\n',
  'src/db/schema.ts': 'export interface Row { id: string }\n',
  'src/db/queries/find.ts': 'export function find() {}\n',
  'src/tools/grep.ts': 'export function grep() {}\n',
  'test/a.test.ts': 'it("a", () => {});\n',
};
const bytes = (s: string) => new TextEncoder().encode(s).length;
const paths = Object.keys(FILES);

async function ls(args: Json): Promise<Json> {
  const { status, body } = await rest('ls', { project: PROJECT, ...args });
  expect(status, JSON.stringify(body).slice(0, 300)).toBe(200);
  return body;
}

async function runStep(step: Json): Promise<Json> {
  const { status, body } = await rest(step.tool, step.args);
  expect(status, JSON.stringify(body).slice(0, 300)).toBe(200);
  expect(((body._meta.warnings_v2 ?? []) as Json[]).filter((w) => w.code === 'unknown_arg')).toEqual([]);
  return body;
}

const under = (dir: string) => paths.filter((p) => p.startsWith(`${dir}/`)).length;
const names = (body: Json) => (body.result.entries as Json[]).map((e) => `${e.type}:${e.path}`);

beforeAll(async () => {
  const pushed = await rest('index', { project: PROJECT, files: Object.entries(FILES).map(([path, content]) => ({ path, content })) });
  expect(pushed.status).toBe(200);
});

describe('ls', () => {
  it('lists the root: folders first with file counts, then files with language, size and symbols', async () => {
    for (const path of ['', '.', './']) {
      const body = await ls({ path });
      expect(names(body)).toEqual(['dir:src', 'dir:test', 'file:README.md', 'file:package.json']);
      expect(body.result.entries[0]).toEqual({ name: 'src', path: 'src', type: 'dir', files: under('src') });
      expect(body.result.entries[2]).toMatchObject({ name: 'README.md', type: 'file', language: 'markdown', size: bytes(FILES['README.md']) });
      expect(typeof body.result.entries[3].symbols).toBe('number');
      expect(body.result).toMatchObject({ path: '', total: 4, has_more: false });
    }
  });

  it('descends max_depth levels, each folder followed by its own entries', async () => {
    const body = await ls({ path: 'src', max_depth: 2 });
    expect(names(body)).toEqual(['dir:src/db', 'dir:src/db/queries', 'file:src/db/schema.ts', 'dir:src/tools', 'file:src/tools/grep.ts', 'file:src/index.ts']);
    expect(body.result.entries.find((e: Json) => e.path === 'src/db').files).toBe(under('src/db'));
    const deep = await ls({ path: 'src', max_depth: 5 });
    expect(deep.result.entries.filter((e: Json) => e.type === 'file').length).toBe(under('src'));
  });

  it('reads the files below max_depth as counts per folder, not as rows, and the whole listing’s size in the same statement', async () => {
    const DB = (env as unknown as { DB: D1Database }).DB;
    const row = await DB.prepare('SELECT id FROM projects WHERE name = ?1').bind(PROJECT).first<{ id: string }>();
    const byFolder = (a: { folder: string }, b: { folder: string }) => (a.folder < b.folder ? -1 : 1);
    const root = await folderListing(DB, row!.id, undefined, 1);
    expect(root.files.map((f) => f.path).sort()).toEqual(['README.md', 'package.json']);
    expect(root.deeper.sort(byFolder)).toEqual([{ folder: 'src', files: under('src') }, { folder: 'test', files: under('test') }]);
    expect([root.total, root.chars]).toEqual([paths.length, paths.reduce((n, p) => n + p.length + String(bytes(FILES[p])).length + 2, 0)]);
    const src = await folderListing(DB, row!.id, 'src', 2);
    expect(src.files.map((f) => f.path).sort()).toEqual(['src/db/schema.ts', 'src/index.ts', 'src/tools/grep.ts']);
    // What ls shows of a file, and no more: no content hash travels out of D1 (64 characters a file).
    for (const f of src.files) expect(Object.keys(f).sort()).toEqual(['language', 'path', 'size', 'status', 'symbols']);
    expect(src.deeper).toEqual([{ folder: 'db/queries', files: 1 }]);
    expect(src.total).toBe(under('src'));
  });

  it('answers over MCP with structuredContent valid against the output schema', async () => {
    const { body } = await callTool('ls', { project: PROJECT, path: 'src', max_depth: 3 });
    expect(body.result.isError).toBeUndefined();
    expect(body.result.structuredContent.entries.length).toBe((await ls({ path: 'src', max_depth: 3 })).result.entries.length);
  });

  it('lists a file path as that one file', async () => {
    const body = await ls({ path: 'src/index.ts' });
    expect(body.result.entries).toEqual([{ name: 'index.ts', path: 'src/index.ts', type: 'file', language: 'typescript', size: bytes(FILES['src/index.ts']), symbols: expect.any(Number) }]);
  });

  it('pages with limit and has_more', async () => {
    const body = await ls({ path: '', max_depth: 5, limit: 3 });
    expect(body.result.entries).toHaveLength(3);
    expect(body.result.has_more).toBe(true);
    const rest = await runStep(body._meta.next_steps[0]);
    expect(rest.result.entries).toHaveLength(body.result.total);
  });

  it('declares a walk_directory baseline over every file under the folder', async () => {
    const body = await ls({ path: 'src/db' });
    const listing = paths.filter((p) => p.startsWith('src/db/')).reduce((n, p) => n + `${p} ${bytes(FILES[p])}\n`.length, 0);
    const used = Math.ceil(JSON.stringify(body.result).length / 4);
    expect(body._meta.baseline_method).toBe('walk_directory');
    expect(body._meta.tokens_saved).toBe(Math.max(0, Math.ceil(listing / 4) - used));
  });

  it('refuses paths with .. segments and depths outside 1–5', async () => {
    for (const args of [{ path: '../etc' }, { path: 'src/../x' }, { max_depth: 0 }, { max_depth: 6 }]) {
      const { status, body } = await rest('ls', { project: PROJECT, ...args });
      expect(status, JSON.stringify(args)).toBe(400);
      expect(body.error.code).toBe('invalid_params');
    }
  });
});

describe('ls empty results', () => {
  it('target_not_resolved for an unknown folder, with ls on the nearest existing parent', async () => {
    const body = await ls({ path: 'src/db/nope/deeper' });
    expect(body._meta.empty_reason).toBe('target_not_resolved');
    const [step] = body._meta.next_steps as Json[];
    expect(step).toMatchObject({ tool: 'ls', args: { path: 'src/db', project: PROJECT } });
    const after = await runStep(step);
    expect(names(after)).toContain('file:src/db/schema.ts');
  });

  it('steps to the root when no ancestor exists', async () => {
    const body = await ls({ path: 'nowhere/at/all' });
    expect(body._meta.empty_reason).toBe('target_not_resolved');
    const after = await runStep(body._meta.next_steps[0]);
    expect(after.result.entries.length).toBeGreaterThan(0);
  });

  it('no_results_in_corpus for a project with no files', async () => {
    await env.DB.prepare("INSERT INTO projects (id, name, created_at, indexed_at, file_count, symbol_count) VALUES ('ls-empty-id', 'ls-empty', 1, 2, 0, 0)").run();
    const body = await rest('ls', { project: 'ls-empty' });
    expect(body.body._meta.empty_reason).toBe('no_results_in_corpus');
    for (const step of body.body._meta.next_steps) await runStep(step);
  });

  it('no_project_indexed for an unknown project', async () => {
    const { body } = await rest('ls', { project: 'ls-nope' });
    expect(body._meta.empty_reason).toBe('no_project_indexed');
    for (const step of body._meta.next_steps) await runStep(step);
  });

  it("keeps a large project's shallow root listings per generation: a later call reads the stored one, a push lists again", async () => {
    const project = 'ls-stored';
    const pushed = await rest('index', { project, files: Object.entries(FILES).map(([path, content]) => ({ path, content })) });
    expect(pushed.status).toBe(200);
    const db = (env as unknown as { DB: D1Database }).DB;
    const { id } = (await db.prepare('SELECT id FROM projects WHERE name = ?1').bind(project).first<{ id: string }>())!;
    const stored = (name: string) => db.prepare('SELECT body FROM project_aggregates WHERE project_id = ?1 AND name = ?2').bind(id, name).first<{ body: string }>();
    const root = async (args: Json = {}) => (await rest('ls', { project, ...args })).body.result;
    // A small project lists its root anew every time.
    expect(names({ result: await root() })).toEqual(['dir:src', 'dir:test', 'file:README.md', 'file:package.json']);
    expect(await stored('ls:1')).toBeNull();
    // Counted as large (the threshold is the project's file count), its root down to two levels is kept.
    await db.prepare('UPDATE projects SET file_count = ?2 WHERE id = ?1').bind(id, STORED_LISTING_MIN_FILES).run();
    const first = await root();
    expect(names({ result: first })).toEqual(['dir:src', 'dir:test', 'file:README.md', 'file:package.json']);
    const kept = JSON.parse((await stored('ls:1'))!.body);
    expect(kept.total).toBe(paths.length);
    // The stored row answers: a marked copy of it comes back.
    kept.files.push({ path: 'marked.md', hash: 'x', size: 1, language: 'markdown', status: 'indexed', symbols: 0 });
    await db.prepare("UPDATE project_aggregates SET body = ?2 WHERE project_id = ?1 AND name = 'ls:1'").bind(id, JSON.stringify(kept)).run();
    expect(names({ result: await root() })).toContain('file:marked.md');
    // Other folders and deeper listings are listed anew, never kept.
    await root({ path: 'src' });
    await root({ max_depth: STORED_LISTING_MAX_DEPTH + 1 });
    expect(await stored(`ls:${STORED_LISTING_MAX_DEPTH + 1}`)).toBeNull();
    // A push moves the generation: the root is listed from the files again.
    const again = await rest('index', { project, files: [...Object.entries(FILES), ['docs/new.md', '# New\n']].map(([path, content]) => ({ path, content })) });
    expect(again.status).toBe(200);
    await db.prepare('UPDATE projects SET file_count = ?2 WHERE id = ?1').bind(id, STORED_LISTING_MIN_FILES).run();
    expect(names({ result: await root() })).toEqual(['dir:docs', 'dir:src', 'dir:test', 'file:README.md', 'file:package.json']);
    // A root listing of more files than a kept row holds is marked as such, and listed anew on every call.
    const row = await getProjectByName(db, project);
    await db.prepare("DELETE FROM project_aggregates WHERE project_id = ?1 AND name = 'ls:2'").bind(id).run();
    const big = await projectListing(db, row!, undefined, 2, 1);
    expect(big.files.length).toBeGreaterThan(1);
    expect((await stored('ls:2'))?.body).toBe('null');
    expect(await projectListing(db, row!, undefined, 2, 1)).toEqual(big);
  });
});
