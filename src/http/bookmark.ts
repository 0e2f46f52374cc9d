/**
 * Read-your-writes over HTTP: a client sends back the D1 bookmark it last
 * received (`X-Pincher-Bookmark`, e.g. from its push's commit) and the call
 * reads a state at least that recent; every tool response carries the
 * bookmark its reads reached. docs/consistency.md has the guarantees per surface.
 */
import { mergeBookmarks } from '../db/project-shard';
import type { ToolReads } from '../tools/run';

export const BOOKMARK_HEADER = 'X-Pincher-Bookmark';
/** D1 round trips a tool call made before answering (what the bench reports per tool). */
export const ROUND_TRIPS_HEADER = 'X-Pincher-D1-Round-Trips';
/** SQL statements those round trips executed (a batch counts each of its statements). */
export const STATEMENTS_HEADER = 'X-Pincher-D1-Statements';

/** Longest bookmark accepted from a client per shard; D1's are well under it. */
const MAX_BOOKMARK_CHARS = 200;
/** Most shards one header value may name. */
const MAX_BOOKMARK_SHARDS = 32;

/**
 * A client's bookmarks as the call may use them (one per shard, comma-separated), or
 * undefined for none or a malformed value (then any replica may answer).
 */
export function bookmarkArg(value: string | null | undefined): string | undefined {
  const v = value?.trim();
  if (!v || v.length > MAX_BOOKMARK_CHARS * MAX_BOOKMARK_SHARDS || !/^[\x21-\x7e]+$/.test(v)) return undefined;
  const entries = v.split(',');
  if (entries.length > MAX_BOOKMARK_SHARDS || entries.some((e) => e.length === 0 || e.length > MAX_BOOKMARK_CHARS)) return undefined;
  return v;
}

/** Stamps the bookmark a call's reads reached and its round-trip and statement counts on a response. */
export function setReadHeaders(headers: Headers, reads: ToolReads): void {
  if (reads.bookmark) headers.set(BOOKMARK_HEADER, reads.bookmark);
  headers.set(ROUND_TRIPS_HEADER, String(reads.roundTrips));
  headers.set(STATEMENTS_HEADER, String(reads.statements));
}

/**
 * `res` with the read headers of the tool calls it answers (MCP: a request may
 * carry several): the latest bookmark of each shard they read and the round
 * trips and statements of them all. A streamed answer whose calls had not finished when it
 * started carries none.
 */
export function withReadHeaders(res: Response, reads: readonly ToolReads[]): Response {
  if (!reads.length) return res;
  const out = new Response(res.body, res);
  // Bookmarks of one shard sort oldest first; bookmarks of two shards do not compare.
  const bookmark = mergeBookmarks(reads.map((r) => r.bookmark));
  setReadHeaders(out.headers, { bookmark, roundTrips: reads.reduce((n, r) => n + r.roundTrips, 0), statements: reads.reduce((n, r) => n + r.statements, 0) });
  return out;
}
