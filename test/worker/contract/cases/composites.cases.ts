import type { ContractCases } from '../support';

const BASE = ['request_id', 'tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope', 'complexity_tier', 'latency_ms'];
const SCOPED = ['capabilities', 'schema_version', 'schema_version_at_index', 'project_id', 'project_name'];
const UNSCOPED = ['capabilities', 'schema_version'];
const EMPTY = ['empty_reason', 'diagnosis', 'diagnosis_v2', 'next_steps'];

/** A Node trace into CODE_FILES (src/app.ts: Server.start calls listen at line 3; listen spans 7–9). */
const TRACE = 'Error: port taken\n    at listen (/srv/app/src/app.ts:8:10)\n    at Server.start (/srv/app/src/app.ts:3:5)\n    at /srv/app/node_modules/x/run.js:1:1';
const FOREIGN_TRACE = 'Error: x\n    at elsewhere (/other/repo/lib/thing.ts:3:1)';
const UNKNOWN_DIFF = 'diff --git a/src/other.ts b/src/other.ts\n--- a/src/other.ts\n+++ b/src/other.ts\n@@ -1 +1 @@\n-a\n+b\n';

export const cases = (code: string): ContractCases => ({
  golden: {
    changes: [
      { label: 'a range inside a method', args: { project: code, ranges: [{ path: 'src/app.ts', start_line: 3, end_line: 3 }] }, scoped: true, keys: [...BASE, 'next_steps', ...SCOPED] },
      { label: 'a diff of a file the index does not hold', args: { project: code, diff: UNKNOWN_DIFF }, scoped: true, keys: [...BASE, ...EMPTY, 'warnings', 'warnings_v2', ...SCOPED] },
      { label: 'both diff and ranges (typed error)', args: { project: code, diff: UNKNOWN_DIFF, ranges: [{ path: 'src/app.ts', start_line: 1, end_line: 1 }] }, keys: [...BASE, ...UNSCOPED] },
      { label: 'no project given', args: { ranges: [{ path: 'src/app.ts', start_line: 3, end_line: 3 }] }, keys: [...BASE, ...EMPTY, ...UNSCOPED] },
    ],
    investigate_failure: [
      { label: 'a Node trace into the project', args: { project: code, trace: TRACE }, scoped: true, keys: [...BASE, 'next_steps', ...SCOPED] },
      { label: 'a trace with no project frame', args: { project: code, trace: FOREIGN_TRACE }, scoped: true, keys: [...BASE, ...EMPTY, ...SCOPED] },
      { label: 'text with no frame (typed error)', args: { project: code, trace: 'it broke' }, keys: [...BASE, ...UNSCOPED] },
    ],
    context_for_task: [
      { label: 'a task naming a method', args: { project: code, task: 'make `Server.start` retry' }, scoped: true, keys: [...BASE, ...SCOPED] },
      { label: 'a task whose names match nothing', args: { project: code, task: 'rewrite `zzFrobnicate`' }, scoped: true, keys: [...BASE, ...EMPTY, ...SCOPED] },
      { label: 'a task with nothing to search for (typed error)', args: { project: code, task: 'please help' }, keys: [...BASE, ...UNSCOPED] },
    ],
    guide: [
      { label: 'a who-calls task', args: { project: code, task: 'who calls listen' }, scoped: true, keys: [...BASE, ...SCOPED] },
      { label: 'no project given', args: { task: 'who calls listen' }, keys: [...BASE, ...UNSCOPED] },
      { label: 'an unknown project', args: { project: 'golden-no-such-project', task: 'who calls listen' }, keys: [...BASE, ...EMPTY, ...UNSCOPED] },
    ],
  },
  parity: {
    changes: [
      { project: code, ranges: [{ path: 'src/app.ts', start_line: 3, end_line: 3 }] },
      { project: code, diff: UNKNOWN_DIFF },
      { project: code, diff: '--- a/src/app.ts\n+++ b/src/app.ts\n@@ -x +1 @@\n' },
      {},
    ],
    investigate_failure: [{ project: code, trace: TRACE }, { project: code, trace: FOREIGN_TRACE }, { project: code, trace: 'it broke' }],
    context_for_task: [{ project: code, task: 'make `Server.start` retry' }, { project: code, task: 'rewrite `zzFrobnicate`' }, { project: code, task: 'listen', max_tokens: 10 }],
    guide: [{ project: code, task: 'who calls listen' }, { task: 'who calls listen' }, { project: 'parity-unknown', task: 'x' }, { task: '??' }],
  },
  steps: [
    { label: 'changes over a range inside a method', tool: 'changes', args: { project: code, ranges: [{ path: 'src/app.ts', start_line: 3, end_line: 3 }] }, mustSteer: true },
    { label: 'changes of a file the index does not hold', tool: 'changes', args: { project: code, diff: UNKNOWN_DIFF }, mustSteer: true },
    { label: 'changes touching no symbol', tool: 'changes', args: { project: code, ranges: [{ path: 'src/app.ts', start_line: 6, end_line: 6 }] }, mustSteer: true },
    { label: 'changes of lines past the end of a file', tool: 'changes', args: { project: code, ranges: [{ path: 'README.md', start_line: 99, end_line: 99 }] }, mustSteer: true },
    { label: 'investigate_failure of a trace into the project', tool: 'investigate_failure', args: { project: code, trace: TRACE }, mustSteer: true },
    { label: 'investigate_failure of a trace with no project frame', tool: 'investigate_failure', args: { project: code, trace: FOREIGN_TRACE }, mustSteer: true },
    { label: 'context_for_task whose names match nothing', tool: 'context_for_task', args: { project: code, task: 'rewrite `zzFrobnicate`' }, mustSteer: true },
    { label: 'context_for_task under a tight budget', tool: 'context_for_task', args: { project: code, task: '`Server` `listen`', max_tokens: 200 } },
    { label: 'context_for_task on an unknown project', tool: 'context_for_task', args: { project: 'steps-unknown', task: 'listen' }, mustSteer: true },
    { label: 'guide on an unknown project', tool: 'guide', args: { project: 'steps-unknown', task: 'who calls listen' }, mustSteer: true },
  ],
});
