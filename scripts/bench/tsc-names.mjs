// A second count of a TypeScript name's definitions, from the TypeScript compiler's parser.
// universal-ctags 5.9 loses its place in declaration files (in one `.d.ts` of the corpus it
// reports 14 of 36 classes and 11 of 37 `_parse` methods), so counting a name's definitions by
// ctags alone makes "defined once" and k of recall@k too small: a definition ranked below
// same-name definitions ctags never saw would count as a miss. The quality stage takes, per
// name, the larger of the two counts; the measured definitions stay ctags' own.
//
// Counted: classes, interfaces, enums, type aliases, functions, methods and method signatures,
// properties and property signatures, accessors, each once per file, container and name
// (overload signatures are one definition). Not counted: members of an inline type in a
// parameter (`(opts: { path: string }) => T`), which are no definition one looks up.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/**
 * Definitions per name over `files` (paths relative to `dir`).
 * @param {string} dir @param {string[]} files
 * @returns {Map<string, number>}
 */
export function tscDefinitionCounts(dir, files) {
  /** @type {typeof import('typescript')} */
  const ts = require('typescript');
  const K = ts.SyntaxKind;
  const kinds = new Set([
    K.ClassDeclaration, K.InterfaceDeclaration, K.EnumDeclaration, K.TypeAliasDeclaration, K.FunctionDeclaration,
    K.MethodDeclaration, K.MethodSignature, K.PropertyDeclaration, K.PropertySignature, K.GetAccessor, K.SetAccessor,
  ]);
  /** @type {Map<string, Set<string>>} */
  const seen = new Map();
  for (const file of files) {
    let text;
    try {
      text = readFileSync(path.join(dir, file), 'utf8');
    } catch {
      continue;
    }
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
    /** @param {import('typescript').Node} node @param {string} container @param {boolean} inParameter */
    const visit = (node, container, inParameter) => {
      let inner = container;
      const name = /** @type {any} */ (node).name;
      if (kinds.has(node.kind) && !inParameter && name && (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name))) {
        const n = name.text;
        const set = seen.get(n) ?? new Set();
        set.add(`${file}\0${container}`);
        seen.set(n, set);
        inner = `${container}.${n}`;
      } else if (ts.isModuleDeclaration(node) && node.name) {
        inner = `${container}.${node.name.text}`;
      }
      ts.forEachChild(node, (child) => visit(child, inner, inParameter || ts.isParameter(node)));
    };
    visit(source, '', false);
  }
  return new Map([...seen].map(([n, places]) => [n, places.size]));
}
