// `node scripts/bench/packed-content.mjs <folder> [chunk bytes, default 8192]`: what packed (deflated) file content
// would cost the reads that today run inside SQLite on the stored text (docs/capacity.md, "Symbol-dense code").
// Loads the folder's .ts/.js files into a local D1 (Miniflare) twice: as text, and as deflate-raw chunks of
// `chunk bytes` of text each. Then, over loopback to a Worker, times (p50/p90 of three rounds): 400 slices like
// symbol sources (200–3,000 bytes at seeded offsets) read as a substr() in SQLite against the chunks they span
// inflated in the Worker (DecompressionStream); and 100 literal checks of 32 files each, instr() in SQLite
// against their chunks inflated and searched in the Worker. Every answer is compared between the two first.
import { Miniflare } from 'miniflare';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const ROOT = process.argv[2];
if (!ROOT) {
  console.error('usage: node scripts/bench/packed-content.mjs <folder> [chunk bytes]');
  process.exit(2);
}
const CHUNK = Number(process.argv[3] ?? 8192);
const files = [];
const walk = (d) => { for (const e of readdirSync(d)) { const p = path.join(d, e); if (statSync(p).isDirectory()) walk(p); else if (/\.(ts|js)$/.test(e)) files.push(readFileSync(p)); } };
walk(ROOT);

const script = `
async function inflate(parts) {
  const out = [];
  for (const p of parts) {
    const s = new Blob([p]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
    out.push(new Uint8Array(await new Response(s).arrayBuffer()));
  }
  let n = 0; for (const o of out) n += o.length;
  const all = new Uint8Array(n); let k = 0; for (const o of out) { all.set(o, k); k += o.length; }
  return all;
}
const CHUNK = ${CHUNK};
export default {
  async fetch(req, env) {
    const u = new URL(req.url);
    const id = Number(u.searchParams.get('id')), start = Number(u.searchParams.get('s')), len = Number(u.searchParams.get('n'));
    if (u.pathname === '/plain') {
      const r = await env.DB.prepare('SELECT CAST(substr(CAST(content AS BLOB), ?2 + 1, ?3) AS TEXT) AS t FROM plain WHERE rowid = ?1').bind(id, start, len).first();
      return new Response(r.t);
    }
    if (u.pathname === '/packed') {
      const a = Math.floor(start / CHUNK), b = Math.floor((start + len - 1) / CHUNK);
      const rows = await env.DB.prepare('SELECT data FROM packed WHERE file = ?1 AND n BETWEEN ?2 AND ?3 ORDER BY n').bind(id, a, b).raw();
      const bytes = await inflate(rows.map((r) => new Uint8Array(r[0])));
      const off = start - a * CHUNK;
      return new Response(new TextDecoder().decode(bytes.subarray(off, off + len)));
    }
    const word = u.searchParams.get('w');
    const ids = JSON.parse(u.searchParams.get('ids'));
    if (u.pathname === '/checkplain') {
      const r = await env.DB.prepare('SELECT rowid FROM plain WHERE rowid IN (SELECT value FROM json_each(?1)) AND instr(content, ?2) > 0').bind(JSON.stringify(ids), word).raw();
      return new Response(String(r.length));
    }
    if (u.pathname === '/checkpacked') {
      const rows = await env.DB.prepare('SELECT file, data FROM packed WHERE file IN (SELECT value FROM json_each(?1)) ORDER BY file, n').bind(JSON.stringify(ids)).raw();
      const by = new Map(); for (const [f, d] of rows) { if (!by.has(f)) by.set(f, []); by.get(f).push(new Uint8Array(d)); }
      let hits = 0; const dec = new TextDecoder();
      for (const parts of by.values()) { const t = dec.decode(await inflate(parts)); if (t.includes(word)) hits++; }
      return new Response(String(hits));
    }
    return new Response('?', { status: 404 });
  },
};`;
const mf = new Miniflare({ modules: true, script, d1Databases: ['DB'], compatibilityDate: '2025-01-01' });
const db = await mf.getD1Database('DB');
await db.exec('CREATE TABLE plain (content TEXT NOT NULL)');
await db.exec('CREATE TABLE packed (file INTEGER NOT NULL, n INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (file, n)) WITHOUT ROWID');
let plainBytes = 0, packedBytes = 0;
for (let i = 0; i < files.length; i++) {
  const b = files[i];
  await db.prepare('INSERT INTO plain (rowid, content) VALUES (?1, ?2)').bind(i + 1, b.toString('utf8')).run();
  const stmts = [];
  for (let n = 0; n * CHUNK < b.length; n++) {
    const z = zlib.deflateRawSync(b.subarray(n * CHUNK, (n + 1) * CHUNK), { level: 6 });
    packedBytes += z.length;
    stmts.push(db.prepare('INSERT INTO packed (file, n, data) VALUES (?1, ?2, ?3)').bind(i + 1, n, Uint8Array.from(z)));
  }
  plainBytes += b.length;
  await db.batch(stmts);
}
console.log(`${files.length} files, ${(plainBytes / 1e6).toFixed(2)} MB text, ${(packedBytes / 1e6).toFixed(2)} MB packed in ${CHUNK}-byte chunks (${(packedBytes / plainBytes).toFixed(2)})`);

// Slices like symbol sources: a random file, a random start, 200–3000 bytes.
let seed = 7; const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const slices = [];
for (let i = 0; i < 400; i++) { const f = 1 + Math.floor(rnd() * files.length); const size = files[f - 1].length; const n = Math.min(size, 200 + Math.floor(rnd() * 2800)); const s = Math.floor(rnd() * Math.max(1, size - n)); slices.push({ f, s, n }); }
const time = async (make) => { const xs = []; for (const q of make()) { const t0 = performance.now(); const r = await mf.dispatchFetch(q); await r.text(); xs.push(performance.now() - t0); } xs.sort((a, b) => a - b); return { p50: xs[Math.floor(xs.length / 2)], p90: xs[Math.floor(xs.length * 0.9)] }; };
// verify equal answers
for (const q of slices.slice(0, 50)) {
  const a = await (await mf.dispatchFetch(`http://x/plain?id=${q.f}&s=${q.s}&n=${q.n}`)).text();
  const b = await (await mf.dispatchFetch(`http://x/packed?id=${q.f}&s=${q.s}&n=${q.n}`)).text();
  if (a !== b) throw new Error('slice mismatch');
}
const res = {};
for (let round = 0; round < 3; round++) {
  for (const kind of ['plain', 'packed']) {
    const r = await time(() => slices.map((q) => `http://x/${kind}?id=${q.f}&s=${q.s}&n=${q.n}`));
    (res[kind] ??= []).push(r);
  }
}
for (const [k, v] of Object.entries(res)) console.log(`slice ${k}: p50 ${v.map((x) => x.p50.toFixed(3)).join(' / ')} ms, p90 ${v.map((x) => x.p90.toFixed(3)).join(' / ')} ms`);
// 32-candidate literal checks
const words = ['function', 'export', 'ZodError', 'parse', 'undefined', 'issues', 'refine', 'catch'];
const checks = [];
for (let i = 0; i < 100; i++) { const ids = []; for (let k = 0; k < 32; k++) ids.push(1 + Math.floor(rnd() * files.length)); checks.push({ ids: [...new Set(ids)], w: words[i % words.length] }); }
for (const c of checks.slice(0, 20)) {
  const a = await (await mf.dispatchFetch(`http://x/checkplain?ids=${encodeURIComponent(JSON.stringify(c.ids))}&w=${c.w}`)).text();
  const b = await (await mf.dispatchFetch(`http://x/checkpacked?ids=${encodeURIComponent(JSON.stringify(c.ids))}&w=${c.w}`)).text();
  if (a !== b) throw new Error(`check mismatch ${a} ${b}`);
}
const res2 = {};
for (let round = 0; round < 3; round++) {
  for (const kind of ['checkplain', 'checkpacked']) {
    const r = await time(() => checks.map((c) => `http://x/${kind}?ids=${encodeURIComponent(JSON.stringify(c.ids))}&w=${c.w}`));
    (res2[kind] ??= []).push(r);
  }
}
for (const [k, v] of Object.entries(res2)) console.log(`32-file check ${k}: p50 ${v.map((x) => x.p50.toFixed(2)).join(' / ')} ms, p90 ${v.map((x) => x.p90.toFixed(2)).join(' / ')} ms`);
await mf.dispose();
