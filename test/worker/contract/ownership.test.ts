import { describe, expect, it } from 'vitest';
import { MetaCollector } from '../../../src/envelope/collector';
import { PRODUCERS, type StampInput } from '../../../src/envelope/producers';
import { META_KEYS } from '../../../src/envelope/types';
import { SCHEMA_VERSION } from '../../../src/version';
import { CONTRACT_FIELDS } from './support';

// Vite inlines the file at build time; an empty record means the page does not exist yet.
const docs = import.meta.glob('../../../docs/envelope.md', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;
const ENVELOPE_DOC = Object.values(docs)[0];

/** A stamp input where every fact a producer can read is present, so every producer emits all it can. */
function richInput(): StampInput {
  const collector = new MetaCollector();
  collector
    .empty('no_results_in_corpus', 'nothing matched')
    .diagnose('unknown_arg', 'info', 'ignored x')
    .warn('stale_index', 'indexed under an older schema')
    .next('list', {}, 'see projects')
    .baseline('walk_directory', 1000)
    .scope({ id: 'p1', name: 'proj', schemaVersionAtIndex: SCHEMA_VERSION - 1 });
  collector.sessionId = 'sess-1';
  return {
    requestId: 'req-1',
    clientRequestId: 'client-1',
    startedAt: 1000,
    now: 1010,
    collector,
    tier: 'lite',
    payloadText: '{"x":1}',
    tokenMode: 'heuristic',
    capabilities: ['schema_v1'],
    storedSchemaVersion: SCHEMA_VERSION + 1,
    knownTools: new Set(['list']),
  };
}

describe('one owner per _meta key', () => {
  it('META_KEYS is exactly the contract field list, in the contract order', () => {
    expect([...META_KEYS]).toEqual([...CONTRACT_FIELDS]);
  });

  it('gives producers disjoint key sets', () => {
    const owner = new Map<string, string>();
    for (const p of PRODUCERS) {
      for (const key of p.keys) {
        expect(owner.has(key), `${key} is owned by both ${owner.get(key)} and ${p.name}`).toBe(false);
        owner.set(key, p.name);
      }
    }
  });

  it('covers every META_KEYS key with some producer, and owns nothing outside it', () => {
    const union = PRODUCERS.flatMap((p) => [...p.keys]).sort();
    expect(union).toEqual([...META_KEYS].sort());
  });

  it('has unique producer names', () => {
    const names = PRODUCERS.map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('lets no producer emit a key it does not own, even with every input fact present', () => {
    const input = richInput();
    for (const p of PRODUCERS) {
      const out = Object.keys(p.produce(input));
      for (const key of out) expect(p.keys, `producer ${p.name} emitted ${key}`).toContain(key);
    }
  });

  it('makes every key reachable: the rich input yields all of META_KEYS across the producers', () => {
    const input = richInput();
    const emitted = new Set(PRODUCERS.flatMap((p) => Object.keys(p.produce(input))));
    expect([...emitted].sort()).toEqual([...META_KEYS].sort());
  });
});

describe('docs/envelope.md', () => {
  if (!ENVELOPE_DOC) {
    it.todo('lists every _meta key with its producer (docs/envelope.md does not exist yet)');
    return;
  }

  function section(doc: string): string {
    return doc.split(/^## /m).find((s) => /^Producers/i.test(s)) ?? '';
  }

  /** key → producer, read from the producers section's table rows `| \`key\`[, \`key\`] | producer | … |`. */
  function documentedOwners(doc: string): Map<string, string> {
    const owners = new Map<string, string>();
    for (const line of section(doc).split('\n')) {
      const cells = line.split('|').map((c) => c.trim());
      if (cells.length < 4) continue;
      const keys = [...cells[1].matchAll(/`([a-z_0-9]+)`/g)].map((m) => m[1]);
      const producer = cells[2];
      if (!keys.length || !/^[a-z_]+$/.test(producer)) continue;
      for (const k of keys) owners.set(k, producer);
    }
    return owners;
  }

  it('lists every _meta key with the producer that owns it in code', () => {
    const documented = documentedOwners(ENVELOPE_DOC);
    const inCode = new Map(PRODUCERS.flatMap((p) => p.keys.map((k) => [k as string, p.name] as const)));
    expect(section(ENVELOPE_DOC)).not.toBe('');
    expect([...documented.keys()].sort()).toEqual([...META_KEYS].sort());
    for (const [key, producer] of inCode) expect({ key, producer: documented.get(key) }).toEqual({ key, producer });
  });
});
