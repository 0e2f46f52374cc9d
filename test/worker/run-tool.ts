import type { Env } from '../../src/env';
import { REGISTRY } from '../../src/tools/registry';
import { runTool, type ToolOutcome } from '../../src/tools/run';

/**
 * Runs a read tool in this isolate through the tool seam (runTool) with `env`, as the REST surface would: the
 * outcome carries the call's D1 round trips (`reads`), and `env` may be one whose bindings the test wraps or leaves out.
 */
export function runRead(env: Env, name: string, args: unknown): Promise<ToolOutcome> {
  return runTool(REGISTRY.find(name)!, args, { env, requestId: 'test', startedAt: Date.now(), scope: 'read', surface: 'rest', waitUntil: () => {}, registry: REGISTRY });
}
