import type { Rule } from './rule';

const project = {
  name: 'rules-trace',
  files: { 'src/a.ts': 'export function a(): number {\n  return b();\n}\nexport function b(): number {\n  return 1;\n}\n' },
};
const id = 'src/a.ts::b#Function';

export const RULES: Rule[] = [
  { tool: 'trace', param: '*', phrase: 'exactly one of id, name', args: {}, expect: { error: 'invalid_params' } },
  { tool: 'trace', param: '*', phrase: 'exactly one of id, name', args: { id, name: 'b' }, expect: { error: 'invalid_params' } },
  { tool: 'trace', param: 'name', phrase: 'Class.method', args: { project: 'rules-trace', name: 'b' }, expect: { ok: true }, project },
  { tool: 'trace', param: 'direction', phrase: 'inbound (default), outbound, both', args: { name: 'b', direction: 'sideways' }, expect: { error: 'invalid_params' } },
  { tool: 'trace', param: 'direction', phrase: 'outbound', args: { project: 'rules-trace', id, direction: 'outbound' }, expect: { ok: true }, project },
  { tool: 'trace', param: 'depth', phrase: '1–5', args: { name: 'b', depth: 0 }, expect: { error: 'invalid_params' } },
  { tool: 'trace', param: 'depth', phrase: '1–5', args: { name: 'b', depth: 6 }, expect: { error: 'invalid_params' } },
  { tool: 'trace', param: 'depth', phrase: 'omitted: 3, trimmed to ≥5 hops', args: { project: 'rules-trace', id }, expect: { ok: true }, project },
  { tool: 'trace', param: 'kinds', phrase: 'Default CALLS', args: { name: 'b', kinds: ['CALL'] }, expect: { error: 'invalid_params' } },
  { tool: 'trace', param: 'kinds', phrase: 'Default CALLS', args: { project: 'rules-trace', id, kinds: ['CALLS', 'IMPORTS'] }, expect: { ok: true }, project },
  { tool: 'trace', param: 'include_tests', phrase: 'Default false', args: { name: 'b', include_tests: 'no' }, expect: { error: 'invalid_params' } },
  { tool: 'trace', param: 'min_confidence', phrase: '0–1', args: { name: 'b', min_confidence: 1.5 }, expect: { error: 'invalid_params' } },
  { tool: 'trace', param: 'min_confidence', phrase: 'default 0.8', args: { project: 'rules-trace', id, min_confidence: '0' }, expect: { ok: true }, project },
  { tool: 'trace', param: 'max_hops', phrase: '1–200', args: { name: 'b', max_hops: 0 }, expect: { error: 'invalid_params' } },
  { tool: 'trace', param: 'max_hops', phrase: '1–200', args: { name: 'b', max_hops: 201 }, expect: { error: 'invalid_params' } },
  { tool: 'trace', param: 'max_hops', phrase: 'default 50', args: { project: 'rules-trace', id, max_hops: '50' }, expect: { ok: true }, project },
  { tool: 'trace', param: '*', phrase: 'risk (1 high, 2 medium, 3+ low)', args: { project: 'rules-trace', id, depth: 3 }, expect: { ok: true }, project },
];
