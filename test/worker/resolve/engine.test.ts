import { describe, expect, it } from 'vitest';
import { createResolver } from '../../../src/graph/resolve';
import type { GraphEdge, ProjectLayout, RefInput, SymbolInput } from '../../../src/graph/types';

function sym(file: string, language: string, qualifiedName: string, kind: string, over: Partial<SymbolInput> = {}): SymbolInput {
  const dot = qualifiedName.lastIndexOf('.');
  return {
    id: `${file}::${qualifiedName}#${kind}`,
    file,
    language,
    name: qualifiedName.slice(dot + 1),
    qualifiedName,
    kind,
    parent: dot < 0 ? null : qualifiedName.slice(0, dot),
    isExported: true,
    ...over,
  };
}

function call(file: string, language: string, name: string, enclosing: string | null, line = 1): RefInput {
  const target = name.split(/\.|::|->/).pop() ?? name;
  return { file, language, kind: 'call', name, target, importedNames: null, enclosing, line };
}

function imp(file: string, language: string, name: string, importedNames: string[], line = 1): RefInput {
  return { file, language, kind: 'import', name, target: null, importedNames, enclosing: null, line };
}

function inherit(file: string, language: string, name: string, enclosing: string, line = 1): RefInput {
  return { file, language, kind: 'inherit', name, target: name, importedNames: null, enclosing, line };
}

function project(paths: string[], configs: Record<string, string> = {}): ProjectLayout {
  return { paths: [...paths, ...Object.keys(configs)], configs: new Map(Object.entries(configs)) };
}

const brief = (e: GraphEdge) => [e.kind, e.srcId ?? e.srcFile, e.dstId ?? e.dstFile, e.provenance, e.confidence];

describe('name guesses for unknown receivers', () => {
  const files = ['app/main.ts', 'app/near/a.ts', 'lib/b.ts', 'lib/c.ts', 'zz/d.ts', 'zz/e.ts'];
  const runs = ['app/near/a.ts', 'lib/b.ts', 'lib/c.ts', 'zz/d.ts', 'zz/e.ts'].map((f) => sym(f, 'typescript', 'Job.run', 'Method'));
  const caller = sym('app/main.ts', 'typescript', 'main', 'Function');

  it('emits at most three ambiguous edges, 0.5 / k each, the closest directories first, whatever the input order', () => {
    const refs = [call('app/main.ts', 'typescript', 'job.run', caller.id, 3)];
    const resolver = createResolver(project(files));
    const edges = resolver.resolve(refs, [caller, ...runs]);
    expect(edges.map(brief)).toEqual([
      ['CALLS', caller.id, 'app/near/a.ts::Job.run#Method', 'ambiguous', 0.1],
      ['CALLS', caller.id, 'lib/b.ts::Job.run#Method', 'ambiguous', 0.1],
      ['CALLS', caller.id, 'lib/c.ts::Job.run#Method', 'ambiguous', 0.1],
    ]);
    expect(createResolver(project(files)).resolve(refs, [...runs].reverse().concat(caller))).toEqual(edges);
    expect(resolver.plan(refs).names.has('run')).toBe(true);
  });

  it('gives the only candidate unique_name 0.7, and prefers the files the caller imports', () => {
    const refs = [imp('app/main.ts', 'typescript', '../zz/e', ['Job']), call('app/main.ts', 'typescript', 'job.run', caller.id, 3)];
    const edges = createResolver(project(files)).resolve(refs, [caller, ...runs]);
    expect(edges.map(brief)).toEqual([
      ['IMPORTS', 'app/main.ts', 'zz/e.ts', 'module', 1],
      ['CALLS', caller.id, 'zz/e.ts::Job.run#Method', 'unique_name', 0.7],
    ]);
    expect(edges[0].dstId).toBeNull();
  });

  it('never guesses the calling method itself (delegation), nor a receiver bound outside the project or a global', () => {
    const add = sym('lib/list.ts', 'typescript', 'Bag.add', 'Method');
    const join = sym('lib/list.ts', 'typescript', 'Bag.join', 'Method');
    const parse = sym('lib/list.ts', 'typescript', 'Bag.parse', 'Method');
    const log = sym('lib/list.ts', 'typescript', 'Bag.log', 'Method');
    const refs = [
      imp('lib/list.ts', 'typescript', 'node:path', ['* as path']),
      call('lib/list.ts', 'typescript', 'this.items.add', add.id, 2),
      call('lib/list.ts', 'typescript', 'path.join', add.id, 3),
      call('lib/list.ts', 'typescript', 'JSON.parse', add.id, 4),
      call('lib/list.ts', 'typescript', 'console.log', add.id, 5),
      call('lib/list.ts', 'typescript', 'other.join', add.id, 6),
    ];
    const edges = createResolver(project(['lib/list.ts'])).resolve(refs, [add, join, parse, log]);
    // `join` is also a built-in method name (Array#join): the guess is capped at 0.3.
    expect(edges.map(brief)).toEqual([['CALLS', add.id, join.id, 'unique_name', 0.3]]);
  });
});

describe('inheritance', () => {
  it('is IMPLEMENTS from a class to an interface, INHERITS between interfaces, and INHERITS for Go embedding', () => {
    const ts = 'src/m.ts';
    const iface = sym(ts, 'typescript', 'Shape', 'Interface');
    const sub = sym(ts, 'typescript', 'Solid', 'Interface');
    const cls = sym(ts, 'typescript', 'Box', 'Class');
    const go = 'pkg/m.go';
    const gi = sym(go, 'go', 'Reader', 'Interface');
    const gs = sym(go, 'go', 'File', 'Struct');
    const refs = [inherit(ts, 'typescript', 'Shape', sub.id, 2), inherit(ts, 'typescript', 'Solid', cls.id, 3), inherit(go, 'go', 'Reader', gs.id, 4), inherit(go, 'go', '*Reader', gs.id, 5)];
    const edges = createResolver(project([ts, go])).resolve(refs, [iface, sub, cls, gi, gs]);
    expect(edges.map((e) => [e.kind, e.srcId, e.dstId, e.provenance])).toEqual([
      ['INHERITS', sub.id, iface.id, 'same_file'],
      ['IMPLEMENTS', cls.id, sub.id, 'same_file'],
      ['INHERITS', gs.id, gi.id, 'same_file'],
      ['INHERITS', gs.id, gi.id, 'same_file'],
    ]);
  });

  it('finds a method through this file\'s base classes for `this.m()` and `super.m()`', () => {
    const f = 'src/k.ts';
    const base = sym(f, 'typescript', 'Base', 'Class');
    const baseRun = sym(f, 'typescript', 'Base.run', 'Method');
    const kid = sym(f, 'typescript', 'Kid', 'Class');
    const kidGo = sym(f, 'typescript', 'Kid.go', 'Method');
    const kidRun = sym(f, 'typescript', 'Kid.run', 'Method');
    const refs = [inherit(f, 'typescript', 'Base', kid.id, 5), call(f, 'typescript', 'super.run', kidRun.id, 7), call(f, 'typescript', 'this.run', kidGo.id, 9)];
    const edges = createResolver(project([f])).resolve(refs, [base, baseRun, kid, kidGo, kidRun]);
    expect(edges.map((e) => [e.kind, e.srcId, e.dstId, e.provenance, e.confidence])).toEqual([
      ['INHERITS', kid.id, base.id, 'same_file', 0.95],
      // Both members are defined in the calling file: as sure as a same-file definition.
      ['CALLS', kidRun.id, baseRun.id, 'receiver', 0.95],
      ['CALLS', kidGo.id, kidRun.id, 'receiver', 0.95],
    ]);
  });
});

describe('same-file languages', () => {
  it('resolve inside the file only: the enclosing class first, then top-level functions', () => {
    const a = 'lib/a.rb';
    const b = 'lib/b.rb';
    const klass = sym(a, 'ruby', 'Box', 'Class');
    const open = sym(a, 'ruby', 'Box.open', 'Method');
    const close = sym(a, 'ruby', 'Box.close', 'Method');
    const topClose = sym(a, 'ruby', 'close', 'Function');
    const elsewhere = sym(b, 'ruby', 'Other.shut', 'Method');
    const refs = [call(a, 'ruby', 'close', open.id, 2), call(a, 'ruby', 'shut', open.id, 3), call(a, 'ruby', 'x.shut', open.id, 4), call(a, 'ruby', 'close', null, 9)];
    const resolver = createResolver(project([a, b]));
    expect(resolver.plan(refs)).toEqual({ files: new Set(), names: new Set() });
    const edges = resolver.resolve(refs, [klass, open, close, topClose, elsewhere]);
    expect(edges.map(brief)).toEqual([
      ['CALLS', open.id, close.id, 'receiver', 0.95],
      ['CALLS', a, topClose.id, 'same_file', 0.95],
    ]);
  });

  it('resolve C calls to functions of the same file and leave the others alone', () => {
    const c = 'src/main.c';
    const main = sym(c, 'c', 'main', 'Function');
    const compute = sym(c, 'c', 'compute', 'Function');
    const refs = [call(c, 'c', 'compute', main.id, 3), call(c, 'c', 'printf', main.id, 4), call(c, 'c', 'ops->run', main.id, 5)];
    expect(createResolver(project([c])).resolve(refs, [main, compute]).map(brief)).toEqual([['CALLS', main.id, compute.id, 'same_file', 0.95]]);
  });

  it('produce nothing for a language without rules', () => {
    const refs = [call('x.md', 'markdown', 'a', null)];
    expect(createResolver(project(['x.md'])).resolve(refs, [])).toEqual([]);
  });
});

describe('imports through modules', () => {
  it('follows a re-exporting index by name under its folder, at 0.9', () => {
    const files = ['pkg/index.ts', 'pkg/impl/deep.ts', 'other/deep.ts', 'app.ts'];
    const fn = sym('pkg/impl/deep.ts', 'typescript', 'deep', 'Function');
    const decoy = sym('other/deep.ts', 'typescript', 'deep', 'Function');
    const main = sym('app.ts', 'typescript', 'main', 'Function');
    const refs = [imp('app.ts', 'typescript', './pkg', ['deep']), call('app.ts', 'typescript', 'deep', main.id, 4)];
    const resolver = createResolver(project(files));
    const plan = resolver.plan(refs);
    expect(plan.files).toEqual(new Set(['pkg/index.ts']));
    expect(plan.names.has('deep')).toBe(true);
    expect(resolver.resolve(refs, [fn, decoy, main]).map(brief)).toEqual([
      ['IMPORTS', 'app.ts', 'pkg/index.ts', 'module', 1],
      ['CALLS', main.id, fn.id, 'import', 0.9],
    ]);
  });

  it('stops at a known module that lacks the name (no guess) and at a library path', () => {
    const files = ['a.py', 'b.py'];
    const main = sym('a.py', 'python', 'main', 'Function');
    const other = sym('b.py', 'python', 'Thing.missing', 'Method');
    const refs = [imp('a.py', 'python', 'b', []), call('a.py', 'python', 'b.missing', main.id, 3), call('a.py', 'python', 'os.path.join', main.id, 4)];
    const edges = createResolver(project(files)).resolve(refs, [main, other]);
    expect(edges.map((e) => e.kind)).toEqual(['IMPORTS']);
  });

  it('keeps Go same-package calls at package confidence and method calls through the receiver type', () => {
    const files = ['p/a.go', 'p/b.go'];
    const put = sym('p/a.go', 'go', 'Store.Put', 'Method');
    const get = sym('p/b.go', 'go', 'Store.Get', 'Method');
    const norm = sym('p/b.go', 'go', 'normalize', 'Function');
    const refs = [call('p/a.go', 'go', 'normalize', put.id, 3), call('p/a.go', 'go', 's.Get', put.id, 4), call('p/a.go', 'go', 's.cache.Get', put.id, 5)];
    const edges = createResolver(project(files, { 'go.mod': 'module x.io/m\n' })).resolve(refs, [put, get, norm]);
    expect(edges.map(brief)).toEqual([
      ['CALLS', put.id, norm.id, 'package', 0.85],
      ['CALLS', put.id, get.id, 'receiver', 0.9],
      ['CALLS', put.id, get.id, 'unique_name', 0.7],
    ]);
  });
});

describe('scale', () => {
  it('resolves 100k references in one pass, linear in the input', () => {
    const FILES = 2000;
    const paths: string[] = [];
    const symbols: SymbolInput[] = [];
    const refs: RefInput[] = [];
    for (let i = 0; i < FILES; i++) {
      const file = `src/m${i % 40}/f${i}.ts`;
      paths.push(file);
      symbols.push(sym(file, 'typescript', `fn${i}`, 'Function'));
    }
    for (let i = 0; i < FILES; i++) {
      const lib = `lib/k${i}.ts`;
      symbols.push(sym(lib, 'typescript', `K${i}`, 'Class'), sym(lib, 'typescript', `K${i}.get`, 'Method'));
    }
    for (let i = 0; i < FILES; i++) {
      const file = paths[i];
      const next = (i + 1) % FILES;
      const rel = `../m${next % 40}/f${next}`;
      refs.push(imp(file, 'typescript', rel, [`fn${next}`]));
      const encl = `${file}::fn${i}#Function`;
      for (let j = 0; j < 49; j++) {
        if (j % 3 === 0) refs.push(call(file, 'typescript', `fn${next}`, encl, j + 2));
        else if (j % 3 === 1) refs.push(call(file, 'typescript', `fn${i}`, encl, j + 2));
        else refs.push(call(file, 'typescript', 'store.get', encl, j + 2));
      }
    }
    expect(refs.length).toBe(100_000);
    const started = performance.now();
    const resolver = createResolver(project([...paths, ...symbols.filter((x) => x.file.startsWith('lib/')).map((x) => x.file)]));
    const plan = resolver.plan(refs);
    const edges = resolver.resolve(refs, symbols);
    const ms = performance.now() - started;
    console.log(`graph scale: ${refs.length} refs, ${symbols.length} symbols → ${edges.length} edges in ${ms.toFixed(0)} ms`);
    expect(plan.files.size).toBe(FILES);
    const by = (p: string) => edges.filter((e) => e.provenance === p).length;
    expect(by('module')).toBe(FILES);
    expect(by('import')).toBe(FILES * 17);
    expect(by('same_file')).toBe(FILES * 16);
    // `store.get`: 2000 candidates, none imported: three ambiguous edges per call.
    expect(by('ambiguous')).toBe(FILES * 16 * 3);
    expect(edges.find((e) => e.provenance === 'ambiguous')?.confidence).toBe(0.001);
  }, 120_000);
});
