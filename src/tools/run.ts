import type { Env, AccessScope } from '../env';
import { PincherError, toPincherError, type ErrorBody } from '../errors';
import { MetaCollector } from '../envelope/collector';
import { stampMeta } from '../envelope/stamp';
import { computeCapabilities, capabilitiesStampEnabled } from '../envelope/capabilities';
import { tokenMode } from '../envelope/tokens';
import type { ComplexityTier, Meta } from '../envelope/types';
import { schemaState } from '../db/migrations';
import { recordCall } from '../db/calls';
import type { ToolContext, ToolDef } from './define';
import { normaliseArgs } from './params';
import { READ_TOOL_NAMES, TOOL_NAMES } from './registry';

/** Request-level facts the surface (MCP or REST) hands to the seam. */
export interface CallContext {
  env: Env;
  requestId: string;
  startedAt: number;
  scope: AccessScope;
  surface: 'mcp' | 'rest';
  defaultProject?: string;
  /** From the `X-Pincher-Session` header; `_meta.session_id` in the arguments wins. */
  sessionId?: string;
  waitUntil(promise: Promise<unknown>): void;
}

export type ToolOutcome =
  | { ok: true; result: Record<string, unknown>; meta: Meta; collector: MetaCollector }
  | { ok: false; error: PincherError; meta: Meta; collector: MetaCollector };

/**
 * The one seam every tool call goes through, whatever the surface: scope
 * check, argument rules, handler, output check, envelope stamp, call log.
 * Handlers throw PincherError; nothing else catches inside a handler.
 */
export async function runTool(tool: ToolDef, rawArgs: unknown, call: CallContext): Promise<ToolOutcome> {
  const collector = new MetaCollector();
  collector.sessionId = call.sessionId;
  collector.baseline(tool.baseline);
  let outcome: { ok: true; result: Record<string, unknown> } | { ok: false; error: PincherError };
  try {
    if (!tool.annotations.readOnlyHint && call.scope !== 'write') {
      throw new PincherError('insufficient_scope', `${tool.name} writes to the index and needs the full-access key`, {
        suggestion: 'call it with PINCHER_HTTP_KEY; the read-only key can only call read tools',
      });
    }
    const { parsed, sessionId } = normaliseArgs(tool.name, tool.input, rawArgs, collector);
    if (sessionId) collector.sessionId = sessionId;
    const ctx: ToolContext = {
      env: call.env,
      db: call.env.DB,
      meta: collector,
      requestId: call.requestId,
      defaultProject: call.defaultProject,
      scope: call.scope,
      surface: call.surface,
      waitUntil: call.waitUntil,
    };
    const result = await tool.handler(parsed, ctx);
    const checked = tool.output.safeParse(result);
    if (!checked.success) {
      console.error(`tool '${tool.name}' produced output outside its schema: ${checked.error.issues.length} issue(s)`);
      throw new PincherError('internal_error', `${tool.name} produced an invalid result`, {
        suggestion: 'retry; if it keeps failing, report the request_id to the operator',
      });
    }
    outcome = { ok: true, result: checked.data as Record<string, unknown> };
  } catch (err) {
    if (!(err instanceof PincherError)) {
      console.error(`tool '${tool.name}' failed: ${err instanceof Error ? `${err.name}: ${err.message.slice(0, 200)}` : 'error'}`);
    }
    outcome = { ok: false, error: toPincherError(err) };
  }
  const payload = outcome.ok ? outcome.result : { error: outcome.error.toBody() };
  const meta = await stampCall(call, collector, payload, tool.tier, call.scope === 'write' ? TOOL_NAMES : READ_TOOL_NAMES);
  call.waitUntil(
    recordCall(call.env.DB, {
      ts: Date.now(),
      requestId: call.requestId,
      tool: tool.name,
      surface: call.surface,
      status: outcome.ok ? (collector.emptyReason ? 'empty' : 'ok') : outcome.error.code,
      latencyMs: meta.latency_ms ?? 0,
      tokensUsed: meta.tokens_used ?? 0,
      tokensSaved: meta.tokens_saved ?? null,
      emptyReason: collector.emptyReason ?? null,
      projectId: collector.project?.id ?? null,
    }),
  );
  return { ...outcome, meta, collector } as ToolOutcome;
}

/**
 * Stamps `_meta` for any response, tool call or not (errors, probes, uploads):
 * the same producers, so every response shares one envelope.
 */
export async function stampCall(
  call: Pick<CallContext, 'env' | 'requestId' | 'startedAt'>,
  collector: MetaCollector,
  payload: unknown,
  tier?: ComplexityTier,
  /** Tools next_steps may name: a read-only caller is never steered to a write tool. */
  knownTools: ReadonlySet<string> = TOOL_NAMES,
): Promise<Meta> {
  const state = await schemaState(call.env.DB);
  return stampMeta({
    requestId: call.requestId,
    startedAt: call.startedAt,
    now: Date.now(),
    collector,
    tier,
    payloadText: JSON.stringify(payload),
    tokenMode: tokenMode(call.env.PINCHER_TOKEN_ACCOUNTING),
    capabilities: capabilitiesStampEnabled(call.env) ? computeCapabilities(call.env) : null,
    storedSchemaVersion: state.applied,
    knownTools,
  });
}

export type { ErrorBody };
