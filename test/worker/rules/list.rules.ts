import type { Rule } from './rule';

export const RULES: Rule[] = [
  { tool: 'list', param: 'limit', phrase: '1–200', args: { limit: 0 }, expect: { error: 'invalid_params' } },
  { tool: 'list', param: 'limit', phrase: '1–200', args: { limit: 201 }, expect: { error: 'invalid_params' } },
  { tool: 'list', param: 'offset', phrase: '0–10000', args: { offset: -1 }, expect: { error: 'invalid_params' } },
  { tool: 'list', param: 'limit', phrase: 'default 50', args: { limit: 50 }, expect: { ok: true } },
  // Stated once, in list, for every tool's numeric parameters (the runtime coercion is shared: src/tools/params.ts).
  { tool: 'list', param: '*', phrase: 'numbers may be base-10 strings', args: { limit: '5', offset: ' 0 ' }, expect: { ok: true } },
  { tool: 'why_empty', param: 'code', phrase: 'a known empty_reason', args: { code: 'nope' }, expect: { error: 'unknown_empty_reason' } },
  { tool: 'index', param: '*', phrase: 'exactly one of files or force', args: { project: 'rules-x', force: true, files: [] }, expect: { error: 'invalid_params' } },
];
