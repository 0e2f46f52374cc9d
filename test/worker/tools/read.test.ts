import { beforeAll, describe, expect, it } from 'vitest';
import { rest, type Json } from '../helpers';

const PROJECT = 'read-tool';

/** 1000 lines: 200 five-line functions. */
const BIG = Array.from({ length: 200 }, (_, i) => [`export function f${i}(x: number): number {`, `  const y = x + ${i};`, '  // ünïcode ✓', '  return y;', '}'].join('\n')).join('\n') + '\n';

const SMALL = [
  'function helper(): number {', // 1
  '  return 1;',
  '}',
  '',
  'export class Café {', // 5
  '  helper(): number {',
  '    return 2;',
  '  }',
  '  brew(): string {', // 9
  "    return '☕';",
  '  }',
  '}', // 12
  '',
].join('\n');

/** One function of 500 lines: over max_lines as a symbol. */
const LONG = ['export function huge(): number {', '  let n = 0;', ...Array.from({ length: 496 }, (_, i) => `  n += ${i};`), '  return n;', '}', ''].join('\n');

/** 80 classes of 30 methods: 2480 symbols, more than one map holds. */
const WIDE = Array.from({ length: 80 }, (_, c) => [`export class K${c} {`, ...Array.from({ length: 30 }, (_, m) => `  m${m}(): number { return ${m}; }`), '}'].join('\n')).join('\n') + '\n';

const NOTES = 'first line\n  second line\nthird\n';
const CRLF = 'export const a = 1;\r\nexport const b = 2;\r\n';

const utf8 = new TextEncoder();

/** FNV-1a 32 over the UTF-8 bytes of the whitespace-normalised line, xor-folded to 16 bits (the documented HASH). */
function hashOf(line: string): string {
  let h = 0x811c9dc5;
  for (const byte of utf8.encode(line.replace(/\s+/g, ' ').trim())) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  return (((h >>> 16) ^ h) & 0xffff).toString(16).padStart(4, '0');
}

function linesOf(text: string): string[] {
  return text.split('\n');
}

/** `text` of a read result as [line, hash, content] triples. */
function parseText(text: string): [number, string, string][] {
  return linesOf(text).map((l) => {
    const m = /^(\d+):([0-9a-f]{4})\|(.*)$/s.exec(l);
    if (!m) throw new Error(`not an anchored line: ${l}`);
    return [Number(m[1]), m[2], m[3]];
  });
}

async function read(args: Json, headers: Record<string, string> = {}) {
  return rest('read', { project: PROJECT, ...args }, headers);
}

async function runStep(step: Json) {
  const r = await rest(step.tool, step.args);
  expect(r.status, JSON.stringify(step)).toBe(200);
  return r.body;
}

beforeAll(async () => {
  const r = await rest('index', {
    project: PROJECT,
    files: [
      { path: 'src/big.ts', content: BIG },
      { path: 'src/small.ts', content: SMALL },
      { path: 'src/long.ts', content: LONG },
      { path: 'docs/notes.txt', content: NOTES },
      { path: 'src/crlf.ts', content: CRLF },
      { path: 'assets/logo.bin', content: 'PNG\u0000\u0001binary' },
      { path: 'src/empty.ts', content: '' },
      { path: 'src/wide.ts', content: WIDE },
      { path: 'src/mid.ts', content: Array.from({ length: 300 }, (_, i) => `export const c${i} = ${i};`).join('\n') },
    ],
  });
  expect(r.status).toBe(200);
});

describe('read: line windows and anchors', () => {
  it('anchors every line as LINE:HASH|content with HASH the documented FNV-1a of the normalised line', async () => {
    const { body } = await read({ path: 'src/small.ts' });
    expect(body.result).toMatchObject({ path: 'src/small.ts', language: 'typescript', total_lines: 12, start_line: 1, end_line: 12, truncated: false });
    const lines = parseText(body.result.text);
    const want = linesOf(SMALL).slice(0, 12);
    expect(lines.map(([n]) => n)).toEqual(want.map((_, i) => i + 1));
    expect(lines.map(([, , c]) => c)).toEqual(want);
    for (const [, hash, content] of lines) expect(hash).toBe(hashOf(content));
  });

  it('returns offset/limit windows, accepting obvious base-10 strings', async () => {
    const { body } = await read({ path: 'src/big.ts', offset: '11', limit: '5' });
    expect(body.result).toMatchObject({ start_line: 11, end_line: 15, truncated: false, next_offset: 16 });
    expect(parseText(body.result.text).map(([, , c]) => c)).toEqual(linesOf(BIG).slice(10, 15));
    expect(body.result).not.toHaveProperty('map');
  });

  it('returns a 200-line window after offset when limit is omitted, with a step to the next window', async () => {
    const { body } = await read({ path: 'src/big.ts', offset: 501 });
    expect(body.result).toMatchObject({ start_line: 501, end_line: 700, truncated: false, next_offset: 701 });
    expect(body._meta.next_steps[0].args).toEqual({ project: PROJECT, path: 'src/big.ts', offset: 701, limit: 200 });
  });

  it('cuts a whole-file read of a file between 200 and 400 lines at 200 lines, without the map', async () => {
    const { body } = await read({ path: 'src/mid.ts' });
    expect(body.result).toMatchObject({ total_lines: 300, start_line: 1, end_line: 200, truncated: true, next_offset: 201 });
    expect(body.result).not.toHaveProperty('map');
    expect(body._meta.next_steps[0].args).toEqual({ project: PROJECT, path: 'src/mid.ts', offset: 201, limit: 100 });
  });

  it('rejects offset or limit that is not a positive integer with invalid_params', async () => {
    for (const bad of [{ offset: 0 }, { offset: -3 }, { limit: 0 }, { offset: '1.5' }, { limit: 'ten' }]) {
      const { status, body } = await read({ path: 'src/big.ts', ...bad });
      expect(status, JSON.stringify(bad)).toBe(400);
      expect(body.error.code).toBe('invalid_params');
    }
  });

  it('strips CR from CRLF lines and keeps the anchors of the LF text', async () => {
    const { body } = await read({ path: 'src/crlf.ts' });
    expect(parseText(body.result.text)).toEqual([
      [1, hashOf('export const a = 1;'), 'export const a = 1;'],
      [2, hashOf('export const b = 2;'), 'export const b = 2;'],
    ]);
  });

  it('reads an empty file as zero lines', async () => {
    const { body } = await read({ path: 'src/empty.ts' });
    expect(body.result).toMatchObject({ total_lines: 0, text: '' });
  });

  it('answers an offset past the end with cap_dropped_all and a step back to the last lines', async () => {
    const { body } = await read({ path: 'src/small.ts', offset: 50 });
    expect(body.result).not.toHaveProperty('text');
    expect(body._meta.empty_reason).toBe('cap_dropped_all');
    const [step] = body._meta.next_steps;
    expect(step.args).toEqual({ project: PROJECT, path: 'src/small.ts', offset: 1, limit: 200 });
    expect((await runStep(step)).result.end_line).toBe(12);
  });
});

describe('read: the line budget', () => {
  it('turns a whole-file read of a long file into the map plus the first 200 lines and a next step', async () => {
    const { body } = await read({ path: 'src/big.ts' });
    expect(body.result).toMatchObject({ total_lines: 1000, start_line: 1, end_line: 200, truncated: true, next_offset: 201 });
    expect(body.result.map).toHaveLength(200);
    expect(body.result.map[199]).toEqual({ name: 'f199', kind: 'Function', start_line: 996, end_line: 1000 });
    expect((body._meta.warnings_v2 as Json[]).find((w) => w.code === 'budget_truncated')?.data).toMatchObject({ max_lines: 400, requested_lines: 1000 });
    const [step] = body._meta.next_steps;
    // The step asks for the rest of the request, up to max_lines, so it is not over budget again.
    expect(step).toMatchObject({ tool: 'read', args: { project: PROJECT, path: 'src/big.ts', offset: 201, limit: 400 } });
    const next = await runStep(step);
    expect(next.result).toMatchObject({ start_line: 201, end_line: 600, truncated: false, next_offset: 601 });
    expect(next.result).not.toHaveProperty('map');
  });

  it('answers a limit over max_lines with the map, the first window, and steps that walk the whole request', async () => {
    const { body } = await read({ path: 'src/big.ts', offset: 101, limit: 450 });
    expect(body.result).toMatchObject({ start_line: 101, end_line: 300, truncated: true, next_offset: 301 });
    expect(body.result.map.length).toBe(200);
    const [step] = body._meta.next_steps;
    expect(step.args).toEqual({ project: PROJECT, path: 'src/big.ts', offset: 301, limit: 250 });
    const rest = await runStep(step);
    expect(rest.result).toMatchObject({ start_line: 301, end_line: 550, truncated: false });
    const seen = [...parseText(body.result.text), ...parseText(rest.result.text)];
    expect(seen.map(([n]) => n)).toEqual(Array.from({ length: 450 }, (_, i) => 101 + i));
    expect(seen.map(([, , c]) => c)).toEqual(linesOf(BIG).slice(100, 550));
  });

  it('returns a limit of exactly max_lines whole, without the map', async () => {
    const { body } = await read({ path: 'src/big.ts', limit: 400 });
    expect(body.result).toMatchObject({ start_line: 1, end_line: 400, truncated: false });
    expect(body.result).not.toHaveProperty('map');
  });
});

describe('read: symbols and maps', () => {
  it('reads a symbol by Class.method', async () => {
    const { body } = await read({ path: 'src/small.ts', symbol: 'Café.brew' });
    expect(body.result.symbol).toEqual({ id: 'src/small.ts::Café.brew#Method', qualified_name: 'Café.brew', kind: 'Method', start_line: 9, end_line: 11 });
    expect(parseText(body.result.text).map(([n, , c]) => `${n}|${c}`)).toEqual(['9|  brew(): string {', "10|    return '☕';", '11|  }']);
  });

  it('disambiguates repeats with Name@line and warns when a bare name is ambiguous', async () => {
    const at = await read({ path: 'src/small.ts', symbol: 'helper@7' });
    expect(at.body.result.symbol.id).toBe('src/small.ts::Café.helper#Method');
    expect(at.body._meta).not.toHaveProperty('warnings_v2');

    const bare = await read({ path: 'src/small.ts', symbol: 'helper' });
    expect(bare.body.result.symbol.id).toBe('src/small.ts::helper#Function');
    const w = (bare.body._meta.warnings_v2 as Json[]).find((x) => x.code === 'ambiguous_symbol');
    expect(w?.data.candidates).toEqual(['helper@1', 'helper@6']);
    const step = (bare.body._meta.next_steps as Json[])[0];
    expect(step.args.symbol).toBe('helper@6');
    expect((await runStep(step)).result.symbol.id).toBe('src/small.ts::Café.helper#Method');
  });

  it('rejects symbol with offset as invalid_params', async () => {
    const { status, body } = await read({ path: 'src/small.ts', symbol: 'helper', offset: 2 });
    expect(status).toBe(400);
    expect(body.error.code).toBe('invalid_params');
    expect(body.error.message).toContain('symbol and offset');
  });

  it('caps a symbol with limit and continues it with an offset step', async () => {
    const { body } = await read({ path: 'src/small.ts', symbol: 'Café', limit: 2 });
    expect(body.result).toMatchObject({ start_line: 5, end_line: 6, truncated: true, next_offset: 7 });
    const [step] = body._meta.next_steps;
    expect(step.args).toEqual({ project: PROJECT, path: 'src/small.ts', offset: 7, limit: 6 });
    expect((await runStep(step)).result).toMatchObject({ start_line: 7, end_line: 12 });
  });

  it('combines symbol with map: the map of the symbol range', async () => {
    const { body } = await read({ path: 'src/small.ts', symbol: 'Café', map: true });
    expect(body.result.map).toEqual([
      { name: 'Café', kind: 'Class', start_line: 5, end_line: 12 },
      { name: 'Café.helper', kind: 'Method', start_line: 6, end_line: 8 },
      { name: 'Café.brew', kind: 'Method', start_line: 9, end_line: 11 },
    ]);
    expect(body.result.end_line).toBe(12);
  });

  it('returns a symbol longer than max_lines as the map plus its first 200 lines', async () => {
    const { body } = await read({ path: 'src/long.ts', symbol: 'huge' });
    expect(body.result).toMatchObject({ start_line: 1, end_line: 200, truncated: true, next_offset: 201 });
    expect(body.result.map).toEqual([{ name: 'huge', kind: 'Function', start_line: 1, end_line: 500 }]);
    expect(body._meta.next_steps[0].args).toEqual({ project: PROJECT, path: 'src/long.ts', offset: 201, limit: 300 });
    expect((await runStep(body._meta.next_steps[0])).result).toMatchObject({ start_line: 201, end_line: 500, truncated: false });
  });

  it('answers map alone with the outline only', async () => {
    const { body } = await read({ path: 'src/small.ts', map: true });
    expect(body.result).not.toHaveProperty('text');
    expect(body.result.map.map((m: Json) => m.name)).toEqual(['helper', 'Café', 'Café.helper', 'Café.brew']);
    expect(body._meta).not.toHaveProperty('empty_reason');
  });

  it('keeps a map within 400 entries by dropping deeper levels first, with a map_truncated warning', async () => {
    const { body } = await read({ path: 'src/wide.ts', map: true });
    expect(body.result.map).toHaveLength(80);
    expect(body.result.map[79]).toEqual({ name: 'K79', kind: 'Class', start_line: 2529, end_line: 2560 });
    const w = (body._meta.warnings_v2 as Json[]).find((x) => x.code === 'map_truncated');
    expect(w?.data).toEqual({ shown: 80, total: 2480, depth: 0, max_entries: 400 });
    const zoom = await read({ path: 'src/wide.ts', symbol: 'K79', map: true, limit: 1 });
    expect(zoom.body.result.map).toHaveLength(31);
    expect(zoom.body._meta).not.toHaveProperty('warnings_v2');
  });

  it('answers an unknown symbol with target_not_resolved, a did-you-mean and a map step', async () => {
    const { body } = await read({ path: 'src/small.ts', symbol: 'Cafe.brw' });
    expect(body._meta.empty_reason).toBe('target_not_resolved');
    expect(body._meta.diagnosis).toContain("did you mean 'Café.brew'");
    const tools = (body._meta.next_steps as Json[]).map((s) => s.args);
    expect(tools).toContainEqual({ project: PROJECT, path: 'src/small.ts', map: true });
    for (const step of body._meta.next_steps) await runStep(step);
  });

  it('answers Name@line that spans no such symbol with the lines where the name is', async () => {
    const { body } = await read({ path: 'src/small.ts', symbol: 'helper@4' });
    expect(body._meta.empty_reason).toBe('target_not_resolved');
    expect(body._meta.diagnosis_v2[0].data.candidates).toEqual(['helper@1', 'helper@6']);
  });
});

describe('read: anchors against the index', () => {
  it('reports matched and stale anchors, with a stale_anchor warning, after the indexed copy changed', async () => {
    const project = 'read-anchors';
    const v1 = 'export function a() {\n  return 1;\n}\nexport function b() {\n  return 2;\n}\n';
    await rest('index', { project, files: [{ path: 'x.ts', content: v1 }] });
    const first = await rest('read', { project, path: 'x.ts' });
    const anchors = linesOf(first.body.result.text).map((l) => l.slice(0, l.indexOf('|')));

    // Line 2 changes; line 4 is only re-indented (same anchor); a line is appended.
    const v2 = 'export function a() {\n  return 42;\n}\n    export function b() {\n  return 2;\n}\n// new\n';
    await rest('index', { project, files: [{ path: 'x.ts', content: v2 }] });
    const { body } = await rest('read', { project, path: 'x.ts', anchors: [...anchors, '99:abcd'] });
    expect(body.result).not.toHaveProperty('text');
    expect(body.result.anchors.matched).toEqual(anchors.filter((a) => !a.startsWith('2:')));
    expect(body.result.anchors.stale).toEqual([
      { anchor: anchors[1], current: `2:${hashOf('  return 42;')}`, moved_to: null },
      { anchor: '99:abcd', current: null, moved_to: null },
    ]);
    const w = (body._meta.warnings_v2 as Json[]).find((x) => x.code === 'stale_anchor');
    expect(w?.data.stale).toHaveLength(2);
  });

  it('checks anchors alongside a window without warning when all match', async () => {
    const first = await read({ path: 'src/small.ts', offset: 1, limit: 3 });
    const anchors = linesOf(first.body.result.text).map((l) => l.slice(0, l.indexOf('|')));
    const { body } = await read({ path: 'src/small.ts', offset: 1, limit: 3, anchors });
    expect(body.result.anchors).toEqual({ matched: anchors, stale: [] });
    expect(body.result.text).toBe(first.body.result.text);
    expect(body._meta).not.toHaveProperty('warnings_v2');
  });

  it('rejects an anchor that is not LINE:HASH', async () => {
    const { body } = await read({ path: 'src/small.ts', anchors: ['12-ab3f'] });
    expect(body.error.code).toBe('invalid_params');
  });
});

describe('read: files that cannot be read as asked', () => {
  it('answers an unknown path with target_not_resolved and executable steps to files of that name', async () => {
    const { status, body } = await read({ path: 'small.ts' });
    expect(status).toBe(200);
    expect(body._meta.empty_reason).toBe('target_not_resolved');
    expect(body._meta.diagnosis_v2[0].data.similar).toEqual(['src/small.ts']);
    const steps = body._meta.next_steps as Json[];
    expect(steps[0]).toMatchObject({ tool: 'read', args: { project: PROJECT, path: 'src/small.ts' } });
    expect(steps.map((s) => s.tool)).toEqual(expect.arrayContaining(['search', 'list']));
    for (const step of steps) await runStep(step);
  });

  it('answers an unknown path longer than 50 bytes with target_not_resolved, not an internal error', async () => {
    // D1 refuses LIKE patterns over 50 bytes; the same-name lookup must not depend on one.
    for (const path of ['a'.repeat(120), 'é'.repeat(60), `deep/${'💥'.repeat(50)}.ts`]) {
      const { status, body } = await read({ path });
      expect(status, path).toBe(200);
      expect(body._meta.empty_reason).toBe('target_not_resolved');
    }
  });

  it('refuses absolute paths and .. segments with invalid_path', async () => {
    for (const path of ['/etc/passwd', '../secrets.ts', 'src/../../x.ts', 'C:\\x.ts']) {
      const { status, body } = await read({ path });
      expect(status, path).toBe(422);
      expect(body.error.code).toBe('invalid_path');
    }
  });

  it('accepts a leading ./', async () => {
    const { body } = await read({ path: './src/small.ts', limit: 1 });
    expect(body.result.path).toBe('src/small.ts');
  });

  it('answers a binary file with target_not_resolved naming the skip reason', async () => {
    const { body } = await read({ path: 'assets/logo.bin' });
    expect(body.result).not.toHaveProperty('text');
    expect(body._meta.empty_reason).toBe('target_not_resolved');
    expect(body._meta.diagnosis).toContain('binary');
    expect(body._meta.next_steps[0]).toMatchObject({ tool: 'health', args: { project: PROJECT } });
    const health = await runStep(body._meta.next_steps[0]);
    expect(JSON.stringify(health.result)).toContain('assets/logo.bin');
  });

  it('reads a file of a language without an extractor, but its map is empty with unsupported_language', async () => {
    const text = await read({ path: 'docs/notes.txt' });
    expect(parseText(text.body.result.text).map(([, , c]) => c)).toEqual(['first line', '  second line', 'third']);
    expect(text.body.result.language).toBe('none');

    const { body } = await read({ path: 'docs/notes.txt', map: true });
    expect(body.result.map).toEqual([]);
    expect(body._meta.empty_reason).toBe('unsupported_language');
    expect((await runStep(body._meta.next_steps[0])).result.total_lines).toBe(3);
  });
});

describe('read: savings', () => {
  it('states a line window as lines_read: exactly the lines a native read of them returns', async () => {
    const { body } = await read({ path: 'src/big.ts', offset: 1, limit: 10 });
    const chars = BIG.split('\n').slice(0, 10).reduce((n, l) => n + l.length + 1, 0);
    expect(body._meta.baseline_method).toBe('lines_read');
    expect(body._meta.tokens_saved).toBe(Math.max(0, Math.ceil(chars / 4) - body._meta.tokens_used));
  });
});
