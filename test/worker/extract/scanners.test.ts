import { describe, expect, it } from 'vitest';
import { extractFile } from '../../../src/extract/index';

const outline = (r: { symbols: { key: string; start_line: number; end_line: number }[] }): [string, number, number][] =>
  r.symbols.map((s) => [s.key, s.start_line, s.end_line]);

describe('markdown (docs corpus)', () => {
  it('ignores headings inside fenced code blocks of either fence style', async () => {
    const md = '# A\n\n```md\n# not one\n```\n\n~~~~\n## nor this\n```\n~~~~\n\n## B\ntext\n';
    const r = await extractFile('README.md', md);
    expect(r.corpus).toBe('docs');
    expect(outline(r)).toEqual([
      ['A#Section', 1, 13],
      ['A > B#Section', 12, 13],
    ]);
  });

  it('ends a section before the next heading of the same or a higher level', async () => {
    const md = '## Deep first\nx\n# Top\n### Three\ny\n## Two\nz\n# Next\n';
    expect(outline(await extractFile('a.md', md))).toEqual([
      ['Deep first#Section', 1, 2],
      ['Top#Section', 3, 7],
      ['Top > Three#Section', 4, 5],
      ['Top > Two#Section', 6, 7],
      ['Next#Section', 8, 8],
    ]);
  });

  it('does not read a thematic break or a list item as a setext heading', async () => {
    const md = '# A\n\n---\n\n- item\n---\nPara\n===\n';
    expect(outline(await extractFile('a.mdx', md)).map(([k]) => k)).toEqual(['A#Section', 'Para#Section']);
  });
});

describe('json (config corpus)', () => {
  it('makes top-level keys settings and tolerates comments and trailing commas', async () => {
    const json = '/* header */\n{\n  "a": 1, // one\n  "b": {\n    "nested": [1, 2, {"x": "}"}]\n  },\n  "c\\"q": "s",\n}\n';
    const r = await extractFile('tsconfig.json', json);
    expect(r.corpus).toBe('config');
    expect(r.had_errors).toBe(false);
    expect(outline(r)).toEqual([
      ['a#Setting', 3, 3],
      ['b#Setting', 4, 6],
      ['c"q#Setting', 7, 7],
    ]);
    expect(r.symbols[1].signature).toBe('"b": {…}');
  });

  it('has no settings for a top-level array', async () => {
    const r = await extractFile('data.json', '[{"a": 1}]');
    expect(r.symbols).toEqual([]);
    expect(r.had_errors).toBe(false);
  });

  it('flags broken JSON and keeps the keys read before the break, at lower confidence', async () => {
    const r = await extractFile('bad.json', '{\n  "a": 1,\n  "b": [1, 2\n');
    expect(r.had_errors).toBe(true);
    expect(r.symbols.map((s) => s.name)).toEqual(['a', 'b']);
    expect(r.symbols[0].extraction_confidence).toBeLessThan(1);
  });
});

describe('yaml (config corpus)', () => {
  it('takes column-0 keys only and stops at document markers', async () => {
    const yaml = 'a: 1\nb:\n  c: 2\n  d:\n    - e: 3\n# trailing comment\n---\nf: |\n  g: not a key\nh: "x: y"\n';
    expect(outline(await extractFile('x.yml', yaml))).toEqual([
      ['a#Setting', 1, 1],
      ['b#Setting', 2, 5],
      ['f#Setting', 8, 9],
      ['h#Setting', 10, 10],
    ]);
  });
});

describe('toml (config corpus)', () => {
  it('reads top-level keys and table headers, not lines inside multi-line values', async () => {
    const toml = 'a = 1\nb = """\n[x]\nc = 2\n"""\narr = [\n  "[y]",\n]\n[t]\nk = 1\n\n[[u]]\n[[u]]\n';
    expect(outline(await extractFile('pyproject.toml', toml))).toEqual([
      ['a#Setting', 1, 1],
      ['b#Setting', 2, 5],
      ['arr#Setting', 6, 8],
      ['t#Setting', 9, 10],
      ['u#Setting', 12, 12],
      ['u#Setting~2', 13, 13],
    ]);
  });

  it('flags an unterminated multi-line string', async () => {
    const r = await extractFile('a.toml', 'a = """\nnever closed\n');
    expect(r.had_errors).toBe(true);
  });
});
