/**
 * Reading SCIP symbol strings (scip.proto, `Symbol`): `<scheme> <manager> <package> <version>
 * <descriptors>` or `local <id>`. Only what mapping onto our symbol rows needs: the last
 * descriptor's name and suffix, and the owner (the symbol minus its last descriptor).
 */

/** A descriptor's suffix: namespace `/`, type `#`, term `.`, method `().`, parameter `()`, type parameter `[]`, meta `:`, macro `!`. */
export type DescriptorSuffix = 'namespace' | 'type' | 'term' | 'method' | 'parameter' | 'type_parameter' | 'meta' | 'macro';

export interface Descriptor {
  name: string;
  suffix: DescriptorSuffix;
}

export function isLocalSymbol(symbol: string): boolean {
  return symbol.startsWith('local ');
}

/** Where the descriptors start: after the fourth space (a doubled space is an escaped one). */
function descriptorStart(symbol: string): number {
  let spaces = 0;
  for (let i = 0; i < symbol.length; i++) {
    if (symbol[i] !== ' ') continue;
    if (symbol[i + 1] === ' ') {
      i++;
      continue;
    }
    if (++spaces === 4) return i + 1;
  }
  return -1;
}

const SIMPLE = /[A-Za-z0-9_+\-$]/;

/** The descriptors of a global symbol, in order; [] for a local or malformed one. */
export function descriptors(symbol: string): Descriptor[] {
  if (isLocalSymbol(symbol)) return [];
  let i = descriptorStart(symbol);
  if (i < 0) return [];
  const out: Descriptor[] = [];
  const name = (): string | null => {
    if (symbol[i] === '`') {
      let text = '';
      for (i++; i < symbol.length; i++) {
        if (symbol[i] === '`') {
          if (symbol[i + 1] === '`') {
            text += '`';
            i++;
            continue;
          }
          i++;
          return text;
        }
        text += symbol[i];
      }
      return null;
    }
    const start = i;
    while (i < symbol.length && SIMPLE.test(symbol[i])) i++;
    return i > start ? symbol.slice(start, i) : null;
  };
  while (i < symbol.length) {
    if (symbol[i] === '(' || symbol[i] === '[') {
      const close = symbol[i] === '(' ? ')' : ']';
      i++;
      const n = name();
      if (n === null || symbol[i] !== close) return [];
      i++;
      out.push({ name: n, suffix: close === ')' ? 'parameter' : 'type_parameter' });
      continue;
    }
    const n = name();
    if (n === null) return [];
    const c = symbol[i++];
    if (c === '/') out.push({ name: n, suffix: 'namespace' });
    else if (c === '#') out.push({ name: n, suffix: 'type' });
    else if (c === '.') out.push({ name: n, suffix: 'term' });
    else if (c === ':') out.push({ name: n, suffix: 'meta' });
    else if (c === '!') out.push({ name: n, suffix: 'macro' });
    else if (c === '(') {
      // Method: name(disambiguator).
      while (i < symbol.length && symbol[i] !== ')') i++;
      if (symbol[i + 1] !== '.') return [];
      i += 2;
      out.push({ name: n, suffix: 'method' });
    } else return [];
  }
  return out;
}

/**
 * The name a definition of `symbol` carries in source, and the symbol it belongs to, or null
 * for what has no symbol row of ours (locals, namespaces/modules, parameters, type parameters).
 * A constructor (scip-typescript's `Class#<constructor>().`, scip-java's `Class#<init>().`) is
 * named `constructor`, with its class as owner. Python's `__init__` keeps its name (our rows name
 * it so). Overloads (scip-java's `m(+1).`) keep their name: each definition maps by its line.
 */
const CONSTRUCTOR_NAMES: ReadonlySet<string> = new Set(['<constructor>', '<init>']);

export function definedName(symbol: string): { name: string; owner: string | null } | null {
  const list = descriptors(symbol);
  const last = list[list.length - 1];
  if (!last || !['type', 'term', 'method', 'macro'].includes(last.suffix)) return null;
  const owner = list.length > 1 && list[list.length - 2].suffix === 'type' ? list[list.length - 2].name : null;
  return { name: CONSTRUCTOR_NAMES.has(last.name) ? 'constructor' : last.name, owner };
}
