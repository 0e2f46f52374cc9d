// Plain-text tables for the benchmark report.

/**
 * Renders rows as an aligned table; the first row is the header. Numbers-looking cells are
 * right-aligned.
 * @param {(string | number | null | undefined)[][]} rows
 * @param {{ title?: string }} [options]
 */
export function renderTable(rows, { title } = {}) {
  const cells = rows.map((r) => r.map((c) => (c === null || c === undefined ? '—' : String(c))));
  const widths = [];
  for (const r of cells) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  const numeric = (/** @type {string} */ c) => /^[-+~≤≥<>]?[\d.,]+(?:\s?[%a-zA-Z/]+)?(?:\s\(.*\))?$/.test(c) || c === '—';
  const line = (/** @type {string[]} */ r) =>
    r.map((c, i) => (i > 0 && numeric(c) ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ').trimEnd();
  const rule = widths.map((w) => '─'.repeat(w)).join('  ');
  const out = [];
  if (title) out.push(title);
  out.push(line(cells[0]), rule, ...cells.slice(1).map(line));
  return out.join('\n');
}

/** @param {number | null | undefined} x @param {number} [digits] */
export function fmt(x, digits = 2) {
  if (x === null || x === undefined || Number.isNaN(x)) return '—';
  return x.toFixed(digits);
}

/** @param {number} bytes */
export function mb(bytes) {
  return (bytes / 1e6).toFixed(2);
}

/** @param {number | null | undefined} ms */
export function secs(ms) {
  return ms === null || ms === undefined ? '—' : `${(ms / 1000).toFixed(2)} s`;
}

/** Wall-clock rate with the CPU-time rate in parentheses. @param {number | null | undefined} wall @param {number | null | undefined} cpu */
export function rate(wall, cpu) {
  if (wall === null || wall === undefined) return '—';
  return cpu === null || cpu === undefined ? fmt(wall) : `${fmt(wall)} (${fmt(cpu)})`;
}
