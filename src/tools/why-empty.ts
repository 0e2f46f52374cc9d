import * as z from 'zod';
import { PincherError } from '../errors';
import { EMPTY_REASONS, EMPTY_REASON_CATALOG, type EmptyReason } from '../envelope/empty-reasons';
import { reachableSteps } from './reach';
import { didYouMean } from '../util/did-you-mean';
import { defineTool } from './define';
import { PROJECT_PARAM } from './describe';

const step = z.object({ tool: z.string(), args: z.record(z.string(), z.unknown()), why: z.string() });
const entry = z.object({
  code: z.string(),
  title: z.string(),
  fires_when: z.string(),
  recovery: z.string(),
  recovery_steps: z.array(step),
});

export const whyEmptyTool = defineTool({
  name: 'why_empty',
  title: 'Why empty',
  description: 'Recovery steps for an empty_reason.',
  tier: 'lite',
  toolset: 'core',
  baseline: 'none',
  input: z.object({
    code: z
      .string()
      .optional()
      .describe('A known empty_reason; omit for all'),
    project: z.string().optional().describe(PROJECT_PARAM),
  }),
  output: z.object({ entries: z.array(entry), total: z.number() }),
  handler: async ({ code, project }, ctx) => {
    const codes: EmptyReason[] = code ? [known(code)] : [...EMPTY_REASONS];
    const entries = codes.map((c) => {
      const e = EMPTY_REASON_CATALOG[c];
      const steps = reachableSteps(e.steps.map((s) => ({ ...s, args: withProject(s.args, s.tool, project) })), ctx);
      return { code: e.code, title: e.title, fires_when: e.fires_when, recovery: e.recovery, recovery_steps: steps };
    });
    if (code) for (const s of entries[0].recovery_steps) ctx.meta.next(s.tool, s.args, s.why);
    return { entries, total: entries.length };
  },
});

function known(code: string): EmptyReason {
  if ((EMPTY_REASONS as readonly string[]).includes(code)) return code as EmptyReason;
  const guess = didYouMean(code, EMPTY_REASONS);
  throw new PincherError('unknown_empty_reason', `'${code}' is not an empty_reason code`, {
    suggestion: guess
      ? `did you mean '${guess}'? Call why_empty with one of the listed codes, or without code for the catalog`
      : 'call why_empty with one of the listed codes, or without code for the whole catalog',
    details: { codes: [...EMPTY_REASONS], ...(guess ? { did_you_mean: guess } : {}) },
  });
}

// `list` takes no project; every other recovery tool is project-scoped.
function withProject(args: Record<string, unknown>, tool: string, project: string | undefined): Record<string, unknown> {
  return project && tool !== 'list' ? { ...args, project } : args;
}
