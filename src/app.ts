import { Hono } from 'hono';
import type { AppEnv } from './env';
import { PincherError, toPincherError } from './errors';
import { accessLog, logUnhandled } from './http/access-log';
import { auth } from './http/auth';
import { cors } from './http/cors';
import { rateLimit } from './http/rate-limit';
import { requestId } from './http/request-id';
import { errorWithMeta } from './http/respond';
import { mcpRoutes } from './mcp/route';
import { cliRoutes } from './rest/cli';
import { probeRoutes } from './rest/probes';
import { toolRoutes } from './rest/tools';
import { uploadRoutes } from './rest/uploads';
import { eventRoutes } from './rest/events';
import { pushHistoryRoutes } from './rest/push-history';
import { activityRoutes } from './rest/activity';
import { adminRoutes } from './rest/admin';
import { dashboardPage } from './dashboard/page';

/** Every route and middleware of the Worker (src/index.ts exports it with the scheduled handler). */
export const app = new Hono<AppEnv>();

app.use('*', requestId());
app.use('*', accessLog());
app.use('*', cors());
app.use('*', auth());
app.use('*', rateLimit());

app.get('/', dashboardPage);
app.route('/mcp', mcpRoutes);
app.route('/v1/tools', toolRoutes);
app.route('/v1/projects', uploadRoutes);
app.route('/v1/projects', pushHistoryRoutes);
app.route('/v1', probeRoutes);
app.route('/v1', cliRoutes);
app.route('/v1', eventRoutes);
app.route('/v1', activityRoutes);
app.route('/v1/admin', adminRoutes);

app.notFound((c) =>
  errorWithMeta(
    c,
    new PincherError('not_found', `no route ${c.req.method} ${c.req.path.slice(0, 200)}`, {
      suggestion: 'GET /v1/openapi.json describes every route; MCP clients use POST /mcp',
    }),
  ),
);

app.onError((err, c) => {
  const e = toPincherError(err);
  if (!(err instanceof PincherError)) logUnhandled(c.get('requestId'), e.code, err);
  return errorWithMeta(c, e);
});
