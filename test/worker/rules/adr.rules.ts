import type { Rule } from './rule';

export const RULES: Rule[] = [
  { tool: 'adr', param: 'action', phrase: 'get (needs id)', args: { action: 'get' }, expect: { error: 'invalid_params' } },
  { tool: 'adr', param: 'action', phrase: 'list (default)', args: { project: 'rules-nowhere' }, expect: { ok: true } },
  { tool: 'adr', param: 'id', phrase: 'get only', args: { action: 'list', id: 'ADR-0001' }, expect: { error: 'invalid_params' } },
  { tool: 'adr', param: 'id', phrase: 'ADR-NNNN', args: { action: 'get', id: 'RFC-7' }, expect: { error: 'invalid_params' } },
  { tool: 'adr', param: 'status', phrase: 'list and export only', args: { action: 'get', id: 'ADR-0001', status: 'accepted' }, expect: { error: 'invalid_params' } },
  { tool: 'adr', param: 'limit', phrase: '1–100', args: { limit: 0 }, expect: { error: 'invalid_params' } },
  { tool: 'adr', param: 'limit', phrase: 'list only', args: { action: 'export', limit: 5 }, expect: { error: 'invalid_params' } },
  { tool: 'adr', param: 'offset', phrase: '0–10000', args: { offset: 10_001 }, expect: { error: 'invalid_params' } },
  { tool: 'adr_write', param: 'title', phrase: '1–200 characters', args: { action: 'set', title: 't'.repeat(201) }, expect: { error: 'invalid_params' } },
  { tool: 'adr_write', param: 'title', phrase: 'required when creating', args: { action: 'set', decision: 'd' }, expect: { error: 'invalid_params' } },
  { tool: 'adr_write', param: 'context', phrase: 'at most 20000', args: { action: 'set', title: 't', context: 'c'.repeat(20_001) }, expect: { error: 'invalid_params' } },
  { tool: 'adr_write', param: 'decision', phrase: 'at most 20000', args: { action: 'set', title: 't', decision: 'd'.repeat(20_001) }, expect: { error: 'invalid_params' } },
  { tool: 'adr_write', param: 'consequences', phrase: 'at most 20000', args: { action: 'set', title: 't', consequences: 'q'.repeat(20_001) }, expect: { error: 'invalid_params' } },
  { tool: 'adr_write', param: 'id', phrase: 'delete: required', args: { action: 'delete' }, expect: { error: 'invalid_params' } },
  { tool: 'adr_write', param: 'status', phrase: 'set only', args: { action: 'delete', id: 'ADR-0001', status: 'accepted' }, expect: { error: 'invalid_params' } },
  {
    tool: 'adr_write',
    param: 'superseded_by',
    phrase: 'another status with it is invalid_params',
    args: { action: 'set', id: 'ADR-0001', superseded_by: 'ADR-0002', status: 'accepted' },
    expect: { error: 'invalid_params' },
  },
  { tool: 'adr_write', param: '*', phrase: 'An unknown id is not_found', args: { project: 'rules-adr', action: 'delete', id: 'ADR-0999' }, expect: { error: 'not_found' }, project: { name: 'rules-adr', files: { 'a.ts': 'export const a = 1;\n' } } },
];
