import type { AppEnv } from './env';
import { app } from './app';
import { scheduledGc } from './upload/gc';

/** HTTP through the app; the Cron Trigger (wrangler.toml) runs the storage garbage collection. */
export default {
  fetch: app.fetch,
  scheduled: (controller, env, ctx) => ctx.waitUntil(scheduledGc(env, controller.scheduledTime)),
} satisfies ExportedHandler<AppEnv['Bindings']>;
