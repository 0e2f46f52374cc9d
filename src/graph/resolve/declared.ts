/**
 * Declared types of names, read from declaration heads (`signature`) in languages whose graph
 * row names a declaration syntax (src/graph/languages.ts, `rules.declarations`): a parameter of
 * the enclosing function or method, or a field of the enclosing type. `x.m()` with `x` declared
 * `Foo x` (Java), `x *Foo` (Go) or `x: &Foo` (Rust) calls Foo's `m`.
 *
 * Only what a declaration states is read; local variables are not (their declarations are not
 * symbols). A type that is not a plain named type (a Go slice, map, channel or function type, a
 * Java array) gives null: its methods are the language's own.
 */

/** How a language writes a typed declaration: `Type name` (Java), `name Type` (Go) or `name: Type` (Rust). */
export type DeclarationSyntax = 'java' | 'go' | 'rust';

/** Kinds whose signature declares names with types. */
export const DECLARING_KINDS: ReadonlySet<string> = new Set(['Function', 'Method', 'Field']);

const IDENT = /^[\p{L}_$][\p{L}\p{N}_$]*$/u;

/**
 * The type `name` is declared with in `signature` (a parameter of a function or method, or the
 * field itself for a Field), as a dotted path (`Foo`, `pkg.Foo`, `com.x.Foo`), or null.
 */
export function declaredType(syntax: DeclarationSyntax, kind: string, signature: string, name: string): string | null {
  if (syntax === 'java') return kind === 'Field' ? javaField(signature, name) : javaParam(signature, name);
  if (syntax === 'rust') return kind === 'Field' ? rustField(signature, name) : rustParam(signature, name);
  return kind === 'Field' ? goField(signature, name) : goParam(signature, name);
}

/**
 * The type a method or function declares it returns (`public PluginManager getPluginManager()`,
 * `func (s *Store) Child() *Store`, the first result of a Go result list), or null.
 */
export function returnType(syntax: DeclarationSyntax, signature: string, name: string): string | null {
  if (syntax === 'java') {
    const open = signature.indexOf('(');
    return open < 0 ? null : javaTypeBefore(signature.slice(0, open), name);
  }
  if (syntax === 'rust') return rustResult(signature);
  return goResult(signature);
}

function goResult(signature: string): string | null {
  if (!signature.startsWith('func')) return null;
  let at = 4;
  if (signature.slice(at).trimStart().startsWith('(')) at = group(signature, at)?.end ?? -1;
  const params = at < 0 ? null : group(signature, at);
  if (!params) return null;
  const rest = signature.slice(params.end).replace(/\{\s*$/, '').trim();
  if (!rest.startsWith('(')) return rest ? goNamedType(rest) : null;
  const first = splitTop(group(rest, 0)?.inner ?? '')[0];
  if (!first) return null;
  // Named results (`(n int, err error)`): the type follows the name.
  const named = /^[\p{L}_][\p{L}\p{N}_]*\s+(.+)$/u.exec(first);
  return goNamedType(named ? named[1] : first);
}

/** The text of the first balanced `(…)` group at or after `from`, and where it ends. */
function group(text: string, from: number): { inner: string; end: number } | null {
  const open = text.indexOf('(', from);
  if (open < 0) return null;
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return { inner: text.slice(open + 1, i), end: i + 1 };
  }
  return null;
}

/** Splits on commas outside brackets (`Map<K, V> m, int n`). */
function splitTop(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '<' || c === '(' || c === '[' || c === '{') depth++;
    else if (c === '>' || c === ')' || c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out.map((s) => s.trim()).filter(Boolean);
}

/** `final @Nullable Map<K, V> name` → `Map`; arrays and varargs give null. */
function javaTypeBefore(decl: string, name: string): string | null {
  const words = decl
    .replace(/@[\w.]+(\([^)]*\))?/g, ' ')
    .replace(/<[^<>]*(<[^<>]*>[^<>]*)*>/g, '')
    .trim()
    .split(/\s+/);
  if (words.length < 2 || words[words.length - 1] !== name) return null;
  const type = words[words.length - 2];
  if (/\[|\.\.\./.test(type) || !type.split('.').every((s) => IDENT.test(s))) return null;
  return JAVA_MODIFIERS.has(type) ? null : type;
}

const JAVA_MODIFIERS: ReadonlySet<string> = new Set(['final', 'public', 'private', 'protected', 'static', 'transient', 'volatile']);

function javaParam(signature: string, name: string): string | null {
  const g = group(signature, 0);
  if (!g) return null;
  for (const p of splitTop(g.inner)) {
    const t = javaTypeBefore(p, name);
    if (t) return t;
  }
  return null;
}

function javaField(signature: string, name: string): string | null {
  const head = signature.split('=')[0].replace(/;\s*$/, '');
  return javaTypeBefore(head, name);
}

/** `*pkg.Foo[T]` → `pkg.Foo`; slices, maps, channels, functions and literals give null. */
function goNamedType(type: string): string | null {
  const t = type
    .trim()
    .replace(/^\.\.\./, '\u0000')
    .replace(/^\*+/, '')
    .replace(/\[.*\]$/, '');
  if (!t.split('.').every((s) => IDENT.test(s)) || t.split('.').length > 2) return null;
  return t;
}

/** Go parameter groups: `a, b int, c *Foo` (names share the type written after the last). */
function goParamIn(list: string, name: string): string | null {
  const parts = splitTop(list);
  let pending = false;
  for (const p of parts) {
    const m = /^([\p{L}_][\p{L}\p{N}_]*)(?:\s+(.+))?$/u.exec(p);
    if (!m) {
      pending = false;
      continue;
    }
    if (m[2] === undefined) {
      // A name whose type comes later (`a, b int`), or an unnamed parameter's type.
      if (m[1] === name) pending = true;
      continue;
    }
    if (m[1] === name || pending) return goNamedType(m[2]);
  }
  return null;
}

function goParam(signature: string, name: string): string | null {
  if (!signature.startsWith('func')) return null;
  let at = 4;
  const rest = signature.slice(at).trimStart();
  // A method: the receiver group comes first.
  if (rest.startsWith('(')) {
    const recv = group(signature, at);
    if (!recv) return null;
    const t = goParamIn(recv.inner, name);
    if (t) return t;
    at = recv.end;
  }
  const params = group(signature, at);
  return params ? goParamIn(params.inner, name) : null;
}

function goField(signature: string, name: string): string | null {
  const m = /^([\p{L}_][\p{L}\p{N}_]*(?:\s*,\s*[\p{L}_][\p{L}\p{N}_]*)*)\s+([^`]+?)(?:\s+`.*)?$/u.exec(signature.trim());
  if (!m || !m[1].split(',').some((n) => n.trim() === name)) return null;
  return goNamedType(m[2]);
}

/**
 * `&'a mut Foo<T>`, `Box<crate::a::Foo>` → `Foo`, `crate.a.Foo` (segments joined by dots);
 * `Rc`/`Arc` are looked through as `Box` (a call auto-derefs to the inner type). Other generic
 * types name themselves (`Option<Foo>` → `Option`, no project type); slices, tuples, trait
 * objects (`dyn`, `impl`) and `Self` give null.
 */
function rustNamedType(type: string): string | null {
  let t = type.trim();
  for (;;) {
    const next = t.replace(/^&\s*('[\p{L}_]+\s+)?(mut\s+)?/u, '').replace(/^(Box|Rc|Arc)\s*<(.*)>$/su, '$2').trim();
    if (next === t) break;
    t = next;
  }
  const open = t.indexOf('<');
  if (open >= 0) {
    if (!t.endsWith('>')) return null;
    t = t.slice(0, open).trim();
  }
  const segs = t.split('::');
  if (segs.length > 4 || !segs.every((s) => IDENT.test(s)) || segs[segs.length - 1] === 'Self') return null;
  return segs.join('.');
}

/** The end of a Rust function's generic parameters (`fn f<T: Fn(u8)>(`): the index of its `(`. */
function rustParamsOpen(signature: string): number {
  const fn = /\bfn\s+[\p{L}_][\p{L}\p{N}_]*\s*/u.exec(signature);
  if (!fn) return -1;
  let i = fn.index + fn[0].length;
  if (signature[i] === '<') {
    let depth = 0;
    for (; i < signature.length; i++) {
      if (signature[i] === '<') depth++;
      else if (signature[i] === '>' && signature[i - 1] !== '-' && --depth === 0) break;
    }
    i++;
  }
  return signature.indexOf('(', i);
}

function rustParam(signature: string, name: string): string | null {
  const open = rustParamsOpen(signature);
  const g = open < 0 ? null : group(signature, open);
  if (!g) return null;
  for (const p of splitTop(g.inner)) {
    const m = /^(?:mut\s+)?([\p{L}_][\p{L}\p{N}_]*)\s*:(?!:)\s*(.+)$/su.exec(p);
    if (m && m[1] === name) return rustTraitOf(signature, m[2]) ?? rustNamedType(m[2]);
  }
  return null;
}

/**
 * The trait a parameter's type is bounded by: `impl Visitor`, `&mut dyn Visitor`, or a type
 * parameter `V` bounded where it is declared (`<V: Visitor>`, `where V: Visitor + Clone`); the
 * first bound, generics aside. A call on it is the trait's method.
 */
function rustTraitOf(signature: string, type: string): string | null {
  const t = type.trim().replace(/^&\s*('[\p{L}_]+\s+)?(mut\s+)?/u, '');
  const object = /^(?:impl|dyn)\s+(.+)$/su.exec(t);
  if (object) return rustNamedType(object[1].split('+')[0]);
  if (!IDENT.test(t)) return null;
  const bound = new RegExp(`[<,]\\s*${t}\\s*:\\s*([^,>+{]+(?:<[^<>]*>)?)|\\bwhere\\b[\\s\\S]*?[\\s,]${t}\\s*:\\s*([^,+{]+)`, 'u').exec(signature);
  const first = bound ? (bound[1] ?? bound[2]) : null;
  return first && !first.trim().startsWith("'") ? rustNamedType(first) : null;
}

function rustResult(signature: string): string | null {
  const open = rustParamsOpen(signature);
  const g = open < 0 ? null : group(signature, open);
  if (!g) return null;
  const m = /^\s*->\s*(.+?)(?:\s+where\s[\s\S]*)?$/u.exec(signature.slice(g.end));
  return m ? rustNamedType(m[1]) : null;
}

function rustField(signature: string, name: string): string | null {
  const m = /^(?:pub(?:\([^)]*\))?\s+)?([\p{L}_][\p{L}\p{N}_]*)\s*:(?!:)\s*(.+?),?$/su.exec(signature.trim());
  return m && m[1] === name ? rustNamedType(m[2]) : null;
}
