/**
 * The rules `promtool check metrics` applies to an exposition (Prometheus'
 * promlint), restated so tests hold /v1/metrics to them without the binary.
 * Returns one problem per line, empty when the text is clean.
 */
const UNIT_ABBREVIATIONS = ['s', 'ms', 'us', 'ns', 'sec', 'b', 'kb', 'mb', 'gb', 'tb', 'pb', 'm', 'h', 'd'];
const NON_BASE_UNITS: Record<string, string> = {
  milliseconds: 'seconds', microseconds: 'seconds', nanoseconds: 'seconds', minutes: 'seconds', hours: 'seconds',
  days: 'seconds', weeks: 'seconds', bits: 'bytes', kilobytes: 'bytes', megabytes: 'bytes', gigabytes: 'bytes',
  kelvins: 'celsius', millis: 'seconds', percent: 'ratio',
};
const TYPES = ['counter', 'gauge', 'histogram', 'summary', 'untyped'];

export function promlint(text: string): string[] {
  const problems: string[] = [];
  const help = new Set<string>();
  const type = new Map<string, string>();
  const samples = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) (\S+) (.+)$/.exec(line);
    if (meta) {
      if (meta[1] === 'HELP') help.add(meta[2]);
      else type.set(meta[2], meta[3]);
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})? (\S+)$/.exec(line);
    if (!sample) {
      problems.push(`unparsable line: ${line}`);
      continue;
    }
    if (!Number.isFinite(Number(sample[3])) && !['+Inf', '-Inf', 'NaN'].includes(sample[3])) problems.push(`${sample[1]}: value ${sample[3]} is not a number`);
    const family = sample[1].replace(/_(bucket|sum|count)$/, (m) => (type.get(sample[1].slice(0, -m.length)) === 'histogram' ? '' : m));
    samples.set(family, [...(samples.get(family) ?? []), line]);
  }
  for (const [name, kind] of type) {
    if (!help.has(name)) problems.push(`${name}: no help text`);
    if (!TYPES.includes(kind)) problems.push(`${name}: unknown type ${kind}`);
    if (/[A-Z]/.test(name)) problems.push(`${name}: metric names should be written in snake_case, not camelCase`);
    if (name.includes(':')) problems.push(`${name}: colons are reserved for recording rules`);
    const parts = name.split('_');
    for (const p of parts) {
      if (UNIT_ABBREVIATIONS.includes(p)) problems.push(`${name}: metric names should not contain abbreviated units (${p})`);
      if (NON_BASE_UNITS[p]) problems.push(`${name}: use base unit "${NON_BASE_UNITS[p]}" instead of "${p}"`);
      if (TYPES.includes(p) && p !== 'untyped') problems.push(`${name}: metric name should not include type '${p}'`);
    }
    if (kind === 'counter' && !name.endsWith('_total')) problems.push(`${name}: counter metrics should have "_total" suffix`);
    if (kind !== 'counter' && name.endsWith('_total')) problems.push(`${name}: non-counter metrics should not have "_total" suffix`);
    if (kind !== 'histogram' && kind !== 'summary' && /_(bucket|sum|count)$/.test(name)) {
      problems.push(`${name}: non-histogram and non-summary metrics should not have "_${name.split('_').pop()}" suffix`);
    }
    if (kind === 'histogram') {
      const lines = samples.get(name) ?? [];
      for (const suffix of ['_bucket', '_sum', '_count']) {
        if (lines.length && !lines.some((l) => l.startsWith(`${name}${suffix}`))) problems.push(`${name}: histogram without ${suffix} samples`);
      }
      if (lines.some((l) => l.startsWith(`${name}_bucket`) && !/[{,]le="/.test(l))) problems.push(`${name}: bucket without an le label`);
    }
  }
  for (const family of samples.keys()) if (!type.has(family)) problems.push(`${family}: no TYPE line`);
  return problems;
}
