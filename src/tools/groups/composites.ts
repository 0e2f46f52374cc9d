import type { ToolDef } from '../define';
import { changesTool } from '../changes';
import { contextForTaskTool } from '../context-for-task';
import { guideTool } from '../guide';
import { investigateFailureTool } from '../investigate-failure';

/** Tools of this family (changes, investigate_failure, context_for_task, guide), in advertised order; registry.ts merges every family. */
export const COMPOSITE_TOOLS: readonly ToolDef[] = [changesTool, investigateFailureTool, contextForTaskTool, guideTool] as unknown as ToolDef[];
