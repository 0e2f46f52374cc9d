import { describe, expect, it } from 'vitest';
import { SCIP_ROLE, type ScipDocument, type ScipOccurrence } from '../../../src/graph/scip/decode';
import { IMPLEMENTATION_CONFIDENCE, OVERRIDE_CONFIDENCE, scipEdges, type ScipTargetRow } from '../../../src/graph/scip/edges';
import { checkScip } from '../../../src/graph/scip/check';

const P = 'scip-typescript npm pkg 1.0.0 ';
const occ = (line: number, symbol: string, roles = 0): ScipOccurrence => ({ range: [line, 0, line, 3], symbol: P + symbol, roles, enclosingRange: null });
const doc = (relativePath: string, occurrences: ScipOccurrence[], symbols: ScipDocument['symbols'] = []): ScipDocument => ({ relativePath, language: 'typescript', occurrences, symbols });

const rows: ScipTargetRow[] = [
  { id: 'a.ts::Store#Interface', file: 'a.ts', name: 'Store', kind: 'Interface', startLine: 1, endLine: 3 },
  { id: 'a.ts::Store.put#Method', file: 'a.ts', name: 'put', kind: 'Method', startLine: 2, endLine: 2 },
  { id: 'a.ts::Mem#Class', file: 'a.ts', name: 'Mem', kind: 'Class', startLine: 5, endLine: 9 },
  { id: 'a.ts::Mem.put#Method', file: 'a.ts', name: 'put', kind: 'Method', startLine: 6, endLine: 8 },
  { id: 'b.ts::use#Function', file: 'b.ts', name: 'use', kind: 'Function', startLine: 1, endLine: 4 },
];
const A = doc(
  'a.ts',
  [occ(0, 'a.ts/Store#', SCIP_ROLE.definition), occ(1, 'a.ts/Store#put().', SCIP_ROLE.definition), occ(4, 'a.ts/Mem#', SCIP_ROLE.definition), occ(5, 'a.ts/Mem#put().', SCIP_ROLE.definition)],
  [{ symbol: `${P}a.ts/Mem#put().`, kind: 0, displayName: 'put', enclosingSymbol: '', relationships: [{ symbol: `${P}a.ts/Store#put().`, isImplementation: true, isReference: false, isTypeDefinition: false, isDefinition: false }] }],
);
const B = doc('b.ts', [occ(0, 'b.ts/use().', SCIP_ROLE.definition), occ(1, 'a.ts/Store#put().'), occ(2, 'a.ts/Store#'), occ(3, 'lib/`lib.es5.d.ts`/String#match().'), occ(3, 'local 1')]);

describe('SCIP occurrences as edges', () => {
  it('maps definitions onto symbol rows and references onto exact edges, calls where the extractor saw one', () => {
    const { edges, stats } = scipEdges([A, B], rows, [{ file: 'b.ts', kind: 'call', target: 'put', enclosing: 'b.ts::use#Function', line: 2 }]);
    expect(stats).toMatchObject({ definitions: 5, unmapped: 0 });
    expect(edges.map((e) => `${e.kind} ${e.srcId} -> ${e.dstId} @${e.line} ${e.confidence} ${e.provenance}`)).toEqual([
      'CALLS b.ts::use#Function -> a.ts::Store.put#Method @2 1 scip',
      `CALLS b.ts::use#Function -> a.ts::Mem.put#Method @2 ${IMPLEMENTATION_CONFIDENCE} scip`,
      'REFERENCES b.ts::use#Function -> a.ts::Store#Interface @3 1 scip',
    ]);
  });

  it('reaches overrides of a concrete method only under the default view, and those of an abstract one at IMPLEMENTATION_CONFIDENCE', () => {
    const klass = (name: string, start: number, end: number): ScipTargetRow => ({ id: `k.py::${name}#Class`, file: 'k.py', name, kind: 'Class', startLine: start, endLine: end });
    const method = (owner: string, name: string, line: number, signature: string): ScipTargetRow => ({ id: `k.py::${owner}.${name}#Method`, file: 'k.py', name, kind: 'Method', startLine: line, endLine: line + 1, signature });
    const krows = [
      klass('Base', 1, 6),
      method('Base', 'save', 2, 'def save(self)'),
      method('Base', 'load', 4, '@abstractmethod def load(self)'),
      klass('Sub', 8, 12),
      method('Sub', 'save', 9, 'def save(self)'),
      method('Sub', 'load', 11, 'def load(self)'),
      { id: 'k.py::use#Function', file: 'k.py', name: 'use', kind: 'Function', startLine: 14, endLine: 16 },
    ];
    const sym = (s: string) => `scip-python python corpus 1 k/${s}`;
    const rel = (s: string) => ({ symbol: sym(s), isImplementation: true, isReference: false, isTypeDefinition: false, isDefinition: false });
    const K: ScipDocument = {
      relativePath: 'k.py',
      language: 'python',
      occurrences: [
        { range: [0, 6, 0, 10], symbol: sym('Base#'), roles: SCIP_ROLE.definition, enclosingRange: null },
        { range: [1, 8, 1, 12], symbol: sym('Base#save().'), roles: SCIP_ROLE.definition, enclosingRange: null },
        { range: [3, 8, 3, 12], symbol: sym('Base#load().'), roles: SCIP_ROLE.definition, enclosingRange: null },
        { range: [7, 6, 7, 9], symbol: sym('Sub#'), roles: SCIP_ROLE.definition, enclosingRange: null },
        { range: [8, 8, 8, 12], symbol: sym('Sub#save().'), roles: SCIP_ROLE.definition, enclosingRange: null },
        { range: [10, 8, 10, 12], symbol: sym('Sub#load().'), roles: SCIP_ROLE.definition, enclosingRange: null },
        { range: [13, 4, 13, 7], symbol: sym('use().'), roles: SCIP_ROLE.definition, enclosingRange: null },
        { range: [14, 6, 14, 10], symbol: sym('Base#save().'), roles: 0, enclosingRange: null },
        { range: [15, 6, 15, 10], symbol: sym('Base#load().'), roles: 0, enclosingRange: null },
      ],
      symbols: [
        { symbol: sym('Sub#save().'), kind: 0, displayName: 'save', enclosingSymbol: '', relationships: [rel('Base#save().')] },
        { symbol: sym('Sub#load().'), kind: 0, displayName: 'load', enclosingSymbol: '', relationships: [rel('Base#load().')] },
      ],
    };
    const calls = [15, 16].map((line) => ({ file: 'k.py', kind: 'call' as const, target: line === 15 ? 'save' : 'load', enclosing: 'k.py::use#Function', line }));
    const { edges } = scipEdges([K], krows, calls);
    expect(edges.filter((e) => e.kind === 'CALLS').map((e) => `${e.dstId} ${e.confidence}`)).toEqual([
      'k.py::Base.save#Method 1',
      `k.py::Sub.save#Method ${OVERRIDE_CONFIDENCE}`,
      'k.py::Base.load#Method 1',
      `k.py::Sub.load#Method ${IMPLEMENTATION_CONFIDENCE}`,
    ]);
  });

  it('maps a function nested in a function (a document-local SCIP symbol) onto its row', () => {
    const nrows: ScipTargetRow[] = [
      { id: 'l.ts::error#Function', file: 'l.ts', name: 'error', kind: 'Function', startLine: 1, endLine: 6 },
      { id: 'l.ts::error.getSizing#Function', file: 'l.ts', name: 'getSizing', kind: 'Function', startLine: 2, endLine: 4 },
    ];
    const L = doc('l.ts', [
      occ(0, 'l.ts/error.', SCIP_ROLE.definition),
      { range: [1, 11, 1, 20], symbol: 'local 7', roles: SCIP_ROLE.definition, enclosingRange: null },
      { range: [1, 21, 1, 27], symbol: 'local 8', roles: SCIP_ROLE.definition, enclosingRange: null },
      { range: [4, 10, 4, 19], symbol: 'local 7', roles: 0, enclosingRange: null },
      { range: [4, 20, 4, 26], symbol: 'local 8', roles: 0, enclosingRange: null },
    ]);
    const { edges } = scipEdges([L], nrows, [{ file: 'l.ts', kind: 'call', target: 'getSizing', enclosing: 'l.ts::error#Function', line: 5 }]);
    expect(edges.map((e) => `${e.kind} ${e.srcId} -> ${e.dstId} @${e.line}`)).toEqual(['CALLS l.ts::error#Function -> l.ts::error.getSizing#Function @5']);
  });

  it('keeps Java overloads apart by their definition lines and links `new` to the constructor scip-java names <init>', () => {
    const J = 'semanticdb maven . . app/';
    const jrows: ScipTargetRow[] = [
      { id: 'app/Result.java::Result#Class', file: 'app/Result.java', name: 'Result', kind: 'Class', startLine: 1, endLine: 9 },
      { id: 'app/Result.java::Result.Result#Method', file: 'app/Result.java', name: 'Result', kind: 'Method', startLine: 2, endLine: 2 },
      { id: 'app/Result.java::Result.Result#Method~2', file: 'app/Result.java', name: 'Result', kind: 'Method', startLine: 3, endLine: 3 },
      { id: 'app/Result.java::Result.send#Method', file: 'app/Result.java', name: 'send', kind: 'Method', startLine: 4, endLine: 5 },
      { id: 'app/Result.java::Result.send#Method~2', file: 'app/Result.java', name: 'send', kind: 'Method', startLine: 6, endLine: 8 },
    ];
    const at = (line: number, symbol: string, roles = 0): ScipOccurrence => ({ range: [line, 4, line, 8], symbol: J + symbol, roles, enclosingRange: null });
    const R: ScipDocument = {
      relativePath: 'app/Result.java',
      language: 'java',
      occurrences: [
        at(0, 'Result#', SCIP_ROLE.definition),
        at(1, 'Result#`<init>`().', SCIP_ROLE.definition),
        at(2, 'Result#`<init>`(+1).', SCIP_ROLE.definition),
        at(3, 'Result#send().', SCIP_ROLE.definition),
        at(5, 'Result#send(+1).', SCIP_ROLE.definition),
        // Inside the second send: `new Result(x)` and `send()`.
        at(6, 'Result#`<init>`(+1).'),
        at(7, 'Result#send().'),
      ],
      symbols: [],
    };
    const calls = [
      { file: 'app/Result.java', kind: 'call' as const, target: 'Result', enclosing: 'app/Result.java::Result.send#Method~2', line: 7 },
      { file: 'app/Result.java', kind: 'call' as const, target: 'send', enclosing: 'app/Result.java::Result.send#Method~2', line: 8 },
    ];
    const { edges, stats } = scipEdges([R], jrows, calls);
    expect(stats).toMatchObject({ definitions: 5, unmapped: 0 });
    expect(edges.map((e) => `${e.kind} ${e.srcId} -> ${e.dstId} @${e.line}`)).toEqual([
      'CALLS app/Result.java::Result.send#Method~2 -> app/Result.java::Result.Result#Method~2 @7',
      'CALLS app/Result.java::Result.send#Method~2 -> app/Result.java::Result.send#Method @8',
    ]);
  });

  it('counts definitions that match no symbol row and makes no edge into them', () => {
    const { edges, stats } = scipEdges([doc('c.ts', [occ(0, 'c.ts/ghost().', SCIP_ROLE.definition), occ(1, 'c.ts/ghost().')])], [], []);
    expect(stats).toMatchObject({ definitions: 1, unmapped: 1 });
    expect(edges).toEqual([]);
  });
});

describe('checking an index against the pushed files', () => {
  const index = (documents: ScipDocument[]) => ({ projectRoot: 'file:///repo', toolName: 'scip-typescript', toolVersion: '0.4.0', documents });

  it('keeps the documents that are pushed files within their line counts and says why the others are left out', () => {
    const lines = new Map<string, number | null>([['a.ts', 10], ['b.ts', 2], ['bin.dat', null]]);
    const r = checkScip(index([A, B, doc('../x.ts', [occ(0, 'x')]), doc('gone.ts', [occ(0, 'x')]), doc('bin.dat', [occ(0, 'x')])]), lines);
    expect(r.documents.map((d) => d.relativePath)).toEqual(['a.ts']);
    expect(r.skipped).toEqual([
      { path: 'b.ts', reason: 'range_outside_file' },
      { path: '../x.ts', reason: 'path_outside_project' },
      { path: 'gone.ts', reason: 'unknown_path' },
      { path: 'bin.dat', reason: 'range_outside_file' },
    ]);
  });

  it('refuses an empty index with invalid_scip and a foreign one with scip_mismatch naming the folder above', () => {
    expect(() => checkScip(index([]), new Map())).toThrow(expect.objectContaining({ code: 'invalid_scip' }));
    try {
      checkScip(index([doc('web/a.ts', [occ(0, 'x')]), doc('web/b.ts', [occ(0, 'x')])]), new Map(), ['a.ts', 'b.ts']);
      throw new Error('expected a refusal');
    } catch (err) {
      expect(err).toMatchObject({ code: 'scip_mismatch', details: { root_prefix: 'web/', root_shift: 'above' } });
    }
  });
});
