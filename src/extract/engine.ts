/**
 * The generic tree-sitter extractor: parse, run the language's tags query, turn
 * matches into symbols and references. Knows no language: everything specific
 * lives in the language's row and query file.
 */
import { assertVocabulary } from './captures';
import type { CaptureRole } from './captures';
import { collect } from './collect';
import { attributeReferences, buildOutline } from './outline';
import { compileQuery, Deadline, ensureLanguage } from './parser';
import type { Grammar, Query, QueryMatch } from './parser';
import { readFile } from './recover';
import type { ExtractedReference, ExtractedSymbol, ExtractionFailure, SymbolKind } from './types';
import { ByteMap } from './utf8';

/** What the engine needs from a language table row. */
export interface GrammarLanguage {
  id: string;
  grammar: Grammar;
  /** Tags query source (one or more `.scm` files concatenated). */
  query: string;
  /**
   * Compile the query rewritten by `shallowQuery` (shallow-query.ts): the same matches, a compile
   * several times cheaper (once per isolate), a slower query run (every file).
   */
  shallowQuery?: boolean;
  /** Node types of the comments a `@documented` capture reads right before its node (default: `comment`). */
  docComments?: readonly string[];
  confidence: number;
  testPaths: readonly RegExp[];
  testNames?: RegExp;
  exportedNames?: RegExp;
  /**
   * Rewrites the text before parsing without moving any offset (same length, same lines),
   * e.g. blanking C/C++ annotation macros; names and signatures still come from the original.
   */
  prepare?: (text: string) => string;
  /** Keep types and type aliases defined inside functions (see OutlineRules). */
  localTypes?: boolean;
  /** Keep functions nested in functions and members of module-level objects (see OutlineRules). */
  nestedDefinitions?: boolean;
  /** Kinds that stay symbols inside a function body, qualified by it (see OutlineRules). */
  nestedInFunctions?: readonly SymbolKind[];
  /** Lines blanked (or an offset-keeping rewrite) for a second parse when the first has errors (see recover.ts). */
  blankOnError?: RegExp | ((text: string) => string);
  /** Body-less overload signatures and the implementation after them are one symbol (see OutlineRules). */
  overloadSignatures?: boolean;
  /** Functions and methods without a body are declarations (C/C++ prototypes and member declarations). */
  declarations?: boolean;
}

export interface GrammarExtraction {
  symbols: ExtractedSymbol[];
  references: ExtractedReference[];
  hadErrors: boolean;
  failure: ExtractionFailure | null;
}

/** Share of the text under ERROR nodes above which the file counts as unparsable. */
const PARSE_ERROR_SHARE = 0.5;

interface CompiledQuery {
  query: Query;
  roles: Map<string, CaptureRole>;
  docComments: ReadonlySet<string>;
}

const queries = new Map<string, CompiledQuery>();
/**
 * Compiled queries by grammar and source: languages reading one grammar with one query (C and
 * C++) share it, so an isolate pays that compile (the costliest of all) once.
 */
const shared = new Map<string, Promise<Query>>();

/** Compiles a tags query and checks its captures against the vocabulary (throws on an unknown one). */
export async function compileTagsQuery(grammar: Grammar, source: string, shallow = false): Promise<Query> {
  await ensureLanguage(grammar);
  const query = compileQuery(grammar, source, shallow);
  try {
    assertVocabulary(query.captureNames);
  } catch (err) {
    query.delete();
    throw err;
  }
  return query;
}

async function queryFor(language: GrammarLanguage): Promise<CompiledQuery> {
  let compiled = queries.get(language.id);
  if (!compiled) {
    const shallow = language.shallowQuery === true;
    const key = `${language.grammar.name}\0${shallow}\0${language.query}`;
    let query = shared.get(key);
    if (!query) {
      query = compileTagsQuery(language.grammar, language.query, shallow);
      shared.set(key, query);
      // A failed compile is not kept: the next file tries again, as before.
      query.catch(() => shared.delete(key));
    }
    compiled = { query: await query, roles: new Map(), docComments: new Set(language.docComments ?? ['comment']) };
    queries.set(language.id, compiled);
  }
  return compiled;
}

function timeout(ms: number): GrammarExtraction {
  return { symbols: [], references: [], hadErrors: false, failure: { reason: 'timeout', message: `parsing took longer than ${ms} ms` } };
}

/** A query cut short keeps what it matched: say where it stopped. */
function queryStopped(ms: number, matches: readonly QueryMatch[]): ExtractionFailure {
  const last = matches.at(-1)?.captures[0]?.node;
  const where = last ? ` after line ${last.startPosition.row + 1}` : '';
  return { reason: 'timeout', message: `reading definitions took longer than ${ms} ms: stopped${where}, later symbols are missing` };
}

/**
 * Extracts one file with its language's grammar and query. The trees live only
 * inside this call (deleted in `finally`); the outline is built before that.
 */
export async function extractWithGrammar(
  language: GrammarLanguage,
  path: string,
  content: string,
  timeoutMs: number,
): Promise<GrammarExtraction> {
  const { query, roles, docComments } = await queryFor(language);
  const deadline = new Deadline(timeoutMs);
  const read = readFile(language, query, language.prepare ? language.prepare(content) : content, deadline);
  if (!read) return timeout(timeoutMs);
  try {
    const { matches, complete, hadErrors } = read;
    // What stayed unread after recovery (re-parsed chunks replace their share of the errors).
    const share = content.length === 0 ? 0 : read.errorChars / content.length;
    const collected = collect(matches, content, roles, docComments);
    const failed = share > PARSE_ERROR_SHARE;
    const outline = buildOutline(
      collected.definitions,
      {
        testFile: language.testPaths.some((re) => re.test(path)),
        testNames: language.testNames,
        exportedNames: language.exportedNames,
        nestedDefinitions: language.nestedDefinitions,
        localTypes: language.localTypes,
        nestedInFunctions: language.nestedInFunctions,
        overloadSignatures: language.overloadSignatures,
        declarations: language.declarations,
        scopes: collected.scopes,
        parameters: collected.parameters,
        // A mostly unreadable file keeps what was found, at half the confidence.
        confidence: failed ? language.confidence / 2 : language.confidence,
        hadErrors,
      },
      content,
      new ByteMap(content),
    );
    return {
      symbols: outline.symbols,
      references: attributeReferences(collected.references, outline),
      hadErrors,
      failure: !complete
        ? queryStopped(timeoutMs, matches)
        : failed ? { reason: 'parse_error', message: `${Math.round(share * 100)}% of the file could not be parsed` } : null,
    };
  } finally {
    for (const tree of read.trees) tree.delete();
  }
}
