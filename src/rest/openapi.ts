import { TOOLS } from '../tools/registry';
import { inputJsonSchema, outputJsonSchema, type JsonSchema } from '../tools/describe';
import { VERSION } from '../version';

const typedEntry: JsonSchema = {
  type: 'object',
  required: ['code', 'severity', 'message'],
  properties: {
    code: { type: 'string' },
    severity: { type: 'string', enum: ['info', 'warning', 'error'] },
    message: { type: 'string' },
    data: { type: 'object' },
  },
};

/** The shared `_meta` component (docs/envelope.md explains each field). */
export const META_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'The _meta envelope. A missing field means not applicable, never 0/false/empty.',
  properties: {
    request_id: { type: 'string', description: 'ULID; echoed in the X-Request-ID header' },
    client_request_id: { type: 'string', description: "The client's X-Request-ID; echoed in the X-Client-Request-ID header" },
    tokens_used: { type: 'integer' },
    tokens_saved: { type: 'integer' },
    tokens_saved_pct: { type: 'number' },
    baseline_method: {
      type: 'string',
      enum: ['full_file_read', 'lines_read', 'grep_recursive', 'grep_then_read', 'walk_directory', 'read_all_changed', 'sum_of_parts', 'none'],
    },
    savings_scope: { type: 'string', enum: ['call', 'session'] },
    complexity_tier: { type: 'string', enum: ['lite', 'standard', 'heavy'] },
    latency_ms: { type: 'integer' },
    empty_reason: { type: 'string' },
    diagnosis: { type: 'string' },
    diagnosis_v2: { type: 'array', items: typedEntry },
    next_steps: {
      type: 'array',
      items: {
        type: 'object',
        required: ['tool', 'args', 'why'],
        properties: { tool: { type: 'string' }, args: { type: 'object' }, why: { type: 'string' } },
      },
    },
    warnings: { type: 'array', items: { type: 'string' } },
    warnings_v2: { type: 'array', items: typedEntry },
    capabilities: { type: 'array', items: { type: 'string' } },
    binary_drift_warning: {
      type: 'object',
      properties: { stored_version: { type: 'integer' }, running_version: { type: 'integer' }, remediation: { type: 'string' } },
    },
    schema_version: { type: 'integer' },
    schema_version_at_index: { type: 'integer' },
    project_id: { type: 'string' },
    project_name: { type: 'string' },
    session_id: { type: 'string' },
  },
};

const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['error', '_meta'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        suggestion: { type: 'string' },
        details: { type: 'object' },
      },
    },
    _meta: { $ref: '#/components/schemas/Meta' },
  },
};

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

const withMeta = (schema: JsonSchema): JsonSchema => ({
  allOf: [schema, { type: 'object', properties: { _meta: { $ref: '#/components/schemas/Meta' } } }],
});

/** Extra documented routes (upload API and the rest) register here. */
export const EXTRA_PATHS: Record<string, unknown> = {};

/** OpenAPI 3.1, generated from the tool registry on every request. */
export function openApiDocument(serverUrl: string): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const tool of TOOLS) {
    paths[`/v1/tools/${tool.name}`] = {
      post: {
        operationId: tool.name,
        summary: tool.title,
        description: tool.description,
        tags: [tool.toolset === 'core' ? 'core tools' : 'tools'],
        'x-pincher-tier': tool.tier,
        'x-pincher-idempotent': tool.idempotent,
        'x-pincher-read-only': tool.annotations.readOnlyHint,
        'x-pincher-baseline': tool.baseline,
        requestBody: { required: false, content: { 'application/json': { schema: inputJsonSchema(tool) } } },
        responses: {
          '200': {
            description: 'The result and its envelope',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['result', '_meta'],
                  properties: { result: outputJsonSchema(tool, false), _meta: { $ref: '#/components/schemas/Meta' } },
                },
              },
            },
          },
          '400': errorResponse('Invalid JSON body or arguments'),
          '401': errorResponse('Missing or refused bearer token'),
          '403': errorResponse('Insufficient scope, origin not allowed, or no key configured'),
          '413': errorResponse('Body over the cap'),
          '500': errorResponse('Internal error'),
        },
      },
    };
  }
  const probe = (summary: string, schema: JsonSchema) => ({
    get: {
      summary,
      security: [],
      responses: { '200': { description: 'OK', content: { 'application/json': { schema } } } },
    },
  });
  paths['/v1/health'] = probe('Liveness', {
    type: 'object',
    properties: { ok: { type: 'boolean' }, version: { type: 'string' }, schema_version: { type: 'integer' }, auth_required: { type: 'boolean' } },
  });
  paths['/v1/ready'] = probe('Readiness: D1 reachable and migrations current (503 with reasons otherwise)', withMeta({ type: 'object' }));
  paths['/v1/openapi.json'] = probe('This document', { type: 'object' });
  paths['/v1/tools'] = { get: { summary: 'Every tool with schemas, tier and toolset', responses: { '200': { description: 'OK' } } } };
  paths['/v1/capabilities'] = { get: { summary: 'Capability tags true on this deployment', responses: { '200': { description: 'OK' } } } };
  paths['/v1/projects'] = { get: { summary: 'Indexed projects', responses: { '200': { description: 'OK' } } } };
  paths['/v1/metrics'] = {
    get: { summary: 'Prometheus text metrics from the call log', responses: { '200': { description: 'OK', content: { 'text/plain': {} } } } },
  };
  paths['/mcp'] = {
    post: {
      summary: 'MCP streamable HTTP (stateless, JSON responses): 2025-03-26 … 2025-11-25 and 2026-07-28',
      responses: { '200': { description: 'JSON-RPC response' }, '405': { description: 'GET/DELETE: Allow: POST' } },
    },
  };
  Object.assign(paths, EXTRA_PATHS);
  return {
    openapi: '3.1.0',
    info: {
      title: 'pincher-edge',
      version: VERSION,
      description: 'Remote code intelligence for AI coding agents. Every response carries the _meta envelope.',
    },
    servers: [{ url: serverUrl }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'PINCHER_HTTP_KEY (read + write) or PINCHER_READ_KEY (read only)' } },
      schemas: { Meta: META_SCHEMA, Error: ERROR_SCHEMA },
    },
  };
}
