import type { ToolDef, Toolset } from './define';
import { healthTool } from './health';
import { indexTool } from './index-tool';
import { listTool } from './list';
import { searchTool } from './search';
import { symbolTool } from './symbol';
import { symbolsTool } from './symbols';
import { contextTool } from './context';
import { readTool } from './read';
import { grepTool } from './grep';
import { findFilesTool } from './find';
import { lsTool } from './ls';
import { whyEmptyTool } from './why-empty';
import { GRAPH_TOOLS } from './groups/graph';
import { QUERY_TOOLS } from './groups/query';
import { COMPOSITE_TOOLS } from './groups/composites';
import { PROJECT_TOOLS } from './groups/project';

const ALL: readonly ToolDef[] = [
  ...([searchTool, symbolTool, symbolsTool, contextTool, readTool, grepTool, whyEmptyTool, listTool, healthTool, indexTool, findFilesTool, lsTool] as unknown as ToolDef[]),
  ...GRAPH_TOOLS,
  ...QUERY_TOOLS,
  ...COMPOSITE_TOOLS,
  ...PROJECT_TOOLS,
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
