/**
 * Building blocks shared by the hand-written scanners (Markdown, JSON, YAML, TOML):
 * they work line by line and describe symbols by rows and UTF-16 indexes.
 */
import { KeyAllocator } from './keys';
import { oneLine } from './text';
import type { ExtractedSymbol, SymbolKind } from './types';
import { ByteMap, LineIndex } from './utf8';

export interface Scanned {
  symbols: ExtractedSymbol[];
  hadErrors: boolean;
}

export type Scanner = (content: string, confidence: number) => Scanned;

export interface ScannedSymbol {
  name: string;
  qualifiedName: string;
  kind: SymbolKind;
  parent: string | null;
  /** 0-based rows, inclusive. */
  startRow: number;
  endRow: number;
  signature: string;
  docstring: string | null;
}

/** Turns scanner findings into public symbols: keys, byte offsets, confidence. */
export class SymbolWriter {
  readonly lines: LineIndex;
  private readonly bytes: ByteMap;
  private readonly keys = new KeyAllocator();
  readonly symbols: ExtractedSymbol[] = [];

  constructor(content: string, private readonly confidence: number) {
    this.lines = new LineIndex(content);
    this.bytes = new ByteMap(content);
  }

  /** Adds a symbol spanning whole lines (from the first line's start to the last line's end). */
  add(found: ScannedSymbol): ExtractedSymbol {
    const symbol: ExtractedSymbol = {
      key: this.keys.next(found.qualifiedName, found.kind),
      name: found.name,
      qualified_name: found.qualifiedName,
      kind: found.kind,
      signature: oneLine(found.signature),
      docstring: found.docstring,
      parent: found.parent,
      is_exported: true,
      is_test: false,
      start_line: found.startRow + 1,
      end_line: found.endRow + 1,
      start_byte: this.bytes.byteAt(this.lines.starts[found.startRow]),
      end_byte: this.bytes.byteAt(this.lines.lineEnd(found.endRow)),
      extraction_confidence: this.confidence,
    };
    this.symbols.push(symbol);
    return symbol;
  }

  /** Confidence is lowered afterwards when the scanner met syntax it could not read. */
  finish(hadErrors: boolean): Scanned {
    if (hadErrors) {
      for (const s of this.symbols) s.extraction_confidence = Math.round(s.extraction_confidence * 80) / 100;
    }
    return { symbols: this.symbols, hadErrors };
  }
}

/** Moves `endRow` up past trailing blank lines (and comment lines, when `comment` is given). */
export function trimTrailing(lines: readonly string[], startRow: number, endRow: number, comment?: RegExp): number {
  let row = endRow;
  while (row > startRow && (lines[row].trim() === '' || (comment !== undefined && comment.test(lines[row])))) row--;
  return row;
}
