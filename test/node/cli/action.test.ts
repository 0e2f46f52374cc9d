// The composite GitHub Action (action.yml): its inputs and outputs, and its script run by bash
// with a stand-in `npx` that records what it was asked to run.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ACTION = parse(readFileSync(fileURLToPath(new URL('../../../action.yml', import.meta.url)), 'utf8'));
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Runs the action's step with `inputs`, a fake npx exiting with `exit` after printing a summary. */
function runStep(inputs: Record<string, string>, exit = 0) {
  const dir = mkdtempSync(path.join(tmpdir(), 'pincher-action-'));
  dirs.push(dir);
  const npx = path.join(dir, 'npx');
  writeFileSync(npx, `#!/usr/bin/env bash\nprintf '%s\\n' "$@" > "${dir}/args"\necho "{\\"ok\\": ${exit === 0}}"\nexit ${exit}\n`);
  chmodSync(npx, 0o755);
  const step = ACTION.runs.steps[0];
  const value = (name: string) => inputs[name] ?? ACTION.inputs[name].default ?? '';
  const env: Record<string, string> = {
    PATH: `${dir}:${process.env.PATH}`,
    RUNNER_TEMP: dir,
    GITHUB_OUTPUT: path.join(dir, 'output'),
    PINCHER_URL: value('url'),
    PINCHER_HTTP_KEY: value('key'),
    INPUT_PROJECT: value('project'),
    INPUT_REF: value('ref'),
    INPUT_PATH: value('path'),
  };
  const res = spawnSync('bash', ['-c', step.run], { env, encoding: 'utf8' });
  const read = (f: string) => readFileSync(path.join(dir, f), 'utf8');
  return { res, args: read('args').trim().split('\n'), output: read('output'), dir, read };
}

describe('the composite action', () => {
  it('declares url, key, project, ref and path inputs and a summary output', () => {
    expect(ACTION.runs.using).toBe('composite');
    expect(Object.keys(ACTION.inputs).sort()).toEqual(['key', 'path', 'project', 'ref', 'url']);
    expect(ACTION.inputs.url.required).toBe(true);
    expect(ACTION.inputs.key.required).toBe(true);
    expect(ACTION.outputs.summary.value).toBe('${{ steps.push.outputs.summary }}');
    // The key reaches the CLI through the environment, never the command line.
    expect(ACTION.runs.steps[0].env.PINCHER_HTTP_KEY).toBe('${{ inputs.key }}');
    expect(ACTION.runs.steps[0].run).not.toContain('--key');
  });

  it("runs the server's own CLI tarball with --take-over and --json, and writes the summary path", () => {
    const { res, args, output, read } = runStep({ url: 'https://pincher.example.dev/', key: 'k', project: 'web', ref: 'main' });
    expect(res.status, res.stderr).toBe(0);
    expect(args).toEqual(['--yes', 'https://pincher.example.dev/v1/cli.tgz', 'push', '.', '--url', 'https://pincher.example.dev', '--take-over', '--json', '--project', 'web', '--ref', 'main']);
    const summary = /^summary=(.+)$/m.exec(output)?.[1] as string;
    expect(JSON.parse(readFileSync(summary, 'utf8'))).toEqual({ ok: true });
    expect(read('pincher-edge-push.json')).toContain('"ok"');
  });

  it('leaves project and ref to the CLI defaults when not given, and fails the step when the push fails', () => {
    const { res, args, output } = runStep({ url: 'https://pincher.example.dev', key: 'k' }, 1);
    expect(res.status).toBe(1);
    expect(args).not.toContain('--project');
    expect(args).not.toContain('--ref');
    expect(output).toMatch(/^summary=/m);
  });
});
