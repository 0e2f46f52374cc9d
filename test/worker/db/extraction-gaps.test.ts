import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { extractionGaps, extractionGapsQuery, type ExtractionGapQuestion } from '../../../src/db/extraction-gaps';
import { indexProject } from '../graph/support';

// The extraction-gaps question (an empty answer names the files whose symbols the index may lack) seeks the
// partial indexes of migration 0022 instead of reading every file's extraction row. These hold its answers to
// the plain definition (each file against its own extraction row) and its plan.
const DB = (env as unknown as { DB: D1Database }).DB;
const P1 = 'gaps-p1';
const P2 = 'gaps-p2';
const VERSION = 7;

interface FileCase {
  project: string;
  path: string;
  hash: string;
  status: string;
  reason: string | null;
  corpus?: string;
  language?: string;
  version?: number;
}

/** Extraction rows by (hash, language, extractor version): had_errors. */
const EXTRACTIONS: [hash: string, language: string, version: number, hadErrors: number][] = [
  ['gh-ok', 'typescript', VERSION, 0],
  ['gh-half', 'typescript', VERSION, 1],
  ['gh-bad', 'python', VERSION, 1],
  ['gh-crash', 'go', VERSION, 0],
  // The same content parsed partially by an older extractor and cleanly by the current one: no gap.
  ['gh-stale', 'typescript', VERSION - 1, 1],
  ['gh-stale', 'typescript', VERSION, 0],
  // Partial as python, clean as the language the file row names: no gap.
  ['gh-lang', 'python', VERSION, 1],
  ['gh-lang', 'typescript', VERSION, 0],
  ['gh-doc', 'markdown', VERSION, 1],
  ['gh-other', 'typescript', VERSION, 1],
];

const FILES: FileCase[] = [
  { project: P1, path: 'src/ok.ts', hash: 'gh-ok', status: 'indexed', reason: null },
  { project: P1, path: 'src/half.ts', hash: 'gh-half', status: 'indexed', reason: null },
  { project: P1, path: 'bad.py', hash: 'gh-bad', status: 'failed', reason: 'parse_error', language: 'python' },
  { project: P1, path: 'cmd/crash.go', hash: 'gh-crash', status: 'failed', reason: 'timeout', language: 'go' },
  { project: P1, path: 'logs/huge.log', hash: 'gh-huge', status: 'skipped', reason: 'file_too_large', language: 'none' },
  { project: P1, path: 'assets/logo.bin', hash: 'gh-bin', status: 'skipped', reason: 'binary', language: 'none' },
  { project: P1, path: 'src/stale.ts', hash: 'gh-stale', status: 'indexed', reason: null },
  { project: P1, path: 'src/lang.ts', hash: 'gh-lang', status: 'indexed', reason: null },
  { project: P1, path: 'docs/guide.md', hash: 'gh-doc', status: 'indexed', reason: null, corpus: 'docs', language: 'markdown' },
  // A second copy of a partial content in the same project, and one in another project.
  { project: P1, path: 'vendor/half.ts', hash: 'gh-half', status: 'indexed', reason: null },
  { project: P2, path: 'lib/half.ts', hash: 'gh-half', status: 'indexed', reason: null },
  { project: P2, path: 'lib/other.ts', hash: 'gh-other', status: 'indexed', reason: null },
  { project: P2, path: 'lib/big.json', hash: 'gh-huge', status: 'skipped', reason: 'file_too_large', language: 'none' },
];

/** Content by hash: `needle` in some gap files only. */
const CONTENT: Record<string, string> = {
  'gh-ok': 'export const needle = 1;\n',
  'gh-half': 'export function needle( {\n',
  'gh-bad': 'def broken(:\n',
  'gh-crash': 'package main // needle\n',
  'gh-stale': 'needle\n',
  'gh-lang': 'needle\n',
  'gh-doc': '# needle\n',
  'gh-other': 'x\n',
};

beforeAll(async () => {
  const statements: D1PreparedStatement[] = [];
  for (const [hash, text] of Object.entries(CONTENT)) {
    statements.push(DB.prepare('INSERT INTO blobs (hash, size, content, created_at, long_lines) VALUES (?1, ?2, ?3, 0, 0)').bind(hash, text.length, text));
  }
  for (const [hash, language, version, hadErrors] of EXTRACTIONS) {
    statements.push(
      DB.prepare(
        `INSERT INTO extractions (hash, language, extractor_version, corpus, status, had_errors, created_at) VALUES (?1, ?2, ?3, 'code', 'ok', ?4, 0)`,
      ).bind(hash, language, version, hadErrors),
    );
  }
  for (const f of FILES) {
    statements.push(
      DB.prepare(
        `INSERT INTO files (project_id, path, hash, size, language, corpus, status, reason, extractor_version, indexed_at) VALUES (?1, ?2, ?3, 1, ?4, ?5, ?6, ?7, ?8, 0)`,
      ).bind(f.project, f.path, f.hash, f.language ?? 'typescript', f.corpus ?? 'code', f.status, f.reason, f.version ?? VERSION),
    );
  }
  await DB.batch(statements);
});

/** The plain definition: every file of the project against its own extraction row. */
async function definition(projectId: string, q: ExtractionGapQuestion) {
  const rows = await DB.prepare(
    `SELECT f.path, f.status, f.reason, coalesce(e.had_errors, 0) AS partial, ${q.text === null ? '0' : 'coalesce(instr(b.content, ?5) > 0, 0)'} AS mentions
       FROM files f
       LEFT JOIN extractions e ON e.hash = f.hash AND e.language = f.language AND e.extractor_version = f.extractor_version
       LEFT JOIN blobs b ON b.hash = f.hash
      WHERE f.project_id = ?1 AND (?2 IS NULL OR f.corpus = ?2) AND (?3 IS NULL OR f.path = ?3)
        AND (f.status = 'failed' OR f.reason = 'file_too_large' OR e.had_errors = 1)
      ORDER BY mentions DESC, f.path
      LIMIT ?4`,
  )
    .bind(projectId, q.corpus ?? null, q.path ?? null, q.limit, ...(q.text === null ? [] : [q.text]))
    .all<{ path: string; status: string; reason: string | null; partial: number; mentions: number }>();
  return rows.results.map((r) => ({ ...r, partial: r.partial === 1 }));
}

describe('extraction gaps', () => {
  const questions: [string, ExtractionGapQuestion][] = [
    ['every gap', { text: null, limit: 100 }],
    ['every gap, mentions first', { text: 'needle', limit: 100 }],
    ['the first two', { text: null, limit: 2 }],
    ['the first two, mentions first', { text: 'needle', limit: 2 }],
    ['one corpus', { text: 'needle', corpus: 'docs', limit: 100 }],
    ['one path', { text: null, path: 'src/half.ts', limit: 100 }],
    ['a path that is no gap', { text: 'needle', path: 'src/ok.ts', limit: 100 }],
  ];
  for (const [name, q] of questions) {
    it(`answers as the plain definition: ${name}`, async () => {
      for (const project of [P1, P2]) expect(await extractionGaps(DB, project, q)).toEqual(await definition(project, q));
    });
  }

  it('names each kind of gap once, and only the project’s own', async () => {
    const gaps = await extractionGaps(DB, P1, { text: null, limit: 100 });
    expect(gaps.map((g) => [g.path, g.status, g.partial])).toEqual([
      ['bad.py', 'failed', true],
      ['cmd/crash.go', 'failed', false],
      ['docs/guide.md', 'indexed', true],
      ['logs/huge.log', 'skipped', false],
      ['src/half.ts', 'indexed', true],
      ['vendor/half.ts', 'indexed', true],
    ]);
    expect((await extractionGaps(DB, P2, { text: null, limit: 100 })).map((g) => g.path)).toEqual(['lib/big.json', 'lib/half.ts', 'lib/other.ts']);
  });

  it('seeks the partial indexes, never every file of the project', async () => {
    const cases: [ExtractionGapQuestion, RegExp][] = [
      [{ text: 'needle', limit: 11 }, /files_gaps \(project_id=\?\)/],
      [{ text: null, corpus: 'code', limit: 11 }, /files_gaps \(project_id=\?\)/],
      // One path: its primary key, sought.
      [{ text: null, corpus: 'code', path: 'x', limit: 11 }, /sqlite_autoindex_files_1 \(project_id=\? AND path=\?\)/],
    ];
    for (const [q, failedFiles] of cases) {
      const s = extractionGapsQuery(P1, q);
      const plan = (await DB.prepare(`EXPLAIN QUERY PLAN ${s.sql}`).bind(...s.params).all<{ detail: string }>()).results.map((r) => r.detail);
      expect(plan.some((d) => failedFiles.test(d)), plan.join('\n')).toBe(true);
      expect(plan.some((d) => /SCAN e USING COVERING INDEX extractions_partial/.test(d)), plan.join('\n')).toBe(true);
      // Files are read through the gap index, their primary key, their hash or their rowid: no scan of the project's files.
      const reads = plan.filter((d) => /^(SCAN|SEARCH) f\b/.test(d));
      expect(reads.filter((d) => !(failedFiles.test(d) || /files_hash \(hash=\?\)|sqlite_autoindex_files_1 \(project_id=\? AND path=\?\)|INTEGER PRIMARY KEY/.test(d))), plan.join('\n')).toEqual([]);
    }
  });
});

describe('extraction gaps while an id’s moved file is looked for', () => {
  it('reads no gap when the symbol has moved, and the same gaps as without otherwise', async () => {
    const { id } = await indexProject('gaps-moved', {
      'src/live.ts': 'export function listen() { return 1; }\n',
      'src/broken.ts': 'export function parseAll() { return 1; }\nexport function (((\n',
    });
    const plain = await extractionGaps(DB, id, { text: 'listen', limit: 11 });
    expect(plain.map((g) => g.path)).toEqual(['src/broken.ts']);
    const moved = (path: string, qualifiedName = 'listen') => ({ names: [qualifiedName], qualifiedName, kind: 'Function', path });
    // listen#Function is in src/live.ts: an id naming it in src/old.ts has moved.
    expect(await extractionGaps(DB, id, { text: 'listen', limit: 11, unlessMoved: moved('src/old.ts') })).toEqual([]);
    expect(await extractionGaps(DB, id, { text: 'listen', limit: 11, unlessMoved: moved('src/live.ts') })).toEqual(plain);
    expect(await extractionGaps(DB, id, { text: 'listen', limit: 11, unlessMoved: moved('src/old.ts', 'listenNever') })).toEqual(plain);
    // The question is the outer loop: the gaps (materialised at their first read, inside it) are read only under it.
    const s = extractionGapsQuery(id, { text: 'listen', limit: 11, unlessMoved: moved('src/old.ts') });
    const plan = (await DB.prepare(`EXPLAIN QUERY PLAN ${s.sql}`).bind(...s.params).all<{ detail: string }>()).results.map((r) => r.detail);
    expect(plan.indexOf('SCAN gg'), plan.join('\n')).toBeGreaterThanOrEqual(0);
    expect(plan.indexOf('SCAN gg'), plan.join('\n')).toBeLessThan(plan.indexOf('SCAN g'));
  });
});
