import { timedDatabase } from '../db/timed';
import { CallDatabases } from '../db/project-shard';
import { ProjectLookup } from './project-cache';
import type { Env, AccessScope } from '../env';
import { PincherError, toPincherError, type ErrorBody } from '../errors';
import { MetaCollector } from '../envelope/collector';
import { stampCall } from '../envelope/stamp';
import { confirmSchemaStateAlong } from '../db/migrations';
import { settleBaseline } from './baseline';
import { reachableSteps } from './reach';
import { countTokens, prepareTokens, tokenMode } from '../envelope/tokens';
import type { Meta, TypedEntry } from '../envelope/types';
import { callLogWindowMs, queueCall } from '../db/calls';
import type { ToolContext, ToolDef, ToolRegistry } from './define';
import { normaliseArgs } from './params';
import { exactCheck } from './output-check';
import { exportSpan, otlpConfig } from '../telemetry/otlp';

/**
 * Runs `work` (the trace span) in a later task, not before the
 * seam returns: the answer is handed to the surface and on its way before the
 * work's CPU is spent. `waitUntil` keeps the Worker alive for it.
 */
function afterResponse(work: () => Promise<unknown>): Promise<unknown> {
  return new Promise((resolve) => setTimeout(resolve, 0)).then(work);
}

/** Request-level facts the surface (MCP or REST) hands to the seam. */
export interface CallContext {
  env: Env;
  requestId: string;
  /** The client's own `X-Request-ID`, kept beside the ULID. */
  clientRequestId?: string;
  startedAt: number;
  scope: AccessScope;
  surface: 'mcp' | 'rest';
  defaultProject?: string;
  /** From the `X-Pincher-Session` header; `_meta.session_id` in the arguments wins. */
  sessionId?: string;
  /**
   * Everything the model receives for this outcome on the surface, as text
   * (MCP adds a notice and a plain-words block): tokens_used counts it.
   * Without it, the JSON payload is what the caller receives.
   */
  render?: ModelText;
  /** Tools the client was shown (MCP tools/list); next_steps naming others are routed through batch. Absent: every tool. */
  advertised?: ReadonlySet<string>;
  /** The tools this server serves (src/tools/registry.ts); handlers see it as ToolContext.registry. */
  registry: ToolRegistry;
  /** The request's W3C `traceparent` header: the call's OTLP span becomes a child of it. */
  traceparent?: string;
  waitUntil(promise: Promise<unknown>): void;
  /** Progress of long work, for a caller listening on this request (MCP `_meta.progressToken`). */
  progress?: ToolContext['progress'];
  /**
   * A D1 Sessions API bookmark the client holds (the `X-Pincher-Bookmark` header, e.g. from a
   * push's commit): the call reads a state at least that recent. Absent: any replica may answer.
   */
  bookmark?: string;
}

/** What the call cost in D1 and where its reads stand, for the surface's response headers. */
export interface ToolReads {
  /** D1 round trips made before the answer (handler, baseline settlement; not the call-log write after it). */
  roundTrips: number;
  /** SQL statements those round trips executed (a batch counts each of its statements). */
  statements: number;
  /** The session's latest bookmark: pass it back to read at least this state. Null when no query ran. */
  bookmark: string | null;
}

/** `payloadText`: the JSON text of the result, or of `{error}` on failure, as the envelope counted it. */
export type ToolOutcome =
  | { ok: true; result: Record<string, unknown>; meta: Meta; collector: MetaCollector; reads: ToolReads; payloadText: string }
  | { ok: false; error: PincherError; meta: Meta; collector: MetaCollector; reads: ToolReads; payloadText: string };

/**
 * The one seam every tool call goes through, whatever the surface: scope
 * check, argument rules, handler, output check, envelope stamp, call log.
 * Handlers throw PincherError; nothing else catches inside a handler.
 */
export async function runTool(tool: ToolDef, rawArgs: unknown, call: CallContext): Promise<ToolOutcome> {
  const collector = new MetaCollector();
  collector.sessionId = call.sessionId;
  collector.baseline(tool.baseline);
  const databases = new CallDatabases(call.env, call.bookmark, (session) => (call.env.PINCHER_SQL_TIMING === '1' ? timedDatabase(session, tool.name) : session));
  // The envelope's ledger, when kept too long, is confirmed inside the call's first round trip on the primary.
  confirmSchemaStateAlong(databases.primary(), call.env.DB);
  const outcome = await execute(tool, rawArgs, { ...call, databases }, collector);
  // Session credits are server-wide: they live on the primary.
  await settleBaseline(databases.primary(), collector);
  const reads: ToolReads = { roundTrips: databases.roundTrips, statements: databases.statements, bookmark: databases.getBookmark() };
  const steps = reachableSteps(collector.nextSteps, call);
  collector.nextSteps.splice(0, collector.nextSteps.length, ...steps);
  const payload = outcome.ok ? outcome.result : { error: outcome.error.toBody() };
  const render = call.render;
  const known = call.scope === 'write' ? call.registry.names : call.registry.readNames;
  const payloadText = JSON.stringify(payload);
  const meta = await stampCall(call, collector, payload, known, tool.tier, render && ((m) => render(outcome.ok, payload, m)), payloadText);
  const record = {
    ts: Date.now(),
    requestId: call.requestId,
    tool: tool.name,
    surface: call.surface,
    status: outcome.ok ? (collector.emptyReason ? 'empty' : 'ok') : outcome.error.code,
    latencyMs: meta.latency_ms ?? 0,
    tokensUsed: meta.tokens_used ?? 0,
    tokensSaved: meta.tokens_saved ?? 0,
    emptyReason: collector.emptyReason ?? null,
    projectId: collector.project?.id ?? null,
  };
  queueCall(call.env.DB, record, call.waitUntil, callLogWindowMs(call.env.PINCHER_CALL_LOG_WINDOW_MS));
  const otlp = otlpConfig(call.env);
  if (otlp) {
    const endedAt = Date.now();
    call.waitUntil(
      afterResponse(() => exportSpan(otlp, {
        tool: tool.name,
        surface: call.surface,
        startedAt: call.startedAt,
        endedAt,
        meta,
        errorCode: outcome.ok ? undefined : outcome.error.code,
        traceparent: call.traceparent,
      })),
    );
  }
  return { ...outcome, meta, collector, reads, payloadText } as ToolOutcome;
}

/** What the seam needs to run a handler: the request-level facts a ToolContext carries. */
type ExecContext = Pick<ToolContext, 'env' | 'databases' | 'requestId' | 'defaultProject' | 'scope' | 'surface' | 'waitUntil' | 'advertised' | 'registry' | 'progress'>;

/** Runs of a handler at most: a run that used a cached project row found changed is run again once with fresh lookups. */
const MAX_RUNS = 2;

/**
 * Scope check, argument rules, handler and output check for one call, with
 * `collector` receiving its facts. Never throws: failures come back typed.
 */
async function execute(
  tool: ToolDef,
  rawArgs: unknown,
  call: ExecContext,
  collector: MetaCollector,
): Promise<{ ok: true; result: Record<string, unknown> } | { ok: false; error: PincherError }> {
  // Sub-calls (batch entries) count their payloads before the envelope is stamped.
  await prepareTokens(tokenMode(call.env.PINCHER_TOKEN_ACCOUNTING));
  try {
    if (!tool.annotations.readOnlyHint && call.scope !== 'write') {
      throw new PincherError('insufficient_scope', `${tool.name} writes to the index and needs the full-access key`, {
        suggestion: 'call it with PINCHER_HTTP_KEY; the read-only key can only call read tools',
      });
    }
    const { parsed, sessionId } = normaliseArgs(tool.name, tool.input, rawArgs, collector, call.env.PINCHER_OUTPUT_CHECK === 'zod');
    if (sessionId) collector.sessionId = sessionId;
    const before = collector.snapshot();
    let result: unknown;
    for (let run = 1; ; run++) {
      // The call reads the shard holding its project (src/db/project-shard.ts); a rerun reads the catalog afresh.
      // Write tools always look projects up afresh: a stale run could not be undone.
      const fresh = run > 1 || !tool.annotations.readOnlyHint;
      const placed = await call.databases.forProject(projectArg(parsed) ?? call.defaultProject, fresh, tool.annotations.readOnlyHint);
      const db = placed.db;
      const projects = tool.annotations.readOnlyHint
        ? new ProjectLookup(db, { bypass: fresh, shardRemembered: placed.fromMemory, prefetched: placed.primaryRow })
        : undefined;
      const ctx: ToolContext = {
        env: call.env,
        db,
        databases: call.databases,
        projects,
        meta: collector,
        requestId: call.requestId,
        defaultProject: call.defaultProject,
        scope: call.scope,
        surface: call.surface,
        waitUntil: call.waitUntil,
        advertised: call.advertised,
        registry: call.registry,
        progress: call.progress,
      };
      let failure: { err: unknown } | undefined;
      try {
        result = await tool.handler(parsed, ctx);
      } catch (err) {
        failure = { err };
      }
      // A cached project row is checked by the latest in the call's round trips; one still waiting runs now.
      await db.flush();
      if (projects?.stale && run < MAX_RUNS) {
        collector.restore(before);
        continue;
      }
      if (failure) throw failure.err;
      break;
    }
    const exact = exactCheck(tool.output)(result);
    // The exact check is zod's answer without its copy (src/tools/output-check.ts); PINCHER_OUTPUT_CHECK=zod checks it against zod.
    if (exact && call.env.PINCHER_OUTPUT_CHECK !== 'zod') return { ok: true, result: result as Record<string, unknown> };
    const checked = tool.output.safeParse(result);
    if (exact && !(checked.success && JSON.stringify(checked.data) === JSON.stringify(result))) {
      console.error(`tool '${tool.name}': the exact output check passed a result zod ${checked.success ? 'copies differently' : 'rejects'}`);
      throw new PincherError('internal_error', `${tool.name}'s output check disagrees with its schema`, {
        suggestion: 'retry; if it keeps failing, report the request_id to the operator',
      });
    }
    if (!checked.success) {
      console.error(`tool '${tool.name}' produced output outside its schema: ${checked.error.issues.length} issue(s)`);
      throw new PincherError('internal_error', `${tool.name} produced an invalid result`, {
        suggestion: 'retry; if it keeps failing, report the request_id to the operator',
      });
    }
    return { ok: true, result: checked.data as Record<string, unknown> };
  } catch (err) {
    if (!(err instanceof PincherError)) {
      console.error(`tool '${tool.name}' failed: ${err instanceof Error ? `${err.name}: ${err.message.slice(0, 200)}` : 'error'}`);
    }
    return { ok: false, error: toPincherError(err) };
  }
}

/** The `project` argument of a call, when it names one. */
function projectArg(parsed: unknown): string | undefined {
  const project = (parsed as { project?: unknown } | null)?.project;
  return typeof project === 'string' && project !== '' ? project : undefined;
}

/** The slim envelope of one sub-call: what a batch entry reports about itself. */
export interface SubCallMeta {
  /** Tokens of the entry's payload (its result, or `{error}`), counted as `_meta.tokens_used` is. */
  tokens_used: number;
  empty_reason?: string;
  warnings_v2?: TypedEntry[];
}

export type SubCallOutcome =
  | { ok: true; result: Record<string, unknown>; meta: SubCallMeta; collector: MetaCollector }
  | { ok: false; error: PincherError; meta: SubCallMeta; collector: MetaCollector };

/**
 * Runs one tool call inside another call (batch entries) through the same
 * seam as runTool — scope check, argument rules, handler, output check — with
 * its own collector. The parent's session id, scope, surface and URL pin
 * apply; `_meta.session_id` in the sub-call's arguments wins, as on any call.
 * Nothing is stamped or logged: the caller reads the slim meta and the
 * collector (baseline, next steps, project) and reports them itself.
 *
 * @example
 * const sub = await runSubTool(findTool('search')!, { query: 'listen' }, ctx);
 * if (sub.ok) entries.push({ result: sub.result, _meta: sub.meta });
 */
export async function runSubTool(tool: ToolDef, rawArgs: unknown, parent: ToolContext): Promise<SubCallOutcome> {
  const collector = new MetaCollector();
  collector.sessionId = parent.meta.sessionId;
  collector.baseline(tool.baseline);
  const outcome = await execute(tool, rawArgs, parent, collector);
  const payload = outcome.ok ? outcome.result : { error: outcome.error.toBody() };
  const meta: SubCallMeta = { tokens_used: countTokens(JSON.stringify(payload), tokenMode(parent.env.PINCHER_TOKEN_ACCOUNTING)) };
  if (collector.emptyReason) meta.empty_reason = collector.emptyReason;
  if (collector.warnings.length) meta.warnings_v2 = [...collector.warnings];
  return { ...outcome, meta, collector } as SubCallOutcome;
}

/** The text the model receives for one outcome on a surface (see CallContext.render). */
export type ModelText = (ok: boolean, payload: Record<string, unknown>, meta: Meta) => string;

export type { ErrorBody };
