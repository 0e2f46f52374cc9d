import { describe, expect, it } from 'vitest';
import { decodeScip, ScipDecodeError, SCIP_ROLE } from '../../../src/graph/scip/decode';

// A minimal protobuf writer for the test's SCIP messages (field numbers from scip.proto).
const varint = (n: number): number[] => {
  const out: number[] = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return out;
};
const tag = (field: number, wire: number) => varint(field * 8 + wire);
const bytes = (field: number, body: number[]) => [...tag(field, 2), ...varint(body.length), ...body];
const str = (field: number, s: string) => bytes(field, [...new TextEncoder().encode(s)]);
const int = (field: number, n: number) => [...tag(field, 0), ...varint(n)];
const packed = (field: number, ns: number[]) => bytes(field, ns.flatMap(varint));

const SYM = 'scip-python python corpus 1 `app.store`/Store#get().';
const index = [
  ...bytes(1, [...bytes(2, [...str(1, 'scip-python'), ...str(2, '0.6.6')]), ...str(3, 'file:///repo')]),
  ...bytes(2, [
    ...str(1, 'app/store.py'),
    ...str(4, 'python'),
    ...bytes(2, [...packed(1, [7, 8, 11]), ...str(2, SYM), ...int(3, SCIP_ROLE.definition), ...packed(7, [7, 4, 9, 30])]),
    ...bytes(2, [...packed(1, [20, 4, 21, 7]), ...str(2, SYM), ...int(3, SCIP_ROLE.readAccess)]),
    ...bytes(3, [...str(1, SYM), ...int(5, 26), ...str(6, 'get'), ...bytes(4, [...str(1, 'x'), ...int(3, 1)])]),
    ...int(99, 5),
  ]),
];

describe('SCIP decoder', () => {
  it('reads tool, documents, occurrences (3- and 4-element ranges), roles and symbol information', () => {
    const scip = decodeScip(new Uint8Array(index));
    expect(scip).toMatchObject({ toolName: 'scip-python', toolVersion: '0.6.6', projectRoot: 'file:///repo' });
    const [doc] = scip.documents;
    expect(doc.relativePath).toBe('app/store.py');
    expect(doc.occurrences).toEqual([
      { range: [7, 8, 7, 11], symbol: SYM, roles: SCIP_ROLE.definition, enclosingRange: [7, 4, 9, 30] },
      { range: [20, 4, 21, 7], symbol: SYM, roles: SCIP_ROLE.readAccess, enclosingRange: null },
    ]);
    expect(doc.symbols[0]).toMatchObject({ symbol: SYM, kind: 26, displayName: 'get', relationships: [{ symbol: 'x', isImplementation: true }] });
  });

  it('throws ScipDecodeError on a truncated or corrupt buffer, never a partial index', () => {
    expect(() => decodeScip(new Uint8Array(index.slice(0, index.length - 9)))).toThrow(ScipDecodeError);
    expect(() => decodeScip(new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]))).toThrow(ScipDecodeError);
    expect(() => decodeScip(new Uint8Array([0x07]))).toThrow(ScipDecodeError);
  });
});
