import type { Rule } from './rule';

const project = {
  name: 'rules-plan-change',
  files: { 'src/a.ts': 'export function a(): number {\n  return b();\n}\nexport function b(): number {\n  return 1;\n}\n' },
};

export const RULES: Rule[] = [
  { tool: 'plan_change', param: 'id', phrase: 'Exactly one of id, name, path', args: {}, expect: { error: 'invalid_params' } },
  { tool: 'plan_change', param: 'name', phrase: 'Exactly one of id, name, path', args: { name: 'b', path: 'src/a.ts' }, expect: { error: 'invalid_params' } },
  { tool: 'plan_change', param: 'path', phrase: 'Exactly one of id, name, path', args: { id: 'src/a.ts::b#Function', path: 'src/a.ts' }, expect: { error: 'invalid_params' } },
  { tool: 'plan_change', param: 'name', phrase: 'non-empty', args: { name: ' ' }, expect: { error: 'invalid_params' } },
  { tool: 'plan_change', param: 'path', phrase: 'every symbol it defines', args: { project: 'rules-plan-change', path: 'src/a.ts' }, expect: { ok: true }, project },
  { tool: 'plan_change', param: 'depth', phrase: '1–3', args: { name: 'b', depth: 0 }, expect: { error: 'invalid_params' } },
  { tool: 'plan_change', param: 'depth', phrase: '1–3', args: { name: 'b', depth: 4 }, expect: { error: 'invalid_params' } },
  { tool: 'plan_change', param: 'depth', phrase: 'default 3', args: { project: 'rules-plan-change', name: 'b', depth: '3' }, expect: { ok: true }, project },
  { tool: 'plan_change', param: 'min_confidence', phrase: '0–1', args: { name: 'b', min_confidence: 2 }, expect: { error: 'invalid_params' } },
  { tool: 'plan_change', param: 'max_hops', phrase: '1–500', args: { name: 'b', max_hops: 0 }, expect: { error: 'invalid_params' } },
  { tool: 'plan_change', param: 'max_hops', phrase: '1–500', args: { name: 'b', max_hops: 501 }, expect: { error: 'invalid_params' } },
  { tool: 'plan_change', param: 'max_hops', phrase: 'default 100', args: { project: 'rules-plan-change', name: 'b', max_hops: '100' }, expect: { ok: true }, project },
  { tool: 'plan_change', param: '*', phrase: 'medium: any caller; low: none', args: { project: 'rules-plan-change', name: 'b' }, expect: { ok: true }, project },
];
