import type { Rule } from './rule';

const project = {
  name: 'rules-changes',
  files: {
    'src/a.ts': 'export function a(): number {\n  return b();\n}\nexport function b(): number {\n  return 1;\n}\n',
  },
};
const P = project.name;
const diff = '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -2 +2 @@\n-  return b();\n+  return b() + 1;\n';
const range = [{ path: 'src/a.ts', start_line: 2, end_line: 2 }];

export const RULES: Rule[] = [
  { tool: 'changes', param: '*', phrase: 'Exactly one of diff or ranges', args: {}, expect: { error: 'invalid_params' } },
  { tool: 'changes', param: '*', phrase: 'Exactly one of diff or ranges', args: { diff, ranges: range }, expect: { error: 'invalid_params' } },
  { tool: 'changes', param: '*', phrase: 'unindexed_files warning', args: { project: P, ranges: [...range, { path: 'src/new.ts', start_line: 1, end_line: 1 }] }, expect: { warning: 'unindexed_files' }, project },
  { tool: 'changes', param: 'diff', phrase: 'at most 512 KiB', args: { diff: `${diff}+${'x'.repeat(512 * 1024)}\n` }, expect: { error: 'invalid_params' } },
  { tool: 'changes', param: 'diff', phrase: 'non-empty', args: { diff: ' \n ' }, expect: { error: 'invalid_params' } },
  { tool: 'changes', param: 'diff', phrase: 'malformed hunk headers are invalid_params', args: { diff: '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -x +2 @@\n-a\n+b\n' }, expect: { error: 'invalid_params' } },
  { tool: 'changes', param: 'diff', phrase: 'assumed to hold the pre-change (old) side', args: { project: P, diff: '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,0 +2 @@\n+  log();\n' }, expect: { ok: true }, project },
  { tool: 'changes', param: 'diff', phrase: 'Not with ranges', args: { diff, ranges: range }, expect: { error: 'invalid_params' } },
  { tool: 'changes', param: 'ranges', phrase: '1–500', args: { ranges: [] }, expect: { error: 'invalid_params' } },
  { tool: 'changes', param: 'ranges', phrase: '1–500', args: { ranges: Array.from({ length: 501 }, () => range[0]) }, expect: { error: 'invalid_params' } },
  { tool: 'changes', param: 'ranges', phrase: 'no absolute or .. paths', args: { ranges: [{ path: '../etc/passwd', start_line: 1, end_line: 1 }] }, expect: { error: 'invalid_path' } },
  { tool: 'changes', param: 'ranges', phrase: 'start_line ≤ end_line', args: { ranges: [{ path: 'src/a.ts', start_line: 3, end_line: 2 }] }, expect: { error: 'invalid_params' } },
  { tool: 'changes', param: 'ranges', phrase: 'line_out_of_range warning', args: { project: P, ranges: [...range, { path: 'src/a.ts', start_line: 90, end_line: 99 }] }, expect: { warning: 'line_out_of_range' }, project },
  { tool: 'changes', param: 'ranges', phrase: 'Not with diff', args: { diff, ranges: range }, expect: { error: 'invalid_params' } },
  { tool: 'changes', param: 'depth', phrase: '1–3', args: { ranges: range, depth: 4 }, expect: { error: 'invalid_params' } },
  { tool: 'changes', param: 'depth', phrase: 'default 2', args: { project: P, ranges: range, depth: '2' }, expect: { ok: true }, project },
  { tool: 'changes', param: 'limit', phrase: '1–200', args: { ranges: range, limit: 201 }, expect: { error: 'invalid_params' } },
  { tool: 'changes', param: 'min_confidence', phrase: '0–1', args: { ranges: range, min_confidence: 2 }, expect: { error: 'invalid_params' } },
  { tool: 'changes', param: 'min_confidence', phrase: 'default 0.8', args: { project: P, ranges: range, min_confidence: '0.8' }, expect: { ok: true }, project },
];
