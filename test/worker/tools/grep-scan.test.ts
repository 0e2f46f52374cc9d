import { beforeAll, describe, expect, it } from 'vitest';
import { rest, type Json } from '../helpers';
import { push } from '../upload/support';
import type { FileRow } from '../../../src/db/content';
import { anchorsOf, compilePattern } from '../../../src/tools/grep/pattern';
import { MAX_LINE, scanFiles, type GrepMatch, type ScanOptions } from '../../../src/tools/grep/scan';
import { literalRegex, requiredOfRegex } from '../../../src/regex/literals';
import { parseRegex } from '../../../src/regex/regex-ast';

/**
 * The scan searches whole contents for an anchor literal and tests only the
 * lines holding one; these tests hold its answers to a plain scan that splits
 * every file into lines and tests each one, on awkward content.
 */

/**
 * The plain scan: every line split out, its '\r' dropped, clipped to MAX_LINE, tested. Clipped lines
 * are counted in the files read line by line: those holding the required literals (`mayMatch`).
 */
function plainScan(files: { path: string; content: string }[], test: (line: string) => boolean, opts: { limit: number; context: number; mayMatch?: (content: string) => boolean }) {
  const matches: GrepMatch[] = [];
  const counts: { path: string; count: number }[] = [];
  let total = 0;
  let clipped = 0;
  const clean = (l: string) => (l.endsWith('\r') ? l.slice(0, -1) : l);
  const clip = (l: string) => (l.length > MAX_LINE ? l.slice(0, MAX_LINE) : l);
  for (const { path, content } of files) {
    if (opts.mayMatch && !opts.mayMatch(content)) continue;
    const lines = content.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    let count = 0;
    lines.forEach((raw, i) => {
      let line = clean(raw.length > MAX_LINE ? raw.slice(0, MAX_LINE + 1) : raw);
      if (line.length > MAX_LINE) {
        clipped++;
        line = line.slice(0, MAX_LINE);
      }
      if (!test(line)) return;
      count++;
      if (matches.length >= opts.limit) return;
      const m: GrepMatch = { path, line: i + 1, text: clip(clean(raw)) };
      if (opts.context > 0) {
        m.before = lines.slice(Math.max(0, i - opts.context), i).map((l) => clip(clean(l)));
        m.after = lines.slice(i + 1, i + 1 + opts.context).map((l) => clip(clean(l)));
      }
      matches.push(m);
    });
    if (count) counts.push({ path, count });
    total += count;
  }
  return { matches, counts, totalMatches: total, clippedLines: clipped };
}

function rows(files: { path: string; content: string }[]): { rows: FileRow[]; content: Map<string, string> } {
  const content = new Map<string, string>();
  const out = files.map((f, k) => {
    content.set(`h${k}`, f.content);
    return { path: f.path, hash: `h${k}`, size: f.content.length, language: 'text', status: 'ok', symbols: 0 };
  });
  return { rows: out, content };
}

async function scan(files: { path: string; content: string }[], pattern: string, o: { literal?: boolean; ignoreCase?: boolean; limit?: number; context?: number; summary?: boolean } = {}) {
  const m = compilePattern(pattern, { literal: o.literal ?? false, ignoreCase: o.ignoreCase ?? false });
  const { rows: fileRows, content } = rows(files);
  const opts: ScanOptions = { limit: o.limit ?? 1000, context: o.context ?? 0, summary: o.summary ?? false, deadline: Date.now() + 60_000 };
  // Every content is preloaded: the scan never reaches D1.
  return scanFiles(null as unknown as D1Database, fileRows, m, opts, content);
}

function plainTest(pattern: string, literal: boolean, ignoreCase: boolean): (line: string) => boolean {
  const re = literal ? literalRegex(pattern, ignoreCase) : new RegExp(pattern, ignoreCase ? 'i' : '');
  return (line) => re.test(line);
}

const LONG = 'x'.repeat(MAX_LINE - 4);
const AWKWARD: { path: string; content: string }[] = [
  { path: 'a/start-end.txt', content: 'needle at the start\nmiddle\nthe end: needle' },
  { path: 'a/crlf.txt', content: 'one needle\r\ntwo\r\nthree needle\r\n\r\n\r\nneedle\r' },
  { path: 'a/empty-lines.txt', content: '\n\n\nneedle\n\n\nNEEDLE\n\n' },
  { path: 'a/only-newline.txt', content: '\n' },
  { path: 'a/empty.txt', content: '' },
  { path: 'a/unicode.txt', content: 'über needle 💥 needle\nneedle\u2028needle\nÜBER NEEDLE\n😀😀needle😀\n' },
  // Around the clip: the literal before, straddling and after column MAX_LINE; a '\r' at the clip.
  { path: 'b/long.txt', content: `${LONG}needle\n${LONG}ne\nedle ${LONG}${LONG}\n${'y'.repeat(MAX_LINE)}\rneedle\n${'z'.repeat(MAX_LINE - 1)}\r\nneedle${'q'.repeat(3 * MAX_LINE)}\n` },
  { path: 'b/overlap.txt', content: 'aaaaaa\naaa aaa\naa\nneedleneedle needle\nneeneedledle\n' },
  { path: 'b/dense.txt', content: Array.from({ length: 300 }, (_, i) => (i % 7 === 0 ? `fn needle_${i}(self) -> needle` : i % 5 === 0 ? '' : `line ${i}`)).join('\n') },
];

const CASES: [string, { literal?: boolean; ignoreCase?: boolean }][] = [
  ['needle', { literal: true }],
  ['needle', { literal: true, ignoreCase: true }],
  ['ÜBER NEEDLE', { literal: true, ignoreCase: true }],
  ['über needle', { literal: true }],
  ['aaa', { literal: true }],
  ['needle\r', { literal: true }],
  ['💥 needle', { literal: true }],
  ['\\bneedle\\b', {}],
  ['^needle', {}],
  ['needle$', {}],
  ['^needle$', { ignoreCase: true }],
  ['needle_\\d+\\(self', {}],
  ['(needle|über)', {}],
  ['(?:NEEDLE|aaa)\\s', { ignoreCase: true }],
  ['needle.*needle', {}],
  ['x{4}needle', {}],
  ['ne+dle', {}],
  ['e\\s*$', {}],
  ['^$', {}],
  ['[a-z]+', {}],
  ['needle(?=\\r)', {}],
];

describe('grep scan: whole-content search, same answers as a plain line-by-line scan', () => {
  for (const [pattern, o] of CASES) {
    for (const context of [0, 2]) {
      it(`/${pattern}/ ${JSON.stringify(o)} context ${context}`, async () => {
        const got = await scan(AWKWARD, pattern, { ...o, context });
        const m = compilePattern(pattern, { literal: o.literal ?? false, ignoreCase: o.ignoreCase ?? false });
        const want = plainScan(AWKWARD, plainTest(pattern, o.literal ?? false, o.ignoreCase ?? false), { limit: 1000, context, mayMatch: (c) => m.mayMatch(c) });
        expect(got.matches).toEqual(want.matches);
        expect(got.counts).toEqual(want.counts);
        expect(got.totalMatches).toBe(want.totalMatches);
        expect(got.clippedLines).toBe(want.clippedLines);
      });
    }
  }

  it('keeps counting past the limit, and stops listing at it', async () => {
    const got = await scan(AWKWARD, 'needle', { literal: true, limit: 3 });
    const want = plainScan(AWKWARD, plainTest('needle', true, false), { limit: 3, context: 0 });
    expect(got.matches).toEqual(want.matches);
    expect(got.totalMatches).toBe(want.totalMatches);
    expect(got.totalMatches).toBeGreaterThan(3);
  });

  it('agrees on random files and patterns (randomised)', async () => {
    let seed = 2026;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const pieces = ['abc', 'ABC', 'abcabc', 'bca', 'x', ' ', '\r', '\n', '\r\n', '\n\n', 'ü', 'Ü', '😀', '\u2028', 'xyz', 'XYZ'];
    const content = () => Array.from({ length: rand(60) }, () => pieces[rand(pieces.length)]).join('');
    const patterns = ['abc', 'bca', 'abcabc', 'abc|xyz', 'abc.*xyz', '^abc', 'abc$', '\\babc', 'ab[cd]', '(abc|bca)x', 'xyz\\s*abc', 'cab', 'c\\r', 'ü.*abc'];
    const mismatches: string[] = [];
    let compared = 0;
    for (let round = 0; round < 40; round++) {
      const files = Array.from({ length: 6 }, (_, k) => ({ path: `f${k}.txt`, content: content() }));
      for (const pattern of patterns) {
        for (const ignoreCase of [false, true]) {
          for (const literal of [false, true]) {
            const got = await scan(files, pattern, { literal, ignoreCase, context: 1 });
            const want = plainScan(files, plainTest(pattern, literal, ignoreCase), { limit: 1000, context: 1 });
            compared++;
            if (JSON.stringify([got.matches, got.counts, got.totalMatches]) !== JSON.stringify([want.matches, want.counts, want.totalMatches])) {
              mismatches.push(`/${pattern}/ literal=${literal} ic=${ignoreCase} on ${JSON.stringify(files.map((f) => f.content))}`);
            }
          }
        }
      }
    }
    expect(mismatches.slice(0, 3)).toEqual([]);
    expect(compared).toBeGreaterThan(2000);
  });
});

describe('anchor literals', () => {
  const anchors = (pattern: string, ic = false) => anchorsOf(requiredOfRegex(parseRegex(pattern), ic));
  it('takes one literal of a conjunction, every branch of an alternation, none for a pattern without', () => {
    expect(anchors('def [a-z]+_[a-z]+\\(self')).toEqual(['(self']);
    expect(anchors('class \\w+Error\\b')).toEqual(['class ']);
    expect(anchors('(needle|haystack)s')).toEqual(['needles', 'haystacks']);
    expect(anchors('(ab|haystack)s')).toEqual(['abs', 'haystacks']);
    expect(anchors('(a|haystack)s')).toBeNull();
    expect(anchors('\\w+')).toBeNull();
  });

  it('is null for a pattern whose matcher has no required literal (every line is tested)', () => {
    expect(compilePattern('[a-z]+', { literal: false, ignoreCase: false }).anchor).toBeNull();
    expect(compilePattern('needle', { literal: true, ignoreCase: true }).anchor?.('a NEEDLE', 0)).toBe(2);
  });
});

/** A D1 stand-in answering blobContents' statements from a map, recording each statement's hashes. */
function fakeD1(content: ReadonlyMap<string, string>) {
  const asked: string[][] = [];
  const d1 = {
    prepare: () => ({
      bind: (...hashes: string[]) => ({
        all: async () => {
          asked.push(hashes);
          return { results: hashes.filter((h) => content.has(h)).map((h) => ({ hash: h, content: content.get(h) })) };
        },
      }),
    }),
  } as unknown as D1Database;
  return { d1, asked };
}

describe('grep scan: fetching and stopping', () => {
  const big = Array.from({ length: 40 }, (_, k) => ({ path: `p/${String(k).padStart(2, '0')}.txt`, content: `${'filler line\n'.repeat(25_000)}needle ${k}\n` }));
  const all = rows(big);
  const opts = (o: Partial<ScanOptions>): ScanOptions => ({ limit: 1000, context: 0, summary: false, deadline: Date.now() + 60_000, ...o });
  const m = compilePattern('needle', { literal: true, ignoreCase: false });

  it('fetches growing batches: 12 MB in 5 round trips, not 12', async () => {
    const { d1, asked } = fakeD1(all.content);
    const r = await scanFiles(d1, all.rows, m, opts({}));
    expect(r.totalMatches).toBe(40);
    expect(r.countsExact).toBe(true);
    expect(asked.map((h) => h.length)).toEqual([3, 6, 13, 13, 5]);
  });

  it('with stopWhenListed, fetches nothing once the content in hand fills the listing, and says the counts are lower bounds', async () => {
    const { d1, asked } = fakeD1(all.content);
    const inHand = new Map([...all.content].slice(0, 5));
    const r = await scanFiles(d1, all.rows, m, opts({ limit: 3, stopWhenListed: true }), inHand);
    expect(asked).toEqual([]);
    expect(r.matches.map((x) => x.text)).toEqual(['needle 0', 'needle 1', 'needle 2']);
    expect(r).toMatchObject({ totalMatches: 3, filesScanned: 3, filesUnscanned: 37, countsExact: false });
  });

  it('with stopWhenListed, fetches until the listing is full', async () => {
    const { d1, asked } = fakeD1(all.content);
    const r = await scanFiles(d1, all.rows, m, opts({ limit: 4, stopWhenListed: true }));
    expect(r.matches).toHaveLength(4);
    // The first batch (3 files) is fetched when needed, the second while it is scanned; no third.
    expect(asked.map((h) => h.length)).toEqual([3, 6]);
    expect(r.countsExact).toBe(false);
    expect(r.totalMatches).toBe(4);
  });

  it('with stopWhenListed, still counts every file when all of them are in hand: exact counts', async () => {
    const { d1, asked } = fakeD1(all.content);
    const r = await scanFiles(d1, all.rows, m, opts({ limit: 3, stopWhenListed: true }), all.content);
    expect(asked).toEqual([]);
    expect(r).toMatchObject({ totalMatches: 40, filesUnscanned: 0, countsExact: true });
    expect(r.matches).toHaveLength(3);
  });
});

/**
 * Without context a listing's prefilter page carries only the lines a match can be on (those holding the
 * required literals, and long lines), split inside SQLite: the same answers as a plain scan of whole files.
 */
describe('grep from the lines a prefilter page carries (through D1)', () => {
  const PROJECT = 'grep-carried-lines';
  let seed = 77;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const pieces = ['abc', 'ABC', 'abcabc', 'bca', 'x', ' ', '\r', '\n', '\r\n', '\n\n', 'ü', 'Ü', '😀', '\u2028', 'xyz', 'XYZ', '"', '\\', '\\n', '\t', '\u0001'];
  const RANDOM = Array.from({ length: 24 }, (_, k) => ({ path: `r/f${String(k).padStart(2, '0')}.txt`, content: Array.from({ length: 1 + rand(80) }, () => pieces[rand(pieces.length)]).join('') }));
  // Lines of 1,200 characters outside the Basic Multilingual Plane: 2,400 UTF-16 units, clipped, though without a literal.
  const WIDE = [
    { path: 'w/astral.txt', content: `${'😀'.repeat(1_200)}abc\n${'é'.repeat(1_500)}abc\nabc\n` },
    { path: 'w/astral-quiet.txt', content: `${'😀'.repeat(1_200)}\n${'é'.repeat(1_500)}\nabc needle\n` },
    // 205 KB: the page carries its lines like any file's.
    { path: 'w/big.txt', content: `${'filler text\n'.repeat(20)}line abc needle\r\n`.repeat(800) },
    // 420 KB quoting to 2.23 MB (a control character quotes as six bytes): D1 refuses the split, and the page comes again with content.
    { path: 'w/controls.txt', content: `ctrlmark ${'\u0001'.repeat(60)}\n`.repeat(6_000) },
  ];
  // SQLite checks a literal with GLOB (case-sensitive) or LIKE (folded): their metacharacters must stay literal, and LIKE
  // folds ASCII letters alone, as a JavaScript /i regex without the u flag does (the Kelvin sign is no k).
  const META = [
    { path: 'm/meta.txt', content: 'a%c and a_c and abc\n*?[x] and [ab]c and a\\%c\nKelvin \u212Aey and key and KEY\nx[*?]y ab*c a?c\n100% done_ok\nabc a]c a^c\n' },
    { path: 'm/plain.txt', content: 'abc and axc and ab\\c\nkey\nac a c\nctrlmark too\n' },
  ];
  // Short lines after the long ones keep the mean line length under the upload's minified-file cut.
  const padded = (f: { path: string; content: string }) => (f.content.length > 2_000 ? { ...f, content: `${f.content}${'pad\n'.repeat(80)}` } : f);
  const FILES = [...AWKWARD, ...RANDOM, ...WIDE, ...META].map(padded).sort((a, b) => (a.path < b.path ? -1 : 1));

  beforeAll(async () => {
    // Through the upload protocol: the control characters' JSON escapes pass the index tool's 1 MiB body.
    const pushed = await push(PROJECT, Object.fromEntries(FILES.map(({ path, content }) => [path, content])));
    expect(pushed.sent?.status, JSON.stringify(pushed.sent?.body)).toBe(200);
    expect(pushed.commit?.status, JSON.stringify(pushed.commit?.body)).toBe(200);
  });

  const grep = async (args: Json) => {
    const { status, body } = await rest('grep', { project: PROJECT, limit: 1000, ...args });
    expect(status, JSON.stringify(body)).toBe(200);
    const entry = (key: string, code: string) => (body._meta[key] as Json[] | undefined)?.find((d) => d.code === code)?.data;
    return { result: body.result, scan: entry('diagnosis_v2', 'grep_scan'), clipped: entry('warnings_v2', 'grep_lines_clipped')?.lines ?? 0 };
  };

  const patterns: [string, { literal?: boolean; ignoreCase?: boolean }][] = [
    ...CASES,
    ...['abc', 'bca', 'abc|xyz', 'abc.*xyz', '^abc', 'abc$', '\\babc', 'ab[cd]', '(abc|bca)x', 'xyz\\s*abc', 'c\\r', 'ü.*abc', '"\\\\n', 'x(yz)?abc'].map((p): [string, { ignoreCase?: boolean }] => [p, {}]),
    ['ABC', { ignoreCase: true }],
    ['\\n', { literal: true }],
    ...['a%c', 'a_c', '[ab]c', '*?[x]', '[*?]', 'ab*c', 'a?c', 'a\\%c', '0% done_', 'a]c', 'a^c', '\u212Aey', 'KEY and'].map((p): [string, { literal: boolean }] => [p, { literal: true }]),
    ['ctrlmark', { literal: true }],
    ['a[%_]c', {}],
    ['(key|a%c) and', {}],
  ];
  it('lists, counts and clips exactly as a plain scan does', async () => {
    const mismatches: string[] = [];
    let byLines = 0;
    for (const [pattern, o] of patterns) {
      for (const ignoreCase of [o.ignoreCase ?? false, !(o.ignoreCase ?? false)]) {
        const literal = o.literal ?? false;
        const got = await grep({ pattern, literal, ignore_case: ignoreCase });
        const m = compilePattern(pattern, { literal, ignoreCase });
        const want = plainScan(FILES, plainTest(pattern, literal, ignoreCase), { limit: 1000, context: 0, mayMatch: (c) => m.mayMatch(c) });
        byLines += got.scan?.files_by_lines ?? 0;
        const seen = [got.result.matches, got.result.total_matches, got.result.files_matched, got.clipped];
        const expected = [want.matches, want.totalMatches, want.counts.length, want.clippedLines];
        if (JSON.stringify(seen) !== JSON.stringify(expected)) {
          const k = want.matches.findIndex((w, i) => JSON.stringify(w) !== JSON.stringify(got.result.matches[i]));
          const at = (ms: GrepMatch[]) => JSON.stringify(ms[k] ?? null).slice(0, 200);
          mismatches.push(`/${pattern}/ literal=${literal} ic=${ignoreCase}: ${JSON.stringify(seen.slice(1))} vs ${JSON.stringify(expected.slice(1))}; match ${k}: ${at(got.result.matches)} vs ${at(want.matches)}`);
        }
      }
    }
    expect(mismatches.slice(0, 3)).toEqual([]);
    // The comparison ran over carried lines, not whole files.
    expect(byLines).toBeGreaterThan(50);
    expect(FILES.length).toBe(AWKWARD.length + RANDOM.length + WIDE.length + META.length);
  });

  it('carries the lines of a large file, and content when D1 refuses to split a file', async () => {
    const big = await grep({ pattern: 'line abc needle', literal: true });
    expect(big.result.total_matches).toBe(800);
    expect(big.scan?.files_by_lines).toBe(1);
    // The page asked again carries the small file's lines and the large one's content.
    const refused = await grep({ pattern: 'ctrlmark', literal: true });
    expect(refused.result.total_matches).toBe(6_001);
    expect(refused.result.matches).toHaveLength(1000);
    expect(refused.result.matches[1000 - 1].path).toBe('w/controls.txt');
    expect(refused.scan?.files_by_lines).toBe(1);
  });

  it('carries lines only without context, and the answer is the same with the whole files', async () => {
    const lines = await grep({ pattern: 'needle', literal: true });
    const whole = await grep({ pattern: 'needle', literal: true, context: 1 });
    expect(lines.scan?.files_by_lines).toBeGreaterThan(0);
    expect(whole.scan?.files_by_lines).toBeUndefined();
    expect(lines.result.matches).toEqual(whole.result.matches.map(({ before: _b, after: _a, ...rest }: Json) => rest));
    expect(lines.clipped).toBe(whole.clipped);
    expect(lines.clipped).toBeGreaterThan(0);
  });
});
