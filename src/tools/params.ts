import * as z from 'zod';
import { PincherError } from '../errors';
import type { MetaCollector } from '../envelope/collector';
import { didYouMean } from '../util/did-you-mean';
import { compileGlob, GlobError, type Glob } from '../util/glob';
import { exactParse } from './output-check';

interface ZodInternals {
  _zod: { def: { type: string; innerType?: z.ZodType; element?: z.ZodType } };
}

function def(schema: z.ZodType): ZodInternals['_zod']['def'] {
  return (schema as unknown as ZodInternals)._zod.def;
}

/** The schema under optional/default/nullable wrappers. */
function base(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (let d = def(s); d.innerType && ['optional', 'default', 'nullable', 'prefault'].includes(d.type); d = def(s)) {
    s = d.innerType;
  }
  return s;
}

const BASE10 = /^\s*[-+]?\d+(\.\d+)?\s*$/;

function coerce(value: unknown, schema: z.ZodType): unknown {
  const t = def(base(schema)).type;
  if (t === 'number' && typeof value === 'string' && BASE10.test(value)) return Number(value);
  if (t === 'array' && Array.isArray(value)) {
    const el = def(base(schema)).element;
    return el ? value.map((v) => coerce(v, el)) : value;
  }
  return value;
}

export interface NormalisedArgs {
  args: Record<string, unknown>;
  /** Inbound `_meta.session_id`, when the client put one in the arguments. */
  sessionId?: string;
}

/**
 * Applies the provider-visible parameter rules before validation: obvious
 * base-10 strings become numbers; `null` and `""` on optional parameters mean
 * absent; unknown parameters are dropped with an `unknown_arg` warning that
 * lists the accepted keys and a did-you-mean. Invalid values throw
 * `invalid_params` naming the parameter and, for enums, the allowed values.
 */
export function normaliseArgs(
  tool: string,
  schema: z.ZodObject,
  raw: unknown,
  meta: MetaCollector,
  /** Parse with zod too and fail where the exact parse disagrees (PINCHER_OUTPUT_CHECK=zod). */
  verify = false,
): NormalisedArgs & { parsed: Record<string, unknown> } {
  if (raw === undefined || raw === null) raw = {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw new PincherError('invalid_params', `arguments for ${tool} must be a JSON object`, {
      suggestion: `pass an object such as {} with the parameters of ${tool}`,
    });
  }
  const shape = schema.shape as Record<string, z.ZodType>;
  const accepted = Object.keys(shape);
  const args: Record<string, unknown> = {};
  let sessionId: string | undefined;
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (key === '_meta') {
      const sid = (value as { session_id?: unknown } | null)?.session_id;
      if (typeof sid === 'string' && sid.length > 0 && sid.length <= 200) sessionId = sid;
      continue;
    }
    const field = shape[key];
    if (!field) {
      const guess = didYouMean(key, accepted);
      meta.warn(
        'unknown_arg',
        `${tool} ignored unknown parameter '${key}'${guess ? ` (did you mean '${guess}'?)` : ''}; accepted: ${accepted.join(', ') || 'none'}`,
        { param: key, accepted, ...(guess ? { did_you_mean: guess } : {}) },
      );
      continue;
    }
    if ((value === null || value === '') && field.safeParse(undefined).success) continue;
    args[key] = coerce(value, field);
  }
  // zod's answer without its general parse when the exact parse can give it (src/tools/output-check.ts).
  const fast = exactParse(schema)(args);
  if (fast && !verify) return { args, sessionId, parsed: fast };
  const result = schema.safeParse(args);
  if (fast && !(result.success && sameParse(fast, result.data as Record<string, unknown>))) {
    throw new PincherError('internal_error', `the exact argument check of ${tool} disagrees with its schema`, {
      suggestion: 'retry; if it keeps failing, report the request_id to the operator',
    });
  }
  if (!result.success) throw invalidParams(tool, result.error, accepted);
  return { args, sessionId, parsed: result.data as Record<string, unknown> };
}

/** The same keys in the same order, and the same JSON. */
function sameParse(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return Object.keys(a).join('\0') === Object.keys(b).join('\0') && JSON.stringify(a) === JSON.stringify(b);
}

function invalidParams(tool: string, error: z.ZodError, accepted: string[]): PincherError {
  const issues = error.issues.map((issue) => {
    const path = issue.path.join('.') || '(arguments)';
    const allowed = 'values' in issue && Array.isArray(issue.values) ? issue.values.map(String) : undefined;
    const message = allowed ? `must be one of: ${allowed.join(', ')}` : issue.message;
    return { param: path, message, ...(allowed ? { allowed } : {}) };
  });
  const text = issues.map((i) => `${i.param}: ${i.message}`).join('; ');
  return new PincherError('invalid_params', `invalid arguments for ${tool}: ${text}`, {
    suggestion: `fix ${issues.map((i) => i.param).join(', ')} and call ${tool} again; accepted parameters: ${accepted.join(', ') || 'none'}`,
    details: { issues },
  });
}

/** An invalid_params error on one parameter, shaped like the seam's own. */
export function paramError(tool: string, param: string, message: string, suggestion: string, extra: Record<string, unknown> = {}): PincherError {
  return new PincherError('invalid_params', `invalid arguments for ${tool}: ${param}: ${message}`, {
    suggestion,
    details: { issues: [{ param, message }], ...extra },
  });
}

/** The description of every path-glob parameter (src/util/glob.ts): one syntax, one wording, each tool's length cap. */
export function globParamText(maxChars: number): string {
  return `Glob, ≤${maxChars} chars; no /: any file or folder name, else path from root; brackets, braces must balance`;
}

/** Compiles a path-glob argument (src/util/glob.ts); an unbalanced bracket or brace is invalid_params on that parameter. */
export function globArg(tool: string, param: string, source: string): Glob {
  try {
    return compileGlob(source);
  } catch (err) {
    if (err instanceof GlobError) {
      throw paramError(tool, param, err.message, 'balance every [ with ] and every { with }, or escape them with a backslash; e.g. src/**/*.{ts,tsx}');
    }
    throw err;
  }
}
