import { it } from 'vitest';
import { TABLE } from '../../../src/extract/languages/table';
import { compileQuery, ensureRuntime, loadLanguage } from '../../../src/extract/parser';

it('bench2', async () => {
  let t = performance.now();
  await ensureRuntime();
  console.log(`@@L runtime=${(performance.now() - t).toFixed(0)}`);
  for (const row of TABLE) {
    if (row.tier !== 'ast') continue;
    t = performance.now();
    loadLanguage(row.grammar);
    const load = performance.now() - t;
    t = performance.now();
    compileQuery(row.grammar, row.query).delete();
    console.log(`@@L ${row.id} load=${load.toFixed(0)} compile=${(performance.now() - t).toFixed(0)}`);
  }
}, 300_000);
