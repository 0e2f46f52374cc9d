import type { Rule } from './rule';

const project = {
  name: 'rules-neighborhood',
  files: {
    'src/a.ts': 'export function run(): number {\n  return 1;\n}\nexport function other(): number {\n  return 2;\n}\n',
    'src/b.ts': 'export function run(): number {\n  return 3;\n}\n',
  },
};
const id = 'src/a.ts::run#Function';

export const RULES: Rule[] = [
  { tool: 'neighborhood', param: '*', phrase: 'exactly one of id, name', args: {}, expect: { error: 'invalid_params' } },
  { tool: 'neighborhood', param: 'id', phrase: 'Not with name', args: { id, name: 'run' }, expect: { error: 'invalid_params' } },
  { tool: 'neighborhood', param: 'name', phrase: 'Not with id', args: { id, name: 'run' }, expect: { error: 'invalid_params' } },
  { tool: 'neighborhood', param: 'name', phrase: 'non-empty', args: { name: '  ' }, expect: { error: 'invalid_params' } },
  { tool: 'neighborhood', param: '*', phrase: 'alternatives in warnings', args: { project: 'rules-neighborhood', name: 'run' }, expect: { warning: 'ambiguous_symbol' }, project },
  { tool: 'neighborhood', param: '*', phrase: 'in source order', args: { project: 'rules-neighborhood', id }, expect: { ok: true }, project },
  { tool: 'neighborhood', param: 'limit', phrase: '1–200', args: { name: 'run', limit: 0 }, expect: { error: 'invalid_params' } },
  { tool: 'neighborhood', param: 'limit', phrase: '1–200', args: { name: 'run', limit: 201 }, expect: { error: 'invalid_params' } },
  { tool: 'neighborhood', param: 'limit', phrase: 'default 50', args: { project: 'rules-neighborhood', id, limit: '50' }, expect: { ok: true }, project },
  { tool: 'neighborhood', param: 'offset', phrase: '0–10000', args: { name: 'run', offset: -1 }, expect: { error: 'invalid_params' } },
  { tool: 'neighborhood', param: 'offset', phrase: '0–10000', args: { name: 'run', offset: 10_001 }, expect: { error: 'invalid_params' } },
  { tool: 'neighborhood', param: 'offset', phrase: 'cap_dropped_all', args: { project: 'rules-neighborhood', id, offset: 10 }, expect: { ok: true }, project },
];
