import * as z from 'zod';
import { PincherError } from '../errors';
import { analyze, type Analyzed, type Lint } from '../query/analyze';
import { assertBindable } from '../query/compile';
import { excerptAt, positionOf, QueryError } from '../query/errors';
import { evaluateRegexes, runMain } from '../query/execute';
import { explainEmpty, graphPending } from '../query/explain';
import { DEFAULT_MAX_ROWS, MAX_QUERY_CHARS, MAX_ROWS, WALK_CAP } from '../query/limits';
import { parseQuery } from '../query/parser';
import { printQuery } from '../query/printer';
import { defineTool, type ToolContext } from './define';
import { resolveProjectWithFiles } from './project-scope';

const input = z.object({
  query: z
    .string()
    .min(1)
    .max(MAX_QUERY_CHARS)
    .describe('pinchQL text, 1–4000 characters.'),
  project: z.string().optional().describe('Project name; defaults to the ?project= pin of the MCP URL.'),
  max_rows: z
    .number()
    .int()
    .min(1)
    .max(MAX_ROWS)
    .default(DEFAULT_MAX_ROWS)
    .describe('Rows returned, 1–10000, default 200; obvious base-10 strings accepted. More rows set truncated and a next step pages on with SKIP.'),
});

const output = z.object({
  columns: z.array(z.string()).describe('RETURN aliases, else the expressions as written canonically'),
  rows: z.array(z.array(z.unknown())).describe('one array per row, values in column order; nodes and relationships are objects'),
  row_count: z.number(),
  truncated: z.boolean().describe('max_rows cut the answer; next_steps fetches the next page'),
});

export const queryTool = defineTool({
  name: 'query',
  title: 'pinchQL graph query',
  description:
    "Read-only Cypher subset (pinchQL) over one project's symbols and edges. MATCH one pattern: (a:Function {name: 'x'}) or one relationship " +
    '(a)-[r:CALLS|IMPORTS|INHERITS|IMPLEMENTS]->(b) or <-[]-, variable length *1..3 (depth ≤ 10; * alone = *1..3; one row per start/end pair). ' +
    'WHERE: AND OR XOR NOT, comparisons, + - * / %, =~ (full match, optional (?i); regexes that could backtrack badly or would test over 50000 ' +
    'values are refused), CONTAINS, STARTS/ENDS WITH, IN [..], IS [NOT] NULL, a:Kind, NOT ()-[:CALLS]->(a). RETURN [DISTINCT] x [AS y], ' +
    'count/sum/avg/min/max/collect (grouped by the other items), ORDER BY, SKIP, LIMIT. Properties: id name qualified_name kind file line ' +
    'end_line signature docstring language is_exported is_test; edges: kind line confidence provenance; r.depth. Unknown labels, types and ' +
    'properties warn with a did-you-mean. Syntax errors are invalid_params with line, column and a caret excerpt.',
  tier: 'standard',
  toolset: 'full',
  baseline: 'none',
  input,
  output,
  handler: async (args, ctx) => {
    const a = analyzed(ctx, args.query);
    for (const lint of a.lints) ctx.meta.warn(lint.code, lint.message, lint.data);
    const empty = { columns: a.columns, rows: [], row_count: 0, truncated: false };
    const project = await resolveProjectWithFiles(ctx, args.project);
    if (!project) return empty;
    const stepArgs = (query: string) => ({ project: project.name, query, ...(args.max_rows !== DEFAULT_MAX_ROWS ? { max_rows: args.max_rows } : {}) });
    const fixed = corrected(args.query, a.lints);
    if (fixed) ctx.meta.next('query', stepArgs(fixed), 'the same query with the did-you-mean corrections applied');
    if (a.usesGraph && graphPending(project)) {
      ctx.meta.warn('graph_pending', `the edges reflect push generation ${project.graphGeneration} and the index is at ${project.generation}: references of the last push are not resolved yet`, {
        generation: project.generation,
        graph_generation: project.graphGeneration,
      });
    }

    let regexValues;
    try {
      regexValues = await evaluateRegexes(ctx.db, a, project.id);
    } catch (err) {
      throw err instanceof QueryError ? queryError(ctx, args.query, err) : err;
    }
    const result = await runMain(ctx.db, a, project.id, regexValues, args.max_rows);
    if (result.walkCapped) {
      ctx.meta.warn('walk_capped', `the variable-length walk stopped at ${WALK_CAP} steps, so some pairs may be missing; anchor the start node more tightly or lower the depth`, { walk_cap: WALK_CAP });
    }
    if (result.truncated) {
      const q = a.query;
      const skip = (q.skip?.value ?? 0) + result.rows.length;
      const next = printQuery({ ...q, skip: { value: skip, span: q.span }, limit: q.limit ? { value: q.limit.value - result.rows.length, span: q.limit.span } : undefined });
      ctx.meta.next('query', stepArgs(next), `the next page: rows after the first ${skip}`);
    }
    if (result.rows.length === 0) await explainEmpty({ ctx, a, project, regexValues });
    return { columns: a.columns, rows: result.rows, row_count: result.rows.length, truncated: result.truncated };
  },
});

/** Parses and analyses the query; a QueryError becomes invalid_params with its position and a cypher_parse_error diagnosis. */
function analyzed(ctx: ToolContext, text: string): Analyzed {
  try {
    const a = analyze(text, parseQuery(text));
    assertBindable(a);
    return a;
  } catch (err) {
    throw err instanceof QueryError ? queryError(ctx, text, err) : err;
  }
}

function queryError(ctx: ToolContext, text: string, err: QueryError): PincherError {
  const position = positionOf(text, err.span[0]);
  const excerpt = excerptAt(text, err.span[0]);
  const where = `line ${position.line}, column ${position.column}`;
  ctx.meta.diagnose('cypher_parse_error', 'error', `${err.message} (${where})`, { stage: err.stage, position, excerpt, ...err.data });
  return new PincherError('invalid_params', `invalid arguments for query: query: ${err.message} at ${where}`, {
    suggestion: err.suggestion,
    details: { issues: [{ param: 'query', message: err.message }], stage: err.stage, position, excerpt, ...err.data },
  });
}

/** The query text with every did-you-mean fix applied, or null when no lint has one. */
function corrected(text: string, lints: readonly Lint[]): string | null {
  const fixes = lints.flatMap((l) => (l.fix ? [l.fix] : [])).sort((x, y) => y.span[0] - x.span[0]);
  if (!fixes.length) return null;
  let out = text;
  for (const f of fixes) out = out.slice(0, f.span[0]) + f.replacement + out.slice(f.span[1]);
  return out;
}
