import { PincherError } from '../errors';

/**
 * A whole-number query parameter in [1, max]: `fallback` when absent or empty, else a typed
 * `invalid_params` whose suggestion says what omitting it gives.
 */
export function queryInt(raw: string | undefined, name: string, max: number, fallback: number, whenOmitted: string): number {
  if (raw === undefined || raw === '') return fallback;
  const n = /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1 && n <= max)) {
    throw new PincherError('invalid_params', `${name} must be an integer from 1 to ${max}, got '${raw.slice(0, 20)}'`, {
      suggestion: `omit ${name} for ${whenOmitted}`,
    });
  }
  return n;
}
