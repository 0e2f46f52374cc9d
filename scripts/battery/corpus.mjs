// A small generated repository (TypeScript and Python files that call each other) and
// pushes of it through the real CLI client (walk + upload protocol).
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { push } from '../../cli/push.mjs';
import { walk } from '../../cli/walk.mjs';

/** Names the generated code defines: the query mix and the fuzz draw from them. */
export const NAMES = {
  functions: [],
  classes: [],
  files: [],
};

function tsModule(i, files) {
  const fn = `handleRequest${i}`;
  const cls = `Service${i}`;
  NAMES.functions.push(fn, `parseInput${i}`);
  NAMES.classes.push(cls);
  const prev = i > 0 ? `import { handleRequest${i - 1} } from './mod${i - 1}';\n` : '';
  const call = i > 0 ? `  return handleRequest${i - 1}(parseInput${i}(input));` : '  return parseInput0(input).length;';
  return `${prev}/** Parses raw input for module ${i}. */
export function parseInput${i}(input: string): string {
  return input.trim().toLowerCase();
}

/** Entry point of module ${i}. */
export function ${fn}(input: string): number {
${call}
}

export class ${cls} {
  private count = 0;
  run(input: string): number {
    this.count++;
    return ${fn}(input) + this.count;
  }
}
${files.extra ?? ''}`;
}

function pyModule(i) {
  NAMES.functions.push(`load_config_${i}`);
  NAMES.classes.push(`Repository${i}`);
  return `"""Module ${i}: configuration and storage."""


def load_config_${i}(path: str) -> dict:
    """Loads the configuration at path."""
    with open(path) as fh:
        return {"path": path, "size": len(fh.read())}


class Repository${i}:
    def __init__(self, root: str):
        self.root = root

    def fetch(self, key: str) -> dict:
        return load_config_${i}(self.root + "/" + key)
`;
}

/** Writes `modules` TS and Python files (and a README) into a fresh temp folder. */
export async function writeCorpus(modules = 30) {
  const dir = await mkdtemp(path.join(tmpdir(), 'pincher-corpus-'));
  await mkdir(path.join(dir, 'src'), { recursive: true });
  await mkdir(path.join(dir, 'py'), { recursive: true });
  for (let i = 0; i < modules; i++) {
    await writeFile(path.join(dir, 'src', `mod${i}.ts`), tsModule(i, {}));
    await writeFile(path.join(dir, 'py', `store_${i}.py`), pyModule(i));
    NAMES.files.push(`src/mod${i}.ts`, `py/store_${i}.py`);
  }
  await writeFile(path.join(dir, 'README.md'), '# Generated corpus\n\nUsed by the fuzz and soak runs.\n');
  NAMES.files.push('README.md');
  return dir;
}

/** Rewrites one module with an extra function so that the next push changes one file. */
export async function touchCorpus(dir, round) {
  const i = round % Math.max(1, NAMES.files.filter((f) => f.endsWith('.ts')).length);
  await writeFile(path.join(dir, 'src', `mod${i}.ts`), tsModule(i, { extra: `\nexport const revision${round} = ${round};\n` }));
}

/** Pushes the folder as `project` through the CLI client. */
export async function pushCorpus({ url, key, project, dir, commit }) {
  const { files } = await walk(dir);
  return push({ url, key, project, ref: 'main', commit, root: dir, files, concurrency: 2, retryBaseMs: 200 });
}
