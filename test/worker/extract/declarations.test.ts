import { describe, expect, it } from 'vitest';
import { extractFile } from '../../../src/extract/index';

// The first file of a language loads its grammar and compiles its query: allow time.
const SLOW = 60_000;

async function declared(path: string, text: string): Promise<Record<string, boolean>> {
  const r = await extractFile(path, text);
  expect(r.failure).toBeNull();
  return Object.fromEntries(r.symbols.map((s) => [`${s.qualified_name}#${s.kind}@${s.start_line}`, s.declaration === true]));
}

describe('functions and methods declared without a body', () => {
  it('marks C++ member declarations and prototypes, not definitions with a body or macros', async () => {
    const got = await declared(
      'src/parser.cpp',
      [
        'class Parser {',
        ' public:',
        '  ~Parser();',
        '  int Parse(const char *text);',
        '  int Size() const { return 0; }',
        '  Parser &operator=(const Parser &) = delete;',
        '};',
        'Parser::~Parser() {}',
        'int Parser::Parse(const char *text) { return 0; }',
        'int parse_all(const char **docs);',
        '#define TWICE(x) ((x) * 2)',
        'int parse_all(const char **docs) { return 0; }',
        '',
      ].join('\n'),
    );
    expect(got).toEqual({
      'Parser#Class@1': false,
      'Parser.~Parser#Method@3': true,
      'Parser.Parse#Method@4': true,
      'Parser.Size#Method@5': false,
      'Parser.operator =#Method@6': true,
      'Parser.~Parser#Method@8': false,
      'Parser.Parse#Method@9': false,
      'parse_all#Function@10': true,
      'TWICE#Function@11': false,
      'parse_all#Function@12': false,
    });
  }, SLOW);

  it('marks a C prototype in a header', async () => {
    expect(await declared('include/util.h', 'int parse_all(const char **docs);\nstatic int one(void) { return 1; }\n')).toEqual({
      'parse_all#Function@1': true,
      'one#Function@2': false,
    });
  }, SLOW);

  // In a declaration file every member is body-less: there the signature is the definition, and
  // ranking it below a same-named field of another type would hide it.
  it('leaves TypeScript signatures unmarked', async () => {
    const got = await declared(
      'src/api.ts',
      [
        'export function load(path: string): string;',
        'export function load(path: URL): string;',
        'export function load(path: unknown): string { return String(path); }',
        'export declare function parse(text: string): unknown;',
        'export interface Store { get(key: string): string; size: number }',
        'export abstract class Base { abstract run(): void; stop(): void {} }',
        '',
      ].join('\n'),
    );
    expect(got).toEqual({
      'load#Function@1': false,
      'parse#Function@4': false,
      'Store#Interface@5': false,
      'Store.get#Method@5': false,
      'Store.size#Field@5': false,
      'Base#Class@6': false,
      'Base.run#Method@6': false,
      'Base.stop#Method@6': false,
    });
  }, SLOW);

  it('leaves languages without declarations alone (an empty Ruby method has no body node)', async () => {
    expect(await declared('lib/a.rb', 'class A\n  def noop; end\nend\n')).toEqual({ 'A#Class@1': false, 'A.noop#Method@2': false });
  }, SLOW);
});

describe('fields of an inline parameter type', () => {
  it('are no symbols when a function type holds them; a property of an object type stays one', async () => {
    const r = await extractFile(
      'src/make.ts',
      [
        'export declare const makeIssue: (params: { data: unknown; path: string[] }) => Issue;',
        'export type Api = { path: string; fetch: (opts: { timeout?: number }) => void };',
        '',
      ].join('\n'),
    );
    expect(r.symbols.map((s) => `${s.qualified_name}#${s.kind}`)).toEqual(['makeIssue#Constant', 'Api#Type', 'Api.path#Field', 'Api.fetch#Field']);
  }, SLOW);
});
