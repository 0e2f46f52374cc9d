import { describe, expect, it } from 'vitest';
import { push, rows, scalar, projectRow } from '../upload/support';

// An edge's ends are stored once per project in edge_ends and named by id in edge_rows (migration 0025,
// src/db/resolution.ts writeEdges). These hold that a push writes each end once, that every edge row's ends
// are its project's, and that the ends of the files a push rebuilds that no edge uses any more are removed.

const UTIL = 'export function helper(): number {\n  return 1;\n}\n\nexport function other(): number {\n  return 2;\n}\n';
const APP = "import { helper, other } from './util';\n\nexport function main(): number {\n  return helper() + other() + local() + helper();\n}\n\nfunction local(): number {\n  return 3;\n}\n";
const BASE = { 'src/util.ts': UTIL, 'src/app.ts': APP, 'src/side.ts': "import { other } from './util';\n\nexport function side(): number {\n  return other();\n}\n" };

async function pushOk(project: string, files: Record<string, string>) {
  const r = await push(project, files);
  expect(r.commit?.status, JSON.stringify(r.commit?.body).slice(0, 300)).toBe(200);
}

async function endsOf(project: string): Promise<string[]> {
  const id = (await projectRow(project))!.id;
  return (await rows<{ end: string }>(`SELECT file || '::' || ifnull(key, '') AS "end" FROM edge_ends WHERE project_id = ?1 ORDER BY 1`, id)).map((r) => r.end);
}

/** Ends of `project` written twice, ends no edge uses, and edge rows of the project whose target end is another project's. */
async function faults(project: string): Promise<{ twice: number; unused: number; foreign: number }> {
  const id = (await projectRow(project))!.id;
  return {
    twice: await scalar('SELECT count(*) AS n FROM (SELECT 1 FROM edge_ends WHERE project_id = ?1 GROUP BY file, key HAVING count(*) > 1)', id),
    unused: await scalar(
      'SELECT count(*) AS n FROM edge_ends t WHERE t.project_id = ?1 AND NOT EXISTS (SELECT 1 FROM edge_rows r WHERE r.src = t.id) AND NOT EXISTS (SELECT 1 FROM edge_rows r WHERE r.dst = t.id)',
      id,
    ),
    foreign: await scalar('SELECT count(*) AS n FROM edges e JOIN edge_ends d ON d.id = e.dst_end WHERE e.project_id = ?1 AND d.project_id <> ?1', id),
  };
}

describe('edge ends', () => {
  it('writes each end of a push once, shared by the edges that meet it', async () => {
    await pushOk('ends-once', BASE);
    const id = (await projectRow('ends-once'))!.id;
    const edges = await scalar('SELECT count(*) AS n FROM edges WHERE project_id = ?1', id);
    const ends = await endsOf('ends-once');
    // main calls helper twice and other once; side calls other: the two edges into other share its end.
    expect(ends).toEqual(expect.arrayContaining(['src/app.ts::main#Function', 'src/util.ts::helper#Function', 'src/util.ts::other#Function', 'src/side.ts::side#Function']));
    expect(ends.length).toBeLessThan(2 * edges);
    expect(await faults('ends-once')).toEqual({ twice: 0, unused: 0, foreign: 0 });
    // The same paths in a second project are ends of their own.
    await pushOk('ends-once-b', BASE);
    expect(await endsOf('ends-once-b')).toEqual(ends);
    expect(await faults('ends-once-b')).toEqual({ twice: 0, unused: 0, foreign: 0 });
    expect(await scalar('SELECT count(*) AS n FROM edges WHERE project_id = ?1', id)).toBe(edges);
  });

  it('removes the ends of rebuilt files that no edge uses any more, and keeps those still used', async () => {
    await pushOk('ends-gc', BASE);
    expect(await endsOf('ends-gc')).toContain('src/util.ts::helper#Function');
    // helper is renamed: the edges into it go, and so does its end; other is still called from both files.
    await pushOk('ends-gc', { ...BASE, 'src/util.ts': UTIL.replace('helper', 'helper2') });
    const ends = await endsOf('ends-gc');
    expect(ends).not.toContain('src/util.ts::helper#Function');
    expect(ends).toContain('src/util.ts::other#Function');
    expect(await faults('ends-gc')).toEqual({ twice: 0, unused: 0, foreign: 0 });
    // app stops calling anything: its source end and the ends only it reached go; side's edge into other stays.
    await pushOk('ends-gc', { ...BASE, 'src/util.ts': UTIL.replace('helper', 'helper2'), 'src/app.ts': 'export function main(): number {\n  return 3;\n}\n' });
    const after = await endsOf('ends-gc');
    expect(after).not.toContain('src/app.ts::main#Function');
    expect(after).toEqual(expect.arrayContaining(['src/side.ts::side#Function', 'src/util.ts::other#Function']));
    expect(await faults('ends-gc')).toEqual({ twice: 0, unused: 0, foreign: 0 });
  });
});
