import { beforeAll, describe, expect, it } from 'vitest';
import { resolveSymbolName, walkFromId, walkFromName, walkWith, type WalkOptions, type WalkPlan } from '../../../src/db/graph';
import { edgeEnd } from '../../../src/db/edge-ends';
import { symbolsByIds } from '../../../src/db/source';
import type { EdgeKind } from '../../../src/graph/types';
import { edgeRow, writeSeedEdges, type SeedEdge } from '../seed-edges';
import { DB, indexProject } from './support';

// A walk reads both directions in one recursive statement (each step reads a level and works
// out the next frontier in SQL); the per-level plan (one statement per level) is the
// reference it must equal. These walk random graphs — cycles, diamonds, self-loops, repeated pairs, test
// symbols, module ends, stale ids, weak edges, every kind — both ways with every option and
// compare the whole results, and count the statements each plan sends.

const fn = (name: string) => `export function ${name}(): number {\n  return 1;\n}\n`;
const FILES: Record<string, string> = {
  'src/a.ts': Array.from({ length: 8 }, (_, i) => fn(`a${i}`)).join('\n'),
  'src/b.ts': Array.from({ length: 6 }, (_, i) => fn(`b${i}`)).join('\n'),
  'src/c.py': Array.from({ length: 5 }, (_, i) => `def c${i}():\n    return 1\n`).join('\n'),
  'test/a.test.ts': Array.from({ length: 4 }, (_, i) => fn(`t${i}`)).join('\n'),
  'src/k.ts': 'export class K {\n  m0(): number {\n    return 0;\n  }\n  m1(): number {\n    return 1;\n  }\n}\n',
};
/** Files that are module ends only (no symbols of theirs are seeded), one of them a test file. */
const MODULE_FILES = ['src/main.ts', 'test/setup.test.ts', 'src/a.ts', 'src/c.py'];
const KINDS: EdgeKind[] = ['CALLS', 'CALLS', 'CALLS', 'CALLS', 'REFERENCES', 'IMPORTS', 'INHERITS'];
const CONFIDENCES = [1, 1, 0.95, 0.9, 0.9, 0.7, 0.5, 0.4, 0.3];

let project: { id: string; ids: Set<string> };
let symbols: string[];

/** Deterministic PRNG (mulberry32). */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomGraph(seed: number, size: number, pool: readonly string[] = symbols): SeedEdge[] {
  const rand = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const end = (): { id: string | null; file: string | null } => {
    const r = rand();
    if (r < 0.08) return { id: null, file: pick(MODULE_FILES) };
    if (r < 0.11) return { id: 'src/a.ts::ghost#Function', file: 'src/a.ts' };
    const id = pick(pool);
    return { id, file: id.slice(0, id.indexOf('::')) };
  };
  const edges: SeedEdge[] = [];
  for (let i = 0; i < size; i++) {
    const src = end();
    const dst = end();
    edges.push({ kind: pick(KINDS), src: src.id, srcFile: src.file ?? undefined, dst: dst.id, dstFile: dst.file, line: 1 + Math.floor(rand() * 12), confidence: pick(CONFIDENCES), name: 'ref' });
  }
  // A diamond and a repeated pair: two ways to one node, and many sites of one call.
  const [p, q, r, s] = pool.slice(0, 4);
  edges.push({ src: p, dst: q, line: 3 }, { src: p, dst: r, line: 4 }, { src: q, dst: s, line: 5, confidence: 0.9 }, { src: r, dst: s, line: 2, confidence: 0.9 });
  for (let line = 20; line < 26; line++) edges.push({ src: q, dst: p, line, confidence: line === 23 ? 1 : 0.9, kind: line === 21 ? 'REFERENCES' : 'CALLS' });
  return edges;
}

/** A D1 binding counting the statements it is asked to run. */
function counting(): { d1: D1Database; statements: () => number } {
  let n = 0;
  const d1 = {
    prepare(sql: string) {
      const real = DB.prepare(sql);
      return {
        bind(...args: unknown[]) {
          n++;
          return real.bind(...args);
        },
      };
    },
  } as unknown as D1Database;
  return { d1, statements: () => n };
}

/** Both plans of one walk, and the statements each sent. */
async function both(starts: readonly string[], options: WalkOptions, ceiling?: number) {
  const how = (plan: WalkPlan['plan']): WalkPlan => (ceiling === undefined ? { plan } : { plan, ceiling });
  const perLevel = counting();
  const levels = await walkWith(perLevel.d1, project.id, starts, options, how('levels'));
  const { d1, statements } = counting();
  const statement = await walkWith(d1, project.id, starts, options, how('statement'));
  return { levels, statement, statements: statements(), levelStatements: perLevel.statements() };
}

/**
 * The statements the one-statement plan sends: one for the whole walk, whatever the depth and
 * direction (the per-level plan sends one per level it reads).
 */
function expectStatements(r: { statements: number; levelStatements: number }): void {
  expect(r.statements).toBe(r.levelStatements > 0 ? 1 : 0);
}

beforeAll(async () => {
  project = await indexProject('graph-walk-plans', FILES);
  symbols = [...project.ids].sort();
  expect(symbols.length).toBeGreaterThan(20);
});

describe('the one-statement walk reads what the per-level walk reads', () => {
  it('on random graphs, both ways, every depth, kinds, floors and test rules, in one statement', async () => {
    let compared = 0;
    let reached = 0;
    for (const seed of [1, 2, 3]) {
      await writeSeedEdges(project.id, randomGraph(seed, 90 + 30 * seed).map((e) => edgeRow(e, { confidence: 1, provenance: 'import' })));
      const rand = prng(100 + seed);
      for (let round = 0; round < 8; round++) {
        const starts = round === 0 ? [symbols[0], symbols[0], 'src/a.ts::ghost#Function'] : [symbols[Math.floor(rand() * symbols.length)], ...(round % 3 === 0 ? [symbols[Math.floor(rand() * symbols.length)]] : [])];
        for (const direction of ['in', 'out', 'both'] as const) {
          for (let depth = 1; depth <= 5; depth++) {
            const options: WalkOptions = {
              direction,
              depth,
              kinds: round % 2 === 0 ? ['CALLS'] : ['CALLS', 'REFERENCES', 'IMPORTS', 'INHERITS'],
              minConfidence: [0, 0.5, 0.95][round % 3],
              includeTests: round % 4 < 2,
              countHidden: round % 3 !== 1,
              maxHops: round === 5 ? 3 : 500,
            };
            const r = await both(starts, options);
            const { levels, statement } = r;
            expect(statement, `seed ${seed} ${JSON.stringify({ starts, ...options })}`).toEqual(levels);
            expectStatements(r);
            compared++;
            reached += levels.total;
          }
        }
      }
    }
    expect(compared).toBe(3 * 8 * 3 * 5);
    // The graphs are not trivially empty: the walks reach many nodes.
    expect(reached).toBeGreaterThan(1000);
  }, 180_000);

  it('cuts each level at the same row ceiling (complete false), in as few statements', async () => {
    await writeSeedEdges(project.id, randomGraph(7, 200).map((e) => edgeRow(e, { confidence: 1, provenance: 'import' })));
    let cut = 0;
    for (const start of symbols.slice(0, 12)) {
      for (const direction of ['in', 'out', 'both'] as const) {
        for (const ceiling of [2, 5, 9]) {
          const options: WalkOptions = { direction, depth: 4, kinds: ['CALLS', 'REFERENCES', 'IMPORTS'], minConfidence: 0.5, countHidden: true, includeTests: ceiling !== 5 };
          const r = await both([start], options, ceiling);
          const { levels, statement } = r;
          expect(statement, `${start} ${direction} ceiling ${ceiling}`).toEqual(levels);
          expectStatements(r);
          if (!levels.complete) cut++;
        }
      }
    }
    expect(cut).toBeGreaterThan(20);
  }, 120_000);

  it('reads a start given several times as one (its level cut at the same ceiling)', async () => {
    await writeSeedEdges(project.id, randomGraph(7, 200).map((e) => edgeRow(e, { confidence: 1, provenance: 'import' })));
    for (const start of symbols.slice(0, 6)) {
      for (const ceiling of [2, 5]) {
        const r = await both([start, start, start], { direction: 'both', depth: 1, kinds: ['CALLS', 'REFERENCES', 'IMPORTS'], countHidden: true }, ceiling);
        expect(r.statement, `${start} ceiling ${ceiling}`).toEqual(r.levels);
        expectStatements(r);
      }
    }
  });

  it('reads level by level when D1 refuses the walk statement (a carried state past its value limit)', async () => {
    await writeSeedEdges(project.id, randomGraph(7, 200).map((e) => edgeRow(e, { confidence: 1, provenance: 'import' })));
    const refusing = {
      prepare(sql: string) {
        if (sql.trimStart().startsWith('WITH RECURSIVE')) return { bind: () => ({ all: () => Promise.reject(new Error('D1_ERROR: string or blob too big: SQLITE_TOOBIG')) }) };
        return DB.prepare(sql);
      },
    } as unknown as D1Database;
    for (const start of symbols.slice(0, 4)) {
      const options: WalkOptions = { direction: 'both', depth: 4, kinds: ['CALLS', 'REFERENCES', 'IMPORTS'], countHidden: true };
      expect(await walkWith(refusing, project.id, [start], options, { plan: 'statement' })).toEqual(await walkWith(DB, project.id, [start], options, { plan: 'levels' }));
    }
    expect((await walkFromName(refusing, project.id, 'a0', { direction: 'in', depth: 2 }))?.start).toBeNull();
  });

  it('with probeEdges, a walk from one id says in the same statement whether any edge at all touches it in the walked directions', async () => {
    await writeSeedEdges(project.id, randomGraph(9, 25).map((e) => edgeRow(e, { confidence: 1, provenance: 'import' })));
    /** Edges of any kind and confidence with `end` at the symbol `id`, read directly. */
    const edgesAt = async (id: string, end: 'src' | 'dst'): Promise<number> => {
      const { file, key } = edgeEnd(id, null);
      const row = await DB.prepare(`SELECT count(*) AS n FROM edges WHERE project_id = ?1 AND ${end}_file = ?2 AND ${end}_key = ?3`).bind(project.id, file, key).first<{ n: number }>();
      return row?.n ?? 0;
    };
    const seen = { untouched: 0, touched: 0 };
    for (const start of [...symbols, 'src/a.ts::ghost#Function', 'src/gone.ts::a0#Function']) {
      for (const direction of ['in', 'out', 'both'] as const) {
        const options: WalkOptions = { direction, depth: 2, kinds: ['CALLS'], minConfidence: 0.95, countHidden: false, probeEdges: true };
        const { d1, statements } = counting();
        const { result } = await walkFromId(d1, project.id, start, options);
        expect(statements()).toBe(1);
        const edges = (direction === 'out' ? 0 : await edgesAt(start, 'dst')) + (direction === 'in' ? 0 : await edgesAt(start, 'src'));
        expect(result.untouched, `${start} ${direction}`).toBe(edges === 0);
        seen[edges === 0 ? 'untouched' : 'touched']++;
        const { untouched: _, ...walked } = result;
        expect(walked, `${start} ${direction}`).toEqual(await walkWith(DB, project.id, [start], options, { plan: 'levels' }));
      }
    }
    expect(seen.untouched).toBeGreaterThan(5);
    expect(seen.touched).toBeGreaterThan(5);
    // Several start ids, or a walk read level by level, cannot tell.
    const options: WalkOptions = { direction: 'both', depth: 2, probeEdges: true };
    expect((await walkWith(DB, project.id, symbols.slice(0, 2), options, { plan: 'statement' })).untouched).toBeUndefined();
    expect((await walkWith(DB, project.id, symbols.slice(0, 1), options, { plan: 'levels' })).untouched).toBeUndefined();
  });

  it('a walk from one id reads the id’s symbol row in the same statement, as symbolsByIds reads it', async () => {
    await writeSeedEdges(project.id, randomGraph(5, 150).map((e) => edgeRow(e, { confidence: 1, provenance: 'import' })));
    for (const start of [...symbols.slice(0, 6), 'src/a.ts::ghost#Function', 'src/gone.ts::a0#Function']) {
      const [row] = await symbolsByIds(DB, project.id, [start], false);
      for (const direction of ['in', 'out', 'both'] as const) {
        const options: WalkOptions = { direction, depth: 3, kinds: ['CALLS', 'REFERENCES', 'IMPORTS'], minConfidence: 0.5, countHidden: true };
        const { d1, statements } = counting();
        const { root, result } = await walkFromId(d1, project.id, start, options);
        expect(statements()).toBe(1);
        expect(result, `${start} ${direction}`).toEqual(await walkWith(DB, project.id, [start], options, { plan: 'levels' }));
        if (!row) {
          expect(root, start).toBeNull();
          continue;
        }
        const { id, file_path, name, qualified_name, kind, start_line, end_line, language, is_test, is_exported, file_size } = row;
        expect(root, start).toEqual({ id, file_path, name, qualified_name, kind, start_line, end_line, language, is_test, is_exported, file_size });
      }
    }
    // Read level by level (the statement refused), the walk has no root row: the caller looks the id up.
    const refusing = {
      prepare(sql: string) {
        if (sql.trimStart().startsWith('WITH RECURSIVE')) return { bind: () => ({ all: () => Promise.reject(new Error('D1_ERROR: string or blob too big: SQLITE_TOOBIG')) }) };
        return DB.prepare(sql);
      },
    } as unknown as D1Database;
    expect((await walkFromId(refusing, project.id, symbols[0], { direction: 'in', depth: 2 })).root).toBeUndefined();
  });

  it('sends nothing for no start ids', async () => {
    const { levels, statement, statements } = await both([], { direction: 'both', depth: 3 });
    expect(statement).toEqual(levels);
    expect(statement.total).toBe(0);
    expect(statements).toBe(0);
  });
});

/** Names spelled several ways: ambiguous ones, members, a module owner, a test file, paths whose byte and locale orders differ. */
const NAMED_FILES: Record<string, string> = {
  'src/Zed.ts': `${fn('pick')}\nexport class Runner {\n  run(): number {\n    return pick();\n  }\n}\n`,
  'src/alpha.ts': `${fn('pick')}\nfunction run(): number {\n  return 2;\n}\n\nexport function other(): number {\n  return run();\n}\n`,
  'src/run/index.ts': fn('run'),
  'lib/run.py': 'def run():\n    return 1\n\ndef helper():\n    return run()\n',
  'test/pick.test.ts': `${fn('pick')}\n${fn('only')}`,
  'src/box.ts': 'export class Box {\n  pick(): number {\n    return 1;\n  }\n  only(): number {\n    return 2;\n  }\n}\n',
};

describe('a walk from a name resolves it in its own statement', () => {
  it('walks from the symbol resolveSymbolName picks, or says which it walked from where path order tells them apart', async () => {
    const named = await indexProject('graph-walk-names', NAMED_FILES);
    const ids = [...named.ids].sort();
    expect(ids.length).toBeGreaterThan(8);
    await writeSeedEdges(named.id, randomGraph(11, 160, ids).map((e) => edgeRow(e, { confidence: 1, provenance: 'import' })));
    const names = ['pick', 'Runner.run', 'Runner::run', 'Runner#run', 'run', 'run.run', 'Box.pick', 'Box', 'only', 'other', 'helper', 'Zed.pick', 'nothing', 'a.b.c'];
    let matched = 0;
    for (const name of names) {
      const { chosen } = await resolveSymbolName(DB, named.id, name);
      for (const direction of ['in', 'out', 'both'] as const) {
        for (const depth of [1, 3, 5]) {
          const options: WalkOptions = { direction, depth, kinds: ['CALLS', 'REFERENCES', 'IMPORTS', 'INHERITS'], minConfidence: 0.5, countHidden: true, includeTests: depth !== 3 };
          const { d1, statements } = counting();
          const byName = await walkFromName(d1, named.id, name, options);
          expect(statements(), name).toBe(1);
          if (name === 'pick') {
            // Byte order puts src/Zed.ts first, the resolver's locale order src/alpha.ts: the caller walks again.
            expect([byName?.start, chosen?.id]).toEqual(['src/Zed.ts::pick#Function', 'src/alpha.ts::pick#Function']);
            continue;
          }
          expect(byName?.start ?? null, name).toBe(chosen?.id ?? null);
          const reference = await walkWith(DB, named.id, chosen ? [chosen.id] : [], options, { plan: 'levels' });
          expect(byName?.result, `${name} ${JSON.stringify(options)}`).toEqual(reference);
          if (chosen) matched++;
        }
      }
    }
    expect(matched).toBeGreaterThan(80);
    // A Name@line is resolved by the caller alone.
    expect(await walkFromName(DB, named.id, 'pick@1', { direction: 'in', depth: 2 })).toBeNull();
  }, 120_000);
});
