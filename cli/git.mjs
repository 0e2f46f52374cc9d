// What git knows about the pushed folder: defaults for --project, --ref and --commit.
// Every question is optional: no git, no repository or no commits yet simply answers nothing.
import { execFile } from 'node:child_process';
import { basename, resolve } from 'node:path';

/**
 * @typedef {object} GitFacts
 * @property {string} [branch] current branch; absent on a detached HEAD
 * @property {string} [commit] HEAD's full sha
 * @property {string} [repoName] the `origin` remote's repository name
 */

/**
 * @param {string} dir
 * @returns {Promise<GitFacts>}
 */
export async function gitFacts(dir) {
  if ((await git(dir, ['rev-parse', '--is-inside-work-tree'])) !== 'true') return {};
  const [branch, commit, origin] = await Promise.all([
    git(dir, ['symbolic-ref', '--quiet', '--short', 'HEAD']),
    git(dir, ['rev-parse', '--verify', '--quiet', 'HEAD']),
    git(dir, ['config', '--get', 'remote.origin.url']),
  ]);
  return {
    ...(branch && { branch }),
    ...(commit && { commit }),
    ...(origin && repoNameOf(origin) && { repoName: repoNameOf(origin) }),
  };
}

/**
 * The repository name in a remote URL: `git@github.com:org/web.git` → `web`.
 * @param {string} url
 * @returns {string | undefined}
 */
export function repoNameOf(url) {
  const last = url.trim().replace(/[/\\]+$/, '').split(/[/:\\]/).pop();
  return last?.replace(/\.git$/, '') || undefined;
}

/**
 * The name a push goes under when --project is not given.
 * @param {string} dir
 * @param {GitFacts} facts
 */
export function defaultProject(dir, facts) {
  return facts.repoName ?? basename(resolve(dir));
}

/**
 * A branch name for CI checkouts on a detached HEAD (GitHub Actions, GitLab CI).
 * @param {NodeJS.ProcessEnv} env
 */
export function ciBranch(env) {
  return env.GITHUB_HEAD_REF || env.GITHUB_REF_NAME || env.CI_COMMIT_REF_NAME || undefined;
}

/**
 * Trimmed stdout of a git command, or undefined when it fails for any reason.
 * @param {string} dir
 * @param {string[]} args
 * @returns {Promise<string | undefined>}
 */
function git(dir, args) {
  return new Promise((done) => {
    execFile('git', ['-C', dir, ...args], { timeout: 10_000, windowsHide: true }, (error, stdout) => {
      done(error ? undefined : stdout.trim() || undefined);
    });
  });
}
