import * as z from 'zod';
import { PincherError } from '../errors';
import { countTokens, tokenMode } from '../envelope/tokens';
import type { BaselineMethod } from '../envelope/types';
import { didYouMean } from '../util/did-you-mean';
import { defineTool, type ToolContext, type ToolDef } from './define';
import { parseSymbolId } from '../symbols/symbol-id';
import { runSubTool, type SubCallMeta, type SubCallOutcome } from './run';

export const MAX_CALLS = 12;
export const DEFAULT_BATCH_TOKENS = 8000;
export const MIN_BATCH_TOKENS = 500;
export const MAX_BATCH_TOKENS = 50_000;
/** Ids spliced into an `ids` argument (the `symbols` limit). */
export const MAX_SPLICED_IDS = 100;
/** grep's `path` glob is at most this long; spliced files stop before it. */
const MAX_GLOB_CHARS = 1000;
/** Next steps lifted from entries into the batch's own next_steps. */
const MAX_LIFTED_STEPS = 8;

const typedEntry = z.object({
  code: z.string(),
  severity: z.enum(['info', 'warning', 'error']),
  message: z.string(),
  data: z.record(z.string(), z.unknown()).optional(),
});

const entry = z.object({
  tool: z.string(),
  status: z.enum(['ok', 'error', 'skipped']),
  result: z.record(z.string(), z.unknown()).optional().describe('The tool result (status ok).'),
  error: z
    .object({ code: z.string(), message: z.string(), suggestion: z.string().optional(), details: z.record(z.string(), z.unknown()).optional() })
    .optional()
    .describe('The typed error (status error).'),
  _meta: z
    .object({ tokens_used: z.number(), empty_reason: z.string().optional(), warnings_v2: z.array(typedEntry).optional() })
    .describe("The entry's own slim envelope; skipped entries carry a budget_truncated warning and tokens_used 0."),
});
type Entry = z.infer<typeof entry>;

const call = z.strictObject({
  tool: z.string(),
  args: z.unknown().optional(),
  from: z
    .number()
    .int()
    .optional()
    .describe('Earlier entry index: its symbol ids (≤100) fill ids, else id (first), else path (first file; grep: all); args must omit it.'),
});
type Call = z.infer<typeof call>;

export const batchTool = defineTool({
  name: 'batch',
  title: 'Batch read calls',
  description:
    'Up to 12 read-tool calls; entries[i] = {tool, status, result|error, _meta}; ' +
    'a failing entry (unknown/write tool, batch, bad from) fails alone.',
  tier: 'standard',
  toolset: 'core',
  // Declared fallback; each call declares the entries' common baseline method with the summed baseline (see aggregate()).
  baseline: 'none',
  input: z.object({
    calls: z.array(call).min(1).max(MAX_CALLS).describe('1–12; args default {}.'),
    project: z.string().optional().describe("Entries' default project"),
    max_tokens: z
      .number()
      .int()
      .min(MIN_BATCH_TOKENS)
      .max(MAX_BATCH_TOKENS)
      .default(DEFAULT_BATCH_TOKENS)
      .describe(`Entries' tokens_used budget, ${MIN_BATCH_TOKENS}–${MAX_BATCH_TOKENS}, default ${DEFAULT_BATCH_TOKENS}; overflow skipped (budget_truncated), re-run step.`),
  }),
  output: z.object({ entries: z.array(entry) }),
  handler: async (args, ctx) => {
    const runs: Promise<Ran>[] = [];
    // Entries only declare their baselines; the batch's own seam credits each file once (aggregate()).
    args.calls.forEach((c, i) => runs.push(runEntry(i, c, args.project, ctx, runs)));
    const ran = await Promise.all(runs);

    const maxTokens = args.max_tokens;
    let remaining = maxTokens;
    const entries: Entry[] = [];
    const skipped: Ran[] = [];
    for (const r of ran) {
      const tokens = r.meta.tokens_used;
      if (tokens > remaining) {
        skipped.push(r);
        entries.push({
          tool: r.tool,
          status: 'skipped',
          _meta: {
            tokens_used: 0,
            warnings_v2: [
              {
                code: 'budget_truncated',
                severity: 'warning',
                message: `this entry needs ${tokens} tokens and ${remaining} of max_tokens ${maxTokens} were left`,
                data: { tokens, remaining },
              },
            ],
          },
        });
        continue;
      }
      remaining -= tokens;
      entries.push(
        r.outcome.ok
          ? { tool: r.tool, status: 'ok', result: r.outcome.result, _meta: r.meta }
          : { tool: r.tool, status: 'error', error: r.outcome.error.toBody(), _meta: r.meta },
      );
    }
    if (skipped.length) rerunSkipped(ctx, skipped, maxTokens);
    liftSteps(ctx, ran, skipped);
    scopeAndEmpty(ctx, ran);
    aggregate(ctx, ran, skipped);
    return { entries };
  },
});


/** One entry after it ran (or was refused before the seam). */
interface Ran {
  index: number;
  tool: string;
  /** The arguments it ran with: batch project and spliced values filled in. */
  args: Record<string, unknown>;
  outcome: { ok: true; result: Record<string, unknown> } | { ok: false; error: PincherError };
  meta: SubCallMeta;
  collector?: SubCallOutcome['collector'];
}

function refused(index: number, tool: string, args: Record<string, unknown>, error: PincherError, ctx: ToolContext): Ran {
  // Counted as the seam counts an entry's payload.
  const meta: SubCallMeta = { tokens_used: countTokens(JSON.stringify({ error: error.toBody() }), tokenMode(ctx.env.PINCHER_TOKEN_ACCOUNTING)) };
  return { index, tool, args, outcome: { ok: false, error }, meta };
}

async function runEntry(index: number, c: Call, project: string | undefined, ctx: ToolContext, runs: readonly Promise<Ran>[]): Promise<Ran> {
  const tool = ctx.registry.find(c.tool);
  const raw = c.args;
  const args: Record<string, unknown> = raw && typeof raw === 'object' && !Array.isArray(raw) ? { ...(raw as Record<string, unknown>) } : {};
  const fail = (error: PincherError) => refused(index, c.tool.slice(0, 100), args, error, ctx);
  if (!tool) {
    const guess = didYouMean(c.tool, [...ctx.registry.names]);
    return fail(
      new PincherError('unknown_tool', `calls[${index}]: no tool named '${c.tool.slice(0, 100)}'`, {
        suggestion: guess ? `did you mean '${guess}'? GET /v1/tools lists every tool` : 'GET /v1/tools lists every tool',
        ...(guess ? { details: { did_you_mean: guess } } : {}),
      }),
    );
  }
  if (tool.name === 'batch') {
    return fail(
      new PincherError('invalid_params', `calls[${index}]: batch cannot run inside batch`, {
        suggestion: 'put the inner calls into this batch (up to 12), or send a second batch',
      }),
    );
  }
  if (!tool.annotations.readOnlyHint) {
    return fail(
      new PincherError('invalid_params', `calls[${index}]: ${tool.name} writes, and batch runs read tools only`, {
        suggestion: `call ${tool.name} on its own`,
      }),
    );
  }
  if (raw !== undefined && raw !== null && (typeof raw !== 'object' || Array.isArray(raw))) {
    return fail(
      new PincherError('invalid_params', `calls[${index}].args must be a JSON object`, {
        suggestion: `pass the arguments of ${tool.name} as an object, e.g. {"project": "…"}`,
      }),
    );
  }
  const shape = tool.input.shape as Record<string, unknown>;
  if (project !== undefined && 'project' in shape && (args.project === undefined || args.project === null || args.project === '')) {
    args.project = project;
  }
  let dropped: Dropped | null = null;
  if (c.from !== undefined) {
    if (c.from < 0 || c.from >= index) {
      return fail(
        new PincherError('invalid_params', `calls[${index}].from is ${c.from}: from must name an earlier entry`, {
          suggestion: index === 0 ? 'the first call cannot chain: drop from' : `use an index from 0 to ${index - 1}, or drop from`,
          details: { issues: [{ param: `calls.${index}.from`, message: index === 0 ? 'no earlier entry' : `must be 0–${index - 1}` }] },
        }),
      );
    }
    const spliced = splice(index, tool, args, await runs[c.from]);
    if (spliced instanceof PincherError) return fail(spliced);
    dropped = spliced;
  }
  const sub = await runSubTool(tool, args, ctx);
  const meta = sub.meta;
  if (dropped) {
    meta.warnings_v2 = [
      ...(meta.warnings_v2 ?? []),
      {
        code: 'splice_truncated',
        severity: 'info',
        message: `from=${c.from} had ${dropped.total} ${dropped.field === 'ids' ? 'symbol ids' : 'files'}; ${dropped.field} took the first ${dropped.kept}`,
        data: { field: dropped.field, total: dropped.total, kept: dropped.kept },
      },
    ];
  }
  return { index, tool: tool.name, args, outcome: sub.ok ? { ok: true, result: sub.result } : { ok: false, error: sub.error }, meta, collector: sub.collector };
}

/** Which argument a chained call fills, in order of preference, and what feeds it. */
const SPLICE_FIELDS = ['ids', 'id', 'path'] as const;
type SpliceField = (typeof SPLICE_FIELDS)[number];

/** What a splice left out: an `ids` list over its limit, or files past grep's glob length. */
interface Dropped {
  field: SpliceField;
  total: number;
  kept: number;
}

/**
 * Fills `args` from the earlier entry `source`: `ids` with its symbol ids (every
 * `id` value of its result shaped like a symbol id, in document order, first
 * 100), `id` with the first of them, `path` with the first file path (`path`
 * or `file_path` values, folders skipped) — for grep, whose `path` is a glob,
 * every file as `./{a,b,…}` up to the glob's length limit. Returns the error
 * for the entry, what was left out (null when nothing was), or null.
 */
function splice(index: number, tool: ToolDef, args: Record<string, unknown>, source: Ran): PincherError | Dropped | null {
  const shape = tool.input.shape as Record<string, unknown>;
  const field = SPLICE_FIELDS.find((f) => f in shape);
  const where = `calls[${index}].from=${source.index}`;
  if (!field) {
    return new PincherError('invalid_params', `${where}: ${tool.name} takes none of ids, id or path, so there is nothing to fill`, {
      suggestion: `drop from and pass ${tool.name}'s arguments in args`,
    });
  }
  if (args[field] !== undefined && args[field] !== null && args[field] !== '') {
    return new PincherError('invalid_params', `${where} fills ${field}, which args already sets`, {
      suggestion: `drop ${field} from args, or drop from`,
    });
  }
  if (!source.outcome.ok) {
    return new PincherError('not_found', `${where}: entry ${source.index} (${source.tool}) failed with ${source.outcome.error.code}; nothing to splice into ${field}`, {
      suggestion: `fix entry ${source.index} first (its error says how), then run this call again`,
    });
  }
  const values = field === 'path' ? filePaths(source.outcome.result) : symbolIds(source.outcome.result);
  if (values.length === 0) {
    const what = field === 'path' ? 'file paths' : 'symbol ids';
    return new PincherError('not_found', `${where}: entry ${source.index} (${source.tool}) returned no ${what} to splice into ${field}`, {
      suggestion: `entry ${source.index} came back ${source.meta.empty_reason ? `empty (${source.meta.empty_reason})` : `without ${what}`}; widen it, or pass ${field} in args`,
    });
  }
  if (field === 'ids') {
    args.ids = values.slice(0, MAX_SPLICED_IDS);
    return values.length > MAX_SPLICED_IDS ? { field, total: values.length, kept: MAX_SPLICED_IDS } : null;
  }
  if (field === 'id' || tool.name !== 'grep') {
    args[field] = values[0];
    return null;
  }
  const glob = fileGlob(values);
  args.path = glob.glob;
  return glob.kept < values.length ? { field, total: values.length, kept: glob.kept } : null;
}

/** Files as one grep glob anchored at the root: `./{a,b,…}`, glob characters escaped, as many as fit its length limit (at least one). */
function fileGlob(values: readonly string[]): { glob: string; kept: number } {
  const parts: string[] = [];
  let length = 4;
  for (const v of values) {
    const escaped = v.replace(/[\\*?[\]{},]/g, (ch) => `\\${ch}`);
    if (parts.length > 0 && length + escaped.length + 1 > MAX_GLOB_CHARS) break;
    parts.push(escaped);
    length += escaped.length + 1;
  }
  return { glob: parts.length === 1 ? `./${parts[0]}` : `./{${parts.join(',')}}`, kept: parts.length };
}

/** Every string under an `id` key that is shaped like a symbol id, depth-first in document order, without repeats. */
export function symbolIds(result: unknown): string[] {
  const out = new Set<string>();
  walk(result, (key, value) => {
    if (key === 'id' && typeof value === 'string' && parseSymbolId(value)) out.add(value);
  });
  return [...out];
}

/** Every string under a `path` or `file_path` key (objects of type 'dir' skipped), depth-first in document order, without repeats. */
export function filePaths(result: unknown): string[] {
  const out = new Set<string>();
  walk(result, (key, value, owner) => {
    if ((key === 'path' || key === 'file_path') && typeof value === 'string' && value !== '' && owner.type !== 'dir') out.add(value);
  });
  return [...out];
}

function walk(node: unknown, visit: (key: string, value: unknown, owner: Record<string, unknown>) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, visit);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const owner = node as Record<string, unknown>;
  for (const [key, value] of Object.entries(owner)) {
    visit(key, value, owner);
    walk(value, visit);
  }
}

/** Arguments that re-run an entry on its own: resolved, with the project its run resolved. */
function standalone(r: Ran, ctx: ToolContext): Record<string, unknown> {
  const { _meta: _drop, ...args } = r.args;
  const tool = ctx.registry.find(r.tool);
  const project = r.collector?.project?.name;
  if (tool && project && 'project' in (tool.input.shape as Record<string, unknown>) && args.project === undefined) args.project = project;
  return args;
}

/**
 * Skipped entries get one step: a batch of just them with a max_tokens that
 * fits them, or — when together they exceed the largest budget — one direct
 * call per entry (a single tool call has no batch budget).
 */
function rerunSkipped(ctx: ToolContext, skipped: readonly Ran[], maxTokens: number): void {
  const need = skipped.reduce((n, r) => n + r.meta.tokens_used, 0);
  const list = skipped.map((r) => r.index).join(', ');
  ctx.meta.warn('budget_truncated', `${skipped.length} entr${skipped.length === 1 ? 'y' : 'ies'} (${list}) did not fit max_tokens ${maxTokens}: they need ${need} more tokens`, {
    skipped: skipped.map((r) => r.index),
    needed: need,
    max_tokens: maxTokens,
  });
  if (need <= MAX_BATCH_TOKENS) {
    const calls = skipped.map((r) => ({ tool: r.tool, args: standalone(r, ctx) }));
    ctx.meta.next('batch', need > DEFAULT_BATCH_TOKENS ? { calls, max_tokens: need } : { calls }, `re-run the ${skipped.length} skipped entr${skipped.length === 1 ? 'y' : 'ies'} (${list})`);
    return;
  }
  for (const r of skipped) ctx.meta.next(r.tool, standalone(r, ctx), `re-run skipped entry ${r.index} on its own (${r.meta.tokens_used} tokens)`);
}

/** The next steps of returned entries, prefixed with their index, so the model sees them in the batch notice. */
function liftSteps(ctx: ToolContext, ran: readonly Ran[], skipped: readonly Ran[]): void {
  let lifted = 0;
  for (const r of ran) {
    if (skipped.includes(r) || !r.collector) continue;
    for (const step of r.collector.nextSteps) {
      if (lifted >= MAX_LIFTED_STEPS) return;
      ctx.meta.next(step.tool, step.args, `entry ${r.index}: ${step.why}`);
      lifted++;
    }
  }
}

/**
 * The batch names the project its entries resolved when they all resolved the
 * same one; it is empty only when every entry answered empty for one reason.
 */
function scopeAndEmpty(ctx: ToolContext, ran: readonly Ran[]): void {
  const projects = new Map(ran.flatMap((r) => (r.collector?.project ? [[r.collector.project.id, r.collector.project] as const] : [])));
  if (projects.size === 1) ctx.meta.scope([...projects.values()][0]);
  const reasons = new Set(ran.map((r) => (r.outcome.ok ? r.collector?.emptyReason : undefined)));
  const [reason] = [...reasons];
  if (reasons.size === 1 && reason) {
    const first = ran[0].collector?.diagnosis ?? reason;
    ctx.meta.empty(reason, ran.length === 1 ? `entry 0 (${ran[0].tool}) is empty: ${first}` : `all ${ran.length} entries are empty (${reason}); entry 0: ${first}`, {
      entries: ran.length,
    });
  }
}

/**
 * The batch baseline is the sum of its parts, each file counted once: the
 * union of the entries' whole-file reads plus their other native output
 * (grep lines, line ranges, listings). An entry that delivered nothing the
 * baseline would have (empty, error, baseline none) counts its own
 * tokens_used: it saved nothing. Skipped entries count nothing (the caller
 * received nothing). One method across the entries keeps its name; mixed
 * methods are `sum_of_parts`.
 */
function aggregate(ctx: ToolContext, ran: readonly Ran[], skipped: readonly Ran[]): void {
  const methods = new Set<BaselineMethod>();
  let tokens = 0;
  for (const r of ran) {
    if (skipped.includes(r)) continue;
    const c = r.collector;
    if (!r.outcome.ok || !c || !c.baselineMethod || c.baselineMethod === 'none' || c.emptyReason) {
      tokens += r.meta.tokens_used;
      continue;
    }
    methods.add(c.baselineMethod);
    if (c.baselineOpen) {
      for (const [projectId, files] of c.baselineFiles) ctx.meta.baselineParts(c.baselineMethod, projectId, [...files].map(([path, size]) => ({ path, size })));
      ctx.meta.baselineParts(c.baselineMethod, null, [], c.baselineChars);
    } else tokens += c.baselineTokens ?? r.meta.tokens_used;
  }
  const method: BaselineMethod = methods.size === 1 ? [...methods][0] : methods.size > 1 ? 'sum_of_parts' : 'none';
  // Parts already settled in tokens (listings) ride as characters: tokensForBytes(4·t) = t.
  ctx.meta.baselineParts(method, null, [], 4 * tokens);
}
