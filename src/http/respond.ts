import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../env';
import { PincherError } from '../errors';
import { MetaCollector } from '../envelope/collector';
import { stampCall } from '../envelope/stamp';
import { TOOL_NAMES } from '../tools/registry';

function callOf(c: Context<AppEnv>) {
  return { env: c.env, requestId: c.get('requestId'), clientRequestId: c.get('clientRequestId'), startedAt: c.get('startedAt') ?? Date.now() };
}

/** `{...body, _meta}` with the shared envelope, for routes that are not tool calls. */
export async function jsonWithMeta(
  c: Context<AppEnv>,
  body: Record<string, unknown>,
  status: ContentfulStatusCode = 200,
  collector = new MetaCollector(),
): Promise<Response> {
  const meta = await stampCall(callOf(c), collector, body, TOOL_NAMES);
  return c.json({ ...body, _meta: meta }, status);
}

/** `{error, _meta}` with the error's HTTP status and headers. */
export async function errorWithMeta(c: Context<AppEnv>, err: PincherError, collector = new MetaCollector()): Promise<Response> {
  const body = { error: err.toBody() };
  c.set('errorCode', err.code);
  const meta = await stampCall(callOf(c), collector, body, TOOL_NAMES);
  const res = c.json({ ...body, _meta: meta }, err.status);
  for (const [k, v] of Object.entries(err.headers ?? {})) res.headers.set(k, v);
  return res;
}
