import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { rest, type Json } from '../helpers';

/**
 * grep on a project of SCALE_MB of generated source, stored directly in D1
 * (content-addressed blobs, their trigram index, the file rows), so the
 * suite measures grep rather than extraction. Timings are logged; the
 * assertions hold the shape (prefilter use, budget flag), not the speed.
 */
const SCALE_MB = 6;
const FILE_BYTES = 10_000;
const PROJECT = 'grep-scale';
const RARE = 'zqx_rare_marker';
const RARE_FILES = [17, 333, 580];
/** A literal 60 files hold: more than the first page's 32, fewer than the 96 a page takes whole. */
const MID = 'zqx_mid_marker';
const MID_FILES = (i: number) => i % 10 === 3;

let seed = 1234;
function rand(n: number): number {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed % n;
}

const WORDS = Array.from({ length: 400 }, (_, i) => {
  const syl = ['ka', 'lo', 'mi', 'ren', 'to', 'sa', 'vu', 'pel', 'dor', 'ix'];
  return `${syl[i % 10]}${syl[(i * 7) % 10]}${syl[(i * 3 + 1) % 10]}${i % 13 === 0 ? '_id' : ''}`;
});

function fileContent(i: number): string {
  const lines: string[] = [`// module ${i}`, `import { ${WORDS[rand(400)]} } from './m${rand(1000)}';`];
  let size = 0;
  while (size < FILE_BYTES) {
    const w = () => WORDS[rand(WORDS.length)];
    const line = rand(5) === 0 ? `export function ${w()}(${w()}: number, ${w()}: string) {` : `  const ${w()} = ${w()}(${w()}, ${rand(10_000)}); // ${w()} ${w()}`;
    lines.push(line);
    size += line.length + 1;
  }
  if (RARE_FILES.includes(i)) lines.splice(5, 0, `  const ${RARE} = 1;`);
  if (MID_FILES(i)) lines.splice(7, 0, `  const ${MID} = ${i};`);
  return `${lines.join('\n')}\n`;
}

async function sha(text: string): Promise<string> {
  const d = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

const files: { path: string; content: string }[] = [];

beforeAll(async () => {
  const t0 = Date.now();
  const count = Math.round((SCALE_MB * 1_000_000) / FILE_BYTES);
  for (let i = 0; i < count; i++) files.push({ path: `pkg${String(i % 20).padStart(2, '0')}/mod${String(i).padStart(4, '0')}.ts`, content: fileContent(i) });
  const projectId = `scale-${Date.now().toString(36)}`;
  const now = Date.now();
  const rows = await Promise.all(files.map(async (f) => ({ ...f, hash: await sha(f.content), size: new TextEncoder().encode(f.content).length })));
  for (let i = 0; i < rows.length; i += 50) {
    const chunk = rows.slice(i, i + 50);
    await env.DB.batch(
      chunk.flatMap((r) => [
        env.DB.prepare('INSERT INTO blobs (hash, size, content, created_at) VALUES (?1, ?2, ?3, ?4) ON CONFLICT(hash) DO NOTHING').bind(r.hash, r.size, r.content, now),
        env.DB.prepare(
          `INSERT INTO files (project_id, path, hash, size, language, corpus, status, reason, symbol_count, extractor_version, indexed_at)
           VALUES (?1, ?2, ?3, ?4, 'typescript', 'code', 'indexed', NULL, 0, 1, ?5)`,
        ).bind(projectId, r.path, r.hash, r.size, now),
      ]),
    );
  }
  await env.DB.prepare(
    `INSERT INTO projects (id, name, created_at, indexed_at, extractor_version, schema_version_at_index, file_count, symbol_count)
     VALUES (?1, ?2, ?3, ?3, 1, NULL, ?4, 0)`,
  )
    .bind(projectId, PROJECT, now, rows.length)
    .run();
  const bytes = rows.reduce((n, r) => n + r.size, 0);
  console.log(`grep-scale: stored ${rows.length} files, ${(bytes / 1e6).toFixed(1)} MB in ${Date.now() - t0} ms`);
}, 300_000);

async function timed(tool: string, args: Json): Promise<{ body: Json; ms: number }> {
  const t0 = Date.now();
  const { status, body } = await rest(tool, { project: PROJECT, ...args });
  const ms = Date.now() - t0;
  expect(status, JSON.stringify(body).slice(0, 300)).toBe(200);
  return { body, ms };
}

function stats(body: Json): Json {
  return (body._meta.diagnosis_v2 as Json[]).find((d) => d.code === 'grep_scan')?.data as Json;
}

describe(`grep on a ${SCALE_MB} MB project`, () => {
  it('finds a rare literal through the trigram prefilter, reading only its files', async () => {
    const { body, ms } = await timed('grep', { pattern: RARE });
    const s = stats(body);
    console.log(`grep-scale: rare literal ${ms} ms end-to-end, server ${body._meta.latency_ms} ms, ${JSON.stringify(s)}`);
    expect(body.result.total_matches).toBe(RARE_FILES.length);
    expect(s.candidates_prefiltered).toBe(RARE_FILES.length);
    expect(s.full_scan).toBe(false);
  });

  it('finds a regex with a rare required literal the same way', async () => {
    const { body, ms } = await timed('grep', { pattern: `const ${RARE.toUpperCase()}\\s*=`, ignore_case: true });
    console.log(`grep-scale: regex with literal ${ms} ms, server ${body._meta.latency_ms} ms, ${JSON.stringify(stats(body))}`);
    expect(body.result.total_matches).toBe(RARE_FILES.length);
    expect(stats(body).candidates_prefiltered).toBe(RARE_FILES.length);
  });

  it('reads a literal a few dozen files hold in one round trip, with exact counts', async () => {
    const held = files.filter((_, i) => MID_FILES(i));
    expect(held.length).toBe(60);
    const plain = [...held]
      .sort((a, b) => (a.path < b.path ? -1 : 1))
      .flatMap((f) => f.content.split('\n').flatMap((text, i) => (text.includes(MID) ? [{ path: f.path, line: i + 1, text }] : [])));
    const trips = (res: Response) => Number(res.headers.get('x-pincher-d1-round-trips'));
    // What a literal three files hold costs, the project's own reads included.
    const rare = await rest('grep', { project: PROJECT, pattern: RARE, literal: true });
    const r = await rest('grep', { project: PROJECT, pattern: MID, literal: true });
    expect(r.status).toBe(200);
    const s = stats(r.body);
    console.log(`grep-scale: mid literal, server ${r.body._meta.latency_ms} ms, ${JSON.stringify(s)}`);
    expect(r.body.result.matches).toEqual(plain);
    expect(r.body.result).toMatchObject({ total_matches: 60, files_matched: 60, truncated: false });
    expect(r.body.result.counts_exact).toBeUndefined();
    expect(s.files_scanned).toBe(60);
    // The same round trips as the rare literal: before, a 32-file first page, then a second page for the other 28.
    expect(trips(r.res)).toBe(trips(rare.res));
  });

  it('lists a common literal from the content in hand and says the counts are lower bounds; summary counts every file', async () => {
    const { body, ms } = await timed('grep', { pattern: 'export function', limit: 20 });
    const expected = files.reduce((n, f) => n + f.content.split('\n').filter((l) => l.includes('export function')).length, 0);
    const s = stats(body);
    console.log(`grep-scale: common literal ${ms} ms, server ${body._meta.latency_ms} ms, trips ${body._meta.d1_round_trips ?? '?'}, total ${body.result.total_matches}, ${JSON.stringify(s)}`);
    expect(body.result.matches).toHaveLength(20);
    // The prefilter's first page walks the files in path order until their lines hold the 20 matches the listing needs: no file
    // past the one holding the 20th is split or read, and the listing takes one round trip.
    const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : 1));
    let upto = 0;
    const needed = sorted.findIndex((f) => (upto += f.content.split('\n').filter((l) => l.includes('export function')).length) >= 20) + 1;
    expect(s.files_scanned).toBe(needed);
    expect(s.unread_after).toBe(sorted[needed - 1].path);
    // A listing of 500 takes the files up to the 500th match, still in the round trips of a literal three files hold.
    const rare = await rest('grep', { project: PROJECT, pattern: RARE, literal: true });
    const wide = await rest('grep', { project: PROJECT, pattern: 'export function', limit: 500 });
    expect(wide.body.result.matches).toHaveLength(500);
    upto = 0;
    expect(stats(wide.body).files_scanned).toBe(sorted.findIndex((f) => (upto += f.content.split('\n').filter((l) => l.includes('export function')).length) >= 500) + 1);
    expect(wide.res.headers.get('x-pincher-d1-round-trips')).toBe(rare.res.headers.get('x-pincher-d1-round-trips'));
    expect(body.result).toMatchObject({ truncated: true, counts_exact: false });
    expect(body.result.total_matches).toBeGreaterThanOrEqual(20);
    expect(body.result.total_matches).toBeLessThan(expected);
    expect(((body._meta.warnings_v2 ?? []) as Json[]).map((w) => w.code)).toContain('grep_counts_partial');
    const step = (body._meta.next_steps as Json[]).find((n) => n.tool === 'grep');
    expect(step?.args).toMatchObject({ summary: true });

    const summary = await timed('grep', { pattern: 'export function', summary: true, limit: 1000 });
    console.log(`grep-scale: common literal summary ${summary.ms} ms, server ${summary.body._meta.latency_ms} ms`);
    expect(summary.body.result.total_matches).toBe(expected);
    expect(summary.body.result.files_matched).toBe(files.length);
    expect(summary.body.result.counts_exact).toBeUndefined();
  });

  it('pages on until the listing is full, listing exactly what a plain scan lists', async () => {
    const plain = files
      .map((f) => f)
      .sort((a, b) => (a.path < b.path ? -1 : 1))
      .flatMap((f) => f.content.split('\n').flatMap((text, i) => (text.includes('export function') ? [{ path: f.path, line: i + 1, text }] : [])));
    const { body } = await timed('grep', { pattern: 'export function', limit: 1000 });
    expect(body.result.matches).toEqual(plain.slice(0, 1000));
    expect(body.result.truncated).toBe(true);
    const under = await timed('grep', { pattern: 'export function', path: 'pkg03/**', limit: 1000 });
    const inFolder = plain.filter((m) => m.path.startsWith('pkg03/'));
    expect(under.body.result.matches).toEqual(inFolder.slice(0, 1000));
    expect(under.body.result.total_matches).toBe(inFolder.length);
    expect(under.body.result.counts_exact).toBeUndefined();
  });

  it('sizes a next page by the matches the listing still needs, not by growth alone', async () => {
    // About three matches a file: the first page (32 files) lists about a hundred of the 200 asked for, so the next page
    // asks for about twice the files the other hundred take, where growth alone would ask for 128.
    const pattern = 'export function \\w+_id\\(';
    const re = new RegExp(pattern);
    const perFile = [...files]
      .sort((a, b) => (a.path < b.path ? -1 : 1))
      .map((f) => ({ path: f.path, lines: f.content.split('\n').flatMap((text, i) => (re.test(text) ? [{ path: f.path, line: i + 1, text }] : [])) }));
    const plain = perFile.flatMap((f) => f.lines);
    const { body } = await timed('grep', { pattern, limit: 200 });
    const s = stats(body);
    console.log(`grep-scale: sized page ${JSON.stringify(s)}, total ${body.result.total_matches}`);
    expect(body.result.matches).toEqual(plain.slice(0, 200));
    expect(body.result).toMatchObject({ truncated: true, counts_exact: false });
    // A page's files are those with a line holding both literals; the listing fills within those up to the 200th match.
    const paged = perFile.filter((f) => files.find((x) => x.path === f.path)!.content.split('\n').some((l) => l.includes('export function ') && l.includes('_id(')));
    let upto = 0;
    const needed = paged.findIndex((f) => (upto += f.lines.length) >= 200) + 1;
    expect(s.files_scanned).toBeGreaterThanOrEqual(needed);
    expect(s.files_scanned).toBeLessThan(32 + 128);
    expect(s.unread_after).toBe(paged[s.files_scanned - 1].path);
  });

  it('pages a regex on until its listing is full when few of the lines holding its literals match', async () => {
    // The pages carry the lines holding both literals; the regex matches about one in thirteen of them (the first parameter's
    // name ends in `_id` too): a regex keeps the 32-file first page, and the next ones are sized by the density seen.
    const pattern = 'export function \\w+_id\\(\\w+_id:';
    const re = new RegExp(pattern);
    const plain = [...files]
      .sort((a, b) => (a.path < b.path ? -1 : 1))
      .flatMap((f) => f.content.split('\n').flatMap((text, i) => (re.test(text) ? [{ path: f.path, line: i + 1, text }] : [])));
    expect(plain.length).toBeGreaterThan(50);
    const rare = await rest('grep', { project: PROJECT, pattern: RARE, literal: true });
    const r = await rest('grep', { project: PROJECT, pattern, limit: 50 });
    expect(r.status).toBe(200);
    const s = stats(r.body);
    console.log(`grep-scale: paged regex ${JSON.stringify(s)}, total ${r.body.result.total_matches}, trips ${r.res.headers.get('x-pincher-d1-round-trips')}`);
    expect(r.body.result.matches).toEqual(plain.slice(0, 50));
    expect(r.body.result.truncated).toBe(true);
    // Counts are exact when the pages reached the last candidate, else lower bounds.
    if (r.body.result.counts_exact === false) expect(r.body.result.total_matches).toBeGreaterThanOrEqual(50);
    else expect(r.body.result.total_matches).toBe(plain.length);
    expect(Number(r.res.headers.get('x-pincher-d1-round-trips'))).toBeGreaterThan(Number(rare.res.headers.get('x-pincher-d1-round-trips')));
    expect(s.files_scanned).toBeLessThan(files.length);
  });

  it('scans every file for a pattern without a literal, or stops at the budget and says so', async () => {
    const { body, ms } = await timed('grep', { pattern: '\\(\\w\\w, \\d{4}\\)', summary: true });
    const s = stats(body);
    const warnings = ((body._meta.warnings_v2 ?? []) as Json[]).map((w) => w.code);
    console.log(`grep-scale: full scan ${ms} ms, server ${body._meta.latency_ms} ms, ${JSON.stringify(s)}, warnings ${warnings.join(',')}`);
    expect(s.full_scan).toBe(true);
    expect(warnings).toContain('grep_full_scan');
    if (s.files_scanned < files.length) {
      expect(warnings).toContain('scan_budget_exhausted');
      expect(body.result.truncated).toBe(true);
    }
  });

  it('lists and finds files of the large project', async () => {
    const ls = await timed('ls', { path: '', max_depth: 2, limit: 50 });
    const find = await timed('find', { pattern: 'pkg03/*.ts', min_size: '9k' });
    console.log(`grep-scale: ls ${ls.ms} ms, find ${find.ms} ms`);
    expect(ls.body.result.entries[0]).toMatchObject({ type: 'dir', name: 'pkg00', files: files.filter((f) => f.path.startsWith('pkg00/')).length });
    expect(find.body.result.total).toBe(files.filter((f) => f.path.startsWith('pkg03/') && new TextEncoder().encode(f.content).length >= 9 * 1024).length);
  });
});
