import { beforeAll, describe, expect, it } from 'vitest';
import { rest, type Json } from '../helpers';

const PROJECT = 'syms-tool';

const A = [
  'export function alpha(): number {',
  '  return 1;',
  '}',
  'export class Beta {',
  '  gamma(): string { return "γ"; }',
  '}',
  ...Array.from({ length: 40 }, (_, i) => `// filler ${i} ${'x'.repeat(40)}`),
  '',
].join('\n');

const B = ['def delta(x):', '    """Δ doubles."""', '    return 2 * x', '', ...Array.from({ length: 30 }, (_, i) => `# filler ${i} ${'y'.repeat(40)}`), ''].join('\n');

/** 80 classes of 30 methods. */
const WIDE = Array.from({ length: 80 }, (_, c) => [`export class K${c} {`, ...Array.from({ length: 30 }, (_, m) => `  m${m}(): number { return ${m}; }`), '}'].join('\n')).join('\n') + '\n';

const utf8 = new TextEncoder();

async function call(args: Json, headers: Record<string, string> = {}) {
  return rest('symbols', { project: PROJECT, ...args }, headers);
}

beforeAll(async () => {
  const r = await rest('index', {
    project: PROJECT,
    files: [
      { path: 'src/a.ts', content: A },
      { path: 'py/b.py', content: B },
      { path: 'src/wide.ts', content: WIDE },
    ],
  });
  expect(r.status).toBe(200);
});

describe('symbols', () => {
  it('returns the found symbols in input order (repeats once) and lists the missing ids', async () => {
    const ids = ['py/b.py::delta#Function', 'src/a.ts::nope#Function', 'src/a.ts::Beta.gamma#Method', 'src/a.ts::alpha#Function', 'py/b.py::delta#Function', 'garbage'];
    const { status, body } = await call({ ids });
    expect(status).toBe(200);
    expect(body.result.symbols.map((s: Json) => s.id)).toEqual(['py/b.py::delta#Function', 'src/a.ts::Beta.gamma#Method', 'src/a.ts::alpha#Function']);
    expect(body.result.missing).toEqual(['src/a.ts::nope#Function', 'garbage']);
    expect(body.result.symbols[0].source).toBe('def delta(x):\n    """Δ doubles."""\n    return 2 * x');
    expect(body._meta).not.toHaveProperty('empty_reason');
    expect((body._meta.warnings_v2 as Json[]).find((w) => w.code === 'malformed_id')?.data).toEqual({ ids: ['garbage'] });
  });

  it('applies fields and skeleton to every symbol', async () => {
    const { body } = await call({ ids: ['src/a.ts::Beta#Class', 'src/a.ts::alpha#Function'], detail: 'skeleton', fields: ['outline', 'end_line'] });
    expect(body.result.symbols).toEqual([
      { id: 'src/a.ts::Beta#Class', end_line: 6, outline: [{ id: 'src/a.ts::Beta.gamma#Method', kind: 'Method', signature: 'gamma(): string', start_line: 5, end_line: 5 }] },
      { id: 'src/a.ts::alpha#Function', end_line: 3, outline: [] },
    ]);
  });

  it('shares one outline budget across skeletons and says which outlines it cut', async () => {
    const ids = Array.from({ length: 80 }, (_, c) => `src/wide.ts::K${c}#Class`);
    const { body } = await call({ ids, detail: 'skeleton', fields: ['outline'] });
    // 2000 outline rows for 80 skeletons: 25 each.
    for (const s of body.result.symbols) expect(s.outline).toHaveLength(25);
    expect(body.result.symbols[3].outline[24].id).toBe('src/wide.ts::K3.m24#Method');
    const w = (body._meta.warnings_v2 as Json[]).find((x) => x.code === 'outline_truncated');
    expect(w?.data.per_owner).toBe(25);
    expect(w?.data.truncated).toHaveLength(80);
    expect(w?.data.truncated[0]).toEqual({ id: 'src/wide.ts::K0#Class', total: 30 });

    const one = await call({ ids: ['src/wide.ts::K5#Class'], detail: 'skeleton', fields: ['outline'] });
    expect(one.body.result.symbols[0].outline).toHaveLength(30);
    expect(one.body._meta).not.toHaveProperty('warnings_v2');
  });

  it('is empty with target_not_resolved only when no id resolves', async () => {
    const { body } = await call({ ids: ['src/a.ts::nope#Function', 'src/zz.ts::alpha#Class'] });
    expect(body.result).toEqual({ symbols: [], missing: ['src/a.ts::nope#Function', 'src/zz.ts::alpha#Class'] });
    expect(body._meta.empty_reason).toBe('target_not_resolved');
    expect(body._meta.next_steps).toContainEqual(expect.objectContaining({ tool: 'search', args: { project: PROJECT, query: 'nope' } }));
    for (const step of body._meta.next_steps as Json[]) expect((await rest(step.tool, step.args)).status).toBe(200);
  });

  it('resolves a moved id with a symbol_moved warning and keeps it out of missing', async () => {
    const { body } = await call({ ids: ['lib/a.ts::alpha#Function', 'src/a.ts::Beta#Class'], fields: ['kind'] });
    expect(body.result.symbols).toEqual([
      { id: 'src/a.ts::alpha#Function', kind: 'Function', moved_from: 'lib/a.ts::alpha#Function' },
      { id: 'src/a.ts::Beta#Class', kind: 'Class' },
    ]);
    expect(body.result.missing).toEqual([]);
    expect((body._meta.warnings_v2 as Json[]).map((w) => w.code)).toContain('symbol_moved');
  });

  it('accepts 100 ids and rejects 0 or 101 with invalid_params', async () => {
    const hundred = Array.from({ length: 100 }, (_, i) => (i === 99 ? 'src/a.ts::alpha#Function' : `src/a.ts::f${i}#Function`));
    const ok = await call({ ids: hundred, fields: ['kind'] });
    expect(ok.status).toBe(200);
    expect(ok.body.result.symbols).toEqual([{ id: 'src/a.ts::alpha#Function', kind: 'Function' }]);
    expect(ok.body.result.missing).toHaveLength(99);
    expect((await call({ ids: [] })).body.error.code).toBe('invalid_params');
    expect((await call({ ids: [...hundred, 'x'] })).body.error.code).toBe('invalid_params');
  });

  it('credits the distinct files referenced (sizes/4 − tokens_used), never twice in a session', async () => {
    const ids = ['src/a.ts::alpha#Function', 'py/b.py::delta#Function', 'src/a.ts::Beta#Class'];
    const baseline = Math.ceil((utf8.encode(A).length + utf8.encode(B).length) / 4);
    const plain = await call({ ids });
    expect(plain.body._meta.tokens_saved).toBe(Math.max(0, baseline - plain.body._meta.tokens_used));
    expect(plain.body._meta.tokens_saved).toBeGreaterThan(0);
    const used = plain.body._meta.tokens_used;
    expect(plain.body._meta.tokens_saved_pct).toBe(Math.round((1000 * (baseline - used)) / baseline) / 10);

    const session = `syms-${Date.now()}`;
    const first = await call({ ids: ['src/a.ts::alpha#Function'], _meta: { session_id: session } });
    expect(first.body._meta.session_id).toBe(session);
    expect(first.body._meta.tokens_saved).toBe(Math.max(0, Math.ceil(utf8.encode(A).length / 4) - first.body._meta.tokens_used));
    // a.ts is already credited to this session: only b.py counts now.
    const second = await call({ ids, _meta: { session_id: session } });
    expect(second.body._meta.tokens_saved).toBe(Math.max(0, Math.ceil(utf8.encode(B).length / 4) - second.body._meta.tokens_used));
    const third = await call({ ids, _meta: { session_id: session } });
    expect(third.body._meta.tokens_saved).toBe(0);
  });
});
