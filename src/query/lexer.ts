import { QueryError } from './errors';

export type TokenType =
  | 'ident'
  | 'string'
  | 'int'
  | 'float'
  | 'param'
  | '('
  | ')'
  | '['
  | ']'
  | '{'
  | '}'
  | ','
  | '.'
  | '..'
  | ':'
  | '|'
  | '*'
  | ';'
  | '='
  | '<>'
  | '<'
  | '<='
  | '>'
  | '>='
  | '=~'
  | '+'
  | '-'
  | '/'
  | '%'
  | 'eof';

export interface Token {
  type: TokenType;
  /** Source text of the token. */
  text: string;
  /** Decoded value: identifier name, string contents or number. */
  value: string | number;
  /** Backtick-quoted identifiers are never keywords. */
  quoted?: true;
  start: number;
  end: number;
}

const PUNCT2: Record<string, TokenType> = { '..': '..', '<>': '<>', '!=': '<>', '<=': '<=', '>=': '>=', '=~': '=~' };
const PUNCT1 = new Set(['(', ')', '[', ']', '{', '}', ',', '.', ':', '|', '*', ';', '=', '<', '>', '+', '-', '/', '%']);
const IDENT_START = /[\p{L}_]/u;
const IDENT_PART = /[\p{L}\p{N}_]/u;
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '\\': '\\', "'": "'", '"': '"', '`': '`' };

/** Splits pinchQL text into tokens; `//` and `/* *\/` comments and whitespace are skipped. */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      if (close < 0) throw new QueryError('unterminated /* comment', [i, text.length], 'close the comment with */');
      i = close + 2;
      continue;
    }
    const start = i;
    if (c === "'" || c === '"') {
      const [value, end] = readString(text, i);
      out.push({ type: 'string', text: text.slice(start, end), value, start, end });
      i = end;
      continue;
    }
    if (c === '`') {
      const [value, end] = readQuotedName(text, i);
      out.push({ type: 'ident', text: text.slice(start, end), value, quoted: true, start, end });
      i = end;
      continue;
    }
    if (/[0-9]/.test(c)) {
      let j = i;
      while (j < text.length && /[0-9]/.test(text[j])) j++;
      let float = false;
      if (text[j] === '.' && /[0-9]/.test(text[j + 1] ?? '')) {
        float = true;
        j++;
        while (j < text.length && /[0-9]/.test(text[j])) j++;
      }
      if (/[eE]/.test(text[j] ?? '') && /[0-9]/.test(text[j + 1] === '-' || text[j + 1] === '+' ? (text[j + 2] ?? '') : (text[j + 1] ?? ''))) {
        float = true;
        j += text[j + 1] === '-' || text[j + 1] === '+' ? 2 : 1;
        while (j < text.length && /[0-9]/.test(text[j])) j++;
      }
      if (j < text.length && IDENT_PART.test(text[j])) {
        throw new QueryError(`'${text.slice(i, j + 1)}' is not a number`, [i, j + 1], 'separate the number from the name that follows it, or quote the name with backticks');
      }
      const raw = text.slice(i, j);
      const value = Number(raw);
      if (!float && !Number.isSafeInteger(value)) {
        throw new QueryError(`the integer ${raw} is too large`, [i, j], `use an integer between -${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`);
      }
      out.push({ type: float ? 'float' : 'int', text: raw, value, start, end: j });
      i = j;
      continue;
    }
    if (IDENT_START.test(c)) {
      let j = i + 1;
      while (j < text.length && IDENT_PART.test(text[j])) j++;
      out.push({ type: 'ident', text: text.slice(i, j), value: text.slice(i, j), start, end: j });
      i = j;
      continue;
    }
    if (c === '$') {
      let j = i + 1;
      while (j < text.length && IDENT_PART.test(text[j])) j++;
      out.push({ type: 'param', text: text.slice(i, j), value: text.slice(i + 1, j), start, end: j });
      i = j;
      continue;
    }
    const two = text.slice(i, i + 2);
    if (PUNCT2[two]) {
      out.push({ type: PUNCT2[two], text: two, value: two, start, end: i + 2 });
      i += 2;
      continue;
    }
    if (PUNCT1.has(c)) {
      out.push({ type: c as TokenType, text: c, value: c, start, end: i + 1 });
      i++;
      continue;
    }
    throw new QueryError(`unexpected character '${c}'`, [i, i + 1], 'remove it; strings go in quotes, names with other characters in backticks');
  }
  out.push({ type: 'eof', text: '', value: '', start: text.length, end: text.length });
  return out;
}

function readString(text: string, start: number): [string, number] {
  const quote = text[start];
  let value = '';
  let i = start + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === quote) return [value, i + 1];
    if (c === '\\') {
      const e = text[i + 1];
      if (e === 'u') {
        const hex = text.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new QueryError('\\u needs four hex digits', [i, Math.min(text.length, i + 6)], 'write \\u followed by four hex digits, e.g. \\u00e9');
        value += String.fromCharCode(parseInt(hex, 16));
        i += 6;
        continue;
      }
      const decoded = e === undefined ? undefined : ESCAPES[e];
      if (decoded === undefined) {
        throw new QueryError(`unknown escape \\${e ?? ''} in a string`, [i, Math.min(text.length, i + 2)], "escape only \\\\ \\' \\\" \\n \\t \\r \\b \\f \\uXXXX; write a backslash as \\\\");
      }
      value += decoded;
      i += 2;
      continue;
    }
    value += c;
    i++;
  }
  throw new QueryError('unterminated string', [start, text.length], `close the string with ${quote}`);
}

function readQuotedName(text: string, start: number): [string, number] {
  let value = '';
  let i = start + 1;
  while (i < text.length) {
    if (text[i] === '`') {
      if (text[i + 1] === '`') {
        value += '`';
        i += 2;
        continue;
      }
      if (value === '') throw new QueryError('empty `` name', [start, i + 1], 'put a name between the backticks');
      return [value, i + 1];
    }
    value += text[i];
    i++;
  }
  throw new QueryError('unterminated `name`', [start, text.length], 'close the name with a backtick');
}
