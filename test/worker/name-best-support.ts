import { expect } from 'vitest';

/** A symbol as the best-of-name order reads it. */
export interface Ranked {
  rowid: number;
  name: string;
  is_test: number;
  language: string;
  is_exported: number;
  file_path: string;
  start_byte: number;
}

/** SQLite's BINARY order of ASCII and BMP text (the fixtures' paths are ASCII). */
const binary = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** src/db/name-best.ts's order, best first: non-test, not Markdown, exported, then path, position and rowid. */
export function nameBestOrder(a: Ranked, b: Ranked): number {
  const md = (r: Ranked) => (r.language === 'markdown' ? 1 : 0);
  return a.is_test - b.is_test || md(a) - md(b) || b.is_exported - a.is_exported || binary(a.file_path, b.file_path) || a.start_byte - b.start_byte || a.rowid - b.rowid;
}

/**
 * Each name's best symbol worked out here, over every symbol of the project that has its file row, by nameBestOrder.
 */
export async function bestByName(d1: D1Database, projectId: string): Promise<Map<string, number>> {
  const rows = (
    await d1
      .prepare(
        `SELECT s.rowid AS rowid, s.name, s.is_test, s.language, s.is_exported, s.file_path, s.start_byte FROM symbols s
         JOIN files f ON f.project_id = s.project_id AND f.path = s.file_path WHERE s.project_id = ?1`,
      )
      .bind(projectId)
      .all<Ranked>()
  ).results;
  const best = new Map<string, Ranked>();
  for (const r of rows) {
    const held = best.get(r.name);
    if (!held || nameBestOrder(r, held) < 0) best.set(r.name, r);
  }
  return new Map([...best].map(([name, r]) => [name, r.rowid]));
}

/** What `symbol_names` holds for the project: name → best (null: not worked out). */
export async function storedBests(d1: D1Database, projectId: string): Promise<Map<string, number | null>> {
  const rows = (await d1.prepare('SELECT name, best FROM symbol_names WHERE project_id = ?1').bind(projectId).all<{ name: string; best: number | null }>()).results;
  return new Map(rows.map((r) => [r.name, r.best]));
}

/** Every name of the project has its best symbol stored, and it is the one bestByName works out. */
export async function expectNameBests(d1: D1Database, projectId: string): Promise<void> {
  const want = await bestByName(d1, projectId);
  expect(want.size).toBeGreaterThan(0);
  expect(await storedBests(d1, projectId)).toEqual(want);
}
