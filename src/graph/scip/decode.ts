/**
 * A decoder for SCIP indexes (sourcegraph/scip, `scip.proto`): the protobuf wire format read
 * by hand for the few fields the graph needs, with no dependency. Unknown fields are skipped;
 * a truncated or malformed buffer throws ScipDecodeError (never a partial index).
 *
 * Coordinates are SCIP's: 0-based lines and UTF-16 (or the document's encoding) columns;
 * `range` is `[startLine, startChar, endLine, endChar]` (half-open), a 3-element range being
 * `[line, startChar, endChar]` on one line — `decodeScip` always returns the 4-element form.
 */

export class ScipDecodeError extends Error {
  constructor(message: string, readonly offset: number) {
    super(`${message} at byte ${offset}`);
    this.name = 'ScipDecodeError';
  }
}

/** SymbolRole bits (scip.proto). */
export const SCIP_ROLE = { definition: 1, import: 2, writeAccess: 4, readAccess: 8, generated: 16, test: 32, forwardDefinition: 64 } as const;

export interface ScipOccurrence {
  /** [startLine, startChar, endLine, endChar], 0-based, half-open. */
  range: [number, number, number, number];
  symbol: string;
  /** SymbolRole bit set. */
  roles: number;
  /** The full range of the definition's enclosing node (functions, classes), when the indexer gives it. */
  enclosingRange: [number, number, number, number] | null;
}

export interface ScipRelationship {
  symbol: string;
  isReference: boolean;
  isImplementation: boolean;
  isTypeDefinition: boolean;
  isDefinition: boolean;
}

export interface ScipSymbolInformation {
  symbol: string;
  kind: number;
  displayName: string;
  enclosingSymbol: string;
  relationships: ScipRelationship[];
}

export interface ScipDocument {
  relativePath: string;
  language: string;
  occurrences: ScipOccurrence[];
  symbols: ScipSymbolInformation[];
}

export interface ScipIndex {
  projectRoot: string;
  toolName: string;
  toolVersion: string;
  documents: ScipDocument[];
}

const utf8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });

/** A protobuf reader over one message's bytes. */
class Reader {
  pos: number;
  constructor(
    readonly buf: Uint8Array,
    start: number,
    readonly end: number,
  ) {
    this.pos = start;
  }

  done(): boolean {
    return this.pos >= this.end;
  }

  varint(): number {
    let result = 0;
    let shift = 0;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new ScipDecodeError('truncated varint', this.pos);
      const b = this.buf[this.pos++];
      // Beyond 2^53 precision is lost; SCIP's integers (lines, roles, lengths) stay far below.
      if (shift < 53) result += (b & 0x7f) * 2 ** shift;
      shift += 7;
      if ((b & 0x80) === 0) return result;
    }
    throw new ScipDecodeError('varint longer than 10 bytes', this.pos);
  }

  /** A length-delimited field's bounds. */
  bytes(): { start: number; end: number } {
    const len = this.varint();
    const start = this.pos;
    const end = start + len;
    if (end > this.end) throw new ScipDecodeError(`length ${len} runs past the end of its message`, start);
    this.pos = end;
    return { start, end };
  }

  string(): string {
    const { start, end } = this.bytes();
    return utf8.decode(this.buf.subarray(start, end));
  }

  sub(): Reader {
    const { start, end } = this.bytes();
    return new Reader(this.buf, start, end);
  }

  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 1) this.advance(8);
    else if (wire === 2) this.bytes();
    else if (wire === 5) this.advance(4);
    else throw new ScipDecodeError(`unsupported wire type ${wire}`, this.pos);
  }

  private advance(n: number): void {
    if (this.pos + n > this.end) throw new ScipDecodeError('truncated fixed-width field', this.pos);
    this.pos += n;
  }

  /** Repeated int32: packed (wire 2) or one value (wire 0). */
  ints(wire: number, into: number[]): void {
    if (wire === 0) {
      into.push(toInt32(this.varint()));
      return;
    }
    if (wire !== 2) throw new ScipDecodeError(`wire type ${wire} for a repeated int32`, this.pos);
    const r = this.sub();
    while (!r.done()) into.push(toInt32(r.varint()));
  }

  tag(): { field: number; wire: number } {
    const t = this.varint();
    const field = Math.floor(t / 8);
    if (field === 0) throw new ScipDecodeError('field number 0', this.pos);
    return { field, wire: t & 7 };
  }
}

function toInt32(n: number): number {
  return n > 0x7fffffff ? n - 2 ** 64 : n;
}

function expectWire(r: Reader, wire: number, want: number, what: string): void {
  if (wire !== want) throw new ScipDecodeError(`${what}: wire type ${wire}, expected ${want}`, r.pos);
}

function range(values: number[], r: Reader): [number, number, number, number] {
  if (values.length === 3) return [values[0], values[1], values[0], values[2]];
  if (values.length === 4) return [values[0], values[1], values[2], values[3]];
  throw new ScipDecodeError(`a range has ${values.length} elements (3 or 4 expected)`, r.pos);
}

function occurrence(r: Reader): ScipOccurrence {
  const rng: number[] = [];
  const enclosing: number[] = [];
  let symbol = '';
  let roles = 0;
  while (!r.done()) {
    const { field, wire } = r.tag();
    if (field === 1) r.ints(wire, rng);
    else if (field === 2) {
      expectWire(r, wire, 2, 'Occurrence.symbol');
      symbol = r.string();
    } else if (field === 3) {
      expectWire(r, wire, 0, 'Occurrence.symbol_roles');
      roles = r.varint();
    } else if (field === 7) r.ints(wire, enclosing);
    else r.skip(wire);
  }
  return { range: range(rng, r), symbol, roles, enclosingRange: enclosing.length ? range(enclosing, r) : null };
}

function relationship(r: Reader): ScipRelationship {
  const out: ScipRelationship = { symbol: '', isReference: false, isImplementation: false, isTypeDefinition: false, isDefinition: false };
  while (!r.done()) {
    const { field, wire } = r.tag();
    if (field === 1 && wire === 2) out.symbol = r.string();
    else if (field >= 2 && field <= 5 && wire === 0) {
      const v = r.varint() !== 0;
      if (field === 2) out.isReference = v;
      else if (field === 3) out.isImplementation = v;
      else if (field === 4) out.isTypeDefinition = v;
      else out.isDefinition = v;
    } else r.skip(wire);
  }
  return out;
}

function symbolInformation(r: Reader): ScipSymbolInformation {
  const out: ScipSymbolInformation = { symbol: '', kind: 0, displayName: '', enclosingSymbol: '', relationships: [] };
  while (!r.done()) {
    const { field, wire } = r.tag();
    if (field === 1 && wire === 2) out.symbol = r.string();
    else if (field === 4 && wire === 2) out.relationships.push(relationship(r.sub()));
    else if (field === 5 && wire === 0) out.kind = r.varint();
    else if (field === 6 && wire === 2) out.displayName = r.string();
    else if (field === 8 && wire === 2) out.enclosingSymbol = r.string();
    else r.skip(wire);
  }
  return out;
}

function document(r: Reader): ScipDocument {
  const out: ScipDocument = { relativePath: '', language: '', occurrences: [], symbols: [] };
  while (!r.done()) {
    const { field, wire } = r.tag();
    if (field === 1 && wire === 2) out.relativePath = r.string();
    else if (field === 2 && wire === 2) out.occurrences.push(occurrence(r.sub()));
    else if (field === 3 && wire === 2) out.symbols.push(symbolInformation(r.sub()));
    else if (field === 4 && wire === 2) out.language = r.string();
    else r.skip(wire);
  }
  return out;
}

/** Decodes a whole `index.scip`. Throws ScipDecodeError on malformed input. */
export function decodeScip(buf: Uint8Array): ScipIndex {
  const r = new Reader(buf, 0, buf.length);
  const out: ScipIndex = { projectRoot: '', toolName: '', toolVersion: '', documents: [] };
  let sawMetadata = false;
  while (!r.done()) {
    const { field, wire } = r.tag();
    if (field === 1 && wire === 2) {
      sawMetadata = true;
      const m = r.sub();
      while (!m.done()) {
        const t = m.tag();
        if (t.field === 2 && t.wire === 2) {
          const tool = m.sub();
          while (!tool.done()) {
            const tt = tool.tag();
            if (tt.field === 1 && tt.wire === 2) out.toolName = tool.string();
            else if (tt.field === 2 && tt.wire === 2) out.toolVersion = tool.string();
            else tool.skip(tt.wire);
          }
        } else if (t.field === 3 && t.wire === 2) out.projectRoot = m.string();
        else m.skip(t.wire);
      }
    } else if (field === 2 && wire === 2) out.documents.push(document(r.sub()));
    else r.skip(wire);
  }
  if (!sawMetadata && out.documents.length === 0 && buf.length > 0) throw new ScipDecodeError('no SCIP metadata or documents', 0);
  return out;
}
