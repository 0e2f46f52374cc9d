/**
 * Source extraction: a file's path and text in, its symbols and references out.
 * Never throws for a bad file: every refusal is a `failure` with a reason.
 *
 * Corpora and confidence (extraction_confidence of a symbol):
 * - code (tree-sitter, tier 'ast'): 1.0 for a clean parse; 0.8 when the tree has
 *   ERROR/MISSING nodes elsewhere, 0.6 when the symbol itself contains one; halved
 *   again with failure `parse_error` when more than half of the file is ERROR. A parse
 *   with errors is read again (recover.ts): the row's `blankOnError` lines blanked, and
 *   top-level ERROR regions re-parsed in chunks, so one unreadable construct costs its
 *   chunk; the share of ERROR counts what stays unread after that. C and C++ read again with
 *   one branch of each `#if` and statement macros blanked (macros.ts, preprocessor.ts).
 *   Out of budget: a cancelled parse yields nothing (failure `timeout`); a cancelled tags
 *   query keeps the symbols matched before it stopped (failure `timeout` naming the line).
 *   The second parse may use only part of what the first left, so when it is cancelled the
 *   query still runs on the first tree; chunks left unparsed keep what that tree read there.
 * - docs (Markdown headings) and config (JSON/YAML/TOML top-level keys), tier
 *   'structured': the row's confidence (0.95–1.0), × 0.8 when the scanner met
 *   syntax it could not read. Their symbols cover whole lines.
 *
 * @example
 *   const result = await extractFile('src/app.ts', text);
 *   if (result.failure) skip(result.failure.reason);
 */
import { extractWithGrammar } from './engine';
import { checkContent, DEFAULT_MAX_BYTES } from './guards';
import { rowForPath, TABLE } from './languages/table';
import type { ExtractOptions, ExtractionFailure, ExtractionResult, LanguageInfo } from './types';

export { SYMBOL_KINDS } from './types';
export type {
  Corpus,
  ExtractedReference,
  ExtractedSymbol,
  ExtractionFailure,
  ExtractionResult,
  ExtractOptions,
  LanguageInfo,
  SymbolKind,
} from './types';

/** Bump whenever the output for the same input changes (queries, engine or scanners). */
export const EXTRACTOR_VERSION = 8;

export const DEFAULT_TIMEOUT_MS = 2000;

function info(row: LanguageInfo): LanguageInfo {
  return { id: row.id, corpus: row.corpus, extensions: [...row.extensions], tier: row.tier, confidence: row.confidence };
}

/** The supported languages, for capabilities and health reports. */
export const LANGUAGES: readonly LanguageInfo[] = TABLE.map(info);

/** The language of a repository path (by well-known file name, then extension); null when unsupported. */
export function detectLanguage(path: string): LanguageInfo | null {
  const row = rowForPath(path);
  return row ? info(row) : null;
}

export async function extractFile(path: string, content: string, opts: ExtractOptions = {}): Promise<ExtractionResult> {
  const row = rowForPath(path);
  const result: ExtractionResult = {
    language: row?.id ?? '',
    corpus: row?.corpus ?? 'code',
    symbols: [],
    references: [],
    failure: null,
    had_errors: false,
    parse_ms: 0,
  };
  const fail = (failure: ExtractionFailure): ExtractionResult => ({ ...result, failure });
  if (!row) return fail({ reason: 'unsupported_language', message: `no extractor for ${path}` });
  const refused = checkContent(content, opts.maxBytes ?? DEFAULT_MAX_BYTES);
  if (refused) return fail(refused);

  const started = performance.now();
  try {
    if (row.tier === 'structured') {
      const scanned = row.scan(content, row.confidence);
      result.symbols = scanned.symbols;
      result.had_errors = scanned.hadErrors;
    } else {
      const extracted = await extractWithGrammar(row, path, content, opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
      result.symbols = extracted.symbols;
      result.references = extracted.references;
      result.had_errors = extracted.hadErrors;
      result.failure = extracted.failure;
    }
  } catch (err) {
    // A bug here must cost one file, not the batch.
    result.symbols = [];
    result.references = [];
    result.failure = { reason: 'parse_error', message: `extractor failed: ${err instanceof Error ? err.message : String(err)}` };
  }
  result.parse_ms = Math.round((performance.now() - started) * 100) / 100;
  return result;
}
