import { JSON_PARAM_BUDGET } from '../db/json-param';
import { PincherError } from '../errors';
import type { Analyzed } from './analyze';
import type { Expr } from './ast';
import { compileCount, compileMain, compileRegexCandidates, compileWalkSize, mainColumns, regexTests, WALK_COLUMN, type RegexValues, type Statement } from './compile';
import { QueryError } from './errors';
import { REGEX_BUDGET_MS, REGEX_CANDIDATES, WALK_CAP } from './limits';
import type { ValueType } from './vocabulary';

/** D1 failures that mean "this query is too expensive", not "the server is broken". */
const TOO_EXPENSIVE = /too many SQL variables|string or blob too big|too big|timed? ?out|interrupted|too complex|exceeded|CPU|memory/i;

async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    const message = err instanceof Error ? err.message : '';
    if (TOO_EXPENSIVE.test(message)) {
      throw new PincherError('invalid_params', 'invalid arguments for query: query: the query ran past the database limits', {
        suggestion: 'narrow it: add a label or a WHERE condition on the start node, lower the variable-length depth, or add LIMIT',
        details: { issues: [{ param: 'query', message: 'the query ran past the database limits' }] },
      });
    }
    throw err;
  }
}

/**
 * Binds the parameters the SQL names. A statement compiled from part of a
 * query (the walk size, a candidate list) may not name every parameter the
 * whole query allocated; D1 refuses a bind count above the highest `?N` in
 * the text, and SQLite leaves unnamed middle indices unused.
 */
export function prepare(db: D1Database, s: Statement): D1PreparedStatement {
  let highest = 0;
  for (const m of s.sql.matchAll(/\?(\d+)/g)) highest = Math.max(highest, Number(m[1]));
  return db.prepare(s.sql).bind(...s.params.slice(0, highest));
}

/**
 * Decides every `=~` test: fetches the distinct values its subject takes
 * (SQL prefilters), tests them in JavaScript within REGEX_BUDGET_MS, and
 * returns the matching values, which the main statement binds as one JSON
 * parameter. Too many candidates or too little time is a QueryError at the
 * regex, so the caller can narrow the query.
 */
export async function evaluateRegexes(db: D1Database, a: Analyzed, projectId: string, opts = { whereFilters: true }): Promise<Map<Expr, string[]>> {
  const tests = regexTests(a);
  const out = new Map<Expr, string[]>();
  if (!tests.length) return out;
  const results = await guarded(() => db.batch<{ v: unknown }>(tests.map((t) => prepare(db, compileRegexCandidates(a, projectId, t, opts)))));
  const started = Date.now();
  tests.forEach((test, k) => {
    const span = test.right.span;
    const values = results[k].results.map((r) => r.v).filter((v): v is string => typeof v === 'string');
    if (values.length > REGEX_CANDIDATES) {
      throw new QueryError(`the regular expression would be tested against more than ${REGEX_CANDIDATES} distinct values`, span,
        "narrow the rows first: add a label, a literal the value must contain (CONTAINS 'x' or STARTS WITH 'x'), or another WHERE condition", 'semantic', { candidates: values.length });
    }
    const regex = a.regexes.get(test);
    if (!regex) throw new Error('regex missing from the analysis');
    const matched: string[] = [];
    for (let i = 0; i < values.length; i++) {
      if ((i & 127) === 0 && Date.now() - started > REGEX_BUDGET_MS) {
        throw new QueryError(`the regular expression took longer than ${REGEX_BUDGET_MS} ms over ${values.length} candidate values`, span,
          "narrow the rows first with a label or CONTAINS/STARTS WITH, or simplify the pattern", 'semantic', { candidates: values.length });
      }
      if (regex.test(values[i])) matched.push(values[i]);
    }
    if (JSON.stringify(matched).length > JSON_PARAM_BUDGET) {
      throw new QueryError('the regular expression matches more text than one query can carry', span, 'narrow the rows first with a label or another WHERE condition', 'semantic');
    }
    out.set(test, matched);
  });
  return out;
}

export interface MainResult {
  rows: unknown[][];
  truncated: boolean;
  /** A variable-length walk stopped at WALK_CAP steps: the answer may miss pairs. */
  walkCapped: boolean;
}

/**
 * Runs the query: at most `maxRows` rows after SKIP, one more fetched to tell whether it was truncated. The rows
 * are read as objects (`all`), by their unique column names, not as arrays (`raw`): a statement read so joins the
 * call's round trip (with the project row's check, src/tools/project-cache.ts), where `raw` always travels alone.
 */
export async function runMain(db: D1Database, a: Analyzed, projectId: string, regexValues: RegexValues, maxRows: number): Promise<MainResult> {
  const userLimit = a.query.limit?.value;
  const limit = userLimit === undefined ? maxRows + 1 : Math.min(userLimit, maxRows + 1);
  const statement = compileMain(a, projectId, regexValues, { limit, offset: a.query.skip?.value ?? 0 });
  const { results } = await guarded(() => prepare(db, statement).all<Record<string, unknown>>());
  const columns = mainColumns(a);
  const rows = results.map((r) => columns.map((c) => r[c]));
  const walkCapped = statement.walkColumn && results.length > 0 && Number(results[0][WALK_COLUMN]) >= WALK_CAP;
  const truncated = rows.length > maxRows;
  return { rows: rows.slice(0, maxRows).map((r) => convertRow(a, r)), truncated, walkCapped };
}

/** Counts matches of the pattern under the given conditions, up to `cap`; one D1 round trip for all of them. */
export async function countMatches(db: D1Database, a: Analyzed, projectId: string, regexValues: RegexValues, variants: readonly (readonly Expr[])[], cap: number): Promise<number[]> {
  if (!variants.length) return [];
  const results = await guarded(() => db.batch<{ n: number }>(variants.map((v) => prepare(db, compileCount(a, projectId, regexValues, v, cap)))));
  return results.map((r) => r.results[0]?.n ?? 0);
}

/** Steps the query's variable-length walk takes (WALK_CAP when it was cut), or null without one. */
export async function walkSize(db: D1Database, a: Analyzed, projectId: string, regexValues: RegexValues): Promise<number | null> {
  const s = compileWalkSize(a, projectId, regexValues);
  if (!s) return null;
  const row = await guarded(() => prepare(db, s).first<{ n: number }>());
  return row?.n ?? 0;
}

/** Whether the query yields any row at all when SKIP is dropped (to tell "SKIP past the end"). */
export async function hasRowsWithoutSkip(db: D1Database, a: Analyzed, projectId: string, regexValues: RegexValues): Promise<boolean> {
  const statement = compileMain(a, projectId, regexValues, { limit: 1, offset: 0 });
  const { results } = await guarded(() => prepare(db, statement).all());
  return results.length > 0;
}

function convert(value: unknown, type: ValueType, element: ValueType): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'bool':
      return value !== 0 && value !== '0';
    case 'node':
    case 'rel':
    case 'path':
      return typeof value === 'string' ? JSON.parse(value) : value;
    case 'list': {
      const list = typeof value === 'string' ? (JSON.parse(value) as unknown[]) : (value as unknown[]);
      return element === 'bool' ? list.map((v) => convert(v, 'bool', 'any')) : list;
    }
    default:
      return value;
  }
}

function convertRow(a: Analyzed, row: unknown[]): unknown[] {
  return row.map((v, k) => convert(v, a.columnTypes[k], a.columnElements[k]));
}
