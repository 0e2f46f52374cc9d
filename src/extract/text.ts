/**
 * Text helpers shared by every extractor: declaration heads, doc comment cleaning,
 * reference names. All generic: no language is named here.
 */

export const MAX_SIGNATURE = 300;
export const MAX_DOCSTRING = 2000;
export const MAX_REFERENCE_NAME = 120;

/** The text with every character but line breaks turned into a space: offsets, lines and columns stay. */
export function blanked(text: string): string {
  return text.replace(/[^\r\n]/g, ' ');
}

/** Collapses whitespace to single spaces and caps the length. */
export function oneLine(text: string, max = MAX_SIGNATURE): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? flat.slice(0, max).trimEnd() : flat;
}

/**
 * The declaration head: text before the body, on one line, without the trailing
 * `{`, `:`, `=` or `;` that opens the body or ends the declaration.
 */
export function signatureOf(head: string): string {
  // Read at most twice the cap: a head longer than that is cut anyway.
  return oneLine(head.slice(0, MAX_SIGNATURE * 2)).replace(/\s*[{:=;]$/, '').trimEnd();
}

const STRING_DOC = /^[rRuUbBfF]*("""|'''|"|')([\s\S]*?)\1$/;
const BLOCK_COMMENT = /^\/\*+!?([\s\S]*?)\*+\/$/;
const LINE_MARKER = /^\s*(?:\/\/[/!]?|#+|--|;+)\s?/;
const BLOCK_LINE_MARKER = /^\s*\*(?!\/) ?/;

function dedent(lines: string[]): string[] {
  let indent = Infinity;
  for (const line of lines) {
    if (line.trim() === '') continue;
    indent = Math.min(indent, line.length - line.trimStart().length);
  }
  return indent === Infinity || indent === 0 ? lines : lines.map((l) => l.slice(indent));
}

function cleanOne(raw: string): string {
  const text = raw.trim();
  const str = STRING_DOC.exec(text);
  if (str) {
    const [first, ...rest] = str[2].split('\n');
    return [first.trim(), ...dedent(rest)].join('\n');
  }
  const block = BLOCK_COMMENT.exec(text);
  if (block) return dedent(block[1].split('\n').map((l) => l.replace(BLOCK_LINE_MARKER, ''))).join('\n');
  return dedent(text.split('\n').map((l) => l.replace(LINE_MARKER, ''))).join('\n');
}

/** Joins doc comments (or a docstring) into clean text; null when nothing is left. */
export function cleanDocstring(parts: readonly string[]): string | null {
  if (parts.length === 0) return null;
  const text = parts
    .map(cleanOne)
    .join('\n')
    .replace(/\r/g, '')
    .replace(/[ \t]+$/gm, '')
    .trim();
  if (text === '') return null;
  return text.length > MAX_DOCSTRING ? text.slice(0, MAX_DOCSTRING).trimEnd() : text;
}

/** Removes the quotes around a module specifier ('x', "x", `x`, <x>). */
export function unquote(text: string): string {
  const t = text.trim();
  const open = t[0];
  const close = t[t.length - 1];
  const paired = (open === '<' && close === '>') || (open === close && (open === '"' || open === "'" || open === '`'));
  return paired && t.length >= 2 ? t.slice(1, -1) : t;
}

const IDENT = /[\p{L}_$][\p{L}\p{N}_$]*/gu;
const BRACKETED = /<[^<>]*>|\[[^[\]]*\]|\([^()]*\)/g;
const HAS_BRACKET = /[<[(]/;
const ASCII_IDENT = /^[A-Za-z_$][\w$]*$/;
const WHITESPACE = /\s/;

/** The last identifier of a callee or type expression: `bar` for `obj.bar`, `Base` for `pkg.Base<T>`. */
export function lastIdentifier(expr: string): string | null {
  // Most callees are one plain identifier.
  if (ASCII_IDENT.test(expr)) return expr;
  let text = expr;
  // Peel nested brackets from the inside out (type arguments, indexes, call arguments).
  for (let i = 0; i < 8 && HAS_BRACKET.test(text); i++) {
    const peeled = text.replace(BRACKETED, '');
    if (peeled === text) break;
    text = peeled;
  }
  const all = text.match(IDENT);
  return all ? all[all.length - 1] : null;
}

/**
 * A reference name as written, on one line and without spaces around member
 * access (`a\n  .b` → `a.b`); the bare identifier when that is still too long.
 */
export function referenceName(text: string): string {
  // Without whitespace there is nothing to compact.
  const compact = !WHITESPACE.test(text) ? text : text
    .replace(/\s+/g, ' ')
    .replace(/ ?(\?\.|->|::|[.()[\]<>]) ?/g, '$1')
    .trim();
  if (compact.length <= MAX_REFERENCE_NAME) return compact;
  return lastIdentifier(compact) ?? compact.slice(-MAX_REFERENCE_NAME);
}
