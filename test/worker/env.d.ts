/** The Worker's own bindings (src/env.ts) plus what vitest.config.ts adds for the suite. */
type WorkerBindings = import('../../src/env').Env;

declare namespace Cloudflare {
  interface Env extends WorkerBindings {
    TEST_MIGRATIONS: import('cloudflare:test').D1Migration[];
    TEST_RATE_LIMITER: RateLimit;
  }
}
