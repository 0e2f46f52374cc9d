import * as z from 'zod';
import type { ToolDef } from './define';

export type JsonSchema = Record<string, unknown>;

/**
 * The `project` parameter's description, shared by every project-scoped tool.
 * The advertised schemas state it once, in the description of `list`, instead
 * of on every tool (PROJECT_STATED_ONCE).
 */
export const PROJECT_PARAM = 'Default: URL ?project=';
/**
 * What `list`'s description says for every numeric parameter of every tool
 * (runtime coercion, src/tools/params.ts): stated once instead of per parameter.
 */
export const NUMBERS_STATED_ONCE = 'numbers may be base-10 strings';
/** The server-wide rules `list` states once, for every tool. */
export const STATED_ONCE = `Every tool: ${NUMBERS_STATED_ONCE}.`;

/** The model-visible notice object added to structuredContent when there is something to act on. */
export const NOTICE_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'Present when the result needs attention: why it is empty, what to call next, warnings.',
  properties: {
    empty_reason: { type: 'string' },
    diagnosis: { type: 'string' },
    next_steps: {
      type: 'array',
      items: {
        type: 'object',
        properties: { tool: { type: 'string' }, args: { type: 'object' }, why: { type: 'string' } },
        required: ['tool', 'args', 'why'],
      },
    },
    warnings: { type: 'array', items: { type: 'string' } },
  },
};

function strip(schema: JsonSchema): JsonSchema {
  const { $schema: _drop, ...rest } = schema;
  return rest;
}

/**
 * A tool's annotations as advertised on MCP `tools/list`: the title and the
 * hints that say something. `destructiveHint` and `idempotentHint` only mean
 * something when `readOnlyHint` is false (MCP tool annotations), so read-only
 * tools leave them out. `openWorldHint` (false for every tool: the index is a
 * closed world) is left to GET /v1/tools and the OpenAPI document: the core
 * list spends its token budget on the parameters a model must fill.
 */
export function advertisedAnnotations(tool: ToolDef): Record<string, unknown> {
  const { readOnlyHint, destructiveHint, idempotentHint } = tool.annotations;
  return {
    title: tool.title,
    readOnlyHint,
    ...(readOnlyHint ? {} : { destructiveHint, idempotentHint }),
  };
}

/** JSON Schema of a tool's arguments, as providers see it. */
export function inputJsonSchema(tool: ToolDef): JsonSchema {
  return strip(z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as JsonSchema);
}

/** JSON Schema of a tool's result; `withNotice` adds the optional `notice` property (MCP structuredContent). */
export function outputJsonSchema(tool: ToolDef, withNotice: boolean): JsonSchema {
  const schema = strip(z.toJSONSchema(tool.output, { io: 'output', unrepresentable: 'any' }) as JsonSchema);
  if (!withNotice) return schema;
  const props = (schema.properties ?? {}) as Record<string, unknown>;
  return { ...schema, properties: { ...props, notice: NOTICE_SCHEMA } };
}

/** Drops `additionalProperties: false` and safe-integer bounds everywhere: they cost tokens and tell a provider nothing. */
function dropClosedObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(dropClosedObjects);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'additionalProperties' && v === false) continue;
    // z.number().int() bounds with the safe-integer limits: no information for a provider.
    if ((k === 'maximum' && v === Number.MAX_SAFE_INTEGER) || (k === 'minimum' && v === Number.MIN_SAFE_INTEGER)) continue;
    out[k] = dropClosedObjects(v);
  }
  return out;
}

const BOUNDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems'];

/** Whether `text` holds `n` as a whole number (so 500 is not found in 5000). */
function mentions(text: string, n: number): boolean {
  return new RegExp(`(^|[^0-9.])${String(n).replace('.', '\\.')}($|[^0-9])`).test(text);
}

/**
 * Whether a parameter's description already states what schema keyword `key`
 * says: a bound by its number (or 1 as positive, non-empty, at least one; 0 as
 * non-negative), a default as "default X" or "X (default)", `\S` as non-empty.
 */
export function statedInDescription(key: string, value: unknown, description: string): boolean {
  const text = description.toLowerCase();
  if (BOUNDS.includes(key) && typeof value === 'number') {
    if (mentions(text, value)) return true;
    if (value === 1 && key !== 'maximum' && key !== 'maxLength' && key !== 'maxItems') return /positive|non-empty|at least one/.test(text);
    if (value === 0 && key === 'minimum') return text.includes('non-negative');
    return false;
  }
  if (key === 'default' && ['string', 'number', 'boolean'].includes(typeof value)) {
    const v = value === '' ? "''" : String(value).toLowerCase();
    return text.includes(`default ${v}`) || text.includes(`default: ${v}`) || text.includes(`${v} (default)`);
  }
  if (key === 'pattern' && value === '\\S') return text.includes('non-empty');
  return false;
}

/** Drops from each parameter the keywords its description states in words (see statedInDescription). */
function dropStated(schema: JsonSchema): JsonSchema {
  const props = schema.properties as Record<string, JsonSchema> | undefined;
  if (!props) return schema;
  const out: Record<string, JsonSchema> = {};
  for (const [name, prop] of Object.entries(props)) {
    const description = typeof prop.description === 'string' ? prop.description : '';
    out[name] = Object.fromEntries(
      Object.entries(prop).filter(([k, v]) => !statedInDescription(k, v, description)),
    );
  }
  return { ...schema, properties: out };
}

/**
 * The input schema as advertised on MCP `tools/list` and `GET /v1/tools`:
 * minus closed-object markers, minus the bounds, defaults and patterns a
 * parameter's description already states in words (descriptions carry every
 * runtime rule; the rule inventory holds them there), and minus the shared
 * `project` description, which `list` states once. The complete schema is in
 * the OpenAPI document.
 */
export function advertisedInputSchema(tool: ToolDef): JsonSchema {
  return dropStated(dropClosedObjects(inputJsonSchema(tool)) as JsonSchema);
}

/**
 * The output schema as advertised on MCP `tools/list`: an open object with the
 * result's required top-level fields, which every result satisfies (and which
 * clients validate structuredContent against). The complete output schema is in
 * `GET /v1/tools` and the OpenAPI document; leaving it out of `tools/list` keeps
 * the core list inside its token budget (test/worker/contract/tools-list-budget.test.ts).
 */
export function advertisedOutputSchema(tool: ToolDef): JsonSchema {
  const { required } = outputJsonSchema(tool, false);
  return { type: 'object', ...(required ? { required } : {}) };
}
