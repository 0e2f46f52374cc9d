import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MetaCollector } from '../../../src/envelope/collector';
import { PRODUCERS, type Producer, type StampInput } from '../../../src/envelope/producers';
import { stampMeta } from '../../../src/envelope/stamp';
import { META_KEYS } from '../../../src/envelope/types';
import { SCHEMA_VERSION } from '../../../src/version';
import { deleteProjects, insertProjects, metaKeys, patched, restCall, type Json } from './support';

const PROJECT = 'isolation-proj';

/**
 * Two real calls that between them make every producer emit: a scoped health
 * call (drift, scope) and an empty, typo'd health call (diagnosis, steering,
 * warnings). Both carry a fixed request id and a session header.
 */
const CALLS: { label: string; args: Json }[] = [
  { label: 'health scoped to an indexed project', args: { project: PROJECT } },
  { label: 'health on an unknown project with a typo', args: { project: 'isolation-missing', projcet: 'x' } },
];
const HEADERS = { 'x-request-id': 'isolation-req', 'x-pincher-session': 'isolation-sess' };

beforeAll(async () => {
  await insertProjects([{ name: PROJECT, schemaVersionAtIndex: SCHEMA_VERSION }]);
});
afterAll(async () => {
  await deleteProjects([PROJECT]);
});

function producer(name: string): Producer {
  const p = PRODUCERS.find((x) => x.name === name);
  if (!p) throw new Error(`no producer named ${name}`);
  return p;
}

const throwing = (): never => {
  throw new Error('producer exploded');
};

/** Keys whose values legitimately differ between two identical calls. */
// request_id is a fresh ULID per call; the client's X-Request-ID rides in client_request_id, compared below.
const VOLATILE = new Set(['latency_ms', 'request_id']);

describe('a throwing producer loses only its own keys', () => {
  it('the two probe calls together exercise every producer', async () => {
    const emitted = new Set<string>();
    for (const c of CALLS) for (const k of metaKeys((await restCall('health', c.args, { headers: HEADERS })).body._meta)) emitted.add(k);
    for (const p of PRODUCERS) {
      expect(p.keys.some((k) => emitted.has(k)), `producer ${p.name} emitted nothing on the probe calls`).toBe(true);
    }
  });

  // cost and drift are the ones the brief names; every other producer gets the same treatment.
  for (const p of PRODUCERS) {
    for (const c of CALLS) {
      it(`${p.name} throwing: ${c.label} still answers 200 with every other key intact`, async () => {
        const clean = await restCall('health', c.args, { headers: HEADERS });
        expect(clean.status).toBe(200);
        const before = clean.body._meta as Json;

        const broken = await patched(producer(p.name), 'produce', throwing, () => restCall('health', c.args, { headers: HEADERS }));
        expect(broken.status).toBe(200);
        expect(broken.body.result).toEqual(clean.body.result);
        const after = broken.body._meta as Json;

        for (const key of p.keys) expect(after).not.toHaveProperty(key);
        const expected = metaKeys(before).filter((k) => !(p.keys as readonly string[]).includes(k));
        expect(metaKeys(after)).toEqual(expected);
        for (const key of expected) {
          if (!VOLATILE.has(key)) expect({ key, value: after[key] }).toEqual({ key, value: before[key] });
        }
      });
    }
  }

  it('restores the producer afterwards (the next call is whole again)', async () => {
    await patched(producer('cost'), 'produce', throwing, () => restCall('list', {}));
    const after = await restCall('list', {});
    expect(after.body._meta).toHaveProperty('tokens_used');
  });

  it('keeps MCP calls alive too: cost throwing drops tokens_* from result._meta only', async () => {
    const { mcpTool } = await import('./support');
    const call = await patched(producer('cost'), 'produce', throwing, () => mcpTool('2025', 'list', {}));
    expect(call.result?.isError).toBeUndefined();
    expect(call.result?._meta).not.toHaveProperty('tokens_used');
    expect(call.result?._meta).toHaveProperty('request_id');
    expect(call.result?._meta).toHaveProperty('schema_version');
  });
});

describe('stampMeta', () => {
  function input(): StampInput {
    return {
      requestId: 'r-1',
      startedAt: 0,
      now: 5,
      collector: new MetaCollector(),
      payloadText: '{}',
      tokenMode: 'heuristic',
      capabilities: null,
      storedSchemaVersion: null,
      knownTools: new Set(),
    };
  }

  it('ignores keys a producer emits but does not own', () => {
    const rogue: Producer = {
      name: 'rogue',
      keys: ['request_id'],
      produce: () => ({ request_id: 'mine', tokens_used: 999, session_id: 'stolen' }) as never,
    };
    expect(stampMeta(input(), [rogue])).toEqual({ request_id: 'mine' });
  });

  it('does not let a rogue producer overwrite a key owned by an earlier producer', () => {
    const owner: Producer = { name: 'owner', keys: ['session_id'], produce: () => ({ session_id: 'real' }) };
    const rogue: Producer = { name: 'rogue', keys: ['request_id'], produce: () => ({ request_id: 'r', session_id: 'fake' }) };
    expect(stampMeta(input(), [owner, rogue]).session_id).toBe('real');
    expect(stampMeta(input(), [rogue, owner]).session_id).toBe('real');
  });

  it('drops only the keys of a producer that throws', () => {
    const ok: Producer = { name: 'ok', keys: ['request_id'], produce: () => ({ request_id: 'kept' }) };
    const bad: Producer = { name: 'bad', keys: ['session_id'], produce: throwing };
    expect(stampMeta(input(), [bad, ok])).toEqual({ request_id: 'kept' });
  });

  it('omits keys whose producer returns undefined (missing means not applicable)', () => {
    const p: Producer = { name: 'p', keys: ['session_id', 'request_id'], produce: () => ({ session_id: undefined, request_id: 'x' }) };
    expect(Object.keys(stampMeta(input(), [p]))).toEqual(['request_id']);
  });

  it('emits keys in the contract order whatever the producer order', () => {
    const meta = stampMeta(input(), [...PRODUCERS].reverse());
    const order = Object.keys(meta);
    const expected = META_KEYS.filter((k) => order.includes(k));
    expect(order).toEqual(expected);
  });
});
