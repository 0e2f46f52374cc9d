import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';

export type TokenMode = 'heuristic' | 'exact';

let encoder: Tiktoken | undefined;

/**
 * Tokens in `text`. `heuristic` is ceil(chars / 4); `exact` is the cl100k_base
 * BPE count (the encoder is built once per isolate, on first use).
 */
export function countTokens(text: string, mode: TokenMode): number {
  if (mode === 'exact') {
    encoder ??= new Tiktoken(cl100k);
    return encoder.encode(text).length;
  }
  return Math.ceil(text.length / 4);
}

export function tokenMode(setting: string | undefined): TokenMode {
  return setting === 'exact' ? 'exact' : 'heuristic';
}

/** Tokens a byte count of source text would cost to read (chars/4 on bytes, the same heuristic). */
export function tokensForBytes(bytes: number): number {
  return Math.ceil(bytes / 4);
}
