// Builds throw-away file trees for the CLI tests under the OS temp folder (outside any git
// work tree, so no ignore file from above applies unless a test puts one there).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export type TreeSpec = Record<string, string | Buffer>;

const made: string[] = [];

export async function makeTree(spec: TreeSpec, prefix = 'pincher-cli-'): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  made.push(root);
  await addToTree(root, spec);
  return root;
}

export async function addToTree(root: string, spec: TreeSpec): Promise<void> {
  for (const [path, content] of Object.entries(spec)) {
    const file = join(root, path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, content);
  }
}

export async function removeTrees(): Promise<void> {
  await Promise.all(made.splice(0).map((root) => rm(root, { recursive: true, force: true })));
}
