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
  { tool: 'read', param: 'offset', phrase: 'one-indexed', args: { path: 'src/a.ts', offset: 0 }, expect: { error: 'invalid_params' } },
  { tool: 'read', param: 'offset', phrase: 'positive integer', args: { path: 'src/a.ts', offset: -2 }, expect: { error: 'invalid_params' } },
  { tool: 'read', param: 'offset', phrase: 'obvious base-10 strings are accepted', args: at({ offset: '2' }), expect: { ok: true }, project },
  { tool: 'read', param: 'limit', phrase: 'positive integer', args: { path: 'src/a.ts', limit: 0 }, expect: { error: 'invalid_params' } },
  { tool: 'read', param: 'limit', phrase: 'obvious base-10 strings are accepted', args: at({ limit: '2' }), expect: { ok: true }, project },
  { tool: 'read', param: 'offset', phrase: 'Not with symbol', args: { path: 'src/a.ts', symbol: 'f', offset: 2 }, expect: { error: 'invalid_params' } },
  { tool: 'read', param: 'symbol', phrase: 'not offset', args: { path: 'src/a.ts', symbol: 'f', offset: '1' }, expect: { error: 'invalid_params' } },
  { tool: 'read', param: 'symbol', phrase: 'non-empty', args: { path: 'src/a.ts', symbol: '   ' }, expect: { error: 'invalid_params' } },
  { tool: 'read', param: 'symbol', phrase: 'Combines with limit and map', args: at({ symbol: 'f', limit: 1, map: true }), expect: { ok: true }, project },
  { tool: 'read', param: 'symbol', phrase: 'Name@line', args: at({ symbol: 'f@2' }), expect: { ok: true }, project },
  { tool: 'read', param: 'limit', phrase: "With symbol it caps the symbol's lines", args: at({ symbol: 'f', limit: 1 }), expect: { ok: true }, project },
  { tool: 'read', param: 'limit', phrase: 'Over 400: the map plus the first 200 lines', args: { project: 'rules-read', path: 'src/long.ts', limit: 450 }, expect: { warning: 'budget_truncated' }, project },
  { tool: 'read', param: '*', phrase: 'never a silently cut file', args: { project: 'rules-read', path: 'src/long.ts' }, expect: { warning: 'budget_truncated' }, project },
  { tool: 'read', param: 'map', phrase: 'alone with path it returns only the map', args: at({ map: true }), expect: { ok: true }, project },
  { tool: 'read', param: 'map', phrase: 'At most 400 entries', args: { project: 'rules-read', path: 'src/wide.ts', map: true }, expect: { warning: 'map_truncated' }, project },
  { tool: 'read', param: 'symbol', phrase: 'whole up to 400 lines', args: { project: 'rules-read', path: 'src/long.ts', symbol: 'c3' }, expect: { ok: true }, project },
  { tool: 'read', param: '*', phrase: 'map needs a language extractor', args: { project: 'rules-read', path: 'notes.txt', map: true }, expect: { ok: true }, project },
  { tool: 'read', param: 'anchors', phrase: 'LINE:HASH', args: { path: 'src/a.ts', anchors: ['line-one'] }, expect: { error: 'invalid_params' } },
  { tool: 'read', param: 'anchors', phrase: '1–500', args: { path: 'src/a.ts', anchors: [] }, expect: { error: 'invalid_params' } },
  { tool: 'read', param: 'anchors', phrase: 'stale_anchor warning', args: at({ anchors: ['1:0000', '40:abcd'] }), expect: { warning: 'stale_anchor' }, project },
  { tool: 'read', param: 'path', phrase: 'no absolute paths or .. segments', args: { path: '/etc/passwd' }, expect: { error: 'invalid_path' } },
  { tool: 'read', param: 'path', phrase: 'no absolute paths or .. segments', args: { path: 'src/../../etc/passwd' }, expect: { error: 'invalid_path' } },
];
