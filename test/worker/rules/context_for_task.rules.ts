import type { Rule } from './rule';

const project = {
  name: 'rules-ctx-task',
  files: {
    'src/a.ts': ['alpha', 'beta', 'gamma', 'delta', 'omega']
      .map((n) => `export function ${n}(${['first', 'second', 'third', 'fourth'].map((a) => `${a}ArgumentWithAVeryLongName: Record<string, number>`).join(', ')}): number {\n  return 1;\n}\n`)
      .join(''),
  },
};
const P = project.name;

export const RULES: Rule[] = [
  { tool: 'context_for_task', param: 'task', phrase: '1–2000 characters', args: { task: 'x'.repeat(2001) }, expect: { error: 'invalid_params' } },
  { tool: 'context_for_task', param: 'task', phrase: 'nothing to search for is invalid_params', args: { task: 'please help me with this' }, expect: { error: 'invalid_params' } },
  { tool: 'context_for_task', param: 'max_tokens', phrase: '200–50000', args: { task: 'alpha', max_tokens: 199 }, expect: { error: 'invalid_params' } },
  { tool: 'context_for_task', param: 'max_tokens', phrase: '200–50000', args: { task: 'alpha', max_tokens: 50_001 }, expect: { error: 'invalid_params' } },
  { tool: 'context_for_task', param: 'max_tokens', phrase: 'default 4000', args: { project: P, task: 'alpha', max_tokens: '4000' }, expect: { ok: true }, project },
  { tool: 'context_for_task', param: 'seeds', phrase: '1–5', args: { task: 'alpha', seeds: 6 }, expect: { error: 'invalid_params' } },
  { tool: 'context_for_task', param: 'seeds', phrase: 'default 3', args: { project: P, task: 'alpha', seeds: '3' }, expect: { ok: true }, project },
  { tool: 'context_for_task', param: '*', phrase: 'budget_truncated warning', args: { project: P, task: '`alpha` `beta` `gamma` `delta` `omega`', max_tokens: 200, seeds: 5 }, expect: { warning: 'budget_truncated' }, project },
];
