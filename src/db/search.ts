/**
 * Symbol search over `symbols_fts` (BM25, external content over `symbols`):
 * the translation of the user's query syntax into a safe FTS5 MATCH
 * expression, the file-pattern glob, and the statements the `search` tool runs.
 */
import { PincherError } from '../errors';
import { jsonChunks } from './json-param';
import { pathConditions, prefixEnd, type PathFilter } from './path-filter';
import { literalLimits } from './limit-literals';
import { ftsString } from './fts-string';
import { isPunctuatedName } from '../util/qualified-ref';
import type { Glob } from '../util/glob';

export { pathConditions, type PathFilter } from './path-filter';
import { namePrefixSql, nameRankOf, namedCandidates, scoreSql, type NamedPart, type NameRank, type SqlPart } from './search-rank';
import { extractionGapsQuery, type ExtractionGapQuestion } from './extraction-gaps';
import { symbolInPathRangeSql } from './symbol-range';

// ---------------------------------------------------------------------------
// Query translation
// ---------------------------------------------------------------------------

/** Columns of `symbols_fts`, in index order. */
export const FTS_COLUMNS = ['name', 'qualified_name', 'words', 'signature', 'docstring'] as const;

/** bm25 weights per column, in FTS_COLUMNS order: a name hit outranks everything else. */
const BM25 = 'bm25(symbols_fts, 10.0, 5.0, 3.0, 1.5, 1.0)';

type Token =
  | { t: 'term'; text: string; prefix: boolean; quoted: boolean }
  | { t: 'op'; op: 'AND' | 'OR' | 'NOT' }
  | { t: '(' }
  | { t: ')' };

export interface TranslatedQuery {
  /** FTS5 MATCH expression: every term quoted, explicit AND between operands. */
  match: string;
  /** The same terms joined with OR, when the query is a plain conjunction of two or more terms. */
  orMatch?: string;
  /** The query as searched, in the user's syntax (equal to the input unless rewritten). */
  canonical: string;
  /** One sentence per rewrite applied; empty when the query was taken as written. */
  rewrites: string[];
  /** Plain (unquoted, non-prefix) terms, for "shorten the term" suggestions. */
  words: string[];
  /** The name the query spells, when it spells one: the ranking puts that definition first. */
  rank: NameRank | null;
}

// unicode61 keeps letters, digits and private-use characters; everything else separates tokens.
const HAS_TOKEN = /[\p{L}\p{N}\p{Co}]/u;
const COLUMN_FILTER = /^(?:\{[^}]*\}|[A-Za-z_]+):(?!:)/;
const OPERATORS = new Set(['AND', 'OR', 'NOT']);

/**
 * Translates the search syntax into FTS5. Rewrites that keep the intent are
 * applied and reported (`rewrites`); structural mistakes throw
 * `invalid_params` with the corrected query in the suggestion.
 *
 * @example
 * translateQuery('auth* "token refresh" NOT test').match
 * // '"auth"* AND "token refresh" NOT "test"'
 */
export function translateQuery(input: string): TranslatedQuery {
  const named = punctuatedName(input);
  if (named) return named;
  const rewrites: string[] = [];
  const lexed = lex(input, rewrites);
  const { tokens, errors } = repair(lexed, rewrites);
  const terms = tokens.filter((t): t is Extract<Token, { t: 'term' }> => t.t === 'term');
  if (terms.length === 0) {
    throw new PincherError('invalid_params', `query '${input.slice(0, 100)}' has no word to search (it needs letters or digits)`, {
      suggestion: 'pass at least one word, e.g. query="handleRequest", or a prefix such as query="handle*"',
      details: { param: 'query' },
    });
  }
  if (errors.length) {
    const corrected = render(tokens);
    const lonelyNot = lexed[0]?.t === 'op' && lexed[0].op === 'NOT' && lexed.length === 2 && lexed[1].t === 'term' ? lexed[1].text : null;
    throw new PincherError('invalid_params', `query syntax: ${errors.join('; ')}`, {
      suggestion: lonelyNot
        ? `NOT only excludes from other terms: write query=${JSON.stringify(`<term> NOT ${lonelyNot}`)}; to search ${lonelyNot} itself use query=${JSON.stringify(corrected)}`
        : `retry with query=${JSON.stringify(corrected)}`,
      details: { param: 'query', corrected },
    });
  }
  const plain = tokens.every((t) => t.t === 'term' || (t.t === 'op' && t.op === 'AND'));
  const canonical = rewrites.length ? render(tokens) : input.trim();
  return {
    match: toFts(tokens),
    ...(plain && terms.length > 1 ? { orMatch: terms.map(ftsTerm).join(' OR ') } : {}),
    canonical,
    rewrites,
    words: terms.filter((t) => !t.quoted && !t.prefix && /^[\p{L}\p{N}_]+$/u.test(t.text)).map((t) => t.text),
    rank: nameRankOf(rewrites.length ? canonical : input),
  };
}

/**
 * A query that is one definition name full-text search cannot spell
 * (`==`, `<=>`, `Foo#[]`, `operator==`, `valid?`, `r#type`): taken as that
 * name, not as search syntax. Its word parts, if any, are the full-text
 * match; the exact name comes from the symbols name index (namedCandidates).
 * An operator without letters matches through the name index only (`""`, an
 * empty FTS5 phrase, matches nothing).
 */
function punctuatedName(input: string): TranslatedQuery | null {
  const t = input.trim();
  const rank = nameRankOf(t);
  if (!rank || rank.prefix || !isPunctuatedName(rank.name)) return null;
  const words = t.match(/[\p{L}\p{N}\p{Co}]+/gu) ?? [];
  return {
    match: words.length ? [...new Set(words)].map((w) => `"${w}"`).join(' AND ') : '""',
    canonical: t,
    rewrites: [],
    words: [],
    rank,
  };
}

function lex(q: string, rewrites: string[]): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < q.length) {
    const c = q[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '{' && /^\{[^}"]*\}:/.test(q.slice(i))) {
      const end = q.indexOf('}', i) + 2;
      rewrites.push(`dropped the column filter ${q.slice(i, end)} (every column is searched; name matches rank first)`);
      i = end;
    } else if (c === '(' || c === ')') {
      out.push({ t: c });
      i++;
    } else if (c === '"') {
      const end = q.indexOf('"', i + 1);
      let text: string;
      if (end < 0) {
        text = q.slice(i + 1);
        i = q.length;
        rewrites.push('closed the unbalanced " at the end');
      } else {
        text = q.slice(i + 1, end);
        i = end + 1;
      }
      let prefix = false;
      while (q[i] === '*') {
        prefix = true;
        i++;
      }
      text = text.trim().replace(/\s+/g, ' ');
      if (HAS_TOKEN.test(text)) out.push({ t: 'term', text, prefix, quoted: true });
      else rewrites.push(`dropped the phrase "${text}" (no letters or digits)`);
    } else {
      let j = i;
      while (j < q.length && !/[\s"()]/.test(q[j])) j++;
      const raw = q.slice(i, j);
      i = j;
      if (OPERATORS.has(raw)) out.push({ t: 'op', op: raw as 'AND' | 'OR' | 'NOT' });
      else if (raw === 'NEAR' && q[i] === '(') rewrites.push('searched the terms of NEAR(…) with AND (NEAR is not supported)');
      else lexWord(raw, out, rewrites);
    }
  }
  return out;
}

function lexWord(raw: string, out: Token[], rewrites: string[]): void {
  let w = raw;
  if (w.length > 1 && w[0] === '-' && HAS_TOKEN.test(w[1])) {
    w = w.slice(1);
    out.push({ t: 'op', op: 'NOT' });
    rewrites.push(`read -${w} as NOT ${w}`);
  }
  const column = COLUMN_FILTER.exec(w);
  if (column && (column[0][0] === '{' || (FTS_COLUMNS as readonly string[]).includes(column[0].slice(0, -1).toLowerCase()))) {
    rewrites.push(`dropped the column filter ${column[0]} (every column is searched; name matches rank first)`);
    w = w.slice(column[0].length);
    if (!w) return;
  }
  const lead = /^\*+/.exec(w);
  if (lead) {
    w = w.slice(lead[0].length);
    if (!w) {
      rewrites.push('dropped a stray *');
      return;
    }
    rewrites.push(`dropped the leading * of ${raw} (only prefix search, term*, is supported)`);
  }
  const trailing = /\*+$/.exec(w);
  if (trailing) w = w.slice(0, -trailing[0].length);
  const parts = w.split(/\*+/);
  if (parts.length > 1) rewrites.push(`split ${w}${trailing ? '*' : ''} at * into ${parts.length} terms`);
  parts.forEach((text, k) => {
    const last = k === parts.length - 1;
    if (!HAS_TOKEN.test(text)) {
      rewrites.push(`dropped '${text}' (no letters or digits)`);
      return;
    }
    out.push({ t: 'term', text, prefix: last ? trailing !== null : true, quoted: false });
  });
}

/**
 * Drops what FTS5 cannot parse: unmatched parentheses, empty groups,
 * operators without an operand on both sides. Empty groups are a rewrite;
 * the rest are errors the caller must correct.
 */
function repair(input: Token[], rewrites: string[]): { tokens: Token[]; errors: string[] } {
  const errors: string[] = [];
  let tokens = input;
  // A leading `NOT a` (or `-a`) before plain ANDed terms means "the rest, without a": move it behind them.
  const noOr = !tokens.some((t) => t.t === 'op' && t.op === 'OR');
  for (let guard = tokens.length; noOr && guard > 0 && leadingNot(tokens); guard--) {
    const [not, term, ...rest] = tokens;
    rewrites.push(`moved NOT ${(term as { text: string }).text} behind the other terms`);
    tokens = [...rest, not, term];
  }
  for (let changed = true; changed; ) {
    changed = false;
    const balanced: Token[] = [];
    let depth = 0;
    for (const tok of tokens) {
      if (tok.t === ')' && depth === 0) {
        errors.push('unmatched )');
        changed = true;
        continue;
      }
      if (tok.t === '(') depth++;
      if (tok.t === ')') depth--;
      balanced.push(tok);
    }
    if (depth > 0) {
      errors.push(`${depth} ( without a closing )`);
      for (; depth > 0; depth--) balanced.push({ t: ')' });
      changed = true;
    }
    const kept: Token[] = [];
    for (let k = 0; k < balanced.length; k++) {
      const tok = balanced[k];
      if (tok.t === '(' && balanced[k + 1]?.t === ')') {
        rewrites.push('dropped an empty ()');
        k++;
        changed = true;
        continue;
      }
      if (tok.t === 'op') {
        const prev = kept[kept.length - 1];
        const next = balanced[k + 1];
        const before = prev !== undefined && (prev.t === 'term' || prev.t === ')');
        const after = next !== undefined && (next.t === 'term' || next.t === '(');
        if (!before || !after) {
          errors.push(
            !before
              ? `${tok.op} has no term before it${tok.op === 'NOT' ? ' (NOT excludes what follows from what precedes: a NOT b)' : ''}`
              : `${tok.op} has no term after it`,
          );
          changed = true;
          continue;
        }
      }
      kept.push(tok);
    }
    tokens = kept;
  }
  return { tokens, errors };
}

function leadingNot(tokens: Token[]): boolean {
  const [first, second, third] = tokens;
  return first?.t === 'op' && first.op === 'NOT' && second?.t === 'term' && (third?.t === 'term' || third?.t === '(');
}

function ftsTerm(t: Extract<Token, { t: 'term' }>): string {
  return `${ftsString(t.text)}${t.prefix ? '*' : ''}`;
}

function toFts(tokens: Token[]): string {
  const out: string[] = [];
  let operandEnded = false;
  for (const tok of tokens) {
    const startsOperand = tok.t === 'term' || tok.t === '(';
    // FTS5 rejects implicit AND next to parentheses, so every AND is written out.
    if (startsOperand && operandEnded) out.push('AND');
    out.push(tok.t === 'term' ? ftsTerm(tok) : tok.t === 'op' ? tok.op : tok.t);
    operandEnded = tok.t === 'term' || tok.t === ')';
  }
  return out.join(' ');
}

/** Tokens back in the user's syntax; a word that would lex differently is quoted. */
function render(tokens: Token[]): string {
  return tokens
    .map((tok) => {
      if (tok.t !== 'term') return tok.t === 'op' ? tok.op : tok.t;
      const bare = !tok.quoted && !OPERATORS.has(tok.text) && tok.text[0] !== '-' && !COLUMN_FILTER.test(tok.text);
      return (bare ? tok.text : `"${tok.text}"`) + (tok.prefix ? '*' : '');
    })
    .join(' ')
    .replace(/\( /g, '(')
    .replace(/ \)/g, ')');
}

/** A prefix-search MATCH for one word (used to verify "shorten the term" suggestions). */
export function prefixMatch(word: string): string {
  return ftsTerm({ t: 'term', text: word, prefix: true, quoted: false });
}

// ---------------------------------------------------------------------------
// File patterns
// ---------------------------------------------------------------------------

/** A filter on symbols.file_path: one folder's range, or an explicit set of paths. */
/**
 * Turns a `file_pattern` glob (src/util/glob.ts, the syntax of every path
 * parameter) into a path filter for one project. A glob that is a plain
 * condition (a folder, a name ending: Glob.plain) is that condition, with no
 * read. Any other reads the project's paths under the glob's literal folder
 * (one indexed range scan, a round trip of its own) and tests each; when every
 * one matches, the folder's range alone is the filter.
 */
export async function resolvePathFilter(d1: D1Database, projectId: string, glob: Glob): Promise<PathFilter> {
  if (glob.plain) return { ...glob.plain };
  const prefix = glob.folder ? `${glob.folder}/` : '';
  const params: unknown[] = [projectId];
  const where = ['project_id = ?', ...pathConditions('path', { prefix }, params)];
  const rows = await d1
    .prepare(`SELECT path FROM files WHERE ${where.join(' AND ')}`)
    .bind(...params)
    .all<{ path: string }>();
  const paths = rows.results.map((r) => r.path).filter((p) => glob.test(p));
  if (paths.length === rows.results.length) return prefix ? { prefix } : {};
  return { paths };
}

// ---------------------------------------------------------------------------
// Statements
// ---------------------------------------------------------------------------

export interface SymbolFilters {
  projectId: string;
  /** Undefined: every corpus. */
  corpus?: string;
  kind?: string;
  language?: string;
  minConfidence?: number;
  path?: PathFilter;
}

/** The filters as conditions over `s` (every statement of a search applies the same ones). */
function filterConditions(f: SymbolFilters, params: unknown[]): string[] {
  params.push(f.projectId);
  const cond = ['s.project_id = ?'];
  if (f.corpus !== undefined) {
    cond.push('s.corpus = ?');
    params.push(f.corpus);
  }
  if (f.kind !== undefined) {
    cond.push('s.kind = ?');
    params.push(f.kind);
  }
  if (f.language !== undefined) {
    cond.push('s.language = ?');
    params.push(f.language);
  }
  if (f.minConfidence !== undefined) {
    cond.push('s.confidence >= ?');
    params.push(f.minConfidence);
  }
  if (f.path) cond.push(...pathFilterConditions(f.path, params));
  return cond;
}

/** A path filter as conditions over `s`. */
function pathFilterConditions(path: PathFilter, params: unknown[]): string[] {
  const cond: string[] = [];
  if (path.prefix) {
    // The folder's symbols: one range of the id index as well as of the paths (src/db/symbol-range.ts).
    const end = prefixEnd(path.prefix);
    cond.push(symbolInPathRangeSql('s', '?', '?'));
    params.push(path.prefix, end, path.prefix, end);
  }
  // A folder or file, and a name ending (src/db/path-filter.ts).
  cond.push(...pathConditions('s.file_path', { under: path.under, ending: path.ending }, params));
  if (path.paths) {
    const chunks = jsonChunks(path.paths);
    if (chunks.length === 0) cond.push('0');
    else cond.push(`s.file_path IN (${chunks.map(() => 'SELECT value FROM json_each(?)').join(' UNION ALL ')})`);
    params.push(...chunks);
  }
  return cond;
}

/**
 * What a search matches: one FTS5 MATCH expression, or every word (`all`)
 * falling back to any of them (`any`) when `all` finds nothing under the
 * filters. The fallback is decided inside each statement, so the retry costs
 * no round trip of its own.
 */
export type SearchMatch = string | { all: string; any: string };

/**
 * A fallback whose choice a statement makes once, in its CTE `fb` (searchQuery):
 * every MATCH of the statement reads it rather than asking again whether every word finds something.
 */
type ChosenMatch = Exclude<SearchMatch, string> & { chosen: true };

/** The MATCH operand: a parameter, or the fallback's choice between two (read from `fb` when chosen once). */
function matchOperand(m: SearchMatch | ChosenMatch, f: SymbolFilters, rank: NameRank | null): SqlPart {
  if (typeof m === 'string') return { sql: '?', params: [m] };
  if ('chosen' in m) return { sql: '(SELECT CASE WHEN every THEN ? ELSE ? END FROM fb)', params: [m.all, m.any] };
  const hit = hitsExist(m.all, f, rank);
  return { sql: `(CASE WHEN ${hit.sql} THEN ? ELSE ? END)`, params: [...hit.params, m.all, m.any] };
}

/** Whether `match` finds anything under the filters (name-index candidates included): a SQL condition. */
function hitsExist(match: string, f: SymbolFilters, rank: NameRank | null): SqlPart {
  const w = where(match, f, rank);
  const named = namedWhere(match, f, rank);
  const fts = `EXISTS (SELECT 1 ${FROM} WHERE ${w.sql})`;
  if (!named) return { sql: fts, params: w.params };
  return { sql: `(${fts} OR EXISTS (SELECT 1 ${named.from.sql} WHERE ${named.sql}))`, params: [...w.params, ...named.from.params, ...named.params] };
}

function where(match: SearchMatch | ChosenMatch, f: SymbolFilters, rank: NameRank | null): SqlPart {
  const m = matchOperand(match, f, rank);
  const params: unknown[] = [...m.params];
  const cond = [`symbols_fts MATCH ${m.sql}`, ...filterConditions(f, params)];
  return { sql: cond.join(' AND '), params };
}

/**
 * Hits of the name index the full-text match does not hold (`pkg.Func`:
 * a top-level Func in folder pkg; `==`: an operator method): a WHERE over `s`, or null.
 */
function namedWhere(match: SearchMatch | ChosenMatch, f: SymbolFilters, rank: NameRank | null): NamedPart | null {
  const named = namedCandidates(rank, f.projectId);
  if (!named) return null;
  const params: unknown[] = [...named.params];
  const cond = [named.sql, ...filterConditions(f, params)];
  const m = matchOperand(match, f, rank);
  cond.push(`NOT EXISTS (SELECT 1 FROM symbols_fts WHERE symbols_fts MATCH ${m.sql} AND symbols_fts.rowid = s.rowid)`);
  params.push(...m.params);
  return { sql: cond.join(' AND '), params, from: named.from };
}

// The FTS table drives the join (CROSS JOIN pins the order): one MATCH, then a rowid lookup per hit.
const FROM = 'FROM symbols_fts CROSS JOIN symbols s ON s.rowid = symbols_fts.rowid';

export interface SymbolHitRow {
  rid: number;
  id: string;
  name: string;
  qualified_name: string;
  kind: string;
  file_path: string;
  start_line: number;
  end_line: number;
  start_byte: number;
  signature: string;
  docstring: string | null;
  language: string;
  confidence: number;
  score: number;
  /** files.size of the symbol's file (null only if the file row vanished). */
  file_size: number | null;
  /** With snippets: byte offset of `window` in the file, and the window as hex. */
  window_start?: number;
  window?: string | null;
}

/** Bytes read before a symbol's start to find its line start, and after it for the snippet. */
export const SNIPPET_LOOKBEHIND = 1024;
export const SNIPPET_MAX_BYTES = 4096;

/**
 * A page of hits: `snippets` adds each hit's source window; `rows` adds the columns that make each hit a whole
 * symbol row (source.ts SymbolRow), for a caller that needs the symbols themselves rather than a listing.
 */
export interface HitPage {
  limit: number;
  offset: number;
  snippets: boolean;
  rows?: boolean;
}

/**
 * One page of hits, best first (score: tier, source before tests, kind-weighted
 * bm25 — see search-rank.ts; ties by path, line). Files and (with `snippets`)
 * blob windows are joined to the page only, never to every hit.
 */
export function pageStatement(
  d1: D1Database,
  match: SearchMatch,
  f: SymbolFilters,
  page: HitPage,
  rank: NameRank | null = null,
): D1PreparedStatement {
  const q = pageQuery(match, f, page, rank);
  return d1.prepare(q.sql).bind(...q.params);
}

/** SQL and parameters of pageStatement (exported for EXPLAIN QUERY PLAN checks). */
export function pageQuery(
  match: SearchMatch,
  f: SymbolFilters,
  page: HitPage,
  rank: NameRank | null = null,
): SqlPart {
  return pageOf(hitsQuery(match, f, rank), f, page);
}

const HIT_COLUMNS = 's.rowid AS rid, s.file_path AS file_path, s.start_line AS start_line, s.confidence AS confidence';

/**
 * Every hit, narrow (its rowid and what orders it; confidence for the count's
 * best): the page sorts these and reads its symbols' columns for its rows only.
 */
function hitsQuery(match: SearchMatch | ChosenMatch, f: SymbolFilters, rank: NameRank | null, scored = true): Hits {
  const w = where(match, f, rank);
  const named = namedWhere(match, f, rank);
  const ftsScore = scored ? scoreSql(rank, `-${BM25}`) : { sql: '', params: [] };
  const params: unknown[] = [...ftsScore.params, ...w.params];
  let sql = `SELECT ${HIT_COLUMNS}${scored ? `, ${ftsScore.sql} AS score` : ''} ${FROM} WHERE ${w.sql}`;
  if (named) {
    // Found by name only: no bm25, so the lowest relevance of its tier.
    const namedScore = scored ? scoreSql(rank, '0') : { sql: '', params: [] };
    sql += ` UNION ALL SELECT ${HIT_COLUMNS}${scored ? `, ${namedScore.sql} AS score` : ''} ${named.from.sql} WHERE ${named.sql}`;
    params.push(...namedScore.params, ...named.from.params, ...named.params);
  }
  return { sql, params, compound: named !== null };
}

/** hitsQuery's columns: one SELECT, or (`compound`) a UNION ALL of two. */
type Hits = SqlPart & { compound: boolean };

/**
 * The hits a prefix query's page is sorted from (`handle*`): only its tier-1
 * hits (names starting with the word) when they alone fill the page (offset +
 * limit), else every hit. Any tier-1 hit outscores every other, so the page is
 * the same, while bm25 and the score are computed for the tier-1 hits only.
 * Whether they fill it is counted among the name column's matches (every
 * tier-1 name holds a token starting with the word there: the tokenizer folds
 * case and diacritics at least as much as the tier's comparison), a fraction
 * of every column's. The count of the search still counts every hit. Not
 * under a kind, language, path or confidence filter. No temporary table is built (SQLite keeps them in files in workerd's build).
 * Null for any other query: a SELECT of hitsQuery's columns.
 */
function prefixPageHits(match: SearchMatch | ChosenMatch, f: SymbolFilters, rank: NameRank | null, page: { limit: number; offset: number }): Hits | null {
  const starts = namePrefixSql(rank);
  if (!starts || typeof match !== 'string') return null;
  // Under a kind, language, path or confidence filter, bm25 is already computed for the few hits passing it, and
  // counting the tier-1 names can cost more than it saves (measured in sqlite3 on the latency bench's mix).
  if (f.kind !== undefined || f.language !== undefined || f.path || f.minConfidence !== undefined) return null;
  const score = scoreSql(rank, `-${BM25}`);
  const params: unknown[] = [...score.params, match];
  const cond = filterConditions(f, params);
  const enoughParams: unknown[] = [`name : ${match}`];
  const enoughCond = [...filterConditions(f, enoughParams), starts.sql];
  enoughParams.push(...starts.params);
  const enough = `(SELECT count(*) >= ? FROM (SELECT 1 ${FROM} WHERE symbols_fts MATCH ? AND ${enoughCond.join(' AND ')} LIMIT ?))`;
  const k = page.offset + page.limit;
  params.push(k, ...enoughParams, k, ...starts.params);
  return {
    sql: `SELECT ${HIT_COLUMNS}, ${score.sql} AS score ${FROM}
      WHERE symbols_fts MATCH ? AND ${cond.join(' AND ')} AND (NOT ${enough} OR ${starts.sql})`,
    params,
    compound: false,
  };
}

/**
 * One page of `hits` (hitsQuery's columns, scored), best first, with the symbols' columns, file sizes and snippet
 * windows. A single SELECT is sorted and cut as it is, not read from a CTE or a subquery: SQLite copies a CTE's
 * SELECT where it is read and flattens a subquery into its reader, each a copy of the score's expression tree,
 * which made preparing a search 0.25M instructions dearer (of ~1.5M; sqlite3 3.47 on the latency tier).
 */
function pageOf(hits: Hits, f: SymbolFilters, page: HitPage): SqlPart {
  const windowCols = page.snippets
    ? `, max(0, s.start_byte - ${SNIPPET_LOOKBEHIND}) AS window_start,
         hex(substr(CAST(b.content AS BLOB), max(0, s.start_byte - ${SNIPPET_LOOKBEHIND}) + 1, ${SNIPPET_LOOKBEHIND + SNIPPET_MAX_BYTES})) AS window`
    : '';
  const rowCols = page.rows ? ', s.parent, s.end_byte, s.is_exported, s.is_test' : '';
  const sql = `SELECT p.rid AS rid, s.id, s.name, s.qualified_name, s.kind, s.file_path, s.start_line, s.end_line, s.start_byte,
             s.signature, s.docstring, s.language, s.confidence, p.score AS score, f.size AS file_size${rowCols}${windowCols}
    FROM (${hits.compound ? `SELECT rid, score, file_path, start_line FROM (${hits.sql})` : hits.sql} ORDER BY score DESC, file_path, start_line, rid LIMIT ? OFFSET ?) p
    CROSS JOIN symbols s ON s.rowid = p.rid
    LEFT JOIN files f ON f.project_id = ? AND f.path = p.file_path
    ${page.snippets ? 'LEFT JOIN blobs b ON b.hash = f.hash' : ''}
    ORDER BY p.score DESC, p.file_path, p.start_line, p.rid`;
  return { sql, params: [...hits.params, page.limit, page.offset, f.projectId] };
}

export interface CountRow {
  n: number;
  /** Highest extraction confidence among the matches; null when there are none. */
  best: number | null;
}

/** Matches after filters, and the best confidence among them. */
export function countStatement(d1: D1Database, match: SearchMatch, f: SymbolFilters, rank: NameRank | null = null): D1PreparedStatement {
  const q = countQuery(match, f, rank);
  return d1.prepare(q.sql).bind(...q.params);
}

export function countQuery(match: SearchMatch, f: SymbolFilters, rank: NameRank | null = null): SqlPart {
  const w = where(match, f, rank);
  const named = namedWhere(match, f, rank);
  const fts = `SELECT count(*) AS n, max(s.confidence) AS best ${FROM} WHERE ${w.sql}`;
  if (!named) return { sql: fts, params: w.params };
  return {
    sql: `SELECT sum(n) AS n, max(best) AS best FROM (${fts} UNION ALL SELECT count(*) AS n, max(s.confidence) AS best ${named.from.sql} WHERE ${named.sql})`,
    params: [...w.params, ...named.from.params, ...named.params],
  };
}

/**
 * What explains a search that found nothing, asked in the statement that
 * pages and counts it (searchQuery): each is computed only when the count is 0, so a
 * search with hits pays for none of them.
 */
export interface MissQuestions {
  /** The match the causes are counted with: the any-word form when there is one. */
  match: string;
  /** Matches of `match` under each of these (filters lifted or swapped). */
  relaxations: readonly SymbolFilters[];
  /** Asked only when nothing of the project matches `match` in any corpus: files not fully extracted. */
  gaps: ExtractionGapQuestion | null;
  /**
   * Matches of each (a prefix MATCH) under the search's filters, asked only when nothing of the project matches
   * `match` in any corpus (else none, or 0 each): in `relaxed`, after the relaxations (missCounts).
   */
  prefixes: readonly string[];
}

/** The answers of a row to `questions`: the count and best confidence under each relaxation, the count of each prefix. */
export function missCounts(row: Pick<SearchRow, 'relaxed'>, questions: MissQuestions): { relaxed: [number, number | null][]; prefixes: number[] } {
  const found = JSON.parse(row.relaxed ?? '[]') as [number, number | null][];
  return { relaxed: found.slice(0, questions.relaxations.length), prefixes: found.slice(questions.relaxations.length).map(([n]) => n) };
}

/**
 * A row of searchQuery: a hit of the page (SymbolHitRow; `rid` null on the
 * one row of an empty page) carrying the count of every hit and the answers
 * to the miss questions. JSON columns are null when not asked or not needed
 * (the search found something).
 */
export interface SearchRow extends Omit<SymbolHitRow, 'rid'> {
  rid: number | null;
  /** Every hit under the filters, and the best extraction confidence among them. */
  total_n: number;
  total_best: number | null;
  /** 1 when every word matched nothing and the hits are of any word (SearchMatch's fallback). */
  fallback: number;
  /** JSON `[[n, best], …]`, one per MissQuestions.relaxations, then one per MissQuestions.prefixes (missCounts). */
  relaxed?: string | null;
  /** JSON array of extraction gap rows (src/db/extraction-gaps.ts). */
  gaps?: string | null;
}

/** Bound parameters D1 takes in one statement. */
export const MAX_BOUND_PARAMETERS = 100;

/**
 * searchQuery as a statement, its parameters numbered (each distinct value
 * bound once); null when it would bind more than D1 allows (MAX_BOUND_PARAMETERS).
 */
export function searchStatement(
  d1: D1Database,
  match: SearchMatch,
  f: SymbolFilters,
  page: { limit: number; offset: number; snippets: boolean } | null,
  rank: NameRank | null,
  miss: MissQuestions | null,
): D1PreparedStatement | null {
  const q = numbered(searchQuery(match, f, page, rank, miss));
  return q.params.length > MAX_BOUND_PARAMETERS ? null : d1.prepare(q.sql).bind(...q.params);
}

/**
 * Rewrites the positional `?` of a statement as numbered parameters, each
 * distinct value bound once: the statements of a search repeat the project,
 * the match and the filters many times over. String literals are skipped
 * (no builder here puts a `?` in one, but a literal may hold any text).
 * An integer LIMIT or OFFSET is written into the text instead (literalLimits:
 * a bound one has SQLite prepare the statement twice).
 */
export function numbered(q: SqlPart): SqlPart {
  const values: unknown[] = [];
  const seen = new Map<string, number>();
  let next = 0;
  const sql = q.sql.replace(/'(?:[^']|'')*(?:'|$)|\?([0-9])?/g, (token, digit: string | undefined) => {
    if (token[0] === "'") return token;
    if (digit !== undefined) throw new Error('numbered: the statement already numbers its parameters');
    const value = q.params[next++];
    const key = `${value === null ? 'null' : typeof value}:${String(value)}`;
    let n = seen.get(key);
    if (n === undefined) {
      values.push(value);
      n = values.length;
      seen.set(key, n);
    }
    return `?${n}`;
  });
  if (next !== q.params.length) throw new Error(`numbered: ${q.params.length} parameters for ${next} placeholders`);
  const literal = literalLimits(sql, values);
  return literal ? { sql: literal.sql, params: literal.values } : { sql, params: values };
}

/**
 * A whole search in one statement: the hits are counted and paged (best
 * first: narrow rows are sorted, and the symbols' columns read for the page's
 * rows only); whether the any-word fallback was taken; and, when `miss` is
 * given and nothing was found, the answers to its questions, each computed
 * only then. At least one row: an empty page gives one row whose `rid` is
 * null. Without `page`, the one row carries the count and the answers only.
 */
export function searchQuery(
  match: SearchMatch,
  f: SymbolFilters,
  page: { limit: number; offset: number; snippets: boolean } | null,
  rank: NameRank | null,
  miss: MissQuestions | null,
): SqlPart {
  // Two or more words falling back to any of them: whether every word finds something is asked once (`fb`), and
  // the count, the page and `fallback` read the answer (asked in each, it ran three times).
  const ctes: string[] = [];
  const cteParams: unknown[] = [];
  let chosen: SearchMatch | ChosenMatch = match;
  if (typeof match !== 'string') {
    const all = hitsExist(match.all, f, rank);
    ctes.push(`fb AS MATERIALIZED (SELECT ${all.sql} AS every)`);
    cteParams.push(...all.params);
    chosen = { ...match, chosen: true };
  }
  // The count's hits carry no score: SQLite copies a CTE into each query that reads it, score and all, so a scored
  // `h` read by the count and the page made every search prepare the score twice; the page scores its own (pageOf).
  const hits = hitsQuery(chosen, f, rank, false);
  // Not materialized: a temporary table of every hit costs more than finding them twice (count and page) when
  // SQLite keeps temporary tables in files (workerd's build: TEMP_STORE=1), measured in sqlite3 on the latency bench's mix.
  ctes.push(`h AS NOT MATERIALIZED (${hits.sql})`, 't AS NOT MATERIALIZED (SELECT count(*) AS n, max(confidence) AS best FROM h)');
  cteParams.push(...hits.params);
  const params: unknown[] = [];
  const cols = ['t.n AS total_n', 't.best AS total_best'];
  cols.push(typeof match === 'string' ? '0 AS fallback' : '(CASE WHEN t.n = 0 THEN 0 ELSE NOT (SELECT every FROM fb) END) AS fallback');
  if (miss) {
    // Nothing anywhere in the project: the one condition the gaps and the prefixes wait for (computed once).
    const nowhere = 'NOT (SELECT hit FROM a)';
    if (miss.gaps || miss.prefixes.length) {
      const anywhere = hitsExist(miss.match, { projectId: f.projectId }, rank);
      ctes.push(`a AS MATERIALIZED (SELECT ${anywhere.sql} AS hit)`);
      cteParams.push(...anywhere.params);
    }
    const relaxed = relaxedCounts(miss.match, f, miss.relaxations, miss.prefixes, nowhere, rank);
    cols.push(`CASE WHEN t.n = 0 THEN ${relaxed.sql} END AS relaxed`);
    params.push(...relaxed.params);
    if (miss.gaps) {
      const gaps = extractionGapsQuery(f.projectId, miss.gaps);
      cols.push(`CASE WHEN t.n = 0 AND ${nowhere} THEN (SELECT json_group_array(json_object('path', path, 'status', status, 'reason', reason, 'partial', partial, 'mentions', mentions)) FROM (${gaps.sql})) END AS gaps`);
      params.push(...gaps.params);
    }
  }
  if (!page) return { sql: `WITH ${ctes.join(', ')} SELECT ${cols.join(', ')} FROM t`, params: [...cteParams, ...params] };
  // The page scores its own hits, sorted where they are found (pageOf).
  const top = pageOf(prefixPageHits(chosen, f, rank, page) ?? hitsQuery(chosen, f, rank), f, page);
  return {
    sql: `WITH ${ctes.join(', ')} SELECT pg.*, ${cols.join(', ')} FROM t LEFT JOIN (${top.sql}) pg ON 1
      ORDER BY pg.score DESC, pg.file_path, pg.start_line, pg.rid`,
    params: [...cteParams, ...params, ...top.params],
  };
}

/**
 * The matches of `match` under each of `relaxations` (the search's filters
 * with some lifted, or the corpus swapped), then of each of `prefixes` (a
 * prefix MATCH) under the search's own filters, asked only when `nowhere`
 * holds (else left out, or 0 when counted on their own), as a JSON `[[n, best], …]`: one count over a JSON list of
 * them, each row's match and filters read from the list, rather than one
 * count per question. The statement's text, and the time SQLite takes to
 * prepare it (paid by every search, hits or not), stays that of one count.
 * Relaxations whose path filter is not the search's own (or absent) or whose
 * project differs are counted each on its own, and so are the prefixes then.
 */
function relaxedCounts(match: string, f: SymbolFilters, relaxations: readonly SymbolFilters[], prefixes: readonly string[], nowhere: string, rank: NameRank | null): SqlPart {
  if (relaxations.length + prefixes.length === 0) return { sql: 'json_array()', params: [] };
  const listed = relaxations.every((r) => r.projectId === f.projectId && (r.path === undefined || r.path === f.path));
  if (!listed) {
    const counts = relaxations.map((r) => countQuery(match, r, rank));
    const prefixCounts = prefixes.map((p) => {
      const params: unknown[] = [p];
      const cond = filterConditions(f, params);
      return { sql: `SELECT count(*) AS n, max(s.confidence) AS best ${FROM} WHERE symbols_fts MATCH ? AND ${cond.join(' AND ')} AND ${nowhere}`, params };
    });
    const all = [...counts, ...prefixCounts];
    return {
      sql: `json_array(${all.map((r) => `json((SELECT json_array(n, best) FROM (${r.sql})))`).join(', ')})`,
      params: all.flatMap((r) => r.params),
    };
  }
  const row = (m: string, r: SymbolFilters, relax: number) => ({
    match: m,
    relax,
    corpus: r.corpus ?? null,
    kind: r.kind ?? null,
    language: r.language ?? null,
    min_confidence: r.minConfidence ?? null,
    path: r.path ? 1 : 0,
  });
  const rows = [...relaxations.map((r) => row(match, r, 1)), ...prefixes.map((p) => row(p, f, 0))];
  // A filter no row of the list has is no condition (its `IS NULL` holds for every row): a search without filters
  // prepares its relaxations (the other corpora) without the kind, language and confidence conditions.
  const filters = (['corpus', 'kind', 'language', 'min_confidence'] as const).filter((k) => rows.some((r) => r[k] !== null));
  const filterSql = { corpus: 's.corpus = rx.corpus', kind: 's.kind = rx.kind', language: 's.language = rx.language', min_confidence: 's.confidence >= rx.min_confidence' };
  const conditions = (params: unknown[]): string => {
    params.push(f.projectId);
    const cond = ['s.project_id = ?', ...filters.map((k) => `(rx.${k} IS NULL OR ${filterSql[k]})`)];
    if (f.path) {
      // A path filter may need no condition of its own (the same as no filter in the search's own count).
      const onPath = pathFilterConditions(f.path, params);
      if (onPath.length) cond.push(`(rx.path = 0 OR (${onPath.join(' AND ')}))`);
    }
    return cond.join(' AND ');
  };
  const params: unknown[] = [];
  const where = `symbols_fts MATCH rx.match AND ${conditions(params)}`;
  // One row of the list as `[n, best]`: a count of the full-text hits (read as one array, without a subquery
  // around the count), or with the name index's candidates added for the relaxations (a prefix row's match is a
  // prefix, which names no definition).
  let counted = `(SELECT json_array(count(*), max(s.confidence)) ${FROM} WHERE ${where})`;
  const named = relaxations.length ? namedCandidates(rank, f.projectId) : null;
  if (named) {
    params.push(...named.from.params, ...named.params);
    const cond = `rx.relax AND ${named.sql} AND ${conditions(params)} AND NOT EXISTS (SELECT 1 FROM symbols_fts WHERE symbols_fts MATCH rx.match AND symbols_fts.rowid = s.rowid)`;
    counted = `(SELECT json_array(n, best) FROM (SELECT sum(n) AS n, max(best) AS best FROM (SELECT count(*) AS n, max(s.confidence) AS best ${FROM} WHERE ${where}
      UNION ALL SELECT count(*) AS n, max(s.confidence) AS best ${named.from.sql} WHERE ${cond})))`;
  }
  params.push(JSON.stringify(rows));
  // The prefix rows (relax 0) are left out of the list, not counted, unless nothing of the project matches `match`.
  const gate = prefixes.length ? ` WHERE value ->> '$.relax' OR ${nowhere}` : '';
  const columns = ['match', 'relax', ...filters, ...(f.path ? ['path'] : [])].map((k) => `value ->> '$.${k}' AS ${k}`);
  return {
    sql: `(SELECT json_group_array(json(${counted})) FROM (SELECT ${columns.join(', ')} FROM json_each(?)${gate} ORDER BY key) rx)`,
    params,
  };
}

/** Files of a project stored without an extractor (language 'none'): how many, and a few paths. */
export function unsupportedFilesStatement(d1: D1Database, projectId: string): D1PreparedStatement {
  return d1
    .prepare(
      `SELECT count(*) AS n, (SELECT group_concat(path, ', ') FROM
         (SELECT path FROM files WHERE project_id = ?1 AND language = 'none' ORDER BY path LIMIT 3)) AS sample
       FROM files WHERE project_id = ?1 AND language = 'none'`,
    )
    .bind(projectId);
}

/** The first `lines` lines from the symbol's line, cut from a hex byte window (byte-exact, UTF-8 safe). */
export function snippetFromWindow(hex: string, windowStart: number, startByte: number, lines: number): string {
  const bytes = new Uint8Array(hex.length / 2);
  for (let k = 0; k < bytes.length; k++) bytes[k] = parseInt(hex.slice(2 * k, 2 * k + 2), 16);
  const rel = Math.min(startByte - windowStart, bytes.length);
  let start = rel;
  while (start > 0 && bytes[start - 1] !== 0x0a) start--;
  // The line began before the window: start at the first whole character in it.
  if (start === 0 && windowStart > 0) while (start < rel && (bytes[start] & 0xc0) === 0x80) start++;
  let end = start;
  for (let seen = 0; end < bytes.length; end++) {
    if (bytes[end] === 0x0a && ++seen === lines) break;
  }
  if (end > start + SNIPPET_MAX_BYTES) end = wholeCharacters(bytes, start, start + SNIPPET_MAX_BYTES);
  else if (end === bytes.length) end = wholeCharacters(bytes, start, end);
  return new TextDecoder().decode(bytes.subarray(start, end));
}

/** `end` moved back so a UTF-8 sequence cut by the window is left out. */
function wholeCharacters(bytes: Uint8Array, start: number, end: number): number {
  let lead = end - 1;
  while (lead > start && (bytes[lead] & 0xc0) === 0x80) lead--;
  if (lead < start) return end;
  const b = bytes[lead];
  const need = b < 0x80 ? 1 : b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
  return end - lead < need ? lead : end;
}
