/**
 * Bulk values travel to D1 as one JSON parameter read with json_each, which
 * keeps every statement far under the 100-parameter limit. D1 binds one
 * parameter up to ~2 MB; chunks stay under this budget.
 */
export const JSON_PARAM_BUDGET = 1_500_000;

/** Splits values into JSON arrays, each under `budget` characters. */
export function jsonChunks<T>(rows: readonly T[], budget = JSON_PARAM_BUDGET): string[] {
  const chunks: string[] = [];
  let current: string[] = [];
  let size = 2;
  for (const row of rows) {
    const text = JSON.stringify(row);
    if (current.length && size + text.length + 1 > budget) {
      chunks.push(`[${current.join(',')}]`);
      current = [];
      size = 2;
    }
    current.push(text);
    size += text.length + 1;
  }
  if (current.length) chunks.push(`[${current.join(',')}]`);
  return chunks;
}
