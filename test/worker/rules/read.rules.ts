import type { Rule } from './rule';

const project = {
  name: 'rules-read',
  files: {
    'src/a.ts': 'export function f(): number {\n  return 1;\n}\n',
    'src/long.ts': Array.from({ length: 450 }, (_, i) => `export const c${i} = ${i};`).join('\n'),
    'notes.txt': 'plain text\n',
    // 15 classes of 30 methods: 465 symbols, more than one map holds.
    'src/wide.ts': Array.from({ length: 15 }, (_, c) => `export class K${c} {\n${Array.from({ length: 30 }, (_, m) => `  m${m}(): void {}`).join('\n')}\n}`).join('\n'),
  },
};
const at = (args: Record<string, unknown>) => ({ project: 'rules-read', path: 'src/a.ts', ...args });

export const RULES: Rule[] = [
  { tool: 'read', param: 'offset', phrase: '1-based', args: { path: 'src/a.ts', offset: 0 }, expect: { error: 'invalid_params' } },
  { tool: 'read', param: 'offset', phrase: '1-based', args: { path: 'src/a.ts', offset: -2 }, expect: { error: 'invalid_params' } },
  { tool: 'read', param: 'limit', phrase: 'positive', args: { path: 'src/a.ts', limit: 0 }, expect: { error: 'invalid_params' } },
  { tool: 'read', param: 'offset', phrase: 'not with symbol', args: { path: 'src/a.ts', symbol: 'f', offset: 2 }, expect: { error: 'invalid_params' } },
  { tool: 'read', param: 'symbol', phrase: 'non-empty', args: { path: 'src/a.ts', symbol: '   ' }, expect: { error: 'invalid_params' } },
  { tool: 'read', param: 'symbol', phrase: 'combines with limit and map', args: at({ symbol: 'f', limit: 1, map: true }), expect: { ok: true }, project },
  { tool: 'read', param: 'symbol', phrase: 'Name@line', args: at({ symbol: 'f@2' }), expect: { ok: true }, project },
  { tool: 'read', param: 'limit', phrase: 'with symbol: caps its lines', args: at({ symbol: 'f', limit: 1 }), expect: { ok: true }, project },
  {
    tool: 'read',
    param: '*',
    phrase: 'Over 400 lines: the map, the first 200 lines and next_offset (budget_truncated)',
    args: { project: 'rules-read', path: 'src/long.ts', limit: 450 },
    expect: { warning: 'budget_truncated' },
    project,
  },
  {
    tool: 'read',
    param: '*',
    phrase: 'Over 400 lines: the map, the first 200 lines and next_offset (budget_truncated)',
    args: { project: 'rules-read', path: 'src/long.ts' },
    expect: { warning: 'budget_truncated' },
    project,
  },
  { tool: 'read', param: 'map', phrase: 'with path alone: only the map', args: at({ map: true }), expect: { ok: true }, project },
  { tool: 'read', param: 'map', phrase: '≤400 entries (map_truncated)', args: { project: 'rules-read', path: 'src/wide.ts', map: true }, expect: { warning: 'map_truncated' }, project },
  { tool: 'read', param: 'symbol', phrase: 'whole if ≤400 lines', args: { project: 'rules-read', path: 'src/long.ts', symbol: 'c3' }, expect: { ok: true }, project },
  { tool: 'read', param: 'map', phrase: 'needs a language extractor', args: { project: 'rules-read', path: 'notes.txt', map: true }, expect: { ok: true }, project },
  { tool: 'read', param: 'anchors', phrase: 'LINE:HASH', args: { path: 'src/a.ts', anchors: ['line-one'] }, expect: { error: 'invalid_params' } },
  { tool: 'read', param: 'anchors', phrase: '1–500', args: { path: 'src/a.ts', anchors: [] }, expect: { error: 'invalid_params' } },
  { tool: 'read', param: 'anchors', phrase: '(stale_anchor)', args: at({ anchors: ['1:0000', '40:abcd'] }), expect: { warning: 'stale_anchor' }, project },
  { tool: 'read', param: 'path', phrase: 'relative', args: { path: '/etc/passwd' }, expect: { error: 'invalid_path' } },
  { tool: 'read', param: 'path', phrase: 'no .. segments', args: { path: 'src/../../etc/passwd' }, expect: { error: 'invalid_path' } },
];
