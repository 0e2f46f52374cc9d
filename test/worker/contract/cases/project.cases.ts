import type { ContractCases } from '../support';

/** Every _meta key a call stamps whatever happens. */
const BASE = ['request_id', 'tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope', 'complexity_tier', 'latency_ms', 'capabilities', 'schema_version'];
const SCOPED = [...BASE, 'schema_version_at_index', 'project_id', 'project_name'];
const EMPTY = ['empty_reason', 'diagnosis', 'diagnosis_v2', 'next_steps'];
const UNKNOWN = 'golden-no-such-project';

/** Golden, parity and next-step cases of batch, architecture, schema, adr and adr_write. */
export const cases = (code: string): ContractCases => ({
  golden: {
    batch: [
      {
        label: 'a search chained into symbol',
        args: { project: code, calls: [{ tool: 'search', args: { query: 'listen' } }, { tool: 'symbol', from: 0 }] },
        scoped: true,
        keys: SCOPED,
      },
      { label: 'every entry empty for one reason', args: { calls: [{ tool: 'search', args: { project: UNKNOWN, query: 'x' } }] }, keys: [...BASE, ...EMPTY] },
      { label: 'an entry over the budget', args: { max_tokens: 500, calls: [{ tool: 'why_empty' }] }, keys: [...BASE, 'next_steps', 'warnings', 'warnings_v2'] },
      { label: 'an unknown tool entry', args: { calls: [{ tool: 'nope' }] }, keys: BASE },
      { label: 'no calls (typed error)', args: { calls: [] }, keys: BASE },
    ],
    architecture: [
      { label: 'an indexed project', args: { project: code }, scoped: true, keys: SCOPED },
      { label: 'an unknown project', args: { project: UNKNOWN }, keys: [...BASE, ...EMPTY] },
    ],
    schema: [
      { label: 'an indexed project', args: { project: code }, scoped: true, keys: SCOPED },
      { label: 'no project given', args: {}, keys: [...BASE, ...EMPTY] },
    ],
    adr: [
      { label: 'list on a project without records', args: { project: code }, scoped: true, keys: [...SCOPED, ...EMPTY] },
      { label: 'get of a malformed id (typed error)', args: { project: code, action: 'get', id: 'nope' }, keys: BASE },
      { label: 'an unknown project', args: { project: UNKNOWN, action: 'export' }, keys: [...BASE, ...EMPTY] },
    ],
    adr_write: [
      { label: 'no action (typed error)', args: {}, keys: BASE },
      { label: 'delete of a record that does not exist (typed error)', args: { project: code, action: 'delete', id: 'ADR-0999' }, scoped: true, keys: SCOPED },
      { label: 'set on an unknown project', args: { project: UNKNOWN, action: 'set', title: 'x' }, keys: [...BASE, ...EMPTY] },
    ],
  },
  // Each is called on REST and both MCP transports in a row: the write cases change nothing, so all three answer alike.
  parity: {
    batch: [
      { calls: [{ tool: 'search', args: { project: code, query: 'listen' } }, { tool: 'symbols', from: 0 }] },
      { calls: [] },
      { calls: [{ tool: 'nope' }, { tool: 'index', args: { project: code, force: true } }] },
      { project: code, max_tokens: 500, calls: [{ tool: 'why_empty' }, { tool: 'find' }] },
    ],
    architecture: [{ project: code }, { project: 'parity-unknown' }, { project: code, limit: 0 }],
    schema: [{ project: code }, {}],
    adr: [{ project: code }, { project: code, action: 'get', id: 'ADR-0001' }, { project: code, action: 'export' }, { project: code, action: 'list', id: 'ADR-0001' }],
    adr_write: [
      {},
      { project: code, action: 'delete', id: 'ADR-0999' },
      { project: 'parity-unknown', action: 'set', title: 'x' },
      { project: code, action: 'set', id: 'ADR-0999', title: 'x' },
    ],
  },
  steps: [
    { label: 'batch whose every entry is empty', tool: 'batch', args: { calls: [{ tool: 'search', args: { project: 'steps-unknown', query: 'x' } }] }, mustSteer: true },
    { label: 'batch with an entry over the budget', tool: 'batch', args: { max_tokens: 500, calls: [{ tool: 'why_empty' }] }, mustSteer: true },
    {
      label: 'batch with one empty entry among results',
      tool: 'batch',
      args: { project: code, calls: [{ tool: 'search', args: { query: 'listen', kind: 'Class' } }, { tool: 'find' }] },
      mustSteer: true,
    },
    { label: 'architecture on an unknown project', tool: 'architecture', args: { project: 'steps-unknown' }, mustSteer: true },
    { label: 'architecture on an indexed project', tool: 'architecture', args: { project: code } },
    { label: 'schema on an unknown project', tool: 'schema', args: { project: 'steps-unknown' }, mustSteer: true },
    { label: 'adr list on a project without records', tool: 'adr', args: { project: code }, mustSteer: true },
    { label: 'adr get of an id that matches nothing', tool: 'adr', args: { project: code, action: 'get', id: 'ADR-0042' }, mustSteer: true },
    { label: 'adr_write set on an unknown project', tool: 'adr_write', args: { project: 'steps-unknown', action: 'set', title: 'x' }, mustSteer: true },
  ],
});
