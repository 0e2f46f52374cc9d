import type { ToolDef, Toolset } from './define';
import { healthTool } from './health';
import { indexTool } from './index-tool';
import { listTool } from './list';
import { whyEmptyTool } from './why-empty';

/** Every tool, in advertised order. MCP and REST both serve exactly this list. */
export const TOOLS: readonly ToolDef[] = [whyEmptyTool, listTool, healthTool, indexTool] as unknown as readonly ToolDef[];

export const TOOL_NAMES: ReadonlySet<string> = new Set(TOOLS.map((t) => t.name));

export function findTool(name: string): ToolDef | undefined {
  return TOOLS.find((t) => t.name === name);
}

/** Tools advertised for a toolset: `core` lists core tools, `full` lists all. All stay callable. */
export function advertisedTools(toolset: Toolset): ToolDef[] {
  return TOOLS.filter((t) => toolset === 'full' || t.toolset === 'core');
}
