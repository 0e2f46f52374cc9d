import type { Env } from '../env';
import { SCHEMA_VERSION } from '../version';
import { otlpConfig } from '../telemetry/otlp';
import { tokenMode } from './tokens';

/**
 * Capability tags true on this deployment. Each tag has a runtime probe in
 * test/worker/capabilities.test.ts that exercises what it promises.
 */
export function computeCapabilities(env: Env): string[] {
  const tags = [
    `schema_v${SCHEMA_VERSION}`,
    'binary_drift_warning',
    'tokens_used_envelope',
    'tokens_saved_pct',
    'complexity_tier',
    'standardized_error_envelope',
    'idempotency_declared',
    'streamable_http',
    'mcp_stateless_2026',
    'rest_twin',
    'openapi',
    'metrics_prometheus',
    'mcp_prompts',
    'sse',
    'mcp_logging',
  ];
  if (env.PINCHER_HTTP_KEY) tags.push('http_auth');
  if (env.PINCHER_HTTP_KEY && env.PINCHER_READ_KEY) tags.push('read_only_key');
  if (tokenMode(env.PINCHER_TOKEN_ACCOUNTING) === 'exact') tags.push('token_accounting_exact');
  if (otlpConfig(env)) tags.push('traces_otlp');
  return tags;
}

export function capabilitiesStampEnabled(env: Env): boolean {
  return (env.PINCHER_META_CAPABILITIES ?? '').toLowerCase() !== 'off';
}
