import type { NextStep } from '../envelope/types';
import type { ToolContext } from './define';

/** What routing a step needs: the client's advertised tools and the registry. */
type Reach = Pick<ToolContext, 'advertised' | 'registry'>;

/**
 * A step the client can call with the tools it was shown. Hosts call only
 * advertised tools: a step naming a read tool outside the client's list goes
 * through `batch` (advertised in every list) with the same arguments; a step
 * no advertised tool can carry (a write tool) is dropped. Without an
 * advertised set (REST serves and documents every tool) the step stands.
 *
 * @example
 * reachable({ tool: 'health', args: {}, why: 'see failures' }, { advertised: new Set(['batch']), registry });
 * // → { tool: 'batch', args: { calls: [{ tool: 'health', args: {} }] }, why: 'see failures (health through batch: …)' }
 */
export function reachable<S extends NextStep>(step: S, { advertised, registry }: Reach): S | NextStep | null {
  if (!advertised || advertised.has(step.tool)) return step;
  const tool = registry.find(step.tool);
  if (!tool || !tool.annotations.readOnlyHint || tool.name === 'batch' || !advertised.has('batch')) return null;
  return {
    tool: 'batch',
    args: { calls: [{ tool: step.tool, args: step.args }] },
    why: `${step.why} (${step.tool} through batch: it is not in the advertised tool list)`,
  };
}

/** Every step made reachable (see reachable); unreachable ones left out. */
export function reachableSteps<S extends NextStep>(steps: readonly S[], reach: Reach): (S | NextStep)[] {
  return steps.flatMap((s) => {
    const r = reachable(s, reach);
    return r ? [r] : [];
  });
}
