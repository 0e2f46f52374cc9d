/**
 * C++ template heads the grammar misreads. tree-sitter-cpp reads some parameter lists that
 * nest templates in templates as comparisons (`typename std::enable_if < C < X, d::N<S<V>> >::value,
 * int >::type = 0 >`, `std::is_convertible<I, O<void(A<Args>...)>>`): the `>` it then misses
 * closes the class around the member early, and every later member of a large class reads as
 * top-level code with errors. A definition's parameter list holds no name the index reads,
 * so for the second reading of a file with errors the inside of every such list is blanked:
 * `template <…>` becomes `template <   >`, which the grammar reads as a specialisation head
 * (the definition after it is read the same). Offsets, lines and columns are unchanged.
 */

/** `template <` (not `x.template get<T>()`, which has no `<` right after the keyword). */
const HEAD = /\btemplate\s*</g;

/** The index just past the `>` that closes the list opened at `open`, or -1 (unbalanced, or a statement ends first). */
function closingAngle(text: string, open: number): number {
  let angles = 0;
  let parens = 0;
  const limit = Math.min(text.length, open + 4000);
  for (let i = open; i < limit; i++) {
    const c = text[i];
    if (c === '(') parens++;
    else if (c === ')') parens = Math.max(0, parens - 1);
    else if (c === ';' || c === '{' || c === '}') return -1;
    else if (parens > 0) continue;
    else if (c === '<') angles++;
    else if (c === '>' && --angles === 0) return i + 1;
  }
  return -1;
}

/** The text with the inside of every template parameter list that nests a template blanked (same length and lines). */
export function blankTemplateHeads(text: string): string {
  if (!text.includes('template')) return text;
  let chars: string[] | null = null;
  for (const m of text.matchAll(HEAD)) {
    const open = m.index + m[0].length - 1;
    const end = closingAngle(text, open);
    // Only lists with a template inside: `<typename T>` reads well as it is.
    if (end < 0 || !text.slice(open + 1, end - 1).includes('<')) continue;
    chars ??= text.split('');
    for (let i = open + 1; i < end - 1; i++) if (chars[i] !== '\n' && chars[i] !== '\r') chars[i] = ' ';
  }
  return chars ? chars.join('') : text;
}
