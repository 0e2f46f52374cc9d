#!/usr/bin/env node
// `wrangler dev` without its inspector, through wrangler's programmatic dev API: what the
// local server's supervisor runs (scripts/local-server.mjs).
//
// Why not the `wrangler dev` command: it always opens an inspector, and wrangler's inspector
// proxy then enables the Runtime and Network domains on the Worker's runtime and keeps every
// message that arrives (each console line, each D1 query as a subrequest) in a buffer that
// only a connected DevTools client empties. Without one, its memory grew with every request.
// With `dev.inspector: false` nothing is subscribed; the Worker's console output still
// reaches this process's stdout.
//
// Usage: node scripts/wrangler-dev.mjs '{"root":"…","port":8788,"persistTo":"…","vars":{…}}'
import path from 'node:path';
import { unstable_startWorker } from 'wrangler';

const { root, port, persistTo, vars = {} } = JSON.parse(process.argv[2] ?? '{}');

const worker = await unstable_startWorker({
  config: path.join(root, 'wrangler.toml'),
  bindings: Object.fromEntries(Object.entries(vars).map(([name, value]) => [name, { type: 'plain_text', value: String(value) }])),
  dev: {
    server: { hostname: '127.0.0.1', port },
    inspector: false,
    remote: false,
    // Serves /__scheduled, through which the supervisor runs the Worker's Cron Trigger
    // (garbage collection); the front proxy refuses it from outside.
    testScheduled: true,
    ...(persistTo ? { persist: persistTo } : {}),
    logLevel: 'warn',
  },
});
await worker.ready;

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await worker.dispose().catch(() => {});
  process.exit(0);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
