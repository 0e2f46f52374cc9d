#!/usr/bin/env node
// `npm test`: the workerd suite (real local D1) and the node suite (CLI and the
// end-to-end run against a real `wrangler dev`). Ends with `N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './dev-server.mjs';

const out = path.join(ROOT, '.tmp', 'vitest-report.json');
mkdirSync(path.dirname(out), { recursive: true });
rmSync(out, { force: true });
const vitest = path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const res = spawnSync(
  process.execPath,
  [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...process.argv.slice(2)],
  { cwd: ROOT, stdio: 'inherit', env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' } },
);
let passed = 0;
let failed = 0;
if (existsSync(out)) {
  const report = JSON.parse(readFileSync(out, 'utf8'));
  passed = report.numPassedTests ?? 0;
  failed = (report.numFailedTests ?? 0) + (report.numFailedTestSuites && !report.numFailedTests ? report.numFailedTestSuites : 0);
} else {
  failed = 1;
}
if (res.status !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(res.status === 0 && failed === 0 ? 0 : 1);
