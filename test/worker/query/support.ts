import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import { rest, type Json } from '../helpers';
import { edgeRow, writeSeedEdges, type SeedEdge } from '../seed-edges';

export type { SeedEdge };

export { rest, type Json };
export const DB = (env as unknown as { DB: D1Database }).DB;

/**
 * A small tree: a TypeScript call chain with a cycle (run ⇄ execute), a class
 * implementing an interface, a test file, a Ruby file (same-file graph only)
 * and a YAML file (no graph at all).
 */
export const FILES: Record<string, string> = {
  'src/core/db.ts': [
    'export function query(sql: string): number {',
    '  return run(sql);',
    '}',
    '',
    'function run(sql: string): number {',
    '  return execute(sql);',
    '}',
    '',
    'function execute(sql: string): number {',
    '  return run(sql) + 1;',
    '}',
    '',
    '/** Loads one user. */',
    'export function getUserById(id: number): number {',
    "  return query('by id');",
    '}',
    '',
    'export function getUserByName(name: string): number {',
    '  return query(name);',
    '}',
    '',
    'export function setUser(id: number): void {}',
    '',
  ].join('\n'),
  'src/api/handler.ts': [
    "import { getUserById } from '../core/db';",
    '',
    'export interface Service {',
    '  serve(): void;',
    '}',
    '',
    'export class Handler implements Service {',
    '  handle(id: number): number {',
    '    return getUserById(id);',
    '  }',
    '  serve(): void {}',
    '}',
    '',
    'export const VERSION = 3;',
    '',
  ].join('\n'),
  'src/api/handler.test.ts': "import { Handler } from './handler';\n\nexport function testHandle(): number {\n  return new Handler().handle(1);\n}\n",
  'lib/util.rb': 'def helper\n  1\nend\n\ndef caller_one\n  helper\nend\n',
  'config/app.yaml': 'server:\n  port: 8080\n',
};

export const ID = {
  query: 'src/core/db.ts::query#Function',
  run: 'src/core/db.ts::run#Function',
  execute: 'src/core/db.ts::execute#Function',
  byId: 'src/core/db.ts::getUserById#Function',
  byName: 'src/core/db.ts::getUserByName#Function',
  setUser: 'src/core/db.ts::setUser#Function',
  service: 'src/api/handler.ts::Service#Interface',
  handler: 'src/api/handler.ts::Handler#Class',
  handle: 'src/api/handler.ts::Handler.handle#Method',
  testHandle: 'src/api/handler.test.ts::testHandle#Function',
  helper: 'lib/util.rb::helper#Function',
  callerOne: 'lib/util.rb::caller_one#Function',
} as const;

/** Pushes `files` into `project` through the index tool; returns the project id. */
export async function indexProject(project: string, files: Record<string, string> = FILES): Promise<string> {
  const r = await rest('index', { project, files: Object.entries(files).map(([path, content]) => ({ path, content })) });
  expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
  const row = await DB.prepare('SELECT id FROM projects WHERE name = ?1').bind(project).first<{ id: string }>();
  if (!row) throw new Error(`project ${project} not found after indexing`);
  return row.id;
}

/**
 * Replaces the project's edges with `edges` (every id must be a real symbol of
 * the project) and marks the graph as built for the visible index.
 */
export async function seedEdges(project: string, edges: readonly SeedEdge[]): Promise<void> {
  const row = await DB.prepare('SELECT id FROM projects WHERE name = ?1').bind(project).first<{ id: string }>();
  if (!row) throw new Error(`no project ${project}`);
  const ids = [...new Set(edges.flatMap((e) => [e.src, e.dst]).filter((x): x is string => x !== null))];
  const found = await DB.prepare('SELECT id FROM symbols WHERE project_id = ?1 AND id IN (SELECT value FROM json_each(?2))').bind(row.id, JSON.stringify(ids)).all<{ id: string }>();
  const missing = ids.filter((id) => !found.results.some((r) => r.id === id));
  if (missing.length) throw new Error(`seed edges name symbols the project lacks: ${missing.join(', ')}`);
  await writeSeedEdges(row.id, edges.map((e) => edgeRow({ ...e, name: e.name ?? (e.dst ? undefined : 'module') }, { confidence: 0.95, provenance: 'same_file' })));
}

/** The graph of FILES: a chain into query, a run ⇄ execute cycle, an import, an implementation, a test caller, a Ruby call, a module-level import. */
export const EDGES: SeedEdge[] = [
  { src: ID.byId, dst: ID.query, line: 15 },
  { src: ID.byName, dst: ID.query, line: 19 },
  { src: ID.query, dst: ID.run, line: 2 },
  { src: ID.run, dst: ID.execute, line: 6 },
  { src: ID.execute, dst: ID.run, line: 10 },
  { src: ID.handle, dst: ID.byId, line: 9, provenance: 'import', confidence: 1 },
  { src: ID.testHandle, dst: ID.handle, line: 4, provenance: 'receiver', confidence: 0.9 },
  { kind: 'IMPLEMENTS', src: ID.handler, dst: ID.service, line: 7, provenance: 'same_file', name: 'Service' },
  { kind: 'IMPORTS', src: null, srcFile: 'src/api/handler.ts', dst: ID.byId, line: 1, provenance: 'import', confidence: 1, name: '../core/db' },
  { kind: 'IMPORTS', src: null, srcFile: 'src/api/handler.test.ts', dst: null, dstFile: 'src/api/handler.ts', line: 1, provenance: 'module', confidence: 1, name: './handler' },
  { src: ID.callerOne, dst: ID.helper, line: 6 },
];

/** POST /v1/tools/query. */
export function query(project: string, text: string, extra: Json = {}) {
  return rest('query', { project, query: text, ...extra });
}
