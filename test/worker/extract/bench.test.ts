import { it } from 'vitest';
import { extractFile } from '../../../src/extract/index';
import ts from '../../fixtures/extract/typescript/sample.ts?raw';
import py from '../../fixtures/extract/python/sample.py?raw';
import cpp from '../../fixtures/extract/cpp/sample.cpp?raw';
import go from '../../fixtures/extract/go/sample.go?raw';

it('bench', async () => {
  for (const [path, src] of [['a.ts', ts], ['a.py', py], ['a.cpp', cpp], ['a.go', go]] as const) {
    const t0 = performance.now();
    await extractFile(path, src);
    const first = performance.now() - t0;
    const big = src.repeat(Math.ceil(900_000 / src.length)).slice(0, 900_000);
    const runs: number[] = [];
    let n = 0;
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      const r = await extractFile(path, big);
      runs.push(performance.now() - t);
      n = r.symbols.length + r.references.length;
      if (r.failure) console.log('FAIL', r.failure);
    }
    const t1 = performance.now();
    for (let i = 0; i < 200; i++) await extractFile(path, src);
    const small = (performance.now() - t1) / 200;
    console.log(`@@BENCH ${path} first=${first.toFixed(0)}ms big=${(big.length / 1e6).toFixed(2)}MB runs=${runs.map((x) => x.toFixed(0)).join(',')}ms (${(big.length / 1e6 / (Math.min(...runs) / 1000)).toFixed(2)} MB/s) items=${n} small=${small.toFixed(2)}ms for ${src.length}B`);
  }
}, 120_000);
