import type { Rule } from './rule';

const project = { name: 'rules-ls', files: { 'src/a.ts': 'export const a = 1;\n', 'README.md': '# R\n' } };

export const RULES: Rule[] = [
  { tool: 'ls', param: 'max_depth', phrase: '1–5', args: { max_depth: 6 }, expect: { error: 'invalid_params' } },
  { tool: 'ls', param: 'max_depth', phrase: 'base-10 strings accepted', args: { max_depth: '2', project: project.name }, expect: { ok: true }, project },
  { tool: 'ls', param: 'limit', phrase: '1–1000', args: { limit: 0 }, expect: { error: 'invalid_params' } },
  { tool: 'ls', param: 'path', phrase: "no '..' segments", args: { path: '../etc' }, expect: { error: 'invalid_params' } },
  { tool: 'ls', param: 'path', phrase: "'' or '.' is the root", args: { path: '.', project: project.name }, expect: { ok: true }, project },
];
