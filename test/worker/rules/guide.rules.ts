import type { Rule } from './rule';

const project = { name: 'rules-guide', files: { 'src/a.ts': 'export function alpha(): number {\n  return 1;\n}\n' } };

export const RULES: Rule[] = [
  { tool: 'guide', param: 'task', phrase: '1–2000 chars', args: { task: 'x'.repeat(2001) }, expect: { error: 'invalid_params' } },
  { tool: 'guide', param: 'task', phrase: 'with a letter or digit', args: { task: '?! ...' }, expect: { error: 'invalid_params' } },
  { tool: 'guide', param: 'task', phrase: 'a pasted stack trace or diff is routed to its tool', args: { project: project.name, task: 'Error: x\n    at alpha (/srv/src/a.ts:2:3)' }, expect: { ok: true }, project },
  { tool: 'guide', param: '*', phrase: 'the one step is list', args: { task: 'who calls alpha' }, expect: { ok: true } },
];
