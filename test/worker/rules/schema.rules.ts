import type { Rule } from './rule';

const project = { name: 'rules-schema', files: { 'lib/b.rb': 'def b\n  1\nend\n' } };

export const RULES: Rule[] = [
  { tool: 'schema', param: '*', phrase: 'graph_coverage', args: { project: 'rules-schema' }, expect: { warning: 'graph_coverage' }, project },
  { tool: 'schema', param: '*', phrase: 'no_project_indexed', args: { project: 'rules-nowhere' }, expect: { ok: true } },
];
