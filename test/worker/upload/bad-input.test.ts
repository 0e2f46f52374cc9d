import { describe, expect, it } from 'vitest';
import {
  byteLength,
  commit,
  fileRows,
  type Json,
  manifestOf,
  open,
  post,
  projectRow,
  pySource,
  request,
  rows,
  sendFiles,
  sha256,
  symbolIds,
  tableCounts,
} from './support';

const HASH = 'a'.repeat(64);

/** Runs `act` and checks that no table the protocol writes gained or lost a row. */
async function nothingWritten(act: () => Promise<{ status: number; body: Json }>) {
  const before = await tableCounts();
  const reply = await act();
  expect(await tableCounts()).toEqual(before);
  return reply;
}

function openRaw(project: string, body: unknown) {
  return post(`/v1/projects/${project}/uploads`, body);
}

describe('a manifest is refused whole, with the offending entry named, before anything is written', () => {
  const cases: { label: string; entry: Json; problem: RegExp }[] = [
    { label: 'an absolute path', entry: { path: '/etc/passwd', hash: HASH, size: 1 }, problem: /absolute/ },
    { label: 'a Windows drive path', entry: { path: 'C:/x/y.py', hash: HASH, size: 1 }, problem: /absolute/ },
    { label: 'a .. segment', entry: { path: 'src/../../secret.py', hash: HASH, size: 1 }, problem: /'\.\.'/ },
    { label: 'a . segment', entry: { path: 'src/./a.py', hash: HASH, size: 1 }, problem: /'\.'/ },
    { label: 'an empty segment', entry: { path: 'src//a.py', hash: HASH, size: 1 }, problem: /empty/ },
    { label: 'a NUL in the path', entry: { path: 'src/a\u0000.py', hash: HASH, size: 1 }, problem: /NUL/ },
    { label: 'a path over 1,024 bytes', entry: { path: `${'d/'.repeat(512)}a.py`, hash: HASH, size: 1 }, problem: /1024 bytes/ },
    { label: 'a path of 1,024 multi-byte characters (over 1,024 bytes)', entry: { path: 'é'.repeat(600), hash: HASH, size: 1 }, problem: /1024 bytes/ },
    { label: 'a backslash', entry: { path: 'src\\a.py', hash: HASH, size: 1 }, problem: /backslash/ },
    { label: 'an empty path', entry: { path: '', hash: HASH, size: 1 }, problem: /non-empty/ },
    { label: 'a hash that is not 64 hex', entry: { path: 'a.py', hash: 'abc', size: 1 }, problem: /64 lowercase hex/ },
    { label: 'an upper-case hash', entry: { path: 'a.py', hash: 'A'.repeat(64), size: 1 }, problem: /64 lowercase hex/ },
    { label: 'a negative size', entry: { path: 'a.py', hash: HASH, size: -1 }, problem: /non-negative/ },
    { label: 'a fractional size', entry: { path: 'a.py', hash: HASH, size: 1.5 }, problem: /non-negative integer/ },
    { label: 'an entry that is not an object', entry: 'a.py' as unknown as Json, problem: /object/ },
  ];
  for (const c of cases) {
    it(`refuses ${c.label} with 422 invalid_manifest`, async () => {
      const good = { path: 'ok/first.py', hash: 'b'.repeat(64), size: 3 };
      const r = await nothingWritten(() => openRaw('bad-manifest', { manifest: [good, c.entry] }));
      expect(r.status).toBe(422);
      expect(r.body.error.code).toBe('invalid_manifest');
      expect(r.body.error.message).toMatch(c.problem);
      expect(r.body.error.message).toMatch(/^manifest\[1\]/);
      expect(r.body.error.details.index).toBe(1);
      if (typeof c.entry === 'object' && typeof c.entry.path === 'string') expect(r.body.error.details.path).toBe(c.entry.path.slice(0, 1024));
    });
  }

  it('accepts a path of exactly 1,024 bytes', async () => {
    const path = `${'d/'.repeat(510)}abcd`;
    expect(byteLength(path)).toBe(1024);
    const r = await openRaw('bad-path-limit', { manifest: [{ path, hash: HASH, size: 1 }] });
    expect(r.status).toBe(201);
  });

  it('refuses duplicate paths, naming the second occurrence', async () => {
    const r = await nothingWritten(() =>
      openRaw('bad-dup', {
        manifest: [
          { path: 'a.py', hash: HASH, size: 1 },
          { path: 'b.py', hash: HASH, size: 1 },
          { path: 'a.py', hash: 'c'.repeat(64), size: 2 },
        ],
      }),
    );
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('invalid_manifest');
    expect(r.body.error.message).toMatch(/duplicate path/);
    expect(r.body.error.details).toEqual({ index: 2, path: 'a.py' });
  });

  it('refuses a manifest that is not an array', async () => {
    for (const manifest of [{ path: 'a.py', hash: HASH, size: 1 }, 'a.py', null, undefined]) {
      const r = await nothingWritten(() => openRaw('bad-shape', { manifest }));
      expect(r.status, JSON.stringify(manifest)).toBe(422);
      expect(r.body.error.code).toBe('invalid_manifest');
      expect(r.body.error.message).toMatch(/must be an array/);
    }
  });

  it('refuses a body that is not a JSON object with invalid_request', async () => {
    const r = await nothingWritten(() => openRaw('bad-body-array', [{ path: 'a.py', hash: HASH, size: 1 }]));
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('invalid_request');
  });

  it('refuses an invalid project name with 422 invalid_project_name', async () => {
    for (const name of ['bad!name', 'a'.repeat(101), 'sp%20ace', 'semi%3Bcolon']) {
      const r = await nothingWritten(() => openRaw(name, { manifest: [{ path: 'a.py', hash: HASH, size: 1 }] }));
      expect(r.status, name).toBe(422);
      expect(r.body.error.code).toBe('invalid_project_name');
      expect(r.body.error.message).toContain(decodeURIComponent(name).slice(0, 100));
    }
  });

  it('refuses malformed JSON with 400 invalid_json_body', async () => {
    const r = await nothingWritten(() => openRaw('bad-json', '{"manifest": [ {"path": "a.py", '));
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('invalid_json_body');
    expect(await projectRow('bad-json')).toBeNull();
  });

  it('refuses an over-long ref with invalid_params', async () => {
    const r = await nothingWritten(() => openRaw('bad-ref', { ref: 'r'.repeat(201), manifest: [] }));
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('invalid_params');
    expect(r.body.error.message).toMatch(/^ref /);
  });
});

describe('a content batch is refused whole, with the offending item named, and nothing of it is stored', () => {
  async function opened(project: string, files: Record<string, string>) {
    const o = await open(project, files);
    expect(o.status).toBe(201);
    return o.body.upload_id as string;
  }

  it('refuses a file whose content does not hash to its hash (422 hash_mismatch), storing not even the valid items', async () => {
    const files = { 'a.py': pySource('mismatch a', 'alpha'), 'b.py': pySource('mismatch b', 'beta') };
    const id = await opened('bad-mismatch', files);
    const [ma, mb] = await manifestOf(files);
    const r = await nothingWritten(() =>
      post(`/v1/projects/bad-mismatch/uploads/${id}/files`, {
        files: [
          { path: 'a.py', hash: ma.hash, content: files['a.py'] },
          { path: 'b.py', hash: mb.hash, content: `${files['b.py']}tampered` },
        ],
      }),
    );
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('hash_mismatch');
    expect(r.body.error.message).toMatch(/^b\.py: /);
    expect(r.body.error.details).toEqual({ index: 1, path: 'b.py' });
    expect(await rows('SELECT hash FROM blobs WHERE hash IN (?1, ?2)', ma.hash, mb.hash)).toEqual([]);
    expect(await rows('SELECT hash FROM extractions WHERE hash IN (?1, ?2)', ma.hash, mb.hash)).toEqual([]);
  });

  it('refuses an item whose hash differs from the manifest entry for its path (422 hash_mismatch)', async () => {
    const files = { 'a.py': pySource('other hash a') };
    const id = await opened('bad-other-hash', files);
    const other = pySource('other hash, other content');
    const r = await nothingWritten(() =>
      post(`/v1/projects/bad-other-hash/uploads/${id}/files`, { files: [{ path: 'a.py', hash: HASH.replace(/a/g, 'd'), content: other }] }),
    );
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('hash_mismatch');
    expect(r.body.error.details.path).toBe('a.py');
  });

  it('refuses a path not in the manifest with 422 invalid_path', async () => {
    const files = { 'a.py': pySource('not listed a') };
    const id = await opened('bad-unlisted', files);
    const stray = pySource('not listed stray');
    const items = [
      { path: 'a.py', hash: await sha256(files['a.py']), content: files['a.py'] },
      { path: 'stray.py', hash: await sha256(stray), content: stray },
    ];
    const r = await nothingWritten(() => post(`/v1/projects/bad-unlisted/uploads/${id}/files`, { files: items }));
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('invalid_path');
    expect(r.body.error.message).toMatch(/^stray\.py: .*not in this upload's manifest/);
    expect(r.body.error.details).toEqual({ index: 1, path: 'stray.py' });
  });

  it('refuses an item with an unsafe path with 422 invalid_path', async () => {
    const files = { 'a.py': pySource('unsafe a') };
    const id = await opened('bad-item-path', files);
    const r = await nothingWritten(() =>
      post(`/v1/projects/bad-item-path/uploads/${id}/files`, { files: [{ path: '../a.py', hash: HASH, content: 'x' }] }),
    );
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('invalid_path');
    expect(r.body.error.details).toEqual({ index: 0, path: '../a.py' });
  });

  it('refuses an item with a malformed hash or non-string content with invalid_request', async () => {
    const files = { 'a.py': pySource('malformed a') };
    const id = await opened('bad-item-shape', files);
    const bad = [
      [{ path: 'a.py', hash: 'xyz', content: files['a.py'] }, /64 lowercase hex/],
      [{ path: 'a.py', hash: await sha256(files['a.py']), content: 42 }, /content must be a string/],
    ] as const;
    for (const [item, problem] of bad) {
      const r = await nothingWritten(() => post(`/v1/projects/bad-item-shape/uploads/${id}/files`, { files: [item] }));
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('invalid_request');
      expect(r.body.error.message).toMatch(problem);
      expect(r.body.error.details.path).toBe('a.py');
    }
    for (const body of [{ files: [] }, { files: 'a.py' }, {}]) {
      const r = await nothingWritten(() => post(`/v1/projects/bad-item-shape/uploads/${id}/files`, body));
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('invalid_request');
    }
  });

  it('refuses a content batch over 4 MiB with 413 body_too_large', async () => {
    const files = { 'big.py': pySource('too big') };
    const id = await opened('bad-huge', files);
    const body = JSON.stringify({ files: [{ path: 'big.py', hash: HASH, content: 'x'.repeat(4 * 1024 * 1024) }] });
    const r = await nothingWritten(() => post(`/v1/projects/bad-huge/uploads/${id}/files`, body));
    expect(r.status).toBe(413);
    expect(r.body.error.code).toBe('body_too_large');
    expect(r.body.error.details.max_bytes).toBe(4 * 1024 * 1024);
  });

  it('refuses malformed JSON on the files route with 400 invalid_json_body', async () => {
    const files = { 'a.py': pySource('files json') };
    const id = await opened('bad-files-json', files);
    const r = await nothingWritten(() => post(`/v1/projects/bad-files-json/uploads/${id}/files`, '{"files": ['));
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('invalid_json_body');
  });

  it('refuses a files batch whose bytes are not UTF-8 with 400 invalid_json_body, never as U+FFFD text', async () => {
    const files = { 'a.py': pySource('files utf8') };
    const id = await opened('bad-files-utf8', files);
    const head = new TextEncoder().encode(`{"files": [{"path": "a.py", "hash": "${HASH}", "content": "x = '`);
    const tail = new TextEncoder().encode(`'\\n"}]}`);
    const body = new Uint8Array([...head, 0xff, 0xfe, ...tail]);
    const r = await nothingWritten(() => post(`/v1/projects/bad-files-utf8/uploads/${id}/files`, body));
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('invalid_json_body');
    expect(r.body.error.message).toMatch(/UTF-8/);
  });

  it('refuses an unknown upload id with 404 upload_not_found on files, commit, state and delete', async () => {
    const files = { 'a.py': pySource('unknown id') };
    await opened('bad-unknown', files);
    const ghost = '01J0000000000000000000GHST';
    const answers = await nothingWritten(async () => {
      const out = [
        await sendFiles('bad-unknown', ghost, files),
        await commit('bad-unknown', ghost),
        await request('GET', `/v1/projects/bad-unknown/uploads/${ghost}`),
        await request('DELETE', `/v1/projects/bad-unknown/uploads/${ghost}`),
      ];
      return { status: 0, body: { out } };
    });
    for (const r of answers.body.out as { status: number; body: Json }[]) {
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe('upload_not_found');
      expect(r.body.error.message).toContain(ghost);
    }
  });

  it("refuses another project's upload id with 404, leaving that upload untouched", async () => {
    const files = { 'a.py': pySource('foreign') };
    const id = await opened('bad-owner', files);
    await opened('bad-thief', { 'b.py': pySource('thief') });
    const answers = await nothingWritten(async () => {
      const out = [
        await sendFiles('bad-thief', id, files),
        await commit('bad-thief', id),
        await request('GET', `/v1/projects/bad-thief/uploads/${id}`),
        await request('DELETE', `/v1/projects/bad-thief/uploads/${id}`),
      ];
      return { status: 0, body: { out } };
    });
    for (const r of answers.body.out as { status: number; body: Json }[]) {
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe('upload_not_found');
    }
    // The owner can still use it.
    expect((await sendFiles('bad-owner', id, files)).status).toBe(200);
    expect((await commit('bad-owner', id)).status).toBe(200);
  });
});

describe('content that cannot be indexed is recorded, not refused', () => {
  it('binary content and files over 1 MiB (with or without an extractor) are accepted, reported as skipped, and end as skipped files rows', async () => {
    const files = {
      'src/ok.py': pySource('skips ok', 'fine'),
      'src/blob.ts': `export const a = 1;\u0000\u0001\u0002 skips`,
      'assets/logo.bin': `\u0089PNG\u0000\u0000 skips`,
      'src/huge.ts': `// skips\n${'export const x = 1;\n'.repeat(60_000)}`,
      'logs/dump.txt': `skips\n${'a log line without any extractor\n'.repeat(40_000)}`,
    };
    expect(byteLength(files['logs/dump.txt'])).toBeGreaterThan(1024 * 1024);
    expect(byteLength(files['src/huge.ts'])).toBeGreaterThan(1024 * 1024);
    const o = await open('skip-content', files);
    const s = await sendFiles('skip-content', o.body.upload_id, files);
    expect(s.status).toBe(200);
    expect(s.body.accepted).toBe(5);
    expect(s.body.failures).toEqual([]);
    expect([...s.body.skipped].sort((a: Json, b: Json) => a.path.localeCompare(b.path))).toEqual([
      { path: 'assets/logo.bin', reason: 'binary' },
      { path: 'logs/dump.txt', reason: 'file_too_large' },
      { path: 'src/blob.ts', reason: 'binary' },
      { path: 'src/huge.ts', reason: 'file_too_large' },
    ]);

    const c = await commit('skip-content', o.body.upload_id);
    expect(c.status).toBe(200);
    expect(c.body.files).toMatchObject({ new: 5, skipped: 4, failed: 0 });
    expect(c.body.skipped_by_reason).toEqual({ binary: 2, file_too_large: 2 });

    const rowsByPath = Object.fromEntries((await fileRows('skip-content')).map((f) => [f.path, f]));
    expect(rowsByPath['src/ok.py']).toMatchObject({ status: 'indexed', reason: null });
    expect(rowsByPath['src/blob.ts']).toMatchObject({ status: 'skipped', reason: 'binary', symbol_count: 0 });
    expect(rowsByPath['assets/logo.bin']).toMatchObject({ status: 'skipped', reason: 'binary', symbol_count: 0 });
    expect(rowsByPath['src/huge.ts']).toMatchObject({ status: 'skipped', reason: 'file_too_large', symbol_count: 0, size: byteLength(files['src/huge.ts']) });
    expect(rowsByPath['logs/dump.txt']).toMatchObject({ status: 'skipped', reason: 'file_too_large', language: 'none' });
    expect(await symbolIds('skip-content')).toEqual(['src/ok.py::fine#Function']);

    // Content that is never read is not kept.
    for (const p of ['src/blob.ts', 'assets/logo.bin', 'src/huge.ts', 'logs/dump.txt']) {
      expect(await rows('SELECT hash FROM blobs WHERE hash = ?1', rowsByPath[p].hash), p).toEqual([]);
    }
    expect(await rows('SELECT hash FROM blobs WHERE hash = ?1', rowsByPath['src/ok.py'].hash)).toHaveLength(1);

    // A re-push of the same tree has nothing to send: skipped content is settled too.
    const again = await open('skip-content', files);
    expect(again.body.missing).toEqual([]);
  });

  it('a file in a language without an extractor is stored (for grep and read) and skipped as unsupported_language', async () => {
    const files = { 'notes/todo.txt': 'skips: remember the milk\n' };
    const o = await open('skip-unsupported', files);
    const s = await sendFiles('skip-unsupported', o.body.upload_id, files);
    expect(s.body.skipped).toEqual([{ path: 'notes/todo.txt', reason: 'unsupported_language' }]);
    expect((await commit('skip-unsupported', o.body.upload_id)).status).toBe(200);
    const [f] = await fileRows('skip-unsupported');
    expect(f).toMatchObject({ status: 'skipped', reason: 'unsupported_language', language: 'none' });
    expect(await rows('SELECT content FROM blobs WHERE hash = ?1', f.hash)).toEqual([{ content: files['notes/todo.txt'] }]);
  });

  it('a mostly broken file is indexed as failed/parse_error keeping its salvaged symbols at low confidence', async () => {
    const files = {
      'bad.py': 'def broken(:\n    return ((((\nclass X\n}}}} ))) ]]\n',
      'half.ts': '// half\nexport function good() { return 1 }\nfunction bad( { \n',
    };
    const o = await open('broken-parse', files);
    const s = await sendFiles('broken-parse', o.body.upload_id, files);
    expect(s.status).toBe(200);
    expect(s.body.failures).toEqual([{ path: 'bad.py', reason: 'parse_error', message: expect.stringMatching(/could not be parsed/) }]);
    const c = await commit('broken-parse', o.body.upload_id);
    expect(c.status).toBe(200);
    expect(c.body.files).toMatchObject({ new: 2, failed: 1, skipped: 0 });
    expect(c.body.failed_by_reason).toEqual({ parse_error: 1 });

    const byPath = Object.fromEntries((await fileRows('broken-parse')).map((f) => [f.path, f]));
    expect(byPath['bad.py']).toMatchObject({ status: 'failed', reason: 'parse_error' });
    // A file with a local syntax error is still indexed, its symbols marked less certain.
    expect(byPath['half.ts']).toMatchObject({ status: 'indexed', reason: null, symbol_count: 1 });

    const conf = Object.fromEntries(
      (await rows<{ id: string; confidence: number }>("SELECT s.id, s.confidence FROM symbols s JOIN projects p ON p.id = s.project_id WHERE p.name = 'broken-parse'")).map(
        (r) => [r.id, r.confidence],
      ),
    );
    expect(conf['half.ts::good#Function']).toBeLessThan(1);
    expect(conf['half.ts::good#Function']).toBeGreaterThan(0.5);
    expect(conf['bad.py::broken#Function']).toBeLessThan(0.5);
    const [clean] = await rows<{ confidence: number }>(
      "SELECT s.confidence FROM symbols s JOIN projects p ON p.id = s.project_id WHERE p.name = 'broken-parse' AND s.id NOT IN ('half.ts::good#Function', 'bad.py::broken#Function')",
    );
    expect(clean).toBeUndefined();
  });
});
