import { beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { exactCheck, exactParse } from '../../../src/tools/output-check';
import { TOOLS, findTool } from '../../../src/tools/registry';
import { rest, type Json } from '../helpers';
import { push } from '../upload/support';

/** What the seam relies on: a value the exact check passes is one zod accepts and hands back as the same JSON. */
function agrees(schema: z.ZodType, value: unknown): boolean {
  const exact = exactCheck(schema)(value);
  const parsed = schema.safeParse(value);
  if (exact) {
    expect(parsed.success, JSON.stringify(value)).toBe(true);
    expect(JSON.stringify(parsed.data), JSON.stringify(value)).toBe(JSON.stringify(value));
  }
  return exact;
}

describe('exactCheck: zod’s answer without its copy', () => {
  const item = z.object({ a: z.string(), b: z.number().int().optional(), c: z.array(z.object({ d: z.boolean() })).optional(), e: z.string().nullable().optional() });

  it('passes values zod accepts unchanged, in shape order, with absent optional keys and undefined ones', () => {
    for (const v of [{ a: 'x' }, { a: 'x', b: 2 }, { a: 'x', b: 2, c: [{ d: true }], e: null }, { a: 'x', e: 'y' }, { a: 'x', b: undefined, e: 'y' }, { b: undefined, a: 'x' }]) {
      expect(agrees(item, v), JSON.stringify(v)).toBe(true);
    }
  });

  it('hands to zod what zod rejects, reorders, strips or fills in', () => {
    const cases: [z.ZodType, unknown][] = [
      [item, { b: 2, a: 'x' }], // zod writes its copy in shape order
      [item, { a: 'x', extra: 1 }], // stripped
      [item, { a: 'x', c: [{ d: true, z: 0 }] }], // stripped deep inside
      [item, { a: 1 }],
      [item, { b: 2 }],
      [item, { a: 'x', b: 1.5 }],
      [item, { a: 'x', b: Number.NaN }],
      [item, { a: 'x', b: Infinity }],
      [item, null],
      [item, ['x']],
      [z.object({ a: z.string().default('d') }), {}], // a default filled in
      [z.object({ a: z.string().max(2) }), { a: 'long' }],
      [z.object({ a: z.string().regex(/^\d+$/) }), { a: 'no' }],
      [z.object({ a: z.string().trim() }), { a: ' x ' }], // an overwrite
      [z.object({ a: z.string().transform((s) => s.length) }), { a: 'x' }],
      [z.strictObject({ a: z.string() }), { a: 'x', b: undefined }],
      [z.looseObject({ a: z.string() }), { b: 1, a: 'x' }],
      [z.union([z.object({ a: z.string() }), z.object({ a: z.string(), b: z.number() })]), { a: 'x', b: 1 }], // the first option wins and strips b
      [z.xor([z.string(), z.string().min(1)]), 'x'],
      [z.record(z.string(), z.number()), { a: 'x' }],
      [z.array(z.string()).max(1), ['a', 'b']],
    ];
    for (const [schema, v] of cases) expect(agrees(schema, v), JSON.stringify(v)).toBe(false);
  });

  it('takes unions, discriminated unions, records, enums and literals on the fast path when zod would return the value itself', () => {
    const u = z.union([z.object({ a: z.string(), b: z.number() }), z.object({ a: z.string() })]);
    expect(agrees(u, { a: 'x', b: 1 })).toBe(true);
    expect(agrees(u, { a: 'x' })).toBe(true); // the first option rejects it, the second returns it as is
    const d = z.discriminatedUnion('kind', [z.object({ kind: z.literal('a'), n: z.number() }), z.object({ kind: z.literal('b'), s: z.string() })]);
    expect(agrees(d, { kind: 'b', s: 'x' })).toBe(true);
    expect(agrees(d, { kind: 'c', s: 'x' })).toBe(false);
    expect(agrees(z.record(z.string(), z.array(z.number())), { b: [1], a: [] })).toBe(true);
    expect(agrees(z.enum(['x', 'y']), 'y')).toBe(true);
    expect(agrees(z.enum(['x', 'y']), 'z')).toBe(false);
    expect(agrees(z.literal(3), 3)).toBe(true);
    expect(agrees(z.unknown(), { any: [1] })).toBe(true);
  });
});

describe('exactParse: zod’s parse of a tool’s arguments without its general parse', () => {
  /** The exact parse, checked against zod: the same keys in the same order and the same values, or null. */
  function parsed(schema: z.ZodType, args: Record<string, unknown>): Record<string, unknown> | null {
    const fast = exactParse(schema)(args);
    if (fast) {
      const zod = schema.safeParse(args);
      expect(zod.success, JSON.stringify(args)).toBe(true);
      expect(Object.keys(fast), JSON.stringify(args)).toEqual(Object.keys(zod.data as object));
      expect(fast, JSON.stringify(args)).toStrictEqual(zod.data);
    }
    return fast;
  }

  it('fills defaults in shape order and leaves absent optional keys out', () => {
    const schema = z.object({ path: z.string().min(1), offset: z.number().int().min(1).optional(), map: z.boolean().default(false), ids: z.array(z.string()).default([]) });
    expect(parsed(schema, { path: 'a' })).toEqual({ path: 'a', map: false, ids: [] });
    expect(Object.keys(parsed(schema, { ids: ['x'], path: 'a', offset: 2 })!)).toEqual(['path', 'offset', 'map', 'ids']);
    // A default is a fresh copy on every call, as zod's.
    expect(parsed(schema, { path: 'a' })!.ids).not.toBe(parsed(schema, { path: 'a' })!.ids);
  });

  it('leaves to zod what it rejects, coerces or drops, and objects refined as a whole', () => {
    const schema = z.object({ path: z.string().min(1), n: z.number().int().optional(), t: z.string().trim().optional() });
    for (const args of [{}, { path: '' }, { path: 'a', n: 1.5 }, { path: 'a', t: ' x ' }, { path: 'a', extra: 1 }, { path: 'a', n: '2' }]) expect(parsed(schema, args), JSON.stringify(args)).toBeNull();
    expect(parsed(schema.refine((a) => a.path !== 'x'), { path: 'a' })).toBeNull();
    expect(parsed(z.object({ a: z.string().prefault('p') }), {})).toBeNull();
  });

  it('agrees with zod on every tool’s arguments: none, and each one of its optional parameters absent', () => {
    let fast = 0;
    for (const tool of TOOLS) {
      if (parsed(tool.input, {}) !== null) fast++;
    }
    // Tools whose every parameter is optional or defaulted take the fast path with no arguments.
    expect(fast).toBeGreaterThan(5);
  });
});

describe('the lite tools’ answers take the fast path', () => {
  const PROJECT = 'output-check';
  beforeAll(async () => {
    const files = { 'src/a.ts': 'export class A {\n  m(): number {\n    return 1;\n  }\n}\nexport function f(): number {\n  return 2;\n}\n' };
    expect((await push(PROJECT, files)).commit?.status).toBe(200);
  });

  it('symbol, symbols, read (window, whole, map, symbol) and find', async () => {
    const calls: [string, Json][] = [
      ['symbol', { id: 'src/a.ts::f#Function' }],
      ['symbols', { ids: ['src/a.ts::f#Function', 'src/a.ts::A.m#Method'] }],
      ['read', { path: 'src/a.ts', offset: 2, limit: 2 }],
      ['read', { path: 'src/a.ts' }],
      ['read', { path: 'src/a.ts', map: true }],
      ['read', { path: 'src/a.ts', symbol: 'A.m' }],
      ['find', { pattern: '**/*.ts' }],
    ];
    for (const [tool, args] of calls) {
      const r = await rest(tool, { project: PROJECT, ...args });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(agrees(findTool(tool)!.output, r.body.result), `${tool} ${JSON.stringify(args)}`).toBe(true);
    }
  });
});
