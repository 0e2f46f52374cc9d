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
