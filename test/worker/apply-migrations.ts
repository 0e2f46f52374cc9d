import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';

// Every shard runs the same migrations (src/db/shards.ts): the primary DB and each DB_SHARD_<n>.
const bindings = env as unknown as Record<string, unknown>;
for (const name of Object.keys(bindings).filter((k) => /^DB(_SHARD_\d+)?$/.test(k))) {
  await applyD1Migrations(bindings[name] as D1Database, env.TEST_MIGRATIONS);
}
