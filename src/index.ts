import { Hono } from 'hono';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';

const app = new Hono<{ Bindings: { DB: D1Database } }>();
app.get('/v1/health', async (c) => {
  const r = await c.env.DB.prepare('select count(*) as n from spike').first();
  return c.json({ ok: true, r });
});
const handler = createMcpHandler(() => {
  const s = new McpServer({ name: 'x', version: '0.0.1' });
  s.registerTool('echo', { description: 'echo', inputSchema: z.object({ a: z.string() }), outputSchema: z.object({ a: z.string() }) }, async ({ a }) => ({ content: [{ type: 'text', text: a }], structuredContent: { a }, _meta: { request_id: 'x' } }));
  return s;
});
app.all('/mcp', (c) => handler.fetch(c.req.raw));
export default app;
