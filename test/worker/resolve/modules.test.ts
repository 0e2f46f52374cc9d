import { describe, expect, it } from 'vitest';
import { edgeKinds } from '../../../src/extract/reference-kinds';
import { TABLE } from '../../../src/extract/languages/table';
import { CROSS_FILE_LANGUAGES, GRAPH_LANGUAGES, graphReach, LANGUAGE_RULES, MODULE_RESOLVERS } from '../../../src/graph/languages';
import { parseCallee } from '../../../src/graph/resolve/callee';
import { GoModules, packageName } from '../../../src/graph/resolve/go';
import { JavaModules } from '../../../src/graph/resolve/java';
import { parseJsonc } from '../../../src/graph/resolve/jsonc';
import { LayoutIndex } from '../../../src/graph/resolve/layout';
import { PythonModules } from '../../../src/graph/resolve/python';
import { readCargo, RustModules } from '../../../src/graph/resolve/rust';
import type { FileScope } from '../../../src/graph/resolve/scope';
import { exportTarget, JsModules } from '../../../src/graph/resolve/typescript';
import type { RefInput } from '../../../src/graph/types';

function layout(paths: string[], configs: Record<string, string> = {}): LayoutIndex {
  return new LayoutIndex({ paths: [...paths, ...Object.keys(configs)], configs: new Map(Object.entries(configs)) });
}

function imp(file: string, language: string, name: string, importedNames: string[] = [], line = 1): RefInput {
  return { file, language, kind: 'import', name, target: null, importedNames, enclosing: null, line };
}

/** Import targets of a scope, in ref order. */
const targets = (scope: FileScope) => scope.imports.map((i) => i.dst);

describe('graph language table', () => {
  it('has a graph row for exactly the languages of the extraction table', () => {
    expect(Object.keys(GRAPH_LANGUAGES)).toEqual(TABLE.map((row) => row.id));
  });

  it('has resolution rules for every language whose extractor emits references, and for no other', () => {
    const withRefs = TABLE.filter((row) => edgeKinds(row.id).size > 0).map((row) => row.id);
    expect([...LANGUAGE_RULES.keys()]).toEqual(withRefs);
    for (const row of TABLE) expect(graphReach(row.id) === 'none', row.id).toBe(edgeKinds(row.id).size === 0);
  });

  it('derives module resolvers, cross-file rules and reach from the rows', () => {
    expect([...MODULE_RESOLVERS.keys()]).toEqual([...CROSS_FILE_LANGUAGES]);
    for (const [lang, rules] of LANGUAGE_RULES) expect(rules.crossFile, lang).toBe(CROSS_FILE_LANGUAGES.has(lang));
    for (const [lang, row] of Object.entries(GRAPH_LANGUAGES)) {
      expect(graphReach(lang), lang).toBe(row.modules ? 'cross_file' : row.rules ? 'same_file' : 'none');
    }
    expect(graphReach('')).toBe('none');
  });
});

describe('tolerant JSON', () => {
  it('reads comments and trailing commas, and leaves strings alone', () => {
    const text = '\uFEFF{\n  // line comment\n  "a": "http://x/*not*/", /* block */\n  "b": [1, 2,],\n  "c": {"d": "//", },\n}\n';
    expect(parseJsonc(text)).toEqual({ a: 'http://x/*not*/', b: [1, 2], c: { d: '//' } });
  });

  it('keeps escaped quotes inside strings', () => {
    expect(parseJsonc('{"a": "say \\"hi\\" // no", }')).toEqual({ a: 'say "hi" // no' });
  });

  it('answers null for text it cannot read', () => {
    expect(parseJsonc('{"a": }')).toBeNull();
    expect(parseJsonc('')).toBeNull();
  });
});

describe('TypeScript and JavaScript specifiers', () => {
  const files = [
    'src/a.ts',
    'src/b/index.tsx',
    'src/c.js',
    'src/types.d.ts',
    'src/lib/util.ts',
    'src/lib/deep/thing.mts',
    'src/data.json',
    'apps/web/src/main.ts',
    'apps/web/src/ui/button.tsx',
    'packages/core/src/index.ts',
    'packages/core/src/sub/feature.ts',
    'packages/cfg/src/main.ts',
    'packages/cfg/src/extra.ts',
  ];
  const configs = {
    'tsconfig.base.json': '{ "compilerOptions": { "baseUrl": "src", "paths": { "~/*": ["lib/*"], "~/deep/*": ["lib/deep/*"] } } }',
    'tsconfig.json': '{\n  // root config\n  "extends": "./tsconfig.base.json",\n  "compilerOptions": { "strict": true, },\n}',
    'apps/web/tsconfig.json': '{ "compilerOptions": { "paths": { "@ui/*": ["./src/ui/*"], "@exact": ["./src/main.ts"] } } }',
    'packages/core/package.json': '{ "name": "@acme/core", "main": "dist/index.js", "types": "dist/index.d.ts" }',
    'packages/cfg/package.json': '{ "name": "cfg", "exports": { ".": { "types": "./src/main.ts", "default": "./dist/main.js" }, "./extra": "./src/extra.ts" } }',
  };
  const js = new JsModules(layout(files, configs));

  it('resolves relative specifiers with extensions, `.js` written for `.ts`, index files and declarations', () => {
    expect(js.resolve('src/x.ts', './a')).toBe('src/a.ts');
    expect(js.resolve('src/x.ts', './a.js')).toBe('src/a.ts');
    expect(js.resolve('src/x.ts', './b')).toBe('src/b/index.tsx');
    expect(js.resolve('src/x.ts', './c')).toBe('src/c.js');
    expect(js.resolve('src/x.ts', './c.js')).toBe('src/c.js');
    expect(js.resolve('src/x.ts', './types')).toBe('src/types.d.ts');
    expect(js.resolve('src/lib/deep/y.ts', '../../a')).toBe('src/a.ts');
    expect(js.resolve('src/lib/y.ts', './deep/thing.mjs')).toBe('src/lib/deep/thing.mts');
    expect(js.resolve('src/x.ts', './data.json')).toBe('src/data.json');
  });

  it('answers null outside the project', () => {
    expect(js.resolve('src/x.ts', './missing')).toBeNull();
    expect(js.resolve('src/x.ts', '../../../escape')).toBeNull();
    expect(js.resolve('src/x.ts', 'react')).toBeNull();
    expect(js.resolve('src/x.ts', 'node:fs')).toBeNull();
    expect(js.resolve('src/x.ts', 'https://esm.sh/x')).toBeNull();
  });

  it('follows paths (longest prefix wins) and baseUrl from an extended config', () => {
    expect(js.resolve('src/x.ts', '~/util')).toBe('src/lib/util.ts');
    expect(js.resolve('src/x.ts', '~/deep/thing')).toBe('src/lib/deep/thing.mts');
    expect(js.resolve('src/x.ts', 'lib/util')).toBe('src/lib/util.ts');
  });

  it('uses the nearest tsconfig: paths relative to the declaring config, exact patterns', () => {
    expect(js.resolve('apps/web/src/main.ts', '@ui/button')).toBe('apps/web/src/ui/button.tsx');
    expect(js.resolve('apps/web/src/ui/button.tsx', '@exact')).toBe('apps/web/src/main.ts');
    // The root aliases do not apply under apps/web (its own tsconfig does not extend the root one).
    expect(js.resolve('apps/web/src/main.ts', '~/util')).toBeNull();
    expect(js.resolve('src/x.ts', '@ui/button')).toBeNull();
  });

  it('resolves workspace packages: built entries mapped to src, subpaths, exports conditions', () => {
    expect(js.resolve('apps/web/src/main.ts', '@acme/core')).toBe('packages/core/src/index.ts');
    expect(js.resolve('apps/web/src/main.ts', '@acme/core/sub/feature')).toBe('packages/core/src/sub/feature.ts');
    expect(js.resolve('apps/web/src/main.ts', 'cfg')).toBe('packages/cfg/src/main.ts');
    expect(js.resolve('apps/web/src/main.ts', 'cfg/extra')).toBe('packages/cfg/src/extra.ts');
    expect(js.resolve('apps/web/src/main.ts', '@acme/other')).toBeNull();
  });

  it('reads package exports: strings, conditions, subpath patterns', () => {
    expect(exportTarget('./a.js', '.')).toBe('./a.js');
    expect(exportTarget({ import: './m.mjs', require: './c.cjs' }, '.')).toBe('./m.mjs');
    expect(exportTarget({ '.': { node: { import: './n.mjs' } }, './x': './x.js' }, '.')).toBe('./n.mjs');
    expect(exportTarget({ './features/*': './src/features/*.ts' }, './features/a')).toBe('./src/features/a.ts');
    expect(exportTarget({ './x': './x.js' }, './y')).toBeUndefined();
  });

  it('binds named, aliased, default and namespace imports; an unresolved import binds outside names', () => {
    const scope = js.scope('src/x.ts', [
      imp('src/x.ts', 'typescript', './a', ['one', 'two as local', 'type Three']),
      imp('src/x.ts', 'typescript', './b', ['* as ns']),
      imp('src/x.ts', 'typescript', 'react', ['React', 'useState']),
      imp('src/x.ts', 'typescript', './c', []),
    ]);
    expect(targets(scope)).toEqual([['src/a.ts'], ['src/b/index.tsx'], [], ['src/c.js']]);
    expect(scope.bindings.get('one')).toMatchObject({ t: 'member', path: ['one'] });
    expect(scope.bindings.get('local')).toMatchObject({ t: 'member', path: ['two'] });
    expect(scope.bindings.get('Three')).toMatchObject({ t: 'member', path: ['Three'] });
    expect(scope.bindings.has('two')).toBe(false);
    expect(scope.bindings.get('ns')).toMatchObject({ t: 'entity', entity: { t: 'module', files: ['src/b/index.tsx'] } });
    expect(scope.bindings.get('React')).toEqual({ t: 'entity', entity: { t: 'external' } });
    expect(scope.anonymous.map((m) => m.files)).toEqual([['src/c.js']]);
  });
});

describe('Python modules', () => {
  const files = [
    'src/app/__init__.py',
    'src/app/core.py',
    'src/app/sub/__init__.py',
    'src/app/sub/leaf.py',
    'src/app/sub/deep/mod.py',
    'src/app/sub/deep/__init__.py',
    'tools/lint.py',
    'tools/common.py',
    'libs/pkg/__init__.py',
    'libs/pkg/api.py',
    'ns/plain/thing.py',
  ];
  const py = new PythonModules(layout(files));
  const scopeOf = (file: string, ...refs: [string, string[]][]) => py.scope(file, refs.map(([name, names]) => imp(file, 'python', name, names)));

  it('finds absolute modules under detected roots (src/, parents of top-level packages, the project root)', () => {
    const s = scopeOf('src/app/core.py', ['app.sub.leaf', []], ['pkg.api', []], ['ns.plain.thing', []], ['os.path', []]);
    expect(targets(s)).toEqual([['src/app/sub/leaf.py'], ['libs/pkg/api.py'], ['ns/plain/thing.py'], []]);
    // `import app.sub.leaf` binds `app`; `import os.path` binds `os` outside the project.
    expect(s.bindings.get('app')).toMatchObject({ t: 'entity', entity: { t: 'module', files: ['src/app/__init__.py'] } });
    expect(s.bindings.get('os')).toEqual({ t: 'entity', entity: { t: 'external' } });
  });

  it('climbs one package per extra dot in relative imports', () => {
    const s = scopeOf('src/app/sub/deep/mod.py', ['.', ['x']], ['..', ['leaf']], ['...core', ['Thing']], ['..leaf', ['f']], ['....', ['nope']]);
    expect(targets(s)).toEqual([['src/app/sub/deep/__init__.py'], ['src/app/sub/leaf.py'], ['src/app/core.py'], ['src/app/sub/leaf.py'], []]);
  });

  it('imports submodules by name from a package, and the package file for its own names', () => {
    const s = scopeOf('src/app/core.py', ['app.sub', ['leaf', 'common as h']], ['app', ['*']]);
    expect(targets(s)).toEqual([['src/app/sub/__init__.py', 'src/app/sub/leaf.py'], ['src/app/__init__.py']]);
    expect(s.bindings.get('h')).toMatchObject({ t: 'member', path: ['common'] });
    expect(s.wildcards.map((w) => w.files)).toEqual([['src/app/__init__.py']]);
  });

  it('binds `import a.b as m` to the module a.b', () => {
    const s = scopeOf('src/app/core.py', ['app.sub.leaf', ['app.sub.leaf as leaf']]);
    expect(s.bindings.get('leaf')).toMatchObject({ t: 'entity', entity: { files: ['src/app/sub/leaf.py'] } });
    expect(s.bindings.has('app')).toBe(false);
  });

  it("lets a script outside any package import its siblings first", () => {
    expect(targets(scopeOf('tools/lint.py', ['common', []]))).toEqual([['tools/common.py']]);
    // Inside a package there are no implicit relative imports: `core` is not app/core.py.
    expect(targets(scopeOf('src/app/sub/leaf.py', ['core', []]))).toEqual([[]]);
  });
});

describe('Go packages', () => {
  const files = ['internal/store/a.go', 'internal/store/b.go', 'internal/store/a_test.go', 'cmd/app/main.go', 'lib/v2/x.go', 'tools/gen/gen.go', 'vendorish/pkg/p.go'];
  const configs = {
    'go.mod': 'module github.com/acme/app\n\ngo 1.22\n\nrequire (\n\tgithub.com/acme/lib v2.0.0\n)\n\nreplace github.com/acme/lib/v2 => ./lib/v2\n',
    'tools/go.mod': 'module github.com/acme/app/tools\n',
  };
  const go = new GoModules(layout(files, configs));

  it('maps import paths onto module folders (longest module path, replace directives)', () => {
    expect(go.directory('github.com/acme/app/internal/store')).toBe('internal/store');
    expect(go.directory('github.com/acme/app/tools/gen')).toBe('tools/gen');
    expect(go.directory('github.com/acme/lib/v2')).toBe('lib/v2');
    expect(go.directory('github.com/acme/app/missing')).toBeNull();
    expect(go.directory('fmt')).toBeNull();
    expect(go.directory('github.com/other/x')).toBeNull();
  });

  it('without go.mod, matches the longest directory the import path ends with', () => {
    const bare = new GoModules(layout(files));
    expect(bare.directory('example.com/whatever/vendorish/pkg')).toBe('vendorish/pkg');
    expect(bare.directory('example.com/nothing/here')).toBeNull();
  });

  it('names packages by alias or last element, and sees its own directory as the package', () => {
    expect(packageName('github.com/acme/lib/v2')).toBe('lib');
    expect(packageName('gopkg.in/yaml.v3')).toBe('yaml');
    expect(packageName('github.com/mattn/go-sqlite3')).toBe('sqlite3');
    const s = go.scope('cmd/app/main.go', [
      imp('cmd/app/main.go', 'go', 'github.com/acme/app/internal/store', ['st']),
      imp('cmd/app/main.go', 'go', 'github.com/acme/lib/v2'),
      imp('cmd/app/main.go', 'go', 'github.com/acme/app/tools/gen', ['.']),
      imp('cmd/app/main.go', 'go', 'fmt'),
      imp('cmd/app/main.go', 'go', 'github.com/acme/app/internal/store', ['_']),
    ]);
    expect(targets(s)).toEqual([['internal/store'], ['lib/v2'], ['tools/gen'], [], ['internal/store']]);
    expect(s.bindings.get('st')).toMatchObject({ entity: { files: ['internal/store/a.go', 'internal/store/a_test.go', 'internal/store/b.go'] } });
    expect(s.bindings.get('lib')).toMatchObject({ entity: { files: ['lib/v2/x.go'] } });
    expect(s.bindings.get('fmt')).toEqual({ t: 'entity', entity: { t: 'external' } });
    expect(s.wildcards.map((w) => w.files)).toEqual([['tools/gen/gen.go']]);
    expect(go.scope('internal/store/a.go', []).packageFiles).toEqual(['internal/store/a_test.go', 'internal/store/b.go']);
  });
});

describe('Java packages', () => {
  const files = [
    'svc/src/main/java/com/acme/model/User.java',
    'svc/src/main/java/com/acme/model/Role.java',
    'svc/src/main/java/com/acme/util/Text.java',
    'svc/src/main/java/com/acme/app/Main.java',
    'svc/src/test/java/com/acme/app/MainTest.java',
    'other/src/main/java/com/acme/model/User.java',
  ];
  const java = new JavaModules(layout(files));
  const file = 'svc/src/main/java/com/acme/app/Main.java';

  it('finds classes by path suffix, the nearest copy first; members through static imports and nested classes', () => {
    const s = java.scope(file, [
      imp(file, 'java', 'com.acme.model', ['User']),
      imp(file, 'java', 'com.acme.util.Text', ['slug']),
      imp(file, 'java', 'com.acme.model.User', ['Builder']),
      imp(file, 'java', 'java.util', ['List']),
    ]);
    expect(targets(s)).toEqual([
      ['svc/src/main/java/com/acme/model/User.java'],
      ['svc/src/main/java/com/acme/util/Text.java'],
      ['svc/src/main/java/com/acme/model/User.java'],
      [],
    ]);
    expect(s.bindings.get('slug')).toMatchObject({ t: 'member', path: ['Text', 'slug'] });
    expect(s.bindings.get('Builder')).toMatchObject({ t: 'member', path: ['User', 'Builder'] });
    expect(s.bindings.get('List')).toEqual({ t: 'entity', entity: { t: 'external' } });
  });

  it("imports a package directory with `*`, a class's members with a static `*`", () => {
    const s = java.scope(file, [imp(file, 'java', 'com.acme.model', ['*']), imp(file, 'java', 'com.acme.util.Text', ['*']), imp(file, 'java', 'org.junit', ['*'])]);
    expect(targets(s)).toEqual([['svc/src/main/java/com/acme/model'], ['svc/src/main/java/com/acme/util/Text.java'], []]);
    expect(s.wildcards.map((w) => [w.files, w.prefix])).toEqual([
      [['svc/src/main/java/com/acme/model/Role.java', 'svc/src/main/java/com/acme/model/User.java'], ''],
      [['svc/src/main/java/com/acme/util/Text.java'], 'Text'],
    ]);
  });

  it('sees main and test folders of one package as one package', () => {
    expect(java.scope(file, []).packageFiles).toEqual(['svc/src/test/java/com/acme/app/MainTest.java']);
  });
});

describe('Rust modules', () => {
  const files = [
    'core/src/lib.rs',
    'core/src/a.rs',
    'core/src/a/b.rs',
    'core/src/m/mod.rs',
    'core/src/m/n.rs',
    'core/src/bin/tool.rs',
    'core/tests/it.rs',
    'app/src/main.rs',
    'app/src/cmd.rs',
  ];
  const configs = {
    'Cargo.toml': '[workspace]\nmembers = ["core", "app"]\n',
    'core/Cargo.toml': '[package]\nname = "my-core" # the library\nversion = "0.1.0"\n',
    'app/Cargo.toml': '[package]\nname = "app"\n\n[dependencies]\nmy-core = { path = "../core" }\n',
  };
  const rust = new RustModules(layout(files, configs));
  const use = (file: string, name: string, names: string[], enclosing: string | null = null): RefInput => ({ ...imp(file, 'rust', name, names), enclosing });

  it('reads Cargo.toml package names, lib and bin paths', () => {
    expect(readCargo('[package]\nname = "x-y"\n[lib]\npath = "src/l.rs"\n[[bin]]\nname = "t"\npath = "src/t.rs"\n')).toEqual({ name: 'x-y', lib: 'src/l.rs', bins: ['src/t.rs'] });
  });

  it('maps crate::, self::, super:: onto foo.rs and foo/mod.rs', () => {
    const s = rust.scope('core/src/a/b.rs', [
      use('core/src/a/b.rs', 'crate::m', ['n']),
      use('core/src/a/b.rs', 'super', ['thing']),
      use('core/src/a/b.rs', 'crate', ['a']),
      use('core/src/a/b.rs', 'std::collections', ['HashMap']),
      use('core/src/a/b.rs', 'crate::m', ['*']),
    ]);
    expect(targets(s)).toEqual([['core/src/m/n.rs'], ['core/src/a.rs'], ['core/src/a.rs'], [], ['core/src/m/mod.rs']]);
    expect(s.bindings.get('HashMap')).toEqual({ t: 'entity', entity: { t: 'external' } });
  });

  it('climbs from mod.rs to the crate root, and from a child of mod.rs to mod.rs', () => {
    expect(targets(rust.scope('core/src/m/mod.rs', [use('core/src/m/mod.rs', 'super', ['a'])]))).toEqual([['core/src/a.rs']]);
    expect(targets(rust.scope('core/src/m/n.rs', [use('core/src/m/n.rs', 'super', ['x'])]))).toEqual([['core/src/m/mod.rs']]);
    expect(targets(rust.scope('core/src/lib.rs', [use('core/src/lib.rs', 'a', ['b'])]))).toEqual([['core/src/a/b.rs']]);
  });

  it('resolves workspace crates by package name and treats binaries and tests as their own roots', () => {
    expect(targets(rust.scope('app/src/main.rs', [use('app/src/main.rs', 'my_core::m', ['n']), use('app/src/main.rs', 'cmd', ['run'])]))).toEqual([
      ['core/src/m/n.rs'],
      ['app/src/cmd.rs'],
    ]);
    expect(targets(rust.scope('core/tests/it.rs', [use('core/tests/it.rs', 'my_core', ['a'])]))).toEqual([['core/src/a.rs']]);
    expect(targets(rust.scope('core/src/bin/tool.rs', [use('core/src/bin/tool.rs', 'my_core::a', ['b'])]))).toEqual([['core/src/a/b.rs']]);
  });

  it('binds `self`, renames and nested paths of a use list; a child module file binds the module', () => {
    const s = rust.scope('core/src/lib.rs', [use('core/src/lib.rs', 'crate::a', ['self', 'b as bee', 'b::Thing', '_'])]);
    expect(s.bindings.get('a')).toMatchObject({ t: 'entity', entity: { files: ['core/src/a.rs'] } });
    expect(s.bindings.get('bee')).toMatchObject({ t: 'entity', entity: { files: ['core/src/a/b.rs'] } });
    expect(s.bindings.get('Thing')).toMatchObject({ t: 'member', path: ['b', 'Thing'] });
    expect(targets(s)).toEqual([['core/src/a.rs', 'core/src/a/b.rs']]);
  });

  it('binds each name of a nested use group', () => {
    const s = rust.scope('core/src/lib.rs', [use('core/src/lib.rs', 'crate', ['a::{self, b::{Thing, Other as O}}'])]);
    expect(s.bindings.get('a')).toMatchObject({ t: 'entity', entity: { files: ['core/src/a.rs'] } });
    expect(s.bindings.get('Thing')).toMatchObject({ t: 'member', path: ['a', 'b', 'Thing'] });
    expect(s.bindings.get('O')).toMatchObject({ t: 'member', path: ['a', 'b', 'Other'] });
  });

  it('reads `use super::*` inside an inline module as the file itself (no IMPORTS edge)', () => {
    const s = rust.scope('core/src/lib.rs', [use('core/src/lib.rs', 'super', ['*'], 'core/src/lib.rs::tests#Module')]);
    expect(targets(s)).toEqual([[]]);
    expect(s.wildcards.map((w) => [w.files, w.prefix])).toEqual([[['core/src/lib.rs'], '']]);
  });
});

describe('callee names', () => {
  it('splits members, paths and arrows without looking inside brackets', () => {
    expect(parseCallee('this.routes.push')).toMatchObject({ segs: ['this', 'routes', 'push'], chained: false, path: false });
    expect(parseCallee('a::b::f')).toMatchObject({ segs: ['a', 'b', 'f'], path: true });
    expect(parseCallee('Vec::<u8>::new')).toMatchObject({ segs: ['Vec', 'new'], path: true });
    expect(parseCallee('$this->save')).toMatchObject({ segs: ['$this', 'save'] });
    expect(parseCallee('q?.g').segs).toEqual(['q', 'g']);
    expect(parseCallee('a!.x').segs).toEqual(['a', 'x']);
    expect(parseCallee('items.stream().mapToInt(Item::price).sum')).toMatchObject({ segs: ['items', 'stream()', 'mapToInt(Item::price)', 'sum'], chained: true });
    expect(parseCallee('new Cart().add')).toMatchObject({ segs: ['new Cart()', 'add'], chained: false });
    expect(parseCallee('ArrayList<>').segs).toEqual(['ArrayList']);
    expect(parseCallee('super().f').segs).toEqual(['super()', 'f']);
  });
});
