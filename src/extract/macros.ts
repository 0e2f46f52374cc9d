/**
 * C and C++ annotation macros, blanked before parsing. Headers wrap declarations in
 * export, visibility and attribute macros the grammar cannot expand (`class GTEST_API_ Foo`,
 * `FMT_CONSTEXPR auto f()`, `OPENSSL_EXPORT int g(void);`, `FMT_BEGIN_NAMESPACE` alone on a
 * line); each one turns a declaration into an ERROR. Like ctags, we read past them: a macro is
 * replaced by as many spaces, so every offset, line and column stays the same and names and
 * signatures are still read from the original text.
 *
 * A macro is an ALL_CAPS identifier with an underscore (`FMT_API`, `GTEST_API_`), blanked only
 * where it cannot be a type or a value:
 * - between `class`/`struct`/`union` and the type's name, when a body or a base list follows;
 * - in front of a declaration: at the start of a line (after `template <…>` and specifiers
 *   such as `static`/`inline`/`friend`), followed by a declaration that still has its type
 *   and name (`FMT_API void f(`, `GTEST_API_ ::testing::Env* g(`, a keyword) — so `SSL_CTX *ctx;`
 *   and `EVP_MD md;` keep their type;
 * - alone on a line after the end of a statement, a block, a comment or a directive, with a
 *   declaration or a directive after it (`FMT_BEGIN_NAMESPACE`, `JSON_HEDLEY_NON_NULL(1)`);
 * - a whole `MACRO(…);` line at column 0 (not a statement of an indented body): a macro that
 *   expands to declarations, whose arguments (`unsigned char, '\0'`) derail the parse;
 * - after a parameter list (`void f() const FMT_NOEXCEPT {`);
 * - an access specifier written as a macro, alone on its line (`JSON_PRIVATE_UNLESS_TESTED:`,
 *   blanked with its colon) or after the keyword (`public Q_SLOTS:`): the grammar reads neither,
 *   and one of them in a class body turns the rest of the class into an ERROR.
 * `__attribute__((…))` and `__declspec(…)` are blanked wherever they stand, and a type written
 * as a macro call at the start of a declaration (`STACK_OF(X509) *certs;`) becomes one identifier
 * of the same length (`STACK_OF_X509_`).
 * Deterministic, linear in the text, and a no-op for text without such macros.
 */
import { firstBranch } from './preprocessor';
import { blankTemplateHeads } from './template-heads';
import { blanked } from './text';

const MACRO = String.raw`[A-Z][A-Z0-9]*_[A-Z0-9_]*\b`;
const ARGS = String.raw`(?:\s*\((?:[^()\n]|\([^()\n]*\))*\))?`;

/** `class MACRO Name {`, `struct MACRO MACRO2 Name : Base`. */
const TYPE_HEAD = new RegExp(String.raw`\b(?:class|struct|union)\s+((?:${MACRO}${ARGS}\s+)+)(?=[A-Za-z_]\w*\s*(?:final\b\s*)?[:{<])`, 'g');

const SPECIFIER = /^(?:static|inline|extern|friend|virtual|explicit|constexpr|consteval|constinit)$/;
const KEYWORD_HEAD = /^(?:(?:inline|static|extern|constexpr|consteval|virtual|explicit|friend|const|volatile|typename|template|class|struct|union|enum|namespace|typedef|using|auto|void|bool|char|short|int|long|unsigned|signed|float|double|operator)\b|~)/;
/** A type then a name (`basic_json parse(`, `::testing::Env* g(`), or a constructor (`rgb(`). */
const DECLARATION_HEAD = /^(?:(?:::)?[A-Za-z_][\w:]*(?:<[^;{}]*>)?[\s*&]+\s*[*&]*\s*(?:[A-Za-z_~][\w:]*|operator\b)|[A-Za-z_]\w*\s*\()/;

/** After a parameter list: `void f() const FMT_NOEXCEPT {`, `auto g() FMT_NOEXCEPT -> int;`. */
const TRAILING = new RegExp(String.raw`\)((?:\s*(?:(?:const|volatile|noexcept|override|final)\b|&&?))*\s*)((?:${MACRO}${ARGS}\s*)+)(?=[{;=:]|->|override\b|final\b|noexcept\b|const\b)`, 'g');

const LINE = /^([ \t]*)(.*)$/gm;
const TEMPLATE_PREFIX = /^template\s*<(?:[^<>\n]|<(?:[^<>\n]|<[^<>\n]*>)*>)*>\s*/;
const WORD = new RegExp(String.raw`^(?:(${MACRO})${ARGS}|([A-Za-z_]\w*))\s*`);
const LONE = new RegExp(String.raw`^${MACRO}${ARGS}\s*$`);
/** `GMOCK_DEFINE_…_(unsigned char, '\0');` at column 0: a macro that expands to declarations. */
const DECLARING_CALL = new RegExp(String.raw`^${MACRO}${ARGS}\s*;`);

/** `JSON_PRIVATE_UNLESS_TESTED:`, `public Q_SLOTS:` (not `NS::name`). */
const ACCESS = new RegExp(String.raw`^((?:(?:public|protected|private)\s+)?)(${MACRO})(\s*:)(?!:)\s*(?:\/\/.*)?$`);

/** `__attribute__ ((aligned (2)))`, `__declspec(dllexport)`: compiler annotations, never a type or a value. */
const ATTRIBUTE = /\b(?:__attribute__|__declspec)\s*\(/g;

/** End of the balanced parenthesis opened at `open` (exclusive), or -1 within a short window. */
function closing(text: string, open: number): number {
  let depth = 0;
  const limit = Math.min(text.length, open + 2000);
  for (let i = open; i < limit; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i + 1;
    else if (c === ';' || c === '{' || c === '}') return -1;
  }
  return -1;
}

/** A type written as a macro call, `STACK_OF(X509) *certs`, `typedef LHASH_OF(X) Y;`. */
const MACRO_TYPE = new RegExp(String.raw`^([ \t]*(?:(?:typedef|const|static|extern)\s+)*)(${MACRO})\(([ \t]*[A-Za-z_]\w*[ \t]*)\)(?=[ \t]*[*&]*[ \t]*[A-Za-z_])`, 'gm');

function blank(chars: string[], from: number, to: number): void {
  const spaces = blanked(chars.slice(from, to).join(''));
  for (let i = 0; i < spaces.length; i++) chars[from + i] = spaces[i];
}

function looksLikeDeclaration(rest: string): boolean {
  return KEYWORD_HEAD.test(rest) || DECLARATION_HEAD.test(rest);
}

/**
 * The last significant character before `lineStart` ignoring blanks: '' at the start of the text.
 * Lines are read from `chars` (what is masked so far), so a macro line blanked just before (the
 * first of `FMT_BEGIN_NAMESPACE` / `FMT_BEGIN_EXPORT`) is no statement end of its own.
 */
function previousLineEnd(text: string, lineStart: number, chars: readonly string[]): string {
  let end = lineStart - 1;
  while (end >= 0) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    // A trailing comment (`}  // namespace detail`) is not the line's end.
    const line = chars.slice(start, end).join('').replace(/\s\/\/.*$/, '').trim();
    if (line.length > 0) {
      if (line.startsWith('#') || line.startsWith('//') || line.endsWith('*/') || line.endsWith('\\')) return '#';
      return line[line.length - 1];
    }
    end = start - 1;
  }
  return '';
}

function nextLineStart(text: string, from: number): string {
  const m = /\S/.exec(text.slice(from, from + 400));
  return m ? m[0] : '';
}

/** Masks the annotation macros of a C or C++ text (same length, same lines). */
export function maskMacros(original: string): string {
  const attributes = original.includes('__attribute__') || original.includes('__declspec');
  if (!attributes && !/[A-Z][A-Z0-9]*_/.test(original)) return original;
  let chars = original.split('');
  let changed = false;
  for (const m of original.matchAll(MACRO_TYPE)) {
    // `STACK_OF(X509)` → `STACK_OF_X509_`: one identifier of the same length.
    const open = m.index + m[1].length + m[2].length;
    const close = open + 1 + m[3].length;
    for (let i = open; i <= close; i++) if (chars[i] === '(' || chars[i] === ')' || chars[i] === ' ' || chars[i] === '\t') chars[i] = '_';
    changed = true;
  }
  // The rules below read the text with macro types already joined (`typedef STACK_OF_X_ Y;`).
  const text = changed ? chars.join('') : original;
  chars = text.split('');
  if (attributes) {
    for (const m of text.matchAll(ATTRIBUTE)) {
      const end = closing(text, m.index + m[0].length - 1);
      if (end < 0) continue;
      blank(chars, m.index, end);
      changed = true;
    }
  }
  for (const m of text.matchAll(TYPE_HEAD)) {
    const at = m.index + m[0].indexOf(m[1]);
    blank(chars, at, at + m[1].length);
    changed = true;
  }
  for (const m of text.matchAll(TRAILING)) {
    const at = m.index + 1 + m[1].length;
    blank(chars, at, at + m[2].trimEnd().length);
    changed = true;
  }
  for (const m of text.matchAll(LINE)) {
    const body = m[2];
    if (!/[A-Z][A-Z0-9]*_/.test(body) || body.startsWith('#')) continue;
    const lineStart = m.index + m[1].length;
    const call = m[1] === '' ? DECLARING_CALL.exec(body) : null;
    if (call && ';{}>:#'.includes(previousLineEnd(text, m.index, chars) || ';')) {
      blank(chars, lineStart, lineStart + call[0].length);
      changed = true;
      continue;
    }
    const access = ACCESS.exec(body);
    if (access) {
      const at = lineStart + access[1].length;
      blank(chars, at, at + access[2].length + (access[1] === '' ? access[3].length : 0));
      changed = true;
      continue;
    }
    if (LONE.test(body)) {
      const before = previousLineEnd(text, m.index, chars);
      const after = nextLineStart(text, m.index + m[0].length);
      if ((before === '' || ';{}>:#'.includes(before)) && (after === '' || /[A-Za-z_#~[:/]/.test(after))) {
        blank(chars, lineStart, lineStart + body.length);
        changed = true;
      }
      continue;
    }
    // A declaration's head: template <…>, then specifiers and macros.
    let offset = 0;
    const template = TEMPLATE_PREFIX.exec(body);
    if (template) offset = template[0].length;
    const macros: [number, number][] = [];
    let stop = offset;
    for (;;) {
      const w = WORD.exec(body.slice(stop));
      if (!w) break;
      if (w[1] !== undefined) macros.push([stop, stop + w[0].trimEnd().length]);
      else if (!SPECIFIER.test(w[2])) break;
      stop += w[0].length;
    }
    // The last macro may be the declaration's type (`BOOL WINAPI f(`, `static SSL_CTX *x`).
    while (macros.length > 0 && !looksLikeDeclaration(body.slice(stop))) {
      const last = macros.pop() as [number, number];
      stop = last[0];
    }
    for (const [from, to] of macros) {
      blank(chars, lineStart + from, lineStart + to);
      changed = true;
    }
  }
  return changed ? chars.join('') : original;
}

/**
 * A macro used as a statement or a block head, alone on its line (`JSON_TRY`, `JSON_CATCH (…) {}`,
 * `FOO_FOREACH(x, list) {`, `JSON_HEDLEY_DEPRECATED_FOR(3.0, f()) // note`): nothing follows it
 * but a block, a comment or the end of the line (no `;`, no `\` continuation).
 */
const STATEMENT = new RegExp(String.raw`^([ \t]+)(${MACRO}${ARGS})(?=[ \t]*(?:\{|\/\/|\/\*|\r?$))`, 'gm');

/**
 * The text for a second parse of a C or C++ file whose first parse has errors (same length and
 * lines): statement macros blanked, one branch of each conditional kept (preprocessor.ts) and
 * template parameter lists that nest templates blanked (template-heads.ts).
 * Not applied to a file that parses cleanly, so the definitions of its other branches stay.
 */
export function maskOnError(text: string): string {
  const masked = text.replace(STATEMENT, (_m, indent: string, call: string) => indent + blanked(call));
  return blankTemplateHeads(firstBranch(masked));
}
