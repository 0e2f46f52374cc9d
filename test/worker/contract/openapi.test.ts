import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { META_KEYS } from '../../../src/envelope/types';
import { defineTool, type ToolDef } from '../../../src/tools/define';
import { inputJsonSchema, outputJsonSchema } from '../../../src/tools/describe';
import { TOOLS } from '../../../src/tools/registry';
import { VERSION } from '../../../src/version';
import { app } from '../../../src/app';
import { ManifestEntrySchema } from '../../../src/rest/upload-schemas';
import { checkManifest } from '../../../src/upload/service';
import { checkSchema, deleteProjects, indexCodeProject, insertProjects, resolveRef, restCall, send, BASE, type Json } from './support';

const PROJECT = 'openapi-proj';
const CODE = 'openapi-code';
let doc: Json;

beforeAll(async () => {
  await insertProjects([{ name: PROJECT }, { name: 'openapi-other' }]);
  await indexCodeProject(CODE);
  doc = (await send('/v1/openapi.json')).body;
});
afterAll(async () => {
  await deleteProjects([PROJECT, 'openapi-other', CODE]);
});

/** Checks a value against a schema of this document (its $refs resolve against it). */
function check(schema: Json, value: unknown): string[] {
  return checkSchema(schema, value, doc);
}

/** Resolves a local `#/components/...` reference. */
function deref(ref: string): Json {
  const node = resolveRef(doc, ref);
  expect(node, `unresolved $ref ${ref}`).toBeDefined();
  return node as Json;
}

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 with info, servers, bearer security and paths', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'pincher-edge', version: VERSION });
    expect(doc.servers[0].url).toBe(BASE);
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(Object.keys(doc.paths).length).toBeGreaterThan(TOOLS.length);
  });

  it('is public: served without a key even when keys are configured', async () => {
    const reply = await send('/v1/openapi.json', {}, { PINCHER_HTTP_KEY: 'openapi-key', PINCHER_ALLOW_OPEN: undefined });
    expect(reply.status).toBe(200);
    expect(reply.body.openapi).toBe('3.1.0');
  });

  it('documents a POST path for every registered tool and no tool path that is not registered', () => {
    const toolPaths = Object.keys(doc.paths).filter((p) => p.startsWith('/v1/tools/')).sort();
    expect(toolPaths).toEqual(TOOLS.map((t) => `/v1/tools/${t.name}`).sort());
  });

  for (const tool of TOOLS) {
    it(`documents ${tool.name}: input and output schemas, tier, idempotency and the shared Meta`, () => {
      const op = doc.paths[`/v1/tools/${tool.name}`].post;
      expect(op.operationId).toBe(tool.name);
      expect(op.description).toBe(tool.description);
      expect(op['x-pincher-tier']).toBe(tool.tier);
      expect(op['x-pincher-idempotent']).toBe(tool.idempotent);
      expect(op['x-pincher-read-only']).toBe(tool.annotations.readOnlyHint);
      expect(op.requestBody.content['application/json'].schema).toEqual(inputJsonSchema(tool));
      const ok = op.responses['200'].content['application/json'].schema;
      expect(ok.required).toEqual(['result', '_meta']);
      expect(ok.properties.result).toEqual(outputJsonSchema(tool, false));
      expect(ok.properties._meta).toEqual({ $ref: '#/components/schemas/Meta' });
      for (const status of ['400', '401', '403', '413', '500']) {
        expect(op.responses[status].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
      }
    });
  }

  it('has a shared Meta component with exactly the META_KEYS properties', () => {
    const meta = doc.components.schemas.Meta;
    expect(Object.keys(meta.properties).sort()).toEqual([...META_KEYS].sort());
  });

  it('has operation ids that are unique', () => {
    const ids = Object.values(doc.paths as Json).flatMap((p: Json) => Object.values(p).map((op: Json) => op.operationId).filter(Boolean));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('resolves every $ref it contains', () => {
    const refs: string[] = [];
    JSON.stringify(doc, (key, value) => {
      if (key === '$ref') refs.push(value);
      return value;
    });
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) deref(ref);
  });

  it('documents the probes and the MCP endpoint', () => {
    for (const path of ['/v1/health', '/v1/ready', '/v1/openapi.json', '/v1/tools', '/v1/capabilities', '/v1/metrics', '/mcp']) {
      expect(doc.paths, path).toHaveProperty(path);
    }
  });

  it('is generated from the registry on every request: a newly registered tool appears', async () => {
    const extra = defineTool({
      name: 'openapi_probe_tool',
      title: 'probe',
      description: 'Registered only by openapi.test.ts.',
      tier: 'heavy',
      toolset: 'full',
      writes: { idempotent: false },
      baseline: 'none',
      input: z.object({ n: z.number().int().min(1).max(3) }),
      output: z.object({ ok: z.boolean() }),
      handler: async () => ({ ok: true }),
    }) as unknown as ToolDef;
    const list = TOOLS as ToolDef[];
    list.push(extra);
    try {
      const fresh = (await send('/v1/openapi.json')).body;
      const op = fresh.paths['/v1/tools/openapi_probe_tool'].post;
      expect(op['x-pincher-tier']).toBe('heavy');
      expect(op['x-pincher-idempotent']).toBe(false);
      expect(op.requestBody.content['application/json'].schema.properties.n).toMatchObject({ type: 'integer', minimum: 1, maximum: 3 });
    } finally {
      list.splice(list.indexOf(extra), 1);
    }
  });
});

describe('real responses match the documented schemas', () => {
  /** Calls that answer 200 per tool; a tool without an entry is called with {}. */
  const OK_CALLS: Record<string, Json[]> = {
    why_empty: [{}, { code: 'stale_index', project: PROJECT }],
    list: [{}, { limit: 1 }, { name_contains: 'zz-nothing' }],
    health: [{}, { project: PROJECT }, { project: 'openapi-missing' }],
    index: [{ project: PROJECT, force: true }, { project: CODE, files: [{ path: 'src/extra.py', content: 'def extra():\n    return 1\n' }] }],
    search: [{ project: CODE, query: 'listen', snippet_lines: 2 }, { project: CODE, query: 'listen', kind: 'Class' }],
    symbol: [{ project: CODE, id: 'src/app.ts::Server.start#Method' }, { project: CODE, id: 'src/app.ts::Nope#Function' }],
    symbols: [{ project: CODE, ids: ['src/app.ts::listen#Function', 'src/app.ts::Nope#Function'] }],
    context: [{ project: CODE, name: 'Server.start' }],
    read: [{ project: CODE, path: 'src/app.ts', map: true }, { project: CODE, path: 'src/app.ts', symbol: 'listen' }, { project: CODE, path: 'README.md', offset: 2, limit: 1 }],
    grep: [{ project: CODE, pattern: 'port', context: 1 }, { project: CODE, pattern: 'port', summary: true }],
    find: [{ project: CODE, pattern: '**/*.ts' }, { project: CODE, language: 'markdown' }],
    ls: [{ project: CODE, max_depth: 2 }],
  };

  for (const tool of TOOLS) {
    it(`${tool.name}: every result matches its output schema and every _meta matches Meta`, async () => {
      const op = doc.paths[`/v1/tools/${tool.name}`].post;
      for (const args of OK_CALLS[tool.name] ?? [{}]) {
        const reply = await restCall(tool.name, args);
        const where = `${tool.name} ${JSON.stringify(args)}`;
        const documented = op.responses[String(reply.status)];
        expect(documented, `${where}: status ${reply.status} is not documented`).toBeDefined();
        const schema = documented.content['application/json'].schema;
        expect(check(schema, reply.body), where).toEqual([]);
        expect(check(doc.components.schemas.Meta, reply.body._meta), where).toEqual([]);
      }
    });
  }

  it('error bodies match the Error component', async () => {
    for (const reply of [await restCall('list', { limit: 0 }), await restCall('nope_tool', {}), await send('/v1/nope')]) {
      expect(check(doc.components.schemas.Error, reply.body)).toEqual([]);
    }
  });

  it('the ready probe matches its documented schema', async () => {
    const reply = await send('/v1/ready');
    expect(check(doc.paths['/v1/ready'].get.responses['200'].content['application/json'].schema, reply.body)).toEqual([]);
  });

  it('the checker itself rejects a result that breaks the schema', () => {
    const op = doc.paths['/v1/tools/list'].post;
    const schema = op.responses['200'].content['application/json'].schema;
    expect(check(schema, { result: { projects: 'nope', total: 1, has_more: false }, _meta: {} }).length).toBeGreaterThan(0);
    expect(check(doc.components.schemas.Meta, { tokens_used: 1.5 }).length).toBeGreaterThan(0);
  });
});

describe('every route is documented, from the schemas it validates with', () => {
  /** Methods on /mcp that only answer 405 (stateless: no SSE stream, no session); the POST's description says so. */
  const UNDOCUMENTED_405 = new Set(['GET /mcp', 'DELETE /mcp', 'PUT /mcp', 'PATCH /mcp']);

  it('each method and path the app routes is an operation of the document', () => {
    const served = app.routes
      .filter((r) => r.method !== 'ALL' && !r.path.includes('*'))
      .map((r) => ({ method: r.method, path: (r.path.replace(/\/$/, '') || '/').replace(/:(\w+)/g, '{$1}') }));
    expect(served.length).toBeGreaterThan(10);
    for (const { method, path } of served) {
      if (UNDOCUMENTED_405.has(`${method} ${path}`)) continue;
      const paths = path === '/v1/tools/{tool}' ? TOOLS.map((t) => `/v1/tools/${t.name}`) : [path];
      for (const p of paths) expect(doc.paths[p]?.[method.toLowerCase()], `${method} ${p}`).toBeDefined();
    }
  });

  it('every operation has an operationId, a 2XX and a 4XX response', () => {
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      for (const [method, op] of Object.entries(item as Json)) {
        if (method === 'parameters') continue;
        const where = `${method.toUpperCase()} ${path}`;
        expect((op as Json).operationId, where).toMatch(/^\w+$/);
        const statuses = Object.keys((op as Json).responses);
        expect(statuses.some((s) => s.startsWith('2')), where).toBe(true);
        expect(statuses.some((s) => s.startsWith('4')), where).toBe(true);
      }
    }
  });

  it('the upload API answers what it documents: open, send, status, commit, abort', async () => {
    const project = 'openapi-upload';
    const content = 'export const documented = 1;\n';
    const hash = [...new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(content)))].map((b) => b.toString(16).padStart(2, '0')).join('');
    const post = (path: string, body?: unknown) => send(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const schemaOf = (path: string, method: string, status: string) => doc.paths[path][method].responses[status].content['application/json'].schema;
    try {
      const opened = await post(`/v1/projects/${project}/uploads`, { manifest: [{ path: 'src/a.ts', hash, size: content.length }], ref: 'main' });
      expect(opened.status).toBe(201);
      expect(check(schemaOf('/v1/projects/{project}/uploads', 'post', '201'), opened.body)).toEqual([]);
      const id = opened.body.upload_id;
      const sent = await post(`/v1/projects/${project}/uploads/${id}/files`, { files: [{ path: 'src/a.ts', hash, content }] });
      expect(sent.status).toBe(200);
      expect(check(schemaOf('/v1/projects/{project}/uploads/{id}/files', 'post', '200'), sent.body)).toEqual([]);
      const status = await send(`/v1/projects/${project}/uploads/${id}`);
      expect(check(schemaOf('/v1/projects/{project}/uploads/{id}', 'get', '200'), status.body)).toEqual([]);
      const committed = await post(`/v1/projects/${project}/uploads/${id}/commit`);
      expect(committed.status).toBe(200);
      expect(check(schemaOf('/v1/projects/{project}/uploads/{id}/commit', 'post', '200'), committed.body)).toEqual([]);
      const again = await post(`/v1/projects/${project}/uploads`, { manifest: [] });
      const aborted = await send(`/v1/projects/${project}/uploads/${again.body.upload_id}`, { method: 'DELETE' });
      expect(aborted.status).toBe(200);
      expect(check(schemaOf('/v1/projects/{project}/uploads/{id}', 'delete', '200'), aborted.body)).toEqual([]);
      const refused = await post(`/v1/projects/${project}/uploads`, { manifest: [], mode: 'append' });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ code: 'invalid_params', message: 'mode must be one of: replace, merge' });
      expect(doc.paths['/v1/projects/{project}/uploads'].post.responses['400']).toBeDefined();
    } finally {
      await deleteProjects([project]);
    }
  });

  it('the documented manifest entry and the service accept and refuse the same entries', () => {
    const h = 'a'.repeat(64);
    const entries: unknown[] = [
      { path: 'src/a.ts', hash: h, size: 1 },
      { path: 'a', hash: h, size: 0 },
      { path: '', hash: h, size: 1 },
      { path: '/abs.ts', hash: h, size: 1 },
      { path: 'C:/x.ts', hash: h, size: 1 },
      { path: 'a/../b.ts', hash: h, size: 1 },
      { path: 'a//b.ts', hash: h, size: 1 },
      { path: './a.ts', hash: h, size: 1 },
      { path: 'a\\b.ts', hash: h, size: 1 },
      { path: 'a\0b', hash: h, size: 1 },
      { path: 'x'.repeat(1025), hash: h, size: 1 },
      { path: 'src/a.ts', hash: h.toUpperCase(), size: 1 },
      { path: 'src/a.ts', hash: 'abc', size: 1 },
      { path: 'src/a.ts', hash: h, size: -1 },
      { path: 'src/a.ts', hash: h, size: 1.5 },
      { path: 'src/a.ts', hash: h, size: '1' },
      { path: 7, hash: h, size: 1 },
      { hash: h, size: 1 },
    ];
    for (const entry of entries) {
      let service = true;
      try {
        checkManifest([entry]);
      } catch {
        service = false;
      }
      expect(ManifestEntrySchema.safeParse(entry).success, JSON.stringify(entry).slice(0, 80)).toBe(service);
    }
  });
});
