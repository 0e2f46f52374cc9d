import type { ToolDef } from '../define';

/** Tools of this family (query (pinchQL)), in advertised order; registry.ts merges every family. */
export const QUERY_TOOLS: readonly ToolDef[] = [];
