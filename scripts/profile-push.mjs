// `node --experimental-websocket scripts/profile-push.mjs <dir> [out.cpuprofile] [--keep-d1 DIR] [--cpu-only]`: pushes one
// directory cold through the CLI to a fresh local Worker (wrangler's programmatic dev API with an
// inspector) while the Worker's isolate runs the V8 CPU profiler, then prints where its CPU went:
// workerd and wrangler CPU, then self and inclusive time by function. The Worker's .cpuprofile
// opens in Chrome DevTools.
import { spawnSync } from 'node:child_process';
import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { childWorkerds, connectInspector, runtimeInspectorTargets, startInspectedWorker, summarizeProfile } from './battery/inspector.mjs';
import { ROOT } from './dev-server.mjs';

/** utime + stime of process `pid`, in seconds. */
async function cpuSeconds(pids) {
  let sum = 0;
  for (const pid of pids) sum += await oneCpuSeconds(pid);
  return sum;
}
async function oneCpuSeconds(pid) {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

const args = process.argv.slice(2);
// `--keep-d1 DIR`: copy the local D1 folder (its SQLite files) to DIR after the push, to inspect what it wrote.
const keepAt = args.indexOf('--keep-d1');
const keepD1 = keepAt === -1 ? null : args.splice(keepAt, 2)[1];
/** CPU seconds of every thread of `pids`, summed by thread name (the main thread runs the isolates and SQLite; V8's workers compile and collect). */
async function threadSeconds(pids) {
  const by = new Map();
  for (const pid of pids) {
    for (const tid of await readdir(`/proc/${pid}/task`).catch(() => [])) {
      const stat = await readFile(`/proc/${pid}/task/${tid}/stat`, 'utf8').catch(() => '');
      if (!stat) continue;
      const name = Number(tid) === pid ? 'main' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      by.set(name, (by.get(name) ?? 0) + (Number(f[11]) + Number(f[12])) / 100);
    }
  }
  return by;
}

// `--cpu-only`: no profiler (its sampling thread costs the runtime ~0.4 s of CPU per push): CPU per thread only.
const cpuOnly = args.includes('--cpu-only');
if (cpuOnly) args.splice(args.indexOf('--cpu-only'), 1);
const [dir, out = path.join(tmpdir(), 'push.cpuprofile')] = args;
if (!dir || typeof WebSocket !== 'function') {
  console.error('usage: node --experimental-websocket scripts/profile-push.mjs <dir> [out.cpuprofile] [--keep-d1 DIR] [--cpu-only]');
  process.exit(2);
}
const KEY = 'profile-key-0123456789abcdef0123456789';
const { worker, persist, base, inspectorPort } = await startInspectedWorker({ key: KEY, tempPrefix: 'pincher-profile-', minify: false });
try {
  await worker.ready;
  await fetch(`${base}/v1/health`);
  const list = await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json();
  const runtime = await childWorkerds();
  if (!runtime.length) throw new Error('the runtime workerd was not found (Linux /proc only)');
  // The Worker's isolate through wrangler's proxy (it holds the runtime's session for it); the
  // local D1's isolates (ids `d1:…`) on the runtime's own inspector when it lists them (the
  // wrangler pinned here does not: the D1 side is then the workerd CPU the Worker's profile lacks).
  const sessions = [['worker', await connectInspector(list[0].webSocketDebuggerUrl, { origin: 'http://127.0.0.1' })]];
  const targets = await runtimeInspectorTargets(runtime);
  console.log('isolates:', targets.map((t) => t.id).join(', '));
  for (const t of targets) if (/^d1:/.test(t.id)) sessions.push([t.id, await connectInspector(t.url)]);
  for (const [, s] of cpuOnly ? [] : sessions) {
    await s.send('Profiler.enable');
    await s.send('Profiler.setSamplingInterval', { interval: 200 });
    await s.send('Profiler.start');
  }
  const cpuBefore = [await cpuSeconds(runtime), process.cpuUsage()];
  const threadsBefore = await threadSeconds(runtime);
  const started = performance.now();
  const res = spawnSync(process.execPath, [path.join(ROOT, 'cli', 'bin.mjs'), 'push', dir, '--url', base, '--project', 'profiled', '--json'], {
    cwd: ROOT,
    env: { ...process.env, PINCHER_HTTP_KEY: KEY },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpuBefore[1]);
  if (res.status !== 0) console.error(res.stdout.slice(-2000), res.stderr.slice(-2000));
  console.log(`push wall ${(wallMs / 1000).toFixed(1)} s; CPU: workerd ${((await cpuSeconds(runtime)) - cpuBefore[0]).toFixed(2)} s, wrangler (node) ${((used.user + used.system) / 1e6).toFixed(2)} s`);
  const threads = [...(await threadSeconds(runtime))].map(([name, sec]) => [name, sec - (threadsBefore.get(name) ?? 0)]).filter(([, sec]) => sec > 0);
  console.log(`workerd threads: ${threads.sort((a, b) => b[1] - a[1]).map(([name, sec]) => `${name} ${sec.toFixed(2)} s`).join(', ')}`);
  for (const [name, s] of sessions) {
    if (cpuOnly) {
      s.close();
      continue;
    }
    const { profile } = await s.send('Profiler.stop');
    s.close();
    if (name === 'worker') await writeFile(out, JSON.stringify(profile));
    summarizeProfile(name, profile);
  }
} finally {
  await worker.dispose().catch(() => {});
  if (keepD1) await cp(persist, keepD1, { recursive: true });
  await rm(persist, { recursive: true, force: true });
}
