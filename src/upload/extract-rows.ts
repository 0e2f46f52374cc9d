import { detectLanguage, extractFile, EXTRACTOR_VERSION, type ExtractionResult } from '../extract';
import { checkContent } from '../extract/guards';
import type { ExtractionRow } from '../db/index-store';
import { encodeRefs, encodeSymbols, type StoredSymbol } from '../db/extraction-json';
import { identifierWords } from '../util/words';

/** Language id a manifest path is stored under: the extractor's id, or 'none'. */
export function languageOf(path: string): string {
  return detectLanguage(path)?.id ?? 'none';
}

/** Per-file cap on symbols kept, so one generated monster file cannot blow a D1 row (2 MB). */
const MAX_SYMBOLS_PER_FILE = 5_000;

/**
 * Runs the extractor on one file and shapes the row stored for its content.
 * Never throws: every failure becomes a status with a reason code.
 */
export async function extractionRow(path: string, hash: string, content: string, opts: { maxBytes: number; timeoutMs: number }): Promise<ExtractionRow> {
  const language = languageOf(path);
  // Without an extractor the content would be kept for grep and read: refuse binary, oversized
  // or non-UTF-8 content first (extractFile stops at unsupported_language before these checks).
  const refused = language === 'none' ? checkContent(content, opts.maxBytes) : null;
  const result: ExtractionResult = refused
    ? { language: '', corpus: 'code', symbols: [], references: [], failure: refused, had_errors: false, parse_ms: 0 }
    : await extractFile(path, content, { maxBytes: opts.maxBytes, timeoutMs: opts.timeoutMs });
  // The words are set on the extractor's own records (fresh per call): a spread copy per symbol cost a fifth of extraction.
  const symbols = result.symbols.slice(0, MAX_SYMBOLS_PER_FILE) as StoredSymbol[];
  for (const s of symbols) s.words = identifierWords(s.name, s.qualified_name);
  const refs = result.references.slice(0, MAX_SYMBOLS_PER_FILE * 4);
  const failure = result.failure;
  let status: ExtractionRow['status'] = 'ok';
  if (failure) status = failure.reason === 'parse_error' || failure.reason === 'timeout' ? 'failed' : 'skipped';
  return {
    hash,
    language,
    extractorVersion: EXTRACTOR_VERSION,
    corpus: language === 'none' ? 'none' : result.corpus,
    status,
    reason: failure?.reason ?? null,
    message: failure?.message.slice(0, 300) ?? null,
    hadErrors: result.had_errors,
    symbolCount: symbols.length,
    refCount: refs.length,
    parseMs: Math.round(result.parse_ms),
    symbolsJson: encodeSymbols(symbols),
    refsJson: encodeRefs(refs),
  };
}
