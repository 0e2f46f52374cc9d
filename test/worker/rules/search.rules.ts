import type { Rule } from './rule';

const project = { name: 'rules-search', files: { 'src/users.ts': 'export function loginUser() {}\nexport function logoutUser() {}\n' } };
const err = { error: 'invalid_params' };

export const RULES: Rule[] = [
  { tool: 'search', param: 'query', phrase: '1–500 chars', args: { query: 'x'.repeat(501) }, expect: err },
  {
    tool: 'search',
    param: 'query',
    phrase: 'No match for all words: OR (and_fallback_or)',
    args: { project: project.name, query: 'loginUser zebra' },
    expect: { warning: 'and_fallback_or' },
    project,
  },
  { tool: 'search', param: 'query', phrase: 'Bad syntax: repaired (query_rewritten)', args: { query: '"login user' }, expect: { warning: 'query_rewritten' } },
  { tool: 'search', param: 'query', phrase: 'or invalid_params with a corrected query', args: { query: '(login' }, expect: err },
  { tool: 'search', param: 'corpus', phrase: 'default code', args: { query: 'login', corpus: 'all' }, expect: err },
  { tool: 'search', param: 'min_confidence', phrase: '0–1', args: { query: 'login', min_confidence: 1.5 }, expect: err },
  { tool: 'search', param: 'min_confidence', phrase: '0–1', args: { query: 'login', min_confidence: -0.1 }, expect: err },
  { tool: 'search', param: 'file_pattern', phrase: '≤500 chars', args: { query: 'login', file_pattern: 'a'.repeat(501) }, expect: err },
  { tool: 'search', param: 'file_pattern', phrase: 'brackets, braces must balance', args: { query: 'login', file_pattern: 'src/[ab' }, expect: err },
  { tool: 'search', param: 'file_pattern', phrase: 'no /: any file or folder name', args: { project: project.name, query: 'loginUser', file_pattern: 'users.ts' }, expect: { ok: true }, project },
  { tool: 'search', param: 'limit', phrase: '1–500', args: { query: 'login', limit: 0 }, expect: err },
  { tool: 'search', param: 'limit', phrase: '1–500', args: { query: 'login', limit: 501 }, expect: err },
  { tool: 'search', param: 'limit', phrase: 'default 20', args: { query: 'login', limit: 20 }, expect: { ok: true } },
  {
    tool: 'search',
    param: 'limit',
    phrase: 'unset: exact hits + 5 more',
    args: { project: project.name, query: 'loginUser' },
    expect: { ok: true },
    project,
  },
  { tool: 'search', param: 'offset', phrase: '0–5000', args: { query: 'login', offset: 5001 }, expect: err },
  { tool: 'search', param: 'offset', phrase: '0–5000', args: { query: 'login', offset: -1 }, expect: err },
  { tool: 'search', param: 'snippet_lines', phrase: '0–20', args: { query: 'login', snippet_lines: 21 }, expect: err },
  { tool: 'search', param: 'fields', phrase: 'non-empty', args: { query: 'login', fields: [] }, expect: err },
  {
    tool: 'search',
    param: 'fields',
    phrase: 'snippet needs snippet_lines > 0',
    args: { project: project.name, query: 'loginUser', fields: ['id', 'snippet'] },
    expect: { ok: true },
    project,
  },
  { tool: 'search', param: 'language', phrase: '≤50 chars', args: { query: 'login', language: 'x'.repeat(51) }, expect: err },
];
