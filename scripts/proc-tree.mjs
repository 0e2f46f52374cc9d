// What the local server's supervisor reads from Linux /proc: the processes a child started
// (wrangler's workerd), the TCP ports they listen on, and their anonymous resident memory.
// Everything answers "nothing" where /proc does not exist (macOS).
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** pid → parent pid of every process, read once. */
function parents() {
  const out = new Map();
  let entries = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return out;
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      out.set(Number(e), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      /* exited while we looked */
    }
  }
  return out;
}

/** Every live descendant of `pid` (children, grandchildren…). */
export function descendants(pid) {
  const ppid = parents();
  const out = [];
  const frontier = [pid];
  while (frontier.length) {
    const p = frontier.pop();
    for (const [child, parent] of ppid) {
      if (parent === p) {
        out.push(child);
        frontier.push(child);
      }
    }
  }
  return out;
}

/** Whether `pid` still exists (a zombie counts as gone: it holds no memory and no file). */
export function alive(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

export function isWorkerd(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').some((c) => c.includes('workerd'));
  } catch {
    return false;
  }
}

/** TCP ports `pid` listens on. */
export function listeningPorts(pid) {
  const inodes = new Set();
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m) inodes.add(m[1]);
      } catch {
        /* closed while we looked */
      }
    }
  } catch {
    return [];
  }
  const ports = [];
  for (const table of ['tcp', 'tcp6']) {
    let text = '';
    try {
      text = readFileSync(`/proc/${pid}/net/${table}`, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // f[1] local address:port (hex), f[3] state (0A = LISTEN), f[9] inode
      if (f.length > 9 && f[3] === '0A' && inodes.has(f[9])) ports.push(parseInt(f[1].split(':')[1], 16));
    }
  }
  return ports;
}

/** Anonymous resident memory of `pid` in MiB (heaps, not mapped files); undefined if unknown. */
export function rssAnonMib(pid) {
  try {
    const kb = /RssAnon:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

/** Files under `dir` that `pid` holds open. */
export function openFilesUnder(pid, dir) {
  const out = [];
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
        if (target.startsWith(dir)) out.push(target);
      } catch {
        /* closed while we looked */
      }
    }
  } catch {
    /* gone */
  }
  return out;
}
