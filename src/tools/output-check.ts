import type * as z from 'zod';

/**
 * The seam's output check without zod's general parse on every call. zod
 * cannot compile its checks where `new Function` is refused (workerd), and
 * its interpreter builds a fresh copy of every object it checks; a tool's
 * output is checked once per call. `exactCheck(schema)` walks the schema
 * once and returns a function that answers, without copying anything,
 * whether zod would accept a value AND hand back the same JSON (same keys,
 * same order, nothing stripped, no default filled in). When it answers true
 * the value is the parse result; when false the seam parses with zod as
 * before (which then reports the issues, or returns its copy).
 *
 * Objects, arrays, optional, nullable, default, unions and string-keyed
 * records are walked here; every other node (strings, numbers, literals,
 * enums, pipes, lazies…) runs through zod's own `run` for that node alone,
 * and passes only when zod's value is the input itself (or the same JSON).
 * Anything this walker does not model exactly is handed to zod whole, so a
 * true answer is never wrong; PINCHER_OUTPUT_CHECK=zod (the test suite) runs
 * zod besides on every call and fails a call where the two disagree.
 * `exactParse` does the same for a tool's arguments (src/tools/params.ts),
 * filling defaults in as zod does.
 */

/** True: zod accepts the value and its output serialises as the value does. */
export type ExactCheck = (value: unknown) => boolean;

interface Internals {
  def: {
    type: string;
    defaultValue?: unknown;
    checks?: unknown[];
    shape?: Record<string, z.ZodType>;
    catchall?: z.ZodType;
    innerType?: z.ZodType;
    element?: z.ZodType;
    options?: z.ZodType[];
    discriminator?: string;
    inclusive?: boolean;
    keyType?: z.ZodType;
    valueType?: z.ZodType;
  };
  optin?: 'optional' | 'defaulted';
  optout?: 'optional';
  traits: Set<string>;
  run(payload: { value: unknown; issues: unknown[] }, ctx: { async: false }): { value: unknown; issues: unknown[] } | Promise<unknown>;
}

function zod(schema: z.ZodType): Internals {
  return (schema as unknown as { _zod: Internals })._zod;
}

const CTX = { async: false } as const;

/** Whether zod's parse of `value` with `schema` succeeds and gives back `value`'s JSON. */
function byZod(schema: z.ZodType): ExactCheck {
  const run = zod(schema).run.bind(zod(schema));
  return (value) => {
    const out = run({ value, issues: [] }, CTX);
    if (out instanceof Promise || out.issues.length) return false;
    return out.value === value || JSON.stringify(out.value) === JSON.stringify(value);
  };
}

/** Checks a node carries (or is): refinements, lengths, formats. The walker leaves nodes with any to zod. */
function hasChecks(schema: z.ZodType): boolean {
  const z = zod(schema);
  return (z.def.checks?.length ?? 0) > 0 || z.traits.has('$ZodCheck');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `build(schema)`, made once per schema and kept in `cache`. */
function once<T>(cache: WeakMap<z.ZodType, T>, schema: z.ZodType, build: (schema: z.ZodType) => T): T {
  let made = cache.get(schema);
  if (made === undefined) {
    made = build(schema);
    cache.set(schema, made);
  }
  return made;
}

const checkCache = new WeakMap<z.ZodType, ExactCheck>();

/** The exact check of `schema`, built once per schema. Recursive schemas reach themselves through a lazy node, which goes to zod: no cycle here. */
export function exactCheck(schema: z.ZodType): ExactCheck {
  return once(checkCache, schema, build);
}

/** zod's own test for a string, number or boolean node without checks or coercion (src: its `parse`), inline. */
function primitive(schema: z.ZodType): ExactCheck | null {
  const { def } = zod(schema) as Internals & { def: { coerce?: boolean } };
  if (def.coerce || hasChecks(schema)) return null;
  if (def.type === 'string') return (v) => typeof v === 'string';
  if (def.type === 'number') return (v) => typeof v === 'number' && Number.isFinite(v);
  if (def.type === 'boolean') return (v) => typeof v === 'boolean';
  return null;
}

function build(schema: z.ZodType): ExactCheck {
  const { def } = zod(schema);
  const plain = primitive(schema);
  if (plain) return plain;
  const structural = ['object', 'array', 'optional', 'nullable', 'default', 'union', 'record'].includes(def.type);
  if (!structural || hasChecks(schema)) return byZod(schema);
  switch (def.type) {
    case 'optional': {
      const inner = exactCheck(def.innerType!);
      return (v) => v === undefined || inner(v);
    }
    case 'nullable': {
      const inner = exactCheck(def.innerType!);
      return (v) => v === null || inner(v);
    }
    case 'default': {
      // zod fills the default in for undefined: not the input's JSON when it sits in an object.
      const inner = exactCheck(def.innerType!);
      return (v) => v !== undefined && inner(v);
    }
    case 'array': {
      const element = exactCheck(def.element!);
      return (v) => {
        if (!Array.isArray(v)) return false;
        for (let i = 0; i < v.length; i++) if (!element(v[i])) return false;
        return true;
      };
    }
    case 'union':
      return unionCheck(schema);
    case 'record':
      return recordCheck(schema);
    default:
      return objectCheck(schema);
  }
}

/**
 * An object without catchall: every present key is in the shape, in shape
 * order (zod writes its copy in shape order), and passes; every absent key
 * may be absent without zod writing anything for it.
 */
function objectCheck(schema: z.ZodType): ExactCheck {
  const { def } = zod(schema);
  if (def.catchall) return byZod(schema);
  const shape = def.shape!;
  const keys = Object.keys(shape);
  const index = new Map(keys.map((k, i) => [k, i]));
  const checks = keys.map((k) => exactCheck(shape[k]));
  // Keys zod leaves out of its copy when absent: optional in and out. Others must be present (or zod adds or rejects them).
  const omittable = keys.map((k) => zod(shape[k]).optin === 'optional' && zod(shape[k]).optout === 'optional');
  return (v) => {
    if (!isObject(v)) return false;
    let last = -1;
    let present = 0;
    for (const key in v) {
      if (!Object.prototype.hasOwnProperty.call(v, key)) continue;
      const i = index.get(key);
      const value = v[key];
      if (i === undefined || key === '__proto__') {
        // zod strips an unknown key; JSON drops an undefined one too: the same text.
        if (value === undefined) continue;
        return false;
      }
      if (!checks[i](value)) return false;
      present++;
      if (value === undefined) continue;
      if (i < last) return false;
      last = i;
    }
    if (present === keys.length) return true;
    for (let i = 0; i < keys.length; i++) if (!omittable[i] && !Object.prototype.hasOwnProperty.call(v, keys[i])) return false;
    return true;
  };
}

/**
 * zod's union returns the first option that accepts the value (a
 * discriminated union the option its discriminator names, the only one that
 * can accept it): exact when that option is, and every option before it
 * rejects the value.
 */
function unionCheck(schema: z.ZodType): ExactCheck {
  const { def } = zod(schema);
  // An exclusive union (z.xor) needs exactly one match: left to zod.
  if (def.inclusive === false && def.discriminator === undefined) return byZod(schema);
  const options = def.options!;
  const exact = options.map((o) => exactCheck(o));
  const accepts = options.map((o) => {
    const run = zod(o).run.bind(zod(o));
    return (value: unknown) => {
      const out = run({ value, issues: [] }, CTX);
      return !(out instanceof Promise) && out.issues.length === 0;
    };
  });
  return (v) => {
    for (let i = 0; i < options.length; i++) {
      if (exact[i](v)) {
        for (let j = 0; j < i; j++) if (accepts[j](v)) return false;
        return true;
      }
    }
    return false;
  };
}

/** A record keyed by plain strings: zod copies its keys in the input's order. */
function recordCheck(schema: z.ZodType): ExactCheck {
  const { def } = zod(schema);
  const key = zod(def.keyType!);
  if (key.def.type !== 'string' || hasChecks(def.keyType!)) return byZod(schema);
  const value = exactCheck(def.valueType!);
  return (v) => {
    if (!isObject(v)) return false;
    for (const k of Object.keys(v)) if (k === '__proto__' || !value(v[k])) return false;
    return true;
  };
}

/**
 * zod's parse of an object schema's arguments (a tool's input), without its
 * general parse: every present key passes its exact check, an absent one
 * is left out or gets its default, in shape order, as zod writes its copy.
 * Null when anything needs zod (a value it would change or reject, a
 * refinement of the whole object, a catchall): the caller parses with zod.
 */
export type ExactParse = (args: Record<string, unknown>) => Record<string, unknown> | null;

const parseCache = new WeakMap<z.ZodType, ExactParse>();

export function exactParse(schema: z.ZodType): ExactParse {
  return once(parseCache, schema, buildParse);
}

function buildParse(schema: z.ZodType): ExactParse {
  const { def } = zod(schema);
  if (def.type !== 'object' || def.catchall || hasChecks(schema)) return () => null;
  const shape = def.shape!;
  const fields = Object.keys(shape).map((key) => {
    const field = zod(shape[key]);
    const absent: 'omit' | 'default' | 'zod' =
      field.optin === 'optional' && field.optout === 'optional' ? 'omit' : field.def.type === 'default' ? 'default' : 'zod';
    return { key, check: exactCheck(shape[key]), absent, field };
  });
  return (args) => {
    const out: Record<string, unknown> = {};
    let seen = 0;
    for (const f of fields) {
      if (Object.prototype.hasOwnProperty.call(args, f.key)) {
        seen++;
        const value = args[f.key];
        if (!f.check(value)) return null;
        out[f.key] = value;
      } else if (f.absent === 'default') {
        // zod's default node hands back its default (a fresh copy) for an absent key, without checking it.
        out[f.key] = f.field.def.defaultValue;
      } else if (f.absent === 'zod') {
        return null;
      }
    }
    // A key outside the shape would be dropped by zod: left to it.
    return seen === Object.keys(args).length ? out : null;
  };
}
