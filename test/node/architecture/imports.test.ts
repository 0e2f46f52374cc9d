// The house stays drawn: imports between src/ files (type-only ones included) form no
// circle, and nothing below tools/ (db, graph, query, composites, extract, symbols, regex,
// envelope, util) reaches up into it. `node scripts/import-graph.mjs` prints the same.
import { describe, expect, it } from 'vitest';
import { BELOW_TOOLS, circles, importGraph, upwardArrows } from '../../../scripts/import-graph.mjs';

describe('the import graph of src/', () => {
  const graph = importGraph();

  it('reads every source file and its relative imports', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('tools/run.ts')).toContain('envelope/stamp.ts');
  });

  it('has no import circle', () => {
    expect(circles(graph)).toEqual([]);
  });

  it(`has no arrow from ${BELOW_TOOLS.join(', ')} up into tools/`, () => {
    expect(upwardArrows(graph)).toEqual([]);
  });

  it('finds a circle and an upward arrow when there is one', () => {
    const drawn = new Map([
      ['tools/a.ts', ['tools/b.ts']],
      ['tools/b.ts', ['tools/a.ts']],
      ['db/c.ts', ['tools/a.ts']],
    ]);
    expect(circles(drawn)).toEqual([['tools/a.ts', 'tools/b.ts']]);
    expect(upwardArrows(drawn)).toEqual(['db/c.ts -> tools/a.ts']);
  });
});
