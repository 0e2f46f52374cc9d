import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';

/**
 * Workerd test files that need a database of their own: they empty or rewrite
 * server-wide tables (projects, call_log, d1_migrations), count every project,
 * or assert invariants over every row, which rows seeded by other files would break.
 */
const FRESH_STORAGE = [
  'test/worker/contract/bad-input.test.ts',
  'test/worker/contract/capabilities.test.ts',
  'test/worker/contract/next-steps.test.ts',
  'test/worker/contract/parity.test.ts',
  'test/worker/tools/context-for-task.test.ts',
  'test/worker/tools/health.test.ts',
  'test/worker/mcp/logging.test.ts',
  'test/worker/upload/cross-language.test.ts',
  // Counts the segments of the full-text indexes every project shares: another file's writes (a push, a collection)
  // landing between its commit and its count would add one.
  'test/worker/upload/fts-merge.test.ts',
  'test/worker/upload/gc.test.ts',
  'test/worker/upload/manifest-checks.test.ts',
  'test/worker/upload/take-over.test.ts',
];

/**
 * Files that need no database of their own but run in a runtime of their own (in `workers-fresh`):
 * a shared runtime gets slower per request as the files before it pile up state (a rejected call's
 * median went from 29–155 ms early in the run to 489 ms in the rule inventory, the last file; 14 ms in
 * a fresh runtime), and the inventory makes 235 calls (some 70 after a push): 236 s at the end of the shared runtime,
 * about 20 s in its own.
 */
const OWN_RUNTIME = ['test/worker/rules/inventory.test.ts'];

/**
 * The files that share a runtime and a database, in groups of folders: one runtime per group. A shared runtime
 * gets slower per request as the files before it pile up state in the test pool (not in the Worker: 200 projects
 * pushed to one local server, with 800 calls between, leave a call's latency as it was), so the run's time grows
 * with the square of a runtime's files; four groups cut it. A file matches the first group that includes it.
 */
const SHARED_GROUPS = [
  { name: 'tools', include: ['test/worker/tools/**/*.test.ts'] },
  { name: 'contract', include: ['test/worker/contract/**/*.test.ts', 'test/worker/mcp/**/*.test.ts', 'test/worker/http/**/*.test.ts'] },
  { name: 'store', include: ['test/worker/upload/**/*.test.ts', 'test/worker/db/**/*.test.ts', 'test/worker/resolution/**/*.test.ts'] },
  { name: 'rest', include: ['test/worker/**/*.test.ts'] },
];

/** Files that place projects on every shard (both local databases) and move them. */
const SHARDED = 'test/worker/shards/**/*.test.ts';

// The `workers-*` groups (SHARED_GROUPS) run inside workerd against a real local
// D1 (the Worker's own code) with isolation off: each group's workerd runtimes
// load the Worker and compile its grammars once and then run file after file
// against one database, instead of starting a runtime per file — that start-up
// was most of the suite's time. Files share storage, so they use project names
// of their own; `workers-fresh` runs FRESH_STORAGE one runtime and one database
// per file. `node` runs the CLI and the end-to-end suite,
// which starts a real `wrangler dev` and talks to it over loopback; `browser`
// drives the dashboard in headless Chromium against one.
export default defineConfig(async () => {
  const migrations = await readD1Migrations('./migrations');
  // Every workerd project has two databases (wrangler.toml: DB and DB_SHARD_1). New projects go to
  // the primary, so files assert on env.DB; `workers-shards` places on every shard.
  const workers = (name: string, include: string[], exclude: string[], isolate: boolean, placeShards = '0') => ({
    plugins: [
      cloudflareTest({
        wrangler: { configPath: './wrangler.toml' },
        miniflare: {
          // The per-key limiter is off for the suite; its own test turns it on with a tiny test limiter.
          bindings: {
            TEST_MIGRATIONS: migrations,
            PINCHER_ALLOW_OPEN: '1',
            PINCHER_RATE_LIMIT: 'off',
            PINCHER_ADMIN_KEY: 'test-admin-key',
            // Every tool output of the suite is parsed by zod too: the exact output check must agree (src/tools/output-check.ts).
            PINCHER_OUTPUT_CHECK: 'zod',
            // Each call's row is written as soon as it is answered, not after the default 500 ms window: every
            // call of the suite waits for its waitUntil work. test/worker/http/call-log.test.ts sets windows of its own.
            PINCHER_CALL_LOG_WINDOW_MS: '0',
            ...(placeShards ? { PINCHER_PLACE_SHARDS: placeShards } : {}),
          },
          ratelimits: { TEST_RATE_LIMITER: { simple: { limit: 3, period: 60 } } },
        },
      }),
    ],
    // The suite runs the build that carries the cl100k_base ranks, so exact accounting is
    // exercised end to end; wrangler.toml's default (false) is what `npm start` and deploy use.
    define: { PINCHER_EXACT_TOKENS: 'true' },
    test: {
      name,
      include,
      exclude,
      isolate,
      // Behaviour, not speed, is asserted here (the bench measures speed): a loaded
      // 2-core runner must not turn a slow call into a failure.
      testTimeout: 30_000,
      hookTimeout: 120_000,
      setupFiles: ['./test/worker/apply-migrations.ts'],
    },
  });
  return {
    test: {
      // Two test files at a time use both cores of a small CI runner.
      maxWorkers: 2,
      projects: [
        // The shared runtimes, one group of folders each (SHARED_GROUPS).
        ...SHARED_GROUPS.map((g, i) => workers(`workers-${g.name}`, g.include, [...FRESH_STORAGE, ...OWN_RUNTIME, SHARDED, ...SHARED_GROUPS.slice(0, i).flatMap((x) => x.include)], false)),
        workers('workers-fresh', [...FRESH_STORAGE, ...OWN_RUNTIME], [], true),
        // Placement across both databases, moves, listings and GC per shard: one runtime and fresh databases per file.
        workers('workers-shards', [SHARDED], [], true, ''),
        {
          // The dashboard in headless Chromium against a real local server (test/browser/chromium.ts).
          test: {
            name: 'browser',
            environment: 'node',
            include: ['test/browser/**/*.test.ts'],
            testTimeout: 60_000,
            hookTimeout: 300_000,
          },
        },
        {
          test: {
            name: 'node',
            environment: 'node',
            include: ['test/node/**/*.test.ts'],
            testTimeout: 60_000,
            hookTimeout: 120_000,
          },
        },
      ],
    },
  };
});
