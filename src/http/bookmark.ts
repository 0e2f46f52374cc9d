/**
 * Read-your-writes over HTTP: a client sends back the D1 bookmark it last
 * received (`X-Pincher-Bookmark`, e.g. from its push's commit) and the call
 * reads a state at least that recent; every tool response carries the
 * bookmark its reads reached. docs/consistency.md has the guarantees per surface.
 */
import type { ToolReads } from '../tools/run';

export const BOOKMARK_HEADER = 'X-Pincher-Bookmark';
/** D1 round trips a tool call made before answering (what the bench reports per tool). */
export const ROUND_TRIPS_HEADER = 'X-Pincher-D1-Round-Trips';

/** Longest bookmark accepted from a client; D1's are well under it. */
const MAX_BOOKMARK_CHARS = 200;

/** A client's bookmark as D1 may take it, or undefined for none or a malformed one (then any replica may answer). */
export function bookmarkArg(value: string | null | undefined): string | undefined {
  const v = value?.trim();
  if (!v || v.length > MAX_BOOKMARK_CHARS || !/^[\x21-\x7e]+$/.test(v)) return undefined;
  return v;
}

/** Stamps the bookmark a call's reads reached and its round-trip count on a response. */
export function setReadHeaders(headers: Headers, reads: ToolReads): void {
  if (reads.bookmark) headers.set(BOOKMARK_HEADER, reads.bookmark);
  headers.set(ROUND_TRIPS_HEADER, String(reads.roundTrips));
}

/**
 * `res` with the read headers of the tool calls it answers (MCP: a request may
 * carry several): the latest bookmark and the round trips of them all. A
 * streamed answer whose calls had not finished when it started carries none.
 */
export function withReadHeaders(res: Response, reads: readonly ToolReads[]): Response {
  if (!reads.length) return res;
  const out = new Response(res.body, res);
  // D1 bookmarks sort oldest first: the greatest is the latest.
  const bookmark = reads.map((r) => r.bookmark).filter((b): b is string => b !== null).sort().pop() ?? null;
  setReadHeaders(out.headers, { bookmark, roundTrips: reads.reduce((n, r) => n + r.roundTrips, 0) });
  return out;
}
