import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { ciBranch, gitFacts, repoNameOf } from '../../../cli/git.mjs';
import { cli } from './run-cli';
import { makeTree, removeTrees } from './tree';

afterAll(removeTrees);

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], { encoding: 'utf8' }).trim();

async function repo() {
  const dir = await makeTree({ 'a.ts': 'export const a = 1;\n' });
  git(dir, 'init', '--quiet', '--initial-branch=trunk');
  git(dir, 'add', '.');
  git(dir, 'commit', '--quiet', '-m', 'first');
  return dir;
}

describe('git defaults', () => {
  it.each([
    ['git@github.com:acme/web.git', 'web'],
    ['https://github.com/acme/web', 'web'],
    ['https://github.com/acme/web.git/', 'web'],
    ['ssh://git@host:2222/acme/api-server.git', 'api-server'],
    ['/srv/git/local.repo.git', 'local.repo'],
  ])('reads the repository name of %s', (url, name) => {
    expect(repoNameOf(url)).toBe(name);
  });

  it('reads branch, HEAD and the origin name of a work tree', async () => {
    const dir = await repo();
    git(dir, 'remote', 'add', 'origin', 'git@github.com:acme/storefront.git');
    expect(await gitFacts(dir)).toEqual({ branch: 'trunk', commit: git(dir, 'rev-parse', 'HEAD'), repoName: 'storefront' });
  });

  it('has no branch on a detached HEAD, where CI variables name it', async () => {
    const dir = await repo();
    git(dir, 'checkout', '--quiet', '--detach');
    const facts = await gitFacts(dir);
    expect(facts.branch).toBeUndefined();
    expect(facts.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(ciBranch({ GITHUB_HEAD_REF: '', GITHUB_REF_NAME: 'release' })).toBe('release');
    expect(ciBranch({ GITHUB_HEAD_REF: 'feature/x', GITHUB_REF_NAME: '12/merge' })).toBe('feature/x');
    expect(ciBranch({})).toBeUndefined();
  });

  it('knows nothing outside a work tree', async () => {
    expect(await gitFacts(await makeTree({ 'a.ts': 'x' }))).toEqual({});
  });

  it('fills --project, --ref and --commit from git when they are not given', async () => {
    const dir = await repo();
    git(dir, 'remote', 'add', 'origin', 'https://github.com/acme/storefront.git');
    const run = await cli(['push', '--dry-run', '--json'], {}, dir);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ project: 'storefront', ref: 'trunk', commit: git(dir, 'rev-parse', 'HEAD') });
    const explicit = await cli(['push', dir, '--dry-run', '--json', '--project', 'p', '--ref', 'r', '--commit', 'c']);
    expect(JSON.parse(explicit.stdout)).toMatchObject({ project: 'p', ref: 'r', commit: 'c' });
  });

  it('takes the ref of a detached CI checkout from the CI variables', async () => {
    const dir = await repo();
    git(dir, 'checkout', '--quiet', '--detach');
    const run = await cli(['push', dir, '--dry-run', '--json'], { GITHUB_HEAD_REF: 'feature/x', GITHUB_REF_NAME: '12/merge' });
    expect(JSON.parse(run.stdout)).toMatchObject({ ref: 'feature/x' });
  });
});
