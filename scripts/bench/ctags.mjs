// The quality stage's oracle: universal-ctags over exactly the files a push sends, with its
// per-language kind names mapped onto one small set of definition kinds. Tags of other kinds
// (variables, constants, macros, imports, namespaces, enumerators, locals…) are left out.
//
// Mapping (ctags kind → bench kind), by ctags language:
//   all:        class → class, struct/union → struct, interface → interface, enum → enum,
//               member/field → field, typedef/talias/alias → type, function/func → function,
//               method/singletonMethod/getter/setter → method
//   TypeScript: property → field, except on a line that declares `type|interface|function|class|
//               enum NAME` (ctags misreads some .d.ts namespaces): that kind; generator → function
//   JavaScript: field → field; generator → function; `property` (object-literal keys) left out;
//               ctags' synthetic tags for `Foo.prototype.x = …` (class Foo) and for
//               `module.exports = …` (exports or module, of any kind) are left out; class tags on
//               an object literal (`NAME = {`, `'NAME': {`: an object, like `property`) left out;
//               other class tags on lines without `class` (ES5 constructors,
//               `app.init = function init() {…}`) → function; function and class tags named after
//               the object whose member the line assigns (`app[m] = function`, `res.get = …`) left
//               out; field tags on a line that does not
//               declare the name (`NAME =`, `NAME:`, a shorthand `NAME,`) left out: ctags 5.9
//               loses its place after a method named `set`, `get` or `default` and files its
//               parameters and the words of the next lines as fields, and its `this.NAME = …`
//               statements too (it never tags `this.NAME =` otherwise: a constructor's are not
//               tags, so the re-assignment in a later method would stand for the field)
//   Go:         func with a receiver (scope struct/type) → method, else function; member → field;
//               methodSpec (interface method) → method; type (named non-struct type) → type
//   Rust:       interface (a trait) → trait; implementation left out (impl blocks are not names)
//   Java:       annotation (@interface) → interface; enumConstant left out
//   Python:     member (a function in a class) → method; variable in a class scope → field
//   Ruby:       module left out (not in the measured set); accessor (attr_*) → field, and the
//               writer ctags adds for `attr_accessor :x`/`attr_writer :x` (`x=`) is that field `x`
//   C/C++:      function inside a class/struct scope (C++) → method; prototype left out
//   PHP:        function inside a class/interface/trait → method; trait → trait; variable in a
//               class/trait on a line that declares it (`public|protected|private|var|static|
//               readonly … $name`) → field (ctags files closures' locals under the class too)
//   C#:         property/event → field; typedef (`using X = Y;`) → type; an explicit interface
//               member (`IFoo.Bar`) is named `Bar`. Left out, as ctags 5.9 misreads: names on a
//               `where T : X` constraint line, "methods" on a call statement (`a.b(x);`), fields
//               inside a method's lines or declared with `var` (locals); also operators
//               (`operator ==`), indexers (`this`) and destructors (`~X`), which have no name to look up
//   all:        ctags' generated names (AnonymousFunction…, __anon…) left out; one definition per
//               name, file and line
//   Sh:         function → function, unless its name could not be one (`words=` from
//               `words=()`, `--` from `compgen -A function --`: ctags 5.9 misreads)
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

/** The measured kinds, in table order. */
export const ORACLE_KINDS = ['class', 'struct', 'interface', 'trait', 'enum', 'type', 'function', 'method', 'field'];

/** ctags options per corpus language: which parser, and which extensions it reads. */
const LANGUAGE_ARGS = {
  typescript: ['--languages=TypeScript'],
  javascript: ['--languages=JavaScript', '--langmap=JavaScript:+.cjs.mjs'],
  python: ['--languages=Python'],
  go: ['--languages=Go'],
  rust: ['--languages=Rust'],
  java: ['--languages=Java'],
  ruby: ['--languages=Ruby'],
  c: ['--languages=C', '--langmap=C:.c.h'],
  cpp: ['--languages=C++'],
  php: ['--languages=PHP'],
  bash: ['--languages=Sh'],
  csharp: ['--languages=C#'],
};

const COMMON = /** @type {Record<string, string>} */ ({
  class: 'class', struct: 'struct', union: 'struct', interface: 'interface', enum: 'enum', member: 'field', field: 'field',
  typedef: 'type', talias: 'type', alias: 'type', function: 'function', func: 'function', method: 'method',
  singletonMethod: 'method', getter: 'method', setter: 'method', generator: 'function',
});

/**
 * The bench kind of one ctags tag, or null when the tag is not a measured definition.
 * @param {string} language corpus language
 * @param {{ name: string, kind: string, scopeKind?: string, pattern?: string }} tag
 * @returns {string | null}
 */
export function oracleKind(language, tag) {
  const { kind, scopeKind } = tag;
  // ctags' names for anonymous functions, structs and enums.
  if (/^(?:AnonymousFunction|__anon)/.test(tag.name)) return null;
  switch (language) {
    case 'typescript': {
      // ctags 5.9 loses its place in some declaration files and files `type X = …` lines
      // inside a namespace as class properties: the line itself says what it declares.
      const declared = new RegExp(`^/\\^\\s*(?:export\\s+)?(?:declare\\s+)?(type|interface|function|class|enum)\\s+${tag.name.replace(/[$]/g, '\\$&')}\\b`).exec(tag.pattern ?? '');
      if (kind === 'property' && declared) return { type: 'type', interface: 'interface', function: 'function', class: 'class', enum: 'enum' }[declared[1]] ?? 'field';
      if (kind === 'property') return 'field';
      if (kind === 'alias') return 'type';
      break;
    }
    case 'javascript': {
      const line = (tag.pattern ?? '').replace(/^\/\^|\$\/$/g, '');
      const name = tag.name.replace(/[$]/g, '\\$&');
      if (kind === 'property' || kind === 'alias') return null;
      if ((tag.name === 'exports' || tag.name === 'module') && /module\.exports/.test(line)) return null;
      if (kind === 'class' && line.includes(`${tag.name}.prototype`)) return null;
      if (kind === 'class' && new RegExp(`(?:^|[\\s.'"])${name}['"]?\\s*[:=]\\s*\\{`).test(line)) return null;
      // `app[method] = function …`, `Route.prototype[method] = …`, `res.get = …`: ctags names the
      // object whose member the line defines, not a definition of its own.
      if ((kind === 'function' || kind === 'class') && new RegExp(`^\\s*${name}(?:\\.prototype)?(?:\\[[^\\]]+\\]|\\.[\\w$]+)\\s*=[^=]`).test(line)) return null;
      // ES5 constructors and `app.init = function init() { this.x = … }`: ctags says class.
      if (kind === 'class' && !/\bclass\b/.test(line)) return 'function';
      if (kind === 'field' && !new RegExp(`^\\s*${name}\\s*(?:=(?!=)|:|,\\s*$)|^\\s*(?:static\\s+)?#?${name}\\s*[=;]`).test(line)) return null;
      break;
    }
    case 'go':
      if (kind === 'func') return scopeKind && scopeKind !== 'package' ? 'method' : 'function';
      if (kind === 'methodSpec') return 'method';
      if (kind === 'type') return 'type';
      if (kind === 'anonMember') return null;
      break;
    case 'rust':
      if (kind === 'interface') return 'trait';
      if (kind === 'implementation') return null;
      break;
    case 'java':
      if (kind === 'annotation') return 'interface';
      break;
    case 'ruby':
      if (kind === 'accessor') return 'field';
      if (kind === 'alias') return null;
      break;
    case 'c':
    case 'cpp':
      if (kind === 'function') return scopeKind === 'class' || scopeKind === 'struct' ? 'method' : 'function';
      if (kind === 'alias') return 'type';
      break;
    case 'php':
      if (kind === 'function') return scopeKind === 'class' || scopeKind === 'interface' || scopeKind === 'trait' ? 'method' : 'function';
      if (kind === 'trait') return 'trait';
      if (kind === 'alias') return null;
      // Class properties (`public $name;`): ctags says variable, with the class as scope (and
      // files the locals of closures inside methods the same way: the line tells them apart).
      if (kind === 'variable') {
        const declared = new RegExp(`\\b(?:public|protected|private|var|static|readonly)\\b[^$]*\\$${tag.name}\\b`).test(tag.pattern ?? '');
        return (scopeKind === 'class' || scopeKind === 'trait') && declared ? 'field' : null;
      }
      break;
    case 'python':
      // Class attributes (dataclass and annotated fields): ctags says variable in a class.
      if (kind === 'variable') return scopeKind === 'class' ? 'field' : null;
      if (kind === 'member') return 'method';
      break;
    case 'bash':
      if (kind === 'alias') return null;
      // ctags 5.9 reads `words=()` (an empty array) as a function `words=`, and `compgen -A
      // function -- …` as a function `--`: no function is named so.
      if (kind === 'function' && !/^[^-=\s{}()$'"`][^=\s{}()$'"`]*$/.test(tag.name)) return null;
      break;
    case 'csharp': {
      const pattern = tag.pattern ?? '';
      if (/^\/\^\s*where\s/.test(pattern)) return null;
      if (kind === 'method' && /^\/\^\s*[\w.]+\s*\(.*\)\s*;\s*\$?\/$/.test(pattern)) return null;
      if (/^(?:operator\b|~)|(?:^|\.)this$/.test(tag.name)) return null;
      if (kind === 'field' && /^\/\^\s*var\s/.test(pattern)) return null;
      if (kind === 'property' || kind === 'event') return 'field';
      break;
    }
    default:
      break;
  }
  return COMMON[kind] ?? null;
}

/**
 * The name a definition is looked up by, when ctags spells it otherwise.
 * @param {string} language @param {{ name: string, kind: string }} tag
 */
export function oracleName(language, tag) {
  if (language === 'ruby' && tag.kind === 'accessor') return tag.name.replace(/=$/, '');
  if (language === 'csharp') return tag.name.slice(tag.name.lastIndexOf('.') + 1);
  return tag.name;
}

/**
 * Tags ctags files as members that lie inside a method's lines (C# locals read as fields).
 * @param {string} language @param {any[]} tags one file's tags
 */
function insideMethods(language, tags) {
  if (language !== 'csharp') return new Set();
  const methods = tags.filter((t) => t.kind === 'method' && typeof t.end === 'number' && t.end > t.line);
  return new Set(tags.filter((t) => t.kind === 'field' && methods.some((m) => m.line < t.line && t.line <= m.end)));
}

/**
 * @typedef {{ name: string, path: string, line: number, kind: string, ctags_kind: string, scope: string | null }} Definition
 */

/**
 * Runs ctags over `files` (paths relative to `dir`) and returns the measured definitions.
 * @param {{ dir: string, files: string[], language: string, listFile: string }} o
 * @returns {{ definitions: Definition[], version: string, byCtagsKind: Record<string, number> }}
 */
export function runCtags({ dir, files, language, listFile }) {
  const args = LANGUAGE_ARGS[language];
  if (!args) throw new Error(`no ctags mapping for language ${language}`);
  writeFileSync(listFile, `${files.join('\n')}\n`);
  const res = spawnSync('ctags', ['--output-format=json', '--fields=+nKzse', ...args, '-f', '-', '-L', listFile], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
    timeout: 300_000,
  });
  if (res.error || res.status !== 0) throw new Error(`ctags failed in ${dir}: ${res.error?.message ?? res.stderr.slice(0, 400)}`);
  /** @type {Definition[]} */
  const definitions = [];
  /** @type {Record<string, number>} */
  const byCtagsKind = {};
  const seen = new Set();
  /** @type {Map<string, any[]>} */
  const byFile = new Map();
  for (const line of res.stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    const tag = JSON.parse(line);
    if (tag._type !== 'tag') continue;
    const file = tag.path.split(path.sep).join('/').replace(/^\.\//, '');
    const list = byFile.get(file) ?? [];
    list.push(tag);
    byFile.set(file, list);
  }
  for (const [file, tags] of byFile) {
    const locals = insideMethods(language, tags);
    for (const tag of tags) {
      const kind = oracleKind(language, tag);
      if (!kind || locals.has(tag)) continue;
      const name = oracleName(language, tag);
      const key = `${file}\0${tag.line}\0${name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      byCtagsKind[tag.kind] = (byCtagsKind[tag.kind] ?? 0) + 1;
      definitions.push({ name, path: file, line: tag.line, kind, ctags_kind: tag.kind, scope: tag.scope ?? null });
    }
  }
  return { definitions, version: ctagsVersion(), byCtagsKind };
}

let version = '';
/** The first line of `ctags --version`. */
export function ctagsVersion() {
  if (!version) version = spawnSync('ctags', ['--version'], { encoding: 'utf8' }).stdout?.split('\n')[0] ?? 'unknown';
  return version;
}
