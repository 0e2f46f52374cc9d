#!/usr/bin/env node
// `npm run db:migrate [-- --remote]`: applies migrations/ to every D1 database of
// wrangler.toml — the primary `DB` and each shard `DB_SHARD_<n>` — locally by default.
import { applyLocalMigrations, shardBindings } from './dev-server.mjs';

const remote = process.argv.includes('--remote');
console.log(`pincher-edge: applying D1 migrations ${remote ? 'remotely' : 'locally'} to ${shardBindings().join(', ')}`);
process.stdout.write(applyLocalMigrations(undefined, { remote }));
