/**
 * Splits a reference name as the extractor wrote it (`this.routes.push`,
 * `a::b::f`, `$this->save`, `new Cart().add`, `super().m`, `Vec::<u8>::new`)
 * into segments, without looking inside brackets.
 */

/** Shared between callers: treat as read-only. */
export interface Callee {
  /** Cleaned segments: generic arguments, `!` and `*`/`&` prefixes removed. */
  segs: string[];
  /** The raw segment texts (`new Cart()`, `super()`, `items.stream()`…). */
  raw: string[];
  /** A segment other than the first holds a call or an index: the receiver's type is unknown. */
  chained: boolean;
  /** The separator after the first segment is `::` (a path, not a method call). */
  path: boolean;
}

const OPEN = '([{<';
const CLOSE = ')]}>';

/** Removes generic arguments (`<…>`) and stray markers from one segment. */
function clean(seg: string): string {
  let out = '';
  let depth = 0;
  for (const c of seg) {
    if (c === '<') depth++;
    else if (c === '>') depth = Math.max(0, depth - 1);
    else if (depth === 0) out += c;
  }
  return out.replace(/^[*&]+/, '').replace(/!$/, '').trim();
}

const PLAIN = /^[\p{L}_$#@][\p{L}\p{N}_$]*$/u;
const DOTTED = /^[\p{L}_$#@][\p{L}\p{N}_$]*(?:\.[\p{L}_$#@][\p{L}\p{N}_$]*)+$/u;
const cache = new Map<string, Callee>();
const CACHE_LIMIT = 50_000;

/** Parsed callee names are memoized (names repeat: `this.log.info`, `fmt.Sprintf`). */
export function parseCallee(name: string): Callee {
  let hit = cache.get(name);
  if (!hit) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    hit = parse(name);
    cache.set(name, hit);
  }
  return hit;
}

function parse(name: string): Callee {
  if (PLAIN.test(name)) return { segs: [name], raw: [name], chained: false, path: false };
  if (DOTTED.test(name)) {
    const segs = name.split('.');
    return { segs, raw: segs, chained: false, path: false };
  }
  const raw: string[] = [];
  const seps: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < name.length; i++) {
    const c = name[i];
    if (OPEN.includes(c)) depth++;
    else if (CLOSE.includes(c)) {
      // `->` is a separator, not a closing bracket.
      if (c === '>' && name[i - 1] === '-') {
        if (depth === 0) {
          raw.push(name.slice(start, i - 1));
          seps.push('->');
          start = i + 1;
        }
        continue;
      }
      depth = Math.max(0, depth - 1);
    } else if (depth === 0) {
      if (c === ':' && name[i + 1] === ':') {
        raw.push(name.slice(start, i));
        seps.push('::');
        start = i + 2;
        i++;
      } else if (c === '.') {
        const q = name[i - 1] === '?';
        raw.push(name.slice(start, q ? i - 1 : i));
        seps.push('.');
        start = i + 1;
      }
    }
  }
  raw.push(name.slice(start));
  const segs: string[] = [];
  const kept: string[] = [];
  for (const part of raw) {
    const seg = clean(part);
    if (seg === '') continue; // `Vec::<u8>::new`: the turbofish leaves an empty segment
    segs.push(seg);
    kept.push(part.trim());
  }
  const path = seps[0] === '::';
  const chained = segs.slice(1).some((s) => /[([]/.test(s));
  return { segs, raw: kept, chained, path };
}

/** `new Foo<T>()` → `Foo` (possibly dotted); null when the segment is not a constructor call. */
export function constructedType(seg: string): string | null {
  const m = /^new\s+([\p{L}_$][\p{L}\p{N}_$.]*)\s*(?:<.*>)?\s*\(.*\)$/su.exec(seg);
  return m ? m[1] : null;
}

/** True for a plain identifier (no call, index or operator inside). */
export function isIdentifier(seg: string): boolean {
  return /^[\p{L}_$#@][\p{L}\p{N}_$]*$/u.test(seg);
}
