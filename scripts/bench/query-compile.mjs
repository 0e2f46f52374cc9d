// What compiling each language's tags query costs (a Worker isolate pays it on a language's first
// file), in Node with the project's own query sources, as CPU time (best of three, so that other
// processes on the machine count less): the whole query per language; with a language id, each
// pattern compiled alone as well, costliest first (alone, a pattern also pays the fixed cost of a
// compile, a scan of the grammar's parse table of a few ms). Module hooks as in extract-node.mjs
// stand in for wrangler's bundling rules.
//
// With `--against <checkout>`, the whole query of each language is compiled by that checkout
// (its own query files and parser) and by this one in turn, best of five each: before/after CPU
// on a shared machine (`node --no-liftoff` keeps V8's background wasm tier-up out of the count).
//
//   node scripts/bench/query-compile.mjs [language-id] [patterns-to-show]
//   node scripts/bench/query-compile.mjs --against ../main [language-id]
import { register } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const at = args.indexOf('--against');
const against = at >= 0 ? path.resolve(args.splice(at, 2)[1]) : null;
const [only, show = '12'] = args;
const { register: tsx } = await import('tsx/esm/api');
tsx();
register(pathToFileURL(path.join(ROOT, 'scripts', 'bench', 'extract-hooks.mjs')));
const load = (rel) => import(pathToFileURL(path.join(ROOT, rel)).href);
const { TABLE } = await load('src/extract/languages/table.ts');
const P = await load('src/extract/parser.ts');
const { shallowQuery } = await load('src/extract/shallow-query.ts');
await P.ensureRuntime();
/** Loads a grammar in a checkout's parser module (older checkouts load it synchronously). */
const ready = async (M, grammar) => (M.ensureLanguage ? M.ensureLanguage(grammar) : M.loadLanguage(grammar));

/** CPU milliseconds of `f`, best of `n` runs. */
function cpuMs(f, n = 3) {
  let best = Infinity;
  for (let i = 0; i < n; i++) {
    const c0 = process.cpuUsage();
    f();
    const c = process.cpuUsage(c0);
    best = Math.min(best, (c.user + c.system) / 1000);
  }
  return Math.round(best * 10) / 10;
}

if (against) {
  const other = (rel) => import(pathToFileURL(path.join(against, rel)).href);
  const { TABLE: THEIRS } = await other('src/extract/languages/table.ts');
  const Q = await other('src/extract/parser.ts');
  await Q.ensureRuntime();
  const sums = [0, 0];
  for (const row of TABLE) {
    const theirs = THEIRS.find((r) => r.id === row.id);
    if (row.tier !== 'ast' || theirs?.tier !== 'ast' || (only && row.id !== only)) continue;
    await ready(P, row.grammar);
    await ready(Q, theirs.grammar);
    const best = [Infinity, Infinity];
    for (let i = 0; i < 5; i++) {
      best[0] = Math.min(best[0], cpuMs(() => Q.compileQuery(theirs.grammar, theirs.query, theirs.shallowQuery).delete(), 1));
      best[1] = Math.min(best[1], cpuMs(() => P.compileQuery(row.grammar, row.query, row.shallowQuery).delete(), 1));
    }
    sums[0] += best[0];
    sums[1] += best[1];
    console.log(`${row.id.padEnd(11)} ${String(best[0]).padStart(7)} → ${String(best[1]).padStart(7)} ms`);
  }
  console.log(`all         ${Math.round(sums[0])} → ${Math.round(sums[1])} ms`);
  process.exit(0);
}

let total = 0;
for (const row of TABLE) {
  if (row.tier !== 'ast' || (only && row.id !== only)) continue;
  await ready(P, row.grammar);
  const first = cpuMs(() => P.compileQuery(row.grammar, row.query, row.shallowQuery).delete(), 1);
  const steady = cpuMs(() => P.compileQuery(row.grammar, row.query, row.shallowQuery).delete());
  total += steady;
  const query = P.compileQuery(row.grammar, row.query, row.shallowQuery);
  const count = query.patternCount();
  console.log(`${row.id.padEnd(11)} first ${String(first).padStart(7)} ms, then ${String(steady).padStart(7)} ms  (${count} patterns)`);
  if (only) {
    const rows = [];
    // The pattern offsets are those of the query compiled (see src/extract/shallow-query.ts).
    const source = row.shallowQuery ? shallowQuery(row.query) : row.query;
    for (let i = 0; i < count; i++) {
      const text = source.slice(query.startIndexForPattern(i), i + 1 < count ? query.startIndexForPattern(i + 1) : undefined);
      rows.push({ pattern: i, ms: cpuMs(() => P.compileQuery(row.grammar, text, row.shallowQuery).delete(), 2), head: text.replace(/;[^\n]*/g, '').replace(/\s+/g, ' ').trim().slice(0, 110) });
    }
    rows.sort((a, b) => b.ms - a.ms);
    for (const r of rows.slice(0, Number(show))) console.log(`${String(r.ms).padStart(7)} ms  #${r.pattern} ${r.head}`);
  }
  query.delete();
}
if (!only) console.log(`all (steady) ${Math.round(total)} ms`);
