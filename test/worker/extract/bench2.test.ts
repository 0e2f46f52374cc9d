import { it } from 'vitest';
import { Parser } from 'web-tree-sitter';
import { TABLE } from '../../../src/extract/languages/table';
import { compileQuery, Deadline, ensureRuntime, loadLanguage, parse } from '../../../src/extract/parser';
import { collect } from '../../../src/extract/collect';
import ts from '../../fixtures/extract/typescript/sample.ts?raw';
import py from '../../fixtures/extract/python/sample.py?raw';

it('bench2', async () => {
  await ensureRuntime();
  for (const [id, src] of [['typescript', ts], ['python', py]] as const) {
    const row = TABLE.find((r) => r.id === id);
    if (!row || row.tier !== 'ast') continue;
    const q = compileQuery(row.grammar, row.query);
    const big = src.repeat(Math.ceil(500_000 / src.length)).slice(0, 500_000);
    const p = new Parser();
    p.setLanguage(loadLanguage(row.grammar));
    for (let k = 0; k < 3; k++) {
      let t = performance.now();
      const t1 = p.parse(big)!;
      const plain = performance.now() - t;
      t1.delete();
      t = performance.now();
      const t2 = parse(row.grammar, big, new Deadline(100000))!;
      const withCb = performance.now() - t;
      t2.delete();
      console.log(`@@B ${id} plain=${plain.toFixed(0)} withCallback=${withCb.toFixed(0)}`);
    }
    // small file breakdown
    const N = 200;
    let tp = 0, tq = 0, tc = 0;
    for (let i = 0; i < N; i++) {
      let t = performance.now();
      const tree = parse(row.grammar, src, new Deadline(1000))!;
      tp += performance.now() - t;
      t = performance.now();
      const m = q.matches(tree.rootNode);
      tq += performance.now() - t;
      t = performance.now();
      collect(m, src, new Map());
      tc += performance.now() - t;
      tree.delete();
    }
    console.log(`@@S ${id} parse=${(tp / N).toFixed(3)} query=${(tq / N).toFixed(3)} collect=${(tc / N).toFixed(3)}`);
  }
}, 300_000);
