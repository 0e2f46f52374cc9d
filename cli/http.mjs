// The one door to the server: JSON over fetch with the bearer key, retries with backoff, and
// every failure turned into a PushError that says which step failed and what the server said.

/**
 * @typedef {'open' | 'upload' | 'commit' | 'abandon' | 'shards' | 'move'} Step
 * @typedef {'none' | 'overload' | 'transient'} RetryPolicy
 *   overload: 429 and 503 only (the server did not act); transient: also network errors and 5xx
 */

export class PushError extends Error {
  /**
   * @param {object} fields
   * @param {Step | 'walk'} fields.step
   * @param {string} fields.code error.code from the server, or one of ours (unreachable, …)
   * @param {string} fields.message
   * @param {number} [fields.status] HTTP status when the server answered
   * @param {string} [fields.suggestion]
   * @param {Record<string, unknown>} [fields.details]
   */
  constructor({ step, code, message, status, suggestion, details }) {
    super(message);
    this.name = 'PushError';
    this.step = step;
    this.code = code;
    this.status = status;
    this.suggestion = suggestion;
    this.details = details;
  }
}

const REQUEST_TIMEOUT_MS = 120_000; // extraction runs inside the files request
const MAX_RETRY_AFTER_MS = 30_000;

/**
 * @typedef {object} ClientOptions
 * @property {string} url server base URL
 * @property {string} [key] bearer key
 * @property {AbortSignal} [signal] aborts every request (Ctrl-C)
 * @property {number} [tries] attempts per request when the policy allows retries (default 3)
 * @property {number} [retryBaseMs] first backoff delay, doubled each retry (default 500)
 */

/**
 * @param {ClientOptions} options
 * @example
 *   const client = createClient({ url, key });
 *   const opened = await client.request('open', 'POST', `/v1/projects/web/uploads`, body, 'overload');
 */
export function createClient({ url, key, signal, tries = 3, retryBaseMs = 500 }) {
  const base = new URL(url.endsWith('/') ? url : `${url}/`);
  const where = displayUrl(url);

  /**
   * @param {Step} step
   * @param {string} method
   * @param {string} path absolute API path (`/v1/...`)
   * @param {string | Uint8Array | undefined} body JSON text, or bytes of `contentType`
   * @param {RetryPolicy} policy
   * @param {string} [contentType] of a body that is not JSON
   * @returns {Promise<Record<string, unknown>>} the parsed JSON answer
   */
  async function request(step, method, path, body, policy, contentType = 'application/json') {
    const target = new URL(path.replace(/^\//, ''), base);
    for (let attempt = 1; ; attempt++) {
      let response;
      try {
        response = await fetch(target, {
          method,
          headers: {
            accept: 'application/json',
            ...(body !== undefined && { 'content-type': contentType }),
            ...(key && { authorization: `Bearer ${key}` }),
          },
          body,
          redirect: 'manual',
          signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]) : AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
      } catch (error) {
        if (signal?.aborted) throw new PushError({ step, code: 'cancelled', message: 'cancelled' });
        const failure = unreachable(step, where, error);
        if (policy !== 'transient' || attempt >= tries) throw failure;
        await sleep(backoff(retryBaseMs, attempt), signal);
        continue;
      }
      const text = await response.text().catch(() => '');
      if (response.ok) return withBookmark(parseAnswer(step, response.status, text), response);
      const failure = refusal(step, response, text);
      if (!shouldRetry(policy, response.status) || attempt >= tries) throw failure;
      await sleep(retryAfter(response) ?? backoff(retryBaseMs, attempt), signal);
    }
  }

  return { request, where };
}

/**
 * The URL as it may be shown: no credentials, no query.
 * @param {string} url
 */
export function displayUrl(url) {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/$/, '')}`;
  } catch {
    return '(invalid URL)';
  }
}

/** @param {RetryPolicy} policy @param {number} status */
function shouldRetry(policy, status) {
  if (policy === 'overload') return status === 429 || status === 503;
  return policy === 'transient' && (status === 429 || status >= 500);
}

/** @param {Step} step @param {string} where @param {unknown} error */
function unreachable(step, where, error) {
  const cause = /** @type {{ cause?: { code?: string, message?: string }, name?: string }} */ (error);
  if (cause.name === 'TimeoutError') {
    return new PushError({
      step,
      code: 'timeout',
      message: `${where} did not answer within ${REQUEST_TIMEOUT_MS / 1000} s`,
      suggestion: 'try again; lower --concurrency if the server is busy',
    });
  }
  const why = cause.cause?.code ?? cause.cause?.message ?? 'network error';
  return new PushError({
    step,
    code: 'unreachable',
    message: `cannot reach ${where} (${why})`,
    suggestion: 'check --url / PINCHER_URL and that the Worker is deployed',
  });
}

/** @param {Step} step @param {Response} response @param {string} text */
function refusal(step, response, text) {
  const { status } = response;
  if (status >= 300 && status < 400) {
    const location = response.headers.get('location');
    return new PushError({
      step,
      status,
      code: 'redirected',
      message: `the server redirected to ${location ? displayUrl(location) : 'another address'}`,
      suggestion: 'use the final address as --url',
    });
  }
  const error = errorBody(text);
  return new PushError({
    step,
    status,
    code: error?.code ?? `http_${status}`,
    message: error?.message ?? (response.statusText || 'no error body'),
    suggestion: error?.suggestion,
    details: error?.details,
  });
}

/**
 * @param {string} text
 * @returns {{ code?: string, message?: string, suggestion?: string, details?: Record<string, unknown> } | undefined}
 */
function errorBody(text) {
  try {
    const parsed = JSON.parse(text);
    const error = parsed?.error;
    if (!error || typeof error !== 'object') return undefined;
    return {
      code: typeof error.code === 'string' ? error.code : undefined,
      message: typeof error.message === 'string' ? error.message : undefined,
      suggestion: typeof error.suggestion === 'string' ? error.suggestion : undefined,
      details: error.details && typeof error.details === 'object' ? error.details : undefined,
    };
  } catch {
    return undefined;
  }
}

/** @param {Step} step @param {number} status @param {string} text */
function parseAnswer(step, status, text) {
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
  } catch {
    // fall through
  }
  throw new PushError({ step, status, code: 'bad_response', message: 'the server answered with something other than a JSON object' });
}

/**
 * The answer with the server's D1 bookmark (`X-Pincher-Bookmark`, sent by a commit) as `bookmark`:
 * a tool call that sends it back reads at least the state this answer saw.
 * @param {Record<string, unknown>} answer @param {Response} response
 */
function withBookmark(answer, response) {
  const bookmark = response.headers.get('x-pincher-bookmark');
  return bookmark && answer.bookmark === undefined ? { ...answer, bookmark } : answer;
}

/** @param {Response} response */
function retryAfter(response) {
  const seconds = Number(response.headers.get('retry-after'));
  return response.headers.has('retry-after') && Number.isFinite(seconds) && seconds >= 0
    ? Math.min(seconds * 1000, MAX_RETRY_AFTER_MS)
    : undefined;
}

/** @param {number} baseMs @param {number} attempt */
function backoff(baseMs, attempt) {
  return baseMs * 2 ** (attempt - 1) * (0.75 + Math.random() / 2);
}

/** @param {number} ms @param {AbortSignal} [signal] */
function sleep(ms, signal) {
  return new Promise((done) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      done(undefined);
    }, { once: true });
  });
}
