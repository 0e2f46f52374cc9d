import type { ToolDef } from '../define';

/** Tools of this family (batch, architecture, schema, adr), in advertised order; registry.ts merges every family. */
export const PROJECT_TOOLS: readonly ToolDef[] = [];
