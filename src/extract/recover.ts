/**
 * Reading a file whose parse has errors. tree-sitter's own recovery can fold a whole file
 * into one ERROR node (a bash regex the grammar cannot read turns 2,000 lines into one error;
 * a C# `#if` inside a base list loses the class), so two generic retries follow a parse with
 * errors, each kept only where it reads more of the file:
 * - the row's `blankOnError` lines (directives the grammar cannot place) are blanked, offsets
 *   unchanged, and the file parsed again: the tree with fewer ERROR characters wins;
 * - every top-level ERROR region is parsed again on its own, in chunks cut where a blank line
 *   is followed by a line at column 0 (the start of a top-level statement in most languages),
 *   so one construct the grammar cannot read costs its chunk, not the rest of the file. Where a
 *   chunk cannot be read either, what the first parse read cleanly there is kept.
 */
import { commentsBefore } from './collect';
import { blanked } from './text';
import { parse, runQuery } from './parser';
import type { Deadline, Grammar, Query, QueryMatch, SyntaxNode, TextRange, Tree } from './parser';

export interface RecoveryLanguage {
  grammar: Grammar;
  /**
   * Lines blanked for a second parse when the first has errors (e.g. C# preprocessor lines),
   * or a rewrite of the text that keeps every offset (e.g. one branch of each C `#if`).
   */
  blankOnError?: RegExp | ((text: string) => string);
  /** Node types of the comments a `@documented` capture reads (default: `comment`). */
  docComments?: readonly string[];
}

export interface ReadFile {
  /** Every tree whose nodes the matches hold: delete them all when done. */
  trees: Tree[];
  matches: QueryMatch[];
  /** The query ran to its end on every tree. */
  complete: boolean;
  hadErrors: boolean;
  /** Characters of the text under ERROR nodes in what was kept. */
  errorChars: number;
}

/** Share of the budget left after the first parse that a second parse of a damaged file may use. */
const RETRY_SHARE = 0.6;

/** A chunk starts after a blank line, at a line that starts at column 0 and does not close a block. */
const CHUNK_START = /\n[ \t]*\r?\n(?=[^\s)\]}])/g;

/** Characters under ERROR nodes (descends only into subtrees that hold errors). */
export function errorChars(root: SyntaxNode): number {
  if (root.isError) return root.endIndex - root.startIndex;
  let covered = 0;
  const pending: SyntaxNode[] = [root];
  while (pending.length > 0) {
    const node = pending.pop();
    if (!node) break;
    if (node.isError) {
      covered += node.endIndex - node.startIndex;
      continue;
    }
    if (!node.hasError) continue;
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (child) pending.push(child);
    }
  }
  return covered;
}

/** Nodes the parser had to invent (a MISSING `;`): they cover no text, but a tree without them reads better. */
function missingNodes(root: SyntaxNode): number {
  let missing = 0;
  const pending: SyntaxNode[] = [root];
  while (pending.length > 0) {
    const node = pending.pop();
    if (!node || !node.hasError || node.isError) continue;
    if (node.isMissing) missing++;
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (child) pending.push(child);
    }
  }
  return missing;
}

/** The same text with every match of `lines` replaced by spaces (offsets and rows unchanged). */
function blank(content: string, lines: RegExp): string {
  const flags = lines.flags.includes('g') ? lines.flags : `${lines.flags}g`;
  return content.replace(new RegExp(lines.source, flags), blanked);
}

/** The top-level ERROR regions of a tree (the root itself when it is one). */
function damagedRegions(root: SyntaxNode): TextRange[] {
  if (root.isError) return [{ start: root.startIndex, end: root.endIndex }];
  const out: TextRange[] = [];
  for (let i = 0; i < root.childCount; i++) {
    const child = root.child(i);
    if (child?.isError) out.push({ start: child.startIndex, end: child.endIndex });
  }
  return out;
}

/** `region` cut at chunk starts. */
function chunks(content: string, region: TextRange): TextRange[] {
  const text = content.slice(region.start, region.end);
  const out: TextRange[] = [];
  let from = 0;
  CHUNK_START.lastIndex = 0;
  for (let m = CHUNK_START.exec(text); m; m = CHUNK_START.exec(text)) {
    const at = m.index + m[0].length;
    if (at > from) out.push({ start: region.start + from, end: region.start + at });
    from = at;
  }
  if (from < text.length) out.push({ start: region.start + from, end: region.end });
  return out;
}

/** The end of the range of `regions` that holds `node`'s start. */
const endOf = (node: SyntaxNode, regions: readonly TextRange[]) => regions.find((r) => node.startIndex >= r.start && node.startIndex < r.end)?.end ?? -1;

/** Runs of lines blank in `after` that hold text in `before` (same length and lines). */
function blankedLines(before: string, after: string): TextRange[] {
  const out: TextRange[] = [];
  let start = 0;
  while (start < before.length) {
    let end = before.indexOf('\n', start);
    if (end === -1) end = before.length;
    if (!/\S/.test(after.slice(start, end))) {
      // Runs of lines blank after the rewrite, empty lines included.
      const last = out.at(-1);
      if (last && last.end >= start - 1) last.end = end;
      else out.push({ start, end });
    }
    start = end + 1;
  }
  return out.filter((r) => /\S/.test(before.slice(r.start, r.end)));
}

const inside = (node: SyntaxNode, regions: readonly TextRange[]) => regions.some((r) => node.startIndex >= r.start && node.startIndex < r.end);

/**
 * Where a match starts: at the doc comments right before its `@documented` node when there are
 * any, else at its first other capture (the captures of a match come in tree order).
 */
function startOf(match: QueryMatch, comments: ReadonlySet<string>): SyntaxNode | undefined {
  for (const { name, node } of match.captures) {
    if (name !== 'documented') return node;
    const docs = commentsBefore(node, comments);
    if (docs.length > 0) return docs[0];
  }
  return undefined;
}

/**
 * Parses `content` and runs `query`, recovering what a parse with errors lost; null when the
 * deadline cancelled the first parse.
 */
export function readFile(language: RecoveryLanguage, query: Query, content: string, deadline: Deadline): ReadFile | null {
  const first = parse(language.grammar, content, deadline);
  if (!first) return null;
  const trees = [first];
  // The trees live in the WASM heap: a throw below must not strand them there.
  try {
    return readTrees(language, query, content, deadline, first, trees);
  } catch (err) {
    for (const tree of trees) tree.delete();
    throw err;
  }
}

type ParsedTree = NonNullable<ReturnType<typeof parse>>;

/** The body of `readFile` once the first parse exists; every tree it parses joins `trees`. */
function readTrees(language: RecoveryLanguage, query: Query, content: string, deadline: Deadline, first: ParsedTree, trees: ParsedTree[]): ReadFile {
  let main = first;
  /** Lines the winning rewrite blanked (other `#if` branches): the first tree still reads them. */
  let blanked: TextRange[] = [];
  const comments = new Set(language.docComments ?? ['comment']);
  const startsIn = (match: QueryMatch, regions: readonly TextRange[]) => {
    const start = startOf(match, comments);
    return start !== undefined && inside(start, regions);
  };
  let errors = main.rootNode.hasError ? errorChars(main.rootNode) : 0;
  // A tree may have errors that cover no text: a MISSING `;` after each of two alternative
  // function heads (`#if … R f(…) #else R g(…) #endif {…}`) leaves the body outside both.
  if (main.rootNode.hasError && language.blankOnError) {
    // The second parse may spend only a share of what is left (cancelled there, it costs that
    // share): the query must still run on the first tree when it does not finish.
    const rewrite = language.blankOnError;
    const retry = deadline.slice(RETRY_SHARE);
    const rewritten = typeof rewrite === 'function' ? rewrite(content) : blank(content, rewrite);
    const second = parse(language.grammar, rewritten, retry);
    if (second) {
      const secondErrors = second.rootNode.hasError ? errorChars(second.rootNode) : 0;
      // Fewer ERROR characters wins; a first tree without any (only MISSING nodes) loses to a
      // second with fewer of those.
      if (secondErrors < errors || (errors === 0 && secondErrors === 0 && (second.rootNode.hasError ? missingNodes(second.rootNode) : 0) < missingNodes(main.rootNode))) {
        main = second;
        errors = secondErrors;
        blanked = blankedLines(content, rewritten);
      }
      trees.push(second);
    }
  }
  const hadErrors = main.rootNode.hasError;
  const regions = errors > 0 ? damagedRegions(main.rootNode) : [];
  const whole = runQuery(query, main.rootNode, deadline);
  const matches = regions.length === 0 ? whole.matches : whole.matches.filter((m) => !m.captures.some((c) => inside(c.node, regions)));
  let complete = whole.complete;
  const failed: TextRange[] = [];
  // Chunks left unparsed when the budget ran out keep what the whole tree read there.
  const unread: TextRange[] = [];
  for (const region of regions) {
    for (const chunk of chunks(content, region)) {
      const tree = deadline.expired ? null : parse(language.grammar, content, deadline, chunk);
      if (!tree) {
        unread.push(chunk);
        continue;
      }
      trees.push(tree);
      const read = runQuery(query, tree.rootNode, deadline);
      matches.push(...read.matches);
      complete &&= read.complete;
      if (tree.rootNode.hasError) failed.push(chunk);
      // The chunk replaces its share of the region's error.
      errors -= chunk.end - chunk.start - (tree.rootNode.hasError ? errorChars(tree.rootNode) : 0);
    }
  }
  // A chunk the parser could not read either (a heredoc cut by a blank line) keeps what the
  // first parse read cleanly there: definitions without errors that start in it.
  if (failed.length > 0) {
    const kept = whole.matches.filter((m) => startsIn(m, failed) && m.captures.every((c) => !c.node.hasError));
    matches.push(...kept);
  }
  if (unread.length > 0) matches.push(...whole.matches.filter((m) => startsIn(m, unread)));
  // Definitions in what the rewrite blanked (the `#else` branch of a C header) as the first tree
  // read them: only matches lying wholly in blanked lines (a directive's own line break
  // included), so nothing is read twice.
  if (blanked.length > 0 && !deadline.expired) {
    const before = runQuery(query, first.rootNode, deadline);
    matches.push(...before.matches.filter((m) => m.captures.every((c) => inside(c.node, blanked) && c.node.endIndex <= endOf(c.node, blanked) + 1)));
  }
  // Source order, as one tree's matches come (a query cut short names the line it reached).
  if (trees.length > 1) {
    const at = new Map(matches.map((m) => [m, startOf(m, comments)?.startIndex ?? 0]));
    matches.sort((a, b) => (at.get(a) ?? 0) - (at.get(b) ?? 0));
  }
  return { trees, matches, complete: complete && !deadline.expired, hadErrors, errorChars: Math.max(0, errors) };
}
