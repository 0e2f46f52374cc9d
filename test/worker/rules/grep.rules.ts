import type { Rule } from './rule';

const project = { name: 'rules-grep', files: { 'src/a.ts': 'export const a = 1; // a(b\n', 'src/b.py': 'a = 2\n' } };

export const RULES: Rule[] = [
  { tool: 'grep', param: 'pattern', phrase: 'nested quantifiers', args: { pattern: '(a+)+$' }, expect: { error: 'invalid_params' } },
  { tool: 'grep', param: 'pattern', phrase: 'JavaScript regex', args: { pattern: 'a(b' }, expect: { error: 'invalid_params' } },
  { tool: 'grep', param: 'literal', phrase: 'fixed string', args: { pattern: 'a(b', literal: true, project: project.name }, expect: { ok: true }, project },
  { tool: 'grep', param: 'context', phrase: '0–10', args: { pattern: 'a', context: -1 }, expect: { error: 'invalid_params' } },
  { tool: 'grep', param: 'context', phrase: '0–10', args: { pattern: 'a', context: 11 }, expect: { error: 'invalid_params' } },
  { tool: 'grep', param: 'limit', phrase: '1–1000', args: { pattern: 'a', limit: 0 }, expect: { error: 'invalid_params' } },
  { tool: 'grep', param: 'limit', phrase: '1–1000', args: { pattern: 'a', limit: 1001 }, expect: { error: 'invalid_params' } },
  { tool: 'grep', param: 'path', phrase: 'brackets, braces must balance', args: { pattern: 'a', path: 'src/[ab' }, expect: { error: 'invalid_params' } },
  { tool: 'grep', param: 'path', phrase: 'brackets, braces must balance', args: { pattern: 'a', path: '*.{ts,py' }, expect: { error: 'invalid_params' } },
  { tool: 'grep', param: 'summary', phrase: 'per-file counts', args: { pattern: 'a', summary: true, project: project.name }, expect: { ok: true }, project },
];
