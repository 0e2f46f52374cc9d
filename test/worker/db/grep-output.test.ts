import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { projectFiles, trigramCandidates } from '../../../src/db/content';
import { countableInSql, grepOutput } from '../../../src/db/grep-output';
import { getProjectByName } from '../../../src/db/projects';
import { regexWord } from '../../../src/tools/baseline';
import { compilePattern } from '../../../src/tools/grep/pattern';
import { runGrep } from '../../../src/tools/grep/run';
import { rest } from '../helpers';

const DB = (env as unknown as { DB: D1Database }).DB;
const PROJECT = 'grep-output';

/** Lines that make splitting hard: escapes, quotes, CRLF, tabs, control characters, a line past 2,000 characters. */
const FILES: Record<string, string> = {
  'src/escapes.ts': 'const a = "Widget\\n";\nconst b = \'\\\\widget\\\\\';\r\nconst c = `tab\there widget`;\n\u0001widget\u0002\n',
  'src/crlf.py': 'def widget():\r\n    return "WIDGET"\r\n\r\nno match here\r\n',
  // Short lines after the long ones keep the mean line under the push's minified-bundle limit (500 characters).
  'src/long.js': `${'x'.repeat(2_100)}widget\n${'y'.repeat(1_990)}widget\nwidget at the start\n${'ok\n'.repeat(20)}`,
  'src/copy-a.ts': 'export function gadget() { return widget(); }\n',
  'src/copy-b.ts': 'export function gadget() { return widget(); }\n',
  'src/no-newline.ts': 'widget gadget id',
  'docs/accents.md': 'café widget über\nÉCOLE gadget\n',
  'src/none.ts': 'nothing to see\n',
  // A word ending on the 2,000th character counts; one ending on the 2,001st does not (nor a later repeat of it).
  'src/edge.js': `${'ok\n'.repeat(20)}${'z'.repeat(1_994)}Widget\n${'z'.repeat(1_995)}widget widget\n${'z'.repeat(1_995)}widget gadget\n`,
  // A word whose LIKE / GLOB pattern would pass D1's 50-byte cap.
  'src/long-name.ts': 'export const ConfigurationOptionsForTheRemoteProcedureCallTransport = 1;\nconst x = configurationOptionsForTheRemoteProcedureCallTransport;\n',
};

let projectId = '';

beforeAll(async () => {
  const pushed = await rest('index', { project: PROJECT, files: Object.entries(FILES).map(([path, content]) => ({ path, content })) });
  expect(pushed.status).toBe(200);
  expect(pushed.body.result.files.blocked).toBe(0);
  projectId = (await getProjectByName(DB, PROJECT))!.id;
});

/** The scanner's own figure (src/tools/grep/scan.ts), fetching every file. */
async function scanned(words: string[], ignoreCase: boolean): Promise<number> {
  const matcher = compilePattern(words.map(regexWord).join('|'), { literal: false, ignoreCase });
  const files = await projectFiles(DB, projectId);
  const run = await runGrep(DB, projectId, files, matcher, { limit: 0, context: 0, summary: false, deadline: Date.now() + 10_000 });
  return run.scan.baselineChars;
}

async function counted(words: string[], ignoreCase: boolean, capBytes = 1 << 30) {
  const matcher = compilePattern(words.map(regexWord).join('|'), { literal: false, ignoreCase });
  return grepOutput(DB, { projectId, words, ignoreCase, match: matcher.prefilter?.match ?? null, capBytes });
}

describe('grep output size counted inside D1', () => {
  it.each([
    [['widget'], true],
    [['widget'], false],
    [['WIDGET', 'gadget'], true],
    [['gadget', 'école'], false],
    [['id'], false],
    [['d'], true],
    [['absent_word'], true],
    [['ConfigurationOptionsForTheRemoteProcedureCallTransport'], true],
    [['ConfigurationOptionsForTheRemoteProcedureCallTransport'], false],
  ])('equals the scanner for %j (ignore case %s)', async (words, ignoreCase) => {
    const size = await counted(words, ignoreCase);
    expect(size.skipped).toBe(0);
    expect(size.chars).toBe(await scanned(words, ignoreCase));
  });

  it('counts nothing for a file past the cap with a line over 1,000 characters (its word may sit past the 2,000 tested)', async () => {
    // Short lines after the long one keep the mean line under the push's minified-bundle limit.
    const files: Record<string, string> = { 'a/first.txt': 'gizmo one\n', 'b/long.txt': `${'q'.repeat(2_100)} gizmo\n${'ok\n'.repeat(20)}` };
    expect((await rest('index', { project: 'grep-output-long', files: Object.entries(files).map(([path, content]) => ({ path, content })) })).status).toBe(200);
    const id = (await getProjectByName(DB, 'grep-output-long'))!.id;
    const match = compilePattern('gizmo', { literal: false, ignoreCase: true }).prefilter!.match;
    const size = await grepOutput(DB, { projectId: id, words: ['gizmo'], ignoreCase: true, match, capBytes: 20 });
    expect(size).toEqual({ chars: 'a/first.txt:1:gizmo one\n'.length, lines: 1, skipped: 1 });
  });

  it('stops past the byte cap and says how many candidate files it left', async () => {
    const size = await counted(['widget'], true, 60);
    expect(size.skipped).toBeGreaterThan(0);
    expect(size.chars).toBeLessThan((await counted(['widget'], true)).chars);
  });

  it('counts only files holding a word against the byte cap, and checks candidates up to checkBytes', async () => {
    // Three decoys hold every trigram of 'widget' but not the word, and come first in path order; the holder comes last.
    const decoy = 'widge dget\n'.repeat(100);
    const files: Record<string, string> = { 'a/decoy-0.txt': decoy, 'a/decoy-1.txt': decoy, 'a/decoy-2.txt': decoy, 'z/holder.txt': 'one widget here\n' };
    expect((await rest('index', { project: 'grep-output-cap', files: Object.entries(files).map(([path, content]) => ({ path, content })) })).status).toBe(200);
    const id = (await getProjectByName(DB, 'grep-output-cap'))!.id;
    const match = compilePattern('widget', { literal: false, ignoreCase: true }).prefilter!.match;
    const ask = (capBytes: number, checkBytes?: number) => grepOutput(DB, { projectId: id, words: ['widget'], ignoreCase: true, match, capBytes, checkBytes });
    // 3,300 bytes of decoys precede the holder: a cap of 100 bytes still counts it, since the decoys hold no word.
    expect(await ask(100)).toEqual({ chars: 'z/holder.txt:1:one widget here\n'.length, lines: 1, skipped: 0 });
    // Past a cap of 10 bytes, the holder counts the least grep prints for it: `z/holder.txt:1:widget` and a newline.
    expect(await ask(10)).toEqual({ chars: 'z/holder.txt:1:widget\n'.length, lines: 1, skipped: 1 });
    // Checking only the first 3,000 bytes of candidates leaves the holder (and the third decoy) uncounted.
    expect(await ask(100, 3_000)).toEqual({ chars: 0, lines: 0, skipped: 2 });
  });

  it('leaves non-ASCII words under ignore case to the scanner', () => {
    expect(countableInSql(['école'], true)).toBe(false);
    expect(countableInSql(['école'], false)).toBe(true);
    expect(countableInSql([], false)).toBe(false);
  });
});

/** A D1 stand-in that records the statement it is handed (SQL and parameters). */
function recorder(): { d1: D1Database; seen: { sql: string; params: unknown[] }[] } {
  const seen: { sql: string; params: unknown[] }[] = [];
  const d1 = {
    prepare: (sql: string) => ({
      bind: (...params: unknown[]) => {
        seen.push({ sql, params });
        return { all: async () => ({ results: [] }) };
      },
    }),
  } as unknown as D1Database;
  return { d1, seen };
}

async function planOf(sql: string, params: unknown[]): Promise<string[]> {
  const plan = await DB.prepare(`EXPLAIN QUERY PLAN ${sql}`).bind(...params).all<{ detail: string }>();
  return plan.results.map((r) => r.detail);
}

describe('query plans of the grep statements', () => {
  it('drives the baseline count from the trigram index and probes files by hash (no scan of files or blobs)', async () => {
    const { d1, seen } = recorder();
    await grepOutput(d1, { projectId, words: ['widget', 'gadget'], ignoreCase: true, match: compilePattern('widget|gadget', { literal: false, ignoreCase: true }).prefilter!.match, capBytes: 1 << 20 });
    const details = await planOf(seen[0].sql, seen[0].params);
    expect(details.some((d) => /SCAN blob_grams VIRTUAL TABLE INDEX/.test(d)), details.join(' | ')).toBe(true);
    expect(details.some((d) => /SEARCH f USING INDEX files_hash/.test(d)), details.join(' | ')).toBe(true);
    expect(details.some((d) => /SCAN (f|b|files|blobs)\b/.test(d)), details.join(' | ')).toBe(false);
  });

  it('drives the prefilter (with its content and the case-folded check) from the trigram index', async () => {
    const { d1, seen } = recorder();
    const m = compilePattern('Widget', { literal: true, ignoreCase: false });
    const folded = compilePattern('Widget', { literal: true, ignoreCase: true });
    await trigramCandidates(d1, projectId, m.prefilter!.match, m.check, { withContentBytes: 1 << 20, under: 'src', orFolded: folded.check });
    const details = await planOf(seen[0].sql, seen[0].params);
    expect(details.some((d) => /SCAN blob_grams VIRTUAL TABLE INDEX/.test(d)), details.join(' | ')).toBe(true);
    expect(details.some((d) => /SEARCH f USING INDEX files_hash/.test(d)), details.join(' | ')).toBe(true);
    expect(details.some((d) => /SCAN (f|b|files|blobs)\b/.test(d)), details.join(' | ')).toBe(false);
  });
});
