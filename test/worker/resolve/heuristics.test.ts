import { describe, expect, it } from 'vitest';
import { createResolver } from '../../../src/graph/resolve';
import { BUILTIN_NAME_CONFIDENCE } from '../../../src/graph/resolve/builtins';
import { OVERRIDE_CONFIDENCE, REEXPORT_CONFIDENCE } from '../../../src/graph/resolve/engine';
import type { GraphEdge } from '../../../src/graph/types';
import { DEFAULT_MIN_CONFIDENCE } from '../../../src/graph/view';
import { extract, keyOf } from './support';

async function resolveFiles(name: string, files: Record<string, string>): Promise<GraphEdge[]> {
  const { refs, symbols, layout } = await extract({ name, files: new Map(Object.entries(files)), expected: [] });
  return createResolver(layout).resolve(refs, symbols).filter((e) => e.kind === 'CALLS');
}

// The first extraction of a language loads its grammar: allow time.
const SLOW = 120_000;

const into = (edges: readonly GraphEdge[], dst: string) => edges.filter((e) => e.dstId === dst);

describe('calls on built-in values never reach a project method', () => {
  const files = {
    'src/text.ts': `export class Matcher {
  match(x: string) { return x.length > 0; }
  split(x: string) { return [x]; }
  map(f: (x: string) => string) { return f('a'); }
}
`,
    'src/use.ts': `export function run(s: string, xs: string[]) {
  const a = "a,b".split(",");
  const b = [1, 2].map((n) => n * 2);
  const c = s.split(",").map((p) => p.trim());
  const d = /x/.test(s);
  const e = \`t\${s}\`.match(/t/);
  const f = Object.keys(xs).map((k) => k);
  return [a, b, c, d, e, f];
}
`,
  };

  it('links no literal receiver (string, array, regex, template) to a same-named project method', async () => {
    const edges = await resolveFiles('builtins-literals', files);
    // Only `s.split` (a parameter: its type is not read) remains, as a capped name guess.
    expect(into(edges, 'src/text.ts::Matcher.split#Method').map((e) => [e.name, e.confidence])).toEqual([['s.split', BUILTIN_NAME_CONFIDENCE]]);
    expect(into(edges, 'src/text.ts::Matcher.match#Method')).toEqual([]);
  }, SLOW);

  it('links no method called on a built-in method result (s.split(",").map)', async () => {
    const edges = await resolveFiles('builtins-literals', files);
    expect(into(edges, 'src/text.ts::Matcher.map#Method')).toEqual([]);
  }, SLOW);
});

describe('name guesses on built-in method names are capped under the default view', () => {
  it('gives x.push() on an unknown receiver confidence BUILTIN_NAME_CONFIDENCE, under DEFAULT_MIN_CONFIDENCE', async () => {
    const edges = await resolveFiles('builtins-guess', {
      'src/stack.ts': `export class Stack {
  push(x: number) { return x; }
  peek() { return 1; }
}
`,
      'src/use.ts': `export function fill(target: any) {
  target.push(1);
  target.peek();
}
`,
    });
    const push = into(edges, 'src/stack.ts::Stack.push#Method');
    expect(push.map((e) => e.confidence)).toEqual([BUILTIN_NAME_CONFIDENCE]);
    expect(BUILTIN_NAME_CONFIDENCE).toBeLessThan(DEFAULT_MIN_CONFIDENCE);
    // A name that is no built-in method keeps its unique-name confidence.
    expect(into(edges, 'src/stack.ts::Stack.peek#Method').map((e) => e.provenance)).toEqual(['unique_name']);
  }, SLOW);
});

describe('Python receivers with bases outside the project', () => {
  const files = {
    'pkg/__init__.py': '',
    'pkg/errors.py': `class AppError(Exception):
    def __init__(self, msg):
        super().__init__(msg)
        self.with_traceback(None)


def fromkeys(xs):
    return dict.fromkeys(xs)
`,
    'pkg/other.py': `class Unrelated:
    def __init__(self):
        self.x = 1

    def with_traceback(self, tb):
        return tb
`,
    'pkg/store.py': `class Store:
    def setdefault(self, k, v):
        return v


def fill(d):
    return {}.setdefault("a", 1)
`,
  };

  it('links super().__init__() on a built-in base to no unrelated __init__', async () => {
    const edges = await resolveFiles('py-super', files);
    expect(into(edges, 'pkg/other.py::Unrelated.__init__#Method')).toEqual([]);
  }, SLOW);

  it('links self.m() inherited from an outside base to no same-named project method', async () => {
    const edges = await resolveFiles('py-super', files);
    expect(into(edges, 'pkg/other.py::Unrelated.with_traceback#Method')).toEqual([]);
  }, SLOW);

  it('links dict.fromkeys() and {}.setdefault() to no project function or method', async () => {
    const edges = await resolveFiles('py-super', files);
    expect(into(edges, 'pkg/errors.py::fromkeys#Function').map(keyOf)).toEqual([]);
    expect(into(edges, 'pkg/store.py::Store.setdefault#Method')).toEqual([]);
  }, SLOW);
});

describe('calls through an abstract method reach the overrides of the same file', () => {
  it('links this.run() on an abstract method to it and, at OVERRIDE_CONFIDENCE, to each subclass override in the file', async () => {
    const edges = await resolveFiles('abstract-dispatch', {
      'src/base.ts': `export abstract class Base {
  abstract run(x: number): number;
  twice(x: number) { return this.run(this.run(x)); }
  helper() { return 1; }
  go() { return this.helper(); }
}
export class Fast extends Base {
  run(x: number) { return x; }
  helper() { return 2; }
}
class Faster extends Fast {
  run(x: number) { return x + 1; }
}
class Other {
  run(x: number) { return x; }
}
`,
    });
    const seen = (dst: string) => into(edges, dst).map((e) => [e.srcId, e.confidence, e.provenance]);
    expect(seen('src/base.ts::Base.run#Method')).toEqual([['src/base.ts::Base.twice#Method', 0.95, 'receiver'], ['src/base.ts::Base.twice#Method', 0.95, 'receiver']]);
    expect(seen('src/base.ts::Fast.run#Method')[0]).toEqual(['src/base.ts::Base.twice#Method', OVERRIDE_CONFIDENCE, 'receiver']);
    expect(seen('src/base.ts::Faster.run#Method')[0]).toEqual(['src/base.ts::Base.twice#Method', OVERRIDE_CONFIDENCE, 'receiver']);
    expect(seen('src/base.ts::Other.run#Method')).toEqual([]);
    // A concrete method keeps its single target: the override runs no more often than it does.
    expect(seen('src/base.ts::Fast.helper#Method')).toEqual([]);
  }, SLOW);
});

describe('functions nested in a function', () => {
  it('resolve by bare name from inside their function only', async () => {
    const edges = await resolveFiles('nested-functions', {
      'src/locale.ts': `export const error = () => {
  function getSizing(origin: string) { return origin.length; }
  return (issue: { origin: string }) => getSizing(issue.origin);
};
export function other(o: string) {
  return getSizing(o);
}
`,
    });
    expect(into(edges, 'src/locale.ts::error.getSizing#Function').map((e) => [e.srcId, e.provenance])).toEqual([['src/locale.ts::error#Function', 'same_file']]);
  }, SLOW);
});

describe('namespaces an index file re-exports', () => {
  it('reaches util.f() through `import { util } from "./core/index"` and `core.util.f()` when the barrel re-exports ./util, as re-exports', async () => {
    const edges = await resolveFiles('barrel-namespace', {
      'src/core/util.ts': `export function normalize(x: string) { return x.trim(); }\n`,
      'src/core/index.ts': `export * as util from "./util.js";\n`,
      'src/api.ts': `import { util } from "./core/index.js";
import * as core from "./core/index.js";
export function a(x: string) { return util.normalize(x); }
export function b(x: string) { return core.util.normalize(x); }
export function c(x: string) { return core.missing.normalize(x); }
`,
    });
    expect(into(edges, 'src/core/util.ts::normalize#Function').map((e) => [e.srcId, e.confidence, e.provenance])).toEqual([
      ['src/api.ts::a#Function', REEXPORT_CONFIDENCE, 'import'],
      ['src/api.ts::b#Function', REEXPORT_CONFIDENCE, 'import'],
    ]);
  }, SLOW);
});
