import { describe, expect, it } from 'vitest';
import { extractFile } from '../../../src/extract/index';

// Coverage, not speed, is under test here: a loaded machine must not turn a parse into a timeout.
const BUDGET = { timeoutMs: 30_000 };
const SLOW = 60_000;

const sources = import.meta.glob<string>(['../../fixtures/extract/bash/ctags/*.{bash,sh}', '../../fixtures/extract/bash/recover/*'], {
  query: '?raw',
  import: 'default',
  eager: true,
});
/** A fixture's text by its path under test/fixtures/extract/. */
function source(rel: string): string {
  const text = sources[`../../fixtures/extract/${rel}`];
  if (typeof text !== 'string') throw new Error(`no fixture ${rel}`);
  return text;
}

const names = (symbols: { name: string; kind: string }[]) => symbols.map((s) => `${s.kind} ${s.name}`);

describe('reading past parse errors', () => {
  it('keeps the bash functions around one whose regex the grammar cannot read', async () => {
    // The grammar folds this whole excerpt into one ERROR node (a `=~` regex in `_variables`).
    const r = await extractFile('bash_completion.bash', source('bash/ctags/bash_completion.bash'), BUDGET);
    expect(r.had_errors).toBe(true);
    expect(r.failure).toBeNull();
    const functions = r.symbols.filter((s) => s.kind === 'Function').map((s) => `${s.name}@${s.start_line}`);
    expect(functions).toEqual(expect.arrayContaining(['_split_longopt@35', '_parse_help@268', '_signals@330', '_configured_interfaces@374']));
  }, SLOW);

  it('names a bash function whose body the grammar cannot read at its head line', async () => {
    // An extglob in a case pattern (`-!(-*)F)`) leaves the function's head in an ERROR.
    const r = await extractFile('completions/modinfo.bash', source('bash/recover/modinfo.bash'), BUDGET);
    expect(r.symbols.find((s) => s.name === '_modinfo')).toMatchObject({ kind: 'Function', start_line: 4 });
  }, SLOW);

  it('keeps functions whose heredocs a chunk would cut, as the first parse read them', async () => {
    const r = await extractFile('bin/xdg-settings.sh', source('bash/ctags/xdg-settings.sh'), BUDGET);
    expect(r.had_errors).toBe(true);
    const functions = r.symbols.filter((s) => s.kind === 'Function').map((s) => `${s.name}@${s.start_line}`);
    expect(functions).toEqual(expect.arrayContaining(['manualpage@34', 'usage@124', 'DEBUG@144', 'exit_success@231']));
  }, SLOW);

  it('reads a C# class whose base list holds an #if line', async () => {
    const source = [
      'namespace UniRx',
      '{',
      '    public sealed class AsyncSubject<T> : ISubject<T>, IDisposable',
      '#if (NET_4_6 || NET_STANDARD_2_0)',
      '        , INotifyCompletion',
      '#endif',
      '    {',
      '        object observerLock = new object();',
      '        public bool HasObservers { get { return true; } }',
      '        public void Dispose() { }',
      '    }',
      '}',
      '',
    ].join('\n');
    const r = await extractFile('Subjects/AsyncSubject.cs', source, BUDGET);
    expect(r.failure).toBeNull();
    expect(names(r.symbols)).toEqual(
      expect.arrayContaining(['Class AsyncSubject', 'Field observerLock', 'Field HasObservers', 'Method Dispose']),
    );
    expect(r.symbols.find((s) => s.name === 'Dispose')).toMatchObject({ qualified_name: 'AsyncSubject.Dispose', start_line: 10 });
  }, SLOW);

  it('leaves a file without errors to the first parse alone', async () => {
    const r = await extractFile('src/ok.cs', 'namespace N\n{\n#if DEBUG\n    class A { void F() { } }\n#endif\n}\n', BUDGET);
    expect(r.failure).toBeNull();
    expect(r.had_errors).toBe(false);
    expect(names(r.symbols)).toEqual(['Class A', 'Method F']);
  }, SLOW);
});

describe('definitions inside function bodies', () => {
  it('keeps Python closures and named lambdas, qualified by their function', async () => {
    const source = [
      'def version_option(version=None):',
      '    def callback(ctx, param, value):',
      '        return value',
      '    key = lambda item: item[0]',
      '    local = 1',
      '    return callback',
      '',
    ].join('\n');
    const r = await extractFile('click/decorators.py', source, BUDGET);
    expect(r.symbols.map((s) => `${s.kind} ${s.qualified_name}`)).toEqual([
      'Function version_option',
      'Function version_option.callback',
      'Function version_option.key',
    ]);
  }, SLOW);

  it('keeps Rust items declared in a fn body, with the methods of their impl', async () => {
    const source = [
      'pub fn borrow_cow_str() {',
      '    struct CowStrVisitor;',
      '    impl Visitor for CowStrVisitor {',
      '        type Value = String;',
      '        fn expecting(&self) {}',
      '    }',
      '    let local = 1;',
      '}',
      '',
    ].join('\n');
    const r = await extractFile('src/private/de.rs', source, BUDGET);
    const got = r.symbols.map((s) => `${s.kind} ${s.name}`);
    expect(got).toEqual(expect.arrayContaining(['Function borrow_cow_str', 'Struct CowStrVisitor', 'Type Value', 'Method expecting']));
    expect(got).not.toContain('Variable local');
  }, SLOW);

  it('orders what several readings of a C header found as one reading would (a typedef names its struct twice)', async () => {
    const text = [
      '#ifndef H', '#define H', '#ifdef __cplusplus', 'extern "C" {', '#endif', '#if !defined(NO_DEP)', '#define MD5_LONG unsigned int', '',
      'typedef struct MD5state_st {', '    MD5_LONG A, B;', '} MD5_CTX;', '#endif', '#ifndef NO_DEP', 'DEP int MD5_Init(MD5_CTX *c);', '#endif',
      '#ifdef __cplusplus', '}', '#endif', '#endif', '',
    ].join('\n');
    const r = await extractFile('md5.h', text, BUDGET);
    expect(r.symbols.map((s) => s.key)).toEqual([
      'H#Constant', 'MD5_LONG#Constant', 'MD5state_st#Struct', 'MD5_CTX#Struct', 'MD5_CTX.A#Field', 'MD5_CTX.B#Field', 'MD5_Init#Function',
    ]);
  }, SLOW);
});
