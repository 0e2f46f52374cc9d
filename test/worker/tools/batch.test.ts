import { beforeAll, describe, expect, it } from 'vitest';
import { callTool, rest, type Json } from '../helpers';
import { restCall } from '../contract/support';
import { batch, DB, indexProject, runStep, tokens } from './support';

const PROJECT = 'batch-proj';
const OTHER = 'batch-other';

const FILES: Record<string, string> = {
  'src/app.ts': [
    "import { helper } from './lib/util';",
    'export class Server {',
    '  start(port: number): void {',
    '    listen(port);',
    '  }',
    '}',
    'export function listen(port: number): number {',
    '  return helper(port);',
    '}',
    ...Array.from({ length: 40 }, (_, i) => `// app padding ${i} ${'x'.repeat(40)}`),
    '',
  ].join('\n'),
  'src/lib/util.ts': ['export function helper(n: number): number {', '  return n + 1;', '}', ...Array.from({ length: 20 }, (_, i) => `// util padding ${i} ${'y'.repeat(40)}`), ''].join('\n'),
  'src/lib/{odd},name.ts': 'export function oddListen(): number {\n  return 2;\n}\n',
  'README.md': '# Batch\n\nlisten here.\n',
};

/** Thirty functions of ~10,000 characters each: `symbols` over fifteen of them is ~38k tokens. */
const BIG = Array.from({ length: 30 }, (_, i) => [`export function big${i}(): number {`, ...Array.from({ length: 200 }, (_, j) => `  const v${j} = ${j}; // ${'z'.repeat(30)}`), '  return 0;', '}'].join('\n')).join('\n') + '\n';
const BIG_IDS = Array.from({ length: 30 }, (_, i) => `src/big.ts::big${i}#Function`);

const entries = (body: Json): Json[] => body.result.entries;

const MANY = 'batch-many';
/** Sixty files of two functions each: 120 symbol ids, and file paths longer together than grep's 1000-character glob. */
const MANY_FILES = Object.fromEntries(
  Array.from({ length: 60 }, (_, i) => [`lib/many/module_file_${String(i).padStart(2, '0')}.ts`, `export function manyA${i}(): number {\n  return ${i};\n}\nexport function manyB${i}(): number {\n  return ${i};\n}\n`]),
);

beforeAll(async () => {
  await indexProject(PROJECT, FILES);
  await indexProject(OTHER, { 'src/big.ts': BIG, 'lib/one.ts': 'export function one(): number {\n  return 1;\n}\n' });
  await indexProject(MANY, MANY_FILES);
});

describe('batch runs read calls in one request', () => {
  it('answers each call in order with its result and a slim _meta, tokens_used counted like the envelope', async () => {
    const calls = [
      { tool: 'search', args: { project: PROJECT, query: 'listen' } },
      { tool: 'symbol', args: { project: PROJECT, id: 'src/lib/util.ts::helper#Function' } },
      { tool: 'list', args: {} },
    ];
    const { status, body } = await batch({ calls });
    expect(status).toBe(200);
    const out = entries(body);
    expect(out.map((e) => [e.tool, e.status])).toEqual([['search', 'ok'], ['symbol', 'ok'], ['list', 'ok']]);
    for (const [i, e] of out.entries()) {
      const direct = await rest(calls[i].tool, calls[i].args);
      expect(e.result).toEqual(direct.body.result);
      expect(e._meta).toEqual({ tokens_used: tokens(e.result) });
      expect(e._meta.tokens_used).toBe(direct.body._meta.tokens_used);
    }
    expect(Object.keys(body.result)).toEqual(['entries']);
  });

  it('fills project into entries whose tool takes one and whose args omit it; an entry’s own project wins', async () => {
    const { body } = await batch({
      project: PROJECT,
      calls: [
        { tool: 'find', args: { pattern: '*.ts' } },
        { tool: 'find', args: { project: OTHER, pattern: '*.ts' } },
        { tool: 'list' },
      ],
    });
    const [mine, other, list] = entries(body);
    expect(mine.result.files.map((f: Json) => f.path)).toContain('src/app.ts');
    expect(other.result.files.map((f: Json) => f.path)).toEqual(['lib/one.ts', 'src/big.ts']);
    // list takes no project: none is added, so no unknown_arg warning.
    expect(list.status).toBe('ok');
    expect(list._meta).not.toHaveProperty('warnings_v2');
  });

  it('names the project in its own _meta when every entry resolved the same one, and no project when they differ', async () => {
    const same = await batch({ project: PROJECT, calls: [{ tool: 'find' }, { tool: 'ls' }] });
    expect(same.body._meta.project_name).toBe(PROJECT);
    const mixed = await batch({ calls: [{ tool: 'find', args: { project: PROJECT } }, { tool: 'find', args: { project: OTHER } }] });
    expect(mixed.body._meta).not.toHaveProperty('project_name');
  });

  it('keeps an entry’s own warnings (unknown_arg) in its slim _meta, not in the batch’s', async () => {
    const { body } = await batch({ calls: [{ tool: 'find', args: { project: PROJECT, patern: '*.ts' } }] });
    const [e] = entries(body);
    expect(e._meta.warnings_v2.map((w: Json) => w.code)).toEqual(['unknown_arg']);
    expect(e._meta.warnings_v2[0].data.did_you_mean).toBe('pattern');
    expect(body._meta).not.toHaveProperty('warnings_v2');
  });

  it('answers the same over MCP as over REST', async () => {
    const args = { project: PROJECT, calls: [{ tool: 'search', args: { query: 'helper' } }, { tool: 'symbols', from: 0 }] };
    const viaRest = await batch(args);
    const viaMcp = await callTool('batch', args);
    const { notice: _n, ...structured } = viaMcp.body.result.structuredContent;
    expect(structured).toEqual(viaRest.body.result);
  });
});

describe('bad input', () => {
  it('refuses 0 calls and 13 calls as a whole with invalid_params', async () => {
    for (const calls of [[], Array.from({ length: 13 }, () => ({ tool: 'list' }))]) {
      const { status, body } = await batch({ calls });
      expect(status).toBe(400);
      expect(body.error.code).toBe('invalid_params');
      expect(body.error.message).toContain('calls');
      expect(body.error.suggestion).toBeTruthy();
    }
  });

  it('accepts exactly 12 calls', async () => {
    const { body } = await batch({ calls: Array.from({ length: 12 }, () => ({ tool: 'why_empty', args: { code: 'stale_index' } })) });
    expect(entries(body)).toHaveLength(12);
    expect(entries(body).every((e) => e.status === 'ok')).toBe(true);
  });

  it('refuses a call object with an unknown key, and a max_tokens out of range, as a whole', async () => {
    const typo = await batch({ calls: [{ tool: 'list', arguments: {} }] });
    expect(typo.body.error.code).toBe('invalid_params');
    expect(typo.body.error.message).toContain('arguments');
    for (const max_tokens of [499, 50_001]) {
      const r = await batch({ calls: [{ tool: 'list' }], max_tokens });
      expect(r.body.error.code).toBe('invalid_params');
      expect(r.body.error.message).toContain('max_tokens');
    }
    expect((await batch({ calls: [{ tool: 'list' }], max_tokens: '500' })).status).toBe(200);
  });

  it('gives an unknown tool its own unknown_tool error with a did-you-mean, and runs the others', async () => {
    const { status, body } = await batch({ calls: [{ tool: 'serch', args: { project: PROJECT, query: 'x' } }, { tool: 'list' }] });
    expect(status).toBe(200);
    const [bad, good] = entries(body);
    expect(bad.status).toBe('error');
    expect(bad.error.code).toBe('unknown_tool');
    expect(bad.error.suggestion).toContain("did you mean 'search'");
    expect(bad._meta).toEqual({ tokens_used: tokens({ error: bad.error }) });
    expect(good.status).toBe('ok');
  });

  it('refuses a write tool inside the batch without running it', async () => {
    const { body } = await batch({ calls: [{ tool: 'index', args: { project: 'batch-never-created', files: [{ path: 'a.ts', content: 'export const a = 1;\n' }] } }] });
    const [e] = entries(body);
    expect(e.error.code).toBe('invalid_params');
    expect(e.error.message).toContain('index writes');
    expect(e.error.suggestion).toContain('index on its own');
    const row = await DB.prepare('SELECT count(*) AS n FROM projects WHERE name = ?1').bind('batch-never-created').first<{ n: number }>();
    expect(row?.n).toBe(0);
  });

  it('refuses batch inside batch for that entry only', async () => {
    const { body } = await batch({ calls: [{ tool: 'list' }, { tool: 'batch', args: { calls: [{ tool: 'list' }] } }] });
    const [ok, nested] = entries(body);
    expect(ok.status).toBe('ok');
    expect(nested.error.code).toBe('invalid_params');
    expect(nested.error.message).toContain('batch cannot run inside batch');
  });

  it('refuses args that are not an object for that entry', async () => {
    const { body } = await batch({ calls: [{ tool: 'list', args: [1, 2] }, { tool: 'list', args: 'x' }] });
    for (const e of entries(body)) {
      expect(e.error.code).toBe('invalid_params');
      expect(e.error.message).toContain('args must be a JSON object');
    }
  });

  it('keeps a failing middle entry from failing its neighbours', async () => {
    const { body } = await batch({
      project: PROJECT,
      calls: [{ tool: 'find', args: { pattern: '*.md' } }, { tool: 'search', args: { query: 'x', limit: 0 } }, { tool: 'read', args: { path: 'README.md' } }],
    });
    const [first, middle, last] = entries(body);
    expect(first.status).toBe('ok');
    expect(middle.status).toBe('error');
    expect(middle.error).toMatchObject({ code: 'invalid_params' });
    expect(middle.error.message).toContain('limit');
    expect(middle.error.suggestion).toBeTruthy();
    expect(last.status).toBe('ok');
    expect(last.result.text).toContain('# Batch');
  });
});

describe('chains: from splices an earlier result into the arguments', () => {
  it('fills ids with the symbol ids of a search, in rank order', async () => {
    const { body } = await batch({ project: PROJECT, calls: [{ tool: 'search', args: { query: 'listen' } }, { tool: 'symbols', from: 0, args: { fields: ['name'] } }] });
    const [search, symbols] = entries(body);
    const ids = search.result.results.map((r: Json) => r.id);
    expect(ids.length).toBeGreaterThan(1);
    expect(symbols.status).toBe('ok');
    expect(symbols.result.symbols.map((s: Json) => s.id)).toEqual(ids);
  });

  it('fills id with the first symbol id', async () => {
    const { body } = await batch({ project: PROJECT, calls: [{ tool: 'search', args: { query: 'helper' } }, { tool: 'symbol', from: 0 }, { tool: 'context', from: 0 }] });
    const [, symbol, context] = entries(body);
    expect(symbol.result.symbol.id).toBe('src/lib/util.ts::helper#Function');
    expect(context.result.symbol.id).toBe('src/lib/util.ts::helper#Function');
  });

  it('fills path with the first file of a find or a grep', async () => {
    const { body } = await batch({
      project: PROJECT,
      calls: [{ tool: 'find', args: { pattern: 'util.ts' } }, { tool: 'read', from: 0, args: { limit: 1 } }, { tool: 'grep', args: { pattern: 'helper\\(port' } }, { tool: 'read', from: 2, args: { limit: 1 } }],
    });
    const out = entries(body);
    expect(out[1].result.path).toBe('src/lib/util.ts');
    expect(out[3].result.path).toBe('src/app.ts');
  });

  it('fills grep’s path with every file of the earlier result, as an escaped glob', async () => {
    const { body } = await batch({
      project: PROJECT,
      calls: [{ tool: 'find', args: { pattern: 'src/**' } }, { tool: 'grep', from: 0, args: { pattern: 'return', summary: true } }],
    });
    const [find, grep] = entries(body);
    const paths = find.result.files.map((f: Json) => f.path);
    expect(paths).toContain('src/lib/{odd},name.ts');
    expect(grep.status).toBe('ok');
    expect(grep.result.files.map((f: Json) => f.path).sort()).toEqual([...paths].sort());
    // Only the spliced files are searched: 'padding' is in two files, the chain narrows it to one.
    const narrowed = await batch({ project: PROJECT, calls: [{ tool: 'find', args: { pattern: 'util.ts' } }, { tool: 'grep', from: 0, args: { pattern: 'padding', summary: true } }] });
    expect(entries(narrowed.body)[1].result.files.map((f: Json) => f.path)).toEqual(['src/lib/util.ts']);
  });

  it('splices the first 100 ids, and as many files as grep’s glob holds, with a splice_truncated note', async () => {
    const ids = await batch({ project: MANY, calls: [{ tool: 'search', args: { query: 'many*', limit: 150, fields: ['id'] } }, { tool: 'symbols', from: 0, args: { fields: ['name'] } }] });
    const [search, symbols] = entries(ids.body);
    expect(search.result.results).toHaveLength(120);
    expect(symbols.result.symbols.map((s: Json) => s.id)).toEqual(search.result.results.slice(0, 100).map((r: Json) => r.id));
    expect(symbols._meta.warnings_v2).toEqual([expect.objectContaining({ code: 'splice_truncated', severity: 'info', data: { field: 'ids', total: 120, kept: 100 } })]);

    const files = await batch({ project: MANY, calls: [{ tool: 'find', args: { pattern: 'lib/many/**' } }, { tool: 'grep', from: 0, args: { pattern: 'export', summary: true } }] });
    const [find, grep] = entries(files.body);
    expect(find.result.files).toHaveLength(60);
    const note = grep._meta.warnings_v2.find((w: Json) => w.code === 'splice_truncated');
    expect(note.data.field).toBe('path');
    expect(note.data.total).toBe(60);
    expect(note.data.kept).toBeGreaterThan(20);
    expect(note.data.kept).toBeLessThan(60);
    // Exactly the first `kept` files, in the order find listed them, were searched.
    expect(grep.result.files.map((f: Json) => f.path)).toEqual(find.result.files.slice(0, note.data.kept).map((f: Json) => f.path));
  });

  it('refuses a from that points forward, at itself or below 0, for that entry', async () => {
    const { body } = await batch({
      calls: [{ tool: 'symbol', from: 0 }, { tool: 'symbol', from: 1 }, { tool: 'symbol', from: 2 }, { tool: 'symbol', from: -1 }, { tool: 'list' }],
    });
    const out = entries(body);
    for (const e of out.slice(0, 4)) {
      expect(e.error.code).toBe('invalid_params');
      expect(e.error.message).toContain('from must name an earlier entry');
    }
    expect(out[0].error.suggestion).toContain('first call cannot chain');
    expect(out[2].error.suggestion).toContain('from 0 to 1');
    expect(out[4].status).toBe('ok');
  });

  it('refuses to splice from an entry that failed or came back empty (not_found), or into a field args already sets', async () => {
    const { body } = await batch({
      project: PROJECT,
      calls: [
        { tool: 'search', args: { query: 'zebraquagga' } },
        { tool: 'symbols', from: 0 },
        { tool: 'serch' },
        { tool: 'symbol', from: 2 },
        { tool: 'search', args: { query: 'helper' } },
        { tool: 'symbol', from: 4, args: { id: 'src/app.ts::listen#Function' } },
        { tool: 'search', from: 4, args: { query: 'x' } },
      ],
    });
    const out = entries(body);
    expect(out[0]._meta.empty_reason).toBe('no_results_in_corpus');
    expect(out[1].error.code).toBe('not_found');
    expect(out[1].error.message).toContain('returned no symbol ids');
    expect(out[1].error.suggestion).toContain('empty (no_results_in_corpus)');
    expect(out[3].error.code).toBe('not_found');
    expect(out[3].error.message).toContain('failed with unknown_tool');
    expect(out[5].error.code).toBe('invalid_params');
    expect(out[5].error.message).toContain('fills id, which args already sets');
    expect(out[6].error.code).toBe('invalid_params');
    expect(out[6].error.message).toContain('search takes none of ids, id or path');
  });

  it('waits for its source while independent entries run', async () => {
    const { body } = await batch({
      project: PROJECT,
      calls: [{ tool: 'search', args: { query: 'listen' } }, { tool: 'find' }, { tool: 'symbols', from: 0 }, { tool: 'symbol', from: 2 }],
    });
    const out = entries(body);
    expect(out.map((e) => e.status)).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(out[3].result.symbol.id).toBe(out[0].result.results[0].id);
  });
});

describe('the shared max_tokens budget', () => {
  it('skips the entries that do not fit, with budget_truncated, and steers to a batch that re-runs them', async () => {
    const calls = [
      { tool: 'read', args: { path: 'src/app.ts' } },
      { tool: 'why_empty', args: { code: 'stale_index' } },
      { tool: 'search', args: { query: 'helper' } },
      { tool: 'read', from: 2, args: { limit: 3 } },
    ];
    const full = await batch({ project: PROJECT, calls, max_tokens: 50_000 });
    const sizes = entries(full.body).map((e) => e._meta.tokens_used);
    // A budget that holds exactly the first two entries.
    const max = sizes[0] + sizes[1];
    expect(max).toBeGreaterThanOrEqual(500);
    const { body } = await batch({ project: PROJECT, calls, max_tokens: max });
    const out = entries(body);
    expect(out[0]).toEqual(entries(full.body)[0]);
    expect(out.map((e) => e.status)).toEqual(['ok', 'ok', 'skipped', 'skipped']);
    const skipped = out.filter((e) => e.status === 'skipped');
    for (const e of skipped) {
      expect(e).not.toHaveProperty('result');
      expect(e._meta.tokens_used).toBe(0);
      expect(e._meta.warnings_v2[0].code).toBe('budget_truncated');
    }
    expect(skipped.map((e) => e._meta.warnings_v2[0].data)).toEqual([{ tokens: sizes[2], remaining: 0 }, { tokens: sizes[3], remaining: 0 }]);
    expect(body._meta.warnings_v2.map((w: Json) => w.code)).toContain('budget_truncated');

    const [step] = body._meta.next_steps;
    expect(step.tool).toBe('batch');
    // The re-run names the project and the spliced ids explicitly: it runs on its own.
    expect(step.args.calls[1]).toEqual({ tool: 'read', args: { limit: 3, project: PROJECT, path: 'src/lib/util.ts' } });
    const rerun = await runStep(step);
    expect(rerun.result.entries.map((e: Json) => e.result)).toEqual([entries(full.body)[2].result, entries(full.body)[3].result]);
    expect(rerun.result.entries.every((e: Json) => e.status === 'ok')).toBe(true);
  });

  it('steers to one direct call per skipped entry when together they exceed the largest budget', async () => {
    const calls = [
      { tool: 'symbols', args: { project: OTHER, ids: BIG_IDS.slice(0, 15) } },
      { tool: 'symbols', args: { project: OTHER, ids: BIG_IDS.slice(15) } },
    ];
    const { body } = await batch({ calls, max_tokens: 500 });
    expect(entries(body).map((e) => e.status)).toEqual(['skipped', 'skipped']);
    const need = entries(body).reduce((n, e) => n + e._meta.warnings_v2[0].data.tokens, 0);
    expect(need).toBeGreaterThan(50_000);
    const steps = body._meta.next_steps as Json[];
    expect(steps.map((s) => s.tool)).toEqual(['symbols', 'symbols']);
    expect(steps.map((s) => s.args)).toEqual(calls.map((c) => c.args));
    for (const step of steps) expect((await runStep(step)).result.symbols).toHaveLength(15);
  });

  it('defaults to 8000 tokens', async () => {
    const { body } = await batch({ calls: [{ tool: 'symbols', args: { project: OTHER, ids: BIG_IDS.slice(0, 1) } }, { tool: 'symbols', args: { project: OTHER, ids: BIG_IDS.slice(1, 4) } }] });
    const [small, big] = entries(body);
    expect(small.status).toBe('ok');
    expect(small._meta.tokens_used).toBeLessThanOrEqual(8000);
    expect(big.status).toBe('skipped');
    expect(small._meta.tokens_used + big._meta.warnings_v2[0].data.tokens).toBeGreaterThan(8000);
  });
});

describe('empty entries and next steps', () => {
  it('is empty with the entries’ reason when every entry is empty for one reason, and lifts their next steps', async () => {
    const { body } = await batch({ calls: [{ tool: 'search', args: { project: 'batch-nowhere', query: 'x' } }, { tool: 'find', args: { project: 'batch-nowhere' } }] });
    expect(body._meta.empty_reason).toBe('no_project_indexed');
    expect(body._meta.diagnosis).toContain('all 2 entries are empty');
    const steps = body._meta.next_steps as Json[];
    expect(steps[0]).toMatchObject({ tool: 'list', args: {} });
    expect(steps[0].why).toMatch(/^entry 0: /);
    for (const s of steps) await runStep(s);
  });

  it('is not empty when one entry has results; the empty entry keeps its reason and its steps reach the batch', async () => {
    const { body } = await batch({ project: PROJECT, calls: [{ tool: 'search', args: { query: 'listen', kind: 'Class' } }, { tool: 'find' }] });
    const [empty, ok] = entries(body);
    expect(empty._meta.empty_reason).toBe('query_too_narrow');
    expect(ok._meta).not.toHaveProperty('empty_reason');
    expect(body._meta).not.toHaveProperty('empty_reason');
    const steps = body._meta.next_steps as Json[];
    expect(steps.length).toBeGreaterThan(0);
    expect(steps.every((s) => s.why.startsWith('entry 0: '))).toBe(true);
    for (const s of steps) await runStep(s);
  });
});

describe('tokens_saved over the entries', () => {
  async function baselineOf(tool: string, args: Json): Promise<number> {
    const { body } = await rest(tool, args);
    expect(body._meta.tokens_saved).toBeGreaterThan(0);
    return body._meta.tokens_saved + body._meta.tokens_used;
  }

  it('sums the entries’ baselines, naming sum_of_parts when their methods differ', async () => {
    const calls = [
      { tool: 'symbol', args: { project: PROJECT, id: 'src/lib/util.ts::helper#Function', fields: ['name'] } },
      { tool: 'search', args: { project: PROJECT, query: 'Server', fields: ['id'] } },
    ];
    // A part's baseline is saved + used when it saved anything, else at most its used tokens.
    const parts = [];
    for (const c of calls) parts.push((await rest(c.tool, c.args)).body._meta);
    const lower = parts.filter((m) => m.tokens_saved > 0).reduce((n, m) => n + m.tokens_saved + m.tokens_used, 0);
    const upper = parts.reduce((n, m) => n + m.tokens_saved + m.tokens_used, 0);
    expect(lower).toBeGreaterThan(0);
    const { body } = await batch({ calls });
    expect(body._meta.baseline_method).toBe('sum_of_parts');
    expect(body._meta.tokens_saved).toBeGreaterThan(0);
    // The parts are summed in characters, then rounded up once: within one token of the sum of rounded parts.
    const baseline = body._meta.tokens_saved + body._meta.tokens_used;
    expect(baseline).toBeGreaterThanOrEqual(lower - 1);
    expect(baseline).toBeLessThanOrEqual(upper + 1);
  });

  it('counts an entry without a baseline (or an error) as saving nothing', async () => {
    const symbolArgs = { project: PROJECT, id: 'src/lib/util.ts::helper#Function', fields: ['name'] };
    const base = await baselineOf('symbol', symbolArgs);
    const { body } = await batch({ calls: [{ tool: 'symbol', args: symbolArgs }, { tool: 'why_empty', args: { code: 'stale_index' } }, { tool: 'nope' }] });
    const [, why, err] = entries(body);
    expect(body._meta.baseline_method).toBe('full_file_read');
    expect(body._meta.tokens_saved).toBe(Math.max(0, base + why._meta.tokens_used + err._meta.tokens_used - body._meta.tokens_used));
  });

  it('credits a file once per call: two symbols of one file count the file once', async () => {
    const calls = [
      { tool: 'symbol', args: { project: PROJECT, id: 'src/app.ts::listen#Function' } },
      { tool: 'symbol', args: { project: PROJECT, id: 'src/app.ts::Server#Class' } },
    ];
    const size = new TextEncoder().encode(FILES['src/app.ts']).length;
    const { body } = await batch({ calls });
    expect(body._meta.baseline_method).toBe('full_file_read');
    expect(body._meta.savings_scope).toBe('call');
    expect(body._meta.tokens_saved).toBe(Math.max(0, Math.ceil(size / 4) - body._meta.tokens_used));
  });

  it('applies the session to every entry: a file is credited once per session, across entries and batches', async () => {
    const calls = [
      { tool: 'symbol', args: { project: PROJECT, id: 'src/app.ts::listen#Function' } },
      { tool: 'symbol', args: { project: PROJECT, id: 'src/app.ts::Server#Class' } },
    ];
    const size = new TextEncoder().encode(FILES['src/app.ts']).length;
    const headers = { 'x-pincher-session': `batch-session-${Date.now()}` };
    const first = await batch({ calls }, headers);
    expect(first.body._meta.session_id).toBe(headers['x-pincher-session']);
    expect(first.body._meta.tokens_saved).toBe(Math.max(0, Math.ceil(size / 4) - first.body._meta.tokens_used));
    const again = await batch({ calls }, headers);
    expect(again.body._meta.tokens_saved).toBe(0);
  });
});

describe('scope', () => {
  const KEYS = { PINCHER_HTTP_KEY: 'batch-full-key', PINCHER_READ_KEY: 'batch-read-key' };

  it('runs for a read-only key, and refuses a write tool inside whatever the key', async () => {
    const args = { calls: [{ tool: 'find', args: { project: PROJECT } }, { tool: 'adr_write', args: { project: PROJECT, action: 'set', title: 'x' } }] };
    for (const key of [KEYS.PINCHER_READ_KEY, KEYS.PINCHER_HTTP_KEY]) {
      const { body } = await restCall('batch', args, { env: KEYS, headers: { authorization: `Bearer ${key}` } });
      const [find, write] = body.result.entries;
      expect(find.status).toBe('ok');
      expect(write.error.code).toBe('invalid_params');
    }
    const n = await DB.prepare("SELECT count(*) AS n FROM adrs WHERE title = 'x'").first<{ n: number }>();
    expect(n?.n).toBe(0);
  });
});
