import { describe, expect, it } from 'vitest';
import { detectLanguage, EXTRACTOR_VERSION, LANGUAGES } from '../../../src/extract/index';

describe('language table', () => {
  it('detects languages by extension, case-insensitively', () => {
    const cases: [string, string][] = [
      ['src/a.ts', 'typescript'], ['a.mts', 'typescript'], ['a.cts', 'typescript'], ['types/x.d.ts', 'typescript'],
      ['a.tsx', 'tsx'], ['a.js', 'javascript'], ['a.jsx', 'javascript'], ['a.mjs', 'javascript'], ['a.cjs', 'javascript'],
      ['a.py', 'python'], ['a.pyi', 'python'], ['a.go', 'go'], ['a.rs', 'rust'], ['A.java', 'java'],
      ['a.c', 'c'], ['a.h', 'c'], ['a.cpp', 'cpp'], ['a.cc', 'cpp'], ['a.cxx', 'cpp'], ['a.hpp', 'cpp'], ['a.hh', 'cpp'],
      ['a.hxx', 'cpp'], ['a.cs', 'csharp'], ['a.rb', 'ruby'], ['a.php', 'php'], ['a.sh', 'bash'], ['a.bash', 'bash'],
      ['README.md', 'markdown'], ['a.mdx', 'markdown'], ['a.json', 'json'], ['a.yml', 'yaml'], ['a.yaml', 'yaml'],
      ['Cargo.toml', 'toml'], ['SRC/MAIN.PY', 'python'],
    ];
    for (const [path, id] of cases) expect(detectLanguage(path)?.id, path).toBe(id);
  });

  it('detects every extension of the table as its own language', () => {
    for (const l of LANGUAGES) for (const ext of l.extensions) expect(detectLanguage(`dir/file${ext}`)?.id, ext).toBe(l.id);
  });

  it('detects well-known file names', () => {
    expect(detectLanguage('Gemfile')?.id).toBe('ruby');
    expect(detectLanguage('tools/Rakefile')?.id).toBe('ruby');
    expect(detectLanguage('home/.bashrc')?.id).toBe('bash');
  });

  it('returns null for unsupported paths', () => {
    for (const path of ['a.svg', 'Makefile', 'a', 'dir.ts/file', '.gitignore']) expect(detectLanguage(path), path).toBeNull();
  });

  it('describes every language once, with its corpus and tier', () => {
    const ids = LANGUAGES.map((l) => l.id);
    expect(ids.length).toBeGreaterThan(0);
    expect(new Set(ids).size).toBe(ids.length);
    for (const l of LANGUAGES) {
      expect(l.tier).toBe(l.corpus === 'code' ? 'ast' : 'structured');
      expect(l.confidence).toBeGreaterThan(0.9);
      expect(l.extensions.length).toBeGreaterThan(0);
    }
    expect(Number.isInteger(EXTRACTOR_VERSION)).toBe(true);
  });
});
