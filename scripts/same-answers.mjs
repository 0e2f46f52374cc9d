// `node --experimental-websocket scripts/same-answers.mjs <checkoutA> <d1A> <checkoutB> <d1B> <bench results .json> [tools]`:
// whether two checkouts answer a latency tier's calls alike. Starts both Workers (each checkout's own code on
// its own copy of the tier's local D1, e.g. `cp -r` of a `--latency-d1` folder), sends each the bench's query
// mix (`latency.mix` of its results JSON) for `tools` (comma-separated, `all`: every tool of the mix; default
// trace), for find and search also the variants of each call with other filters and limits (search: see
// searchVariants), and, for trace, the variants of each call that take the other paths of the tool (every
// direction and depth, an omitted depth, a cut at max_hops, the floors lifted, other edge kinds, the target by
// name, an unknown, a moved and a malformed id), and compares
// the answers whole: the result, and the `_meta` envelope less what differs from call to call (latency, ids,
// the D1 counters). For grep: each call as sent, ignoring case, with context, as a summary, cut at 5, and extra patterns
// (literals, regexes, anchors, lookbehind, unicode, backslashes, folder and glob filters, misses, common tokens); the
// scan's own time in its diagnosis ("in N ms") is masked; `SAME_ANSWERS_MASK` (comma-separated `_meta` keys) masks more.
// `SAME_ANSWERS_PARTIAL=listing`: a grep answer whose counts are lower bounds on either side (`counts_exact: false`,
// they count the files read, which depends on how far the prefilter pages reached) is compared on its listing only:
// the matches, `truncated`, the empty reason and the error. Prints each call that differs with the first difference,
// and the count; exits 1 on any.
import { isDeepStrictEqual } from 'node:util';
import { readLatencyMix } from './bench/latency.mjs';

const [dirA, d1A, dirB, d1B, mixFile, toolsArg = 'trace'] = process.argv.slice(2);
if (!mixFile) {
  console.error('usage: node --experimental-websocket scripts/same-answers.mjs <checkoutA> <d1A> <checkoutB> <d1B> <bench results .json> [tools|all]');
  process.exit(2);
}
const mix = await readLatencyMix(mixFile);
const tools = toolsArg === 'all' ? Object.keys(mix) : toolsArg.split(',');
const KEY = 'profile-key-0123456789abcdef0123456789';
const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

async function start(dir, d1) {
  const { startInspectedWorker } = await import(`${dir}/scripts/battery/inspector.mjs`);
  const { worker, base } = await startInspectedWorker({ key: KEY, minify: false, persistTo: d1 });
  await worker.ready;
  return { worker, base };
}

/** `_meta` keys that differ from call to call whatever the answer. */
const VOLATILE = new Set(['latency_ms', 'request_id', 'd1_round_trips', 'd1_statements', 'cpu_ms', 'timing', 'served_at']);
// `SAME_ANSWERS_MASK=schema_version,schema_version_at_index`: also mask these (two checkouts a migration apart).
for (const k of (process.env.SAME_ANSWERS_MASK ?? '').split(',').filter(Boolean)) VOLATILE.add(k);

async function call(side, tool, args, retried = false) {
  const res = await fetch(`${side.base}/v1/tools/${tool}`, { method: 'POST', headers, body: JSON.stringify(args) });
  const text = await res.text();
  // A local runtime that restarted mid-request answers in plain text: asked once more.
  if (!text.startsWith('{') && !retried) return call(side, tool, args, true);
  const body = JSON.parse(text);
  const meta = Object.fromEntries(Object.entries(body?._meta ?? {}).filter(([k]) => !VOLATILE.has(k)));
  return { status: res.status, ...body, _meta: masked(meta) };
}

/** grep's diagnosis says how long its scan took: the time is masked. */
function masked(v) {
  if (typeof v === 'string') return v.replace(/ in \d+ ms\b/g, ' in N ms');
  if (Array.isArray(v)) return v.map(masked);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, masked(x)]));
  return v;
}

/** The grep calls of one mix entry: as sent, then ignoring case, with context, as a summary, cut short. */
function grepVariants(args) {
  return [args, { ...args, ignore_case: true }, { ...args, context: 2 }, { ...args, summary: true }, { ...args, limit: 5 }, { ...args, limit: 1000 }];
}

/** Extra grep calls over `project`: the paths the mix leaves out. */
function grepExtras(project) {
  const p = (pattern, more = {}) => ({ project, pattern, ...more });
  return [
    p('import', { literal: true }), p('the', { literal: true }), p('return', { literal: true, limit: 1000 }), p('TODO'), p('\\n', { literal: true }),
    p('"\\\\n'), p('^import '), p('\\)$'), p('^$'), p('(?<=def )\\w+_id'), p('\\bself\\.\\w+\\s*='), p('[A-Z]{3,}_[A-Z]+'),
    p('Error', { ignore_case: true }), p('async def', { ignore_case: true, summary: true }), p('café|naïve|über'), p('\\u00e9'),
    p('foo\\nbar'), p('a.*b.*c.*d'), p('function\\s*\\('), p('x'), p('qqqzzzxxx'), p('NoSuchThing', { ignore_case: true }),
    p('def ', { literal: true, path: 'src/**' }), p('return', { literal: true, path: '*.ts' }), p('class', { path: 'tests/*' }), p('import', { path: 'nope/**' }),
    p('const', { literal: true, context: 3, limit: 7 }), p('client', { literal: true, summary: true, limit: 3 }), p('\\r$'), p('  +$'),
  ];
}

/** The trace calls of one mix entry: as the bench sends it, then one per other path of the tool. */
function traceVariants(args) {
  const { id, project } = args;
  const out = [args];
  for (const direction of ['inbound', 'outbound', 'both']) {
    for (const depth of [1, 2, 5, undefined]) out.push({ project, id, direction, ...(depth ? { depth } : {}) });
  }
  out.push({ ...args, max_hops: 3 }, { ...args, min_confidence: 0 }, { ...args, include_tests: true }, { ...args, kinds: ['CALLS', 'IMPORTS', 'INHERITS', 'REFERENCES'] });
  out.push({ ...args, direction: 'callers' }, { ...args, depth: 1, max_hops: 1, min_confidence: 0.99 });
  const sep = id.indexOf('::');
  const qualified = id.slice(sep + 2).replace(/#[^#]*$/, '');
  out.push({ project, name: qualified, direction: 'both', depth: 3 }, { project, name: qualified.split('.').pop(), direction: 'inbound' });
  out.push({ project, id: `${id.slice(0, sep)}::${qualified}Nope#Function`, direction: 'both', depth: 3 });
  out.push({ project, id: `moved/${id}`, direction: 'both', depth: 3 }, { project, id: 'not an id', direction: 'both' });
  return out;
}

/** The find calls of one mix entry: as the bench sends it, then with a small limit, a language, sizes, and a filter nothing passes. */
function findVariants(args) {
  return [args, { ...args, limit: 1 }, { ...args, limit: 1000 }, { ...args, language: 'python' }, { ...args, min_size: '2k', max_size: 40000 }, { ...args, language: 'no-such-language' }];
}

/**
 * The search calls of one mix entry: as the bench sends it, then its query under other paths of the tool (pages,
 * limits, snippets, fields, each filter, folder and name-ending patterns, other corpora), plus queries of other
 * shapes (common words, short prefixes, qualified and operator names, fallbacks, misses that explain themselves).
 */
function searchVariants(args, first) {
  const { project, query } = args;
  const out = [args, { project, query, limit: 5 }, { project, query, offset: 20 }, { project, query, snippet_lines: 3 }];
  out.push({ project, query, fields: ['id', 'score', 'language', 'extraction_confidence'] }, { project, query, kind: 'Function' }, { project, query, language: 'python' });
  out.push({ project, query, file_pattern: 'npm/**' }, { project, query, file_pattern: '*.ts' }, { project, query, corpus: 'docs' }, { project, query, min_confidence: 0.99 });
  if (!first) return out;
  const extra = ['get', 'value', 'test*', 'a*', 'is*', 'Table.getName', 'Column.name', 'sql.raw', 'to_string', '==', 'init',
    'zzqqxx', 'selectDistinctNope', 'handler zzqqxx', '"no such phrase here"', 'parse OR render', 'params NOT test', 'mapToDriverValu', 'SQLiteBool*',
    're*', 'get_*', 'zzq*', '"def prop"', 'XMLReader.getFeature', 'Table::getName'];
  for (const q of extra) out.push({ project, query: q }, { project, query: q, file_pattern: 'npm/drizzle-orm/**', kind: 'Method' }, { project, query: q, limit: 50, offset: 10 });
  out.push({ project, query: 'zzqqxx', kind: 'Method', language: 'typescript', min_confidence: 0.5, file_pattern: 'npm/**' }, { project, query: 'auth*', offset: 380 });
  out.push({ project, query: 'params', file_pattern: 'nope/**' }, { project, query: 'headers', language: 'cobol' }, { project, query: 'headers', language: 'pyton' });
  return out;
}

/** What a grep answer with lower-bound counts must still share: its listing. */
function listing(x) {
  return { status: x.status, matches: x.result?.matches, truncated: x.result?.truncated, empty_reason: x._meta?.empty_reason, error: x.error };
}

function firstDifference(a, b, at = '') {
  if (isDeepStrictEqual(a, b)) return null;
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const d = firstDifference(a[k], b[k], `${at}.${k}`);
      if (d) return d;
    }
  }
  return `${at || '(whole)'}: ${JSON.stringify(a)?.slice(0, 300)} ≠ ${JSON.stringify(b)?.slice(0, 300)}`;
}

const A = await start(dirA, d1A);
const B = await start(dirB, d1B);
let all = 0;
for (const tool of tools) {
  const variants = { trace: traceVariants, find: findVariants, search: searchVariants, grep: grepVariants }[tool] ?? ((a) => [a]);
  const calls = (mix[tool] ?? []).flatMap((e, k) => variants(e.args, k === 0));
  if (tool === 'grep' && mix.grep?.length) calls.push(...grepExtras(mix.grep[0].args.project));
  let differ = 0;
  let skipped = 0;
  let hops = 0;
  let empties = 0;
  let partials = 0;
  /** Warning codes and empty reasons the compared answers carried, with their counts. */
  const seen = new Map();
  // Twice each: the first call computes the baseline figures the second finds kept.
  for (const round of [1, 2]) {
    for (const args of calls) {
      const [a, b] = [await call(A, tool, args), await call(B, tool, args)];
      // grep's 2 s scan budget makes an answer depend on the machine's speed at the time: such answers are not compared.
      if ([a, b].some((x) => (x._meta?.warnings_v2 ?? []).some((w) => w.code === 'scan_budget_exhausted'))) {
        skipped++;
        continue;
      }
      const partial = process.env.SAME_ANSWERS_PARTIAL === 'listing' && [a, b].some((x) => x.result?.counts_exact === false);
      if (partial) partials++;
      const d = partial ? firstDifference(listing(a), listing(b)) : firstDifference(a, b);
      if (d) {
        differ++;
        console.log(`DIFF ${tool} round ${round} ${JSON.stringify(args)}\n  ${d}`);
      }
      hops += a.result?.hops?.length ?? 0;
      if (a._meta?.empty_reason) empties++;
      for (const code of [...(a._meta?.warnings_v2 ?? []).map((w) => w.code), a._meta?.empty_reason, a.error?.code].filter(Boolean)) seen.set(code, (seen.get(code) ?? 0) + 1);
    }
  }
  all += differ;
  console.log(`${tool}: ${calls.length * 2 - skipped} calls compared (${hops} hops, ${empties} empty answers${partials ? `, ${partials} with counts that are lower bounds compared on their listing` : ''}), ${differ} differ; ${skipped} left out (a scan budget ran out on either side)`);
  console.log(`  codes seen: ${[...seen].map(([c, n]) => `${c} ${n}`).join(', ')}`);
}
await Promise.allSettled([A.worker.dispose(), B.worker.dispose()]);
process.exit(all ? 1 : 0);
