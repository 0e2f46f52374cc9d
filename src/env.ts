/** Bindings and variables the Worker reads. Secrets arrive through `wrangler secret put`. */
export interface Env {
  DB: D1Database;
  /** Full-access bearer key (read + write). */
  PINCHER_HTTP_KEY?: string;
  /** Optional read-only bearer key; write routes answer 403 `insufficient_scope`. */
  PINCHER_READ_KEY?: string;
  /** `1` lets non-public routes run without a key. Local development only. */
  PINCHER_ALLOW_OPEN?: string;
  /** Comma-separated browser origins allowed to call the API (`*` for any). */
  PINCHER_ALLOWED_ORIGINS?: string;
  /** `heuristic` (chars/4, default) or `exact` (cl100k_base BPE). */
  PINCHER_TOKEN_ACCOUNTING?: string;
  /** `off` drops the per-call `capabilities` stamp (fetch `GET /v1/capabilities` instead). */
  PINCHER_META_CAPABILITIES?: string;
  /** `1` logs each D1 statement of a tool call with its wall time (the SQL text only, never bound values). Diagnostics. */
  PINCHER_SQL_TIMING?: string;
  /** Workers Rate Limiting binding (`[[ratelimits]]` in wrangler.toml): requests per bearer key. */
  RATE_LIMITER?: RateLimit;
  /** `off` disables the per-key rate limit. */
  PINCHER_RATE_LIMIT?: string;
  /** `off` stops the one JSON line per request (the local server sets it). */
  PINCHER_ACCESS_LOG?: string;
  /** The binding's `simple.period` (`10` or `60`, default 60), announced in Retry-After. */
  PINCHER_RATE_LIMIT_PERIOD?: string;
  /** Days of `call_log` kept by the scheduled garbage collection (default 30). */
  PINCHER_CALL_LOG_RETENTION_DAYS?: string;
  /** Newest `call_log` rows kept whatever their age (default 1,000,000). */
  PINCHER_CALL_LOG_MAX_ROWS?: string;
  /** Rows per garbage-collection delete statement (default 5,000). */
  PINCHER_GC_BATCH_ROWS?: string;
}

export type AccessScope = 'read' | 'write';

/** Per-request variables shared by middleware and routes (see hono's ContextVariableMap). */
export interface RequestVars {
  /** ULID minted for this request (`_meta.request_id`). */
  requestId: string;
  /** The client's own `X-Request-ID`, when valid (`_meta.client_request_id`). */
  clientRequestId?: string;
  startedAt: number;
  scope: AccessScope;
  /** The `error.code` of the error response sent, for the request log line. */
  errorCode?: string;
}

export type AppEnv = { Bindings: Env; Variables: RequestVars };
