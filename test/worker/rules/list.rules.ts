import type { Rule } from './rule';

export const RULES: Rule[] = [
  { tool: 'list', param: 'limit', phrase: '1–200', args: { limit: 0 }, expect: { error: 'invalid_params' } },
  { tool: 'list', param: 'limit', phrase: '1–200', args: { limit: 201 }, expect: { error: 'invalid_params' } },
  { tool: 'list', param: 'offset', phrase: '0–10000', args: { offset: -1 }, expect: { error: 'invalid_params' } },
  { tool: 'list', param: 'limit', phrase: 'default 50', args: { limit: '5' }, expect: { ok: true } },
  { tool: 'why_empty', param: 'code', phrase: 'one of', args: { code: 'nope' }, expect: { error: 'unknown_empty_reason' } },
  { tool: 'index', param: '*', phrase: 'exactly one of files or force', args: { project: 'rules-x', force: true, files: [] }, expect: { error: 'invalid_params' } },
];
