import { beforeAll, describe, expect, it } from 'vitest';
import { fileSymbols, pathSeedSymbols, type SymbolRow } from '../../../src/db/source';
import { DB, indexProject } from '../graph/support';
import { recording } from '../recording-d1';

// A task's path seeds its file's symbols (src/composites/seeds.ts). The pick is made in SQL, so only the picked rows
// leave D1; these hold it to the rule as stated over every row of the file: with a line, the innermost symbol spanning
// it (a Markdown section only at the top level); without, the first top-level symbols, exported ones first.
const FILES: Record<string, string> = {
  'src/mixed.ts': [
    'function first(): number {',
    '  return 1;',
    '}',
    '',
    'export class Box {',
    '  open(): number {',
    '    const inner = 2;',
    '    return inner;',
    '  }',
    '  close(): number {',
    '    return 3;',
    '  }',
    '}',
    '',
    'export function last(): number {',
    '  return 4;',
    '}',
    '',
    'function hidden(): number {',
    '  return 5;',
    '}',
    '',
  ].join('\n'),
  'docs/guide.md': ['# Guide', '', 'Intro.', '', '## Install', '', 'Steps.', '', '### From source', '', 'Build it.', '', '# Reference', '', 'Text.', ''].join('\n'),
  'src/empty.ts': '// nothing defined here\n',
};

const PER_FILE = 2;

/** The rule as stated, over every row of the file in fileSymbols' order. */
function expected(rows: readonly SymbolRow[], line: number | undefined): string[] {
  const symbols = rows.filter((s) => s.language !== 'markdown' || s.parent === null);
  if (line !== undefined) {
    return symbols
      .filter((s) => s.start_line <= line && line <= s.end_line)
      .sort((a, b) => a.end_line - a.start_line - (b.end_line - b.start_line))
      .slice(0, 1)
      .map((s) => s.id);
  }
  return symbols
    .filter((s) => s.parent === null)
    .sort((a, b) => b.is_exported - a.is_exported || a.start_byte - b.start_byte)
    .slice(0, PER_FILE)
    .map((s) => s.id);
}

let project: { id: string };

beforeAll(async () => {
  project = await indexProject('db-path-seeds', FILES);
});

describe('a path’s seed symbols', () => {
  it('are the rule’s picks for every line of each file and for none, read through the file’s id range', async () => {
    const { d1, seen } = recording();
    for (const [path, text] of Object.entries(FILES)) {
      const rows = await fileSymbols(DB, project.id, path);
      const lines = text.split('\n').length;
      for (const line of [undefined, ...Array.from({ length: lines + 1 }, (_, i) => i + 1)]) {
        const got = await pathSeedSymbols(d1, project.id, path, line, PER_FILE);
        expect(got.map((s) => s.id), `${path} line ${line}`).toEqual(expected(rows, line));
        // Whole rows, as fileSymbols reads them.
        for (const s of got) expect(s).toStrictEqual(rows.find((r) => r.id === s.id));
      }
    }
    for (const s of seen) {
      const plan = await DB.prepare(`EXPLAIN QUERY PLAN ${s.sql}`)
        .bind(...s.args)
        .all<{ detail: string }>();
      const text = plan.results.map((r) => r.detail).join('\n');
      expect(text).toMatch(/SEARCH s USING INDEX symbols_project_id \(project_id=\? AND id>\? AND id<\?\)/);
    }
  });

  it('picks a nested symbol for its line, an exported one first without a line, and no Markdown subsection', async () => {
    const ids = async (path: string, line?: number) => (await pathSeedSymbols(DB, project.id, path, line, PER_FILE)).map((s) => s.id);
    expect(await ids('src/mixed.ts')).toEqual(['src/mixed.ts::Box#Class', 'src/mixed.ts::last#Function']);
    expect(await ids('src/mixed.ts', 7)).toEqual(['src/mixed.ts::Box.open#Method']);
    expect(await ids('src/mixed.ts', 5)).toEqual(['src/mixed.ts::Box#Class']);
    expect(await ids('src/mixed.ts', 11)).toEqual(['src/mixed.ts::Box.close#Method']);
    expect(await ids('src/mixed.ts', 18)).toEqual([]);
    // Line 11 of the guide is in "From source", a subsection: only its top-level section seeds.
    const sections = await fileSymbols(DB, project.id, 'docs/guide.md');
    expect(sections.filter((s) => s.parent !== null && s.start_line <= 11 && 11 <= s.end_line).length).toBeGreaterThan(0);
    const top = await ids('docs/guide.md', 11);
    expect(top).toHaveLength(1);
    expect(top[0]).toMatch(/^docs\/guide\.md::Guide#/);
    expect(await ids('src/empty.ts')).toEqual([]);
    expect(await ids('src/absent.ts', 3)).toEqual([]);
  });
});
