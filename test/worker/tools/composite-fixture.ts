import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import { rest, type Json } from '../helpers';
import { EDGE_CODE_COLUMNS, edgeCodesSql } from '../../../src/db/edge-columns';

const DB = (env as unknown as { DB: D1Database }).DB;

/**
 * A small TypeScript project with a Python, Go, Java and Rust file for the
 * trace formats. Line numbers matter: the edges below point at them.
 */
export const FILES: Record<string, string> = {
  'src/app.ts': [
    "import { listen } from './net';",
    '',
    'export class Server {',
    '  start(port: number): void {',
    '    listen(port);',
    '  }',
    '  stop(): void {}',
    '}',
    '',
  ].join('\n'),
  'src/net.ts': [
    'export function listen(port: number): number {',
    '  return bind(port) + 1;',
    '}',
    'function bind(port: number): number {',
    '  return port;',
    '}',
    '',
  ].join('\n'),
  'src/main.ts': ["import { Server } from './app';", 'export function main(): void {', '  new Server().start(80);', '}', ''].join('\n'),
  'test/app.test.ts': ["import { Server } from '../src/app';", 'export function testStart(): void {', '  new Server().start(1);', '}', ''].join('\n'),
  'test/net.test.ts': ["import { listen } from '../src/net';", 'export function testListen(): void {', '  listen(1);', '}', ''].join('\n'),
  'py/service.py': ['import os', '', 'def load_user(uid):', '    raise KeyError(uid)', '', 'def handle(uid):', '    return load_user(uid)', ''].join('\n'),
  'go/server.go': ['package main', '', 'type Server struct{}', '', 'func (s *Server) Handle() {', '\tpanic("boom")', '}', ''].join('\n'),
  'java/src/main/java/com/example/app/Repo.java': ['package com.example.app;', '', 'public class Repo {', '  public void load() {', '    throw new IllegalStateException("x");', '  }', '}', ''].join('\n'),
  'rs/src/parse.rs': ['pub fn parse_line(s: &str) -> u32 {', '    s.parse().unwrap()', '}', ''].join('\n'),
  'notes.txt': 'plain text\nwith lines\n',
  'src/empty.ts': '// only a comment, no symbol\n',
  'src/big.ts': `export class Big {\n${['alpha', 'beta', 'gamma'].map((m) => `  ${m}(): number {\n${Array.from({ length: 12 }, (_, i) => `    const v${i} = ${i}; // ${'x'.repeat(40)}`).join('\n')}\n    return 0;\n  }`).join('\n')}\n}\n`,
  'a/util.py': 'def helper():\n    return 1\n',
  'b/util.py': 'def helper():\n    return 2\n',
  'py/docs.py': `def documented():\n    """${'A very long explanation of what this does. '.repeat(40)}"""\n    return 1\n`,
  'README.md': '# Project\n\nSome docs.\n',
};

export const ID = {
  start: 'src/app.ts::Server.start#Method',
  stop: 'src/app.ts::Server.stop#Method',
  server: 'src/app.ts::Server#Class',
  listen: 'src/net.ts::listen#Function',
  bind: 'src/net.ts::bind#Function',
  main: 'src/main.ts::main#Function',
  testStart: 'test/app.test.ts::testStart#Function',
  testListen: 'test/net.test.ts::testListen#Function',
  loadUser: 'py/service.py::load_user#Function',
  handle: 'py/service.py::handle#Function',
} as const;

type EdgeRow = [kind: string, srcId: string | null, srcFile: string, dstId: string | null, dstFile: string | null, name: string, line: number, confidence: number, provenance: string];

const EDGES: EdgeRow[] = [
  ['CALLS', ID.start, 'src/app.ts', ID.listen, 'src/net.ts', 'listen', 5, 1, 'import'],
  ['CALLS', ID.listen, 'src/net.ts', ID.bind, 'src/net.ts', 'bind', 2, 0.95, 'same_file'],
  ['CALLS', ID.main, 'src/main.ts', ID.start, 'src/app.ts', 'start', 3, 0.9, 'receiver'],
  ['CALLS', ID.testStart, 'test/app.test.ts', ID.start, 'src/app.ts', 'start', 3, 0.9, 'receiver'],
  ['CALLS', ID.testListen, 'test/net.test.ts', ID.listen, 'src/net.ts', 'listen', 3, 1, 'import'],
  ['CALLS', ID.handle, 'py/service.py', ID.loadUser, 'py/service.py', 'load_user', 7, 0.95, 'same_file'],
  ['IMPORTS', null, 'src/app.ts', null, 'src/net.ts', './net', 1, 1, 'module'],
  ['IMPORTS', null, 'src/main.ts', null, 'src/app.ts', './app', 1, 1, 'module'],
  ['IMPORTS', null, 'test/app.test.ts', null, 'src/app.ts', '../src/app', 1, 1, 'module'],
  ['IMPORTS', null, 'test/net.test.ts', null, 'src/net.ts', '../src/net', 1, 1, 'module'],
];

export async function projectId(name: string): Promise<string> {
  const row = await DB.prepare('SELECT id FROM projects WHERE name = ?1').bind(name).first<{ id: string }>();
  if (!row) throw new Error(`project ${name} missing`);
  return row.id;
}

/** Indexes `files` into `name` through the index tool, then replaces its edges with `edges` (the graph is seeded, not resolved). */
export async function seedProject(name: string, files: Record<string, string> = FILES, edges: EdgeRow[] = EDGES): Promise<string> {
  const r = await rest('index', { project: name, files: Object.entries(files).map(([path, content]) => ({ path, content })) });
  expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
  const id = await projectId(name);
  await DB.prepare('DELETE FROM edges WHERE project_id = ?1').bind(id).run();
  if (edges.length) {
    await DB.prepare(
      `INSERT INTO edges (project_id, ${EDGE_CODE_COLUMNS}, src_key, src_file, dst_key, dst_file, name, line)
       SELECT ?1, ${edgeCodesSql("json_extract(e.value, '$[0]')", "json_extract(e.value, '$[8]')", "json_extract(e.value, '$[7]')")},
              substr(json_extract(e.value, '$[1]'), instr(json_extract(e.value, '$[1]'), '::') + 2), json_extract(e.value, '$[2]'), substr(json_extract(e.value, '$[3]'), instr(json_extract(e.value, '$[3]'), '::') + 2),
              json_extract(e.value, '$[4]'), json_extract(e.value, '$[5]'), json_extract(e.value, '$[6]')
       FROM json_each(?2) e`,
    )
      .bind(id, JSON.stringify(edges))
      .run();
  }
  // The graph reflects the visible index.
  await DB.prepare('UPDATE projects SET graph_generation = generation WHERE id = ?1').bind(id).run();
  return id;
}

/** Runs a next step (or a guide step) over REST and checks it is a clean, accepted call. */
export async function runStep(step: Json): Promise<Json> {
  const r = await rest(step.tool, step.args);
  expect(r.status, `${step.tool} ${JSON.stringify(step.args).slice(0, 200)}: ${JSON.stringify(r.body).slice(0, 300)}`).toBe(200);
  expect((r.body._meta.warnings_v2 ?? []).filter((w: Json) => w.code === 'unknown_arg')).toEqual([]);
  return r.body;
}

export function codes(entries: Json[] | undefined): string[] {
  return (entries ?? []).map((e) => e.code);
}

export { DB };
export type { EdgeRow };
