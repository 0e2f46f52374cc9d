import type { ContractCases } from '../support';

const BASE = ['request_id', 'tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope', 'complexity_tier', 'latency_ms', 'capabilities', 'schema_version'];
const SCOPE = ['schema_version_at_index', 'project_id', 'project_name'];
const EMPTY = ['empty_reason', 'diagnosis', 'diagnosis_v2', 'next_steps'];
const UNKNOWN_PROJECT = 'golden-no-such-project';

/**
 * The graph tools (trace, neighborhood, dead_code, plan_change) on the
 * project indexed from CODE_FILES: src/app.ts, where Server.start calls listen.
 * The push resolves that call into one CALLS edge (same_file, 0.95, line 3),
 * which the callers-of-listen situations rely on; the others hold without it.
 */
export const cases = (code: string): ContractCases => ({
  golden: {
    trace: [
      { label: 'the callers of listen (the push resolved Server.start → listen)', args: { project: code, name: 'listen' }, scoped: true, keys: [...BASE, ...SCOPE] },
      { label: 'a name that resolves to nothing', args: { project: code, name: 'Nope' }, scoped: true, keys: [...BASE, ...EMPTY, ...SCOPE] },
      { label: 'an unknown project', args: { project: UNKNOWN_PROJECT, name: 'listen' }, keys: [...BASE, ...EMPTY] },
      { label: 'both id and name (typed error)', args: { project: code, id: 'src/app.ts::listen#Function', name: 'listen' }, keys: BASE },
    ],
    neighborhood: [
      { label: 'the siblings of a method', args: { project: code, id: 'src/app.ts::Server.start#Method' }, scoped: true, keys: [...BASE, ...SCOPE] },
      { label: 'an offset past the last sibling', args: { project: code, id: 'src/app.ts::Server.start#Method', offset: 50 }, scoped: true, keys: [...BASE, ...EMPTY, ...SCOPE] },
      { label: 'a name that resolves to nothing', args: { project: code, name: 'Nope' }, scoped: true, keys: [...BASE, ...EMPTY, ...SCOPE] },
      { label: 'an unknown project', args: { project: UNKNOWN_PROJECT, name: 'listen' }, keys: [...BASE, ...EMPTY] },
    ],
    dead_code: [
      { label: 'a project where every callable is exported', args: { project: code }, scoped: true, keys: [...BASE, ...EMPTY, ...SCOPE] },
      { label: 'a language without an extractor', args: { project: code, language: 'cobol' }, scoped: true, keys: [...BASE, ...EMPTY, ...SCOPE] },
      { label: 'an unknown project', args: { project: UNKNOWN_PROJECT }, keys: [...BASE, ...EMPTY] },
      { label: 'an out-of-range limit (typed error)', args: { project: code, limit: 0 }, keys: BASE },
    ],
    plan_change: [
      { label: 'the blast radius of listen (a step to trace)', args: { project: code, name: 'listen' }, scoped: true, keys: [...BASE, 'next_steps', ...SCOPE] },
      { label: 'a name that resolves to nothing', args: { project: code, name: 'Nope' }, scoped: true, keys: [...BASE, ...EMPTY, ...SCOPE] },
      { label: 'a path that is not indexed', args: { project: code, path: 'src/nope.ts' }, scoped: true, keys: [...BASE, ...EMPTY, ...SCOPE] },
      { label: 'an unknown project', args: { project: UNKNOWN_PROJECT, name: 'listen' }, keys: [...BASE, ...EMPTY] },
      { label: 'two targets (typed error)', args: { project: code, name: 'listen', path: 'src/app.ts' }, keys: BASE },
    ],
  },
  parity: {
    trace: [
      { project: code, name: 'listen' },
      { project: code, name: 'Server.start', direction: 'callees', depth: 2 },
      { project: code, id: 'src/app.ts::listen#Function', direction: 'both', include_tests: true, min_confidence: '0.5' },
      { project: code, name: 'Nope' },
      { project: code, name: 'Golden' },
      { project: code, id: 'x', name: 'y' },
      { project: code, name: 'listen', depth: 9 },
    ],
    neighborhood: [
      { project: code, id: 'src/app.ts::Server.start#Method' },
      { project: code, name: 'Server', limit: 1 },
      { project: code, name: 'listen', offset: 50 },
      { project: code, name: 'Nope' },
      {},
    ],
    dead_code: [{ project: code }, { project: code, min_confidence: 1, path: 'src/**' }, { project: code, language: 'cobol' }, { project: code, kind: 'Class' }],
    plan_change: [
      { project: code, name: 'listen' },
      { project: code, path: 'src/app.ts', depth: 1 },
      { project: code, path: 'src/nope.ts' },
      { project: code, name: 'Nope' },
      { project: code },
    ],
  },
  steps: [
    { label: 'trace for an unknown name', tool: 'trace', args: { project: code, name: 'Nope' }, mustSteer: true },
    { label: 'trace for an unknown project', tool: 'trace', args: { project: 'steps-unknown', name: 'listen' }, mustSteer: true },
    { label: 'trace of the callers of listen', tool: 'trace', args: { project: code, name: 'listen' } },
    { label: 'trace of the callees of listen', tool: 'trace', args: { project: code, name: 'listen', direction: 'outbound' }, mustSteer: true },
    { label: 'trace from a Markdown heading', tool: 'trace', args: { project: code, name: 'Golden' }, mustSteer: true },
    { label: 'neighborhood past the last sibling', tool: 'neighborhood', args: { project: code, id: 'src/app.ts::Server.start#Method', offset: 50 }, mustSteer: true },
    { label: 'neighborhood with more pages', tool: 'neighborhood', args: { project: code, id: 'src/app.ts::Server.start#Method', limit: 1 }, mustSteer: true },
    { label: 'neighborhood for an unknown id', tool: 'neighborhood', args: { project: code, id: 'src/app.ts::Nope#Function' }, mustSteer: true },
    { label: 'dead_code on the code project', tool: 'dead_code', args: { project: code }, mustSteer: true },
    { label: 'dead_code for a language without an extractor', tool: 'dead_code', args: { project: code, language: 'cobol' }, mustSteer: true },
    { label: 'plan_change for an unknown path', tool: 'plan_change', args: { project: code, path: 'src/nope.ts' }, mustSteer: true },
    { label: 'plan_change for an unknown name', tool: 'plan_change', args: { project: code, name: 'Nope' }, mustSteer: true },
    { label: 'plan_change for a Markdown file', tool: 'plan_change', args: { project: code, path: 'README.md' }, mustSteer: true },
    { label: 'plan_change for listen', tool: 'plan_change', args: { project: code, name: 'listen' }, mustSteer: true },
  ],
});
