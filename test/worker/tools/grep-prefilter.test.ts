import { beforeAll, describe, expect, it } from 'vitest';
import { rest, type Json } from '../helpers';

/**
 * The trigram prefilter only approximates the required literals (detail='none'
 * loses the order of trigrams); the exact check inside SQLite keeps a file that
 * holds the trigrams but not the literal from being fetched at all.
 */
const FILES: Record<string, string> = {
  // Every trigram of "needleword", never the word itself.
  'decoy/scrambled.txt': 'nee eed edl dle lew ewo wor ord\nnothing else here\n',
  'src/real.ts': "export const a = 'needleword';\nconst b = 'HAYSTACKER';\n",
  'src/shout.py': 'X = "NEEDLEWORD"\n',
  'docs/umlaut.md': 'über-needle at the start\n',
  // Literals whose LIKE / GLOB pattern would pass D1's 50-byte cap: long, or short in characters but not in bytes.
  'long/sentence.txt': `first\nconst message = 'the quick brown fox jumps over the lazy dog, twice';\nüüüüüüüüüüüüüüüüüüüüüüüüüü needle-end\n`,
};

const PROJECT = 'grep-prefilter';

async function grep(args: Json): Promise<Json> {
  const { status, body } = await rest('grep', { project: PROJECT, ...args });
  expect(status).toBe(200);
  return body;
}

function scan(body: Json): Json {
  const entry = (body._meta.diagnosis_v2 as Json[]).find((d) => d.code === 'grep_scan');
  expect(entry).toBeDefined();
  return entry!.data;
}

beforeAll(async () => {
  const pushed = await rest('index', { project: PROJECT, files: Object.entries(FILES).map(([path, content]) => ({ path, content })) });
  expect(pushed.status).toBe(200);
});

describe('grep prefilter checks the literal itself before fetching content', () => {
  it('never fetches a file that holds every trigram of the literal but not the literal', async () => {
    const body = await grep({ pattern: 'needleword', literal: true });
    expect(body.result.matches).toEqual([{ path: 'src/real.ts', line: 1, text: "export const a = 'needleword';" }]);
    expect(scan(body)).toMatchObject({ candidates_prefiltered: 1, files_scanned: 1 });
  });

  it('fetches nothing when the literal is absent from every file', async () => {
    const body = await grep({ pattern: 'wordneedle', literal: true });
    expect(body.result.total_matches).toBe(0);
    expect(scan(body)).toMatchObject({ candidates_prefiltered: 0, files_scanned: 0 });
  });

  it('folds ASCII case under ignore_case, as the line regex does', async () => {
    const body = await grep({ pattern: 'NeedleWord', literal: true, ignore_case: true });
    expect(body.result.matches.map((m: Json) => m.path)).toEqual(['src/real.ts', 'src/shout.py']);
    expect(scan(body)).toMatchObject({ candidates_prefiltered: 2 });
  });

  it('still finds a literal with non-ASCII letters under ignore_case', async () => {
    const body = await grep({ pattern: 'ÜBER-NEEDLE', literal: true, ignore_case: true });
    expect(body.result.matches).toEqual([{ path: 'docs/umlaut.md', line: 1, text: 'über-needle at the start' }]);
  });

  it('keeps the files of every branch of an alternation', async () => {
    const body = await grep({ pattern: '(needleword|HAYSTACKER)' });
    expect(body.result.matches.map((m: Json) => [m.path, m.line])).toEqual([
      ['src/real.ts', 1],
      ['src/real.ts', 2],
    ]);
    expect(scan(body)).toMatchObject({ candidates_prefiltered: 1 });
  });

  it('checks both literals of a regex with two required parts', async () => {
    const body = await grep({ pattern: 'needle.*start' });
    expect(body.result.matches.map((m: Json) => m.path)).toEqual(['docs/umlaut.md']);
    expect(scan(body)).toMatchObject({ candidates_prefiltered: 1 });
  });

  it('checks a literal whose LIKE or GLOB pattern would be over 50 bytes (D1 refuses such a pattern)', async () => {
    const long = 'the quick brown fox jumps over the lazy dog, twice';
    const wide = 'üüüüüüüüüüüüüüüüüüüüüüüüüü needle-end'; // 37 characters, 63 bytes
    const want = (line: number, text: string) => [{ path: 'long/sentence.txt', line, text }];
    const line2 = "const message = 'the quick brown fox jumps over the lazy dog, twice';";
    expect((await grep({ pattern: long, literal: true })).result.matches).toEqual(want(2, line2));
    expect((await grep({ pattern: long.toUpperCase(), literal: true, ignore_case: true })).result.matches).toEqual(want(2, line2));
    expect((await grep({ pattern: `${long}.*;` })).result.matches).toEqual(want(2, line2));
    expect((await grep({ pattern: wide, literal: true })).result.matches).toEqual(want(3, wide));
    expect((await grep({ pattern: long, literal: true, summary: true })).result.files).toEqual([{ path: 'long/sentence.txt', count: 1 }]);
    // A miss that holds a long literal explains itself (the case-folded check rides along) instead of failing.
    const miss = await grep({ pattern: `${long} and again`, literal: true });
    expect(miss.result.total_matches).toBe(0);
  });
});
