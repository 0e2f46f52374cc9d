import type { Tiktoken } from 'js-tiktoken/lite';

export type TokenMode = 'heuristic' | 'exact';

/**
 * Set at build time (wrangler `define`): true only in the build made for exact
 * accounting (`npm run deploy:exact`). The default build leaves the cl100k_base
 * ranks (about 490 KiB gzip) out of the upload: the dynamic import below sits
 * in a branch the bundler drops when the flag is false.
 */
declare const PINCHER_EXACT_TOKENS: boolean | undefined;

// A conditional the bundler folds: with the flag false the import is dead code and left out.
const loadRanks = typeof PINCHER_EXACT_TOKENS !== 'undefined' && PINCHER_EXACT_TOKENS ? () => import('js-tiktoken/ranks/cl100k_base') : null;

/** Whether this build carries the cl100k_base ranks that exact accounting needs. */
export const EXACT_TOKENS_BUILT: boolean = loadRanks !== null;

let encoder: Tiktoken | undefined;
let loading: Promise<void> | undefined;

/**
 * Loads the cl100k_base encoder when `mode` is `exact` (once per isolate), so
 * the ranks are parsed only by deployments configured with
 * PINCHER_TOKEN_ACCOUNTING=exact. Call before `countTokens` on every path that may count.
 */
export async function prepareTokens(mode: TokenMode): Promise<void> {
  if (mode !== 'exact' || encoder) return;
  if (!loadRanks) throw new Error('exact token accounting asked of a build without the cl100k_base ranks');
  loading ??= Promise.all([import('js-tiktoken/lite'), loadRanks()]).then(([lite, ranks]) => {
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

/**
 * The accounting a call uses: `exact` when configured (PINCHER_TOKEN_ACCOUNTING=exact)
 * and this build carries the ranks; otherwise the chars/4 heuristic — a deployment
 * configured for exact on the default build is told so by `health` (see
 * `tokenAccountingProblem`), never handed exact figures it cannot compute.
 */
export function tokenMode(setting: string | undefined, built: boolean = EXACT_TOKENS_BUILT): TokenMode {
  return setting === 'exact' && built ? 'exact' : 'heuristic';
}

/** A configuration problem to report, or null: exact accounting configured on a build without the ranks. */
export function tokenAccountingProblem(setting: string | undefined, built: boolean = EXACT_TOKENS_BUILT): string | null {
  if (setting !== 'exact' || built) return null;
  return 'PINCHER_TOKEN_ACCOUNTING=exact needs the build that carries the cl100k_base ranks (npm run deploy:exact); this build counts ceil(chars / 4)';
}

/** Tokens a byte count of source text would cost to read (chars/4 on bytes, the same heuristic). */
export function tokensForBytes(bytes: number): number {
  return Math.ceil(bytes / 4);
}

/** Tokens of a JSON value as the envelope counts them by default (chars/4 of its JSON text). */
export function tokensOf(value: unknown): number {
  return Math.ceil(JSON.stringify(value).length / 4);
}
