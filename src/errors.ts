import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * The closed list of public error codes and the HTTP status each maps to.
 * Every failure a client can see carries one of these codes.
 */
export const ERROR_CODES = {
  invalid_json_body: 400,
  invalid_params: 400,
  invalid_request: 400,
  unauthorized: 401,
  insufficient_scope: 403,
  origin_not_allowed: 403,
  host_not_allowed: 403,
  auth_not_configured: 403,
  not_found: 404,
  unknown_tool: 404,
  unknown_empty_reason: 400,
  project_not_found: 404,
  unknown_shard: 404,
  upload_not_found: 404,
  move_not_found: 404,
  method_not_allowed: 405,
  push_in_progress: 409,
  upload_incomplete: 409,
  upload_superseded: 409,
  project_moving: 409,
  already_on_shard: 409,
  move_source_changed: 409,
  body_too_large: 413,
  unsupported_media_type: 415,
  hash_mismatch: 422,
  size_mismatch: 422,
  invalid_manifest: 422,
  invalid_project_name: 422,
  invalid_path: 422,
  invalid_scip: 422,
  scip_mismatch: 422,
  rate_limited: 429,
  internal_error: 500,
  not_ready: 503,
  shard_unavailable: 503,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  suggestion?: string;
  details?: Record<string, unknown>;
}

/**
 * The one error class. Throw it anywhere; the tool seam and `app.onError`
 * turn it into `{error, _meta}` with the mapped HTTP status.
 *
 * @example
 * throw new PincherError('project_not_found', `no project named 'web'`, {
 *   suggestion: 'call list to see indexed projects',
 * });
 */
export class PincherError extends Error {
  readonly code: ErrorCode;
  readonly suggestion?: string;
  readonly details?: Record<string, unknown>;
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    opts: { suggestion?: string; details?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'PincherError';
    this.code = code;
    this.suggestion = opts.suggestion;
    this.details = opts.details;
    this.headers = opts.headers;
  }

  get status(): ContentfulStatusCode {
    return ERROR_CODES[this.code];
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { code: this.code, message: this.message };
    if (this.suggestion) body.suggestion = this.suggestion;
    if (this.details) body.details = this.details;
    return body;
  }
}

/** Any thrown value as a PincherError; unknown failures become a generic internal_error. */
export function toPincherError(err: unknown): PincherError {
  if (err instanceof PincherError) return err;
  return new PincherError('internal_error', 'the server failed to complete this request', {
    suggestion: 'retry; if it keeps failing, report the request_id to the operator',
  });
}
