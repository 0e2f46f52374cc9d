import type { ToolDef } from '../define';
import { queryTool } from '../query';

/** Tools of this family (query (pinchQL)), in advertised order; registry.ts merges every family. */
export const QUERY_TOOLS: readonly ToolDef[] = [queryTool] as unknown as ToolDef[];
