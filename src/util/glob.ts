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
  /** Fixed strings every matching path contains (case-sensitive): lets SQL drop most other rows before `test`. */
  readonly literals: readonly string[];
  /**
   * Set when `test` is exactly a plain condition SQL can check without reading paths first:
   * `under` — the path is that one or lies under it (`src/db`, `src/db/`); `prefix` — the path
   * starts with it (`src/db/**` → `src/db/`); `ending` — some segment of the path ends with it
   * (`*.py`, `**\/*.py`).
   */
  readonly plain?: PlainGlob;
  /** Fixed text some segment of every matching path ends with ('' when none): the glob's own ending, before any wildcard. */
  readonly ending: string;
  test(path: string): boolean;
}

export type PlainGlob = { under: string } | { prefix: string } | { ending: string };

/** Characters that make a glob more than a fixed string. */
const SPECIAL = /[*?[\]{}\\]/;

/** The plain condition `glob` (normalised) is exactly, or undefined (see Glob.plain). */
function plainGlob(glob: string, anchored: boolean): PlainGlob | undefined {
  if (anchored && !SPECIAL.test(glob)) return { under: glob };
  if (glob.endsWith('/**') && glob.length > 3 && !SPECIAL.test(glob.slice(0, -3))) return { prefix: glob.slice(0, -2) };
  // `*L` unrooted tests every segment; `**/*L` reaches every depth: both ask for a segment ending in L.
  const ending = glob.startsWith('**/*') ? glob.slice(4) : !anchored && glob.startsWith('*') ? glob.slice(1) : null;
  if (ending && !ending.includes('/') && !SPECIAL.test(ending)) return { ending };
  return undefined;
}

/**
 * The fixed characters the glob (normalised) ends with. Its last segment matches one whole segment of a matching
 * path (a glob matching a folder matches what lies under it), so that segment ends with them.
 */
function fixedEnding(glob: string): string {
  let i = glob.length;
  while (i > 0 && !/[*?[\]{}\\/]/.test(glob[i - 1])) i--;
  return glob.slice(i);
}

/** Most literals a glob hands to SQL (each is a bound parameter). */
const MAX_LITERALS = 8;

/**
 * The runs of fixed characters every path matching `glob` contains: the
 * text between wildcards, outside classes and braces (an alternative is not
 * required). The `/` of a leading `**\/` is optional, so it is no literal.
 */
function requiredLiterals(glob: string): string[] {
  const out: string[] = [];
  let run = '';
  let depth = 0;
  const cut = () => {
    if (run && depth === 0) out.push(run);
    run = '';
  };
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\' && i + 1 < glob.length) {
      if (depth === 0) run += glob[++i];
      else i++;
    } else if (c === '*') {
      cut();
      const atStart = i === 0 || glob[i - 1] === '/';
      while (glob[i + 1] === '*') i++;
      if (atStart && glob[i] === '*' && glob[i - 1] === '*' && glob[i + 1] === '/') i++;
    } else if (c === '?') cut();
    else if (c === '[') {
      cut();
      // As classBody reads it: an optional ! or ^, then up to the first ] that is not the first character.
      let j = i + 1;
      if (glob[j] === '!' || glob[j] === '^') j++;
      for (let first = true; j < glob.length && (glob[j] !== ']' || first); first = false) j += glob[j] === '\\' ? 2 : 1;
      i = j;
    } else if (c === '{') {
      cut();
      depth++;
    } else if (c === '}') {
      run = '';
      depth = Math.max(0, depth - 1);
    } else if (depth === 0) run += c;
  }
  cut();
  return [...new Set(out)].sort((a, b) => b.length - a.length).slice(0, MAX_LITERALS);
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
  const plain = plainGlob(glob, anchored);
  return { source, folder, literals: requiredLiterals(glob), ...(plain ? { plain } : {}), ending: fixedEnding(glob), test: (path) => regex.test(path) };
}
