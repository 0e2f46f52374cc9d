import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { INDEX_PLAN_TESTS } from '../../worker/db/index-coverage';

// test/worker/db/index-plans.test.ts holds the migrated database's indexes equal to INDEX_PLAN_TESTS; this holds each
// listed file to being a plan test that names its index, so an index cannot be listed against a file that never
// shows a statement seeking it.
const ROOT = path.resolve(__dirname, '../../..');

describe('index coverage', () => {
  for (const [index, file] of Object.entries(INDEX_PLAN_TESTS)) {
    it(`${index}: ${file} runs EXPLAIN QUERY PLAN and names it`, () => {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      expect(/EXPLAIN QUERY PLAN|planTexts\(/.test(text), `${file} runs no EXPLAIN QUERY PLAN`).toBe(true);
      expect(new RegExp(`\\b${index}\\b`).test(text), `${file} does not name ${index}`).toBe(true);
    });
  }

  it('lists each index once, with a test file under test/worker', () => {
    const files = Object.values(INDEX_PLAN_TESTS);
    expect(files.every((f) => f.startsWith('test/worker/') && f.endsWith('.test.ts'))).toBe(true);
    expect(new Set(Object.keys(INDEX_PLAN_TESTS)).size).toBe(Object.keys(INDEX_PLAN_TESTS).length);
  });
});
