// The agent economy end to end, as a new user meets it on a real `wrangler dev`: savings
// recomputed from the raw files (this repository's own sources) with this file's own grep and
// line counting, recoveries whose steps change the outcome, contract edges, and every step
// emitted over MCP callable with the advertised (core) tool list only.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startE2EServer, type E2EServer, type Json } from './support';

let server: E2EServer;

// A loaded machine can take minutes to apply migrations and start wrangler dev.
beforeAll(async () => {
  server = await startE2EServer({ PINCHER_ALLOW_OPEN: '1' }, 280_000);
}, 300_000);

afterAll(async () => {
  await server?.stop();
});

const ok = (cond: unknown, label: string) => expect(Boolean(cond), label).toBe(true);

it('holds the savings model, the recoveries, the contract edges and reachable steps', async () => {
  const post = async (tool: string, args: Json, headers: Record<string, string> = {}) => {
    const r = await fetch(`${server.url}/v1/tools/${tool}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(args) });
    return { status: r.status, headers: r.headers, body: (await r.json()) as Json };
  };
  let rid = 0;
  const mcp = async (method: string, params: Json, headers: Record<string, string> = {}, query = '') => {
    const r = await fetch(`${server.url}/mcp${query}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18', ...headers }, body: JSON.stringify({ jsonrpc: '2.0', id: ++rid, method, params }) });
    return (await r.json()) as Json;
  };
  const paths = ['src/util/did-you-mean.ts', 'src/util/words.ts', 'src/envelope/tokens.ts'];
  const FILES: Record<string, string> = Object.fromEntries(paths.map((p) => [p, readFileSync(new URL(`../../../${p}`, import.meta.url), 'utf8')]));
  const P = 'sv';
  expect((await post('index', { project: P, files: paths.map((p) => ({ path: p, content: FILES[p] })) })).status).toBe(200);
  const lines = (t: string) => { const o = t.split('\n'); if (o[o.length - 1] === '') o.pop(); return o; };
  const grepChars = (re: RegExp) => { let n = 0; for (const p of Object.keys(FILES).sort()) lines(FILES[p]).forEach((l, i) => { if (re.test(l)) n += `${p}:${i + 1}:${l}\n`.length; }); return n; };
  const tok = (c: number) => Math.ceil(c / 4);
  const sv = (b: number, u: number) => Math.max(0, b - u);
  let r = await post('search', { project: P, query: 'editDistance' });
  ok(r.body.result.results.length > 0 && r.body._meta.baseline_method === 'grep_recursive' && r.body._meta.tokens_saved === sv(tok(grepChars(/editDistance/i)), r.body._meta.tokens_used), `search saved ${r.body._meta.tokens_saved} used ${r.body._meta.tokens_used} grep ${tok(grepChars(/editDistance/i))}`);
  r = await post('search', { project: P, query: 'zzqxnothing' });
  ok(r.body._meta.tokens_saved === 0 && r.body._meta.baseline_method === 'grep_recursive', 'empty search saves 0');
  const size = Buffer.byteLength(FILES['src/util/did-you-mean.ts']);
  r = await post('symbol', { project: P, id: 'src/util/did-you-mean.ts::editDistance#Function' });
  ok(r.body._meta.tokens_saved === sv(tok(size), r.body._meta.tokens_used), `symbol saved ${r.body._meta.tokens_saved}`);
  const ids = ['editDistance', 'didYouMean', 'nearest'].map((n) => `src/util/did-you-mean.ts::${n}#Function`);
  r = await post('batch', { project: P, calls: ids.map((id) => ({ tool: 'symbol', args: { id } })) });
  ok(r.body._meta.tokens_saved === sv(tok(size), r.body._meta.tokens_used), `batch of 3 symbols, one file: saved ${r.body._meta.tokens_saved} (file ${tok(size)}, used ${r.body._meta.tokens_used})`);
  r = await post('read', { project: P, path: 'src/util/did-you-mean.ts', offset: 99999 });
  ok(r.body._meta.tokens_saved === 0, 'read past end saves 0');
  r = await post('read', { project: P, path: 'src/util/did-you-mean.ts', symbol: 'nope' });
  ok(r.body._meta.tokens_saved === 0, 'read missing symbol saves 0');
  r = await post('read', { project: P, path: 'src/util/did-you-mean.ts', offset: 2, limit: 5 });
  const lc = lines(FILES['src/util/did-you-mean.ts']).slice(1, 6).reduce((n, l) => n + l.length + 1, 0);
  ok(r.body._meta.baseline_method === 'lines_read' && r.body._meta.tokens_saved === sv(tok(lc), r.body._meta.tokens_used), 'read window lines_read');
  r = await post('grep', { project: P, pattern: 'function', limit: 1 });
  ok(r.body._meta.tokens_saved === 0 && r.body.result.truncated, 'grep limit 1 saves 0');
  r = await post('why_empty', { code: 'query_too_narrow' });
  ok(r.body._meta.tokens_saved === 0 && r.body._meta.tokens_saved_pct === 0, 'none: numbers');
  const H = { 'x-pincher-session': 'sess-' + Date.now() };
  const a = await post('symbol', { project: P, id: ids[1] }, H); const b = await post('symbol', { project: P, id: ids[1] }, H);
  ok(a.body._meta.savings_scope === 'session' && a.body._meta.tokens_saved > 0 && b.body._meta.tokens_saved === 0, 'session dedup');
  const M = { 'mcp-session-id': 'm-' + Date.now() };
  const m1 = await mcp('tools/call', { name: 'symbol', arguments: { project: P, id: ids[2] } }, M);
  const m2 = await mcp('tools/call', { name: 'symbol', arguments: { project: P, id: ids[2] } }, M);
  ok(m1.result._meta.savings_scope === 'session' && m1.result._meta.tokens_saved > 0 && m2.result._meta.tokens_saved === 0, 'mcp-session-id dedup');
  const e = await mcp('tools/call', { name: 'search', arguments: { project: P, query: 'zzqxnothing' } });
  const texts = e.result.content.map((c: Json) => c.text);
  ok(texts.length === 2 && e.result._meta.tokens_used === tok(texts.join('\n').length), `mcp tokens_used ${e.result._meta.tokens_used} counts both blocks`);
  // recoveries
  r = await post('context', { project: P, name: 'didYouMaen' });
  const st = r.body._meta.next_steps.find((x: Json) => x.tool === 'context');
  const n2 = st && (await post(st.tool, st.args));
  ok(st && !n2.body._meta.empty_reason, `did-you-mean step ${JSON.stringify(st?.args)}`);
  r = await post('trace', { project: P, name: 'editDistanse' });
  ok(!r.body._meta.next_steps.some((x: Json) => x.tool === 'search' && x.args.query === 'editDistanse'), 'trace: no same-name search ' + JSON.stringify(r.body._meta.next_steps));
  const v1 = 'export function alpha(): number {\n  return 1;\n}\n\nexport function beta(): number {\n  return 2;\n}\n';
  await post('index', { project: 'anc', files: [{ path: 'm.ts', content: v1 }] });
  const w = await post('read', { project: 'anc', path: 'm.ts', offset: 5, limit: 1 });
  const anchor = w.body.result.text.split('|')[0];
  await post('index', { project: 'anc', files: [{ path: 'm.ts', content: '// a\n// b\n' + v1 }] });
  r = await post('read', { project: 'anc', path: 'm.ts', anchors: [anchor] });
  const rs = r.body._meta.next_steps?.find((x: Json) => x.tool === 'read');
  const n3 = rs && (await post('read', rs.args));
  ok(r.body.result.anchors.stale[0]?.moved_to === 7 && n3?.body.result.text.includes('beta'), `stale anchor moved_to ${r.body.result.anchors.stale[0]?.moved_to}, step ${JSON.stringify(rs?.args)}`);
  await post('index', { project: 'nos', files: [{ path: 'notes.txt', content: 'hello world\nmore hello\n' }] });
  r = await post('search', { project: 'nos', query: 'hello' });
  const gs = r.body._meta.next_steps?.find((x: Json) => x.tool === 'grep');
  const n4 = gs && (await post('grep', gs.args));
  ok(r.body._meta.empty_reason === 'extractor_emitted_nothing' && n4?.body.result.total_matches === 2, 'no symbols: extractor_emitted_nothing + grep');
  // contract edges
  r = await post('why_empty', {}, { 'x-request-id': 'client-1' });
  ok(/^[0-7][0-9A-HJKMNP-TV-Z]{25}$/.test(r.body._meta.request_id) && r.body._meta.client_request_id === 'client-1' && r.headers.get('x-client-request-id') === 'client-1' && r.headers.get('x-request-id') === r.body._meta.request_id, 'request ids');
  const u = await mcp('tools/call', { name: 'nope', arguments: {} });
  ok(u.error?.data?._meta?.request_id, 'unknown tool error.data._meta');
  const up = await mcp('prompts/get', { name: 'nope' });
  ok(up.error?.data?._meta?.request_id, 'unknown prompt error.data._meta');
  ok(r.body._meta.capabilities.includes('mcp_prompts'), 'mcp_prompts');
  // reachable steps over MCP core
  const list = await mcp('tools/list', {});
  const adv = new Set((list.result.tools as Json[]).map((t) => t.name as string));
  expect(Math.ceil(JSON.stringify(list.result).length / 4)).toBeLessThanOrEqual(2500);
  let bad = 0, walked = 0;
  const sources: [string, Json][] = [
    ['guide', { project: P, task: "TypeError: x\n    at nearest (/srv/src/util/did-you-mean.ts:40:10)" }],
    ['guide', { project: P, task: 'what breaks if I change editDistance' }],
    ['search', { project: 'nos', query: 'hello' }], ['search', { project: P, query: 'zebra' }],
    ['symbol', { project: P, id: 'src/util/did-you-mean.ts::editDistanse#Function' }], ['grep', { project: P, pattern: 'zzzz' }],
    ['why_empty', {}], ['read', { project: 'anc', path: 'm.ts', anchors: [anchor] }],
  ];
  for (const [tool, args] of sources) {
    const res = await mcp('tools/call', { name: tool, arguments: args });
    const sc = res.result.structuredContent ?? {};
    const steps = [...(sc.notice?.next_steps ?? []), ...(sc.steps ?? []), ...(sc.entries ?? []).flatMap((e: Json) => e.recovery_steps ?? [])];
    for (const stp of steps) {
      walked++;
      const nx = await mcp('tools/call', { name: stp.tool, arguments: stp.args });
      const entriesBad = (nx.result?.structuredContent?.entries ?? []).some((e: Json) => e.status && e.status !== 'ok');
      if (!adv.has(stp.tool) || nx.error || nx.result?.isError || entriesBad) { bad++; console.error('unreachable step', tool, JSON.stringify(stp).slice(0, 200)); }
    }
  }
  ok(bad === 0, `walked ${walked} steps over MCP core, ${bad} unreachable/failed`);
}, 240_000);
