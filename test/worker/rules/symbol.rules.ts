import type { Rule } from './rule';

const moved = {
  name: 'rules-symbol',
  files: {
    'new/place.ts': 'export function kept(): number {\n  return 1;\n}\n',
    // One class with more nested symbols than the outlines of one call share.
    'src/huge.ts': `export class Huge {\n${Array.from({ length: 2001 }, (_, m) => `  m${m}(): void {}`).join('\n')}\n}\n`,
  },
};

export const RULES: Rule[] = [
  { tool: 'symbol', param: '*', phrase: 'malformed or unknown id answers symbol: null with target_not_resolved', args: { project: 'rules-symbol', id: 'not-an-id' }, expect: { ok: true }, project: moved },
  { tool: 'symbol', param: '*', phrase: 'symbol_moved warning', args: { project: 'rules-symbol', id: 'old/place.ts::kept#Function' }, expect: { warning: 'symbol_moved' }, project: moved },
  { tool: 'symbol', param: 'detail', phrase: 'skeleton: signature, docstring', args: { id: 'a.ts::f#Function', detail: 'outline' }, expect: { error: 'invalid_params' } },
  { tool: 'symbol', param: 'detail', phrase: 'share 2000 entries', args: { project: 'rules-symbol', id: 'src/huge.ts::Huge#Class', detail: 'skeleton' }, expect: { warning: 'outline_truncated' }, project: moved },
  { tool: 'symbol', param: 'fields', phrase: 'Return only these fields', args: { id: 'a.ts::f#Function', fields: ['body'] }, expect: { error: 'invalid_params' } },
  { tool: 'symbol', param: 'fields', phrase: 'source comes only with detail full', args: { project: 'rules-symbol', id: 'new/place.ts::kept#Function', detail: 'skeleton', fields: ['source'] }, expect: { ok: true }, project: moved },
  { tool: 'symbol', param: 'id', phrase: 'ends in ~N', args: { project: 'rules-symbol', id: 'new/place.ts::kept#Function~2' }, expect: { ok: true }, project: moved },
  { tool: 'symbols', param: 'ids', phrase: '1–100 ids', args: { ids: [] }, expect: { error: 'invalid_params' } },
  { tool: 'symbols', param: 'ids', phrase: '1–100 ids', args: { ids: Array.from({ length: 101 }, (_, i) => `a.ts::f${i}#Function`) }, expect: { error: 'invalid_params' } },
  { tool: 'symbols', param: '*', phrase: 'ids not found are listed in missing', args: { project: 'rules-symbol', ids: ['new/place.ts::kept#Function', 'x.ts::y#Function'] }, expect: { ok: true }, project: moved },
  { tool: 'symbols', param: '*', phrase: 'symbol_moved warnings', args: { project: 'rules-symbol', ids: ['old/place.ts::kept#Function'] }, expect: { warning: 'symbol_moved' }, project: moved },
  { tool: 'symbols', param: 'fields', phrase: 'Return only these fields', args: { ids: ['a.ts::f#Function'], fields: ['nope'] }, expect: { error: 'invalid_params' } },
];
