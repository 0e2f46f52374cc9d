import type * as z from 'zod';
import type { Env, AccessScope } from '../env';
import type { MetaCollector } from '../envelope/collector';
import type { ProjectLookup } from './project-cache';
import type { CallDatabases } from '../db/project-shard';
import type { BaselineMethod, ComplexityTier } from '../envelope/types';

/** What a handler may use. It never sees the HTTP request or the MCP transport. */
export interface ToolContext {
  env: Env;
  /** The database holding the call's project (its `project` argument, else the URL pin); the primary when the call names none. */
  db: D1Database;
  /** Every shard of the call, for tools that span projects (list, health) and sub-calls (batch). */
  databases: CallDatabases;
  /** Project lookups through the per-isolate cache, checked in the call's own round trips (src/tools/project-cache.ts). Absent: look up in D1. */
  projects?: ProjectLookup;
  /** Add diagnosis, warnings, next steps, baseline and scope here; never build `_meta`. */
  meta: MetaCollector;
  requestId: string;
  /** Project pinned by the MCP URL (`?project=`) or REST query, used when `project` is omitted. */
  defaultProject?: string;
  scope: AccessScope;
  surface: 'mcp' | 'rest';
  waitUntil(promise: Promise<unknown>): void;
  /** Tools the client was shown; steps a result lists for other tools go through batch (src/tools/reach.ts). Absent: every tool. */
  advertised?: ReadonlySet<string>;
  /** Every tool the server serves (src/tools/registry.ts), for tools that call or name other tools. */
  registry: ToolRegistry;
  /** Reports progress of long work (files done of total) to a caller that asked for it (MCP progress tokens). Absent: nobody listens. */
  progress?: (done: number, total: number, message: string) => Promise<void>;
}

/** The tool list both surfaces serve, handed down through the call context so no tool imports the registry. */
export interface ToolRegistry {
  /** Every tool, in advertised order. */
  readonly tools: readonly ToolDef[];
  /** Every tool's name. */
  readonly names: ReadonlySet<string>;
  /** Names of the tools a read-only key may call. */
  readonly readNames: ReadonlySet<string>;
  find(name: string): ToolDef | undefined;
}

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export type Toolset = 'core' | 'full';

export interface ToolDef<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  /** Compact, provider-visible; states every runtime rule not carried by a parameter description. */
  description: string;
  tier: ComplexityTier;
  /** Advertised in the core list, or only with `toolset=full`. Every tool stays callable. */
  toolset: Toolset;
  /** Same arguments, same effect: safe to retry (OpenAPI `x-pincher-idempotent`). */
  idempotent: boolean;
  annotations: ToolAnnotations;
  input: I;
  output: O;
  /** How tokens_saved is computed for this tool (docs/envelope.md). */
  baseline: BaselineMethod;
  handler(args: z.output<I>, ctx: ToolContext): Promise<z.output<O>>;
}

/**
 * The one way to declare a tool: everything both surfaces need in one object.
 *
 * @example
 * export const healthTool = defineTool({
 *   name: 'health', title: 'Server and index health', description: '…',
 *   tier: 'lite', toolset: 'full',
 *   input: z.object({}), output: z.object({ ok: z.boolean() }), baseline: 'none',
 *   handler: async (_args, ctx) => ({ ok: true }),
 * });
 */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(spec: {
  name: string;
  title: string;
  description: string;
  tier: ComplexityTier;
  toolset: Toolset;
  /** What a tool that changes the index declares; absent: read-only, and so idempotent. */
  writes?: { idempotent: boolean; destructive?: boolean };
  input: I;
  output: O;
  baseline: BaselineMethod;
  handler: (args: z.output<I>, ctx: ToolContext) => Promise<z.output<O>>;
}): ToolDef<I, O> {
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    tier: spec.tier,
    toolset: spec.toolset,
    idempotent: spec.writes?.idempotent ?? true,
    annotations: {
      readOnlyHint: spec.writes === undefined,
      destructiveHint: spec.writes?.destructive ?? false,
      idempotentHint: spec.writes?.idempotent ?? true,
      openWorldHint: false,
    },
    input: spec.input,
    output: spec.output,
    baseline: spec.baseline,
    handler: spec.handler,
  };
}
