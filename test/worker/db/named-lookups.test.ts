import { beforeAll, describe, expect, it } from 'vitest';
import { candidatesByNames, likelyNamedSymbol, namedRowsByNames, refsOfSymbol, symbolsByIds, symbolsByNames } from '../../../src/db/source';
import { CROWDED_NAME, mayCrowd, NAME_ROWS, namePick, namePickSql } from '../../../src/db/name-pick';
import { resolveRef } from '../../../src/symbols/resolve';
import { parseSymbolRef } from '../../../src/symbols/symbol-id';
import { DB, indexProject, rest } from '../graph/support';
import { resolveSymbolName } from '../../../src/db/graph';
import { planTexts, recording } from '../recording-d1';

// context reads the symbol a name most likely resolves to (likelyNamedSymbol) with the name's look-up, and the
// candidates of the names a symbol uses with their sources (candidatesByNames' `sources`): both only save reads, so
// these hold that they give what the reads they save would.
const FILES = {
  'src/b/store.ts': [
    'export class Store {',
    '  load(id: string): string {',
    '    return fetchItem(id);',
    '  }',
    '  save(): void {}',
    '}',
    'function load(): number { return 1; }',
    'export function fetchItem(id: string): string {',
    '  return normalise(id) + pad(id);',
    '}',
    'export function normalise(id: string): string {',
    '  return id.trim();',
    '}',
    '',
  ].join('\n'),
  'src/a/load.ts': 'export function load(): number {\n  return 2;\n}\nexport function pad(s: string): string {\n  return s + "                                                                 ";\n}\n',
  'src/a/load.test.ts': 'export function load(): number {\n  return 3;\n}\n',
  'lib/Store.py': 'class Store:\n    def load(self):\n        return 4\n',
};

let projectId = '';
beforeAll(async () => {
  projectId = (await indexProject('named-lookups', FILES)).id;
});

describe('a name pick that cannot be crowded', () => {
  it('leaves the crowded parts out of its statement and reads the same rows', async () => {
    const full = namePickSql('?2', 'NULL', true);
    const lean = namePickSql('?2', 'NULL', false);
    expect(full).toMatch(/symbols_fts MATCH/);
    expect(lean).not.toMatch(/symbols_fts|FROM files fl|_parts/);
    for (const name of ['load', 'Store', 'fetchItem', 'pad', 'nothingNamedSo']) {
      const pick = namePick(name);
      expect(mayCrowd([pick]), name).toBe(false);
      const a = await DB.prepare(full).bind(projectId, JSON.stringify(pick)).all();
      const b = await DB.prepare(lean).bind(projectId, JSON.stringify(pick)).all();
      expect(b.results, name).toEqual(a.results);
    }
    // A member name holds a phrase: it may be crowded, and keeps the whole statement.
    expect(mayCrowd([namePick('Store.load')])).toBe(true);
    expect(mayCrowd([namePick('load'), namePick('Store.load')])).toBe(true);
  });
});

describe('the symbol a name most likely resolves to', () => {
  for (const name of ['load', 'Store.load', 'Store#load', 'Store::load', 'fetchItem', 'Store', 'save', 'normalise', 'pad', 'nothingNamedSo']) {
    for (const path of [undefined, 'src/b/store.ts', 'src/a/load.ts']) {
      it(`is the one the look-up chooses, with its source and references: ${name}${path ? ` in ${path}` : ''}`, async () => {
        const ref = parseSymbolRef(name);
        const rows = await symbolsByNames(DB, projectId, [namePick(ref.name)], [], { path });
        rows.sort((a, b) => a.is_test - b.is_test || b.is_exported - a.is_exported || a.file_path.localeCompare(b.file_path) || a.start_byte - b.start_byte);
        const { chosen } = resolveRef(rows, ref);
        const likely = await likelyNamedSymbol(DB, projectId, namePick(ref.name), path);
        if (!chosen) {
          expect(likely).toBeNull();
          return;
        }
        expect(likely?.row.id).toBe(chosen.id);
        const [byId] = await symbolsByIds(DB, projectId, [chosen.id], true);
        expect(likely?.row).toEqual(byId);
        expect(likely?.refs).toEqual(await refsOfSymbol(DB, projectId, chosen.id));
      });
    }
  }

  it('reads the references of the symbol named, not of its whole file', async () => {
    const refs = await refsOfSymbol(DB, projectId, 'src/b/store.ts::fetchItem#Function');
    expect(refs.map((r) => r.target ?? r.name).sort()).toEqual(['normalise', 'pad']);
    expect(await refsOfSymbol(DB, projectId, 'src/b/store.ts::absent#Function')).toEqual([]);
  });
});

describe('the likely symbol of a file that imports names', () => {
  it('carries the references refsOfSymbol reads, imported names as text', async () => {
    const id = (
      await indexProject('named-lookups-imports', {
        'src/use.ts': "import { alpha, beta } from './lib';\nimport * as all from './lib';\nexport function useBoth(): number {\n  return alpha() + beta() + all.gamma();\n}\n",
        'src/lib.ts': 'export function alpha(): number { return 1; }\nexport function beta(): number { return 2; }\nexport function gamma(): number { return 3; }\n',
      })
    ).id;
    const likely = await likelyNamedSymbol(DB, id, namePick('useBoth'), undefined);
    const byId = await refsOfSymbol(DB, id, 'src/use.ts::useBoth#Function');
    expect(likely?.refs).toEqual(byId);
    expect(byId.some((r) => r.kind === 'import' && typeof r.imported_names === 'string' && r.imported_names.includes('alpha'))).toBe(true);
  });
});

describe('a name lookup', () => {
  it('keeps the symbols a name may match, whatever their file, and a plain name’s best symbol with those in the files named', async () => {
    const rows = await symbolsByNames(DB, projectId, [namePick('Store.load')], [], {});
    // Not the top-level `load` of src/a/load.ts (a file that does not name Store), nor the test's.
    expect(rows.map((r) => r.id).sort()).toEqual(['lib/Store.py::Store.load#Method', 'src/b/store.ts::Store.load#Method']);
    // A plain name: its best symbol (non-test, not Markdown, exported, path, position) and its symbols in the files named.
    const every = await DB.prepare("SELECT id, file_path, is_test, is_exported, language, start_byte FROM symbols WHERE project_id = ?1 AND name = 'load'")
      .bind(projectId)
      .all<{ id: string; file_path: string; is_test: number; is_exported: number; language: string; start_byte: number }>();
    expect(every.results.length).toBe(5);
    const [best] = every.results.sort((a, b) => a.is_test - b.is_test || Number(a.language === 'markdown') - Number(b.language === 'markdown') || b.is_exported - a.is_exported || (a.file_path < b.file_path ? -1 : a.file_path > b.file_path ? 1 : 0) || a.start_byte - b.start_byte);
    const plain = await symbolsByNames(DB, projectId, [namePick('Store.load')], ['load'], {});
    expect(plain.map((r) => r.id).sort()).toEqual([...new Set([best.id, 'lib/Store.py::Store.load#Method', 'src/b/store.ts::Store.load#Method'])].sort());
    const inFile = await symbolsByNames(DB, projectId, [], ['load'], { plainFiles: ['load.test.ts'] });
    expect(inFile.map((r) => r.id).sort()).toEqual([best.id, 'src/a/load.test.ts::load#Function'].sort());
    // A module's function named by its file (`load.load`: q 3) is a match.
    expect((await symbolsByNames(DB, projectId, [namePick('load.load')], [], {})).map((r) => r.id).sort()).toEqual(['src/a/load.test.ts::load#Function', 'src/a/load.ts::load#Function']);
  });
});

describe('candidates carrying their sources', () => {
  const names = ['load', 'normalise', 'pad', 'fetchItem'];
  it('are the same candidates, each source as a read by id gives it', async () => {
    const plain = await candidatesByNames(DB, projectId, names, 'src/b/store.ts', 25);
    const carried = await candidatesByNames(DB, projectId, names, 'src/b/store.ts', 25, { eachUpTo: 1 << 20, totalUpTo: 1 << 20 });
    const byIdOrder = <T extends { id: string }>(rows: T[]) => [...rows].sort((a, b) => a.id.localeCompare(b.id));
    expect(byIdOrder(carried.map(({ source: _, ...r }) => r))).toEqual(byIdOrder(plain));
    const byId = new Map((await symbolsByIds(DB, projectId, plain.map((r) => r.id), true)).map((r) => [r.id, r.source]));
    for (const r of carried) expect(r.source, r.id).toBe(byId.get(r.id));
  });

  it('leave out a source longer than each may be, and those past the total, the best of every name first', async () => {
    const each = await candidatesByNames(DB, projectId, names, 'src/b/store.ts', 25, { eachUpTo: 40, totalUpTo: 1 << 20 });
    for (const r of each) expect(r.source === null, r.id).toBe(r.end_byte - r.start_byte > 40);
    expect(each.some((r) => r.source === null)).toBe(true);
    expect(each.some((r) => typeof r.source === 'string')).toBe(true);
    const none = await candidatesByNames(DB, projectId, names, 'src/b/store.ts', 25, { eachUpTo: 1 << 20, totalUpTo: 0 });
    expect(none.every((r) => r.source === null)).toBe(true);
    // A total that holds one source: the best candidate of the name first in order (`fetchItem` before `pad`).
    const fetchItem = each.find((r) => r.name === 'fetchItem')!;
    const first = await candidatesByNames(DB, projectId, ['fetchItem', 'pad'], 'src/b/store.ts', 25, { eachUpTo: 1 << 20, totalUpTo: fetchItem.end_byte - fetchItem.start_byte });
    expect(first.filter((r) => typeof r.source === 'string').map((r) => r.name)).toEqual(['fetchItem']);
    // The best `load` (the caller's file first, then callable kinds, then position) carries its source before the rest.
    const method = each.find((r) => r.id === 'src/b/store.ts::Store.load#Method')!;
    const loads = await candidatesByNames(DB, projectId, ['load'], 'src/b/store.ts', 25, { eachUpTo: 1 << 20, totalUpTo: method.end_byte - method.start_byte });
    expect(loads.length).toBe(5);
    expect(loads.filter((r) => typeof r.source === 'string').map((r) => r.id)).toEqual([method.id]);
  });
});

describe('their plans', () => {
  it('seek the symbols by id or name and the files and extractions by key: no scan of a table', async () => {
    const { d1, seen } = recording();
    await likelyNamedSymbol(d1, projectId, namePick('Store.load'), undefined);
    await symbolsByNames(d1, projectId, [namePick('Store.load')], ['save'], {});
    await refsOfSymbol(d1, projectId, 'src/b/store.ts::fetchItem#Function');
    await candidatesByNames(d1, projectId, ['load', 'pad'], 'src/b/store.ts', 25, { eachUpTo: 1 << 20, totalUpTo: 1 << 20 });
    const plans = await planTexts(seen);
    expect(plans.length).toBe(4);
    for (const plan of plans) {
      expect(plan).toMatch(/USING (COVERING )?INDEX (symbols_project_id|symbols_name)/);
      // A table scanned (not a list, a subquery or a virtual table): symbols, files, blobs or extractions.
      expect(plan.split('\n').filter((d) => /^SCAN (s|f|b|e|symbols|files|blobs|extractions)\b(?! VIRTUAL TABLE)/.test(d)), plan).toEqual([]);
    }
  });
});

describe('a member of a common name', () => {
  // More constructors than a name lookup reads, all in files before the wanted one's in path order.
  let crowded = '';
  beforeAll(async () => {
    const many = Array.from({ length: NAME_ROWS + 20 }, (_, i) => `export class C${i} {\n  constructor() {}\n}\n`).join('');
    crowded = (await indexProject('named-lookups-crowded', { 'a/many.ts': many, 'z/target.ts': 'export class Target {\n  constructor() {\n    helper();\n  }\n}\nexport function helper(): void {}\n' })).id;
  });

  it('is found by name though the name alone matches more symbols than a lookup reads', async () => {
    const chosen = await resolveSymbolName(DB, crowded, 'Target.constructor');
    expect(chosen.chosen?.id).toBe('z/target.ts::Target.constructor#Method');
    expect((await likelyNamedSymbol(DB, crowded, namePick('Target.constructor'), undefined))?.row.id).toBe('z/target.ts::Target.constructor#Method');
    const trace = await rest('trace', { project: 'named-lookups-crowded', name: 'Target.constructor', direction: 'outbound' });
    expect(trace.body.result.root.id, JSON.stringify(trace.body._meta.diagnosis)).toBe('z/target.ts::Target.constructor#Method');
    expect(trace.body.result.hops.map((h: { id: string }) => h.id)).toEqual(['z/target.ts::helper#Function']);
    const near = await rest('neighborhood', { project: 'named-lookups-crowded', name: 'Target.constructor' });
    expect(near.body._meta.empty_reason, JSON.stringify(near.body._meta.diagnosis)).toBeUndefined();
    const ctx = await rest('context', { project: 'named-lookups-crowded', name: 'Target.constructor' });
    expect(ctx.body.result.symbol.id).toBe('z/target.ts::Target.constructor#Method');
    expect(ctx.body.result.dependencies.map((d: { id: string }) => d.id)).toEqual(['z/target.ts::helper#Function']);
  });
});

describe('a crowded member name', () => {
  // More `run`s than CROWDED_NAME plus a quarter of the files: a member name is then looked up through the search
  // index's qualified names, the name as given and the files its owner names, not by reading every `run`. The
  // symbols kept must be those a read of every symbol of the names keeps (resolveRef over all of them).
  let crowded = '';
  const many = Array.from({ length: CROWDED_NAME + 40 }, (_, i) => `export class R${i} {\n  run(): void {}\n}\n`).join('');
  const files = {
    'a/many.ts': many,
    'z/job.ts': 'export class Job {\n  run(): void {}\n}\nexport namespace jobs {\n  export class Job {\n    run(): void {}\n  }\n}\n',
    'z/worker.py': 'class Worker:\n    def run(self):\n        return 1\n',
    'tasks/run.ts': 'export function run(): void {}\n',
    'z/queue.ts': 'export function run(): number {\n  return 1;\n}\n',
    'docs/guide.md': '# Guide\n\n## run\n\ntext\n',
  };
  const refs = ['Job.run', 'Job::run', 'Job#run', 'jobs.Job.run', 'Worker.run', 'tasks.run', 'queue.run', 'Guide.run', 'Nope.run', 'R7.run', 'R7.run.extra', 'Job."run"', 'J"ob.run', '+.run', 'Ünï.run', '日本.run', '.run', 'a b.run', 'Job.run*'];
  beforeAll(async () => {
    crowded = (await indexProject('named-lookups-crowded-member', files)).id;
  });

  it('is crowded in this project', async () => {
    const { n } = (await DB.prepare("SELECT count(*) AS n FROM symbols WHERE project_id = ?1 AND name = 'run'").bind(crowded).first<{ n: number }>())!;
    expect(n).toBeGreaterThan(CROWDED_NAME + Object.keys(files).length / 4);
  });

  it.each(refs)('keeps what reading every symbol of the name keeps: %s', async (ref) => {
    const pick = namePick(ref);
    const all = await DB.prepare(
      `SELECT s.id, s.file_path, s.name, s.qualified_name, s.start_line, s.end_line FROM symbols s
       WHERE s.project_id = ?1 AND s.name IN (SELECT value FROM json_each(?2)) ORDER BY s.file_path, s.start_byte`,
    )
      .bind(crowded, JSON.stringify(pick.names))
      .all<{ id: string; file_path: string; name: string; qualified_name: string; start_line: number; end_line: number }>();
    const expected = resolveRef(all.results, { name: ref }).matches.map((r) => r.id);
    const kept = (await symbolsByNames(DB, crowded, [pick], [])).map((r) => r.id);
    expect([...kept].sort()).toEqual([...expected].sort());
    const likely = await likelyNamedSymbol(DB, crowded, pick, undefined);
    expect(likely?.row.id ?? null).toBe(resolveRef(all.results, { name: ref }).chosen?.id ?? null);
  });

  it.each([
    ['z/queue.ts', 1],
    ['z/queue.ts', 3],
    ['a/many.ts', 2],
    ['nowhere.ts', 4],
  ])('ranks every candidate of a common name and keeps the best of each name only, from %s, %i each', async (from, per) => {
    const all = await DB.prepare(
      "SELECT s.id, s.name, s.kind, s.is_test, s.file_path, s.start_byte FROM symbols s WHERE s.project_id = ?1 AND s.name IN ('run', 'Job', 'R7')",
    )
      .bind(crowded)
      .all<{ id: string; name: string; kind: string; is_test: number; file_path: string; start_byte: number }>();
    const kindRank = (k: string) => (['Function', 'Method'].includes(k) ? 0 : ['Class', 'Struct', 'Interface', 'Trait', 'Type', 'Enum'].includes(k) ? 1 : 2);
    const bytes = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const expected = ['run', 'Job', 'R7'].flatMap((name) =>
      all.results
        .filter((r) => r.name === name)
        .sort((a, b) => Number(b.file_path === from) - Number(a.file_path === from) || kindRank(a.kind) - kindRank(b.kind) || a.is_test - b.is_test || bytes(a.file_path, b.file_path) || a.start_byte - b.start_byte)
        .slice(0, per)
        .map((r) => r.id),
    );
    const got = await candidatesByNames(DB, crowded, ['run', 'Job', 'R7'], from, per);
    expect(got.map((r) => r.id).sort()).toEqual([...expected].sort());
    const carried = await candidatesByNames(DB, crowded, ['run', 'Job', 'R7'], from, per, { eachUpTo: 1 << 20, totalUpTo: 1 << 20 });
    expect(carried.map((r) => r.id).sort()).toEqual([...expected].sort());
  });

  it.each([
    ['tasks.run', 'tasks/run.ts::run#Function'],
    ['queue.run', 'z/queue.ts::run#Function'],
    ['Job.run', 'z/job.ts::Job.run#Method'],
    ['Worker.run', 'z/worker.py::Worker.run#Method'],
  ])('search %s finds %s among the crowded runs, as its only definition of that name', async (query, id) => {
    const r = await rest('search', { project: 'named-lookups-crowded-member', query });
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
    const ids = r.body.result.results.map((h: { id: string }) => h.id);
    expect(ids[0], JSON.stringify(ids)).toBe(id);
  });

  it.each(['Job.run', 'jobs.Job.run', 'Worker.run', 'queue.run'])('neighborhood %s reads the chosen file with the look-up: one round trip', async (name) => {
    // The files read ahead are those the name's pick may match, best kind of match first: the chosen one's is among them.
    const r = await rest('neighborhood', { project: 'named-lookups-crowded-member', name });
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
    expect(Number(r.res.headers.get('x-pincher-d1-round-trips'))).toBe(1);
    const warm = await rest('neighborhood', { project: 'named-lookups-crowded-member', name });
    expect(warm.body.result).toEqual(r.body.result);
  });

  it.each(['run', 'Job.run', 'tasks.run', 'R7.run'])('namedRowsByNames gives symbolsByNames’ rows, narrow: %s', async (name) => {
    const wide = await symbolsByNames(DB, crowded, [namePick(name)], []);
    const narrow = await namedRowsByNames(DB, crowded, [namePick(name)]);
    expect(narrow).toEqual(wide.map((r) => ({ id: r.id, file_path: r.file_path, name: r.name, qualified_name: r.qualified_name, start_line: r.start_line, end_line: r.end_line, start_byte: r.start_byte, is_test: r.is_test, is_exported: r.is_exported })));
    expect(narrow.length).toBeGreaterThan(0);
  });

  it('lists the files its owner names in one pass over the paths, which both tells it is crowded and gives those files', async () => {
    const { d1, seen } = recording();
    await symbolsByNames(d1, crowded, [namePick('Job.run')], []);
    const plans = await planTexts(seen);
    // `fl` is the files pass of ownerFilesSql; the candidates in those files come from its list (json_each), not a second pass.
    expect(plans.join('\n').match(/\b(?:SCAN|SEARCH) fl\b/g) ?? []).toHaveLength(1);
    expect(plans.join('\n')).toMatch(/SCAN fo VIRTUAL TABLE/);
  });

  it('finds the qualified names through the search index, not by reading every symbol of the name', async () => {
    const { d1, seen } = recording();
    await symbolsByNames(d1, crowded, [namePick('Job.run')], []);
    const plans = await planTexts(seen);
    expect(plans.join('\n')).toMatch(/VIRTUAL TABLE INDEX/);
    // One row per kept symbol read whole; the `run`s are counted in the name index, not read.
    const rows = await symbolsByNames(DB, crowded, [namePick('Job.run')], []);
    expect(rows.map((r) => r.id)).toEqual(['z/job.ts::Job.run#Method', 'z/job.ts::jobs.Job.run#Method']);
  });
});
