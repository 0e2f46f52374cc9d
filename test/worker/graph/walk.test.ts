import { beforeAll, describe, expect, it } from 'vitest';
import { callersOf, calleesOf, graphState, importersOf, isTestPath, resolveSymbolName, uncalledSymbols, walk, LEVEL_ROW_CEILING } from '../../../src/db/graph';
import { DB, EDGES, FILES, indexProject, seedEdges } from './support';

let project: { id: string; ids: Set<string> };

beforeAll(async () => {
  project = await indexProject('graph-walk', FILES);
  await seedEdges(project, EDGES);
});

const brief = (hops: { node: { id: string | null; file: string }; depth: number; via: string; line: number }[]) =>
  hops.map((h) => `${h.depth} ${h.node.id ?? `${h.node.file}::`} <- ${h.via} @${h.line}`);

describe('walk', () => {
  it('walks callers level by level, each hop naming its predecessor and the call-site line in the caller file', async () => {
    const r = await walk(DB, project.id, ['src/core/db.ts::run#Function'], { direction: 'in', depth: 3 });
    expect(brief(r.hops)).toEqual([
      '1 src/core/db.ts::query#Function <- src/core/db.ts::run#Function @2',
      '2 src/admin/audit.ts::audit#Function <- src/core/db.ts::query#Function @4',
      '2 src/api/users.ts::Users.list#Method <- src/core/db.ts::query#Function @5',
      '3 src/api/users.ts::Users.get#Method <- src/api/users.ts::Users.list#Method @8',
    ]);
    expect(r.total).toBe(4);
    expect(r.perDepth).toEqual([1, 2, 1]);
    expect(r.truncated).toBe(false);
    expect(r.complete).toBe(true);
    const first = r.hops[0];
    expect(first).toMatchObject({ direction: 'in', kind: 'CALLS', confidence: 0.95, provenance: 'same_file', ref: 'run' });
    expect(first.node).toMatchObject({ name: 'query', kind: 'Function', file: 'src/core/db.ts', line: 1, language: 'typescript', isTest: false, isExported: true });
  });

  it('stops at depth and never returns a start symbol', async () => {
    const r = await walk(DB, project.id, ['src/core/db.ts::run#Function'], { direction: 'in', depth: 1 });
    expect(brief(r.hops)).toEqual(['1 src/core/db.ts::query#Function <- src/core/db.ts::run#Function @2']);
    const out = await walk(DB, project.id, ['src/api/users.ts::handler#Function'], { direction: 'out', depth: 5 });
    expect(brief(out.hops)).toEqual([
      '1 src/api/users.ts::Users.get#Method <- src/api/users.ts::handler#Function @13',
      '2 src/api/users.ts::Users.list#Method <- src/api/users.ts::Users.get#Method @8',
      '3 src/core/db.ts::query#Function <- src/api/users.ts::Users.list#Method @5',
      '4 src/core/db.ts::run#Function <- src/core/db.ts::query#Function @2',
    ]);
    expect(out.hops.every((h) => h.direction === 'out')).toBe(true);
  });

  it('drops test symbols unless includeTests, counting them', async () => {
    const without = await walk(DB, project.id, ['src/api/users.ts::handler#Function'], { direction: 'in', depth: 2 });
    expect(without.hops).toEqual([]);
    expect(without.testsDropped).toBe(1);
    const withTests = await walk(DB, project.id, ['src/api/users.ts::handler#Function'], { direction: 'in', depth: 2, includeTests: true });
    expect(brief(withTests.hops)).toEqual(['1 test/users.test.ts::checkHandler#Function <- src/api/users.ts::handler#Function @4']);
    expect(withTests.hops[0].node.isTest).toBe(true);
  });

  it('skips edges under minConfidence and follows only the asked kinds', async () => {
    const strict = await walk(DB, project.id, ['src/core/db.ts::query#Function'], { direction: 'in', depth: 1, minConfidence: 0.5 });
    expect(strict.hops.map((h) => h.node.id)).toEqual(['src/api/users.ts::Users.list#Method']);
    const imports = await walk(DB, project.id, ['src/core/db.ts::query#Function'], { direction: 'in', depth: 1, kinds: ['IMPORTS'] });
    expect(brief(imports.hops)).toEqual(['1 src/admin/audit.ts:: <- src/core/db.ts::query#Function @1', '1 src/api/users.ts:: <- src/core/db.ts::query#Function @1']);
    expect(imports.hops[1].node).toMatchObject({ id: null, kind: 'Module', name: 'users.ts' });
  });

  it('returns a module-level caller as a leaf node with a null id', async () => {
    const r = await walk(DB, project.id, ['src/fan/hub.ts::hub#Function'], { direction: 'in', depth: 3 });
    expect(r.perDepth).toEqual([7, 1, 0]);
    const boot = r.hops.find((h) => h.node.id === null);
    expect(boot).toMatchObject({ depth: 1, line: 2, node: { file: 'src/boot.ts', kind: 'Module' } });
    expect(r.hops.find((h) => h.depth === 2)).toMatchObject({ via: 'src/fan/callers.ts::c1#Function', node: { id: 'src/fan/callers.ts::top#Function' } });
  });

  it('cuts the returned hops at maxHops and reports the total before the cut', async () => {
    const r = await walk(DB, project.id, ['src/fan/hub.ts::hub#Function'], { direction: 'in', depth: 3, maxHops: 3 });
    expect(r.hops).toHaveLength(3);
    expect(r.total).toBe(8);
    expect(r.truncated).toBe(true);
  });

  it('walks both directions separately and merges them by depth, inbound first', async () => {
    const r = await walk(DB, project.id, ['src/core/db.ts::query#Function'], { direction: 'both', depth: 1 });
    expect(r.hops.map((h) => `${h.direction} ${h.node.id}`)).toEqual([
      'in src/admin/audit.ts::audit#Function',
      'in src/api/users.ts::Users.list#Method',
      'out src/core/db.ts::run#Function',
    ]);
    expect(r.perDepth).toEqual([3]);
  });

  it('reaches a node once, through its most confident edge, even in a cycle', async () => {
    const cyc = await indexProject('graph-walk-cycle', {
      'a.ts': 'export function a(): void {\n  b();\n}\nexport function b(): void {\n  a();\n  c();\n}\nexport function c(): void {\n  a();\n}\n',
    });
    await seedEdges(cyc, [
      { src: 'a.ts::a#Function', dst: 'a.ts::b#Function', line: 2, confidence: 0.95 },
      { src: 'a.ts::b#Function', dst: 'a.ts::a#Function', line: 5, confidence: 0.95 },
      { src: 'a.ts::b#Function', dst: 'a.ts::c#Function', line: 6, confidence: 0.95 },
      { src: 'a.ts::c#Function', dst: 'a.ts::a#Function', line: 9, confidence: 0.5 },
    ]);
    const r = await walk(DB, cyc.id, ['a.ts::a#Function'], { direction: 'in', depth: 5 });
    expect(brief(r.hops)).toEqual(['1 a.ts::b#Function <- a.ts::a#Function @5', '1 a.ts::c#Function <- a.ts::a#Function @9']);
  });

  it('marks a level cut at the row ceiling (distinct predecessor–node pairs) as incomplete', async () => {
    const wide = await indexProject('graph-walk-wide', { 'w.ts': 'export function w(): void {}\n' });
    // Module-level callers in LEVEL_ROW_CEILING + 1 different files: that many distinct nodes.
    const many = Array.from({ length: LEVEL_ROW_CEILING + 1 }, (_, i) => ({ src: null, srcFile: `m/f${String(i).padStart(5, '0')}.ts`, dst: 'w.ts::w#Function', line: 1, confidence: 1 }));
    await seedEdges(wide, many);
    const r = await walk(DB, wide.id, ['w.ts::w#Function'], { direction: 'in', depth: 1, maxHops: 10_000 });
    expect(r.complete).toBe(false);
    expect(r.hops).toHaveLength(LEVEL_ROW_CEILING);
    expect(r.hops[0].node.file).toBe('m/f00000.ts');
  });

  it('reads one row per caller however many call sites it has: its most confident edge, earliest line among equals', async () => {
    const dense = await indexProject('graph-walk-dense', { 'w.ts': 'export function w(): void {}\nexport function x(): void {\n  w();\n}\n' });
    const sites = Array.from({ length: LEVEL_ROW_CEILING + 1 }, (_, i) => ({ src: 'w.ts::x#Function', dst: 'w.ts::w#Function', line: i + 10, confidence: 0.9 }));
    await seedEdges(dense, [...sites, { src: 'w.ts::x#Function', dst: 'w.ts::w#Function', line: 9000, confidence: 1 }, { src: 'w.ts::x#Function', dst: 'w.ts::w#Function', line: 9001, confidence: 1 }]);
    const r = await walk(DB, dense.id, ['w.ts::w#Function'], { direction: 'in', depth: 1 });
    expect(r.complete).toBe(true);
    expect(r.hops).toHaveLength(1);
    expect(r.hops[0]).toMatchObject({ line: 9000, confidence: 1 });
    // One-hop helpers still list every call site.
    expect(await callersOf(DB, dense.id, ['w.ts::w#Function'], { limit: 10_000 })).toHaveLength(LEVEL_ROW_CEILING + 3);
  });
});

describe('one-hop helpers', () => {
  it('callersOf lists every edge into the ids, tests included', async () => {
    const rows = await callersOf(DB, project.id, ['src/api/users.ts::handler#Function', 'src/core/db.ts::run#Function']);
    expect(rows.map((r) => `${r.of} <- ${r.node.id} @${r.line}`).sort()).toEqual([
      'src/api/users.ts::handler#Function <- test/users.test.ts::checkHandler#Function @4',
      'src/core/db.ts::run#Function <- src/core/db.ts::query#Function @2',
    ]);
  });

  it('calleesOf lists every edge out of the ids, filtered by kind and confidence', async () => {
    const all = await calleesOf(DB, project.id, ['src/admin/audit.ts::audit#Function']);
    expect(all.map((r) => r.node.id).sort()).toEqual(['src/admin/audit.ts::helperLow#Function', 'src/core/db.ts::query#Function']);
    const strict = await calleesOf(DB, project.id, ['src/admin/audit.ts::audit#Function'], { minConfidence: 0.6 });
    expect(strict.map((r) => r.node.id)).toEqual(['src/admin/audit.ts::helperLow#Function']);
    expect(await calleesOf(DB, project.id, ['src/admin/audit.ts::audit#Function'], { kinds: ['INHERITS'] })).toEqual([]);
  });

  it('importersOf lists files importing a file, whole-file or by symbol', async () => {
    const rows = await importersOf(DB, project.id, ['src/api/users.ts', 'src/core/db.ts']);
    expect(rows.map((r) => `${r.file} -> ${r.target}`)).toEqual([
      'src/admin/audit.ts -> src/core/db.ts',
      'src/api/users.ts -> src/core/db.ts',
      'test/users.test.ts -> src/api/users.ts',
    ]);
  });

  it('graphState says whether the edges lag the index', async () => {
    expect(await graphState(DB, project.id)).toMatchObject({ hasEdges: true });
    const s = (await graphState(DB, project.id))!;
    expect(s.graphGeneration).toBe(s.generation);
    await seedEdges(project, EDGES, { current: false });
    const lag = (await graphState(DB, project.id))!;
    expect(lag.graphGeneration).toBe(lag.generation - 1);
    await seedEdges(project, EDGES);
  });

  it('uncalledSymbols lists non-exported non-test callables without a confident caller', async () => {
    const rows = await uncalledSymbols(DB, project.id, { kinds: ['Function', 'Method'], minConfidence: 0.95, language: 'typescript', limit: 100 });
    expect(rows.map((r) => `${r.id} ${r.best_below}`)).toEqual([
      'src/admin/audit.ts::helperLow#Function 0.7',
      'src/core/db.ts::orphan#Function null',
      'src/core/db.ts::main#Function null',
    ]);
  });

  it('isTestPath follows the extractor test-path rules', () => {
    expect(isTestPath('test/users.test.ts')).toBe(true);
    expect(isTestPath('src/a.spec.js')).toBe(true);
    expect(isTestPath('src/a.ts')).toBe(false);
    expect(isTestPath('README.md')).toBe(false);
  });
});

describe('resolveSymbolName', () => {
  it('prefers an exact qualified name and lists the other matches as alternatives', async () => {
    const r = await resolveSymbolName(DB, project.id, 'list');
    expect(r.chosen?.id).toBe('src/admin/audit.ts::list#Function');
    expect(r.alternatives.map((a) => a.id)).toEqual(['src/api/users.ts::Users.list#Method']);
    const q = await resolveSymbolName(DB, project.id, 'Users.list');
    expect(q.chosen?.id).toBe('src/api/users.ts::Users.list#Method');
    expect(q.alternatives).toEqual([]);
  });

  it('returns no match for an unknown name, and the non-spanning matches for Name@line', async () => {
    expect(await resolveSymbolName(DB, project.id, 'nope')).toEqual({ chosen: null, alternatives: [] });
    const at = await resolveSymbolName(DB, project.id, 'query@99');
    expect(at.chosen).toBeNull();
    expect(at.alternatives.map((a) => a.id)).toEqual(['src/core/db.ts::query#Function']);
  });
});
