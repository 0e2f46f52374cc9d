/**
 * Graph fixtures: small repositories under test/fixtures/graph/<lang>/ with a
 * hand-written expected-edges.json. Every file is extracted with the real
 * extractor and turned into resolver input the way the index stores it
 * (symbol id = `${path}::${key}`, enclosing id = `${path}::${enclosing}`).
 */
import { extractFile } from '../../../src/extract/index';
import { isAbstractSignature } from '../../../src/graph/contract';
import { DECLARED_TYPE_LANGUAGES } from '../../../src/graph/languages';
import { DECLARING_KINDS } from '../../../src/graph/resolve/declared';
import { LAYOUT_CONFIG_FILES, type GraphEdge, type ProjectLayout, type RefInput, type SymbolInput } from '../../../src/graph/types';

export interface ExpectedEdge {
  kind: string;
  /** Source symbol id, or the file for module-level references. */
  src: string;
  /** Target symbol id, or the imported file / package directory. */
  dst: string;
  line: number;
}

export interface Fixture {
  name: string;
  /** Path inside the fixture → content. */
  files: Map<string, string>;
  expected: ExpectedEdge[];
}

export interface Extracted {
  refs: RefInput[];
  symbols: SymbolInput[];
  layout: ProjectLayout;
  /** Language of each extracted file. */
  languages: Map<string, string>;
}

const ROOT = '../../fixtures/graph/';
const sources = import.meta.glob<string>(['../../fixtures/graph/**/*', '!**/expected-edges.json'], { query: '?raw', import: 'default', eager: true });
const expectations = import.meta.glob<ExpectedEdge[]>('../../fixtures/graph/*/expected-edges.json', { import: 'default', eager: true });

export function fixtures(): Fixture[] {
  return Object.entries(expectations)
    .map(([path, expected]) => {
      const name = path.slice(ROOT.length, path.lastIndexOf('/'));
      const prefix = `${ROOT}${name}/`;
      const files = new Map<string, string>();
      for (const [p, text] of Object.entries(sources)) if (p.startsWith(prefix)) files.set(p.slice(prefix.length), text);
      return { name, files, expected };
    })
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}

const cache = new Map<string, Extracted>();

export async function extract(fixture: Fixture): Promise<Extracted> {
  const hit = cache.get(fixture.name);
  if (hit) return hit;
  const refs: RefInput[] = [];
  const symbols: SymbolInput[] = [];
  const configs = new Map<string, string>();
  const languages = new Map<string, string>();
  for (const [path, text] of [...fixture.files].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    if (LAYOUT_CONFIG_FILES.includes(path.slice(path.lastIndexOf('/') + 1))) configs.set(path, text);
    const result = await extractFile(path, text);
    if (result.failure || result.corpus !== 'code') continue;
    languages.set(path, result.language);
    for (const s of result.symbols) {
      symbols.push({
        id: `${path}::${s.key}`,
        file: path,
        language: result.language,
        name: s.name,
        qualifiedName: s.qualified_name,
        kind: s.kind,
        parent: s.parent,
        isExported: s.is_exported,
        ...(s.kind === 'Method' && isAbstractSignature(s.name, s.signature) ? { abstract: true } : {}),
        ...(s.signature && DECLARED_TYPE_LANGUAGES.includes(result.language) && DECLARING_KINDS.has(s.kind) ? { signature: s.signature } : {}),
      });
    }
    for (const r of result.references) {
      refs.push({
        file: path,
        language: result.language,
        kind: r.kind,
        name: r.name,
        target: r.target,
        importedNames: r.imported_names,
        enclosing: r.enclosing === null ? null : `${path}::${r.enclosing}`,
        line: r.line,
      });
    }
  }
  const out = { refs, symbols, layout: { paths: [...fixture.files.keys()].sort(), configs }, languages };
  cache.set(fixture.name, out);
  return out;
}

export function edgeKey(e: { kind: string; src: string; dst: string; line: number }): string {
  return `${e.kind} ${e.src} -> ${e.dst} @${e.line}`;
}

export function keyOf(e: GraphEdge): string {
  return edgeKey({ kind: e.kind, src: e.srcId ?? e.srcFile, dst: e.dstId ?? e.dstFile ?? '', line: e.line });
}

export interface Score {
  precision: number;
  recall: number;
  truePositives: string[];
  falsePositives: string[];
  falseNegatives: string[];
  predicted: number;
  expected: number;
}

/** Precision and recall of the resolved edges against the expected set (distinct edges). */
export function score(edges: readonly GraphEdge[], expected: readonly ExpectedEdge[]): Score {
  const got = new Set(edges.map(keyOf));
  const want = new Set(expected.map(edgeKey));
  const tp = [...got].filter((k) => want.has(k));
  return {
    precision: got.size === 0 ? 0 : tp.length / got.size,
    recall: want.size === 0 ? 0 : tp.length / want.size,
    truePositives: tp,
    falsePositives: [...got].filter((k) => !want.has(k)).sort(),
    falseNegatives: [...want].filter((k) => !got.has(k)).sort(),
    predicted: got.size,
    expected: want.size,
  };
}

/** The symbols `plan()` says are needed: the refs' own files, the planned files, the planned names. */
export function plannedSymbols(symbols: readonly SymbolInput[], refs: readonly RefInput[], plan: { files: Set<string>; names: Set<string> }): SymbolInput[] {
  const own = new Set(refs.map((r) => r.file));
  return symbols.filter((s) => own.has(s.file) || plan.files.has(s.file) || plan.names.has(s.name));
}
