import type { ContractCases } from '../support';

/** Every _meta key a call stamps whatever happens. */
const BASE = ['request_id', 'tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope', 'complexity_tier', 'latency_ms', 'capabilities', 'schema_version'];
const SCOPED = [...BASE, 'schema_version_at_index', 'project_id', 'project_name'];
const EMPTY = ['empty_reason', 'diagnosis', 'diagnosis_v2', 'next_steps'];
const WARNED = ['warnings', 'warnings_v2'];
const UNKNOWN = 'golden-no-such-project';

/** Golden, parity and next-step cases of query (pinchQL). The goldens read symbols only, so they hold whatever the graph holds. */
export const cases = (code: string): ContractCases => ({
  golden: {
    query: [
      { label: 'a symbol query with rows', args: { project: code, query: 'MATCH (f:Function) RETURN f.name, f.file' }, scoped: true, keys: SCOPED },
      { label: 'an aggregate over every symbol', args: { project: code, query: 'MATCH (n) RETURN n.kind AS kind, count(*) AS n' }, scoped: true, keys: SCOPED },
      {
        label: 'a WHERE that excludes every match',
        args: { project: code, query: 'MATCH (f:Function) WHERE f.line > 100 RETURN f.name' },
        scoped: true,
        keys: [...SCOPED, ...EMPTY],
      },
      { label: 'a near-miss label', args: { project: code, query: 'MATCH (f:Functon) RETURN f.name' }, scoped: true, keys: [...SCOPED, ...EMPTY, ...WARNED] },
      { label: 'rows past max_rows', args: { project: code, query: 'MATCH (n) RETURN n.id ORDER BY n.id', max_rows: 1 }, scoped: true, keys: [...SCOPED, 'next_steps'] },
      { label: 'a syntax error (typed error with its position in diagnosis_v2)', args: { project: code, query: 'MATCH (f RETURN f' }, keys: [...BASE, 'diagnosis_v2'] },
      { label: 'an unknown project', args: { project: UNKNOWN, query: 'MATCH (f) RETURN f' }, keys: [...BASE, ...EMPTY] },
    ],
  },
  parity: {
    query: [
      { project: code, query: "MATCH (f:Function) WHERE f.name =~ 'l.*' RETURN f, f.is_exported" },
      { project: code, query: 'MATCH (a)-[r:CALLS]->(b) RETURN a.name, r.line, b.name' },
      { project: code, query: 'MATCH (a)-[:CALLS*1..3]->(b) RETURN count(*)' },
      { project: code, query: 'MATCH (n) RETURN n.id ORDER BY n.id', max_rows: '1' },
      { project: code, query: 'MATCH (f:Functon)-[:CALL]->(g) RETURN f.nme' },
      { project: code, query: 'MATCH (f) WHERE f.line = 1 RETRUN f' },
      { project: 'parity-unknown', query: 'MATCH (f) RETURN f' },
      { query: 'MATCH (f) RETURN f', max_rows: 0 },
    ],
  },
  steps: [
    { label: 'query with a WHERE that excludes every match', tool: 'query', args: { project: code, query: 'MATCH (f:Function) WHERE f.line > 100 RETURN f.name' }, mustSteer: true },
    { label: 'query for a kind the project lacks', tool: 'query', args: { project: code, query: "MATCH (t:Trait {name: 'Server'}) RETURN t" }, mustSteer: true },
    { label: 'query with a near-miss label', tool: 'query', args: { project: code, query: 'MATCH (f:Functon) RETURN f.name' }, mustSteer: true },
    { label: 'query past its last row', tool: 'query', args: { project: code, query: 'MATCH (f:Function) RETURN f.name SKIP 50' }, mustSteer: true },
    { label: 'query truncated by max_rows', tool: 'query', args: { project: code, query: 'MATCH (n) RETURN n.id ORDER BY n.id', max_rows: 1 }, mustSteer: true },
    { label: 'query on an unknown project', tool: 'query', args: { project: 'steps-unknown', query: 'MATCH (n) RETURN n' }, mustSteer: true },
    { label: 'query for a relationship nothing has', tool: 'query', args: { project: code, query: "MATCH (a)-[:INHERITS]->(b {name: 'listen'}) RETURN a" }, mustSteer: true },
    { label: 'query over the call graph', tool: 'query', args: { project: code, query: 'MATCH (a)-[:CALLS*1..2]->(b) RETURN a.name, b.name' } },
  ],
});
