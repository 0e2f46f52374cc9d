import { schemaState } from '../db/migrations';
import type { Env } from '../env';
import { computeCapabilities, capabilitiesStampEnabled } from './capabilities';
import type { MetaCollector } from './collector';
import { COST_PRODUCER, PRODUCERS, type Producer, type StampInput } from './producers';
import { prepareTokens, tokenMode } from './tokens';
import { META_KEYS, type ComplexityTier, type Meta } from './types';

/** The request-level facts a stamp reads (a tool call's CallContext carries them too). */
export interface StampedCall {
  env: Env;
  requestId: string;
  clientRequestId?: string;
  startedAt: number;
}

/**
 * Builds `_meta` by merging each producer's own keys. A producer that throws
 * loses only its keys; a key a producer does not own is ignored. Keys come
 * out in the contract's order.
 */
export function stampMeta(input: StampInput, producers: readonly Producer[] = PRODUCERS): Meta {
  const merged: Record<string, unknown> = {};
  for (const producer of producers) {
    try {
      const out = producer.produce(input) as Record<string, unknown>;
      for (const key of producer.keys) {
        if (out[key] !== undefined) merged[key] = out[key];
      }
    } catch (err) {
      // Producer isolation: report which producer failed, never the payload.
      console.error(`meta producer '${producer.name}' failed: ${err instanceof Error ? err.name : 'error'}`);
    }
  }
  const meta: Record<string, unknown> = {};
  for (const key of META_KEYS) if (key in merged) meta[key] = merged[key];
  return meta as Meta;
}

/**
 * Stamps `_meta` for any response, tool call or not (errors, probes, uploads):
 * the same producers, so every response shares one envelope.
 */
export async function stampCall(
  call: StampedCall,
  collector: MetaCollector,
  payload: unknown,
  /** Tools next_steps may name: a read-only caller is never steered to a write tool. */
  knownTools: ReadonlySet<string>,
  tier?: ComplexityTier,
  /** What the model receives given the stamped envelope, when it is more than the JSON payload. */
  render?: (meta: Meta) => string,
  /** `JSON.stringify(payload)`, when the caller already made it (it sends that text on). */
  payloadText: string = JSON.stringify(payload),
): Promise<Meta> {
  const [state] = await Promise.all([schemaState(call.env.DB), prepareTokens(tokenMode(call.env.PINCHER_TOKEN_ACCOUNTING))]);
  const input: StampInput = {
    requestId: call.requestId,
    clientRequestId: call.clientRequestId,
    startedAt: call.startedAt,
    now: Date.now(),
    collector,
    tier,
    payloadText,
    tokenMode: tokenMode(call.env.PINCHER_TOKEN_ACCOUNTING),
    capabilities: capabilitiesStampEnabled(call.env) ? computeCapabilities(call.env) : null,
    storedSchemaVersion: state.applied,
    knownTools,
  };
  const meta = stampMeta(input);
  // The rendering depends on the envelope (notice, next steps), so the cost is counted once it exists.
  if (render) Object.assign(meta, stampMeta({ ...input, payloadText: render(meta) }, [COST_PRODUCER]));
  return meta;
}
