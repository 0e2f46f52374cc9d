import { detectLanguage, extractFile, EXTRACTOR_VERSION, type ExtractionResult } from '../extract';
import type { ExtractionFailure } from '../extract/types';
import { checkContent } from '../extract/guards';
import { utf8Length } from '../extract/utf8';
import type { ExtractionRow } from '../db/index-store';
import { encodeRefs, encodeSymbols, type StoredSymbol } from '../db/extraction-json';
import { identifierWords } from '../util/words';

/** Language id a manifest path is stored under: the extractor's id, or 'none'. */
export function languageOf(path: string): string {
  return detectLanguage(path)?.id ?? 'none';
}

/**
 * Bytes of an extraction row's two JSON lists at most: the row must stay under D1's 2 MB. A file past it (a generated
 * monster, a type bundle of thousands of declarations) keeps the longest prefix of each list that fits, and says so.
 */
export const ROW_JSON_BYTES = 1_800_000;
/** Of which the references take at most this much, so that the definitions keep most of the row. */
export const REFS_JSON_BYTES = 600_000;

/** UTF-8 bytes of `text` over `budget`; counted only when its length allows more (a code unit is at most 3 bytes). */
function overBudget(text: string, budget: number): boolean {
  return text.length * 3 > budget && utf8Length(text) > budget;
}

/** The longest prefix of `items` whose encoding fits `budget` bytes (all of them when they fit), and that encoding. */
export function fittedPrefix<T>(items: readonly T[], encode: (items: T[]) => string, budget: number): { kept: T[]; json: string } {
  const whole = encode(items as T[]);
  if (!overBudget(whole, budget)) return { kept: items as T[], json: whole };
  // Binary search on the count: the encoding grows with it. Rare (a file of thousands of definitions), so each probe encodes anew.
  let lo = 0;
  let hi = items.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (overBudget(encode(items.slice(0, mid)), budget)) hi = mid - 1;
    else lo = mid;
  }
  const kept = items.slice(0, lo);
  return { kept, json: encode(kept) };
}

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
  const all = result.symbols as StoredSymbol[];
  for (const s of all) s.words = identifierWords(s.name, s.qualified_name);
  const refs = fittedPrefix(result.references, encodeRefs, REFS_JSON_BYTES);
  const symbols = fittedPrefix(all, encodeSymbols, ROW_JSON_BYTES - utf8Length(refs.json));
  const cut = symbols.kept.length < all.length || refs.kept.length < result.references.length;
  // A file cut to fit is indexed in part, as one whose parse ran out of time is: the failure says what is missing.
  const failure = result.failure ?? (cut ? capped(symbols.kept, all.length, refs.kept.length, result.references.length) : null);
  let status: ExtractionRow['status'] = 'ok';
  if (failure) status = failure.reason === 'parse_error' || failure.reason === 'timeout' || failure.reason === 'too_many_symbols' ? 'failed' : 'skipped';
  return {
    hash,
    language,
    extractorVersion: EXTRACTOR_VERSION,
    corpus: language === 'none' ? 'none' : result.corpus,
    status,
    reason: failure?.reason ?? null,
    message: failure?.message.slice(0, 300) ?? null,
    hadErrors: result.had_errors,
    symbolCount: symbols.kept.length,
    refCount: refs.kept.length,
    parseMs: Math.round(result.parse_ms),
    symbolsJson: symbols.json,
    refsJson: refs.json,
  };
}

/** The failure of a file cut to fit one row: how much was kept, and from which line on definitions are missing. */
function capped(kept: readonly StoredSymbol[], symbols: number, keptRefs: number, refs: number): ExtractionFailure {
  const last = kept.at(-1);
  const from = last ? ` starting after line ${last.start_line}` : '';
  return {
    reason: 'too_many_symbols',
    message: `kept ${kept.length} of ${symbols} definitions and ${keptRefs} of ${refs} references, what one stored row holds: definitions${from} may be missing`,
  };
}
