// Runs the CLI as CI does: a child process with a clean environment (no PINCHER_/CI variables,
// leaking in from the machine running the tests).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../../cli/bin.mjs', import.meta.url));

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function cli(args: string[], env: Record<string, string | undefined> = {}, cwd?: string): Promise<Run> {
  const base = { ...process.env };
  for (const name of Object.keys(base)) if (/^(PINCHER_|GITHUB_|CI_|CI$|TF_BUILD$)/.test(name)) delete base[name];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

