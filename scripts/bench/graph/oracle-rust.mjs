// Oracle for Rust callers: rustc's own name resolution and type checking, read from the MIR a
// nightly rustc prints (`rustc +nightly -Zunpretty=mir -Zmir-include-spans=yes
// -Ztrim-diagnostic-paths=no`) for each crate of the corpus that builds without dependencies
// (a folder holding `Cargo.toml` and `src/lib.rs`; `cfg(test)` code is not compiled).
//
// MIR names every call's callee by its resolved path (`ast::parse::ParserI::<'_, P>::parse_group`,
// `<ast::Span as std::clone::Clone>::clone`) and every body by its definition path
// (`ast::parse::<impl at src/ast/parse.rs:949:1: 949:43>::parse_group`). The mapping back to
// source, conservatively:
// - a body's definition is the nearest `fn <name>` at or above its return-place span (the
//   signature's return type); bodies without one in a crate file (derives, macro output) are
//   neither targets nor callers; closures (`::{closure#N}`) count for their named function;
// - an impl's self type is read from the source at the `<impl at …>` span, which must start
//   with `impl` (derived impls start at the derive's name and are left out);
// - a callee path is matched to a definition by its whole path (free functions, trait default
//   methods, functions nested in functions), else, for `Type::m` and `<Type as Trait>::m`, by
//   the method of an impl of `Type` in the callee's module, else of the only impl of a type so
//   named; `<T as Trait>::m` on a type parameter, or on a type whose impl does not define `m`,
//   is the trait's default method (a required method has no body and is no target, like Go's
//   interface methods);
// - a call counts when it is written: the callee's name appears in the source text of the
//   call's span, in the caller's file and within its lines — operators (`==` → `eq`), `?`
//   (`from_residual`), auto-deref and calls a crate macro expands to are left out.
//
//   oracleRust({ dir, files }) → { tool, targets: [...] } (same shape as oracle-ts)
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { run } from '../proc.mjs';
import { targetsFromSites } from './sites.mjs';

/** The crate's edition, name, features (all declared) and whether it has dependencies, from Cargo.toml. */
export function readCargoToml(text) {
  const section = (name) => {
    const m = text.match(new RegExp(`^\\[${name.replace('.', '\\.')}\\]\\s*$([\\s\\S]*?)(?=^\\[|$(?![\\s\\S]))`, 'm'));
    return m ? m[1] : '';
  };
  const pkg = section('package');
  const name = pkg.match(/^name\s*=\s*"([^"]+)"/m)?.[1] ?? null;
  const edition = pkg.match(/^edition\s*=\s*"(\d+)"/m)?.[1] ?? '2015';
  const features = [...section('features').matchAll(/^([A-Za-z0-9_-]+)\s*=/gm)].map((m) => m[1]).filter((f) => f !== 'default');
  const deps = /^\[(dependencies|dependencies\.[^\]]+)\]/m.test(text) && /\S/.test(section('dependencies'));
  return { name, edition, features, deps };
}

/** Removes generic arguments (`::<…>`, `<…>` after a name) from a path, angle brackets balanced. */
export function stripGenerics(p) {
  let out = '';
  let depth = 0;
  for (let i = 0; i < p.length; i++) {
    const ch = p[i];
    if (ch === '<' && depth === 0 && out.length && /[\w:]$/.test(out)) {
      depth = 1;
      if (out.endsWith('::')) out = out.slice(0, -2);
      continue;
    }
    if (depth > 0) {
      if (ch === '<') depth++;
      else if (ch === '>' && p[i - 1] !== '-') depth--;
      continue;
    }
    out += ch;
  }
  return out;
}

/** `<A as B>::m` → { self: 'A', trait: 'B', rest: 'm' }; else null. */
function splitQualified(p) {
  if (!p.startsWith('<')) return null;
  let depth = 0;
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '<') depth++;
    else if (p[i] === '>' && p[i - 1] !== '-') {
      depth--;
      if (depth === 0) {
        const inner = p.slice(1, i);
        const rest = p.slice(i + 1).replace(/^::/, '');
        // ` as ` at depth 0 of the inner text
        let d = 0;
        for (let j = 0; j < inner.length; j++) {
          if (inner[j] === '<') d++;
          else if (inner[j] === '>' && inner[j - 1] !== '-') d--;
          else if (d === 0 && inner.startsWith(' as ', j)) return { self: inner.slice(0, j), trait: inner.slice(j + 4), rest };
        }
        return { self: inner, trait: null, rest };
      }
    }
  }
  return null;
}

/** The text of a callee path up to its argument list: `a::b::<T>::c(` → `a::b::<T>::c`. */
function calleeText(s) {
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (ch === '<') depth++;
    else if (ch === '>' && s[i - 1] !== '-') depth--;
    else if (ch === '(' && depth === 0) return s.slice(0, i);
  }
  return null;
}

const SPAN = /(\S+?):(\d+):(\d+): (\d+):(\d+)$/;
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Call sites and definitions of one crate from its MIR text.
 * @param {string} mir rustc's -Zunpretty=mir output (spans relative to the crate folder)
 * @param {(file: string) => string[] | null} lines the source lines of a crate file, null outside the crate
 */
export function sitesFromMir(mir, lines) {
  const bodies = [];
  let cur = null;
  for (const line of mir.split('\n')) {
    if (line.startsWith('fn ')) {
      const p = calleeText(line.slice(3));
      cur = p ? { path: p, ret: null, calls: [] } : null;
      if (cur) bodies.push(cur);
      continue;
    }
    if (line === '}') {
      cur = null;
      continue;
    }
    if (!cur) continue;
    const at = line.indexOf(' // ');
    if (at < 0) continue;
    const span = line.slice(at).match(SPAN);
    if (!span) continue;
    const pos = { file: span[1], line: +span[2], col: +span[3], endLine: +span[4], endCol: +span[5] };
    if (cur.ret === null && line.includes('// return place in scope')) cur.ret = pos;
    const stmt = line.slice(0, at);
    const m = stmt.match(/^\s+_\d+ = (.*) -> (\[return:|unwind )/);
    if (!m) continue;
    const callee = calleeText(m[1]);
    if (callee && !callee.startsWith('move ') && !callee.startsWith('copy ') && !callee.startsWith('const ')) cur.calls.push({ callee, pos });
  }

  /** definition path (generics stripped, closures kept) → def */
  const defs = new Map();
  /** `Type::m` → defs of impl methods */
  const byTypeMethod = new Map();
  const implType = (file, ln) => {
    const src = lines(file);
    if (!src) return null;
    let text = '';
    for (let i = ln - 1; i < Math.min(src.length, ln + 4) && !text.includes('{'); i++) text += ` ${src[i]}`;
    text = text.trim();
    if (!/^(unsafe\s+)?impl\b/.test(text)) return null;
    let head = text.replace(/^(unsafe\s+)?impl\s*/, '');
    if (head.startsWith('<')) {
      let d = 0;
      let i = 0;
      for (; i < head.length; i++) {
        if (head[i] === '<') d++;
        else if (head[i] === '>' && head[i - 1] !== '-' && --d === 0) break;
      }
      head = head.slice(i + 1);
    }
    head = stripGenerics(head.split(/\s+where\s+|\{/)[0]).trim();
    const forAt = head.search(/\sfor\s/);
    const type = (forAt >= 0 ? head.slice(forAt + 5) : head).trim().replace(/^&(mut\s+)?|^dyn\s+/, '').split('::').pop();
    return type && IDENT.test(type) ? type : null;
  };
  for (const b of bodies) {
    const clean = b.path.replace(/::\{closure#\d+\}/g, '');
    if (clean !== b.path || !b.ret) continue;
    const segs = splitPath(b.path);
    const name = segs[segs.length - 1];
    if (!IDENT.test(name)) continue;
    const src = lines(b.ret.file);
    if (!src) continue;
    let line = null;
    const re = new RegExp(`\\bfn\\s+${name}\\b`);
    for (let i = b.ret.line - 1; i >= Math.max(0, b.ret.line - 40); i--) {
      if (re.test(src[i])) {
        line = i + 1;
        break;
      }
    }
    if (line === null) continue;
    const implSeg = segs.length > 1 ? segs[segs.length - 2].match(/^<impl at (\S+?):(\d+):\d+: \d+:\d+>$/) : null;
    const parent = segs.slice(0, -1);
    let def;
    if (implSeg) {
      const type = implType(implSeg[1], +implSeg[2]);
      if (!type || line < +implSeg[2]) continue;
      def = { file: b.ret.file, name, line, kind: 'Method', module: stripGenerics(parent.slice(0, -1).join('::')), type };
      const k = `${type}::${name}`;
      byTypeMethod.set(k, [...(byTypeMethod.get(k) ?? []), def]);
    } else {
      const owner = parent.length ? parent[parent.length - 1] : null;
      // A trait default method: its owner is a trait (capitalised, not a function of ours).
      const inTrait = owner !== null && /^[A-Z]/.test(owner) && !defs.has(defKey(parent.join('::')));
      def = { file: b.ret.file, name, line, kind: inTrait ? 'Method' : 'Function' };
    }
    def.path = defKey(b.path);
    defs.set(def.path, def);
  }
  // A def's end: the last line its body (or its closures') spans reach in its own file.
  const ends = new Map();
  for (const b of bodies) {
    const owner = defs.get(defKey(b.path.replace(/::\{closure#\d+\}/g, '')));
    if (!owner || !b.ret) continue;
    let end = ends.get(owner) ?? owner.line;
    for (const c of b.calls) if (c.pos.file === owner.file && c.pos.line >= owner.line) end = Math.max(end, c.pos.endLine);
    ends.set(owner, end);
  }

  const resolve = (callee) => {
    const q = splitQualified(callee);
    if (q) {
      const rest = stripGenerics(q.rest);
      if (!IDENT.test(rest)) return null;
      const self = stripGenerics(q.self.replace(/^&(mut\s+)?|^\*(const|mut)\s+/, '')).trim();
      const selfSegs = self.split('::');
      const typeName = selfSegs.pop();
      if (IDENT.test(typeName) && selfSegs.length) {
        const found = byType(typeName, rest, selfSegs.join('::'));
        if (found) return found;
      }
      // `<P as Trait>::m` on a type parameter (or Self), or a type whose impl does not define `m`:
      // the trait's default method.
      return q.trait ? (defs.get(`${stripGenerics(q.trait)}::${rest}`) ?? null) : null;
    }
    const p = stripGenerics(callee);
    const whole = defs.get(p);
    if (whole) return whole;
    const segs = p.split('::');
    if (segs.length < 2) return null;
    return byType(segs[segs.length - 2], segs[segs.length - 1], segs.slice(0, -2).join('::'));
  };
  const byType = (type, method, module) => {
    const list = byTypeMethod.get(`${type}::${method}`) ?? [];
    const here = list.filter((d) => d.module === module);
    if (here.length === 1) return here[0];
    return list.length === 1 ? list[0] : null;
  };

  const calls = [];
  for (const b of bodies) {
    const segs = splitPath(b.path.replace(/::\{closure#\d+\}/g, ''));
    const owner = defs.get(defKey(segs.join('::')));
    if (!owner) continue;
    // The enclosing named functions, innermost first (functions nested in functions).
    const chain = [owner];
    for (let n = segs.length - 1; n > 0; n--) {
      const d = defs.get(defKey(segs.slice(0, n).join('::')));
      if (d && d.kind === 'Function' && d.file === owner.file) chain.push(d);
    }
    const end = ends.get(owner) ?? owner.line;
    for (const c of b.calls) {
      if (c.pos.file !== owner.file || c.pos.line < owner.line || c.pos.endLine > end) continue;
      const target = resolve(c.callee);
      if (!target) continue;
      const src = lines(c.pos.file);
      const text = spanText(src, c.pos);
      const re = new RegExp(`\\b${target.name}\\b`, 'g');
      let hit = null;
      for (const m of text.matchAll(re)) hit = m.index;
      if (hit === null) continue;
      const line = c.pos.line + (text.slice(0, hit).match(/\n/g)?.length ?? 0);
      calls.push({ file: c.pos.file, line, nearest: owner.name, outer: chain[chain.length - 1].name, decls: [], callee: { file: target.file, line: target.line } });
    }
  }
  const defList = [...defs.values()].map(({ file, name, line, kind }) => ({ file, name, line, kind }));
  return { defs: defList, calls };
}

/** A definition's key: its path without generic arguments, `<impl at …>` segments kept (they tell impls apart). */
function defKey(p) {
  return splitPath(p).map((seg) => (seg.startsWith('<impl at ') ? seg : stripGenerics(seg))).join('::');
}

/** A MIR definition path split at `::` outside angle brackets. */
function splitPath(p) {
  const out = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '<') depth++;
    else if (p[i] === '>' && p[i - 1] !== '-') depth--;
    else if (depth === 0 && p.startsWith('::', i)) {
      out.push(p.slice(start, i));
      start = i + 2;
      i++;
    }
  }
  out.push(p.slice(start));
  return out;
}

function spanText(src, pos) {
  if (pos.line === pos.endLine) return (src[pos.line - 1] ?? '').slice(pos.col - 1, pos.endCol - 1);
  const parts = [(src[pos.line - 1] ?? '').slice(pos.col - 1)];
  for (let i = pos.line; i < pos.endLine - 1; i++) parts.push(src[i] ?? '');
  parts.push((src[pos.endLine - 1] ?? '').slice(0, pos.endCol - 1));
  return parts.join('\n');
}

/** @param {{ dir: string, files: string[], maxTargets?: number }} o */
export async function oracleRust({ dir, files, maxTargets = 300 }) {
  const version = await run('rustc', ['+nightly', '--version'], { timeoutMs: 60_000 });
  if (version.code !== 0) throw new Error(`the Rust oracle needs a nightly rustc (rustup toolchain install nightly): ${version.stderr.slice(-200)}`);
  const crates = files.filter((f) => f === 'Cargo.toml' || f.endsWith('/Cargo.toml')).map((f) => path.posix.dirname(f)).filter((c) => files.includes(c === '.' ? 'src/lib.rs' : `${c}/src/lib.rs`));
  const defs = [];
  const calls = [];
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'rust-oracle-'));
  try {
    for (const crate of crates) {
      const prefix = crate === '.' ? '' : `${crate}/`;
      const cargo = readCargoToml(await readFile(path.join(dir, prefix, 'Cargo.toml'), 'utf8'));
      if (cargo.deps) throw new Error(`${prefix}Cargo.toml has dependencies: the Rust oracle compiles crates without any`);
      const out = path.join(tmp, 'out.mir');
      const args = ['+nightly', `--edition=${cargo.edition}`, '--crate-type=lib', `--crate-name=${(cargo.name ?? path.basename(crate)).replace(/-/g, '_')}`, '--cap-lints=allow',
        ...cargo.features.flatMap((f) => ['--cfg', `feature="${f}"`]), '-Zunpretty=mir', '-Zmir-include-spans=yes', '-Ztrim-diagnostic-paths=no', '-o', out, 'src/lib.rs'];
      const r = await run('rustc', args, { cwd: path.join(dir, prefix), timeoutMs: 20 * 60_000 });
      if (r.code !== 0) throw new Error(`rustc ${args.join(' ')} failed (exit ${r.code}): ${r.stderr.slice(-400)}`);
      const mir = await readFile(out, 'utf8');
      const cache = new Map();
      const have = new Set(files);
      const lines = (f) => {
        const rel = `${prefix}${f}`;
        if (f.startsWith('/') || !have.has(rel)) return null;
        if (!cache.has(rel)) cache.set(rel, null);
        return cache.get(rel);
      };
      // Source lines are read up front (sitesFromMir is synchronous).
      for (const f of files) if (f.startsWith(prefix) && f.endsWith('.rs')) cache.set(f, (await readFile(path.join(dir, f), 'utf8')).split('\n'));
      const s = sitesFromMir(mir, lines);
      for (const d of s.defs) defs.push({ ...d, file: `${prefix}${d.file}` });
      for (const c of s.calls) calls.push({ ...c, file: `${prefix}${c.file}`, callee: { ...c.callee, file: `${prefix}${c.callee.file}` } });
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  return { tool: `${version.stdout.trim()} (MIR: -Zunpretty=mir)`, targets: targetsFromSites(defs, calls, maxTargets) };
}
