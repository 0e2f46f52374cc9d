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

import { BoundedMap } from '../util/bounded-map';

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

/** A parameter of a statement's text: where it is, its length, its 1-based index, and whether it is a LIMIT or OFFSET value. */
interface Placeholder {
  at: number;
  length: number;
  index: number;
  limit: boolean;
  numbered: boolean;
}

/** What literalLimits reads of a text, whatever the values: its parameters in order and the highest index; null when it never writes one in. */
interface TextShape {
  params: Placeholder[];
  highest: number;
}

/**
 * textShape's answers by statement text: the scan is a regular-expression pass over the whole text (tens of
 * microseconds for a walk's 5 KB), on every statement of every call, where most texts repeat from call to call.
 */
const shapes = new BoundedMap<string, TextShape | null>(256);

/** The parameters of `sql` and which are LIMIT or OFFSET values; null when none is, or when one is named or numbered 0. */
function textShape(sql: string): TextShape | null {
  const known = shapes.get(sql);
  if (known !== undefined) return known;
  const shape = scanText(sql);
  shapes.set(sql, shape);
  return shape;
}

function scanText(sql: string): TextShape | null {
  if (!/\b(?:LIMIT|OFFSET)\b/i.test(sql)) return null;
  let blank = '';
  let last = 0;
  const params: Placeholder[] = [];
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
    params.push({ at, length: token.length, index, limit: LIMIT_BEFORE.test(blank), numbered: m[1] !== '' });
    blank += token;
  }
  return params.some((p) => p.limit) ? { params, highest } : null;
}

/**
 * `sql` with each `LIMIT ?` / `OFFSET ?` whose bound value is a safe integer
 * written as that integer, and the values renumbered to what is still bound
 * (`?N` stays numbered; a value also bound elsewhere stays bound there).
 * Null when nothing changes: no such parameter, a named parameter, or
 * values that do not match the placeholders (D1 then reports the mismatch
 * itself, as before).
 */
export function literalLimits(sql: string, values: readonly unknown[]): BoundSql | null {
  const shape = textShape(sql);
  if (!shape || shape.highest !== values.length) return null;
  const literal = shape.params.map((p) => p.limit && Number.isSafeInteger(values[p.index - 1]));
  if (!literal.some(Boolean)) return null;
  // The values still bound, renumbered in their order.
  const kept = [...new Set(shape.params.filter((_, i) => !literal[i]).map((p) => p.index))].sort((a, b) => a - b);
  const renumber = new Map(kept.map((index, i) => [index, i + 1]));
  let out = '';
  let last = 0;
  const positional = shape.params.every((p) => !p.numbered);
  shape.params.forEach((p, i) => {
    out += sql.slice(last, p.at);
    out += literal[i] ? String(values[p.index - 1]) : positional ? '?' : `?${renumber.get(p.index)}`;
    last = p.at + p.length;
  });
  return { sql: out + sql.slice(last), values: kept.map((index) => values[index - 1]) };
}
