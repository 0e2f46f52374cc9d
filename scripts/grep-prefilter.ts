// `npx tsx scripts/grep-prefilter.ts <d1 persist dir> [--reps n] [--bench-mix <bench results .json>]`:
// what the grep prefilter reads for the latency bench's grep patterns (or those of --bench-mix), on the
// local D1 a latency bench kept (`--latency-d1 <dir>`; pass its v3/d1 folder). Per pattern: the trigram
// candidates (files, MB); the candidates the first page's walk checks (files, MB: every one up to its
// last row, all of them when it is not full) and the rows it keeps; its statement's wall time (median of
// --reps, through miniflare's D1); the D1 statements and wall time of the whole listing (limit 100, no
// time budget, so its counts never depend on the machine's speed).
import { Miniflare } from 'miniflare';
import { readFileSync } from 'node:fs';
import { compilePattern } from '../src/tools/grep/pattern';
import { prefilterPage, runGrep } from '../src/tools/grep/run';

const args = process.argv.slice(2);
const dir = args[0];
const reps = Number(args[args.indexOf('--reps') + 1] || 7);
const mixFile = args.includes('--bench-mix') ? args[args.indexOf('--bench-mix') + 1] : null;
const DEFAULT = [
  ['client', true], ['_started', true], ['RegistrationResponseSchema', true], ['transaction', true], ['raise ValueError(', true],
  ['return None', true, '*.py'], ['pincherBenchAbsentToken', true], ['zz_qx_not_in_corpus', true], ['no such literal 9Qz', true],
  ['def [a-z]+_[a-z]+\\(self', false], ['export (async )?function \\w+', false], ['class \\w+Error\\b', false], ['\\b_requestId\\s*\\(', false],
  ['\\bconstructor\\s*\\(', false], ['zq[0-9]{3}_absent_\\w+', false], ['pincherBench(Missing|Absent)Symbol', false], ['^\\s*def xq_[a-z]+_never\\(', false],
] as [string, boolean, string?][];
const mix: [string, boolean, string?][] = mixFile
  ? JSON.parse(readFileSync(mixFile, 'utf8')).latency.mix.grep.map((x: any) => [x.args.pattern, !!x.args.literal, x.args.path])
  : DEFAULT;

const mf = new Miniflare({ modules: true, script: 'export default { fetch() { return new Response("") } }', d1Databases: { DB: '00000000-0000-0000-0000-000000000000' }, d1Persist: dir });
const d1 = (await mf.getD1Database('DB')) as unknown as D1Database;
const project = (await d1.prepare('SELECT id FROM projects WHERE name = ?1').bind('bench-latency').first<{ id: string }>())!.id;

/** A D1 counting statements and round trips. */
function counted(db: D1Database) {
  const c = { statements: 0, trips: 0 };
  const wrap = (s: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(s, {
      get(t, k) {
        if (k === 'bind') return (...v: unknown[]) => wrap(t.bind(...v));
        if (k === 'all' || k === 'first' || k === 'run' || k === 'raw') return (...a: unknown[]) => { c.statements++; c.trips++; return (t as any)[k](...a); };
        return (t as any)[k];
      },
    });
  const proxy = new Proxy(db, { get(t, k) { if (k === 'prepare') return (q: string) => wrap(t.prepare(q)); return (t as any)[k]; } });
  return { db: proxy as D1Database, c };
}
const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];

let totalFirst = 0;
let totalRun = 0;
console.log(['pattern', 'candidates', 'MB', 'page checks', 'MB', 'page rows', 'page ms', 'listing stmts', 'ms', 'matches'].join('\t'));
for (const [pattern, literal, path] of mix) {
  const m = compilePattern(pattern, { literal, ignoreCase: false });
  let folded = null;
  try { folded = compilePattern(pattern, { literal, ignoreCase: true }); } catch {}
  let cand = { n: 0, bytes: 0 };
  let read = { n: 0, bytes: 0 };
  let kept = 0;
  const pathContains = path ? [path.replace(/^\*+/, '')] : undefined;
  if (m.prefilter) {
    const candidates = `SELECT count(*) AS n, coalesce(sum(b.size), 0) AS bytes FROM blob_grams CROSS JOIN blobs b ON b.rowid = blob_grams.rowid
      JOIN files f ON f.hash = b.hash AND f.project_id = ?1 WHERE blob_grams MATCH ?2 AND (?3 IS NULL OR instr(f.path, ?3) > 0) AND (?4 IS NULL OR f.path <= ?4)`;
    const page = (await prefilterPage(d1, project, m, { folded, context: 0, pathContains }))!;
    cand = (await d1.prepare(candidates).bind(project, m.prefilter.match, pathContains?.[0] ?? null, null).first<{ n: number; bytes: number }>())!;
    read = (await d1.prepare(candidates).bind(project, m.prefilter.match, pathContains?.[0] ?? null, page.more ? page.last ?? null : null).first<{ n: number; bytes: number }>())!;
    kept = page.files.length + (page.foldedOnly?.length ?? 0);
  }
  const firstMs: number[] = [];
  const runMs: number[] = [];
  let stmts = 0;
  let matches = 0;
  for (let i = 0; i < reps; i++) {
    let t = performance.now();
    await prefilterPage(d1, project, m, { folded, context: 0, pathContains });
    firstMs.push(performance.now() - t);
    if (path) continue; // a glob's scope listing is the tool's; the page alone is measured
    const { db, c } = counted(d1);
    t = performance.now();
    const run = await runGrep(db, project, m.prefilter ? null : [], m, { limit: 100, context: 0, summary: false, deadline: Date.now() + 60_000, stopWhenListed: true }, prefilterPage(db, project, m, { folded, context: 0 }));
    runMs.push(performance.now() - t);
    stmts = c.statements;
    matches = run.scan.totalMatches;
  }
  totalFirst += median(firstMs);
  totalRun += runMs.length ? median(runMs) : 0;
  const mb = (x: { bytes: number }) => (x.bytes / 1e6).toFixed(2);
  console.log([pattern + (path ? ` @${path}` : ''), cand.n, mb(cand), read.n, mb(read), kept, median(firstMs).toFixed(1), path ? '—' : stmts, runMs.length ? median(runMs).toFixed(1) : '—', path ? '—' : matches].join('\t'));
}
console.log(`sum of medians: first page ${totalFirst.toFixed(1)} ms, listing ${totalRun.toFixed(1)} ms`);
await mf.dispose();
