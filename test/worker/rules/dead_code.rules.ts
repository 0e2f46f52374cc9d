import type { Rule } from './rule';

const project = {
  name: 'rules-dead-code',
  files: {
    'src/a.ts': 'export function a(): number {\n  return 1;\n}\nfunction unused(): number {\n  return 2;\n}\nfunction main(): void {}\n',
    'lib/u.c': 'static int lone(void) {\n  return 1;\n}\n',
  },
};

export const RULES: Rule[] = [
  { tool: 'dead_code', param: 'min_confidence', phrase: '0–1', args: { min_confidence: 1.5 }, expect: { error: 'invalid_params' } },
  { tool: 'dead_code', param: 'min_confidence', phrase: '0–1', args: { min_confidence: -1 }, expect: { error: 'invalid_params' } },
  { tool: 'dead_code', param: 'min_confidence', phrase: 'default 0.95', args: { project: 'rules-dead-code', min_confidence: '0.95' }, expect: { ok: true }, project },
  { tool: 'dead_code', param: 'language', phrase: 'at most 50 characters', args: { language: 'x'.repeat(51) }, expect: { error: 'invalid_params' } },
  { tool: 'dead_code', param: 'language', phrase: 'unsupported_language', args: { project: 'rules-dead-code', language: 'cobol' }, expect: { ok: true }, project },
  { tool: 'dead_code', param: 'language', phrase: 'left out unless named here', args: { project: 'rules-dead-code', language: 'C' }, expect: { ok: true }, project },
  { tool: 'dead_code', param: 'path', phrase: '≤500 chars', args: { path: 'x'.repeat(501) }, expect: { error: 'invalid_params' } },
  { tool: 'dead_code', param: 'path', phrase: 'no /: any file or folder name', args: { project: 'rules-dead-code', path: 'a.ts' }, expect: { ok: true }, project },
  { tool: 'dead_code', param: 'path', phrase: 'braces must balance', args: { project: 'rules-dead-code', path: '{src,lib}/*.{ts,c}' }, expect: { ok: true }, project },
  { tool: 'dead_code', param: 'path', phrase: 'brackets, braces must balance', args: { path: 'src/[ab' }, expect: { error: 'invalid_params' } },
  { tool: 'dead_code', param: 'kind', phrase: 'Function or Method', args: { kind: 'Class' }, expect: { error: 'invalid_params' } },
  { tool: 'dead_code', param: '*', phrase: 'not entry points', args: { project: 'rules-dead-code', min_confidence: 1 }, expect: { ok: true }, project },
  { tool: 'dead_code', param: 'limit', phrase: '1–200', args: { limit: 0 }, expect: { error: 'invalid_params' } },
  { tool: 'dead_code', param: 'limit', phrase: '1–200', args: { limit: 201 }, expect: { error: 'invalid_params' } },
  { tool: 'dead_code', param: 'offset', phrase: '0–10000', args: { offset: 10_001 }, expect: { error: 'invalid_params' } },
  { tool: 'dead_code', param: 'offset', phrase: 'cap_dropped_all', args: { project: 'rules-dead-code', offset: 10_000 }, expect: { ok: true }, project },
];
