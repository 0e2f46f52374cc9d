import type { ExtractionFailure } from './types';
import { utf8Length } from './utf8';

export const DEFAULT_MAX_BYTES = 1024 * 1024;

// A lone surrogate cannot come from valid UTF-8: byte offsets would not match the file.
// U+FFFD is a character like any other (string literals, comments): invalid bytes never get this
// far, since request bodies are decoded strictly (http/body.ts) and pushed content must hash to
// the file's own bytes.
const BROKEN_TEXT = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Refuses content the extractor must not parse: too large, binary, or not clean UTF-8.
 * The size test runs first so a huge file is never scanned.
 */
export function checkContent(content: string, maxBytes: number): ExtractionFailure | null {
  // A UTF-16 unit is 1–3 UTF-8 bytes: settle the obvious cases without measuring.
  const tooLarge = content.length > maxBytes || (content.length * 3 > maxBytes && utf8Length(content) > maxBytes);
  if (tooLarge) {
    return { reason: 'file_too_large', message: `file is larger than ${maxBytes} bytes` };
  }
  if (content.includes('\0')) {
    return { reason: 'binary', message: 'file contains NUL bytes' };
  }
  if (BROKEN_TEXT.test(content)) {
    return { reason: 'encoding', message: 'file is not valid UTF-8 text' };
  }
  return null;
}
