import type { Context } from 'hono';
import type { AppEnv } from '../env';
import { PincherError } from '../errors';

/** Default cap for JSON bodies of tool calls and MCP messages. */
export const MAX_JSON_BODY = 1024 * 1024;

/**
 * Reads the raw body as text, refusing more than `maxBytes` (413) before
 * buffering it all when Content-Length says so, and while streaming otherwise,
 * and bytes that are not UTF-8 (400).
 */
export async function readBodyText(c: Context<AppEnv>, maxBytes = MAX_JSON_BODY): Promise<string> {
  const bytes = await readBodyBytes(c, maxBytes);
  try {
    return strictUtf8.decode(bytes);
  } catch {
    // A lossy decode would turn the bad bytes into U+FFFD, which then passes for text.
    throw new PincherError('invalid_json_body', 'the request body is not valid UTF-8', {
      suggestion: 'send the body as UTF-8 JSON; file content that is not UTF-8 text cannot be indexed',
    });
  }
}

/** Reads the raw body as bytes, under the same `maxBytes` rule as readBodyText. */
export async function readBodyBytes(c: Context<AppEnv>, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(c.req.header('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  const body = c.req.raw.body;
  if (!body) return new Uint8Array(0);
  // A declared length within the cap: the runtime holds the body to exactly that length, so it is read in one call.
  if (Number.isFinite(declared)) return new Uint8Array(await c.req.raw.arrayBuffer());
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await drain(reader);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const ch of chunks) {
    all.set(ch, at);
    at += ch.byteLength;
  }
  return all;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Reads and parses a JSON body; empty body is `{}`. */
export async function readJsonBody(c: Context<AppEnv>, maxBytes = MAX_JSON_BODY): Promise<unknown> {
  const text = await readBodyText(c, maxBytes);
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new PincherError('invalid_json_body', 'the request body is not valid JSON', {
      suggestion: 'send a JSON object, e.g. {"code": "query_too_narrow"}, with Content-Type: application/json',
    });
  }
}

/** Upper bound on the bytes read and discarded after a body is refused. */
const MAX_DRAIN_BYTES = 64 * 1024 * 1024;

/**
 * Reads the rest of a refused body and discards it. Cancelling a chunked body
 * mid-stream leaves the connection in a state where the local runtime answers
 * the next request (from any client) with 503; reading it to its end does not.
 * Past MAX_DRAIN_BYTES the body is cancelled after all.
 */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  let discarded = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      discarded += value.byteLength;
      if (discarded > MAX_DRAIN_BYTES) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    /* the client went away: nothing left to drain */
  }
}

function tooLarge(maxBytes: number): PincherError {
  return new PincherError('body_too_large', `the request body is larger than ${maxBytes} bytes`, {
    suggestion: 'send less per request (split the batch or narrow the arguments)',
    details: { max_bytes: maxBytes },
  });
}
