import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { symbolsByNames } from '../../../src/db/source';
import { bestByName, expectNameBests, nameBestOrder, storedBests, type Ranked } from '../name-best-support';
import { planTexts, recording } from '../recording-d1';
import { push } from '../upload/support';

// `symbol_names.best` (migration 0027, src/db/name-best.ts) holds each name's best symbol, the one a task's plain word
// seeds. These hold it equal to the order worked out over every symbol through pushes that bring a better symbol in,
// remove the best one and change files, hold the triggers to clearing it, and hold symbolsByNames' answers the same
// whether it is stored or not.
const DB = (env as unknown as { DB: D1Database }).DB;

async function pushed(project: string, files: Record<string, string>): Promise<string> {
  const r = await push(project, files);
  expect(r.commit?.status, JSON.stringify(r.commit?.body).slice(0, 300)).toBe(200);
  return (await DB.prepare('SELECT id FROM projects WHERE name = ?1').bind(project).first<{ id: string }>())?.id ?? '';
}

async function idOfRowid(rowid: number | null | undefined): Promise<string | null> {
  if (rowid === null || rowid === undefined) return null;
  return (await DB.prepare('SELECT id FROM symbols WHERE rowid = ?1').bind(rowid).first<{ id: string }>())?.id ?? null;
}

async function bestId(projectId: string, name: string): Promise<string | null> {
  return idOfRowid((await storedBests(DB, projectId)).get(name));
}

const V1: Record<string, string> = {
  'src/b.ts': 'function load() { return 1; }\nexport function save() { return 2; }\n',
  'src/c.ts': 'export function load() { return 3; }\nexport class Store {\n  load() { return 4; }\n}\n',
  'test/load.test.ts': 'export function load() { return 5; }\n',
  'docs/guide.md': '# load\n\nHow load works.\n',
  'src/context.ts': 'export class Context {\n  constructor() {}\n  load() { return 6; }\n}\n',
  'lib/context.ts': 'export class Holder {\n  constructor() {}\n}\nexport function save() { return 7; }\n',
};

describe('each name’s best symbol', () => {
  it('is worked out by every commit: a better symbol pushed later, the best one removed, a file changed', async () => {
    const id = await pushed('name-best-life', V1);
    await expectNameBests(DB, id);
    expect(await bestId(id, 'load')).toBe('src/c.ts::load#Function');
    expect(await bestId(id, 'save')).toBe('lib/context.ts::save#Function');

    // A better `load` (an earlier path) and a better `save` come in; nothing else changes.
    await pushed('name-best-life', { ...V1, 'src/a.ts': 'export function load() { return 8; }\n', 'a/save.ts': 'export function save() { return 9; }\n' });
    await expectNameBests(DB, id);
    expect(await bestId(id, 'load')).toBe('src/a.ts::load#Function');
    expect(await bestId(id, 'save')).toBe('a/save.ts::save#Function');

    // The exported top-level `load`s removed: the best is the first exported method, before the non-exported
    // function, the test's and the heading.
    await pushed('name-best-life', { ...V1, 'src/c.ts': 'export class Store {\n  load() { return 4; }\n}\n' });
    await expectNameBests(DB, id);
    expect(await bestId(id, 'load')).toBe('src/c.ts::Store.load#Method');
    // Those removed too: the non-exported function, before the test's and the heading.
    const { 'src/c.ts': _c, 'src/context.ts': _x, ...rest } = V1;
    await pushed('name-best-life', rest);
    await expectNameBests(DB, id);
    expect(await bestId(id, 'load')).toBe('src/b.ts::load#Function');
  });

  it('is cleared by the triggers when the best symbol is deleted or a symbol of the name is inserted, and kept otherwise', async () => {
    // Contents of this project alone: the rows deleted here hold symbols no other project's push reads back.
    const id = await pushed('name-best-triggers', Object.fromEntries(Object.entries(V1).map(([p, c]) => [p, `${c}// name-best-triggers\n`])));
    const before = await storedBests(DB, id);
    const load = before.get('load') as number;
    const save = before.get('save') as number;
    // A symbol of `save` that is not its best, deleted: `save`'s best stands.
    await DB.prepare("DELETE FROM symbols WHERE project_id = ?1 AND name = 'save' AND rowid <> ?2").bind(id, save).run();
    expect((await storedBests(DB, id)).get('save')).toBe(save);
    // The best `load` deleted: cleared.
    await DB.prepare('DELETE FROM symbols WHERE rowid = ?1').bind(load).run();
    expect((await storedBests(DB, id)).get('load')).toBeNull();
    // A symbol of `save` inserted (a copy of its best): cleared.
    const cols = 'project_id, key, file_path, name, qualified_name, kind, signature, docstring, parent_raw, language, corpus, is_exported, is_test, start_line, end_line, start_byte, end_byte, confidence, words, auxiliary, declaration';
    await DB.prepare(`INSERT INTO symbols (${cols}) SELECT project_id, 'copy', ${cols.split(', ').slice(2).join(', ')} FROM symbols WHERE rowid = ?1`).bind(save).run();
    expect((await storedBests(DB, id)).get('save')).toBeNull();
    // The names not touched keep theirs.
    const after = await storedBests(DB, id);
    for (const [name, best] of before) if (name !== 'load' && name !== 'save') expect(after.get(name), name).toBe(best);
  });
});

describe('symbolsByNames for plain words', () => {
  const WORDS = ['load', 'save', 'constructor', 'Store', 'absent'];
  const cases: { plainFiles?: string[]; path?: string }[] = [{}, { plainFiles: ['context.ts'] }, { plainFiles: ['context.ts', 'b.ts', 'guide.md', 'nope.ts'] }, { plainFiles: ['context.ts', 'README', 'src/c.ts', 'nope'] }, { path: 'src/c.ts' }, { path: 'src/context.ts', plainFiles: ['context.ts'] }];

  it('gives the same rows with the best stored, not stored, and as worked out over every symbol', async () => {
    const id = await pushed('name-best-lookup', V1);
    type Row = Ranked & { id: string };
    const all = (
      await DB.prepare('SELECT rowid AS rowid, id, file_path, name, is_test, language, is_exported, start_byte FROM symbols WHERE project_id = ?1').bind(id).all<Row>()
    ).results;
    const bests = await bestByName(DB, id);
    for (const c of cases) {
      const stored = await symbolsByNames(DB, id, [], WORDS, c);
      // Worked out here: each word's best (in `path` when given) and its symbols in the files named like plainFiles.
      const want = new Set<string>();
      for (const w of WORDS) {
        const mine = all.filter((s) => s.name === w && (c.path === undefined || s.file_path === c.path));
        const best = c.path === undefined ? all.find((s) => s.rowid === bests.get(w)) : [...mine].sort(nameBestOrder)[0];
        if (best) want.add(best.id);
        for (const s of mine) if ((c.plainFiles ?? []).some((f) => s.file_path === f || s.file_path.endsWith(`/${f}`))) want.add(s.id);
      }
      expect(stored.map((r) => r.id).sort(), JSON.stringify(c)).toEqual([...want].sort());
      // The same with no best stored: every word ranked in the statement.
      await DB.prepare('UPDATE symbol_names SET best = NULL WHERE project_id = ?1').bind(id).run();
      expect(await symbolsByNames(DB, id, [], WORDS, c), JSON.stringify(c)).toEqual(stored);
      // The next commit works out every name left without one, not only the names it touches.
      await pushed('name-best-lookup', { ...V1, 'src/touch.ts': `export const n${cases.indexOf(c)} = 1;\n` });
      await expectNameBests(DB, id);
    }
    expect((await symbolsByNames(DB, id, [], ['load'], {})).map((r) => r.id)).toEqual(['src/c.ts::load#Function']);
    expect((await symbolsByNames(DB, id, [], ['constructor'], { plainFiles: ['context.ts'] })).map((r) => r.id).sort()).toEqual(['lib/context.ts::Holder.constructor#Method', 'src/context.ts::Context.constructor#Method']);
  });

  it('reads a word’s best from symbol_names and its symbols in the named files by their id ranges, not every symbol of the word', async () => {
    const id = await pushed('name-best-plan', V1);
    const { d1, seen } = recording();
    await symbolsByNames(d1, id, [], ['load', 'constructor'], { plainFiles: ['context.ts'] });
    const [plan] = await planTexts(seen);
    expect(plan).toMatch(/SEARCH n USING PRIMARY KEY \(project_id=\? AND name=\?\)/);
    expect(plan).toMatch(/SEARCH s USING INDEX symbols_project_id \(project_id=\? AND id>\? AND id<\?\)/);
    expect(plan.split('\n').filter((d) => /^SCAN (s|f|symbols|files)\b(?! VIRTUAL TABLE)/.test(d)), plan).toEqual([]);
  });
});
