import { z } from 'zod';
import type { ToolDef } from './define';

export type JsonSchema = Record<string, unknown>;

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

function typeOnly(node: unknown): JsonSchema {
  const n = (node ?? {}) as JsonSchema;
  if (n.type) return { type: n.type };
  const variants = (n.anyOf ?? n.oneOf) as JsonSchema[] | undefined;
  if (variants) return { type: [...new Set(variants.flatMap((v) => (v.type ? [v.type].flat() : [])))] as unknown as string };
  return {};
}

/** The input schema as advertised on MCP `tools/list`: complete, minus closed-object markers. */
export function advertisedInputSchema(tool: ToolDef): JsonSchema {
  return dropClosedObjects(inputJsonSchema(tool)) as JsonSchema;
}

/**
 * The output schema as advertised on MCP `tools/list`: the result's top-level
 * fields with their JSON types (and `notice`), which every result satisfies.
 * The complete schema is in `GET /v1/tools` and the OpenAPI document; keeping
 * the advertised one shallow keeps the core list inside its token budget.
 */
export function advertisedOutputSchema(tool: ToolDef): JsonSchema {
  const full = outputJsonSchema(tool, false);
  const props = (full.properties ?? {}) as Record<string, unknown>;
  const shallow: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(props)) shallow[k] = typeOnly(v);
  shallow.notice = { type: 'object' };
  return { type: 'object', properties: shallow, ...(full.required ? { required: full.required } : {}) };
}
