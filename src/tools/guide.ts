import * as z from 'zod';
import { PincherError } from '../errors';
import { parseDiff } from '../composites/diff';
import { classify, INTENTS, type Classified } from '../composites/intent';
import { findSeeds, type Seed } from '../composites/seeds';
import { taskTerms, type TaskTerms } from '../composites/task-terms';
import { defineTool } from './define';
import { PROJECT_PARAM } from './describe';
import { resolveProject } from './project-scope';
import { reachableSteps } from './reach';
import { MAX_TASK_CHARS } from './context-for-task';

const step = z.object({ tool: z.string(), args: z.record(z.string(), z.unknown()), why: z.string() });
type Step = z.infer<typeof step>;

/** Seeds looked up to fill the arguments. */
const SEEDS = 3;

export const guideTool = defineTool({
  name: 'guide',
  title: 'Plan calls',
  description:
    'Plans a task (debug, review, impact, callers, find…): ordered calls with ready arguments (real symbol ids). ' +
    'No project given or pinned: the one step is list.',
  tier: 'lite',
  toolset: 'core',
  baseline: 'none',
  input: z.object({
    task: z.string().min(1).max(MAX_TASK_CHARS).describe('1–2000 chars with a letter or digit; a pasted stack trace or diff is routed to its tool.'),
    project: z.string().optional().describe(PROJECT_PARAM),
  }),
  output: z.object({
    intent: z.enum(INTENTS),
    steps: z.array(step).describe('calls in order: {tool, args, why}'),
    seeds: z.array(z.string()).describe('symbol ids the task resolved to'),
  }),
  handler: async (args, ctx) => {
    if (!/[\p{L}\p{N}]/u.test(args.task)) {
      throw new PincherError('invalid_params', 'invalid arguments for guide: task has no letters or digits', {
        suggestion: 'describe the task in words, e.g. "who calls Server.start", or paste the stack trace or diff',
        details: { issues: [{ param: 'task', message: 'no letters or digits' }] },
      });
    }
    const classified = classify(args.task);
    if (args.project === undefined && ctx.defaultProject === undefined) {
      return { intent: classified.intent, steps: [{ tool: 'list', args: {}, why: 'pick the project first, then call guide again with project' }], seeds: [] };
    }
    const project = await resolveProject(ctx, args.project);
    if (!project) return { intent: classified.intent, steps: [{ tool: 'list', args: {}, why: 'see which projects are indexed' }], seeds: [] };
    const terms = taskTerms(args.task);
    const seeds = classified.trace || classified.diff ? [] : (await findSeeds(ctx.db, project.id, terms, SEEDS)).seeds;
    const steps = reachableSteps(plan(project.name, args.task, classified, terms, seeds), ctx);
    return { intent: classified.intent, steps, seeds: seeds.map((s) => s.row.id) };
  },
});

/** The calls for an intent, seeded with what the index resolved. Every step is a call the server runs as given. */
function plan(project: string, task: string, c: Classified, terms: TaskTerms, seeds: readonly Seed[]): Step[] {
  const top = seeds[0]?.row;
  const query = terms.identifiers[0]?.replace(/::|#/g, '.').split('.').pop() ?? terms.words.slice(0, 4).join(' ');
  const search: Step[] = query ? [{ tool: 'search', args: { project, query }, why: `find the symbols named like '${query}'` }] : [];
  const text = terms.phrases[0] ?? terms.identifiers[0] ?? terms.words[0];
  const grep: Step[] = text ? [{ tool: 'grep', args: { project, pattern: text, literal: true }, why: `every line containing '${text}'` }] : [];
  const explore: Step[] = [{ tool: 'ls', args: { project, max_depth: 2 }, why: 'the folders and files of the project' }];
  const range = top ? { project, ranges: [{ path: top.file_path, start_line: top.start_line, end_line: top.end_line }] } : null;
  const fallback = search.length ? search : explore;

  switch (c.intent) {
    case 'debug_failure':
      if (c.trace) return [{ tool: 'investigate_failure', args: { project, trace: task }, why: 'map the frames onto the code and rank the implicated symbols' }];
      return [
        ...(top ? [{ tool: 'context', args: { project, id: top.id }, why: `${top.id} with what it calls` }] : fallback),
        ...(terms.phrases.length ? grep : []),
        { tool: 'context_for_task', args: { project, task }, why: 'the code around the failure; pass the full stack trace to investigate_failure when you have it' },
      ];
    case 'review_diff':
      if (c.diff && c.diffText && parses(c.diffText)) return [{ tool: 'changes', args: { project, diff: c.diffText }, why: 'changed symbols, impacted callers and tests to run' }];
      if (range) return [{ tool: 'changes', args: range, why: `what changing ${top?.id} touches; pass the output of git diff -U0 as diff to review a real change` }];
      return [...fallback, { tool: 'context_for_task', args: { project, task }, why: 'then pass the output of git diff -U0 to changes as diff' }];
    case 'impact':
      if (top && range) {
        return [
          { tool: 'changes', args: range, why: `callers of ${top.id} by depth with risk, and the tests to run` },
          { tool: 'trace', args: { project, id: top.id, direction: 'inbound', depth: 3 }, why: 'the full caller tree' },
        ];
      }
      return fallback;
    case 'callers':
      if (top) return [{ tool: 'trace', args: { project, id: top.id, direction: 'inbound' }, why: `who calls ${top.id}` }, ...grep.slice(0, 1)];
      return [...fallback, ...grep];
    case 'definition':
      if (top) return [{ tool: 'symbol', args: { project, id: top.id }, why: `the definition of ${top.name}` }, ...(seeds.length > 1 ? search : [])];
      return fallback;
    case 'understand':
      if (top) return [{ tool: 'context', args: { project, id: top.id }, why: `${top.id} with what it calls, imports and inherits` }, { tool: 'context_for_task', args: { project, task }, why: 'the other symbols the task names, with callers and callees' }];
      return [...fallback, { tool: 'context_for_task', args: { project, task }, why: 'seed symbols from the task words' }];
    case 'find_text':
      return grep.length ? grep : fallback;
    case 'explore': {
      const path = terms.paths[0]?.path;
      const file = top && path && top.file_path.endsWith(path) ? top.file_path : null;
      if (file) return [{ tool: 'read', args: { project, path: file, map: true }, why: `the structure of ${file}` }];
      return [...explore, ...search];
    }
  }
}

function parses(diff: string): boolean {
  try {
    parseDiff(diff);
    return true;
  } catch {
    return false;
  }
}
