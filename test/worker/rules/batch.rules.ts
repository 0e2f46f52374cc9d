import type { Rule } from './rule';

const thirteen = Array.from({ length: 13 }, () => ({ tool: 'list' }));

export const RULES: Rule[] = [
  { tool: 'batch', param: '*', phrase: 'Up to 12', args: { calls: thirteen }, expect: { error: 'invalid_params' } },
  { tool: 'batch', param: '*', phrase: 'Up to 12', args: { calls: [] }, expect: { error: 'invalid_params' } },
  { tool: 'batch', param: '*', phrase: 'read-tool calls', args: { calls: [{ tool: 'index', args: { project: 'rules-batch', force: true } }] }, expect: { ok: true } },
  { tool: 'batch', param: '*', phrase: 'fails alone', args: { calls: [{ tool: 'nope' }, { tool: 'list' }] }, expect: { ok: true } },
  { tool: 'batch', param: '*', phrase: 'bad from', args: { calls: [{ tool: 'symbol', from: 0 }] }, expect: { ok: true } },
  { tool: 'batch', param: 'calls', phrase: 'args default {}', args: { calls: [{ tool: 'list' }] }, expect: { ok: true } },
  { tool: 'batch', param: 'project', phrase: "Entries' default project", args: { project: 'rules-nowhere', calls: [{ tool: 'find' }] }, expect: { ok: true } },
  { tool: 'batch', param: 'max_tokens', phrase: '500–50000', args: { calls: [{ tool: 'list' }], max_tokens: 499 }, expect: { error: 'invalid_params' } },
  { tool: 'batch', param: 'max_tokens', phrase: '500–50000', args: { calls: [{ tool: 'list' }], max_tokens: 50_001 }, expect: { error: 'invalid_params' } },
  { tool: 'batch', param: 'max_tokens', phrase: 'default 8000', args: { calls: [{ tool: 'list' }], max_tokens: '8000' }, expect: { ok: true } },
  { tool: 'batch', param: 'max_tokens', phrase: 'skipped (budget_truncated)', args: { calls: [{ tool: 'why_empty' }], max_tokens: 500 }, expect: { warning: 'budget_truncated' } },
];
