const UNITS: Record<string, number> = { '': 1, b: 1, k: 1024, kb: 1024, m: 1024 ** 2, mb: 1024 ** 2, g: 1024 ** 3, gb: 1024 ** 3 };
const SIZE = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i;

/**
 * A non-negative size in bytes from a number or a string such as `512`,
 * `10k`, `2MB`, `1.5m` (K/M/G are powers of 1024). Null when unreadable.
 */
export function parseSize(value: number | string): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.floor(value) : null;
  const m = SIZE.exec(value);
  if (!m) return null;
  const unit = UNITS[m[2].toLowerCase()];
  return unit === undefined ? null : Math.floor(Number(m[1]) * unit);
}
