import type { Tiktoken } from 'js-tiktoken/lite';

export type TokenMode = 'heuristic' | 'exact';

let encoder: Tiktoken | undefined;
let loading: Promise<void> | undefined;

/**
 * Loads the cl100k_base encoder when `mode` is `exact` (once per isolate).
 * The ranks are a separate module, fetched only by deployments configured
 * with PINCHER_TOKEN_ACCOUNTING=exact, so the default heuristic keeps them
 * out of startup. Call before `countTokens` on every path that may count.
 */
export async function prepareTokens(mode: TokenMode): Promise<void> {
  if (mode !== 'exact' || encoder) return;
  loading ??= Promise.all([import('js-tiktoken/lite'), import('js-tiktoken/ranks/cl100k_base')]).then(([lite, ranks]) => {
    encoder = new lite.Tiktoken(ranks.default);
  });
  await loading;
}

/**
 * Tokens in `text`. `heuristic` is ceil(chars / 4); `exact` is the cl100k_base
 * BPE count (the encoder must be loaded by `prepareTokens` first).
 */
export function countTokens(text: string, mode: TokenMode): number {
  if (mode === 'exact') {
    if (!encoder) throw new Error('exact token accounting used before prepareTokens loaded the encoder');
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

/** Tokens of a JSON value as the envelope counts them by default (chars/4 of its JSON text). */
export function tokensOf(value: unknown): number {
  return Math.ceil(JSON.stringify(value).length / 4);
}
