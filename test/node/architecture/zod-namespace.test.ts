import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(__dirname, '../../../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

describe('zod imports', () => {
  // `import { z } from 'zod'` makes the bundler keep zod's whole namespace object, its 40
  // locales included (about 65 KiB gzip of upload); `import * as z` lets it keep what is used.
  it('import zod as a namespace everywhere in src/', () => {
    const named = sources(SRC).filter((f) => /import\s+(type\s+)?\{\s*z\s*\}\s+from\s+'zod'/.test(readFileSync(f, 'utf8')));
    expect(named.map((f) => path.relative(SRC, f))).toEqual([]);
  });
});
