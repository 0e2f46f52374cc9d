import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { rest, type Json } from '../helpers';
import { push } from '../upload/support';

/**
 * D1 round trips per tool call (X-Pincher-D1-Round-Trips), pinned so that they cannot creep
 * back: a lite tool answers in one, trace (standard) in at most two, the composites in as few
 * as their dependent reads allow — once the project row is cached in the isolate (its check
 * rides along with the call's own round trip).
 */
const PROJECT = 'round-trips';

const FILES = {
  'src/widget.ts': [
    'export class WidgetStore {',
    '  load(id: string): string {',
    '    return fetchWidget(id);',
    '  }',
    '}',
    '',
    'export function fetchWidget(id: string): string {',
    '  if (!id) throw new Error("no widget id");',
    '  return normaliseWidget(id);',
    '}',
    '',
    'export function normaliseWidget(id: string): string {',
    '  return id.trim();',
    '}',
    '',
  ].join('\n'),
  'src/gadget.py': 'def make_gadget(name):\n    if not name:\n        raise ValueError("no gadget")\n    return name\n',
  'docs/notes.md': '# Notes\n\nWidgets and gadgets.\n',
};

async function trips(tool: string, args: Json): Promise<{ trips: number; statements: number; body: Json }> {
  const r = await rest(tool, { project: PROJECT, ...args });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { trips: Number(r.res.headers.get('x-pincher-d1-round-trips')), statements: Number(r.res.headers.get('x-pincher-d1-statements')), body: r.body };
}

beforeAll(async () => {
  expect((await push(PROJECT, FILES)).commit?.status).toBe(200);
  // Caches the project row in this isolate.
  await trips('find', { pattern: '*.ts' });
});

describe('D1 round trips per tool call', () => {
  it('search answers in one, its grep baseline included, the first time a query is asked and after', async () => {
    const first = await trips('search', { query: 'fetchWidget' });
    expect(first.body.result.results.map((r: Json) => r.name)).toContain('fetchWidget');
    expect(first.body._meta.baseline_method).toBe('grep_recursive');
    expect(first.trips).toBe(1);
    const again = await trips('search', { query: 'fetchWidget' });
    expect(again.trips).toBe(1);
    expect(again.body._meta.tokens_saved).toBe(first.body._meta.tokens_saved);
    expect((await trips('search', { query: 'norm*', kind: 'Function' })).trips).toBe(1);
  });

  it('an empty search answers in one: the any-word retry, the filters lifted, extraction gaps and a shorter prefix ride with the page', async () => {
    const cases: [Json, string, string][] = [
      [{ query: 'fetchWidget', kind: 'Class' }, 'query_too_narrow', 'search'],
      [{ query: 'fetchWidget', language: 'python', file_pattern: 'src/' }, 'query_too_narrow', 'search'],
      [{ query: 'Widgets' }, 'query_too_narrow', 'search'],
      [{ query: 'fetchWidgetsAll' }, 'no_results_in_corpus', 'search'],
      [{ query: 'qqqqqqqq' }, 'no_results_in_corpus', 'list'],
      [{ query: 'zebra quagga' }, 'no_results_in_corpus', 'list'],
    ];
    for (const [args, reason, tool] of cases) {
      const r = await trips('search', args);
      expect(r.body._meta.empty_reason, JSON.stringify(args)).toBe(reason);
      expect(r.body._meta.next_steps[0].tool, JSON.stringify(args)).toBe(tool);
      expect(r.trips, JSON.stringify(args)).toBe(1);
    }
    const past = await trips('search', { query: 'fetchWidget', offset: 50 });
    expect(past.body._meta.empty_reason).toBe('cap_dropped_all');
    expect(past.trips).toBe(1);
    const fallback = await trips('search', { query: 'fetchWidget zebra' });
    expect(fallback.body._meta.warnings_v2.map((w: Json) => w.code)).toContain('and_fallback_or');
    expect(fallback.body.result.results.map((h: Json) => h.name)).toContain('fetchWidget');
    expect(fallback.trips).toBe(1);
  });

  it('search with a folder or name-ending file_pattern answers in one; another glob reads the paths first', async () => {
    for (const file_pattern of ['src/', 'src/**', '*.ts', '**/*.ts']) {
      const r = await trips('search', { query: 'fetchWidget', file_pattern });
      expect(r.body.result.results.map((h: Json) => h.name), file_pattern).toContain('fetchWidget');
      expect(r.trips, file_pattern).toBe(1);
    }
    expect((await trips('search', { query: 'fetchWidget', file_pattern: 'src/w*.ts' })).trips).toBe(2);
  });

  it('a warm lite call executes its own statements only: the cached project row’s check is folded into one of them', async () => {
    // [tool, args, statements the tool itself asks]: read's map, symbol and a whole file ask the file with its symbols as one column.
    const calls: [string, Json, number][] = [
      ['symbol', { id: 'src/widget.ts::fetchWidget#Function' }, 1],
      ['symbols', { ids: ['src/widget.ts::fetchWidget#Function', 'src/widget.ts::normaliseWidget#Function'] }, 1],
      ['read', { path: 'src/widget.ts', offset: 2, limit: 5 }, 1],
      ['read', { path: 'src/widget.ts' },1],
      ['read', { path: 'src/widget.ts', map: true },1],
      ['read', { path: 'src/widget.ts', symbol: 'WidgetStore.load' },1],
      ['find', { pattern: '**/*.py' }, 1],
      ['find', { pattern: 'src/**' }, 1],
    ];
    for (const [tool, args, statements] of calls) {
      await trips(tool, args);
      const warm = await trips(tool, args);
      expect([warm.trips, warm.statements], `${tool} ${JSON.stringify(args)}`).toEqual([1, statements]);
    }
  });

  it('symbol, symbols and read answer in one', async () => {
    expect((await trips('symbol', { id: 'src/widget.ts::fetchWidget#Function' })).trips).toBe(1);
    expect((await trips('symbols', { ids: ['src/widget.ts::fetchWidget#Function', 'src/widget.ts::normaliseWidget#Function'] })).trips).toBe(1);
    expect((await trips('read', { path: 'src/widget.ts', map: true })).trips).toBe(1);
    expect((await trips('read', { path: 'src/widget.ts', symbol: 'WidgetStore.load' })).trips).toBe(1);
    expect((await trips('read', { path: 'src/widget.ts', offset: 2, limit: 5 })).trips).toBe(1);
  });

  it('a symbol id that names nothing answers in two: the id, then the same name in another file with every recovery question at once', async () => {
    const gone = await trips('symbol', { id: 'src/widget.ts::fetchWidgt#Function' });
    expect(gone.body._meta.empty_reason).toBe('target_not_resolved');
    // The steps keep their order: the name near it, then the file's map.
    expect(gone.body._meta.next_steps.map((s: Json) => [s.tool, s.args.id ?? s.args.path])).toEqual([
      ['symbol', 'src/widget.ts::fetchWidget#Function'],
      ['read', 'src/widget.ts'],
    ]);
    expect(gone.trips).toBe(2);
    // The same qualified name under another kind in the named file comes first.
    const kind = await trips('symbol', { id: 'src/widget.ts::fetchWidget#Method' });
    expect(kind.body._meta.next_steps[0]).toMatchObject({ tool: 'symbol', args: { id: 'src/widget.ts::fetchWidget#Function' } });
    expect(kind.trips).toBe(2);
    // context and neighborhood by an unknown id answer the same way.
    for (const tool of ['context', 'neighborhood']) {
      const miss = await trips(tool, { id: 'src/widget.ts::fetchWidgt#Function' });
      expect(miss.body._meta.empty_reason, tool).toBe('target_not_resolved');
      expect(miss.body._meta.next_steps[0], tool).toMatchObject({ tool: 'symbol', args: { id: 'src/widget.ts::fetchWidget#Function' } });
      expect(miss.trips, tool).toBe(2);
    }
    // By name: trace resolves it, then asks for the near names and the gaps together.
    const byName = await trips('trace', { name: 'fetchWidgt', direction: 'inbound', depth: 2 });
    expect(byName.body._meta.empty_reason).toBe('target_not_resolved');
    expect(byName.body._meta.next_steps[0]).toMatchObject({ tool: 'trace', args: { id: 'src/widget.ts::fetchWidget#Function' } });
    expect(byName.trips).toBe(2);
  });

  it('grep answers a literal or a regex with a literal in one', async () => {
    const literal = await trips('grep', { pattern: 'fetchWidget(', literal: true });
    expect(literal.body.result.total_matches).toBe(2);
    expect(literal.trips).toBe(1);
    const regex = await trips('grep', { pattern: 'raise \\w+Error', path: '*.py' });
    expect(regex.body.result.total_matches).toBe(1);
    expect(regex.trips).toBe(1);
  });

  it('grep answers a miss in one, and a miss that matches ignoring case in one too (the first page carries the lines the folded check keeps, so the retry is verified without reading the files)', async () => {
    const miss = await trips('grep', { pattern: 'absentTokenNowhere', literal: true });
    expect(miss.body._meta.empty_reason).toBe('no_results_in_corpus');
    expect(miss.trips).toBe(1);
    const cased = await trips('grep', { pattern: 'FETCHWIDGET', literal: true });
    expect(cased.body._meta.next_steps.map((s: Json) => s.args.ignore_case)).toContain(true);
    expect(cased.trips).toBe(1);
    // With context the page carries whole files, not lines: the folded-only files are then read to verify the retry.
    const casedWithContext = await trips('grep', { pattern: 'FETCHWIDGET', literal: true, context: 1 });
    expect(casedWithContext.body._meta.next_steps.map((s: Json) => s.args.ignore_case)).toContain(true);
    expect(casedWithContext.trips).toBe(2);
    const regexMiss = await trips('grep', { pattern: 'zq[0-9]{3}_absent_\\w+' });
    expect(regexMiss.trips).toBe(1);
  });

  it('find answers in one', async () => {
    expect((await trips('find', { pattern: '**/*.py' })).trips).toBe(1);
    expect((await trips('find', { pattern: 'src/**' })).trips).toBe(1);
  });

  it('find answers an empty listing in two: the page, then every filter’s count (and the languages) at once', async () => {
    const narrow = await trips('find', { pattern: '**/*.rs', language: 'python', min_size: 1 });
    expect(narrow.body._meta.empty_reason).toBe('query_too_narrow');
    expect(narrow.trips).toBe(2);
    // Only a pattern: dropping it finds every file of the project, which the page's round trip already counted.
    const only = await trips('find', { pattern: '**/*.rs' });
    expect(only.body._meta.diagnosis).toContain(`dropping pattern finds ${Object.keys(FILES).length}`);
    expect(only.trips).toBe(1);
  });

  it('the other lite tools answer in one (why_empty in none); listings across shards in one per shard', async () => {
    const one: [string, Json][] = [
      ['neighborhood', { id: 'src/widget.ts::fetchWidget#Function' }],
      ['neighborhood', { name: 'normaliseWidget' }],
      ['neighborhood', { name: 'WidgetStore.load' }],
      ['ls', { path: 'src' }],
      ['ls', { max_depth: 3 }],
      // The project's record count, which explains an empty answer, rides with the records asked for.
      ['adr', {}],
      ['adr', { action: 'get', id: 'ADR-0001' }],
      ['adr', { action: 'list', status: 'accepted' }],
      ['adr', { action: 'export' }],
    ];
    for (const [tool, args] of one) expect((await trips(tool, args)).trips, `${tool} ${JSON.stringify(args)}`).toBe(1);
    expect((await trips('why_empty', { code: 'no_results_in_corpus' })).trips).toBe(0);
    // schema computes its per-generation aggregate once (read, compute, store); then it reads it in one.
    await trips('schema', {});
    expect((await trips('schema', {})).trips).toBe(1);
    const shards = Object.keys(env).filter((k) => /^DB(_SHARD_\d+)?$/.test(k)).length;
    // health, like schema, computes each project's per-generation file figures once; then it reads them with the ledgers.
    await trips('health', {});
    for (const [tool, args] of [['list', {}], ['health', {}]] as const) expect((await trips(tool, args)).trips, tool).toBeLessThanOrEqual(shards);
    // A page shorter than the listing: its savings baseline (the whole listing) comes from the rows already read.
    expect((await push(`${PROJECT}-second`, { 'a.ts': 'export const a = 1;\n' })).commit?.status).toBe(200);
    const paged = await trips('list', { limit: 1 });
    expect(paged.body.result.total).toBeGreaterThan(1);
    expect(paged.trips).toBeLessThanOrEqual(shards);
    // health reads every shard's migration ledger, the project's statistics riding with its shard's.
    expect((await trips('health', { project: PROJECT })).trips).toBe(shards);
  });

  it('trace answers one level in two: the walk with the target, then its baseline', async () => {
    const t = await trips('trace', { id: 'src/widget.ts::normaliseWidget#Function', direction: 'inbound', depth: 1 });
    expect(t.body.result.hops.length).toBeGreaterThan(0);
    expect(t.trips).toBe(2);
  });

  it('trace walks every level (up to five) in the same round trip as one, both directions at once', async () => {
    const t = await trips('trace', { id: 'src/widget.ts::normaliseWidget#Function', direction: 'inbound', depth: 3 });
    expect(t.body.result.hops.map((h: Json) => h.depth)).toEqual([1, 2]);
    expect(t.trips).toBe(2);
    // The same hops five levels deep, the baseline kept: one statement, the walk reading its root's row itself.
    const deep = await trips('trace', { id: 'src/widget.ts::normaliseWidget#Function', direction: 'inbound', depth: 5 });
    expect(deep.body.result.hops).toEqual(t.body.result.hops);
    expect(deep.body.result.root).toEqual({ id: 'src/widget.ts::normaliseWidget#Function', name: 'normaliseWidget', kind: 'Function', file: 'src/widget.ts', line: 12 });
    expect(deep.trips).toBe(1);
    expect(deep.statements).toBe(1);
    const both = await trips('trace', { id: 'src/widget.ts::fetchWidget#Function', direction: 'both', depth: 3 });
    expect(both.body.result.hops.map((h: Json) => `${h.direction} ${h.depth}`)).toEqual(['inbound 1', 'outbound 1']);
    expect(both.trips).toBe(2);
    const again = await trips('trace', { id: 'src/widget.ts::fetchWidget#Function', direction: 'both', depth: 3 });
    expect(again.body.result).toEqual(both.body.result);
    expect([again.trips, again.statements]).toEqual([1, 1]);
  });

  it('trace from an id that names no symbol looks for its moved file without reading the id again: a moved file’s symbol is walked from its new id', async () => {
    // The walk (which reads the id's row), then the same name in another file with every recovery question at once.
    const gone = await trips('trace', { id: 'src/widget.ts::noSuchWidget#Function', direction: 'inbound', depth: 3 });
    expect(gone.body._meta.empty_reason).toBe('target_not_resolved');
    expect(gone.trips).toBe(2);
    const moved = await trips('trace', { id: 'src/old/widget.ts::normaliseWidget#Function', direction: 'inbound', depth: 3 });
    // The walk, the moved symbol found, its row read, then the walk from its new id.
    expect(moved.trips).toBe(4);
    expect(moved.body._meta.warnings_v2.map((w: Json) => w.code)).toContain('symbol_moved');
    expect(moved.body.result.root.id).toBe('src/widget.ts::normaliseWidget#Function');
    expect(moved.body.result.hops.map((h: Json) => h.depth)).toEqual([1, 2]);
  });
  it('trace explains an empty walk from an id with no edge at all in the walk’s own round trip; edges the filters hid are read again', async () => {
    const args = { id: 'src/gadget.py::make_gadget#Function', direction: 'both', depth: 3 };
    const first = await trips('trace', args);
    expect(first.body.result.hops).toEqual([]);
    expect(first.body._meta.empty_reason).toBe('no_results_in_corpus');
    const again = await trips('trace', args);
    expect([again.body.result, again.body._meta.empty_reason, again.body._meta.next_steps]).toEqual([first.body.result, 'no_results_in_corpus', first.body._meta.next_steps]);
    expect([again.trips, again.statements]).toEqual([1, 1]);
    // Calls go into normaliseWidget, but not of the kind asked for: the diagnosis reads them to say which filter hid them.
    const narrow = { id: 'src/widget.ts::normaliseWidget#Function', direction: 'inbound', depth: 3, kinds: ['INHERITS'] };
    await trips('trace', narrow);
    const hidden = await trips('trace', narrow);
    expect(hidden.body._meta.empty_reason).toBe('query_too_narrow');
    expect(hidden.trips).toBe(2);
  });

  it('trace by name resolves the name in the walk’s own round trip: two with the baseline, one once the baseline is kept', async () => {
    const t = await trips('trace', { name: 'WidgetStore.load', direction: 'outbound', depth: 3 });
    expect(t.body.result.root.id).toBe('src/widget.ts::WidgetStore.load#Method');
    expect(t.body.result.hops.map((h: Json) => `${h.name} ${h.depth}`)).toEqual(['fetchWidget 1', 'normaliseWidget 2']);
    expect(t.trips).toBe(2);
    const again = await trips('trace', { name: 'WidgetStore.load', direction: 'outbound', depth: 3 });
    expect(again.body.result).toEqual(t.body.result);
    expect(again.trips).toBe(1);
  });
});

describe('D1 round trips per composite call', () => {
  it('context_for_task answers in two when the task spells its files whole: names with the files and their symbols, then sources, outlines and neighbours', async () => {
    const t = await trips('context_for_task', { task: 'Fix WidgetStore.load in src/widget.ts: it returns a stale value when its input is empty' });
    expect(t.body.result.seeds.map((s: Json) => s.id)).toContain('src/widget.ts::WidgetStore.load#Method');
    expect(t.trips).toBe(2);
    const dotted = await trips('context_for_task', { task: 'Fix WidgetStore.load in ./src/widget.ts: it returns a stale value when its input is empty' });
    expect(dotted.body.result).toEqual(t.body.result);
    expect(dotted.trips).toBe(2);
  });

  it('context_for_task of words alone answers in three: names with the all-words page, the any-word page (rows whole, no read by id), then the seeds’ reads', async () => {
    const t = await trips('context_for_task', { task: 'normalise the widget before loading' });
    expect(t.body.result.seeds.map((s: Json) => s.via)).toContain('search_any_word');
    expect(t.body.result.seeds.map((s: Json) => s.id)).toContain('src/widget.ts::normaliseWidget#Function');
    expect(t.trips).toBe(3);
    // A named symbol besides the words asks for no page with the names: the search waits for them.
    const named = await trips('context_for_task', { task: 'fix fetchWidget so that widgets normalise before loading' });
    expect(named.body.result.seeds[0].id).toBe('src/widget.ts::fetchWidget#Function');
  });

  it('context_for_task answers in three when a file is named by its end: the matched file’s symbols take one more', async () => {
    const t = await trips('context_for_task', { task: 'Fix WidgetStore.load in widget.ts: it returns a stale value when its input is empty' });
    expect(t.body.result.seeds.map((s: Json) => s.id)).toContain('src/widget.ts::WidgetStore.load#Method');
    expect(t.body.result.seeds.map((s: Json) => s.via)).toContain('path');
    expect(t.trips).toBe(3);
  });

  it('guide answers in one when the task spells its files whole, in two when it names a file by its end', async () => {
    const whole = await trips('guide', { task: 'Fix WidgetStore.load in src/widget.ts: it returns a stale value' });
    expect(JSON.stringify(whole.body.result.steps)).toContain('src/widget.ts::WidgetStore.load#Method');
    expect(whole.trips).toBe(1);
    const end = await trips('guide', { task: 'Fix WidgetStore.load in widget.ts: it returns a stale value' });
    expect(JSON.stringify(end.body.result.steps)).toContain('src/widget.ts::WidgetStore.load#Method');
    expect(end.trips).toBe(2);
  });

  it('investigate_failure answers in two when the project paths end the frame paths: the frame files with their facts, sizes and symbols, then the callers', async () => {
    const t = await trips('investigate_failure', { trace: 'Error: no widget id\n    at fetchWidget (/app/src/widget.ts:8:20)\n    at WidgetStore.load (/app/src/widget.ts:3:12)\n' });
    expect(t.body.result.implicated[0].id).toBe('src/widget.ts::fetchWidget#Function');
    expect(t.trips).toBe(2);
  });

  it('investigate_failure answers in three when a frame names a project file by a shorter end: its reads take one more', async () => {
    const t = await trips('investigate_failure', { trace: 'Error: no widget id\n    at fetchWidget (widget.ts:8:20)\n    at WidgetStore.load (widget.ts:3:12)\n' });
    expect(t.body.result.implicated[0].id).toBe('src/widget.ts::fetchWidget#Function');
    expect(t.trips).toBe(3);
  });

  it('investigate_failure reads a frame’s line it did not guess: a file reached by a full path and by its name alone', async () => {
    const t = await trips('investigate_failure', { trace: 'Error: no widget id\n    at fetchWidget (/app/src/widget.ts:8:20)\n    at WidgetStore.load (widget.ts:3:12)\n' });
    expect(t.body.result.locations.map((l: Json) => l.id)).toEqual(['src/widget.ts::fetchWidget#Function', 'src/widget.ts::WidgetStore.load#Method']);
    expect(t.trips).toBe(3);
  });

  it('query answers in one, and explains an empty answer in one more: every question its explanation may read asked at once', async () => {
    const q = async (query: string) => trips('query', { query });
    const hop = await q('MATCH (a:Function)-[:CALLS]->(b) RETURN a.name, b.name ORDER BY a.name, b.name');
    expect(hop.body.result.rows).toContainEqual(['fetchWidget', 'normaliseWidget']);
    expect([hop.trips, hop.statements]).toEqual([1, 1]);
    const walk = await q("MATCH (a)-[:CALLS*1..3]->(b) WHERE a.name = 'load' RETURN DISTINCT b.name");
    expect(walk.body.result.rows.length).toBeGreaterThan(0);
    expect(walk.trips).toBe(1);
    // A node pattern that matches nothing, no WHERE: nothing to ask beyond the query itself.
    const none = await q("MATCH (a:Function {name: 'noSuchWidget'}) RETURN a.name");
    expect(none.body._meta.empty_reason).toBe('no_results_in_corpus');
    expect(none.trips).toBe(1);
    const cases: [string, string][] = [
      // The walk's size and the WHERE counts (the pattern, then without each condition) in one trip.
      ["MATCH (a)-[:CALLS*1..3]->(b) WHERE a.name = 'WidgetStore' AND b.kind = 'Function' RETURN DISTINCT b.name", 'query_too_narrow'],
      ["MATCH (a:Function)-[:CALLS]->(b) WHERE a.name = 'normaliseWidget' RETURN b.name", 'query_too_narrow'],
      // The rows without SKIP.
      ['MATCH (a:Function) RETURN a.name SKIP 50', 'cap_dropped_all'],
      // No WHERE: the two ends' languages ride with the walk's size.
      ['MATCH (a:Function)-[:CALLS*1..2]->(b:Class) RETURN a.name, b.name', 'no_results_in_corpus'],
      ["MATCH (a:Function {name: 'make_gadget'})-[:CALLS]->(b) RETURN b.name", 'no_results_in_corpus'],
    ];
    for (const [query, reason] of cases) {
      const r = await q(query);
      expect(r.body._meta.empty_reason, query).toBe(reason);
      expect(r.trips, query).toBe(2);
    }
    // A regex is decided in the Worker first: one trip more. Dropping one of two conditions of an empty answer
    // needs the regex's values without the other first: one more again.
    const regex = await q("MATCH (a:Function) WHERE a.name =~ 'fetch.*' RETURN a.name");
    expect(regex.body.result.rows).toEqual([['fetchWidget']]);
    expect(regex.trips).toBe(2);
    const narrow = await q("MATCH (a:Function) WHERE a.name =~ 'fetch.*' AND a.is_test = true RETURN a.name");
    expect(narrow.body._meta.empty_reason).toBe('query_too_narrow');
    expect(narrow.trips).toBe(4);
  });

  it('context answers in two by id or by name: the symbol with its references, then the candidates of the names it uses with their sources', async () => {
    const byId = await trips('context', { id: 'src/widget.ts::fetchWidget#Function' });
    expect(byId.body.result.dependencies.map((d: Json) => d.id)).toContain('src/widget.ts::normaliseWidget#Function');
    expect(byId.body.result.dependencies[0].source).toContain('id.trim()');
    expect(byId.trips).toBe(2);
    // The symbol the name most likely resolves to comes with the name's look-up: the same answer, no read by id.
    const byName = await trips('context', { name: 'fetchWidget' });
    expect(byName.body.result).toEqual(byId.body.result);
    expect(byName.trips).toBe(2);
    const member = await trips('context', { name: 'WidgetStore.load' });
    expect(member.body.result.symbol.id).toBe('src/widget.ts::WidgetStore.load#Method');
    expect(member.body.result.dependencies.map((d: Json) => d.id)).toEqual(['src/widget.ts::fetchWidget#Function']);
    expect(member.trips).toBe(2);
    // A symbol whose names (`trim`) match no symbol of the project: the same two.
    const leaf = await trips('context', { id: 'src/widget.ts::normaliseWidget#Function' });
    expect(leaf.body.result.dependencies).toEqual([]);
    expect(leaf.trips).toBe(2);
    // `@line` picks by span after the look-up: the symbol is read by id.
    const atLine = await trips('context', { name: 'fetchWidget@8' });
    expect(atLine.body.result).toEqual(byId.body.result);
    expect(atLine.trips).toBe(3);
    // An id that names nothing: its recovery questions take the second.
    const miss = await trips('context', { id: 'src/widget.ts::fetchWidgets#Function' });
    expect(miss.body._meta.empty_reason).toBe('target_not_resolved');
    expect(miss.trips).toBe(2);
  });

  it('plan_change by id walks in the target’s round trip: one more for an empty answer’s diagnosis', async () => {
    const t = await trips('plan_change', { id: 'src/widget.ts::normaliseWidget#Function' });
    expect(t.body.result.impact.length).toBeGreaterThan(0);
    // Its baseline figures were read (and kept) by the trace calls above.
    expect(t.trips).toBe(1);
    const empty = await trips('plan_change', { id: 'src/widget.ts::WidgetStore#Class' });
    expect(empty.body.result.impact).toEqual([]);
    expect(empty.trips).toBe(2);
  });

  it('changes answers in two: the diff’s files with the contents of those both of whose sides may be stored, the symbols of both sides’ spans and the importers of every path, then the caller walk', async () => {
    const diff = 'diff --git a/src/widget.ts b/src/widget.ts\n--- a/src/widget.ts\n+++ b/src/widget.ts\n@@ -13 +13 @@\n-  return id.trim();\n+  return id.trim().toLowerCase();\n';
    const t = await trips('changes', { diff });
    expect(t.body.result.changed.map((c: Json) => c.id)).toContain('src/widget.ts::normaliseWidget#Function');
    expect(t.body.result.impacted.length).toBeGreaterThan(0);
    expect(t.trips).toBe(2);
    // A rename whose two paths are not both stored reads no content: the same two.
    const renamed = 'diff --git a/src/widget.ts b/src/widget2.ts\nsimilarity index 90%\nrename from src/widget.ts\nrename to src/widget2.ts\n--- a/src/widget.ts\n+++ b/src/widget2.ts\n@@ -13 +13 @@\n-  return id.trim();\n+  return id.trim().toLowerCase();\n';
    const r = await trips('changes', { diff: renamed });
    expect(r.body.result.changed.map((c: Json) => c.id)).toContain('src/widget.ts::normaliseWidget#Function');
    expect(r.trips).toBe(2);
    // Ranges: the same two.
    const ranged = await trips('changes', { ranges: [{ path: 'src/widget.ts', start_line: 13, end_line: 13 }] });
    expect(ranged.body.result.changed.map((c: Json) => c.id)).toContain('src/widget.ts::normaliseWidget#Function');
    expect(ranged.trips).toBe(2);
  });
});
