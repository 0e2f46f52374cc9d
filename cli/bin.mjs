#!/usr/bin/env node
// pincher-edge command line: argument parsing and dispatch only.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runCancelMove, runMove, runShards } from './admin-command.mjs';
import { PROJECT_NAME, runPush } from './push-command.mjs';
import { DEFAULT_MAX_FILE_SIZE } from './walk.mjs';

const MAX_FILE_SIZE_LIMIT = 2 * 1024 * 1024; // a files request body is at most 4 MiB

const HELP = `Usage: pincher-edge <command> [options]

Commands:
  push [dir]     upload a repository's source to a pincher-edge server
  shards         list the server's D1 shards: stored bytes, projects, moves in progress
  move <project> --shard <n>
                 move a project's index to another shard (reads go on during the move);
                 --cancel ends a move in progress

Options:
  -h, --help     show help (pincher-edge <command> --help lists a command's options)
  -v, --version  show the version
`;

const SHARDS_HELP = `Usage: pincher-edge shards [options]

List the server's D1 databases (shard 0 is the primary): binding, stored bytes as D1 reports
them, projects placed on each, the moves in flight into and out of each (copying or removing,
rows copied of the estimate, last step; abandoned after 10 minutes without a step) and the
leftover copies still to remove. Needs the admin key.

Options:
  --url <url>             server URL (env PINCHER_URL); required
  --admin-key <key>       the Worker's PINCHER_ADMIN_KEY (env PINCHER_ADMIN_KEY; prefer the variable)
  --json                  print the server's answer as JSON on stdout
  -h, --help              show this help

Exit codes: 0 listed, 1 failed, 2 usage error.
`;

const MOVE_HELP = `Usage: pincher-edge move <project> --shard <n> [options]
       pincher-edge move <project> --cancel [options]

Copy a project's index to shard n, then switch it there and remove the old copy, one bounded
server step per request (a progress line per step). The old copy answers every read until the
switch; pushes of the project are refused (409 project_moving) while it moves. A failure before
the switch leaves the project where it was; an interrupted move continues where it stopped when
the same command runs again. --cancel ends a move: the project stays where it was and its
partial copy is removed; it ends only the move the shards' listing shows (by its id), not one
begun since. Needs the admin key. See docs/capacity.md.

Options:
  --shard <n>             the target shard's index (pincher-edge shards lists them)
  --cancel                cancel the project's move in progress instead
  --url <url>             server URL (env PINCHER_URL); required
  --admin-key <key>       the Worker's PINCHER_ADMIN_KEY (env PINCHER_ADMIN_KEY; prefer the variable)
  --json                  print the server's report as JSON on stdout
  -h, --help              show this help

Exit codes: 0 moved (or cancelled), 1 failed, 2 usage error.
`;

const ADMIN_OPTIONS = /** @type {const} */ ({
  url: { type: 'string' },
  'admin-key': { type: 'string' },
  shard: { type: 'string' },
  cancel: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
});

const PUSH_HELP = `Usage: pincher-edge push [dir] [options]

Walk dir (default: the current folder), send only the files the server does not hold yet,
and commit them as the project's new index.

Options:
  --url <url>             server URL (env PINCHER_URL); required unless --dry-run
  --key <key>             bearer key (env PINCHER_HTTP_KEY; prefer the variable in CI)
  --project <name>        project name, 1-100 of A-Z a-z 0-9 . _ -
                          (default: the git origin's repository name, else the folder name)
  --ref <name>            ref the index is for (default: the current git branch)
  --commit <sha>          commit the index reflects (default: git HEAD)
  --by <name>             who pushes, shown in the server's push history (default: env
                          GITHUB_ACTOR, else GITLAB_USER_LOGIN, else not sent)
  --concurrency <n>       upload batches in flight at once, 1-16 (default 4)
  --take-over             supersede an open upload of the project at once (a cancelled or
                          killed push), instead of failing with push_in_progress; the
                          default when the CI variable is set (--no-take-over to refuse)
  --max-file-size <size>  skip larger files: bytes, 512k, 2m (default 1m, at most 2m)
  --scip <file>           send this SCIP index with the commit: exact edges and references
                          for the files it covers (default: dir/index.scip when it exists)
  --no-scip               do not send a SCIP index, even if dir/index.scip exists
  --follow                after the upload opens, print the push's lifecycle events from the
                          server's event stream (GET /v1/events: opened, each batch received,
                          committed, graph resolved) until its graph is resolved
  --follow-timeout <s>    seconds --follow waits for the resolution after the commit, 1-3600
                          (default 120)
  --dry-run               walk and hash only: list what would be uploaded and why the rest
                          is skipped; nothing is sent
  --json                  print one JSON summary on stdout, nothing else there
  -h, --help              show this help
  -v, --version           show the version

Files come from the walk of dir minus .gitignore rules, .pincherignore rules (a \`!pattern\`
there re-includes anything, even blocklisted) and the built-in blocklist (dependency and
build folders, lockfiles, minified bundles, source maps, generated files). Binary, non-UTF-8
and oversized files are skipped. Symlinks are not followed.

Exit codes: 0 pushed, 1 push failed, 2 usage error, 130 interrupted.
`;

const PUSH_OPTIONS = /** @type {const} */ ({
  url: { type: 'string' },
  key: { type: 'string' },
  project: { type: 'string' },
  ref: { type: 'string' },
  commit: { type: 'string' },
  by: { type: 'string' },
  concurrency: { type: 'string' },
  'take-over': { type: 'boolean' },
  'no-take-over': { type: 'boolean' },
  'max-file-size': { type: 'string' },
  scip: { type: 'string' },
  'no-scip': { type: 'boolean' },
  follow: { type: 'boolean' },
  'follow-timeout': { type: 'string' },
  'dry-run': { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
});

class UsageError extends Error {}

/**
 * @param {string[]} args
 * @returns {Promise<number>} exit code
 */
async function main(args) {
  const [command, ...rest] = args;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write({ push: PUSH_HELP, shards: SHARDS_HELP, move: MOVE_HELP }[rest[0]] ?? HELP);
    return 0;
  }
  if (command === '--version' || command === '-v') return printVersion();
  if (command === 'shards' || command === 'move') return admin(command, rest);
  if (command !== 'push') throw new UsageError(`unknown command "${command}"`);

  const { values, positionals } = parseArgs({ args: rest, options: PUSH_OPTIONS, allowPositionals: true, strict: true });
  if (values.help) {
    process.stdout.write(PUSH_HELP);
    return 0;
  }
  if (values.version) return printVersion();
  if (positionals.length > 1) throw new UsageError(`push takes one folder, got ${positionals.length}`);
  const env = process.env;
  const url = values.url || env.PINCHER_URL || undefined;
  const dryRun = Boolean(values['dry-run']);
  if (url) checkUrl(url, process.stderr);
  else if (!dryRun) throw new UsageError('no server URL: pass --url or set PINCHER_URL');
  if (values.project !== undefined && !PROJECT_NAME.test(values.project)) {
    throw new UsageError('--project must be 1-100 characters of A-Z a-z 0-9 . _ -');
  }
  for (const [name, max] of /** @type {const} */ ([['ref', 200], ['commit', 100], ['by', 100]])) {
    const value = values[name];
    if (value !== undefined && !(value.length <= max && /^[^\0-\x1f\x7f]+$/.test(value))) {
      throw new UsageError(`--${name} must be 1-${max} printable characters`);
    }
  }

  if (values['take-over'] && values['no-take-over']) throw new UsageError('--take-over and --no-take-over exclude each other');
  const takeOver = values['take-over'] ?? (values['no-take-over'] ? false : isCi(env));
  if (values.scip !== undefined && values['no-scip']) throw new UsageError('--scip and --no-scip exclude each other');
  if (values.scip === '') throw new UsageError('--scip needs the path of an index.scip file');

  if (values['follow-timeout'] !== undefined && !values.follow) throw new UsageError('--follow-timeout needs --follow');
  const followTimeoutMs = values['follow-timeout'] === undefined ? undefined : integerIn(values['follow-timeout'], '--follow-timeout', 1, 3600) * 1000;
  if (values.follow && dryRun) throw new UsageError('--follow and --dry-run exclude each other');

  const controller = new AbortController();
  const cancel = () => controller.abort();
  process.once('SIGINT', cancel);
  process.once('SIGTERM', cancel);
  try {
    return await runPush({
      dir: positionals[0] ?? '.',
      url,
      key: values.key || env.PINCHER_HTTP_KEY || undefined,
      project: values.project,
      ref: values.ref,
      commit: values.commit,
      pushedBy: values.by ?? ciActor(env),
      json: Boolean(values.json),
      dryRun,
      follow: Boolean(values.follow),
      ...(followTimeoutMs !== undefined && { followTimeoutMs }),
      takeOver,
      scip: values['no-scip'] ? false : values.scip,
      concurrency: values.concurrency === undefined ? 4 : integerIn(values.concurrency, '--concurrency', 1, 16),
      maxFileSize: values['max-file-size'] === undefined ? DEFAULT_MAX_FILE_SIZE : sizeOf(values['max-file-size']),
    }, { stdout: process.stdout, stderr: process.stderr, env, signal: controller.signal });
  } finally {
    process.off('SIGINT', cancel);
    process.off('SIGTERM', cancel);
  }
}

/**
 * `shards` and `move`: the admin routes with the admin key.
 * @param {'shards' | 'move'} command @param {string[]} args
 */
async function admin(command, args) {
  const { values, positionals } = parseArgs({ args, options: ADMIN_OPTIONS, allowPositionals: true, strict: true });
  if (values.help) {
    process.stdout.write(command === 'move' ? MOVE_HELP : SHARDS_HELP);
    return 0;
  }
  const env = process.env;
  const url = values.url || env.PINCHER_URL || undefined;
  if (!url) throw new UsageError('no server URL: pass --url or set PINCHER_URL');
  checkUrl(url, process.stderr);
  const key = values['admin-key'] || env.PINCHER_ADMIN_KEY || undefined;
  if (!key) throw new UsageError('no admin key: set PINCHER_ADMIN_KEY (the Worker\'s PINCHER_ADMIN_KEY secret) or pass --admin-key');
  const controller = new AbortController();
  const cancel = () => controller.abort();
  process.once('SIGINT', cancel);
  process.once('SIGTERM', cancel);
  const io = { stdout: process.stdout, stderr: process.stderr, signal: controller.signal };
  try {
    if (command === 'shards') {
      if (positionals.length > 0) throw new UsageError('shards takes no arguments');
      if (values.shard !== undefined) throw new UsageError('--shard belongs to move');
      if (values.cancel) throw new UsageError('--cancel belongs to move');
      return await runShards({ url, key, json: Boolean(values.json) }, io);
    }
    if (positionals.length !== 1) throw new UsageError('move takes one project name: pincher-edge move <project> --shard <n>');
    const project = positionals[0];
    if (!PROJECT_NAME.test(project)) throw new UsageError('the project must be 1-100 characters of A-Z a-z 0-9 . _ -');
    if (values.cancel) {
      if (values.shard !== undefined) throw new UsageError('--cancel takes no --shard: it cancels whatever move the project is in');
      return await runCancelMove({ url, key, json: Boolean(values.json), project }, io);
    }
    if (values.shard === undefined) throw new UsageError('move needs --shard <n> (pincher-edge shards lists them) or --cancel');
    const shard = integerIn(values.shard, '--shard', 0, 1000);
    return await runMove({ url, key, json: Boolean(values.json), project, shard }, io);
  } finally {
    process.off('SIGINT', cancel);
    process.off('SIGTERM', cancel);
  }
}

function printVersion() {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${pkg.version}\n`);
  return 0;
}

/**
 * @param {string} url
 * @param {NodeJS.WriteStream} stderr
 */
function checkUrl(url, stderr) {
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError('--url / PINCHER_URL is not a URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new UsageError('--url must be http:// or https://');
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname);
  if (parsed.protocol === 'http:' && !loopback) stderr.write('pincher-edge: warning: plain http sends the key unencrypted; use https\n');
}

/** CI services set CI (GitHub Actions, GitLab, CircleCI, Buildkite, Azure via TF_BUILD…). @param {NodeJS.ProcessEnv} env */
/** The CI's name for who started the job, when it has one (a printable, short string). */
function ciActor(env) {
  const actor = env.GITHUB_ACTOR || env.GITLAB_USER_LOGIN;
  return actor && actor.length <= 100 && /^[^\0-\x1f\x7f]+$/.test(actor) ? actor : undefined;
}

function isCi(env) {
  return Boolean((env.CI && env.CI !== 'false' && env.CI !== '0') || env.TF_BUILD);
}

/** @param {string} text @param {string} flag @param {number} min @param {number} max */
function integerIn(text, flag, min, max) {
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(n >= min && n <= max)) throw new UsageError(`${flag} must be a whole number from ${min} to ${max}`);
  return n;
}

/** `512k`, `2m`, `1MiB`, `4096` → bytes. @param {string} text */
function sizeOf(text) {
  const match = /^(\d+)\s*(?:([kKmM])(?:i?[bB])?|[bB])?$/.exec(text.trim());
  const bytes = match ? Number(match[1]) * ({ k: 1024, m: 1024 * 1024 }[match[2]?.toLowerCase() ?? ''] ?? 1) : NaN;
  if (!(bytes >= 1 && bytes <= MAX_FILE_SIZE_LIMIT)) {
    throw new UsageError('--max-file-size must be a size from 1 byte to 2m (e.g. 4096, 512k, 2m)');
  }
  return bytes;
}

main(process.argv.slice(2)).then(
  (code) => {
    // Exit at once: an idle keep-alive socket would otherwise hold the process open for a while.
    process.stdout.write('', () => process.exit(code));
  },
  (error) => {
    const message = error instanceof UsageError || error?.code?.startsWith?.('ERR_PARSE_ARGS') ? error.message : null;
    if (message === null) throw error;
    const command = ['push', 'shards', 'move'].includes(process.argv[2]) ? process.argv[2] : 'push';
    process.stderr.write(`pincher-edge: ${message}\nRun "pincher-edge ${command} --help" for usage.\n`);
    process.exitCode = 2;
  },
);
