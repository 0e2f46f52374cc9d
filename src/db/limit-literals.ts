/**
 * LIMIT and OFFSET values written into a statement's text instead of bound.
 *
 * A bound LIMIT or OFFSET makes SQLite (3.46 on; workerd bundles 3.47) plan
 * with its value: sqlite3ExprIsInteger marks the parameter, so binding it
 * expires the statement and its first step prepares it a second time. D1
 * keeps no prepared statement from one call to the next, so every call paid
 * prepare twice; with the integer in the text it pays it once (the search
 * tool's statement: 7.11M → 4.44M SQLite instructions, docs/search.md).
 */

/** A statement's text and the values bound to it. */
export interface BoundSql {
  sql: string;
  values: unknown[];
}

/**
 * What may hold a `?` that is no parameter, then the parameters: string
 * literals, quoted identifiers, comments (an unclosed one runs to the end);
 * `?`, `?N`, and the named forms (`:a`, `@a`, `$a`).
 */
const TOKEN = /'(?:[^']|'')*(?:'|$)|"(?:[^"]|"")*(?:"|$)|`(?:[^`]|``)*(?:`|$)|\[[^\]]*(?:\]|$)|--[^\n]*|\/\*[\s\S]*?(?:\*\/|$)|\?([0-9]*)|[:@$][A-Za-z_]/g;

/** The text before a parameter that is a LIMIT or OFFSET value (quotes and comments blanked). */
const LIMIT_BEFORE = /\b(?:LIMIT|OFFSET)\s+$/i;

/**
 * `sql` with each `LIMIT ?` / `OFFSET ?` whose bound value is a safe integer
 * written as that integer, and the values renumbered to what is still bound
 * (`?N` stays numbered; a value also bound elsewhere stays bound there).
 * Null when nothing changes: no such parameter, a named parameter, or
 * values that do not match the placeholders (D1 then reports the mismatch
 * itself, as before).
 */
export function literalLimits(sql: string, values: readonly unknown[]): BoundSql | null {
  if (!/\b(?:LIMIT|OFFSET)\b/i.test(sql)) return null;
  let blank = '';
  let last = 0;
  /** Each parameter: where it is, its length, its 1-based index, and whether it becomes a literal. */
  const params: { at: number; length: number; index: number; literal: boolean; numbered: boolean }[] = [];
  let highest = 0;
  for (const m of sql.matchAll(TOKEN)) {
    const token = m[0];
    const at = m.index;
    blank += sql.slice(last, at);
    last = at + token.length;
    if (token[0] !== '?') {
      if (/^[:@$]/.test(token)) return null;
      // Quotes and comments: no keyword in them counts (a comment is white space).
      blank += (token[0] === '-' || token[0] === '/' ? ' ' : '#').repeat(token.length);
      continue;
    }
    const index = m[1] ? Number(m[1]) : highest + 1;
    if (index < 1) return null;
    highest = Math.max(highest, index);
    const value = values[index - 1];
    params.push({ at, length: token.length, index, literal: Number.isSafeInteger(value) && LIMIT_BEFORE.test(blank), numbered: m[1] !== '' });
    blank += token;
  }
  if (highest !== values.length || !params.some((p) => p.literal)) return null;
  // The values still bound, renumbered in their order.
  const kept = [...new Set(params.filter((p) => !p.literal).map((p) => p.index))].sort((a, b) => a - b);
  const renumber = new Map(kept.map((index, i) => [index, i + 1]));
  let out = '';
  last = 0;
  const positional = params.every((p) => !p.numbered);
  for (const p of params) {
    out += sql.slice(last, p.at);
    out += p.literal ? String(values[p.index - 1]) : positional ? '?' : `?${renumber.get(p.index)}`;
    last = p.at + p.length;
  }
  return { sql: out + sql.slice(last), values: kept.map((index) => values[index - 1]) };
}
