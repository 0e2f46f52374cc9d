// Oracle for TypeScript/JavaScript callers: the TypeScript language service's own
// `findReferences` over the corpus (the compiler's binder and checker, not ours). For every
// function and method of the corpus it lists the call sites of that declaration, each with its
// nearest and outermost named enclosing function (or the module level).
//
//   oracleTs({ dir, files }) → { tool, targets: [{ file, name, line, kind, callers: [{ nearest, outer, line }] }] }
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Key of a caller: `file::name`, or `file::<module>` at module level. */
export const MODULE = '<module>';

/** @param {import('typescript')} ts @param {import('typescript').Node} node @returns {string | null} */
function functionName(ts, node) {
  if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isGetAccessor(node) || ts.isSetAccessor(node) || ts.isClassDeclaration(node)) {
    return node.name && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name) || ts.isPrivateIdentifier(node.name)) ? node.name.text : null;
  }
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (ts.isFunctionExpression(node) || ts.isArrowFunction(node) || ts.isClassExpression(node)) {
    if ((ts.isFunctionExpression(node) || ts.isClassExpression(node)) && node.name) return node.name.text;
    const p = node.parent;
    if (ts.isVariableDeclaration(p) && ts.isIdentifier(p.name)) return p.name.text;
    if ((ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) return p.name.text;
    if (ts.isBinaryExpression(p) && p.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isPropertyAccessExpression(p.left)) return p.left.name.text;
    if (ts.isBinaryExpression(p) && p.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isIdentifier(p.left)) return p.left.text;
  }
  return null;
}

/** The named function-likes around a node, innermost first, and the names of the declarations around it. */
function enclosingNames(ts, node) {
  const out = [];
  const decls = [];
  for (let n = node.parent; n; n = n.parent) {
    const name = functionName(ts, n);
    if (name !== null) out.push(name);
    else if ((ts.isVariableDeclaration(n) || ts.isPropertyDeclaration(n) || ts.isPropertyAssignment(n)) && (ts.isIdentifier(n.name) || ts.isStringLiteral(n.name))) decls.push(n.name.text);
  }
  return { out, decls };
}

/** Whether the identifier at `node` is what a call (or `new`) invokes. */
function isCallee(ts, node) {
  let n = node;
  if (ts.isPropertyAccessExpression(n.parent) && n.parent.name === n) n = n.parent;
  else if (ts.isElementAccessExpression(n.parent) && n.parent.argumentExpression === n) n = n.parent;
  while (ts.isParenthesizedExpression(n.parent) || ts.isNonNullExpression(n.parent) || ts.isAsExpression(n.parent)) n = n.parent;
  const p = n.parent;
  return (ts.isCallExpression(p) || ts.isNewExpression(p)) && p.expression === n;
}

/**
 * @param {{ root: string, dir: string, files: string[] }} o  files: corpus-relative paths (TS/JS), test files excluded
 */
export function oracleTs({ root, dir, files, maxTargets = 300 }) {
  const require = createRequire(path.join(root, 'package.json'));
  /** @type {import('typescript')} */
  const ts = require('typescript');
  const abs = files.map((f) => path.join(dir, f));
  const texts = new Map(abs.map((f) => [f, readFileSync(f, 'utf8')]));
  const options = {
    allowJs: true,
    checkJs: false,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  };
  const host = {
    getScriptFileNames: () => abs,
    getScriptVersion: () => '1',
    getScriptSnapshot: (f) => {
      const t = texts.get(f) ?? (ts.sys.fileExists(f) ? ts.sys.readFile(f) : undefined);
      return t === undefined ? undefined : ts.ScriptSnapshot.fromString(t);
    },
    getCurrentDirectory: () => dir,
    getCompilationSettings: () => options,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: (f) => texts.has(f) || ts.sys.fileExists(f),
    readFile: (f) => texts.get(f) ?? ts.sys.readFile(f),
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  const service = ts.createLanguageService(host, ts.createDocumentRegistry());
  const program = service.getProgram();
  if (!program) throw new Error('the TypeScript language service built no program');
  const rel = (f) => path.relative(dir, f).split(path.sep).join('/');
  const inCorpus = new Set(abs);

  /** Declarations to ask about: named functions, methods, and functions bound to a name. */
  const decls = [];
  for (const f of abs) {
    const sf = program.getSourceFile(f);
    if (!sf) continue;
    const visit = (node) => {
      let nameNode = null;
      let kind = null;
      if (ts.isFunctionDeclaration(node) && node.name && node.body) [nameNode, kind] = [node.name, 'Function'];
      else if ((ts.isMethodDeclaration(node) && node.body) && (ts.isClassLike(node.parent)) && ts.isIdentifier(node.name)) [nameNode, kind] = [node.name, 'Method'];
      else if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))) [nameNode, kind] = [node.name, 'Function'];
      if (nameNode) decls.push({ sf, nameNode, kind });
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }

  const bindings = requireBindings(ts, service, program, abs);
  const targets = [];
  for (const { sf, nameNode, kind } of sample(decls, maxTargets)) {
    const pos = nameNode.getStart(sf);
    const line = sf.getLineAndCharacterOfPosition(pos).line + 1;
    const callers = [];
    const seen = new Set();
    // CommonJS aliases findReferences stops at: `module.exports = { f }` and `const { f } = require(…)`
    // bind new names; their references are asked for too (the compiler resolves each step).
    // findReferences from the export side does not list the `const { f } = require(…)` bindings
    // of it; the compiler's go-to-definition from each binding (`bindings`) says which it is.
    const queue = [{ file: sf.fileName, pos }];
    const asked = new Set([`${sf.fileName}:${pos}`]);
    const ask = (file, at) => {
      const key = `${file}:${at}`;
      if (asked.has(key)) return;
      asked.add(key);
      queue.push({ file, pos: at });
    };
    for (const b of bindings.get(`${sf.fileName}:${pos}`) ?? []) ask(b.file, b.pos);
    const refs = [];
    while (queue.length > 0) {
      const at = queue.shift();
      for (const g of service.findReferences(at.file, at.pos) ?? []) {
        for (const r of g.references) {
          refs.push(r);
          const rsf = program.getSourceFile(r.fileName);
          const node = rsf && inCorpus.has(r.fileName) ? findToken(ts, rsf, r.textSpan.start) : null;
          if (node && commonJsAlias(ts, node)) ask(r.fileName, r.textSpan.start);
          for (const b of bindings.get(`${r.fileName}:${r.textSpan.start}`) ?? []) ask(b.file, b.pos);
        }
      }
    }

    {
      for (const r of refs) {
        if (r.isDefinition || !inCorpus.has(r.fileName)) continue;
        const rsf = program.getSourceFile(r.fileName);
        if (!rsf) continue;
        const node = findToken(ts, rsf, r.textSpan.start);
        if (!node || !isCallee(ts, node)) continue;
        const { out: names, decls } = enclosingNames(ts, node);
        const file = rel(r.fileName);
        const nearest = `${file}::${names[0] ?? MODULE}`;
        const outer = `${file}::${names[names.length - 1] ?? MODULE}`;
        // Also right: a declaration the call initialises (`const X = f()`, `{ key: f() }`), the module level.
        const alts = [...new Set([nearest, outer, ...decls.map((d) => `${file}::${d}`), ...(names.length === 0 ? [`${file}::${MODULE}`] : [])])];
        const callLine = rsf.getLineAndCharacterOfPosition(r.textSpan.start).line + 1;
        const k = `${nearest}\0${outer}\0${callLine}`;
        if (seen.has(k)) continue;
        seen.add(k);
        callers.push({ nearest, outer, alts, line: callLine });
      }
    }
    targets.push({ file: rel(sf.fileName), name: nameNode.text, line, kind, callers });
  }
  return { tool: `typescript ${ts.version} language service (findReferences)`, targets };
}

/**
 * Every name destructured from `require(…)` in the corpus (`const { f } = require('./x')`,
 * `const { f: g } = …`), keyed by where the compiler's go-to-definition from it lands (the
 * export it binds: a `module.exports = { f }` member, an `exports.f = …` assignment, a declaration).
 * @returns {Map<string, { file: string, pos: number }[]>}
 */
function requireBindings(ts, service, program, files) {
  const out = new Map();
  for (const f of files) {
    const sf = program.getSourceFile(f);
    if (!sf) continue;
    const visit = (node) => {
      if (ts.isBindingElement(node) && ts.isIdentifier(node.name)) {
        const decl = node.parent?.parent;
        if (decl && ts.isVariableDeclaration(decl) && decl.initializer && ts.isCallExpression(decl.initializer) && decl.initializer.expression.getText(sf) === 'require') {
          const pos = node.name.getStart(sf);
          for (const d of service.getDefinitionAtPosition(f, pos) ?? []) {
            if (d.fileName === f && d.textSpan.start === pos) continue;
            const key = `${d.fileName}:${d.textSpan.start}`;
            out.set(key, [...(out.get(key) ?? []), { file: f, pos }]);
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return out;
}

/** A name CommonJS re-binds: a shorthand member of `module.exports = {…}`, or a name destructured from `require(…)`. */
function commonJsAlias(ts, node) {
  const p = node.parent;
  if (p && ts.isShorthandPropertyAssignment(p) && p.name === node) {
    const obj = p.parent;
    const assign = obj?.parent;
    return !!assign && ts.isBinaryExpression(assign) && assign.right === obj && /^(module\.)?exports$/.test(assign.left.getText());
  }
  if (p && ts.isBindingElement(p) && p.name === node && !p.propertyName) {
    const decl = p.parent?.parent;
    return !!decl && ts.isVariableDeclaration(decl) && !!decl.initializer && ts.isCallExpression(decl.initializer) && decl.initializer.expression.getText() === 'require';
  }
  return false;
}

function findToken(ts, sf, pos) {
  const walk = (node) => {
    if (pos < node.getStart(sf) || pos >= node.getEnd()) return null;
    let hit = null;
    ts.forEachChild(node, (c) => {
      hit ??= walk(c);
    });
    return hit ?? node;
  };
  const n = walk(sf);
  return n && (ts.isIdentifier(n) || ts.isPrivateIdentifier(n)) ? n : null;
}

/** At most `n` items at an even stride (deterministic). */
export function sample(items, n) {
  if (items.length <= n) return items;
  const out = [];
  for (let i = 0; i < n; i++) out.push(items[Math.floor((i * items.length) / n)]);
  return out;
}
