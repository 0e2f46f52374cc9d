/**
 * C and C++ conditional compilation, read as ctags reads it: one branch of each `#if`.
 * The grammar parses every branch of an `#if … #else … #endif` as if all were compiled, so
 * a conditional inside a declaration (`#if defined(X)` between two template arguments, two
 * alternative heads of one function, a `#elif` in an expression) leaves braces and brackets
 * unbalanced and tree-sitter folds the rest of the file — a whole class — into one ERROR.
 *
 * `firstBranch` keeps the first branch of every conditional (the `#else` branch of `#if 0`)
 * and blanks the directive lines and the other branches, so the text stays balanced when
 * the code was. Offsets, lines and columns are unchanged (blanked characters become spaces,
 * line breaks stay). Used only for the second parse of a file whose first parse has errors.
 */
import { blanked } from './text';

const DIRECTIVE = /^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b(.*)$/;

interface Frame {
  /** The branch being read is blanked. */
  skip: boolean;
  /** A branch of this conditional was kept already. */
  taken: boolean;
}

const IF_ZERO = /^\s*0\s*(?:\/[/*].*)?$/;

/** The text with only the first branch of each preprocessor conditional kept (same length and lines). */
export function firstBranch(text: string): string {
  if (!/^[ \t]*#[ \t]*if/m.test(text)) return text;
  const lines = text.split('\n');
  const stack: Frame[] = [];
  let skipping = 0;
  let continued = false;
  let changed = false;
  const blankLine = (i: number) => {
    if (/[^\s]/.test(lines[i])) changed = true;
    lines[i] = blanked(lines[i]);
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (continued) {
      // The continuation of a directive blanked on the line before.
      continued = line.trimEnd().endsWith('\\');
      blankLine(i);
      continue;
    }
    const m = DIRECTIVE.exec(line);
    if (!m) {
      if (skipping > 0) blankLine(i);
      continue;
    }
    const [, word, rest] = m;
    continued = line.trimEnd().endsWith('\\');
    if (word === 'if' || word === 'ifdef' || word === 'ifndef') {
      const zero = word === 'if' && IF_ZERO.test(rest);
      stack.push({ skip: zero, taken: !zero });
      if (zero) skipping++;
    } else if (stack.length > 0) {
      const top = stack[stack.length - 1];
      if (top.skip) skipping--;
      if (word === 'endif') {
        stack.pop();
      } else {
        top.skip = top.taken;
        top.taken = true;
        if (top.skip) skipping++;
      }
    }
    blankLine(i);
  }
  return changed ? lines.join('\n') : text;
}
