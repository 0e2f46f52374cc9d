import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import { rest, type Json } from '../helpers';
import { edgeRow, writeSeedEdges, type SeedEdge } from '../seed-edges';

export type { SeedEdge };

export { rest, type Json };
export const DB = (env as unknown as { DB: D1Database }).DB;

/**
 * A small TypeScript tree with a call chain across folders, a fan-in hub, a
 * test caller, a module-level caller, Ruby and C files (same-file graph only)
 * and a YAML file (no graph).
 */
export const FILES: Record<string, string> = {
  'src/core/db.ts': [
    'export function query(sql: string): number {',
    '  return run(sql);',
    '}',
    '',
    'function run(sql: string): number {',
    '  return sql.length;',
    '}',
    '',
    'function orphan(): number {',
    '  return 1;',
    '}',
    '',
    'function main(): number {',
    '  return 0;',
    '}',
    '',
  ].join('\n'),
  'src/api/users.ts': [
    "import { query } from '../core/db';",
    '',
    'export class Users {',
    '  list(): number {',
    "    return query('select');",
    '  }',
    '  get(id: number): number {',
    '    return this.list() + id;',
    '  }',
    '}',
    '',
    'export function handler(): number {',
    '  return new Users().get(1);',
    '}',
    '',
  ].join('\n'),
  'src/admin/audit.ts': [
    "import { query } from '../core/db';",
    '',
    'export function audit(): number {',
    "  return query('audit') + helperLow();",
    '}',
    '',
    'function helperLow(): number {',
    '  return 2;',
    '}',
    '',
    'export function list(): number[] {',
    '  return [];',
    '}',
    '',
  ].join('\n'),
  'src/fan/hub.ts': 'export function hub(): number {\n  return 1;\n}\n',
  'src/fan/callers.ts': [
    "import { hub } from './hub';",
    ...[1, 2, 3, 4, 5, 6].map((i) => `export function c${i}(): number {\n  return hub();\n}`),
    'export function top(): number {\n  return c1();\n}',
    '',
  ].join('\n'),
  'src/boot.ts': "import { hub } from './fan/hub';\nhub();\n",
  'test/users.test.ts': ["import { handler } from '../src/api/users';", '', 'export function checkHandler(): number {', '  return handler();', '}', ''].join('\n'),
  'lib/legacy.rb': 'def lonely\n  1\nend\n\ndef other\n  lonely()\nend\n',
  'lib/util.c': 'static int helper(void) {\n  return 1;\n}\n\nstatic int used(void) {\n  return helper();\n}\n',
  'config/app.yaml': 'server:\n  port: 8080\n',
  'README.md': '# Graph fixture\n\nText.\n',
};

/** The CALLS and IMPORTS edges a resolver would find in FILES (ids checked against the index). */
export const EDGES: SeedEdge[] = [
  { src: 'src/api/users.ts::Users.list#Method', dst: 'src/core/db.ts::query#Function', line: 5, confidence: 1, provenance: 'import' },
  { src: 'src/api/users.ts::Users.get#Method', dst: 'src/api/users.ts::Users.list#Method', line: 8, confidence: 0.9, provenance: 'receiver' },
  { src: 'src/api/users.ts::handler#Function', dst: 'src/api/users.ts::Users.get#Method', line: 13, confidence: 0.9, provenance: 'receiver' },
  { src: 'test/users.test.ts::checkHandler#Function', dst: 'src/api/users.ts::handler#Function', line: 4, confidence: 1, provenance: 'import' },
  { src: 'src/admin/audit.ts::audit#Function', dst: 'src/core/db.ts::query#Function', line: 4, confidence: 0.4, provenance: 'ambiguous' },
  { src: 'src/admin/audit.ts::audit#Function', dst: 'src/admin/audit.ts::helperLow#Function', line: 4, confidence: 0.7, provenance: 'unique_name' },
  { src: 'src/core/db.ts::query#Function', dst: 'src/core/db.ts::run#Function', line: 2, confidence: 0.95, provenance: 'same_file' },
  ...[1, 2, 3, 4, 5, 6].map((i) => ({ src: `src/fan/callers.ts::c${i}#Function`, dst: 'src/fan/hub.ts::hub#Function', line: 3 * i, confidence: 1, provenance: 'import' })),
  { src: 'src/fan/callers.ts::top#Function', dst: 'src/fan/callers.ts::c1#Function', line: 21, confidence: 0.95, provenance: 'same_file' },
  { src: null, srcFile: 'src/boot.ts', dst: 'src/fan/hub.ts::hub#Function', line: 2, confidence: 1, provenance: 'import' },
  { kind: 'IMPORTS', src: null, srcFile: 'src/api/users.ts', dst: 'src/core/db.ts::query#Function', line: 1, confidence: 1, provenance: 'import' },
  { kind: 'IMPORTS', src: null, srcFile: 'src/admin/audit.ts', dst: 'src/core/db.ts::query#Function', line: 1, confidence: 1, provenance: 'import' },
  { kind: 'IMPORTS', src: null, srcFile: 'test/users.test.ts', dst: null, dstFile: 'src/api/users.ts', line: 1, confidence: 1, provenance: 'module' },
  { kind: 'IMPORTS', src: null, srcFile: 'src/fan/callers.ts', dst: 'src/fan/hub.ts::hub#Function', line: 1, confidence: 1, provenance: 'import' },
  { src: 'lib/legacy.rb::other#Function', dst: 'lib/legacy.rb::lonely#Function', line: 6, confidence: 0.95, provenance: 'same_file' },
  { src: 'lib/util.c::used#Function', dst: 'lib/util.c::helper#Function', line: 6, confidence: 0.95, provenance: 'same_file' },
];

/** What a pushed SCIP index adds to EDGES: `audit` passes `orphan` as a value (used, never called). */
export const ORPHAN_REFERENCE: SeedEdge = { kind: 'REFERENCES', src: 'src/admin/audit.ts::audit#Function', dst: 'src/core/db.ts::orphan#Function', line: 5, confidence: 1, provenance: 'scip' };

/** Indexes `files` into `name` through the index tool; returns the project id and its symbol ids. */
export async function indexProject(name: string, files: Record<string, string>): Promise<{ id: string; ids: Set<string> }> {
  const r = await rest('index', { project: name, files: Object.entries(files).map(([path, content]) => ({ path, content })) });
  expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
  const row = await DB.prepare('SELECT id FROM projects WHERE name = ?1').bind(name).first<{ id: string }>();
  const ids = await DB.prepare('SELECT id FROM symbols WHERE project_id = ?1').bind(row!.id).all<{ id: string }>();
  return { id: row!.id, ids: new Set(ids.results.map((x) => x.id)) };
}

/**
 * Replaces the project's edges with `edges` (every symbol id must exist) and
 * marks the graph current, as the commit-time resolution pass leaves it.
 */
export async function seedEdges(project: { id: string; ids: Set<string> }, edges: readonly SeedEdge[], opts: { current?: boolean } = {}): Promise<void> {
  for (const e of edges) {
    for (const id of [e.src, e.dst]) if (id !== null) expect(project.ids, `seed edge names unknown symbol ${id}`).toContain(id);
  }
  await writeSeedEdges(project.id, edges.map((e) => edgeRow(e, { confidence: 1, provenance: 'import' })), { pending: opts.current === false });
}

/** Runs a next step through REST and checks it succeeds without unknown parameters. */
export async function runStep(step: Json): Promise<Json> {
  const r = await rest(step.tool, step.args);
  expect(r.status, `${step.tool} ${JSON.stringify(step.args)}: ${JSON.stringify(r.body).slice(0, 300)}`).toBe(200);
  expect((r.body._meta.warnings_v2 ?? []).filter((w: Json) => w.code === 'unknown_arg')).toEqual([]);
  return r.body;
}

export const codes = (entries: Json[] | undefined): string[] => (entries ?? []).map((e) => e.code);
