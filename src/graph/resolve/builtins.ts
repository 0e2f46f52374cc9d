/**
 * Receivers whose type is evidently a language built-in, read from the callee text alone:
 * literals (`"a".split`, `[1, 2].map`, `/x/.test`, `{}.get`, `f"…".format`), and chains
 * through a built-in method that returns a built-in value (`s.split(',').map`,
 * `Object.keys(o).forEach`, `p.then(f).catch`, `", ".join(x).strip`). A call on such a
 * receiver never reaches a project method: no edge, not even a name guess.
 *
 * Also the method names every built-in type of a language family answers to (`push`,
 * `match`, `get`, `append`…): a name guess on one of them (`x.match()` with `x` of unknown
 * type) is much more often the built-in than a project method of that name, so its
 * confidence is capped (BUILTIN_NAME_CONFIDENCE) and the default views hide it.
 */

/** Confidence of a name guess whose method name is also a common built-in method of the family. */
export const BUILTIN_NAME_CONFIDENCE = 0.3;

const words = (text: string): ReadonlySet<string> => new Set(text.split(/\s+/).filter(Boolean));

/** Built-in methods whose result is a built-in value (string, array, promise, number, dict…). */
const PRODUCERS: Readonly<Record<string, ReadonlySet<string>>> = {
  js: words(`
    split map filter slice splice concat flat flatMap sort reverse fill keys values entries join
    trim trimStart trimEnd toLowerCase toUpperCase toLocaleLowerCase toLocaleUpperCase replace replaceAll
    padStart padEnd substring substr repeat normalize charAt at toString toFixed toPrecision toISOString
    match matchAll exec then catch finally from of all allSettled race any resolve reject
    stringify parse assign freeze getOwnPropertyNames getPrototypeOf create fromEntries
    getTime valueOf indexOf lastIndexOf findIndex includes some every reduce reduceRight`),
  python: words(`
    split rsplit splitlines strip lstrip rstrip lower upper title capitalize casefold replace format
    join encode decode items keys values copy get setdefault pop popitem sorted reversed list dict
    str tuple set frozenset bytes bytearray int float repr format_map partition rpartition
    startswith endswith zfill center ljust rjust expandtabs translate hex`),
};

/** Method names of the family's built-in types (strings, arrays, maps, promises, dicts, lists…). */
const BUILTIN_METHODS: Readonly<Record<string, ReadonlySet<string>>> = {
  js: words(`
    ${[...PRODUCERS.js].join(' ')} push pop shift unshift forEach find findLast findLastIndex
    test search charCodeAt codePointAt startsWith endsWith localeCompare has get set delete clear add
    apply call bind hasOwnProperty isPrototypeOf propertyIsEnumerable toJSON next return throw
    getFullYear getMonth getDate getDay getHours getMinutes getSeconds getMilliseconds setTime
    subarray readUInt8 write`),
  python: words(`
    ${[...PRODUCERS.python].join(' ')} append extend insert remove index count clear update add discard
    difference union intersection issubset issuperset symmetric_difference find rfind isdigit isalpha
    isalnum isspace isupper islower isidentifier isnumeric isdecimal read readline readlines write
    writelines close seek tell flush fileno __init__ __new__ __str__ __repr__ __eq__ __hash__`),
};

/** Heads that name a built-in type or value (Python `dict.fromkeys`, `str.join`). */
const BUILTIN_HEADS: Readonly<Record<string, ReadonlySet<string>>> = {
  python: words('dict list str set frozenset tuple int float bytes bytearray object type bool complex range memoryview'),
};

/** A literal receiver: a string, template, number, array, object, regex or (Python) prefixed string. */
const LITERAL_HEAD = /^(?:["'`]|[frbuFRBU]{1,2}["']|\d|\[|\{|\/(?![/*]))/;

/** True when the text of a receiver segment is a literal value of a built-in type. */
export function isLiteralReceiver(raw: string): boolean {
  return LITERAL_HEAD.test(raw.trimStart());
}

/** A head that names a built-in type of the family (`dict` in `dict.fromkeys(…)`). */
export function isBuiltinHead(family: string, head: string): boolean {
  return BUILTIN_HEADS[family]?.has(head) ?? false;
}

/** `name` is a method of the family's built-in types. */
export function isBuiltinMethodName(family: string, name: string): boolean {
  return BUILTIN_METHODS[family]?.has(name) ?? false;
}

/**
 * The receiver of the last segment is a built-in value: a literal head, or the result of a
 * built-in producer call (`….split(',')`), when the method called on it is a built-in one.
 * `raw` are the callee's raw segments (`x`, `split(',')`, `map`).
 */
export function builtinReceiver(family: string, raw: readonly string[]): boolean {
  if (raw.length < 2) return false;
  const target = raw[raw.length - 1];
  if (isLiteralReceiver(raw[0])) return true;
  const before = raw[raw.length - 2];
  const call = /^([\p{L}_$][\p{L}\p{N}_$]*)\s*\(/u.exec(before);
  if (!call) return false;
  return (PRODUCERS[family]?.has(call[1]) ?? false) && isBuiltinMethodName(family, target);
}
