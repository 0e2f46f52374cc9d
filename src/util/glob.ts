/**
 * Path globs: the one syntax of every path-filter parameter (grep's and
 * dead_code's `path`, find's `pattern`, search's `file_pattern`; tools
 * compile them through `globArg` and describe them with `globParamText`,
 * both in src/tools/params.ts).
 *
 * Syntax: `*` (any run of characters except `/`), `**` (any number of whole
 * segments), `?` (one character except `/`), `{a,b}` (alternatives, nestable),
 * `[abc]` / `[a-z]` / `[!x]` / `[^x]` (one character), `\x` (literal x).
 * Brackets and braces must balance.
 *
 * Matching: a glob without `/` is tested against every segment of the path,
 * so `*.ts` finds `src/a.ts` and `test` finds everything under any `test`
 * folder; a glob with `/` is anchored at the project root, and when it
 * matches a folder it matches everything under it (`src/db` = `src/db/**`).
 * A leading `./` or `/` is ignored; a trailing `/` means the folder.
 */
export class GlobError extends Error {}

export interface Glob {
  readonly source: string;
  /** A folder every matching path lies under ('' when the glob can match anywhere): lets SQL narrow the rows. */
  readonly folder: string;
  test(path: string): boolean;
}

function classBody(glob: string, start: number): { regex: string; end: number } {
  let i = start + 1;
  let negated = false;
  if (glob[i] === '!' || glob[i] === '^') {
    negated = true;
    i++;
  }
  let body = '';
  let first = true;
  while (i < glob.length && (glob[i] !== ']' || first)) {
    const c = glob[i];
    if (c === '\\' && i + 1 < glob.length) {
      body += /[A-Za-z0-9]/.test(glob[i + 1]) ? glob[i + 1] : `\\${glob[i + 1]}`;
      i += 2;
    } else {
      body += c === '-' ? '-' : /[\\\]^[]/.test(c) ? `\\${c}` : c;
      i++;
    }
    first = false;
  }
  if (i >= glob.length) throw new GlobError(`unbalanced '[' at position ${start + 1}: add the closing ']' (or escape it as \\[)`);
  // A class never matches the separator, negated or not.
  return { regex: negated ? `[^/${body}]` : `(?:(?!/)[${body}])`, end: i + 1 };
}

function translate(glob: string): string {
  let out = '';
  let depth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') {
      if (i + 1 < glob.length) out += escapeChar(glob[++i]);
      else out += '\\\\';
    } else if (c === '*') {
      if (glob[i + 1] === '*') {
        const atStart = i === 0 || glob[i - 1] === '/';
        const atEnd = i + 2 === glob.length || glob[i + 2] === '/';
        i++;
        while (glob[i + 1] === '*') i++;
        if (atStart && glob[i + 1] === '/') {
          out += '(?:.*/)?'; // `**/`: zero or more whole segments
          i++;
        } else if (atStart && atEnd) out += '.*';
        else out += '[^/]*';
      } else out += '[^/]*';
    } else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const cls = classBody(glob, i);
      out += cls.regex;
      i = cls.end - 1;
    } else if (c === '{') {
      depth++;
      out += '(?:';
    } else if (c === ',' && depth > 0) out += '|';
    else if (c === '}') {
      if (depth === 0) throw new GlobError(`unbalanced '}' at position ${i + 1}: remove it, add the opening '{', or escape it as \\}`);
      depth--;
      out += ')';
    } else if (c === ']') {
      throw new GlobError(`unbalanced ']' at position ${i + 1}: remove it, add the opening '[', or escape it as \\]`);
    } else out += escapeChar(c);
  }
  if (depth > 0) throw new GlobError(`unbalanced '{': ${depth} brace(s) not closed; add '}' (or escape it as \\{)`);
  return out;
}

function escapeChar(c: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(c) ? `\\${c}` : c;
}

/** Compiles a glob; throws GlobError naming the unbalanced bracket or brace. */
export function compileGlob(source: string): Glob {
  const trimmed = source.trim();
  let glob = trimmed.replace(/^(\.\/|\/)+/, '').replace(/\/+$/, '');
  if (glob === '' || glob === '.') glob = '**';
  const body = translate(glob);
  // Rooted when it names a path (any `/`, leading or trailing) or starts with `**`.
  const anchored = trimmed.includes('/') || glob.startsWith('**');
  const regex = anchored ? new RegExp(`^(?:${body})(?:/|$)`) : new RegExp(`(?:^|/)(?:${body})(?:/|$)`);
  // The literal lead of a rooted glob, up to its last complete folder: `src/db/*.ts` → `src/db`.
  const lead = anchored ? glob.slice(0, glob.search(/[*?[{\\]|$/)) : '';
  const folder = lead.includes('/') ? lead.slice(0, lead.lastIndexOf('/')) : '';
  return { source, folder, test: (path) => regex.test(path) };
}
