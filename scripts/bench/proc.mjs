// Child processes for the benchmark: each runs in its own process group so that a timeout,
// a failure or Ctrl-C can stop it with everything it started; plus CPU accounting from /proc
// (the machine is shared, so CPU seconds tell more than wall time alone).
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Process-group ids of children still running (stopped by `killAllChildren`). */
const live = new Set();

let clockTicks = 0;
function ticksPerSecond() {
  if (!clockTicks) {
    const res = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
    clockTicks = Number(res.stdout?.trim()) || 100;
  }
  return clockTicks;
}

/**
 * Runs `command args` in its own process group; resolves with its exit and output.
 * On timeout the whole group gets SIGKILL.
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, timeoutMs?: number, onStderr?: (chunk: string) => void }} [options]
 * @returns {Promise<{ code: number | null, signal: string | null, stdout: string, stderr: string, wallMs: number, timedOut: boolean, cpu: { user: number, system: number } | null }>}
 */
export function run(command, args, { cwd, env, timeoutMs = 0, onStderr } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const before = childrenCpuSeconds();
    const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    live.add(child.pid);
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => {
      stderr += d;
      onStderr?.(String(d));
    });
    const timer = timeoutMs > 0
      ? setTimeout(() => {
        timedOut = true;
        killGroup(child.pid, 'SIGKILL');
      }, timeoutMs)
      : null;
    child.on('error', (err) => {
      if (timer) clearTimeout(timer);
      live.delete(child.pid);
      reject(err);
    });
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      live.delete(child.pid);
      // Reap anything the child left in its group (npm → node-gyp → make → g++).
      killGroup(child.pid, 'SIGKILL');
      const after = childrenCpuSeconds();
      resolve({
        code,
        signal,
        stdout,
        stderr,
        wallMs: performance.now() - started,
        timedOut,
        cpu: before && after ? { user: after.user - before.user, system: after.system - before.system } : null,
      });
    });
  });
}

/** @param {number} pgid @param {NodeJS.Signals} signal */
export function killGroup(pgid, signal = 'SIGTERM') {
  try {
    process.kill(-pgid, signal);
  } catch {
    /* already gone */
  }
}

/** SIGKILLs every child group still running (used by the cleanup paths). */
export function killAllChildren() {
  for (const pgid of live) killGroup(pgid, 'SIGKILL');
  live.clear();
}

/**
 * CPU seconds of this process's waited-for children (cutime/cstime of /proc/self/stat);
 * null off Linux.
 */
export function childrenCpuSeconds() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After "pid (comm) ": state=0 … utime=11 stime=12 cutime=13 cstime=14
    const hz = ticksPerSecond();
    return { user: Number(fields[13]) / hz, system: Number(fields[14]) / hz };
  } catch {
    return null;
  }
}

/**
 * CPU seconds used so far by the live members of process group `pgid` (their own utime +
 * stime plus that of their reaped children), in total and per command name; null off Linux.
 * @param {number} pgid
 * @returns {{ total: number, byCommand: Record<string, number> } | null}
 */
export function groupCpuSeconds(pgid) {
  let entries;
  try {
    entries = readdirSync('/proc');
  } catch {
    return null;
  }
  const hz = ticksPerSecond();
  let total = 0;
  let members = 0;
  /** @type {Record<string, number>} */
  const byCommand = {};
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== pgid) continue;
      const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
      total += ticks;
      byCommand[comm] = (byCommand[comm] ?? 0) + ticks / hz;
      members++;
    } catch {
      /* exited while we looked */
    }
  }
  return members ? { total: total / hz, byCommand } : null;
}
