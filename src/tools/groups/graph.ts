import type { ToolDef } from '../define';

/** Tools of this family (trace, neighborhood, dead_code, plan_change), in advertised order; registry.ts merges every family. */
export const GRAPH_TOOLS: readonly ToolDef[] = [];
