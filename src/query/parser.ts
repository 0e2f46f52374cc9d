import type { BinaryOp, Count, Expr, Name, NodePattern, OrderItem, Pattern, PropEntry, Query, RelPattern, ReturnItem, Span } from './ast';
import { didYouMean } from '../util/did-you-mean';
import { QueryError } from './errors';
import { tokenize, type Token, type TokenType } from './lexer';
import { DEFAULT_RANGE, MAX_DEPTH } from './limits';

/** Words that cannot name a variable unless quoted with backticks (keywords are case-insensitive). */
const RESERVED = new Set([
  'MATCH', 'WHERE', 'RETURN', 'AND', 'OR', 'XOR', 'NOT', 'IN', 'IS', 'NULL', 'TRUE', 'FALSE', 'AS', 'DISTINCT', 'ORDER', 'BY',
  'SKIP', 'OFFSET', 'LIMIT', 'ASC', 'ASCENDING', 'DESC', 'DESCENDING', 'STARTS', 'ENDS', 'CONTAINS', 'WITH', 'OPTIONAL', 'UNWIND',
  'UNION', 'CREATE', 'MERGE', 'DELETE', 'DETACH', 'SET', 'REMOVE', 'CALL', 'CASE', 'WHEN', 'THEN', 'ELSE', 'END', 'FOREACH',
  'LOAD', 'YIELD', 'DROP', 'USE',
]);
const WRITE_CLAUSES = new Set(['CREATE', 'MERGE', 'DELETE', 'DETACH', 'SET', 'REMOVE', 'DROP', 'FOREACH', 'LOAD']);
const OTHER_CLAUSES = new Set(['OPTIONAL', 'WITH', 'UNWIND', 'UNION', 'CALL', 'USE']);
/** Clause keywords a misspelling is compared with. */
const CLAUSES = ['MATCH', 'WHERE', 'RETURN', 'ORDER', 'SKIP', 'LIMIT', 'DISTINCT'];
const COMPARISONS = new Set<TokenType>(['=', '<>', '<', '<=', '>', '>=', '=~']);
/** Nesting of parentheses, lists and NOT / minus chains. */
const MAX_NESTING = 64;

const SHAPE = 'MATCH (a:Function) WHERE a.name STARTS WITH \'get\' RETURN a.name, a.file';

/** Parses pinchQL text into a syntax tree, or throws a QueryError pointing at the first problem. */
export function parseQuery(text: string): Query {
  return new Parser(tokenize(text)).query();
}

function describe(t: Token): string {
  if (t.type === 'eof') return 'the end of the query';
  return `'${t.text.length > 30 ? `${t.text.slice(0, 30)}…` : t.text}'`;
}

class Parser {
  private pos = 0;
  private nesting = 0;

  constructor(private readonly tokens: Token[]) {}

  private peek(k = 0): Token {
    return this.tokens[Math.min(this.pos + k, this.tokens.length - 1)];
  }

  private next(): Token {
    const t = this.peek();
    if (t.type !== 'eof') this.pos++;
    return t;
  }

  /** End offset of the last consumed token. */
  private get prevEnd(): number {
    return this.pos === 0 ? 0 : this.tokens[this.pos - 1].end;
  }

  private is(type: TokenType, k = 0): boolean {
    return this.peek(k).type === type;
  }

  private isKeyword(word: string, k = 0): boolean {
    const t = this.peek(k);
    return t.type === 'ident' && !t.quoted && String(t.value).toUpperCase() === word;
  }

  private keywordOf(t: Token): string | null {
    return t.type === 'ident' && !t.quoted ? String(t.value).toUpperCase() : null;
  }

  private fail(t: Token, message: string, suggestion: string, stage: 'syntax' | 'semantic' = 'syntax'): never {
    throw new QueryError(message, [t.start, Math.max(t.end, t.start)], suggestion, stage);
  }

  private expect(type: TokenType, what: string, suggestion: string): Token {
    const t = this.peek();
    if (t.type !== type) this.fail(t, `expected ${what}, found ${describe(t)}`, suggestion);
    return this.next();
  }

  private expectKeyword(word: string, suggestion: string): Token {
    const t = this.peek();
    if (!this.isKeyword(word)) this.fail(t, `expected ${word}, found ${describe(t)}`, suggestion);
    return this.next();
  }

  private enter(t: Token): void {
    if (++this.nesting > MAX_NESTING) this.fail(t, `the expression nests deeper than ${MAX_NESTING} levels`, 'flatten it: join conditions with AND/OR and use IN [...] for lists of values');
  }

  private leave(): void {
    this.nesting--;
  }

  query(): Query {
    const first = this.peek();
    if (!this.isKeyword('MATCH')) this.clauseProblem(first, 'MATCH', `a query starts with MATCH, e.g. ${SHAPE}`);
    this.next();
    const match = this.pattern();
    if (this.is(',')) {
      this.fail(this.peek(), 'one pattern per query: pinchQL does not join comma-separated patterns',
        'match one relationship such as (a)-[:CALLS]->(b) and test further ones in WHERE with a pattern like (b)-[:CALLS]->()');
    }
    let where: Expr | undefined;
    if (this.isKeyword('WHERE')) {
      this.next();
      where = this.expr();
      if (this.isKeyword('WHERE')) this.fail(this.peek(), 'one WHERE per query', 'join the conditions with AND');
    }
    if (!this.isKeyword('RETURN')) this.clauseProblem(this.peek(), 'RETURN', `end the query with RETURN, e.g. ${SHAPE}`);
    this.next();
    let distinct = false;
    if (this.isKeyword('DISTINCT')) {
      this.next();
      distinct = true;
    }
    let star = false;
    const items: ReturnItem[] = [];
    if (this.is('*')) {
      this.next();
      star = true;
    } else {
      do {
        if (items.length) this.next();
        items.push(this.returnItem());
      } while (this.is(','));
    }
    if (this.isKeyword('WHERE')) this.fail(this.peek(), 'WHERE goes before RETURN', 'move the WHERE condition between the MATCH pattern and RETURN');
    const order: OrderItem[] = [];
    if (this.isKeyword('ORDER')) {
      this.next();
      this.expectKeyword('BY', 'write ORDER BY followed by an expression, e.g. ORDER BY a.name DESC');
      do {
        if (order.length) this.next();
        order.push(this.orderItem());
      } while (this.is(','));
    }
    let skip: Count | undefined;
    if (this.isKeyword('SKIP') || this.isKeyword('OFFSET')) {
      this.next();
      skip = this.count('SKIP');
    }
    let limit: Count | undefined;
    if (this.isKeyword('LIMIT')) {
      this.next();
      limit = this.count('LIMIT');
      if (this.isKeyword('SKIP') || this.isKeyword('OFFSET')) this.fail(this.peek(), 'SKIP goes before LIMIT', 'write … SKIP n LIMIT m');
    }
    if (this.is(';')) this.next();
    const end = this.peek();
    if (end.type !== 'eof') {
      const kw = this.keywordOf(end);
      if (kw === 'ORDER' || kw === 'SKIP' || kw === 'OFFSET') this.fail(end, `${kw} is out of place`, 'the clauses go in this order: ORDER BY, SKIP, LIMIT');
      if (kw === 'MATCH' || kw === 'RETURN') this.fail(end, `one ${kw} per query`, 'pinchQL runs one MATCH … RETURN … per call; make separate calls');
      if (kw && (WRITE_CLAUSES.has(kw) || OTHER_CLAUSES.has(kw))) this.clauseProblem(end, 'the end of the query', '');
      this.fail(end, `unexpected ${describe(end)} after the query`, 'remove it; a query ends after RETURN … [ORDER BY …] [SKIP n] [LIMIT n]');
    }
    return { match, where, distinct, star, items, order, skip, limit, span: [first.start, this.prevEnd] };
  }

  /** A clause keyword where another was expected: read-only and unsupported clauses get their own message. */
  private clauseProblem(t: Token, expected: string, suggestion: string): never {
    const kw = this.keywordOf(t);
    if (kw && WRITE_CLAUSES.has(kw)) {
      this.fail(t, `pinchQL is read-only: ${kw} is not supported`, 'read with MATCH … RETURN …; the index changes only when code is pushed');
    }
    if (kw === 'OPTIONAL' || kw === 'WITH' || kw === 'UNWIND' || kw === 'UNION' || kw === 'CALL' || kw === 'USE') {
      this.fail(t, `${kw} is not supported by pinchQL`, `write one MATCH … [WHERE …] RETURN … query; see docs/pinchql.md for the supported subset`);
    }
    if (kw === 'MATCH' && expected === 'RETURN') {
      this.fail(t, 'one MATCH per query', 'match one pattern; test other relationships in WHERE with a pattern such as (a)-[:CALLS]->()');
    }
    const guess = kw && kw.length >= 3 ? didYouMean(kw, CLAUSES) : undefined;
    if (guess && guess !== kw) this.fail(t, `expected ${expected}, found ${describe(t)}; did you mean ${guess}?`, `write ${guess}; ${suggestion}`);
    this.fail(t, `expected ${expected}, found ${describe(t)}`, suggestion);
  }

  private returnItem(): ReturnItem {
    const start = this.peek().start;
    const expr = this.expr();
    let alias: Name | undefined;
    if (this.isKeyword('AS')) {
      this.next();
      alias = this.name('an alias after AS', 'write AS followed by a name, e.g. count(*) AS calls');
    }
    return { expr, alias, span: [start, this.prevEnd] };
  }

  private orderItem(): OrderItem {
    const start = this.peek().start;
    const expr = this.expr();
    let descending = false;
    const kw = this.keywordOf(this.peek());
    if (kw === 'DESC' || kw === 'DESCENDING') {
      this.next();
      descending = true;
    } else if (kw === 'ASC' || kw === 'ASCENDING') this.next();
    return { expr, descending, span: [start, this.prevEnd] };
  }

  private count(clause: string): Count {
    const t = this.peek();
    if (t.type === 'int') {
      this.next();
      return { value: t.value as number, span: [t.start, t.end] };
    }
    if (t.type === '-') this.fail(t, `${clause} cannot be negative`, `write ${clause} 0 or a larger whole number`);
    if (t.type === 'param') this.fail(t, 'parameters ($name) are not supported', `write the number inline, e.g. ${clause} 10`);
    this.fail(t, `${clause} needs a whole number, found ${describe(t)}`, `write ${clause} 10`);
  }

  /** A variable or alias name: an identifier that is not a reserved word, or any `quoted` name. */
  private name(what: string, suggestion: string): Name {
    const t = this.peek();
    if (t.type !== 'ident') this.fail(t, `expected ${what}, found ${describe(t)}`, suggestion);
    if (!t.quoted && RESERVED.has(String(t.value).toUpperCase())) {
      this.fail(t, `${t.text} is a reserved word and cannot be a name here`, `pick another name, or quote it with backticks: \`${t.value}\``);
    }
    this.next();
    return { name: String(t.value), span: [t.start, t.end] };
  }

  /** A label, relationship type or property key: any identifier, reserved words included. */
  private word(what: string, suggestion: string): Name {
    const t = this.peek();
    if (t.type !== 'ident') this.fail(t, `expected ${what}, found ${describe(t)}`, suggestion);
    this.next();
    return { name: String(t.value), span: [t.start, t.end] };
  }

  // — Patterns —

  private pattern(): Pattern {
    const start = this.peek().start;
    const left = this.node();
    if (!this.relStarts()) {
      if (this.is('-') || this.is('<')) {
        this.fail(this.peek(), 'a relationship is written -[:TYPE]-> or <-[:TYPE]-', 'write (a)-[:CALLS]->(b), (a)<-[:CALLS]-(b) or (a)-->(b) for any type');
      }
      return { left, span: [start, this.prevEnd] };
    }
    const rel = this.rel();
    const right = this.node();
    if (this.relStarts() || this.is('-') || this.is('<')) {
      this.fail(this.peek(), 'one relationship per pattern: pinchQL does not match chains',
        'use a variable-length relationship such as (a)-[:CALLS*1..2]->(c), or test the next hop in WHERE with (b)-[:CALLS]->()');
    }
    return { left, rel, right, span: [start, this.prevEnd] };
  }

  private relStarts(): boolean {
    return (this.is('-') && (this.is('[', 1) || this.is('-', 1))) || (this.is('<') && this.is('-', 1));
  }

  private node(): NodePattern {
    const open = this.expect('(', 'a node pattern such as (a) or (a:Function)', 'write a node in parentheses: (a), (a:Function) or (a {name: \'x\'})');
    let variable: Name | undefined;
    if (this.is('ident')) variable = this.name('a variable', 'name the node, e.g. (a:Function)');
    const labels: Name[] = [];
    if (this.is(':')) {
      this.next();
      labels.push(this.word('a symbol kind after :', 'write a kind such as :Function, :Method or :Class'));
      while (this.is('|')) {
        this.next();
        if (this.is(':')) this.next();
        labels.push(this.word('a symbol kind after |', 'write :Function|Method'));
      }
      if (this.is(':')) this.fail(this.peek(), 'a symbol has one kind, so :A:B never matches', 'use :A|B to match either kind');
    }
    const props = this.is('{') ? this.props() : [];
    if (!this.is(')')) {
      const t = this.peek();
      if (t.type === '.' || COMPARISONS.has(t.type)) this.fail(t, 'conditions do not go inside a node pattern', "move them to WHERE, or use a property map: (a {name: 'x'})");
      this.fail(t, `expected ) to close the node pattern, found ${describe(t)}`, 'a node pattern is (variable:Kind {key: value})');
    }
    this.next();
    return { variable, labels, props, span: [open.start, this.prevEnd] };
  }

  private rel(): RelPattern {
    const first = this.peek();
    let leftArrow = false;
    if (this.is('<')) {
      this.next();
      leftArrow = true;
    }
    this.expect('-', 'a relationship such as -[:CALLS]->', 'write -[:CALLS]-> or <-[:CALLS]-');
    let variable: Name | undefined;
    const types: Name[] = [];
    let range: RelPattern['range'];
    let props: PropEntry[] = [];
    if (this.is('[')) {
      this.next();
      if (this.is('ident')) variable = this.name('a variable', 'name the relationship, e.g. [r:CALLS]');
      if (this.is(':')) {
        this.next();
        types.push(this.word('a relationship type after :', 'write :CALLS, :IMPORTS, :INHERITS or :IMPLEMENTS'));
        while (this.is('|')) {
          this.next();
          if (this.is(':')) this.next();
          types.push(this.word('a relationship type after |', 'write :CALLS|IMPORTS'));
        }
      }
      if (this.is('*')) range = this.range();
      if (this.is('{')) props = this.props();
      this.expect(']', 'a ] closing the relationship', 'a relationship is [variable:TYPE*min..max {key: value}]');
    }
    this.expect('-', 'the - that ends the relationship', 'write -[:CALLS]-> or <-[:CALLS]-');
    let rightArrow = false;
    if (this.is('>')) {
      this.next();
      rightArrow = true;
    }
    const span: Span = [first.start, this.prevEnd];
    if (leftArrow && rightArrow) throw new QueryError('a relationship has one direction', span, 'write -[...]-> or <-[...]-, not both arrows');
    if (!leftArrow && !rightArrow) {
      throw new QueryError('pinchQL relationships need a direction', span, 'write -[...]-> (left to right) or <-[...]- (right to left); match each direction in its own query');
    }
    return { variable, types, props, direction: rightArrow ? 'out' : 'in', range, span };
  }

  private range(): NonNullable<RelPattern['range']> {
    const star = this.next();
    const bound = (): number | undefined => {
      const t = this.peek();
      if (t.type === 'int') {
        this.next();
        return t.value as number;
      }
      if (t.type === 'float') this.fail(t, 'depth bounds are whole numbers', 'write *1..3');
      return undefined;
    };
    let min = bound();
    let max: number | undefined;
    if (this.is('..')) {
      this.next();
      max = bound() ?? MAX_DEPTH;
      min ??= 1;
    } else if (min !== undefined) max = min;
    else [min, max] = DEFAULT_RANGE;
    const span: Span = [star.start, this.prevEnd];
    if (max > MAX_DEPTH) throw new QueryError(`variable-length depth is at most ${MAX_DEPTH}, got ${max}`, span, `use *1..${MAX_DEPTH} or less`, 'semantic', { max_depth: MAX_DEPTH });
    if (min > max) throw new QueryError(`the lower bound ${min} is above the upper bound ${max}`, span, `write *${max}..${min} or *${min}..${Math.min(MAX_DEPTH, Math.max(min, max))}`, 'semantic');
    return { min, max, span };
  }

  private props(): PropEntry[] {
    this.next();
    const out: PropEntry[] = [];
    while (!this.is('}')) {
      if (out.length) this.expect(',', ', or } in the property map', "separate entries with commas: {name: 'x', kind: 'Function'}");
      const key = this.word('a property name', "write {name: 'x'}");
      if (out.some((p) => p.key.name === key.name)) throw new QueryError(`property ${key.name} appears twice in the map`, key.span, 'keep one entry per property');
      this.expect(':', `: after ${key.name}`, `write {${key.name}: 'value'}`);
      const value = this.literal();
      out.push({ key, value, span: [key.span[0], this.prevEnd] });
    }
    this.next();
    return out;
  }

  /** A literal value in a property map: string, number (optionally negative), true, false or null. */
  private literal(): Expr {
    const t = this.peek();
    if (t.type === 'string') {
      this.next();
      return { type: 'literal', value: t.value as string, span: [t.start, t.end] };
    }
    if (t.type === '-' && (this.is('int', 1) || this.is('float', 1))) {
      this.next();
      const n = this.next();
      return { type: 'literal', value: -(n.value as number), ...(n.type === 'float' ? { float: true as const } : {}), span: [t.start, n.end] };
    }
    if (t.type === 'int' || t.type === 'float') {
      this.next();
      return { type: 'literal', value: t.value as number, ...(t.type === 'float' ? { float: true as const } : {}), span: [t.start, t.end] };
    }
    const kw = this.keywordOf(t);
    if (kw === 'TRUE' || kw === 'FALSE' || kw === 'NULL') {
      this.next();
      return { type: 'literal', value: kw === 'NULL' ? null : kw === 'TRUE', span: [t.start, t.end] };
    }
    this.fail(t, `a property map holds literal values, found ${describe(t)}`, "write a string, number, true, false or null, or move the condition to WHERE");
  }

  // — Expressions, lowest precedence first: OR, XOR, AND, NOT, comparison, + -, * / %, unary minus, property access —

  expr(): Expr {
    return this.binaryLevel(['OR', 'XOR', 'AND'], 0);
  }

  private binaryLevel(ops: readonly ('OR' | 'XOR' | 'AND')[], k: number): Expr {
    if (k === ops.length) return this.not();
    let left = this.binaryLevel(ops, k + 1);
    while (this.isKeyword(ops[k])) {
      this.next();
      const right = this.binaryLevel(ops, k + 1);
      left = { type: 'binary', op: ops[k], left, right, span: [left.span[0], right.span[1]] };
    }
    return left;
  }

  private not(): Expr {
    if (!this.isKeyword('NOT')) return this.comparison();
    const t = this.next();
    this.enter(t);
    const operand = this.not();
    this.leave();
    return { type: 'not', operand, span: [t.start, operand.span[1]] };
  }

  private comparison(): Expr {
    const left = this.additive();
    const result = this.predicate(left);
    if (result !== left && (COMPARISONS.has(this.peek().type) || this.predicateKeyword())) {
      this.fail(this.peek(), 'chained comparisons are not supported', 'join them with AND: a.line > 1 AND a.line < 9');
    }
    if (this.isKeyword('NOT') && ['IN', 'CONTAINS', 'STARTS', 'ENDS'].some((w) => this.isKeyword(w, 1))) {
      this.fail(this.peek(), `NOT goes before the whole condition, not before ${this.keywordOf(this.peek(1))}`, `write NOT (x ${this.keywordOf(this.peek(1))} …)`);
    }
    return result;
  }

  private predicateKeyword(): boolean {
    return ['IS', 'IN', 'CONTAINS', 'STARTS', 'ENDS'].some((w) => this.isKeyword(w));
  }

  private predicate(left: Expr): Expr {
    const t = this.peek();
    const bin = (op: BinaryOp, right: Expr): Expr => ({ type: 'binary', op, left, right, span: [left.span[0], right.span[1]] });
    if (COMPARISONS.has(t.type)) {
      this.next();
      return bin(t.type as BinaryOp, this.additive());
    }
    const kw = this.keywordOf(t);
    if (kw === 'IS') {
      this.next();
      let negated = false;
      if (this.isKeyword('NOT')) {
        this.next();
        negated = true;
      }
      this.expectKeyword('NULL', 'write IS NULL or IS NOT NULL');
      return { type: 'isnull', operand: left, negated, span: [left.span[0], this.prevEnd] };
    }
    if (kw === 'IN' || kw === 'CONTAINS') {
      this.next();
      return bin(kw, this.additive());
    }
    if (kw === 'STARTS' || kw === 'ENDS') {
      this.next();
      this.expectKeyword('WITH', `write ${kw} WITH 'text'`);
      return bin(`${kw} WITH`, this.additive());
    }
    return left;
  }

  private additive(): Expr {
    let left = this.multiplicative();
    while (this.is('+') || this.is('-')) {
      const op = this.next().type as '+' | '-';
      const right = this.multiplicative();
      left = { type: 'binary', op, left, right, span: [left.span[0], right.span[1]] };
    }
    return left;
  }

  private multiplicative(): Expr {
    let left = this.unary();
    while (this.is('*') || this.is('/') || this.is('%')) {
      const op = this.next().type as '*' | '/' | '%';
      const right = this.unary();
      left = { type: 'binary', op, left, right, span: [left.span[0], right.span[1]] };
    }
    return left;
  }

  private unary(): Expr {
    const t = this.peek();
    if (t.type === '+') {
      this.next();
      return this.unary();
    }
    if (t.type !== '-') return this.postfix();
    this.next();
    this.enter(t);
    const operand = this.unary();
    this.leave();
    if (operand.type === 'literal' && typeof operand.value === 'number') {
      return { ...operand, value: -operand.value, span: [t.start, operand.span[1]] };
    }
    return { type: 'neg', operand, span: [t.start, operand.span[1]] };
  }

  private postfix(): Expr {
    let e = this.atom();
    while (this.is('.')) {
      this.next();
      const key = this.word('a property name after .', 'write a.name, a.file or a.line');
      e = { type: 'prop', object: e, key, span: [e.span[0], key.span[1]] };
    }
    if (this.is(':') && e.type === 'var') {
      this.next();
      const labels = [this.word('a symbol kind after :', 'write a:Function or a:Function|Method')];
      while (this.is('|')) {
        this.next();
        if (this.is(':')) this.next();
        labels.push(this.word('a symbol kind after |', 'write a:Function|Method'));
      }
      if (this.is(':')) this.fail(this.peek(), 'a symbol has one kind, so a:A:B never holds', 'use a:A|B to test for either kind');
      e = { type: 'label', operand: e, labels, span: [e.span[0], this.prevEnd] };
    }
    return e;
  }

  private atom(): Expr {
    const t = this.peek();
    switch (t.type) {
      case 'string':
        this.next();
        return { type: 'literal', value: t.value as string, span: [t.start, t.end] };
      case 'int':
      case 'float':
        this.next();
        return { type: 'literal', value: t.value as number, ...(t.type === 'float' ? { float: true as const } : {}), span: [t.start, t.end] };
      case '[':
        return this.list();
      case '(':
        return this.looksLikePattern() ? this.patternPredicate() : this.parenthesised();
      case 'param':
        this.fail(t, 'parameters ($name) are not supported', "write the value inline, e.g. 'name' or 42");
      case 'ident':
        return this.identifierAtom(t);
      default:
        this.fail(t, `expected an expression, found ${describe(t)}`, 'write a property such as a.name, a literal such as \'x\' or 3, or a function call such as count(*)');
    }
  }

  private identifierAtom(t: Token): Expr {
    const kw = this.keywordOf(t);
    if (kw === 'TRUE' || kw === 'FALSE' || kw === 'NULL') {
      this.next();
      return { type: 'literal', value: kw === 'NULL' ? null : kw === 'TRUE', span: [t.start, t.end] };
    }
    if (kw === 'CASE') this.fail(t, 'CASE is not supported by pinchQL', 'split the query, or filter with WHERE');
    if (kw === 'EXISTS' && this.is('{', 1)) return this.existsBlock();
    if (this.is('(', 1)) return this.call();
    if (kw && RESERVED.has(kw)) this.fail(t, `expected an expression, found the keyword ${t.text}`, `check the clause order: MATCH … WHERE … RETURN … ORDER BY … SKIP … LIMIT …; quote a name that is a keyword with backticks: \`${t.value}\``);
    this.next();
    return { type: 'var', name: String(t.value), span: [t.start, t.end] };
  }

  private call(): Expr {
    const nameTok = this.next();
    const name: Name = { name: String(nameTok.value), span: [nameTok.start, nameTok.end] };
    const open = this.next();
    this.enter(open);
    let star = false;
    let distinct = false;
    const args: Expr[] = [];
    if (this.is('*')) {
      this.next();
      star = true;
    } else if (!this.is(')')) {
      if (this.isKeyword('DISTINCT')) {
        this.next();
        distinct = true;
      }
      do {
        if (args.length) this.next();
        args.push(this.expr());
      } while (this.is(','));
    }
    this.expect(')', `) to close ${name.name}(`, `write ${name.name}(argument)`);
    this.leave();
    return { type: 'call', name, args, star, distinct, span: [nameTok.start, this.prevEnd] };
  }

  private list(): Expr {
    const open = this.next();
    this.enter(open);
    const items: Expr[] = [];
    while (!this.is(']')) {
      if (items.length) this.expect(',', ', or ] in the list', "separate list items with commas: ['a', 'b']");
      items.push(this.expr());
    }
    this.next();
    this.leave();
    return { type: 'list', items, span: [open.start, this.prevEnd] };
  }

  private parenthesised(): Expr {
    const open = this.next();
    this.enter(open);
    const inner = this.expr();
    this.expect(')', 'a ) closing the parenthesis', 'balance the parentheses');
    this.leave();
    return { ...inner, span: inner.span };
  }

  /** `(x)-…`, `(:Kind)<-…`, `()-[…`: a relationship pattern used as a condition. */
  private looksLikePattern(): boolean {
    let k = 1;
    const at = (type: TokenType) => this.is(type, k);
    if (at('ident') && (this.peek(k).quoted || !RESERVED.has(String(this.peek(k).value).toUpperCase()))) k++;
    while (at(':')) {
      k++;
      if (!at('ident')) return false;
      k++;
      while (at('|')) {
        k++;
        if (at(':')) k++;
        if (!at('ident')) return false;
        k++;
      }
    }
    if (at('{')) {
      while (!at('}')) {
        if (at('eof')) return false;
        k++;
      }
      k++;
    }
    if (!at(')')) return false;
    k++;
    return (this.is('-', k) && (this.is('[', k + 1) || this.is('-', k + 1))) || (this.is('<', k) && this.is('-', k + 1));
  }

  /** `EXISTS { (a)-[:CALLS]->() }`, optionally `EXISTS { MATCH … }`: the same as the bare pattern. */
  private existsBlock(): Expr {
    const start = this.next();
    const open = this.next();
    this.enter(open);
    if (this.isKeyword('MATCH')) this.next();
    const pattern = this.pattern();
    if (!pattern.rel) throw new QueryError('EXISTS { … } needs a relationship pattern', pattern.span, 'write EXISTS { (a)-[:CALLS]->() }');
    if (this.isKeyword('WHERE')) this.fail(this.peek(), 'conditions inside EXISTS { … } are not supported', "put labels or a property map on the pattern's nodes, e.g. EXISTS { (a)-[:CALLS]->(:Method {name: 'x'}) }");
    this.expect('}', '} to close EXISTS {', 'write EXISTS { (a)-[:CALLS]->() }');
    this.leave();
    return { type: 'pattern', pattern, span: [start.start, this.prevEnd] };
  }

  private patternPredicate(): Expr {
    const pattern = this.pattern();
    return { type: 'pattern', pattern, span: pattern.span };
  }
}
