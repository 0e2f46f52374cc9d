import { ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server';
import type { Toolset } from '../tools/define';
import { advertisedTools, findTool, REGISTRY, TOOL_NAMES, TOOLS, unknownTool } from '../tools/registry';
import { advertisedAnnotations, advertisedInputSchema, advertisedOutputSchema } from '../tools/describe';
import { runTool, type CallContext, type ModelText, type ToolOutcome } from '../tools/run';
import { MetaCollector } from '../envelope/collector';
import { stampCall } from '../envelope/stamp';
import type { Meta } from '../envelope/types';
import { VERSION } from '../version';
import { PincherError } from '../errors';
import { PROMPTS, getPrompt } from './guide-prompt';
import { asProtocolError, internalFailure } from './invalid-params';
import { McpLane, type LaneRequest } from './logging';

export interface McpRequestScope extends Omit<CallContext, 'surface' | 'sessionId' | 'registry'> {
  toolset: Toolset;
  sessionHeader?: string;
  /** Told what each tool call of the request read (its bookmark, its D1 round trips), for the response headers. */
  onReads?: (reads: ToolOutcome['reads']) => void;
}

const INSTRUCTIONS =
  'pincher-edge answers code questions from an index of pushed repositories: prefer search/symbol/read over reading whole files. ' +
  'Every result carries _meta; when a result is empty, structuredContent.notice says why and which call to make next.';

/** The model-visible mirror of the envelope: only what the model can act on. */
function notice(m: Meta): Record<string, unknown> | undefined {
  const n: Record<string, unknown> = {};
  if (m.empty_reason) n.empty_reason = m.empty_reason;
  if (m.diagnosis) n.diagnosis = m.diagnosis;
  if (m.next_steps?.length) n.next_steps = m.next_steps;
  if (m.warnings?.length) n.warnings = m.warnings;
  return Object.keys(n).length ? n : undefined;
}

function plainWords(m: Meta): string {
  const step = m.next_steps?.[0];
  const next = step ? ` Next: call ${step.tool} with ${JSON.stringify(step.args)} (${step.why}).` : '';
  return `Empty result (${m.empty_reason}): ${m.diagnosis ?? 'nothing matched'}.${next}`;
}

/** What the model sees of one outcome: the payload with its notice, and for an empty result a sentence in plain words. */
function modelView(ok: boolean, payload: Record<string, unknown>, meta: Meta) {
  const n = notice(meta);
  const structured = { ...payload, ...(n ? { notice: n } : {}) };
  const content: { type: 'text'; text: string }[] = [{ type: 'text', text: JSON.stringify(structured) }];
  if (ok && meta.empty_reason) content.push({ type: 'text', text: plainWords(meta) });
  return { structured, content };
}

/** Every text block the model receives: what `tokens_used` counts on MCP. */
export const mcpModelText: ModelText = (ok, payload, meta) =>
  modelView(ok, payload, meta)
    .content.map((c) => c.text)
    .join('\n');

/** Shapes a tool outcome as an MCP CallToolResult: structuredContent, the same JSON as text, `_meta`. */
export function toCallToolResult(outcome: ToolOutcome) {
  const payload = outcome.ok ? outcome.result : { error: outcome.error.toBody() };
  const { structured, content } = modelView(outcome.ok, payload, outcome.meta);
  // Error results carry no structuredContent: clients validate it against the
  // tool's outputSchema, which describes results, not errors.
  return outcome.ok
    ? { content, structuredContent: structured, _meta: outcome.meta as Record<string, unknown> }
    : { content, isError: true, _meta: outcome.meta as Record<string, unknown> };
}

/** `error.data` of a JSON-RPC protocol error: the typed error and the envelope every response carries. */
async function errorData(scope: McpRequestScope, err: PincherError): Promise<Record<string, unknown>> {
  const body = { error: err.toBody() };
  return { ...body, _meta: await stampCall(scope, new MetaCollector(), body, TOOL_NAMES) };
}

/**
 * The SDK's server, except that a request whose params fail the SDK's schema
 * answers -32602 invalid params with a short message, not -32603 with the
 * validator's raw output. Our handlers mark their own failures (guarded).
 */
class PincherServer extends Server {
  protected override _wrapHandler(...args: Parameters<Server['_wrapHandler']>): ReturnType<Server['_wrapHandler']> {
    const [method] = args;
    const wrapped = super._wrapHandler(...args);
    return async (request, ctx) => {
      try {
        return await wrapped(request, ctx);
      } catch (err) {
        throw asProtocolError(method, err);
      }
    };
  }
}

/** A handler whose own failures keep the internal-error code (see PincherServer). */
function guarded<A extends unknown[], R>(method: string, fn: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args) => {
    try {
      return await fn(...args);
    } catch (err) {
      throw internalFailure(method, err);
    }
  };
}

/**
 * A fresh low-level MCP server for one HTTP request. Tools come from the one
 * registry; the call path is the same seam REST uses.
 */
export function buildMcpServer(scope: McpRequestScope, modern = false): Server {
  const server = new PincherServer(
    { name: 'pincher-edge', version: VERSION },
    // logging: 2025-era clients may send logging/setLevel (the SDK validates and accepts it); see src/mcp/logging.ts.
    { capabilities: { tools: { listChanged: false }, prompts: { listChanged: false }, logging: {} }, instructions: INSTRUCTIONS },
  );
  const advertised: ReadonlySet<string> = new Set(advertisedTools(scope.toolset).map((t) => t.name));
  server.setRequestHandler('tools/list', guarded('tools/list', async () => ({
    // The display title rides in annotations only (every protocol revision reads it there); hints that carry no
    // information are left out (advertisedAnnotations): the core list has a token budget.
    tools: advertisedTools(scope.toolset).map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: advertisedInputSchema(t) as { type: 'object' },
      outputSchema: advertisedOutputSchema(t) as { type: 'object' },
      annotations: advertisedAnnotations(t),
    })),
  })));
  server.setRequestHandler('tools/call', guarded('tools/call', async (request, ctx) => {
    const lane = new McpLane(ctx.mcpReq as unknown as LaneRequest, modern);
    const { name, arguments: args, _meta: inboundMeta } = request.params;
    const tool = findTool(name);
    if (!tool) {
      const err = unknownTool(name);
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${err.message}; available: ${TOOLS.map((t) => t.name).join(', ')}`, await errorData(scope, err));
    }
    const metaSession = (inboundMeta as { session_id?: unknown } | undefined)?.session_id;
    const outcome = await runTool(tool, args ?? {}, {
      ...scope,
      surface: 'mcp',
      sessionId: typeof metaSession === 'string' && metaSession ? metaSession : scope.sessionHeader,
      render: mcpModelText,
      advertised,
      registry: REGISTRY,
      progress: async (done, total, message) => {
        await lane.progress(done, total, message);
        await lane.log('info', { tool: name, message, done, total });
      },
    });
    scope.onReads?.(outcome.reads);
    const drift = outcome.meta.binary_drift_warning;
    if (drift) await lane.log('warning', { message: `schema drift: ${drift.remediation}`, binary_drift_warning: drift });
    return toCallToolResult(outcome);
  }));
  server.setRequestHandler('prompts/list', guarded('prompts/list', async () => ({ prompts: [...PROMPTS] })));
  server.setRequestHandler('prompts/get', guarded('prompts/get', async (request) => {
    try {
      return await getPrompt(request.params.name, request.params.arguments, { ...scope, surface: 'mcp', sessionId: scope.sessionHeader, advertised, registry: REGISTRY });
    } catch (err) {
      if (err instanceof PincherError) throw new ProtocolError(ProtocolErrorCode.InvalidParams, err.message, await errorData(scope, err));
      throw err;
    }
  }));
  return server;
}
