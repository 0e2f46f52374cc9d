import type { ToolDef } from '../define';

/** Tools of this family (changes, investigate_failure, context_for_task, guide), in advertised order; registry.ts merges every family. */
export const COMPOSITE_TOOLS: readonly ToolDef[] = [];
