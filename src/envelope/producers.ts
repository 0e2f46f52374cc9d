import type { MetaCollector } from './collector';
import type { ComplexityTier, Meta, MetaKey } from './types';
import { countTokens, type TokenMode } from './tokens';
import { SCHEMA_VERSION } from '../version';

/** Everything the producers may read. Built by the seam after the handler ran. */
export interface StampInput {
  /** ULID minted for this request. */
  requestId: string;
  /** The id the client sent in `X-Request-ID`, when it sent a valid one. */
  clientRequestId?: string;
  startedAt: number;
  now: number;
  collector: MetaCollector;
  tier?: ComplexityTier;
  /** The serialized payload the caller receives (result or error body). */
  payloadText: string;
  tokenMode: TokenMode;
  /** null when the per-call stamp is turned off. */
  capabilities: string[] | null;
  /** Highest applied migration in D1; null when unknown. */
  storedSchemaVersion: number | null;
  /** Tools that exist; next_steps naming anything else are dropped. */
  knownTools: ReadonlySet<string>;
}

/** A producer owns a fixed set of top-level keys and writes nothing else. */
export interface Producer {
  name: string;
  keys: readonly MetaKey[];
  produce(input: StampInput): Partial<Meta>;
}

const identity: Producer = {
  name: 'identity',
  keys: ['request_id', 'client_request_id'],
  produce: (i) => ({ request_id: i.requestId, ...(i.clientRequestId ? { client_request_id: i.clientRequestId } : {}) }),
};

const timing: Producer = {
  name: 'timing',
  keys: ['latency_ms'],
  produce: (i) => ({ latency_ms: Math.max(0, i.now - i.startedAt) }),
};

/**
 * tokens_used = tokens of what the caller receives; tokens_saved =
 * max(0, baseline − used); tokens_saved_pct = 100·saved/(saved+used), one
 * decimal. Always numbers: with baseline `none` (or none computed) and on an
 * empty answer (it delivered nothing the baseline would have) both are 0.
 */
const cost: Producer = {
  name: 'cost',
  keys: ['tokens_used', 'tokens_saved', 'tokens_saved_pct', 'baseline_method', 'savings_scope'],
  produce: (i) => {
    const used = countTokens(i.payloadText, i.tokenMode);
    const method = i.collector.baselineMethod ?? 'none';
    const baseline = i.collector.baselineTokens;
    const savingsScope = i.collector.savingsScope ?? (i.collector.sessionId ? 'session' : 'call');
    // No baseline computed (errors, early returns) is the same as `none`: never name a method whose baseline is unknown.
    if (method === 'none' || baseline === undefined) {
      return { tokens_used: used, tokens_saved: 0, tokens_saved_pct: 0, baseline_method: 'none', savings_scope: savingsScope };
    }
    if (i.collector.emptyReason) return { tokens_used: used, tokens_saved: 0, tokens_saved_pct: 0, baseline_method: method, savings_scope: savingsScope };
    const saved = Math.max(0, baseline - used);
    const pct = saved + used === 0 ? 0 : Math.round((1000 * saved) / (saved + used)) / 10;
    return { tokens_used: used, tokens_saved: saved, tokens_saved_pct: pct, baseline_method: method, savings_scope: savingsScope };
  },
};

/** The cost producer alone: a surface that renders more than the payload re-counts with it. */
export const COST_PRODUCER = cost;

const tier: Producer = {
  name: 'tier',
  keys: ['complexity_tier'],
  produce: (i) => (i.tier ? { complexity_tier: i.tier } : {}),
};

const diagnosis: Producer = {
  name: 'diagnosis',
  keys: ['empty_reason', 'diagnosis', 'diagnosis_v2'],
  produce: (i) => {
    const c = i.collector;
    const out: Partial<Meta> = {};
    if (c.emptyReason) out.empty_reason = c.emptyReason;
    if (c.diagnosis) out.diagnosis = c.diagnosis;
    if (c.diagnoses.length) out.diagnosis_v2 = c.diagnoses;
    return out;
  },
};

const steering: Producer = {
  name: 'steering',
  keys: ['next_steps'],
  produce: (i) => {
    const steps = i.collector.nextSteps.filter((s) => i.knownTools.has(s.tool));
    return steps.length ? { next_steps: steps } : {};
  },
};

const warnings: Producer = {
  name: 'warnings',
  keys: ['warnings', 'warnings_v2'],
  produce: (i) => {
    const w = i.collector.warnings;
    return w.length ? { warnings: w.map((e) => `${e.code}: ${e.message}`), warnings_v2: w } : {};
  },
};

const capabilities: Producer = {
  name: 'capabilities',
  keys: ['capabilities'],
  produce: (i) => (i.capabilities ? { capabilities: i.capabilities } : {}),
};

/**
 * schema_version is the schema this code was built for; binary_drift_warning
 * appears only when D1 has migrations this Worker does not know (a rollback or
 * a rolling deploy); schema_version_at_index only on project-scoped calls.
 */
const drift: Producer = {
  name: 'drift',
  keys: ['schema_version', 'schema_version_at_index', 'binary_drift_warning'],
  produce: (i) => {
    const out: Partial<Meta> = { schema_version: SCHEMA_VERSION };
    const p = i.collector.project;
    if (p && p.schemaVersionAtIndex !== null) out.schema_version_at_index = p.schemaVersionAtIndex;
    if (i.storedSchemaVersion !== null && i.storedSchemaVersion > SCHEMA_VERSION) {
      out.binary_drift_warning = {
        stored_version: i.storedSchemaVersion,
        running_version: SCHEMA_VERSION,
        remediation:
          'the database was migrated by a newer release than this Worker; deploy the matching release (wrangler deploy) before relying on results',
      };
    }
    return out;
  },
};

const scope: Producer = {
  name: 'scope',
  keys: ['project_id', 'project_name'],
  produce: (i) => {
    const p = i.collector.project;
    return p ? { project_id: p.id, project_name: p.name } : {};
  },
};

const session: Producer = {
  name: 'session',
  keys: ['session_id'],
  produce: (i) => (i.collector.sessionId ? { session_id: i.collector.sessionId } : {}),
};

/** The key → producer registry (docs/envelope.md lists the same table). */
export const PRODUCERS: Producer[] = [
  identity,
  cost,
  tier,
  timing,
  diagnosis,
  steering,
  warnings,
  capabilities,
  drift,
  scope,
  session,
];
