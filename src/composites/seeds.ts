/**
 * Seed symbols for a free-text task (context_for_task, guide), strongest
 * evidence first:
 * 1. names the task spells as identifiers (`getUser`, `Repo.save`, quoted
 *    names), resolved like symbol names: exact qualified name, bare name,
 *    qualified-name suffix; matches in files the task mentions first;
 * 2. files the task mentions: the symbol spanning a given `:line`, else the
 *    file's top-level symbols (exported first);
 * 3. plain words of 3+ letters that are exactly a symbol's name (`listen`);
 * 4. BM25 search over the task's words (identifier parts and content
 *    words): every word ANDed first, then — when that finds fewer than
 *    wanted — any word (OR), best first.
 * Within a tier non-test code comes before tests. A symbol is seeded once.
 */
import { codeUnitOrder } from '../util/order';
import { pageStatement, translateQuery, type HitPage, type SymbolFilters, type SymbolHitRow } from '../db/search';
import { pathSeedSymbols, symbolsByNames, type SymbolRow } from '../db/source';
import { resolveRef } from '../symbols/resolve';
import { namePick } from '../db/name-pick';
import { pathsByFileNames } from '../db/composites';
import type { TaskTerms } from './task-terms';
import { baseName, matchPath, segments } from './trace-paths';

export type SeedVia = 'name' | 'path' | 'search_all_words' | 'search_any_word';

export interface Seed {
  row: SymbolRow;
  via: SeedVia;
  /** The identifier, path or words that found it. */
  matched: string;
  /** Rank of the evidence, 0 strongest (the numbered list above). */
  tier: number;
}

export interface SeedResult {
  seeds: Seed[];
  /** Identifiers and paths of the task that matched nothing in the index. */
  unresolved: string[];
  /** Project files the task's paths resolved to. */
  files: string[];
}

/** Matches kept per identifier: the best, plus one more when the name is ambiguous. */
const PER_IDENTIFIER = 2;
/** Top-level symbols seeded per mentioned file. */
const PER_FILE = 2;

const TIER = { identifier: 0, path: 1, word: 2, search_all_words: 3, search_any_word: 4 } as const;

/** Identifier as a symbol name: `A::b` and `A#b` are spelled `A.b` in qualified names. */
function asQualified(identifier: string): string {
  return identifier.replace(/::|#/g, '.');
}

/**
 * Identifiers (every match kept up to PER_IDENTIFIER, misses reported) and plain words (the best exact-name match only).
 * The names are looked up at once; `files` (the task's files, found meanwhile) only order the matches.
 */
async function byName(
  d1: D1Database,
  projectId: string,
  identifiers: readonly string[],
  words: readonly string[],
  paths: TaskTerms['paths'],
  files: Promise<readonly string[]>,
): Promise<{ hits: Seed[]; missing: string[] }> {
  const names = identifiers.map(asQualified);
  const plain = words.filter((w) => w.length >= 3 && !names.some((n) => n.toLowerCase() === w));
  if (names.length + plain.length === 0) return { hits: [], missing: [] };
  // A plain word seeds its best symbol, one in a mentioned file first: the lookup reads each word's best symbol and
  // its symbols in the files named like the task's paths (the mentioned files are among them), not every symbol of it.
  const lookup = symbolsByNames(d1, projectId, names.map(namePick), plain, { plainFiles: [...new Set(paths.map((p) => baseName(p.path)))] });
  const [rows, mentionedFiles] = await Promise.all([lookup, files]);
  const mentioned = (r: SymbolRow) => (mentionedFiles.includes(r.file_path) ? 0 : 1);
  // Paths in code-unit order, as the lookup ranks a word's symbols (SQLite's BINARY collation).
  rows.sort((a, b) => mentioned(a) - mentioned(b) || a.is_test - b.is_test || (a.language === 'markdown' ? 1 : 0) - (b.language === 'markdown' ? 1 : 0) || b.is_exported - a.is_exported || codeUnitOrder(a.file_path, b.file_path) || a.start_byte - b.start_byte);
  const hits: Seed[] = [];
  const missing: string[] = [];
  names.forEach((name, i) => {
    const { matches } = resolveRef(rows, { name });
    if (matches.length === 0) missing.push(identifiers[i]);
    for (const row of matches.slice(0, PER_IDENTIFIER)) hits.push({ row, via: 'name', matched: identifiers[i], tier: TIER.identifier });
  });
  for (const w of plain) {
    const row = rows.find((r) => r.name === w);
    if (row) hits.push({ row, via: 'name', matched: w, tier: TIER.word });
  }
  return { hits, missing };
}

async function byPath(d1: D1Database, projectId: string, paths: TaskTerms['paths']): Promise<{ hits: Seed[]; missing: string[]; files: string[] }> {
  const hits: Seed[] = [];
  const missing: string[] = [];
  const files: string[] = [];
  if (paths.length === 0) return { hits, missing, files };
  // A path spelled whole is the file it names when the project has it (matchPath's best match): its symbols are asked
  // for with the file-name look-up, so that round trip serves it. Other matches are read in one more.
  const spelled = paths.map((p) => segments(p.path).join('/'));
  const early = spelled.map((path, i) => pathSeedSymbols(d1, projectId, path, paths[i].line, PER_FILE));
  for (const e of early) e.catch(() => undefined);
  const candidates = await pathsByFileNames(d1, projectId, paths.map((p) => baseName(p.path)), 50);
  const matched = paths.map((p) => matchPath([p.path], candidates.get(baseName(p.path)) ?? []));
  const picksOf = await Promise.all(
    matched.map((found, i) => (!found ? [] : found.path === spelled[i] ? early[i] : pathSeedSymbols(d1, projectId, found.path, paths[i].line, PER_FILE))),
  );
  for (const [i, p] of paths.entries()) {
    const found = matched[i];
    if (!found) {
      missing.push(p.path);
      continue;
    }
    files.push(found.path);
    for (const row of picksOf[i]) hits.push({ row, via: 'path', matched: p.line === undefined ? found.path : `${found.path}:${p.line}`, tier: TIER.path });
  }
  return { hits, missing, files };
}

type SearchRow = SymbolHitRow & SymbolRow;

/** A search for the task's words whose all-words page is asked for (its statement sent) at creation. */
interface WordSearch {
  usable: string[];
  any: string | null;
  filters: SymbolFilters;
  page: HitPage;
  all: Promise<SearchRow[]>;
}

/** Sends the all-words page of the task's words (null when no word is usable). */
function askAllWords(d1: D1Database, projectId: string, words: readonly string[], wanted: number): WordSearch | null {
  const usable = words.filter((w) => /^[\p{L}\p{N}_]+$/u.test(w)).slice(0, 12);
  if (usable.length === 0) return null;
  const query = translateQuery(usable.join(' '));
  const filters = { projectId, corpus: 'code' };
  const page = { limit: wanted * 3, offset: 0, snippets: false, rows: true };
  const all = pageStatement(d1, query.match, filters, page)
    .all<SearchRow>()
    .then((r) => r.results);
  // A search asked for early and then not needed is never awaited.
  all.catch(() => undefined);
  return { usable, any: query.orMatch ?? null, filters, page, all };
}

/** Search hits read as whole symbol rows (no second read by id), best first: all words, then any word when too few. */
async function bySearch(d1: D1Database, search: WordSearch | null, wanted: number): Promise<{ row: SymbolRow; via: SeedVia; matched: string }[]> {
  if (!search) return [];
  const out: { row: SymbolRow; via: SeedVia; matched: string }[] = (await search.all).map((r) => ({ row: r, via: 'search_all_words', matched: search.usable.join(' ') }));
  if (out.length < wanted && search.any) {
    const any = (await pageStatement(d1, search.any, search.filters, search.page).all<SearchRow>()).results;
    for (const r of any) if (!out.some((o) => o.row.id === r.id)) out.push({ row: r, via: 'search_any_word', matched: search.usable.join(' OR ') });
  }
  return out;
}

/**
 * The best `wanted` seeds of a project for the task terms.
 *
 * @example
 * const { seeds } = await findSeeds(env.DB, project.id, taskTerms('why does Server.start fail'), 3);
 */
export async function findSeeds(d1: D1Database, projectId: string, terms: TaskTerms, wanted: number): Promise<SeedResult> {
  // Files first: a name the task spells is looked for in the files it mentions before anywhere else (the lookups go together).
  const pathing = byPath(d1, projectId, terms.paths);
  // A task of words alone is most often found by search: its all-words page rides with the name look-up.
  const early = terms.identifiers.length + terms.paths.length === 0 ? askAllWords(d1, projectId, terms.words, wanted) : null;
  const [pathed, named] = await Promise.all([pathing, byName(d1, projectId, terms.identifiers, terms.words, terms.paths, pathing.then((p) => p.files))]);
  const known = new Set([...named.hits, ...pathed.hits].map((h) => h.row.id));
  // Search hits rank below every name and path hit: with enough of those they could never be picked.
  const searched = known.size >= wanted ? [] : await bySearch(d1, early ?? askAllWords(d1, projectId, terms.words, wanted), wanted);
  const found: Seed[] = [...named.hits, ...pathed.hits];
  for (const s of searched) {
    if (!known.has(s.row.id)) found.push({ row: s.row, via: s.via, matched: s.matched, tier: TIER[s.via as 'search_all_words' | 'search_any_word'] });
  }
  // Stable order: tier, then non-test first; the first occurrence of a symbol wins.
  const ranked = found
    .map((s, i) => ({ s, i }))
    .sort((a, b) => a.s.tier - b.s.tier || a.s.row.is_test - b.s.row.is_test || a.i - b.i)
    .map(({ s }) => s);
  const seen = new Set<string>();
  const seeds = ranked.filter((s) => !seen.has(s.row.id) && seen.add(s.row.id)).slice(0, wanted);
  return { seeds, unresolved: [...named.missing, ...pathed.missing], files: pathed.files };
}
