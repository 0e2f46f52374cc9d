import { beforeAll, describe, expect, it } from 'vitest';
import { rest, type Json } from '../helpers';

const PROJECT = 'ctx-tool';

const pad = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix} padding ${i} ${'·'.repeat(30)}`).join('\n');

const FILES: Record<string, string> = {
  'src/lib/util.ts': [
    'export function format(v: number): string {',
    '  return v.toFixed(2);',
    '}',
    'export class Logger {',
    '  log(msg: string): void { console.log(msg); }',
    '}',
    pad('//', 30),
    '',
  ].join('\n'),
  'src/other/format.ts': "export function format(v: number): string { return 'other'; }\n",
  'src/db/repo.ts': ['export class Repo {', '  save(x: unknown): void {}', '}', pad('//', 30), ''].join('\n'),
  'src/app/service.ts': [
    "import { format, Logger } from '../lib/util';",
    "import { useState } from 'react';",
    '',
    'export class Service {',
    '  private logger: Logger = new Logger();',
    '  run(n: number): string {',
    '    const s = format(n);',
    '    this.repo.save(s);',
    '    this.tick();',
    '    useState(0);',
    '    return s;',
    '  }',
    '  tick(): void {}',
    '}',
    pad('//', 30),
    '',
  ].join('\n'),
  'src/heavy.ts': [
    'export function root(): void {',
    ...Array.from({ length: 10 }, (_, i) => `  part${i}();`),
    '}',
    ...Array.from({ length: 10 }, (_, i) => [`export function part${i}(): number {`, ...Array.from({ length: 40 }, (_, j) => `  const v${j} = ${i * 100 + j}; // ${'x'.repeat(20)}`), '  return 0;', '}'].join('\n')),
    '',
  ].join('\n'),
  'py/lonely.py': ['import os', '', 'def lonely():', '    return os.getcwd()', '', 'def leaf():', '    return 1', ''].join('\n'),
  'config/app.yaml': 'server:\n  port: 8080\n  host: example.org\n',
};

const utf8 = new TextEncoder();
const size = (path: string) => utf8.encode(FILES[path]).length;

async function ctx(args: Json, headers: Record<string, string> = {}) {
  return rest('context', { project: PROJECT, ...args }, headers);
}

async function runStep(step: Json) {
  const r = await rest(step.tool, step.args);
  expect(r.status, JSON.stringify(step)).toBe(200);
  expect((r.body._meta.warnings_v2 ?? []).filter((w: Json) => w.code === 'unknown_arg')).toEqual([]);
  return r.body;
}

beforeAll(async () => {
  const r = await rest('index', { project: PROJECT, files: Object.entries(FILES).map(([path, content]) => ({ path, content })) });
  expect(r.status).toBe(200);
});

describe('context: dependencies', () => {
  it('returns the symbol with what it calls: same file first, imports via the module specifier, then by name', async () => {
    const { status, body } = await ctx({ id: 'src/app/service.ts::Service.run#Method' });
    expect(status).toBe(200);
    expect(body.result.symbol.id).toBe('src/app/service.ts::Service.run#Method');
    expect(body.result.symbol.source).toContain('this.repo.save(s);');
    const deps = body.result.dependencies.map((d: Json) => [d.id, d.relation, d.resolution, d.line]);
    expect(deps).toEqual([
      ['src/app/service.ts::Service.tick#Method', 'call', 'same_file', 9],
      // format comes from ../lib/util, not from the other file that defines a format.
      ['src/lib/util.ts::format#Function', 'call', 'import', 7],
      ['src/db/repo.ts::Repo.save#Method', 'call', 'name', 8],
    ]);
    expect(body.result.dependencies[1].source).toBe('export function format(v: number): string {\n  return v.toFixed(2);\n}');
    // useState is imported from a module the project does not hold: unresolved, not matched by name.
    expect(body.result.unresolved).toEqual(['useState']);
    expect(body._meta).not.toHaveProperty('empty_reason');
    expect(body._meta).not.toHaveProperty('warnings_v2');
  });

  it('includes imported names the symbol only uses as types, and leaves out its own members', async () => {
    const { body } = await ctx({ id: 'src/app/service.ts::Service#Class' });
    const ids = body.result.dependencies.map((d: Json) => d.id);
    expect(ids).toContain('src/lib/util.ts::Logger#Class');
    expect(ids).toContain('src/lib/util.ts::format#Function');
    expect(ids).not.toContain('src/app/service.ts::Service.tick#Method');
    expect(ids).not.toContain('src/app/service.ts::Service.run#Method');
  });

  it('resolves name, Class.method, path and Name@line like read', async () => {
    const byName = await ctx({ name: 'Service.run' });
    expect(byName.body.result.symbol.id).toBe('src/app/service.ts::Service.run#Method');
    const inFile = await ctx({ name: 'format', path: 'src/other/format.ts' });
    expect(inFile.body.result.symbol.id).toBe('src/other/format.ts::format#Function');
    const atLine = await ctx({ name: 'tick@13', path: 'src/app/service.ts' });
    expect(atLine.body.result.symbol.id).toBe('src/app/service.ts::Service.tick#Method');
  });

  it('warns when a name is ambiguous and steps to the other candidates', async () => {
    const { body } = await ctx({ name: 'format' });
    expect(body.result.symbol.id).toBe('src/lib/util.ts::format#Function');
    const w = (body._meta.warnings_v2 as Json[]).find((x) => x.code === 'ambiguous_symbol');
    expect(w?.data.candidates).toEqual(['src/lib/util.ts::format#Function', 'src/other/format.ts::format#Function']);
    const step = (body._meta.next_steps as Json[]).find((s) => s.tool === 'context');
    expect((await runStep(step as Json)).result.symbol.id).toBe('src/other/format.ts::format#Function');
  });

  it('answers an unknown id or name with target_not_resolved and a search step', async () => {
    const id = await ctx({ id: 'src/app/service.ts::Nope#Class' });
    expect(id.body.result).toMatchObject({ symbol: null, dependencies: [] });
    expect(id.body._meta.empty_reason).toBe('target_not_resolved');
    expect(id.body._meta.next_steps).toContainEqual(expect.objectContaining({ tool: 'search', args: { project: PROJECT, query: 'Nop*' } }));
    const name = await ctx({ name: 'Nope' });
    expect(name.body._meta.empty_reason).toBe('target_not_resolved');
    for (const step of [...id.body._meta.next_steps, ...name.body._meta.next_steps]) await runStep(step);
  });

  it('needs exactly one of id or name, and path only with name', async () => {
    for (const args of [{}, { id: 'src/heavy.ts::root#Function', name: 'root' }, { id: 'src/heavy.ts::root#Function', path: 'src/heavy.ts' }]) {
      const { status, body } = await ctx(args);
      expect(status, JSON.stringify(args)).toBe(400);
      expect(body.error.code).toBe('invalid_params');
    }
  });

  it('takes max_tokens from 200 to 50000, as obvious base-10 strings too', async () => {
    expect((await ctx({ name: 'root', max_tokens: 199 })).body.error.code).toBe('invalid_params');
    expect((await ctx({ name: 'root', max_tokens: 50_001 })).body.error.code).toBe('invalid_params');
    expect((await ctx({ name: 'root', max_tokens: '50000' })).body.result.max_tokens).toBe(50_000);
  });
});

describe('context: the token budget', () => {
  it('keeps within max_tokens, lists what it dropped, and the symbols step fetches exactly that', async () => {
    const { body } = await ctx({ id: 'src/heavy.ts::root#Function', max_tokens: 1500 });
    const r = body.result;
    const all = Array.from({ length: 10 }, (_, i) => `src/heavy.ts::part${i}#Function`);
    expect(r.dependencies.length).toBeGreaterThan(0);
    expect(r.dropped.length).toBeGreaterThan(0);
    expect([...r.dependencies.map((d: Json) => d.id), ...r.dropped].sort()).toEqual([...all].sort());
    // The budget covers the symbol and dependency entries, counted as chars/4.
    expect(r.used_tokens).toBe(Math.ceil(JSON.stringify(r.symbol).length / 4) + Math.ceil(JSON.stringify({ dependencies: r.dependencies }).length / 4));
    expect(r.used_tokens).toBeLessThanOrEqual(1500);

    const warning = (body._meta.warnings_v2 as Json[]).find((w) => w.code === 'budget_truncated');
    expect(warning?.data).toMatchObject({ max_tokens: 1500, dropped: r.dropped });
    const step = (body._meta.next_steps as Json[]).find((s) => s.tool === 'symbols');
    expect(step?.args).toEqual({ project: PROJECT, ids: r.dropped });
    const fetched = await runStep(step as Json);
    expect(fetched.result.symbols.map((s: Json) => s.id)).toEqual(r.dropped);
    expect(fetched.result.missing).toEqual([]);
    for (const s of fetched.result.symbols) expect(s.source).toMatch(/^export function part\d\(\): number \{[\s\S]*\}$/);
  });

  it('returns everything without a warning when the budget is large enough', async () => {
    const { body } = await ctx({ id: 'src/heavy.ts::root#Function', max_tokens: 50_000 });
    expect(body.result.dependencies).toHaveLength(10);
    expect(body.result).not.toHaveProperty('dropped');
    expect(body._meta).not.toHaveProperty('warnings_v2');
  });

  it('returns a symbol larger than the budget as a skeleton, with steps for its source and dependencies', async () => {
    const { body } = await ctx({ id: 'src/heavy.ts::part3#Function', max_tokens: 200 });
    expect(body.result.symbol).not.toHaveProperty('source');
    expect(body.result.symbol.signature).toBe('export function part3(): number');
    const warning = (body._meta.warnings_v2 as Json[]).find((w) => w.code === 'budget_truncated');
    expect(warning?.data.root_skeleton).toBe('src/heavy.ts::part3#Function');
    const step = (body._meta.next_steps as Json[]).find((s) => s.tool === 'symbol');
    expect((await runStep(step as Json)).result.symbol.source).toContain('const v39 = 339;');
  });
});

describe('context: empty dependency lists carry their reason', () => {
  it('marks same_file_only when the calls match nothing in the project for a language with call edges', async () => {
    const { body } = await ctx({ name: 'lonely' });
    expect(body.result.symbol.source).toBe('def lonely():\n    return os.getcwd()');
    expect(body.result.dependencies).toEqual([]);
    expect(body.result.unresolved).toEqual(['getcwd']);
    expect(body._meta.empty_reason).toBe('same_file_only');
    expect(body._meta.diagnosis).toContain('getcwd');
    for (const step of body._meta.next_steps) await runStep(step);
  });

  it('marks same_file_only for a symbol that references nothing', async () => {
    const { body } = await ctx({ name: 'leaf' });
    expect(body.result.dependencies).toEqual([]);
    expect(body._meta.empty_reason).toBe('same_file_only');
  });

  it('marks cross_file_unavailable for a language whose extractor emits no edges', async () => {
    const { body } = await ctx({ name: 'server', path: 'config/app.yaml' });
    expect(body.result.symbol.kind).toBe('Setting');
    expect(body.result.symbol.source).toContain('port: 8080');
    expect(body.result.dependencies).toEqual([]);
    expect(body._meta.empty_reason).toBe('cross_file_unavailable');
    expect(body._meta.diagnosis).toContain('yaml');
    for (const step of body._meta.next_steps) await runStep(step);
  });
});

describe('context: savings', () => {
  it('credits the distinct files whose source it returns (sizes/4 − tokens_used), once per session', async () => {
    const files = ['src/app/service.ts', 'src/lib/util.ts', 'src/db/repo.ts'];
    const baseline = Math.ceil(files.reduce((n, p) => n + size(p), 0) / 4);
    const { body } = await ctx({ id: 'src/app/service.ts::Service.run#Method' });
    expect(body._meta.tokens_saved).toBe(Math.max(0, baseline - body._meta.tokens_used));
    expect(body._meta.tokens_saved).toBeGreaterThan(0);

    const session = { 'x-pincher-session': `ctx-${Date.now()}` };
    const first = await ctx({ id: 'src/app/service.ts::Service.run#Method' }, session);
    expect(first.body._meta.tokens_saved).toBe(Math.max(0, baseline - first.body._meta.tokens_used));
    const again = await ctx({ id: 'src/app/service.ts::Service.run#Method' }, session);
    expect(again.body._meta.tokens_saved).toBe(0);
  });
});
