import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { nameCandidates } from '../../../src/db/names';
import { nearestBounds } from '../../../src/util/did-you-mean';
import { recording } from '../recording-d1';
import { push } from '../upload/support';

// `symbol_names` (migration 0023) holds the distinct symbol names of each project, kept by triggers on `symbols`;
// did-you-mean reads its candidates there. These hold it equal to the names of the project's symbols through
// pushes that add, change, rename and remove files, with another project holding the same names, and hold the
// candidate statement's plan to it.
const DB = (env as unknown as { DB: D1Database }).DB;

async function projectId(name: string): Promise<string> {
  return (await DB.prepare('SELECT id FROM projects WHERE name = ?1').bind(name).first<{ id: string }>())?.id ?? '';
}

async function stored(id: string): Promise<string[]> {
  return (await DB.prepare('SELECT name FROM symbol_names WHERE project_id = ?1 ORDER BY name').bind(id).all<{ name: string }>()).results.map((r) => r.name);
}

async function distinctNames(id: string): Promise<string[]> {
  return (await DB.prepare('SELECT DISTINCT name FROM symbols WHERE project_id = ?1 ORDER BY name').bind(id).all<{ name: string }>()).results.map((r) => r.name);
}

async function pushed(project: string, files: Record<string, string>): Promise<string> {
  const r = await push(project, files);
  expect(r.commit?.status, JSON.stringify(r.commit?.body).slice(0, 300)).toBe(200);
  return projectId(project);
}

const fn = (name: string) => `export function ${name}() { return 1; }\n`;

describe('symbol_names', () => {
  it('holds each distinct name of a project once, through pushes that add, change, rename and remove files', async () => {
    const v1 = {
      'src/a.ts': fn('alpha') + fn('shared') + 'export class Box {\n  shared() { return 2; }\n  open() { return 3; }\n}\n',
      'src/b.ts': fn('shared') + fn('beta'),
      'src/c.ts': fn('gamma'),
    };
    const id = await pushed('names-life', v1);
    expect(await stored(id)).toEqual(['Box', 'alpha', 'beta', 'gamma', 'open', 'shared']);
    expect(await stored(id)).toEqual(await distinctNames(id));

    // b.ts removed (`shared` stays: a.ts holds it twice), c.ts changed (gamma → delta), a.ts renamed to d.ts.
    const v2 = { 'src/d.ts': v1['src/a.ts'], 'src/c.ts': fn('delta') };
    await pushed('names-life', v2);
    expect(await stored(id)).toEqual(['Box', 'alpha', 'delta', 'open', 'shared']);
    expect(await stored(id)).toEqual(await distinctNames(id));

    // The last two holders of `shared` removed in one push; `open` kept by a new file.
    await pushed('names-life', { 'src/c.ts': fn('delta'), 'src/e.ts': 'export class Door {\n  open() { return 1; }\n}\n' });
    expect(await stored(id)).toEqual(['Door', 'delta', 'open']);
    expect(await stored(id)).toEqual(await distinctNames(id));
  });

  it("keeps another project's names when one project drops the same names", async () => {
    const files = { 'src/x.ts': fn('commonName') + fn('onlyHere') };
    const first = await pushed('names-first', files);
    const second = await pushed('names-second', files);
    await pushed('names-first', { 'src/y.ts': fn('other') });
    expect(await stored(first)).toEqual(['other']);
    expect(await stored(second)).toEqual(['commonName', 'onlyHere']);
  });

  it('answers the candidates from symbol_names, seeking the project, and never reads every symbol', async () => {
    const id = await pushed('names-plan', { 'src/p.ts': fn('listen') + fn('listener') + fn('glisten') });
    const { d1, seen } = recording();
    const rows = await nameCandidates(d1, id, 'listen', nearestBounds('listen'));
    expect(rows.map((r) => r.name)).toEqual(['glisten', 'listen', 'listener']);
    expect(rows.find((r) => r.name === 'listen')?.id).toBe('src/p.ts::listen#Function');
    const s = seen[0];
    const plan = (await DB.prepare(`EXPLAIN QUERY PLAN ${s.sql}`).bind(...s.args).all<{ detail: string }>()).results.map((r) => r.detail);
    expect(plan.some((d) => /SEARCH symbol_names USING PRIMARY KEY \(project_id=\?\)/.test(d)), plan.join('\n')).toBe(true);
    // The symbols are read for the ids of the names kept only, each a seek of the name index.
    expect(plan.filter((d) => /^(SEARCH|SCAN) s\b/.test(d)), plan.join('\n')).toEqual(['SEARCH s USING INDEX symbols_name (project_id=? AND name=?)']);
    expect(plan.some((d) => /^SCAN/.test(d) && !/SCAN n\b/.test(d)), plan.join('\n')).toBe(false);
  });

  it('asked in a file and owner, reads each kept name\'s ids through the name index too, and never walks the id index', async () => {
    const id = await pushed('names-plan-near', { 'src/p.ts': fn('listen') + 'export class Box {\n  listen() { return 2; }\n}\n', 'a/q.ts': fn('listen') });
    const { d1, seen } = recording();
    const rows = await nameCandidates(d1, id, 'listen', nearestBounds('listen'), null, { path: 'src/p.ts', parent: 'Box' });
    expect(rows.find((r) => r.name === 'listen')?.id).toBe('src/p.ts::Box.listen#Method');
    // Without them, the least id of the name.
    expect((await nameCandidates(DB, id, 'listen', nearestBounds('listen'))).find((r) => r.name === 'listen')?.id).toBe('a/q.ts::listen#Function');
    const s = seen[0];
    const plan = (await DB.prepare(`EXPLAIN QUERY PLAN ${s.sql}`).bind(...s.args).all<{ detail: string }>()).results.map((r) => r.detail);
    expect(plan.filter((d) => /^(SEARCH|SCAN) s\b/.test(d)), plan.join('\n')).toEqual(['SEARCH s USING INDEX symbols_name (project_id=? AND name=?)']);
    expect(plan.some((d) => /^SCAN/.test(d) && !/SCAN n\b/.test(d)), plan.join('\n')).toBe(false);
  });
});
