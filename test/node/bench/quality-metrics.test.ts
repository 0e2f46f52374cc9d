// The quality bench's arithmetic and its reading of ctags: what counts as the definition, how
// ctags' kinds map, and how coverage, recalls and the token ratio are computed.
import { describe, expect, it } from 'vitest';
import { oracleKind } from '../../../scripts/bench/ctags.mjs';
import { isDefinition, summarize } from '../../../scripts/bench/quality.mjs';

describe('ctags kinds as measured definitions', () => {
  it('tells Go methods (a receiver scope) from functions, and maps members to fields', () => {
    expect(oracleKind('go', { name: 'M', kind: 'func', scopeKind: 'struct' })).toBe('method');
    expect(oracleKind('go', { name: 'Top', kind: 'func', scopeKind: 'package' })).toBe('function');
    expect(oracleKind('go', { name: 'F', kind: 'member', scopeKind: 'struct' })).toBe('field');
    expect(oracleKind('go', { name: 'T', kind: 'talias' })).toBe('type');
  });

  it('leaves out tags that name no definition', () => {
    expect(oracleKind('javascript', { name: 'Foo', kind: 'class', pattern: '/^Foo.prototype.bar = function(){};$/' })).toBeNull();
    expect(oracleKind('javascript', { name: 'exports', kind: 'function', pattern: '/^module.exports = function baz(){};$/' })).toBeNull();
    expect(oracleKind('javascript', { name: 'AnonymousFunction3d47', kind: 'function' })).toBeNull();
    expect(oracleKind('python', { name: 'x', kind: 'variable' })).toBeNull();
    expect(oracleKind('rust', { name: 'Foo', kind: 'implementation' })).toBeNull();
  });

  it('maps language-specific kinds onto the shared set', () => {
    expect(oracleKind('javascript', { name: 'init', kind: 'class', pattern: '/^app.init = function init() {$/' })).toBe('function');
    expect(oracleKind('javascript', { name: 'defaultValue', kind: 'field', pattern: '/^    this.defaultValue = value;$/' })).toBeNull();
    expect(oracleKind('rust', { name: 'Visit', kind: 'interface' })).toBe('trait');
    expect(oracleKind('php', { name: 'render', kind: 'function', scopeKind: 'class' })).toBe('method');
    expect(oracleKind('php', { name: 'name', kind: 'variable', scopeKind: 'class', pattern: '/^    private ?string $name;$/' })).toBe('field');
    // A closure local ctags files under the class is not a property: its line declares nothing.
    expect(oracleKind('php', { name: 'name', kind: 'variable', scopeKind: 'class', pattern: '/^        $name = $input->getArgument(\'name\');$/' })).toBe(null);
    expect(oracleKind('python', { name: 'run', kind: 'member', scopeKind: 'class' })).toBe('method');
    expect(oracleKind('cpp', { name: 'size', kind: 'function', scopeKind: 'class' })).toBe('method');
    expect(oracleKind('ruby', { name: 'data', kind: 'accessor' })).toBe('field');
  });
});

describe('a hit is the definition', () => {
  const def = { name: 'send', path: 'lib/response.js', line: 111 };
  it('at the same file and name, with the line at its start ±1 or inside its lines', () => {
    expect(isDefinition({ name: 'send', file_path: 'lib/response.js', start_line: 110, end_line: 110 }, def)).toBe(true);
    expect(isDefinition({ name: 'send', file_path: 'lib/response.js', start_line: 105, end_line: 140 }, def)).toBe(true);
    expect(isDefinition({ name: 'x', qualified_name: 'res.send', file_path: 'lib/response.js', start_line: 111 }, def)).toBe(true);
  });
  it('not in another file, under another name or far from the line', () => {
    expect(isDefinition({ name: 'send', file_path: 'lib/request.js', start_line: 111 }, def)).toBe(false);
    expect(isDefinition({ name: 'sendFile', file_path: 'lib/response.js', start_line: 111 }, def)).toBe(false);
    expect(isDefinition({ name: 'send', file_path: 'lib/response.js', start_line: 300, end_line: 310 }, def)).toBe(false);
  });
});

describe('the figures', () => {
  it('recall@1 counts names defined once; recall@k allows max(5, same-name definitions)', () => {
    const rows = [
      { defined: 1, rank: 1, found: 'search' },
      { defined: 1, rank: 3, found: 'search' },
      { defined: 1, rank: null, found: 'read' },
      { defined: 8, rank: 7, found: 'search' },
      { defined: 8, rank: null, found: null },
    ];
    const s = summarize(rows, [{ server_tokens: 10, baseline_tokens: 100 }, { server_tokens: 30, baseline_tokens: 300 }]);
    expect(s.definitions).toBe(5);
    expect(s.coverage).toBeCloseTo(4 / 5);
    expect(s.found_by_search).toBeCloseTo(3 / 5);
    expect(s.recall_at_1).toBeCloseTo(1 / 3);
    expect(s.recall_at_5).toBeCloseTo(2 / 5);
    expect(s.recall_at_k).toBeCloseTo(3 / 5);
    expect(s.token_ratio).toBeCloseTo(0.1);
  });
  it('has no figure where there is nothing to measure', () => {
    const s = summarize([], []);
    expect(s.coverage).toBeNull();
    expect(s.recall_at_1).toBeNull();
    expect(s.token_ratio).toBeNull();
  });
});

describe('ctags misreadings in declaration files', () => {
  it('takes the kind a line declares over a misplaced property tag', () => {
    expect(oracleKind('typescript', { name: 'BinaryLike', kind: 'property', scopeKind: 'class', pattern: '/^    type BinaryLike = string | NodeJS.ArrayBufferView;$/' })).toBe('type');
    expect(oracleKind('typescript', { name: 'timeout', kind: 'property', scopeKind: 'interface', pattern: '/^        timeout?: number;$/' })).toBe('field');
  });
});
