#!/usr/bin/env node
// `npm start`: apply migrations to the embedded local D1 and serve the Worker on
// 127.0.0.1:8787 in local open mode (no key needed on this machine only).
import { applyLocalMigrations, startDevServer } from './dev-server.mjs';

const port = Number(process.env.PORT ?? 8787);
console.log('pincher-edge: applying D1 migrations to the local databases (the primary and every shard)…');
applyLocalMigrations();
console.log('pincher-edge: starting wrangler dev…');
const server = await startDevServer({ port, vars: { PINCHER_ALLOW_OPEN: '1' }, inherit: true });
const mcpUrl = `${server.url}/mcp`;
console.log(`
pincher-edge is serving at ${server.url} (local open mode: no key required here)

  MCP URL:   ${mcpUrl}
  REST:      ${server.url}/v1/tools
  OpenAPI:   ${server.url}/v1/openapi.json

Add it to Claude Code:
  claude mcp add --transport http pincher ${mcpUrl}

Or paste into .mcp.json / .cursor/mcp.json:
${JSON.stringify({ mcpServers: { pincher: { type: 'http', url: mcpUrl } } }, null, 2)}

Push a repository:
  npx --yes ${server.url}/v1/cli.tgz push . --url ${server.url}

Press Ctrl+C to stop.
`);
const shutdown = async () => {
  await server.stop();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
