import { beforeAll, describe, expect, it } from 'vitest';
import { indexProject } from '../graph/support';
import { rest, type Json } from '../helpers';
import { ownerOf } from '../../../src/tools/nearest-names';

// A name that resolves to nothing gets did-you-mean steps, each with one id of a near name. When the name was asked
// in a file (an id) or with an owner (`Locator.getSystemd`), the id offered is the near name's symbol there, not the
// first of the project's symbols of that name: an agent that follows the step gets the symbol it meant.
const cls = (name: string) => `export class ${name} {\n  getSystemId(): string {\n    return '${name}';\n  }\n}\n`;
const FILES = {
  'a/zero.ts': cls('Zed'),
  'lib/x.ts': cls('Locator'),
  'src/a/locator.ts': cls('Locator') + cls('Other'),
  'src/b/other.ts': cls('Other'),
};
const PROJECT = 'did-you-mean-ids';

beforeAll(async () => {
  await indexProject(PROJECT, FILES);
});

/** The ids of the did-you-mean steps of an answer, in order. */
function offered(body: Json): string[] {
  return (body._meta.next_steps as Json[]).filter((s) => /did you mean/.test(s.why)).map((s) => s.args.id);
}

describe('did-you-mean ids', () => {
  const cases: [string, Json, string][] = [
    ['symbol, a mistyped id: its file and owner', { tool: 'symbol', args: { id: 'src/a/locator.ts::Locator.getSystemd#Method' } }, 'src/a/locator.ts::Locator.getSystemId#Method'],
    ['symbol, the other owner of the same file', { tool: 'symbol', args: { id: 'src/a/locator.ts::Other.getSystemd#Method' } }, 'src/a/locator.ts::Other.getSystemId#Method'],
    ['symbol, an owner the file lacks: the file first', { tool: 'symbol', args: { id: 'src/b/other.ts::Locator.getSystemd#Method' } }, 'src/b/other.ts::Other.getSystemId#Method'],
    ['symbol, a file without the name: the owner', { tool: 'symbol', args: { id: 'src/c/none.ts::Other.getSystemd#Method' } }, 'src/a/locator.ts::Other.getSystemId#Method'],
    ['trace, a mistyped id', { tool: 'trace', args: { id: 'src/b/other.ts::Other.getSystemd#Method', depth: 1 } }, 'src/b/other.ts::Other.getSystemId#Method'],
    ['context, a mistyped qualified name: the owner', { tool: 'context', args: { name: 'Locator.getSystemd' } }, 'lib/x.ts::Locator.getSystemId#Method'],
    ['context, a mistyped name with its path', { tool: 'context', args: { name: 'Other.getSystemd', path: 'src/b/other.ts' } }, 'src/b/other.ts::Other.getSystemId#Method'],
    ['trace, a mistyped qualified name: the owner', { tool: 'trace', args: { name: 'Other.getSystemd', depth: 1 } }, 'src/a/locator.ts::Other.getSystemId#Method'],
    ['context, a bare mistyped name: the least id', { tool: 'context', args: { name: 'getSystemd' } }, 'a/zero.ts::Zed.getSystemId#Method'],
  ];
  for (const [label, call, want] of cases) {
    it(`offers the symbol meant: ${label}`, async () => {
      const r = await rest(call.tool, { project: PROJECT, ...call.args });
      expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
      expect(r.body._meta.empty_reason).toBe('target_not_resolved');
      expect(offered(r.body)[0], JSON.stringify(r.body._meta.next_steps)).toBe(want);
    });
  }

  it('reads the owner a qualified name spells', () => {
    expect(ownerOf('Locator.getSystemd')).toBe('Locator');
    expect(ownerOf('a.b.c')).toBe('a.b');
    expect(ownerOf('Type::method')).toBe('Type');
    expect(ownerOf('Class#method')).toBe('Class');
    expect(ownerOf('Guide > Install')).toBe('Guide');
    expect(ownerOf('Job.run@12')).toBe('Job');
    expect(ownerOf('bare')).toBeNull();
    expect(ownerOf('.leading')).toBeNull();
  });
});
