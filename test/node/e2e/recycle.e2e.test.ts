// The local server replaces the Worker's runtime (scripts/local-server.mjs, "recycling") to
// keep its memory bounded: driven over real sockets, a handover under concurrent load and
// during pushes must answer every request, refuse none and lose no write.
import { readFile, rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushCorpus, touchCorpus, writeCorpus } from '../../../scripts/battery/corpus.mjs';
import { exchange } from '../../../scripts/battery/http.mjs';
import { failed, mixCall } from '../../../scripts/battery/mix.mjs';
import { createRng } from '../../../scripts/battery/rng.mjs';
import { FULL_KEY, READ_KEY, type E2EServer, groupMembers, http, rest, startE2EServer } from './support';

const PROJECT = 'recycled';
const MODULES = 30;
const RECYCLE_EVERY = 300;
let server: E2EServer;
let corpus: string;
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${FULL_KEY}` };

beforeAll(async () => {
  // Recycled by request count here (memory would take minutes to reach the threshold); SIGUSR2 asks for one at once.
  server = await startE2EServer({ PINCHER_HTTP_KEY: FULL_KEY, PINCHER_READ_KEY: READ_KEY }, 280_000, { everyMinutes: 0 }, { requests: RECYCLE_EVERY, rssMib: 0 });
  corpus = await writeCorpus(MODULES);
  await pushCorpus({ url: server.url, key: FULL_KEY, project: PROJECT, dir: corpus, commit: 'c0' });
}, 300_000);

afterAll(async () => {
  if (server) {
    await server.stop();
    await rm(server.dir, { recursive: true, force: true });
  }
  if (corpus) await rm(corpus, { recursive: true, force: true });
});

const recycleLines = () => server.logs.join('').split('\n').filter((l) => l.includes('recycled the Worker runtime'));

async function runtimePids(): Promise<number[]> {
  const out: number[] = [];
  for (const m of await groupMembers(server.pid)) {
    const cmd = await readFile(`/proc/${m.pid}/cmdline`, 'utf8').catch(() => '');
    if (cmd.includes('workerd')) out.push(m.pid);
  }
  return out;
}

async function until(condition: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  return condition();
}

describe('recycling the Worker runtime', () => {
  it('answers every request of 8 concurrent clients while the runtime is replaced', async () => {
    const before = await runtimePids();
    const already = recycleLines().length;
    let stop = false;
    const failures: string[] = [];
    let requests = 0;
    const client = async (w: number) => {
      const rng = createRng(1000 + w);
      while (!stop) {
        const { label, req } = mixCall(rng, { project: PROJECT, modules: MODULES, headers });
        const res = await exchange(server.url, req as Parameters<typeof exchange>[1]);
        requests++;
        const why = failed(res);
        if (why) failures.push(`${label}: ${why} ${res.text.slice(0, 200)}`);
      }
    };
    const clients = Array.from({ length: 8 }, (_, w) => client(w));
    // Keep the load on through a whole handover and a few seconds after it.
    const recycled = await until(() => recycleLines().length > already, 240_000);
    await new Promise((r) => setTimeout(r, 3_000));
    stop = true;
    await Promise.all(clients);
    expect(recycled, server.logs.join('').slice(-3000)).toBe(true);
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(RECYCLE_EVERY);
    const text = server.logs.join('');
    // The retired wrangler's exit is no crash, and the next runtime never opened D1 before the switch.
    expect(text).not.toMatch(/wrangler dev exited/);
    expect(text).not.toMatch(/opened the local D1 before the switch/);
    // Requests that arrived during the switch were held, then answered (none failed above).
    const line = recycleLines().at(-1) ?? '';
    const m = /(\d+) requests held \d+ ms while \d+ in flight finished, old one stopped/.exec(line);
    expect(m, line).toBeTruthy();
    expect(Number(m?.[1])).toBeGreaterThan(0);
    // The old runtime is gone: memory comes back, not piles up.
    const after = await runtimePids();
    expect(after.length).toBe(before.length);
    expect(after.filter((p) => before.includes(p))).toEqual([]);
  }, 300_000);

  it('keeps the call-log row of every call answered before, during and after a handover', async () => {
    // A runtime writes the rows of the calls it answered within one window together, after the window: the old one
    // is stopped only once its last rows are written.
    const counted = async () => {
      const r = await http(server.url, '/v1/metrics', { key: READ_KEY });
      return Number(/^pincher_tool_calls_total\{tool="why_empty",status="ok"\} (\d+)$/m.exec(r.text)?.[1] ?? 0);
    };
    // The rows of the calls before this test (the other tests' clients) land first: the count holds still for a second.
    let before = await counted();
    for (let last = -1; before !== last; ) {
      last = before;
      await new Promise((r) => setTimeout(r, 1_000));
      before = await counted();
    }
    const already = recycleLines().length;
    let calls = 0;
    const call = async () => {
      const r = await rest(server.url, 'why_empty', { code: 'no_results_in_corpus' });
      expect(r.status).toBe(200);
      calls++;
    };
    for (let i = 0; i < 20; i++) await call();
    process.kill(server.pid, 'SIGUSR2');
    const deadline = Date.now() + 240_000;
    while (recycleLines().length <= already && Date.now() < deadline) await call();
    for (let i = 0; i < 20; i++) await call();
    expect(recycleLines().length, server.logs.join('').slice(-3000)).toBeGreaterThan(already);
    let now = await counted();
    for (const stop = Date.now() + 10_000; now < before + calls && Date.now() < stop; now = await counted()) await new Promise((r) => setTimeout(r, 200));
    expect(now, `${calls} calls after ${before} counted`).toBe(before + calls);
  }, 300_000);

  it('completes every push, back to back, while the runtime is replaced, and serves the last one', async () => {
    const already = recycleLines().length;
    process.kill(server.pid, 'SIGUSR2');
    let round = 0;
    const errors: string[] = [];
    let lastCommitted: { files?: number } | undefined;
    const deadline = Date.now() + 240_000;
    // Pushes run back to back, so the handover falls inside one of them.
    while (recycleLines().length <= already && Date.now() < deadline) {
      round++;
      await touchCorpus(corpus, round);
      try {
        lastCommitted = (await pushCorpus({ url: server.url, key: FULL_KEY, project: PROJECT, dir: corpus, commit: `c${round}` })) as { files?: number };
      } catch (err) {
        errors.push(`push ${round}: ${(err as Error).message}`);
      }
    }
    expect(recycleLines().length, server.logs.join('').slice(-3000)).toBeGreaterThan(already);
    expect(errors).toEqual([]);
    expect(lastCommitted).toBeTruthy();
    // The index is the last push's, whole: its new symbol is found and every file is listed.
    const found = await rest(server.url, 'search', { project: PROJECT, query: `revision${round}` });
    expect(found.status).toBe(200);
    expect(JSON.stringify(found.body)).toContain(`revision${round}`);
    const listed = await rest(server.url, 'ls', { project: PROJECT });
    expect(listed.status).toBe(200);
    const dirs = Object.fromEntries((listed.body.result.entries as { name: string; files?: number }[]).map((e) => [e.name, e.files]));
    expect(dirs).toMatchObject({ src: MODULES, py: MODULES });
    const projects = await rest(server.url, 'list', {});
    const mine = (projects.body.result.projects as { name: string; commit: string | null }[]).find((p) => p.name === PROJECT);
    expect(mine?.commit).toBe(`c${round}`);
  }, 300_000);
});
