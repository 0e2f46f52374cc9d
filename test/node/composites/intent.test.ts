import { describe, expect, it } from 'vitest';
import { classify } from '../../../src/composites/intent';

describe('classify', () => {
  const cases: [string, string][] = [
    ['who calls Server.start?', 'callers'],
    ['find all usages of parseHeader', 'callers'],
    ['what breaks if I change listen', 'impact'],
    ['is it safe to rename UserRepo', 'impact'],
    ['where is handleRequest defined', 'definition'],
    ['how does the upload pipeline work', 'understand'],
    ['explain Server.start', 'understand'],
    ['grep for the log message "connection refused"', 'find_text'],
    ['give me an overview of the architecture', 'explore'],
    ['review my pull request', 'review_diff'],
    ['the worker crashes with an exception on startup', 'debug_failure'],
    ['Server.start', 'understand'],
  ];
  for (const [task, intent] of cases) it(`reads '${task}' as ${intent}`, () => expect(classify(task).intent).toBe(intent));

  it('routes a pasted stack trace to debug_failure whatever the words say', () => {
    const c = classify('who calls this?\nTypeError: x\n    at listen (/a/src/net.ts:2:1)');
    expect(c).toEqual({ intent: 'debug_failure', trace: true, diff: false });
  });

  it('routes a pasted diff to review_diff and keeps the diff from its first header', () => {
    const c = classify('what breaks with this?\ndiff --git a/x.ts b/x.ts\n--- a/x.ts\n+++ b/x.ts\n@@ -1 +1 @@\n-a\n+b\n');
    expect(c.intent).toBe('review_diff');
    expect(c.diffText?.startsWith('diff --git a/x.ts')).toBe(true);
  });
});
