// The bench serves a frozen copy of the code under test: the copy must carry every script its
// launchers import, or the bench's server dies before it is ready.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { snapshot, withLocalImports } from '../../../scripts/bench/snapshot.mjs';

const ROOT = path.resolve(__dirname, '../../..');
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('the bench snapshot', () => {
  it('follows relative imports from the launchers, transitively', async () => {
    const files = await withLocalImports(ROOT, ['scripts/local-server.mjs']);
    expect(files).toContain('scripts/local-server.mjs');
    expect(files).toContain('scripts/dev-server.mjs');
    expect(files).toContain('scripts/proc-tree.mjs');
  });

  it('copies every script a copied launcher imports', async () => {
    const dest = await mkdtemp(path.join(tmpdir(), 'pincher-snapshot-test-'));
    dirs.push(dest);
    await snapshot(ROOT, dest);
    for (const launcher of ['scripts/dev-server.mjs', 'scripts/local-server.mjs', 'scripts/wrangler-dev.mjs']) {
      const text = await readFile(path.join(dest, launcher), 'utf8');
      for (const m of text.matchAll(/\bfrom\s+['"](\.{1,2}\/[^'"]+\.mjs)['"]/g)) {
        const imported = path.join(dest, path.dirname(launcher), m[1]);
        await expect(readFile(imported, 'utf8'), `${launcher} imports ${m[1]}`).resolves.toBeTypeOf('string');
      }
    }
  });
});
