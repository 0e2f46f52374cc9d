import { describe, expect, it } from 'vitest';
import { otlpConfig, otlpProblem, parseTraceparent, spanPayload } from '../../../src/telemetry/otlp';

describe('otlpConfig', () => {
  it('is off without an endpoint, and says nothing about it', () => {
    expect(otlpConfig({})).toBeNull();
    expect(otlpConfig({ PINCHER_OTLP_ENDPOINT: '  ' })).toBeNull();
    expect(otlpProblem({})).toBeNull();
  });

  it('appends /v1/traces to a base URL and keeps a full traces URL', () => {
    expect(otlpConfig({ PINCHER_OTLP_ENDPOINT: 'https://otel.example:4318' })?.url).toBe('https://otel.example:4318/v1/traces');
    expect(otlpConfig({ PINCHER_OTLP_ENDPOINT: 'https://otel.example/otlp/' })?.url).toBe('https://otel.example/otlp/v1/traces');
    expect(otlpConfig({ PINCHER_OTLP_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' })?.url).toBe('http://127.0.0.1:4318/v1/traces');
  });

  it('reads OTEL-style headers, values percent-decoded, names lower-cased', () => {
    const config = otlpConfig({ PINCHER_OTLP_ENDPOINT: 'https://otel.example', PINCHER_OTLP_HEADERS: 'X-Api-Key=a%2Cb , dataset=prod,' });
    expect(config?.headers).toEqual({ 'x-api-key': 'a,b', dataset: 'prod' });
  });

  it('refuses what it cannot export to, and names the setting', () => {
    for (const endpoint of ['otel.example:4318', 'not a url', 'ftp://otel.example']) {
      expect(otlpConfig({ PINCHER_OTLP_ENDPOINT: endpoint }), endpoint).toBeNull();
      expect(otlpProblem({ PINCHER_OTLP_ENDPOINT: endpoint }), endpoint).toMatch(/^PINCHER_OTLP_ENDPOINT/);
    }
    for (const headers of ['novalue', '=x', 'bad key=1', 'k=%E0%A4%A']) {
      const env = { PINCHER_OTLP_ENDPOINT: 'https://otel.example', PINCHER_OTLP_HEADERS: headers };
      expect(otlpConfig(env), headers).toBeNull();
      expect(otlpProblem(env), headers).toMatch(/^PINCHER_OTLP_HEADERS/);
    }
  });
});

describe('parseTraceparent', () => {
  it('reads a W3C traceparent', () => {
    expect(parseTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')).toEqual({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' });
  });

  it('ignores invalid ones: version ff, all-zero ids, wrong lengths, absent', () => {
    for (const header of [
      'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      '00-00000000000000000000000000000000-00f067aa0ba902b7-01',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01',
      '00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01',
      'garbage',
      undefined,
    ]) {
      expect(parseTraceparent(header), String(header)).toBeNull();
    }
  });
});

describe('spanPayload', () => {
  const base = { tool: 'search', surface: 'rest' as const, startedAt: 1_700_000_000_123.5, endedAt: 1_700_000_000_150 };

  it('encodes times as Unix nanoseconds in strings and leaves unset envelope fields out', () => {
    const payload = spanPayload({ ...base, meta: { request_id: '01J0000000000000000000000A', tokens_used: 12, tokens_saved_pct: 87.5 } }, (n) => 'ab'.repeat(n)) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    const span = payload.resourceSpans[0].scopeSpans[0].spans[0];
    expect(span.startTimeUnixNano).toBe('1700000000123500000');
    expect(span.endTimeUnixNano).toBe('1700000000150000000');
    expect(span.traceId).toBe('ab'.repeat(16));
    expect(span.spanId).toBe('ab'.repeat(8));
    const keys = span.attributes.map((a: { key: string }) => a.key);
    expect(keys).toEqual(['mcp.method.name', 'gen_ai.tool.name', 'pincher.surface', 'request_id', 'tokens_used', 'tokens_saved_pct']);
    expect(span.attributes).toContainEqual({ key: 'tokens_used', value: { intValue: '12' } });
    expect(span.attributes).toContainEqual({ key: 'tokens_saved_pct', value: { doubleValue: 87.5 } });
  });

  it('carries empty_reason and binary_drift_warning when set', () => {
    const drift = { stored_version: 11, running_version: 10, remediation: 'deploy' };
    const payload = spanPayload({ ...base, meta: { empty_reason: 'no_results_in_corpus', binary_drift_warning: drift } as never }) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    const attrs = payload.resourceSpans[0].scopeSpans[0].spans[0].attributes;
    expect(attrs).toContainEqual({ key: 'empty_reason', value: { stringValue: 'no_results_in_corpus' } });
    expect(attrs).toContainEqual({ key: 'binary_drift_warning', value: { stringValue: JSON.stringify(drift) } });
  });
});
