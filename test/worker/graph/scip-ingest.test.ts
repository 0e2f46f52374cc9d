/**
 * A SCIP index pushed with a commit (POST …/commit, Content-Type application/x-scip): the
 * fixture test/fixtures/scip/ts/index.scip.base64 is what `scip-typescript index` (0.4.0) wrote
 * over the fixture's own sources (its README says how to regenerate it).
 */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { committedPathsStatement, resolveCommitted, type ResolutionPlan } from '../../../src/db/resolution';
import { scipTargets } from '../../../src/db/scip';
import { decodeScip } from '../../../src/graph/scip/decode';
import { scipEdges } from '../../../src/graph/scip/edges';
import { recording } from '../recording-d1';
import { BASE, SELF } from '../helpers';
import { manifestOf, post, projectRow, rows, scalar, tool, type Json, type Reply } from '../upload/support';

const sources = import.meta.glob<string>(['../../fixtures/scip/ts/**/*', '!**/index.scip.base64', '!**/README.md'], { query: '?raw', import: 'default', eager: true });
const encoded = import.meta.glob<string>('../../fixtures/scip/ts/index.scip.base64', { query: '?raw', import: 'default', eager: true });
const ROOT = '../../fixtures/scip/ts/';
const FILES: Record<string, string> = Object.fromEntries(Object.entries(sources).map(([p, c]) => [p.slice(ROOT.length), c]));
const INDEX = Uint8Array.from(atob(Object.values(encoded)[0].replace(/\s+/g, '')), (ch) => ch.charCodeAt(0));

async function commitWith(project: string, uploadId: string, body: Uint8Array | undefined): Promise<Reply> {
  const init: RequestInit = { method: 'POST', ...(body ? { body, headers: { 'content-type': 'application/x-scip' } } : {}) };
  const res = await SELF.fetch(`${BASE}/v1/projects/${project}/uploads/${uploadId}/commit`, init);
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Json) : {} };
}

/** Opens an upload of `files`, sends what is missing, commits with `scip` as the body. */
async function pushScip(project: string, files: Record<string, string>, scip?: Uint8Array) {
  const manifest = await manifestOf(files);
  const opened = await post(`/v1/projects/${project}/uploads`, { manifest });
  expect(opened.status).toBe(201);
  const missing = new Set<string>(opened.body.missing);
  const send = manifest.filter((m) => missing.has(m.hash)).map((m) => ({ path: m.path, hash: m.hash, content: files[m.path] }));
  if (send.length) expect((await post(`/v1/projects/${project}/uploads/${opened.body.upload_id}/files`, { files: send })).status).toBe(200);
  return { uploadId: opened.body.upload_id as string, commit: await commitWith(project, opened.body.upload_id, scip) };
}

interface EdgeRow {
  kind: string;
  src_id: string | null;
  src_file: string;
  dst_id: string | null;
  line: number;
  confidence: number;
  provenance: string;
}

async function edgesOf(project: string): Promise<EdgeRow[]> {
  return rows<EdgeRow>(
    `SELECT e.kind, e.src_file || '::' || e.src_key AS src_id, e.src_file, e.dst_file || '::' || e.dst_key AS dst_id, e.line, e.confidence, e.provenance FROM edges e
     JOIN projects p ON p.id = e.project_id WHERE p.name = ?1 ORDER BY e.src_file, e.line, e.kind, dst_id`,
    project,
  );
}

const show = (edges: EdgeRow[]) => edges.map((e) => `${e.kind} ${e.src_id ?? e.src_file} -> ${e.dst_id} @${e.line} ${e.provenance} ${e.confidence}`);

describe('SCIP index pushed with a commit', () => {
  it('replaces the heuristic edges of the covered files with exact ones, in the commit that pushes them', async () => {
    const { commit } = await pushScip('scip-exact', FILES, INDEX);
    expect(commit.status, JSON.stringify(commit.body).slice(0, 500)).toBe(200);
    expect(commit.body.scip).toMatchObject({ tool: 'scip-typescript', documents: 3, files_covered: 3, skipped: {} });
    expect(commit.body.scip.definitions).toBeGreaterThan(5);
    const edges = await edgesOf('scip-exact');
    const symbolEdges = edges.filter((e) => e.kind !== 'IMPORTS');
    expect(symbolEdges.length).toBeGreaterThan(0);
    expect(symbolEdges.every((e) => e.provenance === 'scip'), show(symbolEdges).join('\n')).toBe(true);
    const lines = show(edges);
    // A call across files, at the call's line.
    expect(lines).toContain('CALLS src/service.ts::Service.find#Method -> src/store.ts::match#Function @15 scip 1');
    // `text.match(…)` is String.prototype.match: no edge to the user-defined match.
    expect(edges.some((e) => e.src_id === 'src/text.ts::words#Function' && e.dst_id === 'src/store.ts::match#Function')).toBe(false);
    // A function passed as a value is a reference, not a call.
    expect(lines.some((l) => l.startsWith('REFERENCES') && l.includes('-> src/store.ts::match#Function @8'))).toBe(true);
    // A call through an interface reaches the interface member exactly and its implementation at 0.9.
    expect(edges.some((e) => e.src_id === 'src/service.ts::Service.remember#Method' && e.dst_id === 'src/store.ts::MemoryStore.put#Method' && e.confidence === 0.9)).toBe(true);
    const project = (await projectRow('scip-exact')) as unknown as Json;
    expect(project?.graph_generation).toBe(project?.generation);
  });

  it('reads the covered files\u2019 symbols once, with resolution\u2019s, and maps the definitions as a read of their own does', async () => {
    const { commit } = await pushScip('scip-once', FILES);
    expect(commit.status).toBe(200);
    const DB = (env as unknown as { DB: D1Database }).DB;
    const project = (await projectRow('scip-once')) as unknown as { id: string; generation: number };
    const documents = decodeScip(INDEX).documents;
    const plan: ResolutionPlan = { projectId: project.id, incoming: [], deleted: [], added: [], oldSymbols: new Map(), full: true };
    const { d1, seen } = recording();
    const result = await resolveCommitted(d1, plan, project.generation, await committedPathsStatement(DB, project.id).all(), documents);
    expect(result.scip?.files).toBe(3);
    // No read of its own (scipTargets' statement): the lines and signatures came with resolution's read.
    expect(seen.filter((x) => /start_line AS startLine/.test(x.sql))).toEqual([]);
    expect(seen.some((x) => /\bstart_line, end_line, signature\b/.test(x.sql))).toBe(true);
    // The definitions map onto the same rows as with scipTargets reading them itself.
    const own = await scipTargets(DB, project.id, documents.map((d) => d.relativePath), []);
    const alone = scipEdges(documents, own.symbols, []).stats;
    expect(alone.definitions).toBeGreaterThan(5);
    expect({ definitions: result.scip?.definitions, unmapped: result.scip?.unmapped }).toEqual({ definitions: alone.definitions, unmapped: alone.unmapped });
    // And the project's exact edges are the ones a commit with the index writes.
    await pushScip('scip-once-commit', FILES, INDEX);
    const strip = (edges: EdgeRow[]) => show(edges.filter((e) => e.provenance === 'scip'));
    expect(strip(await edgesOf('scip-once'))).toEqual(strip(await edgesOf('scip-once-commit')));
  });

  it('answers all references of a symbol through trace kinds REFERENCES', async () => {
    await pushScip('scip-refs', FILES, INDEX);
    const r = await tool('trace', { project: 'scip-refs', name: 'match', kinds: ['CALLS', 'REFERENCES'], depth: 1 });
    expect(r.status, JSON.stringify(r.body).slice(0, 400)).toBe(200);
    const hops = r.body.result.hops as Json[];
    const seen = hops.map((h) => `${h.edge} ${h.file ?? h.node?.file}:${h.call_line ?? h.line}`);
    expect(hops.some((h) => h.edge === 'CALLS'), JSON.stringify(hops)).toBe(true);
    expect(hops.some((h) => h.edge === 'REFERENCES'), seen.join(', ')).toBe(true);
    expect(hops.every((h) => h.provenance === 'scip')).toBe(true);
    expect((r.body._meta.warnings_v2 ?? []).some((w: Json) => w.code === 'references_need_scip')).toBe(false);
  });

  it('says so in _meta when references are asked for a project pushed without a SCIP index', async () => {
    const { commit } = await pushScip('scip-none', FILES);
    expect(commit.status).toBe(200);
    expect(commit.body.scip).toBeUndefined();
    const r = await tool('trace', { project: 'scip-none', name: 'match', kinds: ['REFERENCES'], depth: 1 });
    expect(r.status).toBe(200);
    expect(r.body.result.hops).toEqual([]);
    const warning = (r.body._meta.warnings_v2 as Json[]).find((w) => w.code === 'references_need_scip');
    expect(warning?.message).toMatch(/SCIP/);
  });

  it('refuses a corrupt index with invalid_scip and leaves the index and the open upload untouched', async () => {
    await pushScip('scip-corrupt', FILES, INDEX);
    const before = await edgesOf('scip-corrupt');
    const generation = (await projectRow('scip-corrupt'))?.generation;
    const changed = { ...FILES, 'src/extra.ts': 'export const extra = 1;\n' };
    const broken = INDEX.slice(0, INDEX.length - 7);
    const { uploadId, commit } = await pushScip('scip-corrupt', changed, broken);
    expect(commit.status).toBe(422);
    expect(commit.body.error.code).toBe('invalid_scip');
    expect(commit.body.error.suggestion).toMatch(/--no-scip/);
    expect(await edgesOf('scip-corrupt')).toEqual(before);
    expect((await projectRow('scip-corrupt'))?.generation).toBe(generation);
    // The upload is still open: committing it without the index works.
    const retry = await commitWith('scip-corrupt', uploadId, undefined);
    expect(retry.status).toBe(200);
  });

  it('refuses an empty body and garbage bytes with invalid_scip', async () => {
    for (const body of [new Uint8Array(0), new TextEncoder().encode('{"not": "scip"}')]) {
      const { commit } = await pushScip(`scip-garbage-${body.length}`, FILES, body);
      expect(commit.status).toBe(422);
      expect(commit.body.error.code).toBe('invalid_scip');
    }
  });

  it('refuses an index produced for another root with scip_mismatch naming the folder', async () => {
    const nested = Object.fromEntries(Object.entries(FILES).map(([p, c]) => [`packages/web/${p}`, c]));
    const { commit } = await pushScip('scip-root', nested, INDEX);
    expect(commit.status).toBe(422);
    expect(commit.body.error.code).toBe('scip_mismatch');
    expect(commit.body.error.details.root_prefix).toBe('packages/web/');
    expect(commit.body.error.suggestion).toMatch(/packages\/web/);
    expect(await scalar("SELECT count(*) AS n FROM edges e JOIN projects p ON p.id = e.project_id WHERE p.name = 'scip-root'")).toBe(0);
  });

  it('leaves out, with a warning, documents whose ranges run past their pushed file, and keeps their heuristic edges', async () => {
    const shorter = { ...FILES, 'src/text.ts': 'export function words(text: string): string[] {\n  return text.split(" ");\n}\n' };
    const { commit } = await pushScip('scip-ranges', shorter, INDEX);
    expect(commit.status, JSON.stringify(commit.body).slice(0, 400)).toBe(200);
    expect(commit.body.scip).toMatchObject({ files_covered: 2, skipped: { range_outside_file: 1 } });
    expect((commit.body._meta.warnings_v2 as Json[]).some((w) => w.code === 'scip_documents_skipped')).toBe(true);
    const edges = await edgesOf('scip-ranges');
    expect(edges.filter((e) => e.src_file === 'src/text.ts').every((e) => e.provenance !== 'scip')).toBe(true);
    expect(edges.some((e) => e.src_file === 'src/service.ts' && e.provenance === 'scip')).toBe(true);
  });

  it('refuses an index none of whose documents is a pushed file', async () => {
    const { commit } = await pushScip('scip-unknown', { 'lib/other.ts': 'export const x = 1;\n' }, INDEX);
    expect(commit.status).toBe(422);
    expect(commit.body.error.code).toBe('scip_mismatch');
    expect(commit.body.error.details.skipped).toEqual({ unknown_path: 3 });
  });
});
