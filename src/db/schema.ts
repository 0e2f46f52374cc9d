import { sqliteTable, text, integer, index } from 'drizzle-orm/sqlite-core';

/**
 * Conventions for every table: times are epoch milliseconds (UTC); ids are
 * ULIDs unless stated; line numbers are 1-based and inclusive; byte offsets
 * are UTF-8 offsets into the stored file, half-open [start, end).
 */

/** One indexed (or being indexed) repository. `name` is what clients pass as `project`. */
export const projects = sqliteTable('projects', {
  id: text('id').primaryKey(),
  name: text('name').notNull().unique(),
  createdAt: integer('created_at').notNull(),
  /** Time of the last committed push; null until the first commit. */
  indexedAt: integer('indexed_at'),
  ref: text('ref'),
  commitSha: text('commit_sha'),
  /** Extractor version that produced the visible index. */
  extractorVersion: integer('extractor_version'),
  /** SCHEMA_VERSION of the Worker that committed the visible index. */
  schemaVersionAtIndex: integer('schema_version_at_index'),
  fileCount: integer('file_count').notNull().default(0),
  symbolCount: integer('symbol_count').notNull().default(0),
  /** Incremented by every commit; readers never see a half-written generation. */
  generation: integer('generation').notNull().default(0),
});

/** One row per tool call, for `/v1/metrics` and `stats`. No arguments, keys or source text. */
export const callLog = sqliteTable(
  'call_log',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    ts: integer('ts').notNull(),
    requestId: text('request_id').notNull(),
    tool: text('tool').notNull(),
    surface: text('surface').notNull(), // 'mcp' | 'rest'
    status: text('status').notNull(), // 'ok' | 'empty' | error code
    latencyMs: integer('latency_ms').notNull(),
    tokensUsed: integer('tokens_used').notNull(),
    tokensSaved: integer('tokens_saved'),
    emptyReason: text('empty_reason'),
    projectId: text('project_id'),
  },
  (t) => [index('call_log_ts').on(t.ts), index('call_log_tool').on(t.tool)],
);
