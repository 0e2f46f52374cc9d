import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../../..');
const run = promisify(execFile);

describe('the generated Env', () => {
  // src/worker-configuration.d.ts is `npm run types` output; src/env.ts builds Env on it. A
  // binding or var added to wrangler.toml without regenerating fails here (and `npm run
  // typecheck` then sees the new binding).
  it('src/worker-configuration.d.ts is what `npm run types` generates from wrangler.toml', async () => {
    const script = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.types as string;
    const args = script.split(/\s+/).slice(1);
    expect(args[0]).toBe('types');
    const result = await run(path.join(ROOT, 'node_modules', '.bin', 'wrangler'), [...args, '--check'], { cwd: ROOT, env: { ...process.env, WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' } }).then(
      (r) => ({ code: 0, out: r.stdout + r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
    );
    expect(result.out).toMatch(/up to date/);
    expect(result.code).toBe(0);
  }, 60_000);
});
