import type { AppEnv } from './env';
import { app } from './app';
import { scheduledGc } from './upload/gc';

/**
 * HTTP through the app; the Cron Trigger (wrangler.toml) runs the storage garbage collection.
 * The scheduled handler settles when the run does, so a failed run shows as a failed
 * invocation (and the local server's supervisor sees it answer 500).
 */
export default {
  fetch: app.fetch,
  scheduled: async (controller, env, _ctx) => {
    await scheduledGc(env, controller.scheduledTime);
  },
} satisfies ExportedHandler<AppEnv['Bindings']>;
