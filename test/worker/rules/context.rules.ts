import type { Rule } from './rule';

const big = (name: string) => `export function ${name}(): number {\n${Array.from({ length: 30 }, (_, i) => `  const v${i} = ${i}; // ${'x'.repeat(30)}`).join('\n')}\n  return 0;\n}\n`;
const project = {
  name: 'rules-context',
  files: {
    'src/root.ts': `export function root(): void {\n  one();\n  two();\n}\n${big('one')}${big('two')}`,
    'README.md': '# Title\n\ntext\n',
  },
};

export const RULES: Rule[] = [
  { tool: 'context', param: '*', phrase: 'Exactly one of id or name', args: {}, expect: { error: 'invalid_params' } },
  { tool: 'context', param: '*', phrase: 'Exactly one of id or name', args: { id: 'a.ts::f#Function', name: 'f' }, expect: { error: 'invalid_params' } },
  { tool: 'context', param: 'path', phrase: 'With name only', args: { id: 'a.ts::f#Function', path: 'a.ts' }, expect: { error: 'invalid_params' } },
  { tool: 'context', param: 'name', phrase: 'non-empty', args: { name: '  ' }, expect: { error: 'invalid_params' } },
  { tool: 'context', param: 'max_tokens', phrase: '200–50000', args: { name: 'root', max_tokens: 199 }, expect: { error: 'invalid_params' } },
  { tool: 'context', param: 'max_tokens', phrase: '200–50000', args: { name: 'root', max_tokens: 50_001 }, expect: { error: 'invalid_params' } },
  { tool: 'context', param: 'max_tokens', phrase: 'default 4000', args: { project: 'rules-context', name: 'root', max_tokens: '4000' }, expect: { ok: true }, project },
  { tool: 'context', param: '*', phrase: 'the rest: dropped (budget_truncated)', args: { project: 'rules-context', name: 'root', max_tokens: 200 }, expect: { warning: 'budget_truncated' }, project },
  { tool: 'context', param: 'max_tokens', phrase: 'a symbol alone over it: skeleton', args: { project: 'rules-context', name: 'one', max_tokens: 200 }, expect: { warning: 'budget_truncated' }, project },
];
