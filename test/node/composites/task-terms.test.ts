import { describe, expect, it } from 'vitest';
import { taskTerms } from '../../../src/composites/task-terms';

describe('taskTerms', () => {
  it('reads quoted names, dotted names and paths with a line', () => {
    const t = taskTerms('why does `Server.start` call listen in src/app.ts:3?');
    expect(t.identifiers).toEqual(['Server.start']);
    expect(t.paths).toEqual([{ path: 'src/app.ts', line: 3 }]);
    expect(t.words).toEqual(['server', 'start', 'listen']);
  });

  it('keeps camelCase and snake_case identifiers and splits them into search words', () => {
    const t = taskTerms('Fix getUserName so that load_user_profile stops timing out');
    expect(t.identifiers).toEqual(['getUserName', 'load_user_profile']);
    expect(t.words).toEqual(['user', 'name', 'load', 'profile', 'stops', 'timing', 'out']);
  });

  it('takes a capitalised word as a weaker identifier, after the strong ones, but not a task verb', () => {
    const t = taskTerms('Refactor the Repository so parseHeader is cached');
    expect(t.identifiers).toEqual(['parseHeader', 'Repository']);
  });

  it('keeps quoted text with spaces as a phrase and its identifiers as names', () => {
    const t = taskTerms('the log says "connection refused by fetchRemote" sometimes');
    expect(t.phrases).toEqual(['connection refused by fetchRemote']);
    expect(t.identifiers).toContain('fetchRemote');
  });

  it('reads a bare file name with a known extension as a path', () => {
    expect(taskTerms('what is in config.yaml and main.go').paths.map((p) => p.path)).toEqual(['config.yaml', 'main.go']);
  });

  it('yields nothing to search for in filler text', () => {
    const t = taskTerms('please help, how do I fix this?');
    expect(t).toEqual({ identifiers: [], paths: [], phrases: [], words: [] });
  });

  it("does not read an apostrophe inside a word as a quote", () => {
    expect(taskTerms("the server's cache isn't warm").phrases).toEqual([]);
  });
});
