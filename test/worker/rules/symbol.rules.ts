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
  { tool: 'symbol', param: '*', phrase: 'unknown id: symbol null', args: { project: 'rules-symbol', id: 'not-an-id' }, expect: { ok: true }, project: moved },
  { tool: 'symbol', param: '*', phrase: 'moved file: new id (symbol_moved)', args: { project: 'rules-symbol', id: 'old/place.ts::kept#Function' }, expect: { warning: 'symbol_moved' }, project: moved },
  { tool: 'symbol', param: '*', phrase: 'a long class: head + member outline', args: { project: 'rules-symbol', id: 'src/huge.ts::Huge#Class' }, expect: { warning: 'source_truncated' }, project: moved },
  { tool: 'symbol', param: 'detail', phrase: "one call's outlines ≤2000 entries (outline_truncated)", args: { project: 'rules-symbol', id: 'src/huge.ts::Huge#Class', detail: 'skeleton' }, expect: { warning: 'outline_truncated' }, project: moved },
  { tool: 'symbol', param: 'fields', phrase: 'source needs detail full', args: { project: 'rules-symbol', id: 'new/place.ts::kept#Function', detail: 'skeleton', fields: ['source'] }, expect: { ok: true }, project: moved },
  { tool: 'symbol', param: 'id', phrase: '~N for the Nth repeat', args: { project: 'rules-symbol', id: 'new/place.ts::kept#Function~2' }, expect: { ok: true }, project: moved },
  { tool: 'symbols', param: 'ids', phrase: '1–100', args: { ids: [] }, expect: { error: 'invalid_params' } },
  { tool: 'symbols', param: 'ids', phrase: '1–100', args: { ids: Array.from({ length: 101 }, (_, i) => `a.ts::f${i}#Function`) }, expect: { error: 'invalid_params' } },
  { tool: 'symbols', param: '*', phrase: 'ids not found go to missing', args: { project: 'rules-symbol', ids: ['new/place.ts::kept#Function', 'x.ts::y#Function'] }, expect: { ok: true }, project: moved },
  { tool: 'symbols', param: '*', phrase: 'moved files: symbol_moved', args: { project: 'rules-symbol', ids: ['old/place.ts::kept#Function'] }, expect: { warning: 'symbol_moved' }, project: moved },
];
