import type { Rule } from './rule';

const project = { name: 'rules-find', files: { 'src/a.ts': 'export const a = 1;\n', 'docs/b.md': '# B\n' } };

export const RULES: Rule[] = [
  { tool: 'find', param: 'limit', phrase: '1–1000', args: { limit: 0 }, expect: { error: 'invalid_params' } },
  { tool: 'find', param: 'limit', phrase: 'base-10 strings accepted', args: { limit: '3', project: project.name }, expect: { ok: true }, project },
  { tool: 'find', param: 'min_size', phrase: 'non-negative', args: { min_size: '-3' }, expect: { error: 'invalid_params' } },
  { tool: 'find', param: 'min_size', phrase: '10k, 2m', args: { min_size: '1k', project: project.name }, expect: { ok: true }, project },
  { tool: 'find', param: 'max_size', phrase: 'not below min_size', args: { min_size: '2k', max_size: '1k' }, expect: { error: 'invalid_params' } },
  { tool: 'find', param: 'pattern', phrase: 'brackets, braces must balance', args: { pattern: 'src/{a,b' }, expect: { error: 'invalid_params' } },
];
