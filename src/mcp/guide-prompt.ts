/**
 * The `guide` MCP prompt: the guide tool's plan as a user message a host
 * can insert. It runs the tool through the one call seam (so the call is
 * logged and its envelope travels as the prompt result's `_meta`) and
 * throws PincherError for an unknown prompt or bad arguments; the MCP
 * server turns those into JSON-RPC invalid-params errors.
 */
import { PincherError } from '../errors';
import type { Meta } from '../envelope/types';
import { guideTool } from '../tools/guide';
import { runTool, type CallContext } from '../tools/run';

export interface PromptArgument {
  name: string;
  description: string;
  required: boolean;
}

export interface PromptDescriptor {
  name: string;
  title: string;
  description: string;
  arguments: PromptArgument[];
}

export type PromptResult = {
  description: string;
  messages: { role: 'user'; content: { type: 'text'; text: string } }[];
  _meta: Record<string, unknown>;
};

export const GUIDE_PROMPT: PromptDescriptor = {
  name: 'guide',
  title: 'Plan the calls for a task',
  description: 'The pincher-edge calls to make for a task, in order, with ready arguments (real symbol ids from the index).',
  arguments: [
    { name: 'task', description: 'The task in plain words, or a stack trace or diff (1–2000 characters).', required: true },
    { name: 'project', description: 'Project name (see the list tool); default: the ?project= pin of the URL.', required: false },
  ],
};

/** Every prompt the server offers (prompts/list). */
export const PROMPTS: readonly PromptDescriptor[] = [GUIDE_PROMPT];

interface Planned {
  intent: string;
  steps: { tool: string; args: Record<string, unknown>; why: string }[];
  seeds: string[];
}

/** Renders the plan as the message text: task, project, intent, then numbered calls. */
function render(task: string, project: string | undefined, plan: Planned, meta: Meta): string {
  const lines = [
    `Task: ${task}`,
    `Project: ${project ?? '(none chosen yet)'}`,
    `Intent: ${plan.intent}`,
    '',
    'Make these pincher-edge tool calls in order (arguments are ready to pass as given):',
    ...plan.steps.map((s, i) => `${i + 1}. ${s.tool} ${JSON.stringify(s.args)}\n   why: ${s.why}`),
  ];
  if (plan.seeds.length) lines.push('', `Symbols the task resolved to: ${plan.seeds.join(', ')}`);
  if (meta.empty_reason) lines.push('', `Note (${meta.empty_reason}): ${meta.diagnosis ?? ''}`);
  return lines.join('\n');
}

/**
 * prompts/get for one prompt name.
 *
 * @example
 * const prompt = await getPrompt('guide', { task: 'who calls Server.start', project: 'web' }, call);
 */
export async function getPrompt(name: string, args: Record<string, string> | undefined, call: CallContext): Promise<PromptResult> {
  if (name !== GUIDE_PROMPT.name) {
    throw new PincherError('not_found', `no prompt named '${name}'`, {
      suggestion: `call prompts/list; this server offers: ${PROMPTS.map((p) => p.name).join(', ')}`,
    });
  }
  const task = args?.task;
  if (typeof task !== 'string' || !task.trim()) {
    throw new PincherError('invalid_params', 'invalid arguments for prompt guide: task is required', {
      suggestion: 'pass task: the task in plain words, e.g. "who calls Server.start"',
      details: { issues: [{ param: 'task', message: 'required' }] },
    });
  }
  const project = args?.project?.trim() || undefined;
  const outcome = await runTool(guideTool, { task, ...(project ? { project } : {}) }, call);
  if (!outcome.ok) throw outcome.error;
  const plan = outcome.result as unknown as Planned;
  return {
    description: `pincher-edge plan (${plan.intent}) for: ${task.length > 80 ? `${task.slice(0, 77)}...` : task}`,
    messages: [{ role: 'user', content: { type: 'text', text: render(task, project ?? call.defaultProject, plan, outcome.meta) } }],
    _meta: outcome.meta as Record<string, unknown>,
  };
}
