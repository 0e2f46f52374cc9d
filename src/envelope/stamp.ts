import { PRODUCERS, type Producer, type StampInput } from './producers';
import { META_KEYS, type Meta } from './types';

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
