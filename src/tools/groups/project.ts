import type { ToolDef } from '../define';
import { adrTool, adrWriteTool } from '../adr';
import { architectureTool } from '../architecture';
import { batchTool } from '../batch';
import { schemaTool } from '../schema-tool';

/** Tools of this family (batch, architecture, schema, adr, adr_write), in advertised order; registry.ts merges every family. */
export const PROJECT_TOOLS: readonly ToolDef[] = [batchTool, architectureTool, schemaTool, adrTool, adrWriteTool] as unknown as ToolDef[];
