import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { shardsOf } from '../../src/db/shards';

// Every shard runs the same migrations (src/db/shards.ts): the primary and each DB_SHARD_<n>.
for (const shard of shardsOf(env)) await applyD1Migrations(shard.db, env.TEST_MIGRATIONS);
