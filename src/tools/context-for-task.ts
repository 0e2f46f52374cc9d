import * as z from 'zod';
import { PincherError } from '../errors';
import { tokensOf } from '../envelope/tokens';
import { calleesOf, callersOf, type Neighbour } from '../db/graph';
import type { ProjectRow } from '../db/projects';
import { findSeeds, type Seed } from '../composites/seeds';
import { taskTerms, type TaskTerms } from '../composites/task-terms';
import { fullFileReadBaseline } from './baseline';
import { defineTool, type ToolContext } from './define';
import { PROJECT_PARAM } from './describe';
import { resolveProjectWithFiles } from './project-scope';
import { explainNoSymbols } from './no-symbols';
import { lookupIds, outlinesFor } from './read/lookup';
import { outlineEntry } from './read/view';
import { MAX_IDS } from './symbols';
import { graphLag, nodeOut, symbolSpanOut, warnCoverage, warnGraphPending } from './graph-common';

export const MAX_TASK_CHARS = 2000;
const DEFAULT_MAX_TOKENS = 4000;
const DEFAULT_SEEDS = 3;
/** Callers and callees read per seed set and direction. */
const NEIGHBOUR_ROWS = 300;

const seedOut = symbolSpanOut.omit({ name: true }).extend({
  docstring: z.string().optional(),
  via: z.enum(['name', 'path', 'search_all_words', 'search_any_word']).describe('how the task found it'),
  matched: z.string().describe('the identifier, path or words that found it'),
  outline: z.array(outlineEntry).optional().describe('nested symbols (skeleton), when the source is not carried'),
  source: z.string().optional().describe('carried when the budget allows'),
});
type SeedOut = z.infer<typeof seedOut>;

const relatedOut = nodeOut.extend({
  relation: z.enum(['caller', 'callee']),
  of: z.string().describe('the seed it calls or is called by'),
  call_line: z.number(),
  confidence: z.number(),
});
type RelatedOut = z.infer<typeof relatedOut>;

const output = z.object({
  seeds: z.array(seedOut).describe('best first'),
  related: z.array(relatedOut),
  dropped: z.array(z.string()).optional().describe('ids left out by max_tokens'),
  unresolved: z.array(z.string()).optional().describe('names and paths of the task that match nothing indexed'),
  used_tokens: z.number(),
  max_tokens: z.number(),
});
type Output = z.infer<typeof output>;

export const contextForTaskTool = defineTool({
  name: 'context_for_task',
  title: 'Starting context for a task',
  description:
    'From a task in plain words: seed symbols (names the task spells, files it mentions, then BM25 over its words: all words, ' +
    'then any word), each with its skeleton and its callers and callees one hop away, then seed sources while max_tokens allows. ' +
    'Items the budget leaves out are listed in dropped with a budget_truncated warning and a symbols next step.',
  tier: 'heavy',
  toolset: 'full',
  baseline: 'full_file_read',
  input: z.object({
    project: z.string().optional().describe(PROJECT_PARAM),
    task: z
      .string()
      .min(1)
      .max(MAX_TASK_CHARS)
      .describe('What you are about to do, 1–2000 characters; name symbols (`Class.method`), files (src/x.ts) or behaviour. Text with nothing to search for is invalid_params.'),
    max_tokens: z.number().int().min(200).max(50_000).default(DEFAULT_MAX_TOKENS).describe('Budget for seeds and related entries, chars/4: 200–50000, default 4000.'),
    seeds: z.number().int().min(1).max(5).default(DEFAULT_SEEDS).describe('Seed symbols: 1–5, default 3.'),
  }),
  output,
  handler: async (args, ctx) => {
    const terms = taskTerms(args.task);
    if (terms.identifiers.length + terms.paths.length + terms.words.length === 0) {
      throw new PincherError('invalid_params', 'invalid arguments for context_for_task: the task names nothing to search for (only filler words)', {
        suggestion: 'name a symbol (`Server.start`), a file (src/app.ts) or the behaviour in content words (e.g. "retry failed uploads")',
        details: { issues: [{ param: 'task', message: 'no identifier, path or content word' }] },
      });
    }
    const empty: Output = { seeds: [], related: [], used_tokens: 0, max_tokens: args.max_tokens };
    const project = await resolveProjectWithFiles(ctx, args.project);
    if (!project) return empty;
    const found = await findSeeds(ctx.db, project.id, terms, args.seeds);
    const unresolved = found.unresolved.length ? { unresolved: found.unresolved } : {};
    if (found.seeds.length === 0) {
      explainNoSeeds(ctx, project, terms, found.unresolved);
      fullFileReadBaseline(ctx, project.id, []);
      return { ...empty, ...unresolved };
    }
    return { ...(await assemble(ctx, project, found.seeds, args.max_tokens)), ...unresolved };
  },
});

async function assemble(ctx: ToolContext, project: ProjectRow, seeds: readonly Seed[], maxTokens: number): Promise<Output> {
  const ids = seeds.map((s) => s.row.id);
  const lag = graphLag(project);
  // The seeds' rows are at hand: their outlines are read by them, in the same round trip as their sources and neighbours.
  const [full, outlines, callers, callees] = await Promise.all([
    lookupIds(ctx, project.id, ids, { detail: 'full', fields: ['source'] }),
    outlinesFor(ctx, project.id, seeds.map((s) => s.row)),
    callersOf(ctx.db, project.id, ids, { kinds: ['CALLS'], limit: NEIGHBOUR_ROWS }),
    calleesOf(ctx.db, project.id, ids, { kinds: ['CALLS'], limit: NEIGHBOUR_ROWS }),
  ]);
  warnGraphPending(ctx, lag);
  let left = maxTokens - tokensOf({ seeds: [], related: [] });
  const dropped: string[] = [];

  // 1. Every seed as a skeleton (signature, docstring, outline); without its outline when that alone is over.
  const chosen: SeedOut[] = [];
  for (const s of seeds) {
    const r = s.row;
    const head: SeedOut = {
      id: r.id,
      kind: r.kind,
      file_path: r.file_path,
      start_line: r.start_line,
      end_line: r.end_line,
      signature: r.signature,
      ...(r.docstring ? { docstring: r.docstring } : {}),
      via: s.via,
      matched: s.matched,
    };
    const outline = outlines.get(r.id) ?? [];
    const withOutline: SeedOut = outline.length ? { ...head, outline } : head;
    const entry = tokensOf(withOutline) + 1 <= left ? withOutline : head;
    const cost = tokensOf(entry) + 1;
    if (cost > left) {
      dropped.push(r.id);
      continue;
    }
    left -= cost;
    chosen.push(entry);
  }

  // 2. Callers and callees, interleaved seed by seed, most confident first.
  const related: RelatedOut[] = [];
  for (const n of interleave(chosen.map((c) => c.id), callers, callees)) {
    const entry = relatedView(n.neighbour, n.relation);
    const cost = tokensOf(entry) + 1;
    if (cost > left) {
      if (entry.id) dropped.push(entry.id);
      continue;
    }
    left -= cost;
    related.push(entry);
  }

  // 3. Seed sources, best seed first, replacing the skeleton when the difference fits.
  for (const [k, entry] of chosen.entries()) {
    const source = full.found.get(entry.id)?.source;
    if (source === undefined) continue;
    const { outline: _o, ...rest } = entry;
    const upgraded = { ...rest, source };
    const extra = tokensOf(upgraded) - tokensOf(entry);
    if (extra <= left) {
      left -= extra;
      chosen[k] = upgraded;
    }
  }

  const withoutSource = chosen.filter((c) => c.source === undefined).map((c) => c.id);
  if (dropped.length > 0) {
    ctx.meta.warn('budget_truncated', `max_tokens ${maxTokens} left out ${dropped.length} item(s); next_steps fetches them`, { max_tokens: maxTokens, dropped });
    ctx.meta.next('symbols', { project: project.name, ids: [...new Set(dropped)].slice(0, MAX_IDS) }, `fetch the ${Math.min(dropped.length, MAX_IDS)} item(s) max_tokens left out`);
  }
  if (withoutSource.length > 0) {
    ctx.meta.next('symbols', { project: project.name, ids: withoutSource.slice(0, MAX_IDS) }, 'the source of the seeds shown as skeletons');
  }
  if (chosen.length === 0) {
    ctx.meta.empty('cap_dropped_all', `max_tokens ${maxTokens} is too small for even one seed's signature`, { cap: 'max_tokens', max_tokens: maxTokens });
  }
  if (related.length === 0 && callers.length + callees.length === 0) {
    for (const language of new Set(seeds.map((s) => s.row.language))) warnCoverage(ctx, language);
  }
  const files = new Map(seeds.filter((s) => chosen.some((c) => c.id === s.row.id)).map((s) => [s.row.file_path, s.row.file_size]));
  fullFileReadBaseline(ctx, project.id, [...files].map(([path, size]) => ({ path, size })));
  const body = { seeds: chosen, related };
  return { ...body, ...(dropped.length ? { dropped } : {}), used_tokens: tokensOf(body), max_tokens: maxTokens };
}

/** Neighbours in reading order: per seed its callees then its callers, each by confidence, deduplicated per seed. */
function interleave(seedIds: readonly string[], callers: readonly Neighbour[], callees: readonly Neighbour[]): { neighbour: Neighbour; relation: 'caller' | 'callee' }[] {
  const out: { neighbour: Neighbour; relation: 'caller' | 'callee' }[] = [];
  for (const id of seedIds) {
    for (const [list, relation] of [[callees, 'callee'], [callers, 'caller']] as const) {
      const seen = new Set<string>();
      const mine = list
        .filter((n) => n.of === id)
        .sort((a, b) => b.confidence - a.confidence || a.line - b.line)
        .filter((n) => {
          const key = n.node.id ?? `${n.node.file}::`;
          return key !== id && !seen.has(key) && seen.add(key);
        });
      for (const neighbour of mine) out.push({ neighbour, relation });
    }
  }
  return out;
}

function relatedView(n: Neighbour, relation: 'caller' | 'callee'): RelatedOut {
  return { id: n.node.id, name: n.node.name, kind: n.node.kind, file: n.node.file, line: n.node.line, relation, of: n.of, call_line: n.line, confidence: n.confidence };
}

/** No seed: a spelled name or path that resolves to nothing is target_not_resolved; plain words that match nothing, no_results_in_corpus. */
function explainNoSeeds(ctx: ToolContext, project: ProjectRow, terms: TaskTerms, unresolved: readonly string[]): void {
  if (explainNoSymbols(ctx, project, terms.identifiers[0] ?? terms.paths[0]?.path ?? terms.words[0], 'no task term')) return;
  const spelled = terms.identifiers.length + terms.paths.length > 0;
  const words = terms.words.slice(0, 6);
  if (spelled) {
    ctx.meta.empty('target_not_resolved', `nothing in project '${project.name}' is named ${unresolved.slice(0, 5).map((u) => `'${u}'`).join(', ')}, and no symbol matches the task's words (${words.join(', ')})`, {
      unresolved: unresolved.slice(0, 20),
      words,
    });
  } else {
    ctx.meta.empty('no_results_in_corpus', `no symbol of project '${project.name}' matches any of the task's words (${words.join(', ')})`, { words });
  }
  const probe = terms.identifiers[0] ?? terms.paths[0]?.path ?? words[0];
  if (probe) ctx.meta.next('grep', { project: project.name, pattern: probe, literal: true }, `look for '${probe}' in comments, strings and unextracted files`);
  ctx.meta.next('list', {}, 'check that this is the project you meant');
}
