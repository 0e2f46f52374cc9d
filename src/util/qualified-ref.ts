/**
 * A symbol name as people write it: `Name`, or a member behind its owner in
 * any of the usual spellings: `Type.method`, `Type::method`, `pkg.Func`,
 * `module.func`, `Class#method`, `Type method`. Qualified names in the index
 * join their parts with '.', so the owner comes back '.'-joined.
 */
export interface QualifiedRef {
  /** The enclosing names, '.'-joined (`a.B` for `a::B::c`); null for a bare name. */
  owner: string | null;
  /** The last part: the symbol's own name. */
  name: string;
  /** How the last part was attached: '.', '::', '#', ' ', or null for a bare name. */
  separator: '.' | '::' | '#' | ' ' | null;
}

const PART = '[\\p{L}\\p{N}_$]+';
/**
 * What a definition can be named besides an identifier: a Ruby predicate,
 * bang or setter (`valid?`, `save!`, `name=`), a Rust raw identifier
 * (`r#type`), an ECMAScript private name (`#secret`), a C++ destructor (`~Parser`), a C++ operator function (`operator==`, `operator()`), or an
 * operator method (`==`, `<=>`, `[]`, `[]=`, `+@`). Whole-punctuation names
 * never hold `.`, `:`, `#`, quotes or spaces, and a lone run of `*` is not one
 * (it is search's prefix syntax).
 */
const NAME = `(?:${PART}[?!=]?|r#${PART}|#${PART}|~${PART}|operator\\s*[^\\s\\p{L}\\p{N}_$"'.:#]+|(?!\\*+$)[^\\s\\p{L}\\p{N}_$"'.:#]+)`;
const BARE = new RegExp(`^${NAME}$`, 'u');
const QUALIFIED = new RegExp(`^(${PART}(?:(?:\\.|::)${PART})*)(\\.|::|#| )(${NAME})$`, 'u');
const IDENTIFIER = new RegExp(`^${PART}$`, 'u');

/**
 * True for a name full-text search cannot spell: not a plain identifier
 * (`==`, `valid?`, `operator[]`, `r#type`, `#secret`, `~Parser`), or one without a letter
 * or digit (`_`, `$`).
 */
export function isPunctuatedName(name: string): boolean {
  return !IDENTIFIER.test(name) || !/[\p{L}\p{N}]/u.test(name);
}

/**
 * Splits a name-like text into owner and name; null when the text is not a
 * name (globs, several words, punctuation around a word). Operator and
 * punctuated definition names count as names (see NAME).
 *
 * @example
 * splitQualified('http::Server::listen') // { owner: 'http.Server', name: 'listen', separator: '::' }
 */
export function splitQualified(text: string): QualifiedRef | null {
  const t = text.trim();
  if (BARE.test(t)) return { owner: null, name: t, separator: null };
  const m = QUALIFIED.exec(t);
  if (!m) return null;
  return { owner: m[1].replace(/::/g, '.'), name: m[3], separator: m[2] as QualifiedRef['separator'] };
}

/** The last part of a '.'-joined owner (`Server` for `http.Server`). */
export function lastPart(owner: string): string {
  return owner.slice(owner.lastIndexOf('.') + 1);
}

/**
 * True when a file's path names `owner` as a folder or a module file
 * (`pkg/x.go` for `pkg`, `json/decoder.py` or `decoder.py` for `decoder`):
 * how `pkg.Func` and `module.func` qualify a top-level definition.
 */
export function pathNamesOwner(path: string, owner: string): boolean {
  const p = `/${path}`;
  return p.includes(`/${owner}/`) || p.includes(`/${owner}.`);
}
