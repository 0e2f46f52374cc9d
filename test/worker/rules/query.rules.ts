import type { Rule } from './rule';

const err = { error: 'invalid_params' };
const project = { name: 'rules-query', files: { 'src/app.ts': 'export function listen(): number {\n  return serve();\n}\n\nfunction serve(): number {\n  return 1;\n}\n' } };

export const RULES: Rule[] = [
  { tool: 'query', param: '*', phrase: 'Read-only', args: { query: 'CREATE (a:Function) RETURN a' }, expect: err },
  { tool: 'query', param: '*', phrase: 'Read-only', args: { query: "MATCH (a) SET a.name = 'x' RETURN a" }, expect: err },
  { tool: 'query', param: '*', phrase: 'MATCH one pattern', args: { query: 'MATCH (a), (b) RETURN a' }, expect: err },
  { tool: 'query', param: '*', phrase: 'or one relationship', args: { query: 'MATCH (a)-->(b)-->(c) RETURN a' }, expect: err },
  { tool: 'query', param: '*', phrase: 'depth ≤ 10', args: { query: 'MATCH (a)-[:CALLS*1..11]->(b) RETURN a' }, expect: err },
  { tool: 'query', param: '*', phrase: '* alone = *1..3', args: { project: project.name, query: "MATCH (a {name: 'listen'})-[:CALLS*]->(b) RETURN b.name" }, expect: { ok: true }, project },
  { tool: 'query', param: '*', phrase: 'regexes that could backtrack badly', args: { query: "MATCH (a) WHERE a.name =~ '(a+)+' RETURN a" }, expect: err },
  { tool: 'query', param: '*', phrase: '=~ (full match, optional (?i)', args: { project: project.name, query: "MATCH (a) WHERE a.name =~ '(?i)LISTEN' RETURN a" }, expect: { ok: true }, project },
  { tool: 'query', param: '*', phrase: 'Unknown labels, types and properties warn with a did-you-mean', args: { query: 'MATCH (a:Functon) RETURN a' }, expect: { warning: 'unknown_label' } },
  { tool: 'query', param: '*', phrase: 'Unknown labels, types and properties warn with a did-you-mean', args: { query: 'MATCH (a)-[:CALL]->(b) RETURN a' }, expect: { warning: 'unknown_relationship_type' } },
  { tool: 'query', param: '*', phrase: 'Unknown labels, types and properties warn with a did-you-mean', args: { query: 'MATCH (a) RETURN a.nme' }, expect: { warning: 'unknown_property' } },
  { tool: 'query', param: '*', phrase: 'Syntax errors are invalid_params with line, column and a caret excerpt', args: { query: 'MATCH (a RETURN a' }, expect: err },
  { tool: 'query', param: 'query', phrase: '1–4000 characters', args: { query: `MATCH (a) WHERE a.name = '${'x'.repeat(4000)}' RETURN a` }, expect: err },
  { tool: 'query', param: 'query', phrase: '1–4000 characters', args: { query: '' }, expect: err },
  { tool: 'query', param: 'max_rows', phrase: '1–10000', args: { query: 'MATCH (a) RETURN a', max_rows: 0 }, expect: err },
  { tool: 'query', param: 'max_rows', phrase: '1–10000', args: { query: 'MATCH (a) RETURN a', max_rows: 10_001 }, expect: err },
  { tool: 'query', param: 'max_rows', phrase: 'default 200', args: { query: 'MATCH (a) RETURN a' }, expect: { ok: true } },
  { tool: 'query', param: 'max_rows', phrase: 'obvious base-10 strings accepted', args: { query: 'MATCH (a) RETURN a', max_rows: '5' }, expect: { ok: true } },
  { tool: 'query', param: 'max_rows', phrase: 'More rows set truncated', args: { project: project.name, query: 'MATCH (a) RETURN a.name', max_rows: 1 }, expect: { ok: true }, project },
];
