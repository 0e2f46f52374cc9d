import { describe, expect, it } from 'vitest';
import { CROSS_FILE_LANGUAGES } from '../../../src/graph/languages';
import { createResolver } from '../../../src/graph/resolve';
import { extract, fixtures, keyOf, plannedSymbols, score, type Score } from './support';

// The first extraction of a language loads its grammar: allow time.
const SLOW = 120_000;

/**
 * Measured floors per fixture (docs/graph.md records the measured values).
 * A resolver change that loses precision or recall below these fails here.
 */
const FLOORS: Record<string, { precision: number; recall: number }> = {
  go: { precision: 0.95, recall: 1 },
  java: { precision: 0.97, recall: 0.97 },
  python: { precision: 1, recall: 1 },
  // Same-file only: the cross-file edges of the fixture are expected and missed.
  ruby: { precision: 1, recall: 0.7 },
  rust: { precision: 0.93, recall: 0.96 },
  typescript: { precision: 0.95, recall: 1 },
};

const all = fixtures();
const scores = new Map<string, Score>();

describe('graph fixtures', () => {
  it('has a fixture for every cross-file language and a floor for every fixture', async () => {
    const covered = new Set<string>();
    for (const f of all) for (const lang of (await extract(f)).languages.values()) covered.add(lang);
    for (const lang of CROSS_FILE_LANGUAGES) expect(covered.has(lang), lang).toBe(true);
    expect(Object.keys(FLOORS).sort()).toEqual(all.map((f) => f.name));
  }, SLOW);

  for (const fixture of all) {
    it(`resolves the ${fixture.name} fixture within its precision and recall floors`, async () => {
      const { refs, symbols, layout } = await extract(fixture);
      const edges = createResolver(layout).resolve(refs, symbols);
      const s = score(edges, fixture.expected);
      scores.set(fixture.name, s);
      // Edges a reader can trust without checking (everything but `ambiguous`).
      const sure = score(
        edges.filter((e) => e.provenance !== 'ambiguous'),
        fixture.expected,
      );
      console.log(
        `graph ${fixture.name.padEnd(10)} precision ${s.precision.toFixed(3)} recall ${s.recall.toFixed(3)} | without ambiguous: precision ${sure.precision.toFixed(3)} recall ${sure.recall.toFixed(3)} | ${s.truePositives.length} of ${s.predicted} predicted, ${s.expected} expected`,
      );
      const floor = FLOORS[fixture.name];
      const detail = `false positives:\n  ${s.falsePositives.join('\n  ')}\nmissed:\n  ${s.falseNegatives.join('\n  ')}`;
      expect(s.precision, detail).toBeGreaterThanOrEqual(floor.precision);
      expect(s.recall, detail).toBeGreaterThanOrEqual(floor.recall);
    }, SLOW);
  }

  for (const fixture of all) {
    it(`plans every symbol the ${fixture.name} fixture needs, for the whole batch and file by file`, async () => {
      const { refs, symbols, layout } = await extract(fixture);
      const resolver = createResolver(layout);
      const full = resolver.resolve(refs, symbols).map(keyOf);
      const planned = resolver.resolve(refs, plannedSymbols(symbols, refs, resolver.plan(refs))).map(keyOf);
      expect(planned).toEqual(full);
      // A file's edges do not depend on which other files are resolved with it.
      const files = [...new Set(refs.map((r) => r.file))];
      const oneByOne: string[] = [];
      for (const file of files) {
        const own = refs.filter((r) => r.file === file);
        const fresh = createResolver(layout);
        oneByOne.push(...fresh.resolve(own, plannedSymbols(symbols, own, fresh.plan(own))).map(keyOf));
      }
      expect(oneByOne.sort()).toEqual([...full].sort());
    }, SLOW);
  }

  it('is deterministic: the same input gives the same edges in the same order', async () => {
    for (const fixture of all) {
      const { refs, symbols, layout } = await extract(fixture);
      const a = createResolver(layout).resolve(refs, symbols);
      const b = createResolver(layout).resolve(refs, [...symbols].reverse());
      expect(b).toEqual(a);
    }
  }, SLOW);
});
