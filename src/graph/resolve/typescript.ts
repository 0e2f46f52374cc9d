/**
 * TypeScript, TSX and JavaScript modules. A specifier resolves, in order:
 * - relative (`./a`, `../b/c`) from the importing file's directory;
 * - `compilerOptions.paths` of the nearest `tsconfig.json` / `jsconfig.json`
 *   up the directory tree (`extends` with a relative path is followed;
 *   patterns may hold one `*`; the longest matching prefix wins; targets are
 *   relative to `baseUrl`, else to the config that declares `paths`);
 * - `compilerOptions.baseUrl` + specifier;
 * - a workspace package: a folder whose `package.json` `name` is the
 *   specifier's package (`@scope/pkg`, `pkg`); the entry is the first of
 *   `source`, `exports['.']` (conditions `source`, `types`, `import`,
 *   `module`, `default`, `require`, `node`), `types`/`typings`, `module`,
 *   `main` that exists — a built path (`dist/`, `lib/`, `build/`, `out/`) is
 *   also tried under `src/` — then `src/index.*`, `index.*`; a subpath
 *   (`@scope/pkg/sub`) uses `exports['./sub']` (or a `./*` pattern), then
 *   `<pkg>/sub`, `<pkg>/src/sub`.
 * A candidate path is tried as written, then with `.js`/`.jsx`/`.mjs`/`.cjs`
 * swapped for the TypeScript extension, then + `.ts .tsx .d.ts .js .jsx .mjs
 * .cjs .mts .cts`, then as a directory with `index.*`. Anything else (a
 * library in node_modules, `node:` built-ins) is outside the project.
 */
import type { RefInput } from '../types';
import { isRecord, parseJsonc } from './jsonc';
import type { LayoutIndex } from './layout';
import { dirname, join } from './paths';
import { EXTERNAL, emptyScope, type FileScope, type ModuleEntity, type ModuleResolver } from './scope';

const EXTENSIONS = ['.ts', '.tsx', '.d.ts', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts'];
const JS_TO_TS: Readonly<Record<string, readonly string[]>> = {
  '.js': ['.ts', '.tsx', '.d.ts'],
  '.jsx': ['.tsx'],
  '.mjs': ['.mts', '.d.mts'],
  '.cjs': ['.cts', '.d.cts'],
};
const BUILT_DIRS = /^(?:\.\/)?(?:dist|lib|build|out)\//;
const CONDITIONS = ['source', 'types', 'import', 'module', 'default', 'require', 'node'];

interface TsConfig {
  baseUrl: string | null;
  /** Pattern, targets, and the directory targets are relative to. */
  paths: { pattern: string; targets: string[]; base: string }[];
}

interface RawConfig {
  baseUrl: string | null;
  paths: Record<string, unknown> | null;
  /** Directory of the config that declared `paths`. */
  pathsDir: string | null;
}

interface WorkspacePackage {
  dir: string;
  json: Record<string, unknown>;
}

export class JsModules implements ModuleResolver {
  private readonly configByDir = new Map<string, TsConfig | null>();
  private readonly packages = new Map<string, WorkspacePackage>();
  private readonly cache = new Map<string, string | null>();

  constructor(private readonly layout: LayoutIndex) {
    for (const [path, text] of layout.configsNamed('package.json')) {
      const json = parseJsonc(text);
      if (!isRecord(json) || typeof json.name !== 'string' || json.name === '') continue;
      // The shallowest folder wins a name declared twice (fixtures, examples).
      if (!this.packages.has(json.name)) this.packages.set(json.name, { dir: dirname(path), json });
    }
  }

  scope(file: string, refs: readonly RefInput[]): FileScope {
    const scope = emptyScope();
    for (const ref of refs) {
      if (ref.kind !== 'import') continue;
      const target = this.resolve(file, ref.name);
      scope.imports.push({ ref, dst: target ? [target] : [] });
      const module: ModuleEntity | null = target ? this.moduleOf(target) : null;
      const names = ref.importedNames ?? [];
      for (const written of names) {
        const n = written.replace(/^type\s+/, '').trim();
        if (n === '*') continue; // `export * from`: nothing is bound locally
        const ns = /^\*\s+as\s+(\S+)$/.exec(n);
        if (ns) {
          scope.bindings.set(ns[1], { t: 'entity', entity: module ?? EXTERNAL });
          continue;
        }
        const alias = /^(\S+)\s+as\s+(\S+)$/.exec(n);
        const remote = alias ? alias[1] : n;
        const local = alias ? alias[2] : n;
        scope.bindings.set(local, module ? { t: 'member', module, path: [remote] } : { t: 'entity', entity: EXTERNAL });
      }
      if (names.length === 0 && module) {
        scope.anonymous.push(module);
        // `const compare = require('./compare')`: the constant names the module's export of that name
        // (else its default export); the binding wins over the same-file constant.
        const bound = requireBinding(ref.enclosing);
        if (bound !== null && !scope.bindings.has(bound)) scope.bindings.set(bound, { t: 'member', module, path: [bound] });
      }
    }
    return scope;
  }

  /**
   * A project file as a module. An index file (a barrel) also has the sibling modules it
   * re-exports as namespaces (`export * as util from './util'`): a name it does not define, with
   * a file of that name beside it, is that file (reached as a re-export).
   */
  private moduleOf(file: string): ModuleEntity {
    const dir = dirname(file);
    const barrel = /^index\.[cm]?[jt]sx?$/.test(file.slice(dir.length === 0 ? 0 : dir.length + 1));
    return {
      t: 'module',
      files: [file],
      prefix: '',
      reexportDir: dir,
      defaultExport: true,
      ...(barrel
        ? {
            child: (name: string) => {
              const hit = this.probe(dir === '' ? name : `${dir}/${name}`);
              return hit && hit !== file ? { ...this.moduleOf(hit), viaReexport: true } : null;
            },
          }
        : {}),
    };
  }

  /** The project file a specifier names, or null when it is outside the project. */
  resolve(from: string, spec: string): string | null {
    const dir = dirname(from);
    const key = `${dir}\0${spec}`;
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    const out = this.resolveUncached(dir, spec);
    this.cache.set(key, out);
    return out;
  }

  private resolveUncached(dir: string, spec: string): string | null {
    if (spec === '') return null;
    if (spec.startsWith('./') || spec.startsWith('../') || spec === '.' || spec === '..') {
      const base = join(dir, spec);
      return base === null ? null : this.probe(base);
    }
    if (spec.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(spec)) return null; // absolute, `node:`, URLs
    const config = this.configFor(dir);
    if (config) {
      const viaPaths = this.viaPaths(config, spec);
      if (viaPaths) return viaPaths;
      if (config.baseUrl !== null) {
        const base = join(config.baseUrl, spec);
        const hit = base === null ? null : this.probe(base);
        if (hit) return hit;
      }
    }
    return this.viaPackage(spec);
  }

  private viaPaths(config: TsConfig, spec: string): string | null {
    let best: { star: string; targets: string[]; base: string; prefix: number } | null = null;
    for (const { pattern, targets, base } of config.paths) {
      const star = pattern.indexOf('*');
      if (star < 0) {
        if (pattern === spec && (!best || pattern.length > best.prefix)) best = { star: '', targets, base, prefix: pattern.length };
        continue;
      }
      const prefix = pattern.slice(0, star);
      const suffix = pattern.slice(star + 1);
      if (spec.length >= prefix.length + suffix.length && spec.startsWith(prefix) && spec.endsWith(suffix) && (!best || prefix.length > best.prefix)) {
        best = { star: spec.slice(prefix.length, spec.length - suffix.length), targets, base, prefix: prefix.length };
      }
    }
    if (!best) return null;
    for (const target of best.targets) {
      const path = join(best.base, target.replace('*', best.star));
      const hit = path === null ? null : this.probe(path);
      if (hit) return hit;
    }
    return null;
  }

  private viaPackage(spec: string): string | null {
    const parts = spec.split('/');
    const nameLength = spec.startsWith('@') ? 2 : 1;
    if (parts.length < nameLength) return null;
    const pkg = this.packages.get(parts.slice(0, nameLength).join('/'));
    if (!pkg) return null;
    const sub = parts.slice(nameLength).join('/');
    const { dir, json } = pkg;
    if (sub === '') {
      const entries = [json.source, exportTarget(json.exports, '.'), json.types, json.typings, json.module, json.main];
      for (const entry of entries) {
        if (typeof entry !== 'string') continue;
        const hit = this.probeBuilt(dir, entry);
        if (hit) return hit;
      }
      return this.probeFrom(dir, 'src/index') ?? this.probeFrom(dir, 'index');
    }
    const exported = exportTarget(json.exports, `./${sub}`);
    if (typeof exported === 'string') {
      const hit = this.probeBuilt(dir, exported);
      if (hit) return hit;
    }
    return this.probeFrom(dir, sub) ?? this.probeFrom(dir, `src/${sub}`);
  }

  private probeFrom(dir: string, rel: string): string | null {
    const base = join(dir, rel);
    return base === null ? null : this.probe(base);
  }

  /** A package entry as written, else its source under `src/` (`dist/index.js` → `src/index.ts`). */
  private probeBuilt(dir: string, entry: string): string | null {
    const direct = this.probeFrom(dir, entry);
    if (direct) return direct;
    if (!BUILT_DIRS.test(entry)) return null;
    return this.probeFrom(dir, entry.replace(BUILT_DIRS, 'src/').replace(/\.d\.[cm]?ts$/, ''));
  }

  /** A candidate path → the file it denotes (extension swaps, added extensions, index files). */
  probe(base: string): string | null {
    if (this.layout.has(base)) return base;
    const ext = /\.[cm]?jsx?$/.exec(base)?.[0];
    if (ext) {
      const stemmed = base.slice(0, -ext.length);
      for (const e of JS_TO_TS[ext] ?? []) if (this.layout.has(stemmed + e)) return stemmed + e;
    }
    for (const e of EXTENSIONS) if (this.layout.has(base + e)) return base + e;
    if (this.layout.isDir(base)) {
      for (const e of EXTENSIONS) if (this.layout.has(`${base}/index${e}`)) return `${base}/index${e}`;
    }
    return null;
  }

  /** The nearest tsconfig.json / jsconfig.json at or above `dir`. */
  private configFor(dir: string): TsConfig | null {
    const cached = this.configByDir.get(dir);
    if (cached !== undefined) return cached;
    let out: TsConfig | null = null;
    const own = [`${dir ? `${dir}/` : ''}tsconfig.json`, `${dir ? `${dir}/` : ''}jsconfig.json`].find((p) => this.layout.configs.has(p));
    if (own) {
      const raw = this.readConfig(own, 0);
      const base = raw.baseUrl;
      const paths: TsConfig['paths'] = [];
      if (raw.paths) {
        const pathsBase = base ?? raw.pathsDir ?? dir;
        for (const [pattern, targets] of Object.entries(raw.paths)) {
          if (Array.isArray(targets)) paths.push({ pattern, targets: targets.filter((t): t is string => typeof t === 'string'), base: pathsBase });
        }
      }
      out = { baseUrl: base, paths };
    } else if (dir !== '') {
      out = this.configFor(dirname(dir));
    }
    this.configByDir.set(dir, out);
    return out;
  }

  /** `compilerOptions.baseUrl` and `paths` of a config, `extends` merged in (project paths only). */
  private readConfig(path: string, depth: number): RawConfig {
    const out: RawConfig = { baseUrl: null, paths: null, pathsDir: null };
    const json = parseJsonc(this.layout.configs.get(path) ?? '');
    if (!isRecord(json) || depth > 5) return out;
    const dir = dirname(path);
    const parents = typeof json.extends === 'string' ? [json.extends] : Array.isArray(json.extends) ? json.extends : [];
    for (const parent of parents) {
      if (typeof parent !== 'string' || !parent.startsWith('.')) continue;
      const target = join(dir, parent.endsWith('.json') ? parent : `${parent}.json`);
      if (target === null || !this.layout.configs.has(target)) continue;
      const inherited = this.readConfig(target, depth + 1);
      if (inherited.baseUrl !== null) out.baseUrl = inherited.baseUrl;
      if (inherited.paths) {
        out.paths = inherited.paths;
        out.pathsDir = inherited.pathsDir;
      }
    }
    const options = isRecord(json.compilerOptions) ? json.compilerOptions : {};
    if (typeof options.baseUrl === 'string') out.baseUrl = join(dir, options.baseUrl);
    if (isRecord(options.paths)) {
      out.paths = options.paths;
      out.pathsDir = dir;
    }
    return out;
  }
}

/** The target `exports` gives for a subpath (`.`, `./sub`), conditions resolved; undefined when none. */
export function exportTarget(exports: unknown, key: string): string | undefined {
  if (typeof exports === 'string' || Array.isArray(exports)) return key === '.' ? pick(exports) : undefined;
  if (!isRecord(exports)) return undefined;
  const keys = Object.keys(exports);
  if (!keys.some((k) => k.startsWith('.'))) return key === '.' ? pick(exports) : undefined;
  if (key in exports) return pick(exports[key]);
  for (const k of keys) {
    const star = k.indexOf('*');
    if (star < 0) continue;
    const prefix = k.slice(0, star);
    const suffix = k.slice(star + 1);
    if (key.startsWith(prefix) && key.endsWith(suffix) && key.length >= prefix.length + suffix.length) {
      const target = pick(exports[k]);
      return target?.replace('*', key.slice(prefix.length, key.length - suffix.length));
    }
  }
  return undefined;
}

function pick(value: unknown, depth = 0): string | undefined {
  if (typeof value === 'string') return value;
  if (depth > 4) return undefined;
  if (Array.isArray(value)) {
    for (const v of value) {
      const hit = pick(v, depth + 1);
      if (hit) return hit;
    }
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  for (const c of [...CONDITIONS, ...Object.keys(value)]) {
    const hit = pick(value[c], depth + 1);
    if (hit) return hit;
  }
  return undefined;
}

/** The top-level constant or variable an import reference initialises (`const x = require('./x')`), else null. */
function requireBinding(enclosing: string | null): string | null {
  if (enclosing === null) return null;
  const m = /::([\p{L}_$][\p{L}\p{N}_$]*)#(?:Constant|Variable)$/u.exec(enclosing);
  return m ? m[1] : null;
}
