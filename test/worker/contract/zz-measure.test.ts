import { it } from 'vitest';
import { advertisedTools, TOOLS } from '../../../src/tools/registry';
import { advertisedAnnotations, advertisedInputSchema, advertisedOutputSchema } from '../../../src/tools/describe';
import type { ToolDef } from '../../../src/tools/define';
const view = (t: ToolDef) => ({ name: t.name, description: t.description, inputSchema: advertisedInputSchema(t), outputSchema: advertisedOutputSchema(t), annotations: advertisedAnnotations(t) });
it('measures', () => {
  const out = ['core total ' + Math.ceil(JSON.stringify({ tools: advertisedTools('core').map(view) }).length / 4)];
  for (const t of TOOLS) out.push(`${t.name} ${t.toolset} ${Math.ceil(JSON.stringify(view(t)).length / 4)} desc=${Math.ceil(JSON.stringify(view(t).description).length / 4)}`);
  console.log(out.join('\n'));
});
