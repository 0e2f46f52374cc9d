import { beforeAll, describe, expect, it } from 'vitest';
import { nameCandidates } from '../../../src/db/names';
import { nearest, nearestBounds } from '../../../src/util/did-you-mean';
import { DB, indexProject } from '../graph/support';
import { recording } from '../recording-d1';

// A did-you-mean's candidates are cut in SQL by nearestBounds (the lengths an offered name can have, or the input as
// its prefix). These hold that the names offered are the same as from every candidate, on ASCII and other names.
const NAMES = [
  'listen', 'listener', 'list', 'lis', 'glisten', 'listenOnce', 'LISTEN_ALL', 'enlist',
  'fetchWidget', 'fetchWidgets', 'fetchWidgetById', 'prefetchWidget', 'fetch', 'widget',
  'getHeaders', 'getHeader', 'setHeaders', 'getHeadersFromTheRequestObjectAndMergeThem', 'headers', 'get',
  'getHeadersList', 'getHeadersMap', 'gotHeaders', 'getHeadlessMode', 'getReaders', 'getters',
  'abc', 'ab', 'abort', 'cab', 'a_b',
  'groesseWert', 'größeWert', 'größe', 'größeWerte', 'İndex', 'index', 'indexOf',
  'café', 'cafe', 'caféBabe', 'naïveSort', 'naiveSort',
];
const INPUTS = [
  'lisen', 'listen', 'Listen', 'LIST', 'lst', 'fetchWidgt', 'fetchWidget', 'fetchwidgetbyid', 'getHeaders', 'getHead', 'gtHeaders',
  'getHeadersFromTheRequestObject', 'ab', 'abt', 'größeWert', 'grosseWert', 'groesseWerte', 'index', 'İndex', 'cafe', 'caféBab', 'naiveSrt',
  'naïve', 'x_y', 'a%b', 'getHeaders_',
];

let projectId = '';
beforeAll(async () => {
  const source = NAMES.map((n) => `export function ${n}() { return 1; }\n`).join('');
  projectId = (await indexProject('name-candidates', { 'src/names.ts': source })).id;
});

describe('did-you-mean candidates', () => {
  it('has the fixture names indexed', async () => {
    const rows = await DB.prepare('SELECT count(DISTINCT name) AS n FROM symbols WHERE project_id = ?1').bind(projectId).first<{ n: number }>();
    expect(rows?.n).toBe(new Set(NAMES).size);
  });

  for (const input of INPUTS) {
    it(`offers the same names and ids for ${input} with the bounds as without`, async () => {
      const all = await nameCandidates(DB, projectId, input);
      const bounds = nearestBounds(input);
      const cut = await nameCandidates(DB, projectId, input, bounds);
      const offered = (rows: typeof all) => {
        const ids = new Map(rows.map((r) => [r.name, r.id]));
        return nearest(input, rows.map((r) => r.name), 3).map((n) => [n, ids.get(n)]);
      };
      expect(offered(cut)).toEqual(offered(all));
      // The cut keeps a subset, in the same order, and the input itself when it is a name.
      const kept = new Set(cut.map((r) => r.name));
      expect(all.filter((r) => kept.has(r.name))).toEqual(cut);
      expect(kept.has(input)).toBe(all.some((r) => r.name === input));
    });
  }

  it('finds nothing while the symbol an id named has moved to another file, and the same as without otherwise', async () => {
    const input = 'listen';
    const plain = await nameCandidates(DB, projectId, input, nearestBounds(input));
    expect(plain.length).toBeGreaterThan(1);
    const moved = (path: string, kind = 'Function', qualifiedName = 'listen') => nameCandidates(DB, projectId, input, nearestBounds(input), { names: [qualifiedName], qualifiedName, kind, path });
    // src/names.ts holds listen#Function: an id naming it in another file has moved.
    expect(await moved('src/old/names.ts')).toEqual([]);
    // Not moved: the id named that very file, another kind, or a name no file holds.
    expect(await moved('src/names.ts')).toEqual(plain);
    expect(await moved('src/old/names.ts', 'Class')).toEqual(plain);
    expect(await moved('src/old/names.ts', 'Function', 'listenNever')).toEqual(plain);
    // The question is the outer loop: when the symbol has moved, no name is read (beside the patterns, SQLite would
    // test it on every name after them).
    const { d1, seen } = recording();
    await nameCandidates(d1, projectId, input, nearestBounds(input), { names: ['listen'], qualifiedName: 'listen', kind: 'Function', path: 'src/old/names.ts' });
    const plan = (await DB.prepare(`EXPLAIN QUERY PLAN ${seen[0].sql}`).bind(...seen[0].args).all<{ detail: string }>()).results.map((r) => r.detail);
    expect(plan.indexOf('SCAN g'), plan.join('\n')).toBeGreaterThanOrEqual(0);
    expect(plan.indexOf('SCAN g')).toBeLessThan(plan.findIndex((d) => d.startsWith('SEARCH symbol_names')));
  });

  it('past the cap keeps the names the input prefixes and the nearest in length, not the first by name', async () => {
    // 2,100 names sharing the input's middle three characters (`get`: the patterns leave `_` out), all sorting before the name meant.
    const filler = Array.from({ length: 2100 }, (_, i) => `export function aa_get_${String(i).padStart(4, '0')}() { return ${i}; }\n`).join('');
    const capped = (await indexProject('name-candidates-cap', { 'src/filler.ts': filler, 'src/target.ts': 'export function zz_target_common() { return 0; }\nexport function zz_target_commonly_used() { return 1; }\n' })).id;
    const input = 'zz_target_commn';
    for (const bounds of [nearestBounds(input), null]) {
      const rows = await nameCandidates(DB, capped, input, bounds);
      expect(rows.length).toBe(2000);
      expect(rows.map((r) => r.name)).toEqual(rows.map((r) => r.name).sort());
      expect(nearest(input, rows.map((r) => r.name), 3)[0]).toBe('zz_target_common');
      expect(rows.find((r) => r.name === 'zz_target_common')?.id).toBe('src/target.ts::zz_target_common#Function');
    }
    // A prefix of longer names keeps them whatever their length.
    const prefixed = await nameCandidates(DB, capped, 'zz_target_commonly', nearestBounds('zz_target_commonly'));
    expect(prefixed.map((r) => r.name)).toContain('zz_target_commonly_used');
  });

  it('cuts the candidates of an ASCII name by length, and leaves a name of other characters to nearest', async () => {
    const all = await nameCandidates(DB, projectId, 'getHeaders');
    const cut = await nameCandidates(DB, projectId, 'getHeaders', nearestBounds('getHeaders'));
    expect(cut.length).toBeLessThan(all.length);
    expect(cut.map((r) => r.name)).toContain('getHeadersFromTheRequestObjectAndMergeThem');
    expect(cut.map((r) => r.name)).not.toContain('get');
    expect(nearestBounds('größeWert')).toBeNull();
    expect(nearestBounds('getHeaders')).toEqual({ minLength: 7, maxLength: 13, prefix: 'getheaders' });
  });
});
