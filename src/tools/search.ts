import * as z from 'zod';
import { LANGUAGES, SYMBOL_KINDS } from '../extract';
import type { ProjectRow } from '../db/projects';
import {
  countStatement,
  missCounts,
  prefixMatch,
  resolvePathFilter,
  snippetFromWindow,
  searchStatement,
  translateQuery,
  MAX_BOUND_PARAMETERS,
  unsupportedFilesStatement,
  type MissQuestions,
  type SearchMatch,
  type SymbolFilters,
  type SymbolHitRow,
  type SearchRow,
  type TranslatedQuery,
} from '../db/search';
import { gapsOf, type ExtractionGap } from '../db/extraction-gaps';
import { TIER_SCORE, type NameRank } from '../db/search-rank';
import { PincherError } from '../errors';
import { clip, firstParagraph } from '../util/clip';
import { didYouMean } from '../util/did-you-mean';
import { startQueryGrepBaseline } from './baseline';
import { reportExtractionGaps, SHOWN_GAPS } from './extraction-gaps';
import { explainNoSymbols } from './no-symbols';
import { defineTool, type ToolContext } from './define';
import { resolveProjectWithFiles, staleness } from './project-scope';
import { PROJECT_PARAM } from './describe';
import { globArg, globParamText } from './params';


const CORPORA = ['code', 'config', 'docs'] as const;
const RESULT_FIELDS = [
  'id', 'name', 'qualified_name', 'kind', 'file_path', 'start_line', 'end_line', 'signature', 'docstring', 'language', 'score',
  'extraction_confidence', 'snippet',
] as const;
const LANGUAGE_IDS = LANGUAGES.map((l) => l.id);
const DEFAULT_LIMIT = 20;
/**
 * Without `limit`, a query that names a definition (exact-name hits on the
 * page) returns its exact hits and at most this many other names holding the
 * query (tier 1: prefixes, word parts), not the text matches below them
 * (a word in some signature or docstring); has_more and next_offset page on
 * to the rest.
 */
const DEFAULT_OTHERS = 5;
/** Scores from this one up are exact-name hits (tiers 2 and 3: see db/search-rank.ts). */
const EXACT_SCORE = 2 * TIER_SCORE;
/** A hit's signature and docstring (its first paragraph) are shortened to these, `…` marking a cut; `symbol` has them whole. */
const SIGNATURE_CHARS = 200;
const DOCSTRING_CHARS = 160;
const MAX_OFFSET = 5000;

const input = z.object({
  query: z
    .string()
    .min(1)
    .max(500)
    .describe(
      '1–500 chars: words (AND), auth* prefix, "phrase", OR, NOT (upper case), ( ). No match for all words: OR ' +
        '(and_fallback_or). Bad syntax: repaired (query_rewritten) or invalid_params with a corrected query.',
    ),
  project: z.string().optional().describe(PROJECT_PARAM),
  kind: z.enum(SYMBOL_KINDS).optional(),
  language: z.string().max(50).optional().describe('≤50 chars'),
  corpus: z.enum(CORPORA).default('code').describe('Default code'),
  min_confidence: z.number().min(0).max(1).optional().describe('0–1'),
  file_pattern: z
    .string()
    .max(500)
    .optional()
    .describe(globParamText(500)),
  limit: z.number().int().min(1).max(500).optional().describe(`1–500, default ${DEFAULT_LIMIT}; unset: exact hits + ${DEFAULT_OTHERS} more`),
  offset: z.number().int().min(0).max(MAX_OFFSET).default(0).describe('0–5000, default 0'),
  snippet_lines: z.number().int().min(0).max(20).default(0).describe('0–20, default 0'),
  fields: z.array(z.enum(RESULT_FIELDS)).min(1).optional().describe('Non-empty; snippet needs snippet_lines > 0'),
});

const hit = z.object({
  id: z.string().optional(),
  name: z.string().optional(),
  qualified_name: z.string().optional(),
  kind: z.string().optional(),
  file_path: z.string().optional(),
  start_line: z.number().optional(),
  end_line: z.number().optional(),
  signature: z.string().optional(),
  docstring: z.string().optional(),
  language: z.string().optional(),
  score: z.number().optional(),
  extraction_confidence: z.number().optional(),
  snippet: z.string().optional(),
});

const output = z.object({
  results: z.array(hit),
  total: z.number(),
  has_more: z.boolean(),
  next_offset: z.number().optional(),
});

type Args = z.output<typeof input>;
type Hit = z.infer<typeof hit>;
type Output = z.infer<typeof output>;

const EMPTY: Output = { results: [], total: 0, has_more: false };

export const searchTool = defineTool({
  name: 'search',
  title: 'Search symbols',
  description: 'Definitions by name (exact first; Type.method) or words; before grep; clips text.',
  tier: 'lite',
  toolset: 'core',
  baseline: 'grep_recursive',
  input,
  output,
  handler: async (args, ctx) => {
    const query = translateQuery(args.query);
    if (query.rewrites.length) {
      ctx.meta.warn('query_rewritten', `searched ${query.canonical}: ${query.rewrites.join('; ')}`, {
        original: args.query,
        rewritten: query.canonical,
      });
    }
    const glob = args.file_pattern === undefined ? undefined : globArg('search', 'file_pattern', args.file_pattern);
    const project = await resolveProjectWithFiles(ctx, args.project);
    if (!project) return EMPTY;
    const step = (over: Record<string, unknown> = {}) => stepArgs(args, query, project.name, over);
    const language = args.language?.toLowerCase();
    const supported = language === undefined || LANGUAGE_IDS.includes(language);
    // grep_recursive: `grep -rniE 'word|word…'` over the project, what an agent runs instead. Asked for now, so that it
    // shares the page's round trip; declared only when something was found.
    const declareBaseline = supported ? startQueryGrepBaseline(ctx, project, args.query) : null;
    const filters: SymbolFilters = {
      projectId: project.id,
      corpus: args.corpus,
      kind: args.kind,
      language,
      minConfidence: args.min_confidence,
      path: glob ? await resolvePathFilter(ctx.db, project.id, glob) : undefined,
    };
    if (language !== undefined && !supported) {
      await explainUnsupportedLanguage(ctx, language, filters, query, step);
      ctx.meta.baseline('grep_recursive', 0);
      return EMPTY;
    }

    const page = { limit: args.limit ?? DEFAULT_LIMIT, offset: args.offset, snippets: args.snippet_lines > 0 };
    // Every word, else any of them (chosen inside the statements); and what would explain a miss, asked in the
    // same round trip and computed only if the search finds nothing.
    const match: SearchMatch = query.orMatch ? { all: query.match, any: query.orMatch } : query.match;
    const miss = missPlan(project, args, query, filters);
    const together = miss && searchStatement(ctx.db, match, filters, page, query.rank, miss.questions);
    const found = await (together ?? fitting(searchStatement(ctx.db, match, filters, page, query.rank, null))).all<SearchRow>();
    let counted = found.results[0];
    let rows = found.results.filter((r): r is SearchRow & { rid: number } => r.rid !== null) as SymbolHitRow[];
    if (miss && !together && counted.total_n === 0) counted = await askApart(ctx.db, match, filters, query.rank, miss.questions);
    const total = counted.total_n;
    if (total > 0 && counted.fallback) {
      const message = `no symbol matches every word of ${query.canonical}; showing symbols matching any of them, best first`;
      ctx.meta.warn('and_fallback_or', message, { query: query.canonical }, 'info');
      ctx.meta.diagnose('and_fallback_or', 'info', message, { query: query.canonical, total });
    }
    // Nothing found: the baseline is 0, as grep would print nothing worth the comparison.
    ctx.meta.baseline('grep_recursive', 0);
    if (rows.length) await declareBaseline?.();

    if (args.limit === undefined && query.rank) rows = exactFirst(rows);
    const results = rows.map((r) => pick(view(r, args.snippet_lines), args.fields));
    const hasMore = args.offset + rows.length < total;
    let nextOffset: number | undefined;
    if (hasMore) {
      const next = args.offset + rows.length;
      if (next <= MAX_OFFSET) {
        nextOffset = next;
        ctx.meta.next('search', step({ offset: next }), `fetch the next page (${total - next} more match(es))`);
      } else {
        ctx.meta.warn('offset_cap', `${total} matches exceed the last reachable page (offset ≤ ${MAX_OFFSET}); narrow the query or add filters`, { total });
      }
    }
    if (rows.length === 0) {
      if (total > 0) {
        ctx.meta.empty('cap_dropped_all', `offset ${args.offset} is past the last of ${total} match(es)`, { cap: 'offset', offset: args.offset, total });
        ctx.meta.next('search', step({ offset: 0 }), 'rewind to the first page');
      } else {
        explainEmpty(ctx, project, args, query, step, miss, counted);
      }
    }
    return { results, total, has_more: hasMore, ...(nextOffset !== undefined ? { next_offset: nextOffset } : {}) };
  },
});

type StepArgs = (over?: Record<string, unknown>) => Record<string, unknown>;

/** Arguments for a follow-up search: the caller's own (defaults left out), with overrides; undefined removes a key. */
function stepArgs(args: Args, query: TranslatedQuery, project: string, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { project, query: query.canonical };
  if (args.kind) out.kind = args.kind;
  if (args.language !== undefined) out.language = args.language;
  if (args.corpus !== 'code') out.corpus = args.corpus;
  if (args.min_confidence !== undefined) out.min_confidence = args.min_confidence;
  if (args.file_pattern !== undefined) out.file_pattern = args.file_pattern;
  if (args.limit !== undefined) out.limit = args.limit;
  if (args.snippet_lines > 0) out.snippet_lines = args.snippet_lines;
  if (args.fields) out.fields = args.fields;
  for (const [k, v] of Object.entries(over)) {
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
}

function fitting(statement: D1PreparedStatement | null): D1PreparedStatement {
  if (!statement) throw new PincherError('invalid_params', `the search's filters bind more than ${MAX_BOUND_PARAMETERS} values in one statement`, { suggestion: 'use a simpler file_pattern (a folder or a name ending)', details: { param: 'file_pattern' } });
  return statement;
}

/**
 * The miss questions in statements of their own, after the search found
 * nothing: only when, asked with the count, they would have bound more
 * values than D1 takes in one statement (a file_pattern listing many paths).
 */
async function askApart(d1: D1Database, match: SearchMatch, filters: SymbolFilters, rank: NameRank | null, questions: MissQuestions): Promise<SearchRow> {
  const parts: MissQuestions[] = [
    { ...questions, gaps: null },
    { ...questions, relaxations: [], prefixes: [] },
  ];
  const [relaxed, gaps] = await d1.batch<SearchRow>(parts.map((p) => fitting(searchStatement(d1, match, filters, null, rank, p))));
  return { ...relaxed.results[0], gaps: gaps.results[0].gaps };
}

/**
 * A default page of a name query: when it holds exact-name hits, those and at
 * most DEFAULT_OTHERS other names holding the query (rows are best first).
 */
function exactFirst(rows: SymbolHitRow[]): SymbolHitRow[] {
  const exact = rows.filter((r) => r.score >= EXACT_SCORE).length;
  if (exact === 0) return rows;
  const named = rows.filter((r) => r.score >= TIER_SCORE).length;
  return rows.slice(0, exact + Math.min(DEFAULT_OTHERS, named - exact));
}

function view(r: SymbolHitRow, snippetLines: number): Hit {
  const lines = Math.min(snippetLines, r.end_line - r.start_line + 1);
  return {
    id: r.id,
    name: r.name,
    qualified_name: r.qualified_name,
    kind: r.kind,
    file_path: r.file_path,
    start_line: r.start_line,
    end_line: r.end_line,
    signature: clip(r.signature, SIGNATURE_CHARS),
    ...(r.docstring ? { docstring: firstParagraph(r.docstring, DOCSTRING_CHARS) } : {}),
    language: r.language,
    // Three decimals keep the relevance inside a tier visible (scores run from 0 to ~8000: see db/search-rank.ts).
    score: Math.round(r.score * 1000) / 1000,
    extraction_confidence: r.confidence,
    ...(lines > 0 && r.window ? { snippet: snippetFromWindow(r.window, r.window_start ?? 0, r.start_byte, lines) } : {}),
  };
}

/**
 * The hit as returned: the requested fields, or by default every field but
 * `language` (the file's extension tells it) and `extraction_confidence`
 * when it is 1 (the extractor had no doubt).
 */
function pick(h: Hit, fields: readonly (keyof Hit)[] | undefined): Hit {
  if (!fields) {
    const { language: _language, extraction_confidence: confidence, ...rest } = h;
    return confidence !== undefined && confidence < 1 ? { ...rest, extraction_confidence: confidence } : rest;
  }
  return Object.fromEntries(fields.filter((f) => h[f] !== undefined).map((f) => [f, h[f]]));
}

async function explainUnsupportedLanguage(ctx: ToolContext, language: string, filters: SymbolFilters, query: TranslatedQuery, step: StepArgs): Promise<void> {
  const guess = didYouMean(language, LANGUAGE_IDS);
  const stmts = [unsupportedFilesStatement(ctx.db, filters.projectId), countStatement(ctx.db, query.orMatch ?? query.match, { ...filters, language: undefined }, query.rank)];
  if (guess) stmts.push(countStatement(ctx.db, query.orMatch ?? query.match, { ...filters, language: guess }, query.rank));
  const [stored, without, guessed] = await ctx.db.batch<{ n: number; sample?: string | null }>(stmts);
  const unsupported = stored.results[0];
  const held = unsupported.n > 0 ? `; this project stores ${unsupported.n} file(s) with no extractor (e.g. ${unsupported.sample}), kept for grep and read only` : '';
  ctx.meta.empty(
    'unsupported_language',
    `no extractor for language '${language}', so no symbol can have it${guess ? ` (did you mean '${guess}'?)` : ''}${held}; supported: ${LANGUAGE_IDS.join(', ')}`,
    { language, unsupported_files: unsupported.n, supported: LANGUAGE_IDS, ...(guess ? { did_you_mean: guess } : {}) },
  );
  if (guess && (guessed?.results[0]?.n ?? 0) > 0) ctx.meta.next('search', step({ language: guess, offset: undefined }), `search ${guess}, the supported language closest to '${language}'`);
  if (without.results[0].n > 0) ctx.meta.next('search', step({ language: undefined, offset: undefined }), `the same search without the language filter finds ${without.results[0].n} symbol(s)`);
  ctx.meta.next('health', { project: step().project }, 'list the languages with an extractor');
}

interface Relaxation {
  filter: string;
  /** The filter(s) as the caller passed them, for the diagnosis. */
  label: string;
  filters: SymbolFilters;
  /** Step arguments that lift the filter. */
  over: Record<string, unknown>;
  /** What the step does, for its why. */
  action: string;
}

/** What a miss is explained with: the questions sent with the search (MissQuestions) and what each answer means. */
interface MissPlan {
  questions: MissQuestions;
  relaxations: Relaxation[];
  /** The name looked for in files not fully extracted. */
  gapText: string | null;
  /** The word shortened for a prefix search, and its lengths, one per questions.prefixes. */
  prefix: { word: string; lengths: number[] } | null;
}

/**
 * The questions that explain a miss, most specific cause first: a filter that
 * excluded every match (min_confidence → low_confidence_extractor, any other
 * → query_too_narrow), then a stale index, then files the extractor could not
 * read fully, then a genuine absence with a shorter prefix to try. Null when
 * the project row alone explains any miss (no symbol at all).
 */
function missPlan(project: ProjectRow, args: Args, query: TranslatedQuery, filters: SymbolFilters): MissPlan | null {
  if (project.symbolCount === 0 && project.fileCount > 0) return null;
  const singles: Relaxation[] = [];
  const drop = (filter: string, label: string, f: SymbolFilters, over: Record<string, unknown>): Relaxation => ({
    filter,
    label,
    filters: f,
    over,
    action: `drop ${label}`,
  });
  if (args.kind) singles.push(drop('kind', `kind=${args.kind}`, { ...filters, kind: undefined }, { kind: undefined }));
  if (args.language !== undefined) singles.push(drop('language', `language=${args.language}`, { ...filters, language: undefined }, { language: undefined }));
  if (args.file_pattern !== undefined) {
    singles.push(drop('file_pattern', `file_pattern=${args.file_pattern}`, { ...filters, path: undefined }, { file_pattern: undefined }));
  }
  if (args.min_confidence !== undefined) {
    singles.push(drop('min_confidence', `min_confidence=${args.min_confidence}`, { ...filters, minConfidence: undefined }, {}));
  }
  for (const corpus of CORPORA.filter((c) => c !== args.corpus)) {
    const over = { corpus: corpus === 'code' ? undefined : corpus };
    singles.push({ filter: 'corpus', label: `corpus=${args.corpus}`, filters: { ...filters, corpus }, over, action: `search corpus=${corpus} instead` });
  }
  const optional = singles.filter((r) => r.filter !== 'corpus');
  const wide: Relaxation[] = optional.length
    ? CORPORA.map((corpus) => ({
        filter: 'all',
        label: [...optional.map((r) => r.label), ...(corpus === args.corpus ? [] : [`corpus=${args.corpus}`])].join(', '),
        filters: { projectId: project.id, corpus },
        over: { kind: undefined, language: undefined, file_pattern: undefined, min_confidence: undefined, corpus: corpus === 'code' ? undefined : corpus },
        action: `drop every filter${corpus === args.corpus ? '' : ` and search corpus=${corpus}`}`,
      }))
    : [];
  const relaxations = [...singles, ...wide];
  // A stale index is named before gaps and prefixes are looked at: they are not asked for then.
  const fresh = !staleness(project);
  const gapText = query.rank?.name ?? [...query.words].sort((a, b) => b.length - a.length)[0] ?? null;
  const prefix = fresh ? shorterPrefixes(query.words) : null;
  return {
    questions: {
      match: query.orMatch ?? query.match,
      relaxations: relaxations.map((r) => r.filters),
      gaps: fresh ? { text: gapText, limit: SHOWN_GAPS + 1 } : null,
      prefixes: prefix ? prefix.lengths.map((n) => prefixMatch(prefix.word.slice(0, n))) : [],
    },
    relaxations,
    gapText,
    prefix,
  };
}

/** The longest word's shorter prefixes to try, longest first (down to half of it, at least 3 characters, at most 10). */
function shorterPrefixes(words: readonly string[]): { word: string; lengths: number[] } | null {
  const word = [...words].sort((a, b) => b.length - a.length)[0];
  if (!word || word.length < 4) return null;
  const lengths: number[] = [];
  for (let n = word.length - 1; n >= Math.max(3, Math.ceil(word.length / 2)) && lengths.length < 10; n--) lengths.push(n);
  return { word, lengths };
}

/**
 * Says why a search came back empty, from the answers to missPlan's
 * questions (`counted`, read in the search's own round trip). Every next step
 * is a call verified here to return hits.
 */
function explainEmpty(ctx: ToolContext, project: ProjectRow, args: Args, query: TranslatedQuery, step: StepArgs, miss: MissPlan | null, counted: SearchRow): void {
  if (explainNoSymbols(ctx, project, query.words[0] ?? args.query, 'no query')) return;
  if (!miss) return;
  const { relaxed: found, prefixes: counts } = missCounts(counted, miss.questions);
  const hits = miss.relaxations
    .map((r, k) => ({ ...r, n: found[k]?.[0] ?? 0, best: found[k]?.[1] ?? null }))
    .filter((r) => r.n > 0);
  const rescue = hits.filter((r) => r.filter !== 'all').sort((a, b) => b.n - a.n);
  const stale = staleness(project);
  const offset = { offset: undefined };

  const lowConfidence = rescue.find((r) => r.filter === 'min_confidence');
  if (lowConfidence && lowConfidence.best !== null) {
    ctx.meta.empty(
      'low_confidence_extractor',
      `all ${lowConfidence.n} match(es) of ${query.canonical} have extraction_confidence below min_confidence=${args.min_confidence}; the best is ${lowConfidence.best}`,
      { filter: 'min_confidence', min_confidence: args.min_confidence, best_confidence: lowConfidence.best, matches: lowConfidence.n },
    );
    ctx.meta.next('search', step({ ...offset, min_confidence: lowConfidence.best }), `lower min_confidence to ${lowConfidence.best}, the best candidate's confidence`);
  } else if (rescue.length) {
    const top = rescue[0];
    ctx.meta.empty(
      'query_too_narrow',
      `the ${top.label} filter excluded every match of ${query.canonical}; without it the search finds ${top.n} symbol(s)`,
      { filter: top.filter, matches: top.n },
    );
  } else if (hits.length) {
    const top = hits.sort((a, b) => b.n - a.n)[0];
    ctx.meta.empty(
      'query_too_narrow',
      `the filters ${top.label} together excluded every match of ${query.canonical}; without them the search finds ${top.n} symbol(s)`,
      { filter: 'all', filters: top.label.split(', '), matches: top.n },
    );
  }
  for (const r of rescue.length ? rescue : hits.slice(0, 1)) {
    if (r.filter === 'min_confidence') continue;
    ctx.meta.next('search', step({ ...offset, ...r.over }), `${r.action}: finds ${r.n} symbol(s)`);
  }
  if (hits.length) {
    if (stale) ctx.meta.diagnose('stale_index', 'info', `project '${project.name}' was also ${stale}; re-index to refresh it`);
    return;
  }

  if (stale) {
    ctx.meta.empty('stale_index', `nothing matches ${query.canonical}, and project '${project.name}' was ${stale}: re-index to see what the current extractor finds`, {
      extractor_version: project.extractorVersion,
      schema_version_at_index: project.schemaVersionAtIndex,
    });
    ctx.meta.next('index', { project: project.name, force: true }, 're-extract the stored files with the current extractor');
    ctx.meta.next('health', { project: project.name }, 'see the index state of this project');
    return;
  }
  const gaps: ExtractionGap[] = gapsOf(JSON.parse(counted.gaps ?? '[]'));
  if (reportExtractionGaps(ctx, project, miss.gapText, gaps, { setEmpty: true })) return;
  ctx.meta.empty('no_results_in_corpus', `no symbol of project '${project.name}' matches ${query.canonical} in any corpus, kind or language`, {
    query: query.canonical,
  });
  const k = counts.findIndex((n) => n > 0);
  if (miss.prefix && k >= 0) {
    const shorter = `${miss.prefix.word.slice(0, miss.prefix.lengths[k])}*`;
    ctx.meta.next('search', step({ ...offset, query: shorter }), `the shorter prefix ${shorter} finds ${counts[k]} symbol(s)`);
  } else ctx.meta.next('list', {}, 'check that this is the project you meant');
}
