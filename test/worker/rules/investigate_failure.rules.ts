import type { Rule } from './rule';

const project = {
  name: 'rules-investigate',
  files: { 'src/a.ts': 'export function a(): number {\n  return b();\n}\nexport function b(): number {\n  throw new Error("x");\n}\n' },
};
const P = project.name;
const trace = 'Error: x\n    at b (/srv/app/src/a.ts:5:9)\n    at a (/srv/app/src/a.ts:2:10)\n    at /srv/app/node_modules/r/i.js:1:1';

export const RULES: Rule[] = [
  { tool: 'investigate_failure', param: '*', phrase: 'Library frames are counted and skipped', args: { project: P, trace }, expect: { ok: true }, project },
  { tool: 'investigate_failure', param: '*', phrase: 'no project frame: target_not_resolved', args: { project: P, trace: 'Error: x\n    at z (/elsewhere/lib/z.ts:1:1)' }, expect: { ok: true }, project },
  { tool: 'investigate_failure', param: 'trace', phrase: 'at most 64 KiB', args: { trace: `${trace}\n${'x'.repeat(64 * 1024)}` }, expect: { error: 'invalid_params' } },
  { tool: 'investigate_failure', param: 'trace', phrase: 'no recognisable frame is invalid_params', args: { trace: 'it broke' }, expect: { error: 'invalid_params' } },
  { tool: 'investigate_failure', param: 'limit', phrase: '1–20', args: { trace, limit: 0 }, expect: { error: 'invalid_params' } },
  { tool: 'investigate_failure', param: 'limit', phrase: 'default 5', args: { project: P, trace, limit: '5' }, expect: { ok: true }, project },
];
