import { describe, expect, it } from 'vitest';
import { extractFile } from '../../../src/extract/index';
import { maskOnError } from '../../../src/extract/macros';
import { Deadline } from '../../../src/extract/parser';
import { firstBranch } from '../../../src/extract/preprocessor';
import { blankTemplateHeads } from '../../../src/extract/template-heads';

// An excerpt of a real single-header library (nlohmann/json 3.11.2, MIT): template heads the
// grammar misreads, one with an `#if` between its arguments, inside a class.
const excerpts = import.meta.glob<string>('../../fixtures/extract/cpp/second-reading/*', { query: '?raw', import: 'default', eager: true });

// Coverage, not speed, is under test: a loaded machine must not turn a parse into a timeout.
const BUDGET = { timeoutMs: 30_000 };
const SLOW = 120_000;

/**
 * A header shaped like the large single-header C++ libraries: a class template whose `template<…>`
 * head is a macro, a macro access specifier, try/catch written as macros and an `#if` between two
 * template parameters in every one of its `methods` pairs. Each of these alone turned the rest of
 * the class into ERROR nodes, so the class itself was never a symbol.
 */
function bigHeader(methods: number): string {
  const out = [
    '#ifndef LIB_BIG_CONTAINER_HPP_',
    '#define LIB_BIG_CONTAINER_HPP_',
    '',
    '#include <memory>',
    '',
    'LIB_NAMESPACE_BEGIN',
    '',
    '/// A container whose body is far longer than one screen.',
    'LIB_BASIC_TPL_DECLARATION',
    'class big_container // NOLINT(special-member-functions)',
    '{',
    '  public:',
    '    using value_type = T;',
    '',
    '  LIB_PRIVATE_UNLESS_TESTED:',
    '    using storage_type = std::vector<T>;',
    '',
    '  public:',
  ];
  for (let i = 0; i < methods; i++) {
    out.push(
      `    /// Returns the value at slot ${i}.`,
      `    T slot_${i}(const T& fallback) const`,
      '    {',
      '        LIB_TRY',
      '        {',
      `            return m_data.at(${i});`,
      '        }',
      '        LIB_CATCH (std::out_of_range&)',
      '        {',
      '            return fallback;',
      '        }',
      '    }',
      '',
      '    template<typename U,',
      '#if defined(LIB_HAS_CPP_17)',
      '             typename std::enable_if<std::is_same<U, T>::value, int>::type = 0',
      '#else',
      '             int = 0',
      '#endif',
      '             >',
      `    U convert_${i}() const`,
      '    {',
      '        return static_cast<U>(m_data.size());',
      '    }',
      '',
    );
  }
  out.push('  private:', '    storage_type m_data;', '    T* m_last = nullptr;', '};', '', 'LIB_NAMESPACE_END', '', '#endif  // LIB_BIG_CONTAINER_HPP_', '');
  return out.join('\n');
}

/** Rewrites must keep every offset: same length, line breaks where they were. */
function expectSameShape(before: string, after: string): void {
  expect(after.length).toBe(before.length);
  const breaks = (s: string) => [...s].flatMap((c, i) => (c === '\n' ? [i] : []));
  expect(breaks(after)).toEqual(breaks(before));
}

describe('a large C++ header', () => {
  it('yields its long class template and every member, to the last line, without a budget failure', async () => {
    const methods = 300;
    const text = bigHeader(methods);
    expect(text.length).toBeGreaterThan(150_000);
    const r = await extractFile('include/lib/big_container.hpp', text, BUDGET);
    expect(r.failure).toBeNull();
    const cls = r.symbols.find((s) => s.name === 'big_container');
    expect(cls).toMatchObject({ kind: 'Class', qualified_name: 'big_container', start_line: 10 });
    expect(cls?.end_line).toBe(text.split('\n').indexOf('};') + 1);
    const members = r.symbols.filter((s) => s.parent === 'big_container');
    expect(members.filter((s) => s.kind === 'Method')).toHaveLength(2 * methods);
    expect(r.symbols.find((s) => s.name === `convert_${methods - 1}`)).toMatchObject({ kind: 'Method', qualified_name: `big_container.convert_${methods - 1}` });
    expect(members.filter((s) => s.kind !== 'Method').map((s) => `${s.kind} ${s.name}`)).toEqual([
      'Type value_type',
      'Type storage_type',
      'Field m_data',
      'Field m_last',
    ]);
  }, SLOW);
});

describe('the second reading of a C or C++ file with parse errors', () => {
  it('reads two alternative heads of one function as one, and keeps what the other branches define', async () => {
    const text = [
      '#ifdef _WIN32',
      'int open_file(const wchar_t *path) {',
      '#else',
      'int open_file(const char *path) {',
      '#endif',
      '  return path != 0;',
      '}',
      '',
      '#if defined(_WIN32)',
      "#define PATH_SEP '\\\\'",
      '#else',
      "#define PATH_SEP '/'",
      'static int posix_only(void) { return 1; }',
      '#endif',
      '',
    ].join('\n');
    const r = await extractFile('src/files.c', text, BUDGET);
    expect(r.failure).toBeNull();
    expect(r.symbols.map((s) => `${s.kind} ${s.name}@${s.start_line}`)).toEqual(
      expect.arrayContaining(['Function open_file@2', 'Constant PATH_SEP@10', 'Function posix_only@13']),
    );
    expect(r.symbols.find((s) => s.name === 'open_file')?.end_line).toBe(7);
  }, SLOW);

  it('keeps the first branch of each conditional and blanks the others and the directives', () => {
    const text = [
      '#ifndef GUARD_H',
      'template<typename U,',
      '#if defined(HAS_CPP_17) && \\',
      '    HAS_CONCEPTS',
      '  typename std::enable_if<true, int>::type = 0',
      '#elif defined(_MSC_VER)',
      '  long = 0',
      '#else',
      '  int = 0',
      '#endif',
      '>',
      'U convert();',
      '#if 0',
      'int dead();',
      '#else',
      'int alive();',
      '#endif',
      '#endif',
    ].join('\n');
    const out = firstBranch(text);
    expectSameShape(text, out);
    const kept = out.split('\n').map((l) => l.trim()).filter(Boolean);
    expect(kept).toEqual(['template<typename U,', 'typename std::enable_if<true, int>::type = 0', '>', 'U convert();', 'int alive();']);
  });

  it('leaves text without conditionals untouched', () => {
    const text = '#include <a.h>\nint f(void);\n#define X 1\n';
    expect(firstBranch(text)).toBe(text);
  });

  it('blanks macros used as statements or block heads, not calls that end in a semicolon', () => {
    const text = [
      'void f() {',
      '    JSON_TRY',
      '    {',
      '        g();',
      '    }',
      '    JSON_CATCH (std::out_of_range&) {} // never',
      '    JSON_ASSERT(x != nullptr);',
      '    TAILQ_FOREACH(item, &head, link) {',
      '    }',
      '}',
    ].join('\n');
    const out = maskOnError(text);
    expectSameShape(text, out);
    expect(out).not.toMatch(/JSON_TRY|JSON_CATCH|TAILQ_FOREACH/);
    expect(out).toContain('    JSON_ASSERT(x != nullptr);');
    expect(out).toContain('{} // never');
  });
});

describe('template heads the grammar misreads', () => {
  it('keep the members after them in their class, each with its body', async () => {
    const text = excerpts['../../fixtures/extract/cpp/second-reading/basic_json.hpp'];
    expect(text).toBeTypeOf('string');
    const r = await extractFile('include/nlohmann/json.hpp', text, BUDGET);
    expect(r.failure).toBeNull();
    const members = r.symbols.map((s) => `${s.kind} ${s.qualified_name}@${s.start_line}${s.declaration ? ' (declaration)' : ''}`);
    expect(members).toEqual(
      expect.arrayContaining([
        'Class basic_json@12',
        'Method basic_json.operator ValueType@15',
        'Method basic_json.get_binary@39',
        'Type basic_json.is_comparable_with_object_key@51',
        'Method basic_json.value@60',
        'Method basic_json.value@70',
      ]),
    );
    expect(members.filter((m) => m.endsWith('(declaration)'))).toEqual([]);
  }, SLOW);

  it('are blanked inside for the second reading, only where they nest a template', () => {
    const text = [
      'template <typename T> struct A {};',
      'template < class V, detail::enable_if_t <',
      '    detail::is_getable<T, V>::value, int > = 0 >',
      'V value(const V& d) const { return d; }',
      'auto x = y.template get<int>();',
    ].join('\n');
    const out = blankTemplateHeads(text);
    expectSameShape(text, out);
    const lines = out.split('\n');
    expect(lines[0]).toBe('template <typename T> struct A {};');
    expect(lines[1].trimEnd()).toBe('template <');
    expect(lines[2].trim()).toBe('>');
    expect(lines.slice(3)).toEqual(text.split('\n').slice(3));
  });
});

describe('a budget shared by the parses and the query', () => {
  it('cancels a slice without cancelling the rest of the budget', () => {
    const budget = new Deadline(60_000);
    const slice = budget.slice(0.5);
    expect(slice.remainingMs()).toBeLessThanOrEqual(30_000);
    // The callback cap shrinks with the slice: half of what the whole budget allows.
    let cancelled = false;
    for (let i = 0; i < 60_000 * Deadline.CALLBACKS_PER_MS && !cancelled; i++) cancelled = slice.tick();
    expect(cancelled).toBe(true);
    expect(slice.expired).toBe(true);
    expect(budget.expired).toBe(false);
    // The slice's callbacks were counted against the whole budget.
    let rest = 0;
    while (!budget.tick()) rest++;
    expect(rest).toBeLessThanOrEqual(60_000 * Deadline.CALLBACKS_PER_MS / 2 + 1);
  });
});
