import { PincherError } from '../errors';
import { didYouMean } from '../util/did-you-mean';
import type { ToolDef, ToolRegistry, Toolset } from './define';
import { adrTool, adrWriteTool } from './adr';
import { architectureTool } from './architecture';
import { batchTool } from './batch';
import { changesTool } from './changes';
import { contextTool } from './context';
import { contextForTaskTool } from './context-for-task';
import { deadCodeTool } from './dead-code';
import { findFilesTool } from './find';
import { grepTool } from './grep';
import { guideTool } from './guide';
import { healthTool } from './health';
import { indexTool } from './index-tool';
import { investigateFailureTool } from './investigate-failure';
import { listTool } from './list';
import { lsTool } from './ls';
import { neighborhoodTool } from './neighborhood';
import { planChangeTool } from './plan-change';
import { queryTool } from './query';
import { readTool } from './read';
import { schemaTool } from './schema-tool';
import { searchTool } from './search';
import { symbolTool } from './symbol';
import { symbolsTool } from './symbols';
import { traceTool } from './trace';
import { whyEmptyTool } from './why-empty';

/** Every tool, registered here and nowhere else, by family: core, graph, query (pinchQL), composites, project. */
const ALL: readonly ToolDef[] = [
  searchTool, symbolTool, symbolsTool, contextTool, readTool, grepTool, whyEmptyTool, listTool, healthTool, indexTool, findFilesTool, lsTool,
  traceTool, neighborhoodTool, deadCodeTool, planChangeTool,
  queryTool,
  changesTool, investigateFailureTool, contextForTaskTool, guideTool,
  batchTool, architectureTool, schemaTool, adrTool, adrWriteTool,
];

/** Advertised order: the core tools an agent reaches for first, then the rest in family order. */
const ORDER = ['search', 'symbol', 'symbols', 'context', 'read', 'grep', 'trace', 'batch', 'guide', 'why_empty', 'list'];
const rank = (name: string) => (ORDER.includes(name) ? ORDER.indexOf(name) : ORDER.length);

/** Every tool, in advertised order. MCP and REST both serve exactly this list. */
export const TOOLS: readonly ToolDef[] = ALL.map((t, i) => ({ t, i }))
  .sort((a, b) => rank(a.t.name) - rank(b.t.name) || a.i - b.i)
  .map(({ t }) => t);

export const TOOL_NAMES: ReadonlySet<string> = new Set(TOOLS.map((t) => t.name));

export function findTool(name: string): ToolDef | undefined {
  return TOOLS.find((t) => t.name === name);
}

/** Tools advertised for a toolset: `core` lists core tools, `full` lists all. All stay callable. */
export function advertisedTools(toolset: Toolset): ToolDef[] {
  return TOOLS.filter((t) => toolset === 'full' || t.toolset === 'core');
}

/** Tools a read-only key may call (next_steps for such callers name only these). */
export const READ_TOOL_NAMES: ReadonlySet<string> = new Set(TOOLS.filter((t) => t.annotations.readOnlyHint).map((t) => t.name));

/** The registry as the seam hands it to handlers (ToolContext.registry). */
export const REGISTRY: ToolRegistry = { tools: TOOLS, names: TOOL_NAMES, readNames: READ_TOOL_NAMES, find: findTool };

/** The error for a tool name the registry does not hold, with the nearest name when one is close. */
export function unknownTool(name: string): PincherError {
  const names = TOOLS.map((t) => t.name);
  const guess = didYouMean(name, names);
  return new PincherError('unknown_tool', `no tool named '${name.slice(0, 100)}'`, {
    suggestion: guess ? `did you mean '${guess}'? GET /v1/tools lists every tool` : 'GET /v1/tools lists every tool',
    details: { available: names, ...(guess ? { did_you_mean: guess } : {}) },
  });
}
