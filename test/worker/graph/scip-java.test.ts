/**
 * A SCIP index in scip-java's shape (symbols `semanticdb maven …`, constructors `<init>`,
 * overloads `m(+1).`) pushed with Java sources. No scip-java runs here: the index is written
 * below by hand in the format scip-java documents, to hold the ingest path for a language the
 * heuristic resolver cannot resolve exactly (it does not tell overloads apart).
 */
import { describe, expect, it } from 'vitest';
import { BASE, SELF } from '../helpers';
import { manifestOf, post, projectRow, rows, type Json } from '../upload/support';

// A minimal protobuf writer for SCIP messages (field numbers from scip.proto).
const varint = (n: number): number[] => {
  const out: number[] = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return out;
};
const bytes = (field: number, body: number[]) => [...varint(field * 8 + 2), ...varint(body.length), ...body];
const str = (field: number, s: string) => bytes(field, [...new TextEncoder().encode(s)]);
const DEFINITION = 1;
const occurrence = (line: number, from: number, to: number, symbol: string, roles = 0) =>
  bytes(2, [...bytes(1, [line, from, to].flatMap(varint)), ...str(2, `semanticdb maven . . app/${symbol}`), ...(roles ? [...varint(3 * 8), ...varint(roles)] : [])]);
const document = (path: string, occurrences: number[][]) => bytes(2, [...str(1, path), ...str(4, 'java'), ...occurrences.flat()]);

const RESULT = [
  'package app;',
  '',
  'public class Result {',
  '  private final String text;',
  '',
  '  public Result() {',
  '    this("");',
  '  }',
  '',
  '  public Result(String text) {',
  '    this.text = text;',
  '  }',
  '',
  '  public String send() {',
  '    return send(text);',
  '  }',
  '',
  '  public String send(String value) {',
  '    return value;',
  '  }',
  '}',
  '',
].join('\n');
const MAIN = ['package app;', '', 'public class Main {', '  public static String run() {', '    Result r = new Result("x");', '    return r.send("y");', '  }', '}', ''].join('\n');
const FILES = { 'app/Result.java': RESULT, 'app/Main.java': MAIN };

const INDEX = new Uint8Array([
  ...bytes(1, [...bytes(2, [...str(1, 'scip-java'), ...str(2, '0.11.2')]), ...str(3, 'file:///repo')]),
  ...document('app/Result.java', [
    occurrence(2, 13, 19, 'Result#', DEFINITION),
    occurrence(5, 9, 15, 'Result#`<init>`().', DEFINITION),
    occurrence(9, 9, 15, 'Result#`<init>`(+1).', DEFINITION),
    occurrence(13, 16, 20, 'Result#send().', DEFINITION),
    occurrence(14, 11, 15, 'Result#send(+1).'),
    occurrence(17, 16, 20, 'Result#send(+1).', DEFINITION),
  ]),
  ...document('app/Main.java', [
    occurrence(2, 13, 17, 'Main#', DEFINITION),
    occurrence(3, 23, 26, 'Main#run().', DEFINITION),
    occurrence(4, 4, 10, 'Result#'),
    occurrence(4, 19, 25, 'Result#`<init>`(+1).'),
    occurrence(5, 13, 17, 'Result#send(+1).'),
  ]),
]);

async function pushWith(project: string, scip: Uint8Array) {
  const manifest = await manifestOf(FILES);
  const opened = await post(`/v1/projects/${project}/uploads`, { manifest });
  expect(opened.status).toBe(201);
  const files = manifest.map((m) => ({ path: m.path, hash: m.hash, content: FILES[m.path as keyof typeof FILES] }));
  expect((await post(`/v1/projects/${project}/uploads/${opened.body.upload_id}/files`, { files })).status).toBe(200);
  const res = await SELF.fetch(`${BASE}/v1/projects/${project}/uploads/${opened.body.upload_id}/commit`, { method: 'POST', body: scip, headers: { 'content-type': 'application/x-scip' } });
  return { status: res.status, body: (await res.json()) as Json };
}

interface Edge {
  kind: string;
  src_id: string | null;
  dst_id: string | null;
  line: number;
  confidence: number;
  provenance: string;
}

describe('a scip-java index pushed with Java sources', () => {
  it('links each call to the overload and the constructor javac chose, with exact edges in the commit generation', async () => {
    const commit = await pushWith('scip-java', INDEX);
    expect(commit.status, JSON.stringify(commit.body).slice(0, 500)).toBe(200);
    expect(commit.body.scip).toMatchObject({ tool: 'scip-java', documents: 2, files_covered: 2, skipped: {}, unmapped_definitions: 0 });
    const symbols = await rows<{ id: string; name: string; start_line: number }>(
      `SELECT s.id, s.name, s.start_line FROM symbols s JOIN projects p ON p.id = s.project_id WHERE p.name = 'scip-java' AND s.file_path = 'app/Result.java'`,
    );
    const at = (name: string, line: number) => symbols.find((s) => s.name === name && s.start_line === line)?.id;
    const [ctorOfString, sendOfString, sendNoArgs] = [at('Result', 10), at('send', 18), at('send', 14)];
    expect(ctorOfString && sendOfString && sendNoArgs, JSON.stringify(symbols)).toBeTruthy();
    const edges = await rows<Edge>(
      `SELECT e.kind, e.src_file || '::' || e.src_key AS src_id, e.dst_file || '::' || e.dst_key AS dst_id, e.line, e.confidence, e.provenance FROM edges e JOIN projects p ON p.id = e.project_id
       WHERE p.name = 'scip-java' AND e.kind = 'CALLS' ORDER BY e.src_file, e.line, dst_id`,
    );
    const calls = edges.map((e) => `${e.src_id} -> ${e.dst_id} @${e.line} ${e.provenance} ${e.confidence}`);
    const run = 'app/Main.java::Main.run#Method';
    expect(calls).toContain(`${run} -> ${ctorOfString} @5 scip 1`);
    expect(calls).toContain(`${run} -> ${sendOfString} @6 scip 1`);
    expect(calls).toContain(`${sendNoArgs} -> ${sendOfString} @15 scip 1`);
    // No call reaches the overloads javac did not choose.
    expect(edges.some((e) => e.src_id === run && (e.dst_id === sendNoArgs || e.dst_id === at('Result', 6))), calls.join('\n')).toBe(false);
    expect(edges.every((e) => e.provenance === 'scip')).toBe(true);
    const project = (await projectRow('scip-java')) as unknown as Json;
    expect(project?.graph_generation).toBe(project?.generation);
  });
});
