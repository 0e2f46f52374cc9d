import type { Rule } from './rule';

const project = { name: 'rules-search', files: { 'src/users.ts': 'export function loginUser() {}\nexport function logoutUser() {}\n' } };
// More matches than the last reachable page (offset 5000 + limit): 2 × 2,600 functions.
const fns = (from: number) => Array.from({ length: 2600 }, (_, i) => `export function fn${from + i}() {}`).join('\n') + '\n';
const big = { name: 'rules-search-big', files: { 'src/a.ts': fns(0), 'src/b.ts': fns(2600) } };
const err = { error: 'invalid_params' };
const rewritten = { warning: 'query_rewritten' };

export const RULES: Rule[] = [
  { tool: 'search', param: 'query', phrase: '1–500 characters', args: { query: 'x'.repeat(501) }, expect: err },
  { tool: 'search', param: 'query', phrase: 'an unbalanced " is closed', args: { query: '"login user' }, expect: rewritten },
  { tool: 'search', param: 'query', phrase: 'a stray or leading * dropped', args: { query: '*User' }, expect: rewritten },
  { tool: 'search', param: 'query', phrase: 'a stray or leading * dropped', args: { query: 'loginUser *' }, expect: rewritten },
  { tool: 'search', param: 'query', phrase: 'a*b split', args: { query: 'login*User' }, expect: rewritten },
  { tool: 'search', param: 'query', phrase: '-word read as NOT word', args: { query: 'user -logout' }, expect: rewritten },
  { tool: 'search', param: 'query', phrase: 'a leading one moves behind the other terms', args: { query: '-logout user' }, expect: rewritten },
  { tool: 'search', param: 'query', phrase: 'column prefixes such as name: dropped', args: { query: 'name:loginUser' }, expect: rewritten },
  { tool: 'search', param: 'query', phrase: 'empty () and words without letters or digits dropped', args: { query: 'loginUser()' }, expect: rewritten },
  { tool: 'search', param: 'query', phrase: 'empty () and words without letters or digits dropped', args: { query: 'loginUser ->' }, expect: rewritten },
  { tool: 'search', param: 'query', phrase: 'misplaced AND/OR/NOT', args: { query: 'OR login' }, expect: err },
  { tool: 'search', param: 'query', phrase: 'misplaced AND/OR/NOT', args: { query: 'login NOT' }, expect: err },
  { tool: 'search', param: 'query', phrase: 'unbalanced ( )', args: { query: '(login' }, expect: err },
  { tool: 'search', param: 'query', phrase: 'no word at all (e.g. a bare *)', args: { query: '*' }, expect: err },
  {
    tool: 'search',
    param: 'query',
    phrase: 'Several plain words with no match fall back to OR',
    args: { project: project.name, query: 'loginUser zebra' },
    expect: { warning: 'and_fallback_or' },
    project,
  },
  { tool: 'search', param: 'kind', phrase: 'one of the listed values', args: { query: 'login', kind: 'Klass' }, expect: err },
  {
    tool: 'search',
    param: 'language',
    phrase: 'an id without an extractor gives an empty result',
    args: { project: project.name, query: 'loginUser', language: 'haskell' },
    expect: { ok: true },
    project,
  },
  { tool: 'search', param: 'corpus', phrase: 'default code', args: { query: 'login', corpus: 'all' }, expect: err },
  { tool: 'search', param: 'min_confidence', phrase: '0–1', args: { query: 'login', min_confidence: 1.5 }, expect: err },
  { tool: 'search', param: 'min_confidence', phrase: '0–1', args: { query: 'login', min_confidence: -0.1 }, expect: err },
  { tool: 'search', param: 'min_confidence', phrase: 'obvious base-10 strings accepted', args: { query: 'login', min_confidence: '0.5' }, expect: { ok: true } },
  { tool: 'search', param: 'file_pattern', phrase: 'at most 500 characters', args: { query: 'login', file_pattern: 'a'.repeat(501) }, expect: err },
  { tool: 'search', param: 'limit', phrase: '1–500', args: { query: 'login', limit: 0 }, expect: err },
  { tool: 'search', param: 'limit', phrase: '1–500', args: { query: 'login', limit: 501 }, expect: err },
  { tool: 'search', param: 'limit', phrase: 'default 20', args: { query: 'login', limit: '20' }, expect: { ok: true } },
  { tool: 'search', param: 'limit', phrase: 'obvious base-10 strings accepted', args: { query: 'login', limit: '5' }, expect: { ok: true } },
  { tool: 'search', param: 'offset', phrase: '0–5000', args: { query: 'login', offset: 5001 }, expect: err },
  { tool: 'search', param: 'offset', phrase: '0–5000', args: { query: 'login', offset: -1 }, expect: err },
  { tool: 'search', param: 'offset', phrase: 'obvious base-10 strings accepted', args: { query: 'login', offset: '10' }, expect: { ok: true } },
  {
    tool: 'search',
    param: 'offset',
    phrase: 'no next page is offered past 5000 (warning offset_cap)',
    args: { project: big.name, query: 'fn*', offset: 5000 },
    expect: { warning: 'offset_cap' },
    project: big,
  },
  { tool: 'search', param: 'snippet_lines', phrase: '0–20', args: { query: 'login', snippet_lines: 21 }, expect: err },
  { tool: 'search', param: 'snippet_lines', phrase: 'obvious base-10 strings accepted', args: { query: 'login', snippet_lines: '3' }, expect: { ok: true } },
  { tool: 'search', param: 'fields', phrase: 'unknown names are invalid_params', args: { query: 'login', fields: ['nme'] }, expect: err },
  { tool: 'search', param: 'fields', phrase: 'at least one', args: { query: 'login', fields: [] }, expect: err },
  { tool: 'search', param: 'language', phrase: 'at most 50 characters', args: { query: 'login', language: 'x'.repeat(51) }, expect: err },
  { tool: 'search', param: 'language', phrase: 'any case', args: { query: 'login', language: 'TypeScript' }, expect: { ok: true } },
];
