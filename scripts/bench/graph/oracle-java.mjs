// Oracle for Java callers: javac's own attribution (the compiler Tree API, JavaCalls.java run
// as a single-file program by the JDK's `java` launcher). Each method invocation and `new` is
// resolved to the ExecutableElement it invokes; calls that depend on classes outside the
// corpus (missing dependencies) do not resolve and are left out on both sides' account.
//
//   oracleJava({ dir, files }) → { tool, targets: [...] } (same shape as oracle-ts)
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from '../proc.mjs';
import { targetsFromSites } from './sites.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** @param {{ dir: string, files: string[], maxTargets?: number }} o */
export async function oracleJava({ dir, files, maxTargets = 300 }) {
  const version = await run('javac', ['-version'], { timeoutMs: 60_000 });
  if (version.code !== 0) throw new Error('the Java oracle needs a JDK (javac) on PATH');
  const r = await run('java', ['-Xss16m', path.join(HERE, 'JavaCalls.java'), dir, ...files], { cwd: dir, timeoutMs: 20 * 60_000 });
  if (r.code !== 0) throw new Error(`JavaCalls.java failed (exit ${r.code}): ${r.stderr.slice(-400)}`);
  const { defs, calls } = JSON.parse(r.stdout);
  return { tool: `${(version.stdout || version.stderr).trim()} (compiler Tree API: Trees.getElement)`, targets: targetsFromSites(defs, calls, maxTargets) };
}
