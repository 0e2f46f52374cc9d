import { beforeAll, describe, expect, it } from 'vitest';
import { TOOL_NAMES } from '../../../src/tools/registry';
import { callTool, rest, type Json } from '../helpers';

const PROJECT = 'sym-tool';

// Multibyte text before and inside the symbols: byte offsets and character offsets differ.
const UNI = [
  '// héllo wörld — ünïcödé 🎉 (2-, 3- and 4-byte UTF-8 before any symbol)',
  '/** Greets in many tongues: ¡hola! こんにちは */',
  'export function greet(name: string): string {',
  '  return `👋 ${name} — ça va?`;',
  '}',
  '',
  '/** A café that brews ☕ */',
  'export class Café {',
  '  /** Brews a cup */',
  '  brew(size: number): string {',
  "    return '☕'.repeat(size);",
  '  }',
  '  pay(): void {}',
  '}',
  ...Array.from({ length: 60 }, (_, i) => `// padding line ${i} so the file is worth more than a symbol — ${'ü'.repeat(20)}`),
  '',
].join('\n');

const utf8 = new TextEncoder();

/** The slice of `text` between two UTF-8 byte offsets, computed independently of the server. */
function bytesSlice(text: string, start: number, end: number): string {
  return new TextDecoder().decode(utf8.encode(text).subarray(start, end));
}

async function call(tool: string, args: Json, headers: Record<string, string> = {}) {
  return rest(tool, { project: PROJECT, ...args }, headers);
}

/** Executes every next step of a response and returns the replies (each must succeed). */
async function runSteps(body: Json): Promise<{ step: Json; body: Json }[]> {
  const out = [];
  for (const step of (body._meta.next_steps ?? []) as Json[]) {
    expect(TOOL_NAMES.has(step.tool)).toBe(true);
    const r = await rest(step.tool, step.args);
    expect(r.status, JSON.stringify(step)).toBe(200);
    expect((r.body._meta.warnings_v2 ?? []).filter((w: Json) => w.code === 'unknown_arg')).toEqual([]);
    out.push({ step, body: r.body });
  }
  return out;
}

// A 150-line function: longer than the source symbol returns whole.
const LONG = ['export function long(): number {', ...Array.from({ length: 148 }, (_, i) => `  const v${i} = ${i};`), '  return 0;', '}', ''].join('\n');

// A 66-line class of eight 8-line methods: long enough to answer with its members' outline.
const BIG = [
  '/** Many methods. */',
  'export class Big {',
  ...Array.from({ length: 8 }, (_, i) => [`  m${i}(a: number): number {`, ...Array.from({ length: 5 }, (_, k) => `    a = a * ${k + 2} + ${i}; // step ${k} of method ${i}`), '    return a;', '  }'].join('\n').split('\n')).flat(),
  '}',
  '',
].join('\n');

beforeAll(async () => {
  const r = await rest('index', {
    project: PROJECT,
    files: [{ path: 'src/uni.ts', content: UNI }, { path: 'src/long.ts', content: LONG }, { path: 'src/big.ts', content: BIG }],
  });
  expect(r.status).toBe(200);
});

describe('symbol', () => {
  it('cuts a source over 100 lines at line 100, says so, and reads the rest with its step', async () => {
    const { body } = await call('symbol', { id: 'src/long.ts::long#Function' });
    const s = body.result.symbol;
    const lines = LONG.split('\n');
    expect(s.end_line).toBe(151);
    expect(s.source).toBe(lines.slice(0, 100).join('\n'));
    expect(s.source_truncated).toBe(101);
    const warning = (body._meta.warnings_v2 as Json[]).find((w) => w.code === 'source_truncated');
    expect(warning?.data).toEqual({ shown_lines: 100, total_lines: 151, next_line: 101 });
    const [rest51] = await runSteps(body);
    expect(rest51.step).toMatchObject({ tool: 'read', args: { path: 'src/long.ts', offset: 101, limit: 51 } });
    expect(rest51.body.result).toMatchObject({ start_line: 101, end_line: 151 });
  });

  it('answers a long class by its head and an outline of its members, reading on with its step; detail full gives the source', async () => {
    const { body } = await call('symbol', { id: 'src/big.ts::Big#Class' });
    const s = body.result.symbol;
    expect(s.source).toBe('export class Big {');
    expect(s.source_truncated).toBe(3);
    expect(s.outline.map((o: Json) => o.id)).toEqual(Array.from({ length: 8 }, (_, i) => `src/big.ts::Big.m${i}#Method`));
    expect(s.outline[0]).toMatchObject({ kind: 'Method', signature: 'm0(a: number): number', start_line: 3, end_line: 10 });
    const warning = (body._meta.warnings_v2 as Json[]).find((w) => w.code === 'source_truncated');
    expect(warning?.data).toEqual({ shown_lines: 1, total_lines: 66, next_line: 3 });
    const [rest] = await runSteps(body);
    expect(rest.step).toMatchObject({ tool: 'read', args: { path: 'src/big.ts', offset: 3, limit: 65 } });
    const full = await call('symbol', { id: 'src/big.ts::Big#Class', detail: 'full' });
    expect(full.body.result.symbol.source).toBe(BIG.split('\n').slice(1, 67).join('\n'));
    expect(full.body.result.symbol).not.toHaveProperty('outline');
  });

  it('returns a short class whole, without an outline', async () => {
    const { body } = await call('symbol', { id: 'src/uni.ts::Café#Class' });
    expect(body.result.symbol.source).toContain("return '☕'.repeat(size);");
    expect(body.result.symbol).not.toHaveProperty('outline');
  });

  it('returns a short source whole, without source_truncated', async () => {
    const { body } = await call('symbol', { id: 'src/uni.ts::greet#Function' });
    expect(body.result.symbol).not.toHaveProperty('source_truncated');
    expect((body._meta.warnings_v2 ?? []).map((w: Json) => w.code)).not.toContain('source_truncated');
  });

  it('returns the exact source sliced by UTF-8 byte offsets from multibyte text', async () => {
    const { status, body } = await call('symbol', { id: 'src/uni.ts::greet#Function' });
    expect(status).toBe(200);
    const s = body.result.symbol;
    const expected = UNI.slice(UNI.indexOf('export function greet'), UNI.indexOf('}\n\n/** A café') + 1);
    expect(s.source).toBe(expected);
    expect(s.start_byte).toBe(utf8.encode(UNI.slice(0, UNI.indexOf('export function greet'))).length);
    expect(s.end_byte - s.start_byte).toBe(utf8.encode(expected).length);
    expect(bytesSlice(UNI, s.start_byte, s.end_byte)).toBe(s.source);
    expect(s).toMatchObject({ name: 'greet', kind: 'Function', start_line: 3, end_line: 5, language: 'typescript', is_exported: true });
    expect(body._meta).not.toHaveProperty('empty_reason');
  });

  it('slices a method inside a class whose name is not ASCII', async () => {
    const { body } = await call('symbol', { id: 'src/uni.ts::Café.brew#Method' });
    const s = body.result.symbol;
    expect(s.source).toBe("brew(size: number): string {\n    return '☕'.repeat(size);\n  }");
    expect(bytesSlice(UNI, s.start_byte, s.end_byte)).toBe(s.source);
    expect(s.parent).toBe('Café');
  });

  it('returns a skeleton with signature, docstring and an outline of nested symbols, without bodies', async () => {
    const { body } = await call('symbol', { id: 'src/uni.ts::Café#Class', detail: 'skeleton' });
    const s = body.result.symbol;
    expect(s).not.toHaveProperty('source');
    expect(s.signature).toBe('export class Café');
    expect(s.docstring).toContain('brews ☕');
    expect(s.outline).toEqual([
      { id: 'src/uni.ts::Café.brew#Method', kind: 'Method', signature: 'brew(size: number): string', start_line: 10, end_line: 12 },
      { id: 'src/uni.ts::Café.pay#Method', kind: 'Method', signature: 'pay(): void', start_line: 13, end_line: 13 },
    ]);
  });

  it('projects the result onto fields, always keeping id', async () => {
    const { body } = await call('symbol', { id: 'src/uni.ts::greet#Function', fields: ['signature', 'start_line'] });
    expect(body.result.symbol).toEqual({ id: 'src/uni.ts::greet#Function', signature: 'export function greet(name: string): string', start_line: 3 });
  });

  it('returns source only with detail full and outline only with skeleton', async () => {
    const skeleton = await call('symbol', { id: 'src/uni.ts::Café#Class', detail: 'skeleton', fields: ['source', 'outline'] });
    expect(Object.keys(skeleton.body.result.symbol).sort()).toEqual(['id', 'outline']);
    const full = await call('symbol', { id: 'src/uni.ts::Café#Class', fields: ['source', 'outline'] });
    expect(Object.keys(full.body.result.symbol).sort()).toEqual(['id', 'source']);
  });

  it('rejects an unknown field or detail with invalid_params naming the allowed values', async () => {
    const f = await call('symbol', { id: 'src/uni.ts::greet#Function', fields: ['body'] });
    expect(f.status).toBe(400);
    expect(f.body.error.code).toBe('invalid_params');
    const d = await call('symbol', { id: 'src/uni.ts::greet#Function', detail: 'short' });
    expect(d.body.error.details.issues[0].allowed).toEqual(['full', 'skeleton']);
  });

  it('answers a malformed id with target_not_resolved, the id shape, and a search step on the name part', async () => {
    const { status, body } = await call('symbol', { id: 'greet' });
    expect(status).toBe(200);
    expect(body.result.symbol).toBeNull();
    expect(body._meta.empty_reason).toBe('target_not_resolved');
    expect(body._meta.diagnosis).toContain('{file_path}::{qualified_name}#{Kind}');
    expect(body._meta.next_steps).toContainEqual(expect.objectContaining({ tool: 'search', args: { project: PROJECT, query: 'greet' } }));
    const replies = await runSteps(body);
    const search = replies.find((r) => r.step.tool === 'search');
    expect(JSON.stringify(search?.body.result)).toContain('src/uni.ts::greet#Function');
  });

  it('repairs an id without its kind into a symbol step that resolves', async () => {
    const { body } = await call('symbol', { id: 'src/uni.ts::Café.brew' });
    expect(body._meta.empty_reason).toBe('target_not_resolved');
    const step = (body._meta.next_steps as Json[]).find((s) => s.tool === 'symbol');
    expect(step?.args).toEqual({ project: PROJECT, id: 'src/uni.ts::Café.brew#Method' });
    const replies = await runSteps(body);
    expect(replies.find((r) => r.step.tool === 'symbol')?.body.result.symbol.id).toBe('src/uni.ts::Café.brew#Method');
    expect(replies.find((r) => r.step.tool === 'read')?.body.result.map.length).toBeGreaterThan(0);
  });

  it('answers a well-formed id that exists nowhere with target_not_resolved and a search step', async () => {
    const { body } = await call('symbol', { id: 'src/uni.ts::nothing#Function' });
    expect(body.result.symbol).toBeNull();
    expect(body._meta.empty_reason).toBe('target_not_resolved');
    expect(body._meta.diagnosis).toContain('no symbol src/uni.ts::nothing#Function');
    // No name near 'nothing' exists: a broader prefix search, never the same missing name again.
    expect(body._meta.next_steps).toContainEqual(expect.objectContaining({ tool: 'search', args: { project: PROJECT, query: 'noth*' } }));
    await runSteps(body);
  });

  it('resolves an id whose file moved, with a symbol_moved warning naming the new id', async () => {
    const project = 'sym-moved';
    const src = 'export function stay(): number {\n  return 1;\n}\n';
    await rest('index', { project, files: [{ path: 'old/place.ts', content: src }] });
    const before = await rest('symbol', { project, id: 'old/place.ts::stay#Function' });
    expect(before.body.result.symbol.id).toBe('old/place.ts::stay#Function');
    await rest('index', { project, replace: true, files: [{ path: 'new/home.ts', content: src }] });

    const { body } = await rest('symbol', { project, id: 'old/place.ts::stay#Function' });
    expect(body.result.symbol).toMatchObject({ id: 'new/home.ts::stay#Function', moved_from: 'old/place.ts::stay#Function', source: src.trimEnd() });
    expect(body._meta).not.toHaveProperty('empty_reason');
    const warning = (body._meta.warnings_v2 as Json[]).find((w) => w.code === 'symbol_moved');
    expect(warning?.data).toMatchObject({ requested: 'old/place.ts::stay#Function', id: 'new/home.ts::stay#Function' });
    expect(warning?.message).toContain('new/home.ts::stay#Function');
  });

  it('does not take the same name and kind in the id\'s own file for a move: a repeat gone from its file is not resolved', async () => {
    const project = 'sym-repeat-gone';
    const twice = 'export function dup(): number {\n  return 1;\n}\nexport function other(): number {\n  return 2;\n}\n';
    await rest('index', { project, files: [{ path: 'lib/x.ts', content: `${twice}function dup(): number {\n  return 3;\n}\n` }] });
    const before = await rest('symbol', { project, id: 'lib/x.ts::dup#Function~2' });
    expect(before.body.result.symbol.id).toBe('lib/x.ts::dup#Function~2');
    await rest('index', { project, replace: true, files: [{ path: 'lib/x.ts', content: twice }] });

    const { body } = await rest('symbol', { project, id: 'lib/x.ts::dup#Function~2' });
    expect(body.result.symbol).toBeNull();
    expect(body._meta.empty_reason).toBe('target_not_resolved');
    expect(((body._meta.warnings_v2 ?? []) as Json[]).map((w) => w.code)).not.toContain('symbol_moved');
    // The same name and kind in another file, with the id's file still there, is a move.
    await rest('index', { project, replace: true, files: [{ path: 'lib/x.ts', content: 'export const keep = 1;\n' }, { path: 'lib/y.ts', content: twice }] });
    const moved = await rest('symbol', { project, id: 'lib/x.ts::dup#Function' });
    expect(moved.body.result.symbol).toMatchObject({ id: 'lib/y.ts::dup#Function', moved_from: 'lib/x.ts::dup#Function' });
  });

  it('answers an unknown project with no_project_indexed', async () => {
    const { body } = await rest('symbol', { project: 'sym-nope', id: 'a.ts::f#Function' });
    expect(body.result.symbol).toBeNull();
    expect(body._meta.empty_reason).toBe('no_project_indexed');
  });

  it('uses the project pinned on the MCP URL and returns the symbol as structuredContent', async () => {
    const { body } = await callTool('symbol', { id: 'src/uni.ts::greet#Function', fields: ['start_line'] }, { query: `?project=${PROJECT}` });
    expect(body.result.structuredContent.symbol).toEqual({ id: 'src/uni.ts::greet#Function', start_line: 3 });
    expect(body.result._meta.baseline_method).toBe('full_file_read');
  });

  it('credits tokens_saved as the file size in tokens minus tokens_used, once per session', async () => {
    const size = utf8.encode(UNI).length;
    const first = await call('symbol', { id: 'src/uni.ts::greet#Function' });
    const m = first.body._meta;
    expect(m.baseline_method).toBe('full_file_read');
    expect(m.tokens_used).toBe(Math.ceil(JSON.stringify(first.body.result).length / 4));
    expect(m.tokens_saved).toBe(Math.max(0, Math.ceil(size / 4) - m.tokens_used));
    expect(m.tokens_saved).toBeGreaterThan(0);

    const session = { 'x-pincher-session': `sym-session-${Date.now()}` };
    const a = await call('symbol', { id: 'src/uni.ts::greet#Function' }, session);
    expect(a.body._meta.tokens_saved).toBe(Math.max(0, Math.ceil(size / 4) - a.body._meta.tokens_used));
    const b = await call('symbol', { id: 'src/uni.ts::Café#Class' }, session);
    expect(b.body._meta.tokens_saved).toBe(0);
  });
});
