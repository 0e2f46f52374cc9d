import type { Meta } from '../envelope/types';
import { VERSION } from '../version';

/**
 * One OTLP span per tool call, exported over OTLP/HTTP JSON when
 * `PINCHER_OTLP_ENDPOINT` is set. The export runs after the answer (the
 * caller hands it to `waitUntil`), is bounded in time, and never throws:
 * a collector that is down costs a log line, never a tool call.
 *
 * Span attributes mirror `_meta` (request_id, tokens_used, tokens_saved,
 * tokens_saved_pct, complexity_tier, latency_ms, empty_reason when set,
 * binary_drift_warning when set) plus the OpenTelemetry MCP names
 * (`mcp.method.name`, `gen_ai.tool.name`). A W3C `traceparent` on the
 * request makes the span a child of the caller's span.
 */

/** How long one export may take before it is abandoned. */
const EXPORT_TIMEOUT_MS = 5_000;
/** OTLP SpanKind SERVER. */
const SPAN_KIND_SERVER = 2;
/** OTLP StatusCode. */
const STATUS_OK = 1;
const STATUS_ERROR = 2;

/** The two settings the exporter reads (src/env.ts documents them). */
export interface OtlpSettings {
  PINCHER_OTLP_ENDPOINT?: string;
  PINCHER_OTLP_HEADERS?: string;
}

export interface OtlpConfig {
  /** The traces URL spans are POSTed to. */
  url: string;
  headers: Record<string, string>;
}

/**
 * The exporter's configuration, or null when spans are off. `PINCHER_OTLP_ENDPOINT`
 * is the collector's base URL (`/v1/traces` is appended, as OpenTelemetry's
 * `OTEL_EXPORTER_OTLP_ENDPOINT` does) or the full traces URL ending in `/v1/traces`.
 * `PINCHER_OTLP_HEADERS` is `key=value` pairs separated by commas, values
 * percent-encoded (OpenTelemetry's `OTEL_EXPORTER_OTLP_HEADERS` format).
 */
export function otlpConfig(env: OtlpSettings): OtlpConfig | null {
  const parsed = parseOtlp(env);
  return 'problem' in parsed ? null : parsed;
}

/** Why a set `PINCHER_OTLP_ENDPOINT`/`PINCHER_OTLP_HEADERS` exports nothing, or null (unset, or valid). */
export function otlpProblem(env: OtlpSettings): string | null {
  const parsed = parseOtlp(env);
  return 'problem' in parsed && parsed.problem ? parsed.problem : null;
}

/** The last settings read and what they gave: an isolate's settings do not change between calls. */
let last: { key: string; parsed: OtlpConfig | { problem: string | null } } | null = null;

function parseOtlp(env: OtlpSettings): OtlpConfig | { problem: string | null } {
  const key = `${env.PINCHER_OTLP_ENDPOINT ?? ''}\0${env.PINCHER_OTLP_HEADERS ?? ''}`;
  if (last?.key !== key) last = { key, parsed: readOtlp(env) };
  return last.parsed;
}

function readOtlp(env: OtlpSettings): OtlpConfig | { problem: string | null } {
  const raw = env.PINCHER_OTLP_ENDPOINT?.trim();
  if (!raw) return { problem: null };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { problem: 'PINCHER_OTLP_ENDPOINT is not a URL: no spans are exported (set it to the collector, e.g. https://otel.example.com:4318)' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { problem: `PINCHER_OTLP_ENDPOINT uses ${url.protocol}: no spans are exported (OTLP/HTTP needs an http: or https: URL)` };
  }
  if (!url.pathname.endsWith('/v1/traces')) url.pathname = `${url.pathname.replace(/\/+$/, '')}/v1/traces`;
  const headers: Record<string, string> = {};
  for (const pair of (env.PINCHER_OTLP_HEADERS ?? '').split(',')) {
    if (!pair.trim()) continue;
    const eq = pair.indexOf('=');
    const key = eq > 0 ? pair.slice(0, eq).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key)) {
      return { problem: 'PINCHER_OTLP_HEADERS is not a list of key=value pairs separated by commas: no spans are exported' };
    }
    let value: string;
    try {
      value = decodeURIComponent(pair.slice(eq + 1).trim());
    } catch {
      return { problem: `PINCHER_OTLP_HEADERS: the value of ${key} is not percent-encoded: no spans are exported` };
    }
    headers[key.toLowerCase()] = value;
  }
  return { url: url.toString(), headers };
}

export interface ToolSpan {
  tool: string;
  surface: 'mcp' | 'rest';
  startedAt: number;
  endedAt: number;
  meta: Meta;
  /** The error code when the call failed. */
  errorCode?: string;
  /** The request's W3C `traceparent` header, if any. */
  traceparent?: string;
}

type AnyValue = { stringValue: string } | { intValue: string } | { doubleValue: number } | { boolValue: boolean };
interface KeyValue {
  key: string;
  value: AnyValue;
}

/** The OTLP/HTTP JSON body (ExportTraceServiceRequest) for one tool call. */
export function spanPayload(span: ToolSpan, random: (bytes: number) => string = randomHex): Record<string, unknown> {
  const parent = parseTraceparent(span.traceparent);
  const { meta } = span;
  const attributes: KeyValue[] = [
    str('mcp.method.name', 'tools/call'),
    str('gen_ai.tool.name', span.tool),
    str('pincher.surface', span.surface),
  ];
  if (meta.request_id) attributes.push(str('request_id', meta.request_id));
  if (meta.tokens_used !== undefined) attributes.push(int('tokens_used', meta.tokens_used));
  if (meta.tokens_saved !== undefined) attributes.push(int('tokens_saved', meta.tokens_saved));
  if (meta.tokens_saved_pct !== undefined) attributes.push({ key: 'tokens_saved_pct', value: { doubleValue: meta.tokens_saved_pct } });
  if (meta.baseline_method) attributes.push(str('baseline_method', meta.baseline_method));
  if (meta.complexity_tier) attributes.push(str('complexity_tier', meta.complexity_tier));
  if (meta.latency_ms !== undefined) attributes.push(int('latency_ms', meta.latency_ms));
  if (meta.empty_reason) attributes.push(str('empty_reason', meta.empty_reason));
  if (meta.binary_drift_warning) attributes.push(str('binary_drift_warning', JSON.stringify(meta.binary_drift_warning)));
  if (meta.project_name) attributes.push(str('project_name', meta.project_name));
  if (meta.session_id) attributes.push(str('session_id', meta.session_id));
  if (span.errorCode) attributes.push(str('error.type', span.errorCode));
  return {
    resourceSpans: [
      {
        resource: { attributes: [str('service.name', 'pincher-edge'), str('service.version', VERSION)] },
        scopeSpans: [
          {
            scope: { name: 'pincher-edge', version: VERSION },
            spans: [
              {
                traceId: parent?.traceId ?? random(16),
                spanId: random(8),
                ...(parent ? { parentSpanId: parent.spanId } : {}),
                name: `tools/call ${span.tool}`,
                kind: SPAN_KIND_SERVER,
                startTimeUnixNano: nanos(span.startedAt),
                endTimeUnixNano: nanos(Math.max(span.endedAt, span.startedAt)),
                attributes,
                status: span.errorCode ? { code: STATUS_ERROR, message: span.errorCode } : { code: STATUS_OK },
              },
            ],
          },
        ],
      },
    ],
  };
}

/** POSTs the span; resolves whatever happens (a failure is one log line without the payload or headers). */
export async function exportSpan(config: OtlpConfig, span: ToolSpan): Promise<void> {
  try {
    const res = await fetch(config.url, {
      method: 'POST',
      headers: { ...config.headers, 'content-type': 'application/json' },
      body: JSON.stringify(spanPayload(span)),
      signal: AbortSignal.timeout(EXPORT_TIMEOUT_MS),
    });
    // Drain the body so the connection is released.
    await res.arrayBuffer().catch(() => undefined);
    if (!res.ok) console.error(`otlp export of ${span.tool} span answered ${res.status}`);
  } catch (err) {
    console.error(`otlp export of ${span.tool} span failed: ${err instanceof Error ? err.name : 'error'}`);
  }
}

/** `00-<32 hex trace id>-<16 hex span id>-<2 hex flags>`, ids not all zero (W3C Trace Context). */
export function parseTraceparent(header: string | undefined): { traceId: string; spanId: string } | null {
  const m = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(header?.trim().toLowerCase() ?? '');
  if (!m || m[1] === 'ff' || /^0+$/.test(m[2]) || /^0+$/.test(m[3])) return null;
  return { traceId: m[2], spanId: m[3] };
}

function randomHex(bytes: number): string {
  const buf = crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(buf, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Unix milliseconds as the decimal string of Unix nanoseconds (OTLP JSON encodes 64-bit integers as strings). */
function nanos(ms: number): string {
  return (BigInt(Math.round(ms * 1000)) * 1000n).toString();
}

const str = (key: string, value: string): KeyValue => ({ key, value: { stringValue: value } });
const int = (key: string, value: number): KeyValue => ({ key, value: { intValue: String(Math.round(value)) } });
