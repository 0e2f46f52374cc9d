import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

/**
 * Marks a failure inside one of our own request handlers so that it keeps its
 * -32603 internal-error code: anything else that escapes a handler unmarked
 * was thrown by the SDK's params validation, before the handler ran.
 */
export function internalFailure(method: string, err: unknown): ProtocolError {
  if (err instanceof ProtocolError) return err;
  const e = err instanceof Error ? err : new Error(String(err));
  console.error(`mcp ${method}: ${e.name}: ${e.message.slice(0, 200)}`);
  return new ProtocolError(ProtocolErrorCode.InternalError, `${method} failed on the server; retry, and report it if it persists`);
}

interface Issue {
  path?: unknown;
  message?: unknown;
}

/** The validator's issue list (the SDK passes it on as JSON text), as `params.x: message` phrases. */
function issuePhrases(raw: string): string[] {
  const start = raw.indexOf('[');
  if (start < 0) return [];
  try {
    const issues = JSON.parse(raw.slice(start)) as Issue[];
    if (!Array.isArray(issues)) return [];
    return issues.slice(0, 5).map((i) => {
      const path = Array.isArray(i.path) ? i.path.filter((p) => typeof p === 'string' || typeof p === 'number').join('.') : '';
      const message = typeof i.message === 'string' ? i.message.replace(/\s+/g, ' ').slice(0, 160) : 'invalid value';
      return path ? `${path}: ${message}` : message;
    });
  } catch {
    return [];
  }
}

/** -32602 with a short message naming the method and the offending fields, never raw validator output. */
export function invalidParams(method: string, raw: string): ProtocolError {
  const phrases = issuePhrases(raw);
  const detail = phrases.length ? phrases.join('; ') : 'the params do not match the method’s schema';
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `invalid params for ${method}: ${detail}`, {
    suggestion: `send the params ${method} requires in this protocol revision (see the MCP specification)`,
  });
}

const RAW_VALIDATION = /^Invalid [\w/]+ request: /;

/**
 * What a request handler's failure becomes on the wire: our own failures pass
 * through (see internalFailure); the SDK's params validation, which throws a
 * plain Error or an InvalidParams carrying raw validator output, becomes a
 * clean -32602.
 */
export function asProtocolError(method: string, err: unknown): unknown {
  if (err instanceof ProtocolError) {
    if (err.code === ProtocolErrorCode.InvalidParams && RAW_VALIDATION.test(err.message)) return invalidParams(method, err.message);
    return err;
  }
  return invalidParams(method, err instanceof Error ? err.message : String(err));
}
