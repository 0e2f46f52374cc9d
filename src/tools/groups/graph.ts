import type { ToolDef } from '../define';
import { deadCodeTool } from '../dead-code';
import { neighborhoodTool } from '../neighborhood';
import { planChangeTool } from '../plan-change';
import { traceTool } from '../trace';

/** Tools of this family (trace, neighborhood, dead_code, plan_change), in advertised order; registry.ts merges every family. */
export const GRAPH_TOOLS: readonly ToolDef[] = [traceTool, neighborhoodTool, deadCodeTool, planChangeTool] as unknown as ToolDef[];
