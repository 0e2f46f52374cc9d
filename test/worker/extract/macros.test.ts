import { describe, expect, it } from 'vitest';
import { extractFile } from '../../../src/extract/index';
import { maskMacros } from '../../../src/extract/macros';

const SLOW = 60_000;

/** The masked text must keep every offset: same length, newlines where they were. */
function expectSameShape(before: string, after: string): void {
  expect(after.length).toBe(before.length);
  expect([...after].map((c, i) => (c === '\n' ? i : -1)).filter((i) => i >= 0)).toEqual(
    [...before].map((c, i) => (c === '\n' ? i : -1)).filter((i) => i >= 0),
  );
}

describe('C and C++ annotation macros are blanked before parsing', () => {
  it('leaves text without annotation macros untouched', () => {
    const text = 'int add(int a, int b) { return a + b; }\nstruct point { int x, y; };\n';
    expect(maskMacros(text)).toBe(text);
  });

  it('blanks export, constexpr and namespace macros without moving any offset', () => {
    const text = [
      'FMT_BEGIN_NAMESPACE',
      'class GTEST_API_ Message : public Base {',
      ' public:',
      '  FMT_CONSTEXPR auto size() const FMT_NOEXCEPT -> int { return 0; }',
      '};',
      'OPENSSL_EXPORT int ssl_init(void);',
      'typedef char __attribute__ ((aligned (2))) char2;',
      'FMT_END_NAMESPACE',
      '',
    ].join('\n');
    const masked = maskMacros(text);
    expectSameShape(text, masked);
    for (const macro of ['FMT_BEGIN_NAMESPACE', 'GTEST_API_', 'FMT_CONSTEXPR', 'FMT_NOEXCEPT', 'OPENSSL_EXPORT', '__attribute__', 'FMT_END_NAMESPACE']) {
      expect(masked).not.toContain(macro);
    }
    expect(masked).toContain('class            Message : public Base {');
  });

  it('keeps an ALL_CAPS name that is the declaration type', () => {
    const text = 'static SSL_CTX *ctx;\nEVP_MD md;\nBOOL WINAPI DllMain(void);\n';
    const masked = maskMacros(text);
    expect(masked).toContain('SSL_CTX *ctx;');
    expect(masked).toContain('EVP_MD md;');
    expect(masked).toContain('BOOL');
  });

  it('joins a type written as a macro call into one identifier of the same length', () => {
    const text = 'typedef STACK_OF(X509) X509_STACK;\n';
    const masked = maskMacros(text);
    expectSameShape(text, masked);
    expect(masked).toBe('typedef STACK_OF_X509_ X509_STACK;\n');
  });

  it('blanks an access specifier written as a macro, not a case label', () => {
    const text = ['class A {', '  JSON_PRIVATE_UNLESS_TESTED:', '    int x;', '  public Q_SLOTS: // slots', '    void f();', '    int g(int e) { switch (e) {', '    case ERR_FATAL:', '      return 1; } }', '};', ''].join('\n');
    const masked = maskMacros(text);
    expectSameShape(text, masked);
    expect(masked).not.toMatch(/JSON_PRIVATE_UNLESS_TESTED|Q_SLOTS/);
    expect(masked.split('\n')[1].trim()).toBe('');
    expect(masked).toContain('  public        : // slots');
    expect(masked).toContain('    case ERR_FATAL:');
  });
});

describe('C++ in headers named .h', () => {
  it('reads classes, members and methods of a macro-annotated C++ header', async () => {
    const source = [
      '#include <stdexcept>',
      'FMT_BEGIN_NAMESPACE',
      'class FMT_API format_error : public std::runtime_error {',
      ' public:',
      '  FMT_CONSTEXPR explicit format_error(const char* message) : std::runtime_error(message) {}',
      '  auto code() const FMT_NOEXCEPT -> int { return code_; }',
      '  bool operator==(const format_error& other) const { return code_ == other.code_; }',
      ' private:',
      '  int code_;',
      '};',
      'template <> struct formatter<format_error> {',
      '  using value_type = int;',
      '};',
      'FMT_END_NAMESPACE',
      '',
    ].join('\n');
    const result = await extractFile('include/fmt/format.h', source);
    expect(result.failure).toBeNull();
    const found = result.symbols.map((s) => [s.kind, s.qualified_name, s.start_line]);
    expect(found).toEqual(
      expect.arrayContaining([
        ['Class', 'format_error', 3],
        ['Method', 'format_error.format_error', 5],
        ['Method', 'format_error.code', 6],
        ['Method', 'format_error.operator ==', 7],
        ['Field', 'format_error.code_', 9],
        ['Struct', 'formatter', 11],
        ['Type', 'formatter.value_type', 12],
      ]),
    );
  }, SLOW);

  it('reads macro-typed typedefs and the fields of an anonymous struct in a variable', async () => {
    const source = [
      'typedef STACK_OF(X509) X509_STACK;',
      'DECLARE_ASN1_FUNCTIONS(X509_STACK)',
      'static const struct { int header[1]; short level1[2]; } u_table = { { 1 }, { 2, 3 } };',
      '',
    ].join('\n');
    const result = await extractFile('include/x509.h', source);
    expect(result.failure).toBeNull();
    const found = result.symbols.map((s) => [s.kind, s.qualified_name, s.start_line]);
    expect(found).toEqual(
      expect.arrayContaining([
        ['Type', 'X509_STACK', 1],
        ['Field', 'u_table.header', 3],
        ['Field', 'u_table.level1', 3],
      ]),
    );
  }, SLOW);
});
