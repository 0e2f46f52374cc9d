import type { Rule } from './rule';

const project = { name: 'rules-arch', files: { 'src/a.ts': 'export function main(): void {}\n', 'lib/b.rb': 'def b\n  1\nend\n' } };

export const RULES: Rule[] = [
  { tool: 'architecture', param: 'limit', phrase: '1–100', args: { limit: 0 }, expect: { error: 'invalid_params' } },
  { tool: 'architecture', param: 'limit', phrase: '1–100', args: { limit: 101 }, expect: { error: 'invalid_params' } },
  { tool: 'architecture', param: 'limit', phrase: 'default 10', args: { project: 'rules-arch', limit: '10' }, expect: { ok: true }, project },
  { tool: 'architecture', param: '*', phrase: 'graph_coverage', args: { project: 'rules-arch' }, expect: { warning: 'graph_coverage' }, project },
  { tool: 'architecture', param: '*', phrase: 'no_project_indexed', args: { project: 'rules-nowhere' }, expect: { ok: true } },
];
