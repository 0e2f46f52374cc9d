import * as z from 'zod';
import { LANGUAGES } from '../extract';
import { graphState, uncalledSymbols, type UncalledRow } from '../db/graph';
import { CALLABLE_KINDS } from '../db/uncalled-sql';
import { graphCoverage, type GraphCoverage } from '../graph/coverage';
import { fullFileReadBaseline } from './baseline';
import { defineTool, type ToolContext } from './define';
import { globArg, globParamText } from './params';
import { resolveProject } from './project-scope';
import { explainNoSymbols } from './no-symbols';
import type { Glob } from '../util/glob';
import { graphLag, warnGraphPending } from './graph-common';

const DEFAULT_LIMIT = 50;
const MAX_OFFSET = 10_000;
/** Candidate rows read per call; past it the answer says total is a lower bound. */
const CANDIDATE_CEILING = 5000;

/**
 * Entry points by convention, never reported: program entries (main, Go
 * init), constructors (constructor, __init__ and every __dunder__ method
 * Python calls implicitly) and event handlers wired up by name (on*, handle*
 * followed by an upper-case letter).
 */
export function isEntryPoint(name: string): boolean {
  return name === 'main' || name === 'init' || name === 'constructor' || /^__\w+__$/.test(name) || /^(?:on|handle)[A-Z]/.test(name);
}

/**
 * How sure the answer is that a symbol is dead: 0.9 for a function, 0.75 for
 * a method (calls through interfaces and dynamic dispatch are not resolved),
 * 0.4 in a language whose edges stay inside a file (callers elsewhere are
 * invisible); times (1 − c) when a CALLS edge of confidence c under the floor
 * reaches it.
 */
export function deadConfidence(row: Pick<UncalledRow, 'kind' | 'best_below'>, coverage: GraphCoverage): number {
  const base = coverage === 'cross_file' ? (row.kind === 'Method' ? 0.75 : 0.9) : 0.4;
  return Math.round(base * (1 - (row.best_below ?? 0)) * 100) / 100;
}

const LANGUAGE_IDS = new Set(LANGUAGES.map((l) => l.id));

const deadOut = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.string(),
  file: z.string(),
  line: z.number(),
  end_line: z.number(),
  language: z.string(),
  signature: z.string(),
  confidence: z.number().describe('how sure the symbol is unused, 0..1'),
  weak_caller: z.number().optional().describe('best confidence of a CALLS edge into it that stayed under min_confidence'),
});

const input = z.object({
  project: z.string().optional().describe('Project name; defaults to the ?project= pin of the MCP URL.'),
  min_confidence: z
    .number()
    .min(0)
    .max(1)
    .default(0.95)
    .describe('0–1, default 0.95: only CALLS edges at least this confident count as callers.'),
  language: z
    .string()
    .max(50)
    .optional()
    .describe(
      'Only this language (id as health lists it, any case, at most 50 characters). Languages whose edges stay inside a file are left out ' +
        'unless named here; an id without an extractor is empty with unsupported_language.',
    ),
  path: z.string().max(500).optional().describe(globParamText(500)),
  kind: z.enum(CALLABLE_KINDS).optional().describe('Function or Method; default both.'),
  limit: z.number().int().min(1).max(200).default(DEFAULT_LIMIT).describe(`Results per page, 1–200, default ${DEFAULT_LIMIT}.`),
  offset: z.number().int().min(0).max(MAX_OFFSET).default(0).describe(`Results to skip, 0–${MAX_OFFSET}, default 0. Past the last one: empty with cap_dropped_all.`),
});

type Args = z.output<typeof input>;

export const deadCodeTool = defineTool({
  name: 'dead_code',
  title: 'Uncalled functions and methods',
  description:
    'Functions and methods nothing calls: not exported, not tests, not entry points (main, init, constructor, __dunder__, on*/handle* handlers), ' +
    'with no inbound CALLS edge at min_confidence nor, with SCIP, any other reference. Each result has a confidence (lower for methods, weakly called symbols and ' +
    'same-file-only languages). Paginated with limit/offset (total, has_more, next_offset).',
  tier: 'heavy',
  toolset: 'full',
  baseline: 'full_file_read',
  input,
  output: z.object({ dead: z.array(deadOut), total: z.number(), has_more: z.boolean(), next_offset: z.number().optional() }),
  handler: async (args, ctx) => {
    const glob = args.path === undefined ? undefined : globArg('dead_code', 'path', args.path);
    const empty = { dead: [], total: 0, has_more: false };
    const project = await resolveProject(ctx, args.project);
    if (!project) return empty;
    const language = args.language?.toLowerCase();
    const step = (over: Record<string, unknown>) => stepArgs(args, project.name, over);
    if (language !== undefined && !LANGUAGE_IDS.has(language)) {
      ctx.meta.empty('unsupported_language', `no extractor for language '${args.language}', so it has no symbols or edges`, { language: args.language });
      ctx.meta.next('health', {}, 'list the languages with an extractor');
      fullFileReadBaseline(ctx, project.id, []);
      return empty;
    }
    if (language !== undefined && graphCoverage(language) === 'none') {
      ctx.meta.empty('cross_file_unavailable', `${language} has no edge graph (its extractor emits no references), so no caller can be seen`, { language });
      ctx.meta.next('health', { project: project.name }, 'see which languages of the project carry edges');
      fullFileReadBaseline(ctx, project.id, []);
      return empty;
    }
    const lag = graphLag(project);
    if (lag.pending && !(await graphState(ctx.db, project.id))?.hasEdges) {
      ctx.meta.empty('stale_index', `the call graph of '${project.name}' is not built yet for its last push, so every function would look uncalled; retry shortly or re-index`, {});
      ctx.meta.next('health', { project: project.name }, 'see the state of the index');
      fullFileReadBaseline(ctx, project.id, []);
      return empty;
    }
    warnGraphPending(ctx, lag);

    const rows = await uncalledSymbols(ctx.db, project.id, {
      kinds: args.kind ? [args.kind] : CALLABLE_KINDS,
      minConfidence: args.min_confidence,
      language,
      limit: CANDIDATE_CEILING + 1,
    });
    const cut = rows.length > CANDIDATE_CEILING;
    if (cut) rows.length = CANDIDATE_CEILING;
    const entries = rows.filter((r) => isEntryPoint(r.name));
    const callable = rows.filter((r) => !isEntryPoint(r.name));
    const inPath = glob ? callable.filter((r) => glob.test(r.file_path)) : callable;
    // Languages whose edges stay inside a file would report every function called from elsewhere: only when named.
    const partial = new Map<string, number>();
    const kept = inPath.filter((r) => {
      if (language !== undefined || graphCoverage(r.language) === 'cross_file') return true;
      partial.set(r.language, (partial.get(r.language) ?? 0) + 1);
      return false;
    });
    warnPartial(ctx, project.name, args, language, partial);
    if (cut) ctx.meta.warn('candidates_capped', `only the first ${CANDIDATE_CEILING} uncalled symbols were examined; narrow with path or language`, { ceiling: CANDIDATE_CEILING });

    const page = kept.slice(args.offset, args.offset + args.limit);
    const hasMore = args.offset + page.length < kept.length;
    if (page.length === 0) {
      // A project without one extracted symbol has nothing uncalled because nothing was extracted.
      if (!explainNoSymbols(ctx, project, undefined, 'no function')) {
        const narrowed = kept.length === 0 && (args.kind !== undefined || language !== undefined) ? await relaxedCount(ctx, project.id, args, glob) : 0;
        explainEmpty(ctx, project.name, args, { rows, entries, inPath, kept, partial, glob: args.path, narrowed }, step);
      }
    } else if (hasMore) {
      ctx.meta.next('dead_code', step({ offset: args.offset + page.length }), `fetch the next page (${kept.length - args.offset - page.length} more)`);
    }
    // Each row carries its file's size (the baseline counts a file once).
    fullFileReadBaseline(ctx, project.id, page.map((r) => ({ path: r.file_path, size: r.file_size })));
    return {
      dead: page.map((r) => ({
        id: r.id,
        name: r.name,
        kind: r.kind,
        file: r.file_path,
        line: r.start_line,
        end_line: r.end_line,
        language: r.language,
        signature: r.signature,
        confidence: deadConfidence(r, graphCoverage(r.language)),
        ...(r.best_below !== null ? { weak_caller: r.best_below } : {}),
      })),
      total: kept.length,
      has_more: hasMore,
      ...(hasMore ? { next_offset: args.offset + page.length } : {}),
    };
  },
});

function stepArgs(args: Args, project: string, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { project, min_confidence: args.min_confidence, limit: args.limit };
  if (args.language !== undefined) out.language = args.language;
  if (args.path !== undefined) out.path = args.path;
  if (args.kind !== undefined) out.kind = args.kind;
  for (const [k, v] of Object.entries(over)) {
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
}

function warnPartial(ctx: ToolContext, project: string, args: Args, language: string | undefined, partial: ReadonlyMap<string, number>): void {
  if (partial.size > 0) {
    const list = [...partial].map(([lang, n]) => `${lang} (${n})`).join(', ');
    ctx.meta.warn('graph_coverage', `left out ${list}: their references resolve within a file only, so callers in other files are invisible; pass language to list them anyway`, {
      excluded: Object.fromEntries(partial),
    });
    for (const lang of [...partial.keys()].slice(0, 3)) ctx.meta.next('dead_code', stepArgs(args, project, { language: lang, offset: undefined }), `list ${lang} candidates, with lowered confidence`);
  } else if (language !== undefined && graphCoverage(language) === 'same_file') {
    ctx.meta.warn('graph_coverage', `${language} references resolve within a file only: a symbol called only from other files is listed here too (confidence 0.4 or less)`, {
      language,
      coverage: 'same_file',
    });
  }
}

interface Funnel {
  rows: readonly UncalledRow[];
  entries: readonly UncalledRow[];
  inPath: readonly UncalledRow[];
  kept: readonly UncalledRow[];
  partial: ReadonlyMap<string, number>;
  glob?: string;
  /** Results without the kind and language filters (0 when neither was given). */
  narrowed: number;
}

/** Cross-file-resolved results without the kind and language filters, to tell a narrow filter from an empty project. */
async function relaxedCount(ctx: ToolContext, projectId: string, args: Args, path: Glob | undefined): Promise<number> {
  const rows = await uncalledSymbols(ctx.db, projectId, { kinds: CALLABLE_KINDS, minConfidence: args.min_confidence, limit: CANDIDATE_CEILING });
  return rows.filter((r) => !isEntryPoint(r.name) && (!path || path.test(r.file_path)) && graphCoverage(r.language) === 'cross_file').length;
}

function explainEmpty(ctx: ToolContext, project: string, args: Args, f: Funnel, step: (over: Record<string, unknown>) => Record<string, unknown>): void {
  if (f.kept.length > 0) {
    ctx.meta.empty('cap_dropped_all', `offset ${args.offset} is past the last of ${f.kept.length} result(s)`, { cap: 'offset', offset: args.offset, total: f.kept.length });
    ctx.meta.next('dead_code', step({ offset: 0 }), 'rewind to the first page');
    return;
  }
  if (f.glob !== undefined && f.inPath.length === 0 && f.rows.length > f.entries.length) {
    ctx.meta.empty('query_too_narrow', `${f.rows.length - f.entries.length} uncalled symbol(s) exist, but none in files matching path '${f.glob}'`, { filter: 'path' });
    ctx.meta.next('dead_code', step({ path: undefined, offset: undefined }), 'drop the path filter');
    return;
  }
  if (f.narrowed > 0) {
    const filters = [args.kind !== undefined ? 'kind' : '', args.language !== undefined ? 'language' : ''].filter(Boolean);
    ctx.meta.empty('query_too_narrow', `${f.narrowed} uncalled symbol(s) exist, but the ${filters.join(' and ')} filter excluded them all`, { filter: filters.join(',') });
    ctx.meta.next('dead_code', step({ kind: undefined, language: undefined, offset: undefined }), `drop the ${filters.join(' and ')} filter`);
    return;
  }
  if (f.partial.size > 0) {
    const [lang, n] = [...f.partial].sort((a, b) => b[1] - a[1])[0];
    ctx.meta.empty('same_file_only', `no cross-file-resolved language has an uncalled symbol; ${n} ${lang} candidate(s) were left out because ${lang} callers in other files are invisible`, { language: lang });
    // The step itself was added by warnPartial.
    return;
  }
  const strict = args.min_confidence < 1;
  ctx.meta.empty(
    'no_results_in_corpus',
    `every ${args.kind ?? 'function and method'} that is not exported, a test or an entry point has a caller at confidence ≥ ${args.min_confidence}${f.entries.length ? ` (${f.entries.length} uncalled entry point(s) not listed)` : ''}`,
    { min_confidence: args.min_confidence },
  );
  if (strict) ctx.meta.next('dead_code', step({ min_confidence: 1, offset: undefined }), 'count only import-resolved calls (confidence 1.0) as callers');
  else ctx.meta.next('health', { project }, 'check the languages and edge coverage of the project');
}
