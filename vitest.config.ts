import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';

// Two projects: `workers` runs inside workerd against a real local D1 (the
// Worker's own code); `node` runs the CLI and the end-to-end suite, which
// starts a real `wrangler dev` and talks to it over loopback.
export default defineConfig(async () => {
  const migrations = await readD1Migrations('./migrations');
  return {
    test: {
      // Each workerd test file starts its own workerd; two files at a time use both cores of a small CI runner.
      maxWorkers: 2,
      projects: [
        {
          plugins: [
            cloudflareTest({
              wrangler: { configPath: './wrangler.toml' },
              miniflare: {
                // The per-key limiter is off for the suite; its own test turns it on with a tiny test limiter.
                bindings: { TEST_MIGRATIONS: migrations, PINCHER_ALLOW_OPEN: '1', PINCHER_RATE_LIMIT: 'off' },
                ratelimits: { TEST_RATE_LIMITER: { simple: { limit: 3, period: 60 } } },
              },
            }),
          ],
          test: {
            name: 'workers',
            include: ['test/worker/**/*.test.ts'],
            // Behaviour, not speed, is asserted here (the bench measures speed): a loaded
            // 2-core runner must not turn a slow call into a failure.
            testTimeout: 30_000,
            hookTimeout: 120_000,
            setupFiles: ['./test/worker/apply-migrations.ts'],
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
