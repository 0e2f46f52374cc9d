import { beforeAll, describe, expect, it } from 'vitest';
import { ftsString } from '../../../src/db/fts-string';
import { namePick } from '../../../src/db/name-pick';
import { compilePattern } from '../../../src/tools/grep/pattern';
import { rest, type Json } from '../helpers';
import { push } from '../upload/support';

/**
 * A NUL in an argument that reaches a full-text MATCH expression (a search
 * term, a grep literal's trigrams, a member name's qualified-name phrase):
 * FTS5 reads the expression as a C string, so the NUL used to end it inside
 * its quotes and SQLite refused the statement ("unterminated string"), a 500.
 * Both indexes read a NUL as a space (src/db/fts-string.ts).
 */
const PROJECT = 'nul-input';

beforeAll(async () => {
  await push(PROJECT, {
    'src/load_config.py': 'def load_config():\n    return 1\n\nclass A:\n    def b(self):\n        pass\n',
    'src/app.ts': 'export function ab() {}\n',
  });
});

async function ok(tool: string, args: Json): Promise<Json> {
  const res = await rest(tool, { project: PROJECT, ...args });
  expect(res.status, `${tool} ${JSON.stringify(args)}: ${JSON.stringify(res.body).slice(0, 300)}`).toBe(200);
  expect(res.body.error).toBeUndefined();
  return res.body;
}

describe('a NUL in a full-text argument', () => {
  it('is quoted for FTS5 as a space, the quote doubled', () => {
    expect(ftsString('a\u0000b"c')).toBe('"a b""c"');
    expect(namePick('A.b c').phrase).toBe('qualified_name : "A.b c" OR qualified_name : "A.b.c"');
    const m = compilePattern('loa\u0000d_config', { literal: true, ignoreCase: false });
    expect(m.prefilter?.match).toBeTruthy();
    expect(m.prefilter!.match).not.toContain('\u0000');
  });

  it('search: splits the words as the index does', async () => {
    const body = await ok('search', { query: 'a\u0000b' });
    expect(body.result.results.map((r: Json) => r.id)).toContain('src/load_config.py::A.b#Method');
    const filtered = await ok('search', { query: 'a\u0000b', corpus: 'code', file_pattern: 'load_config', limit: 33, offset: 49 });
    expect(filtered.result.results).toEqual([]);
    expect(typeof filtered._meta.empty_reason).toBe('string');
  });

  it('grep: a literal or regex holding one matches nothing (no stored content holds a NUL)', async () => {
    for (const args of [{ pattern: 'loa\u0000d_config', literal: true }, { pattern: 'loa\u0000d_config' }, { pattern: 'def\u0000', literal: true }, { pattern: 'load_config\u0000', ignore_case: true }]) {
      const body = await ok('grep', args);
      expect(body.result.total_matches, JSON.stringify(args)).toBe(0);
      expect(typeof body._meta.empty_reason, JSON.stringify(args)).toBe('string');
    }
    // The same literal without the NUL is found: the prefilter did not lose the file.
    expect((await ok('grep', { pattern: 'load_config', literal: true })).result.total_matches).toBeGreaterThan(0);
  });

  it('names: a member name holding one resolves to nothing, typed', async () => {
    for (const tool of ['context', 'trace', 'neighborhood', 'plan_change']) await ok(tool, { name: 'A.b\u0000c' });
  });
});
