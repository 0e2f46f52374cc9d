import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

describe('docs stay true to the code', () => {
  it('docs/empty-reasons.md is the generated catalog', () => {
    const res = spawnSync(process.execPath, ['scripts/gen-empty-reasons-doc.mjs', '--check']);
    expect(res.status, 'run `node scripts/gen-empty-reasons-doc.mjs`').toBe(0);
  });

  it('SCHEMA_VERSION equals the number of migration files', () => {
    const files = readdirSync('migrations').filter((f) => /^\d{4}_.*\.sql$/.test(f));
    const version = Number(/SCHEMA_VERSION = (\d+)/.exec(readFileSync('src/version.ts', 'utf8'))?.[1]);
    expect(version).toBe(files.length);
  });

  it('docs/envelope.md documents every _meta key', () => {
    const types = readFileSync('src/envelope/types.ts', 'utf8');
    const keys = [...types.slice(types.indexOf('META_KEYS')).matchAll(/'([a-z_0-9]+)'/g)].map((m) => m[1]);
    const doc = readFileSync('docs/envelope.md', 'utf8');
    expect(keys.length).toBe(22);
    for (const k of keys) expect(doc).toContain(`\`${k}\``);
  });
});
