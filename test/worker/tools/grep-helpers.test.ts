import { describe, expect, it } from 'vitest';
import { PincherError } from '../../../src/errors';
import { dotStarChain } from '../../../src/regex/chain';
import { compilePattern } from '../../../src/tools/grep/pattern';
import { ftsMatch, requiredOfLiteral, requiredOfRegex, satisfies, type Required } from '../../../src/regex/literals';
import { parseRegex } from '../../../src/regex/regex-ast';
import { unsafePattern } from '../../../src/regex/regex-safety';
import { nextPageSize } from '../../../src/tools/grep/run';
import { parseSize } from '../../../src/tools/grep/sizes';

function literals(r: Required): string[] {
  if (r === null) return [];
  return r.op === 'lit' ? [r.s] : r.items.flatMap(literals);
}

describe('required literals of a regex', () => {
  const cases: [string, boolean, Required][] = [
    ['handle_request\\(', false, { op: 'lit', s: 'handle_request(' }],
    ['foo\\d+bar', false, { op: 'and', items: [{ op: 'lit', s: 'foo' }, { op: 'lit', s: 'bar' }] }],
    ['(?:get|set)Value', false, { op: 'or', items: [{ op: 'lit', s: 'getValue' }, { op: 'lit', s: 'setValue' }] }],
    // Exact sets: an optional part or a small class keeps the literal whole on either side.
    ['export (async )?function \\w+', false, { op: 'or', items: [{ op: 'lit', s: 'export async function ' }, { op: 'lit', s: 'export function ' }] }],
    ['[gs]et_[xy]\\(', false, { op: 'or', items: ['get_x(', 'get_y(', 'set_x(', 'set_y('].map((s) => ({ op: 'lit' as const, s })) }],
    ['(?:a|b|c)(?:d|e|f)(?:g|h|i)xyz', false, { op: 'or', items: ['gxyz', 'hxyz', 'ixyz'].map((s) => ({ op: 'lit' as const, s })) }],
    ['(ab|cd)+xyz', false, { op: 'lit', s: 'xyz' }],
    ['ab', false, null],
    ['\\d{4}-\\d{2}', false, null],
    ['colou?r', false, { op: 'or', items: [{ op: 'lit', s: 'colour' }, { op: 'lit', s: 'color' }] }],
    ['(ab)+c', false, { op: 'lit', s: 'abc' }],
    ['x(abc)+y', false, { op: 'and', items: [{ op: 'lit', s: 'xabc' }, { op: 'lit', s: 'abcy' }, { op: 'lit', s: 'abc' }] }],
    ['^import .* from', false, { op: 'and', items: [{ op: 'lit', s: 'import ' }, { op: 'lit', s: ' from' }] }],
    ['a{3}b', false, { op: 'lit', s: 'aaab' }],
    ['foo|ba', false, null],
    ['über_alles', true, { op: 'lit', s: 'ber_alles' }],
    ['\\bTODO\\b', false, { op: 'lit', s: 'TODO' }],
  ];
  for (const [pattern, ic, expected] of cases) {
    it(`extracts ${JSON.stringify(expected)} from /${pattern}/${ic ? 'i' : ''}`, () => {
      expect(requiredOfRegex(parseRegex(pattern), ic)).toEqual(expected);
    });
  }

  it('splits a fixed string at non-ASCII characters under ignore_case only', () => {
    expect(requiredOfLiteral('Straße_x', false)).toEqual({ op: 'lit', s: 'Straße_x' });
    expect(requiredOfLiteral('Straße_x', true)).toEqual({ op: 'and', items: [{ op: 'lit', s: 'Stra' }, { op: 'lit', s: 'e_x' }] });
  });

  it('turns each literal into an AND of its trigrams (detail=none refuses phrases)', () => {
    const m = ftsMatch({ op: 'or', items: [{ op: 'lit', s: 'get"x' }, { op: 'lit', s: 'abc' }] });
    expect(m?.match).toBe('("get" AND "et""" AND "t""x") OR ("abc")');
  });

  it('gives each literal of a wide disjunction fewer trigrams rather than dropping the prefilter', () => {
    const words = ['alphaBetaGamma', 'deltaEpsilonZeta', 'etaThetaIotaKappa', 'lambdaMuNuXiOmicron', 'piRhoSigmaTau', 'upsilonPhiChiPsi', 'omegaAlephBeth'];
    const m = ftsMatch({ op: 'or', items: words.map((s) => ({ op: 'lit' as const, s })) });
    expect(m?.literals).toEqual(words);
    const terms = m?.match.split(/ AND | OR /).length ?? 0;
    expect(terms).toBeGreaterThanOrEqual(words.length);
    expect(terms).toBeLessThanOrEqual(64);
  });

  it('takes every trigram of a literal when they fit (the index keeps no positions: each one left out lets more files through)', () => {
    const m = ftsMatch({ op: 'lit', s: 'export function ' });
    expect(m?.match.split(' AND ')).toHaveLength('export function '.length - 2);
  });

  // Soundness: whenever the regex matches a line, the line satisfies the extracted formula.
  it('never extracts a literal a matching line lacks (randomised)', () => {
    let seed = 42;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const atoms = ['a', 'b', 'c', 'A', 'B', '_', 'ü', 'Ü', '.', '[ab]', '[^a]', '\\w', '\\b', '^', '$', '(?=a)', '(?!b)', '\\1'];
    const gen = (depth: number): string => {
      const n = 1 + rand(5);
      let out = '';
      for (let i = 0; i < n; i++) {
        let atom = depth > 0 && rand(4) === 0 ? `(${gen(depth - 1)}${rand(2) ? `|${gen(depth - 1)}` : ''})` : atoms[rand(atoms.length)];
        const q = rand(10);
        if (q === 0) atom += '*';
        else if (q === 1) atom += '+';
        else if (q === 2) atom += '?';
        else if (q === 3) atom += `{${rand(3)}}`;
        else if (q === 4) atom += `{1,${1 + rand(3)}}`;
        out += atom;
      }
      return out;
    };
    const alphabet = ['a', 'b', 'c', 'A', 'B', 'C', '_', 'ü', 'Ü', ' '];
    let checked = 0;
    for (let p = 0; p < 400; p++) {
      const pattern = gen(2);
      for (const ic of [false, true]) {
        let re: RegExp;
        try {
          re = new RegExp(pattern, ic ? 'i' : '');
        } catch {
          continue;
        }
        const req = requiredOfRegex(parseRegex(pattern), ic);
        for (let l = 0; l < 150; l++) {
          const line = Array.from({ length: rand(14) }, () => alphabet[rand(alphabet.length)]).join('');
          if (re.test(line)) {
            checked++;
            expect(satisfies(req, line, ic), `/${pattern}/${ic ? 'i' : ''} matched ${JSON.stringify(line)} but required ${JSON.stringify(literals(req))}`).toBe(true);
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });
});

describe('catastrophic-backtracking guard', () => {
  const unsafe: [string, string][] = [
    ['(a+)+$', 'nested_quantifier'],
    ['(.*)*x', 'nested_quantifier'],
    ['(\\w+\\s?)*$', 'nested_quantifier'],
    ['^(x.*)+y', 'nested_quantifier'],
    ['((ab)*c?)+d', 'nested_quantifier'],
    ['(a|aa)+b', 'overlapping_alternation'],
    ['(.|\\s)*z', 'overlapping_alternation'],
    ['\\w+\\s*\\w+!', 'stacked_quantifiers'],
    ['\\w+a\\w+b\\w+c', 'stacked_quantifiers'],
    ['(x)\\1.*a.*b', 'stacked_quantifiers'],
    ['a\\w*b\\w*c', 'stacked_quantifiers'],
    ['foo.*get\\w*By\\w*Id', 'stacked_quantifiers'],
    ['(?=(a+)+b)', 'nested_quantifier'],
  ];
  for (const [pattern, rule] of unsafe) {
    it(`refuses /${pattern}/ as ${rule}`, () => {
      expect(() => compilePattern(pattern, { literal: false, ignoreCase: false })).toThrow(PincherError);
      const ast = parseRegex(pattern);
      expect(unsafePattern(ast, false, dotStarChain(pattern, ast, false)?.separators)?.rule).toBe(rule);
    });
  }
  const safe = ['.*.*x', 'a.*b.*c.*d.*e', '\\w+.*foo.*bar', '"[^"]*":\\s*"[^"]*"', '\\s*\\w+\\s*=', '[A-Z]\\w*[A-Z]', 'get[^B]*By\\w*Id', '(\\w+\\.)+\\w+', '(\\.\\w+)+', '(\\s*,\\s*\\w+)*', 'foo.*bar', '\\w+\\s+\\w+', '(get|set)+', '(ab+)+', 'a{2,3}', 'x(abc){2}y', '^\\s*import .* from [\'"]'];
  for (const pattern of safe) {
    it(`accepts /${pattern}/`, () => {
      expect(() => compilePattern(pattern, { literal: false, ignoreCase: false })).not.toThrow();
    });
  }
});

describe('accepted patterns stay fast on adversarial lines', () => {
  it('runs every accepted random pattern over dense 2,000-character lines in bounded time (randomised)', () => {
    let seed = 99;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const atoms = ['a', 'b', 'ab', '\\w', '.', '[ab]', '[^b]', '\\s', ' ', 'x', '\\b'];
    const quants = ['', '', '*', '+', '?', '{2,}', '*?'];
    const gen = (depth: number): string => {
      let out = '';
      for (let i = 0, n = 1 + rand(4); i < n; i++) {
        const atom = depth > 0 && rand(3) === 0 ? `(${gen(depth - 1)}${rand(3) === 0 ? `|${gen(depth - 1)}` : ''})` : atoms[rand(atoms.length)];
        out += atom + quants[rand(quants.length)];
      }
      return out;
    };
    const lines = ['ab'.repeat(1000), 'a'.repeat(2000), 'a b '.repeat(500), 'ab x'.repeat(500)];
    let accepted = 0;
    const slow: string[] = [];
    for (let p = 0; p < 600; p++) {
      // A final '!' that no line holds forces every match attempt to fail: worst-case backtracking.
      const pattern = `${gen(2)}${rand(2) ? '!' : '.*!'}`;
      let m;
      try {
        m = compilePattern(pattern, { literal: false, ignoreCase: false });
      } catch {
        continue;
      }
      accepted++;
      for (const line of lines) {
        const t0 = Date.now();
        if (m.mayMatch(line)) m.test(line);
        const ms = Date.now() - t0;
        // Catastrophic backtracking on 2,000 characters takes minutes; a quadratic pattern such as
        // /..*!/ takes tens of milliseconds idle and a few hundred on a loaded 2-core runner.
        if (ms > 1000) slow.push(`/${pattern}/ ${ms} ms on ${line.slice(0, 8)}…`);
      }
    }
    expect(slow).toEqual([]);
    expect(accepted).toBeGreaterThan(200);
  }, 60_000);
});

describe('linear .* chains', () => {
  it('answers a.*b.*c on a dense 2,000-character line in milliseconds (V8 alone takes seconds)', () => {
    const line = 'ab'.repeat(1000);
    for (const pattern of ['a.*b.*c', '.*a.*c', '\\w+.*b.*c', 'a.*?b.*?c']) {
      const m = compilePattern(pattern, { literal: false, ignoreCase: false });
      const t0 = Date.now();
      expect(m.test(line)).toBe(false);
      expect(m.test(`${line}c`)).toBe(true);
      expect(Date.now() - t0, pattern).toBeLessThan(200);
    }
  });

  it('agrees with the plain regex on every line (randomised)', () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const parts = ['a', 'b', 'ab', '[ab]', '\\w', '\\w+', 'a?', '^', '$', '\\b', '(?=b)', '(?<=a)', '(a|bc)', 'x{2}', '.', 'A'];
    const alphabet = ['a', 'b', 'c', 'x', 'A', ' ', '\r'];
    let compared = 0;
    const mismatches: string[] = [];
    for (let p = 0; p < 300; p++) {
      const n = 2 + rand(4);
      const pieces = Array.from({ length: n }, () => parts[rand(parts.length)]);
      let pattern = pieces.join(rand(2) ? '.*' : '.*?');
      if (rand(4) === 0) pattern = `${pattern}|${parts[rand(parts.length)]}.*c`;
      for (const ic of [false, true]) {
        const ast = parseRegex(pattern);
        const chain = dotStarChain(pattern, ast, ic);
        if (!chain) continue;
        const re = new RegExp(pattern, ic ? 'i' : '');
        for (let l = 0; l < 100; l++) {
          const line = Array.from({ length: rand(16) }, () => alphabet[rand(alphabet.length)]).join('');
          compared++;
          if (chain.test(line) !== re.test(line)) mismatches.push(`/${pattern}/${ic ? 'i' : ''} on ${JSON.stringify(line)}`);
        }
      }
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
    expect(compared).toBeGreaterThan(20_000);
  });
});

describe('sizes', () => {
  it('reads bytes and K/M/G units (powers of 1024)', () => {
    expect(parseSize(512)).toBe(512);
    expect(parseSize('512')).toBe(512);
    expect(parseSize('10k')).toBe(10240);
    expect(parseSize('2MB')).toBe(2 * 1024 * 1024);
    expect(parseSize('1.5m')).toBe(1572864);
    expect(parseSize('1 gb')).toBe(1024 ** 3);
    expect(parseSize('-1')).toBeNull();
    expect(parseSize(-5)).toBeNull();
    expect(parseSize('10q')).toBeNull();
  });
});

describe('the next prefilter page', () => {
  it('grows twice, four times with lines, up to 512 files, when nothing is listed or the listing counts every file', () => {
    expect(nextPageSize(32, false, null)).toEqual({ files: 64, sized: false });
    expect(nextPageSize(32, true, null)).toEqual({ files: 128, sized: false });
    expect(nextPageSize(256, true, null)).toEqual({ files: 512, sized: false });
    expect(nextPageSize(32, true, { need: 100, listed: 0, walked: 32, sized: false })).toEqual({ files: 128, sized: false });
  });

  it('asks a listing for twice the files its missing matches take at the density seen, at least 8, at most the grown page', () => {
    // 50 matches over 32 files; 50 more take about 32 files: 64 are asked.
    expect(nextPageSize(32, true, { need: 50, listed: 50, walked: 32, sized: false })).toEqual({ files: 64, sized: true });
    expect(nextPageSize(32, true, { need: 1, listed: 99, walked: 32, sized: false })).toEqual({ files: 8, sized: true });
    expect(nextPageSize(32, true, { need: 90, listed: 10, walked: 32, sized: false })).toEqual({ files: 128, sized: false });
    expect(nextPageSize(32, false, { need: 90, listed: 10, walked: 32, sized: false })).toEqual({ files: 64, sized: false });
  });

  it('at least doubles a sized page that fell short, so a sparse tail takes few pages', () => {
    let size = 8;
    let pages = 0;
    let sized = true;
    // 99 of 100 listed and nothing more found: each page is at least twice the last, up to 512.
    for (let walked = 40; size < 512; pages++) {
      ({ files: size, sized } = nextPageSize(size, true, { need: 1, listed: 99, walked, sized }));
      walked += size;
    }
    expect(pages).toBeLessThanOrEqual(6);
    expect(sized).toBe(false);
  });
});

describe('a fixed-string pattern (each line passing its check is a match)', () => {
  it.each([
    ['withReplicas', false, true],
    ['throw new Error(', true, true],
    ['a.b', true, true],
    ['a.b', false, false],
    ['class \\w+Error', false, false],
    ['foo|bar', false, false],
    ['x?', false, false],
    ['snake_case_name', false, true],
    ['throw new Error\\(', false, true],
    ['a\\.b\\[0\\]', false, true],
    ['\\bfoo', false, false],
    ['a\\d', false, false],
    ['tab\\there', false, false],
  ])('%s (literal %s): %s', (pattern, literal, fixed) => {
    expect(compilePattern(pattern, { literal, ignoreCase: false }).fixed).toBe(fixed);
    expect(compilePattern(pattern, { literal, ignoreCase: true }).fixed).toBe(fixed);
  });
});
