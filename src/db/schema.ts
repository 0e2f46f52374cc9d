import { sql } from 'drizzle-orm';
import { sqliteTable, text, integer, index, primaryKey, real, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { GAP_FILE_SQL, PARTIAL_EXTRACTION_SQL } from './extraction-gaps';
import { UNCALLED_CANDIDATE_SQL } from './uncalled-sql';
import { BASE_SQL, DOTTED_FOLDER_SQL, EXT_SQL } from './path-filter';
import { SYMBOL_PARENT_SQL } from './symbol-parent';

/**
 * Conventions for every table: times are epoch milliseconds (UTC); ids are
 * ULIDs unless stated; line numbers are 1-based and inclusive; byte offsets
 * are UTF-8 offsets into the stored file, half-open [start, end).
 */

/** One indexed (or being indexed) repository. `name` is what clients pass as `project`. */
export const projects = sqliteTable('projects', {
  /** 10 random Crockford base32 characters (upload/project-id.ts), not a ULID: every index row repeats it. */
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
  /** `generation` whose references the edges table reflects; behind `generation` while resolution is pending. */
  graphGeneration: integer('graph_generation').notNull().default(0),
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
  (t) => [index('call_log_ts').on(t.ts)],
);

/**
 * Push lifecycle and index changes, in order, for `GET /v1/events` (SSE). Every isolate
 * writes here and every stream reads from here, so a stream sees the events of pushes
 * handled by any isolate; `id` is the SSE event id (`Last-Event-ID` resumes after it).
 * Counts and names only: no source text, no keys.
 */
export const events = sqliteTable(
  'events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    ts: integer('ts').notNull(),
    type: text('type').notNull(),
    projectId: text('project_id'),
    projectName: text('project_name'),
    /** JSON object: the event's own fields. */
    data: text('data').notNull(),
  },
  (t) => [index('events_ts').on(t.ts), index('events_project').on(t.projectName, t.id)],
);

export { LATENCY_BOUNDS_MS } from './latency-buckets';

/**
 * Running totals per tool and status since the database was created, kept in
 * step with every `call_log` insert by a trigger (migration 0017,
 * `call_log_adds_to_totals`): `/v1/metrics` reads these (O(tools)),
 * and the counters never go down when the call log is pruned.
 * `le_<n>` counts calls with latency ≤ n ms (LATENCY_BOUNDS_MS).
 */
export const callTotals = sqliteTable(
  'call_totals',
  {
    tool: text('tool').notNull(),
    status: text('status').notNull(),
    calls: integer('calls').notNull().default(0),
    latencySumMs: integer('latency_sum_ms').notNull().default(0),
    tokensUsed: integer('tokens_used').notNull().default(0),
    tokensSaved: integer('tokens_saved').notNull().default(0),
    le5: integer('le_5').notNull().default(0),
    le10: integer('le_10').notNull().default(0),
    le25: integer('le_25').notNull().default(0),
    le50: integer('le_50').notNull().default(0),
    le100: integer('le_100').notNull().default(0),
    le250: integer('le_250').notNull().default(0),
    le500: integer('le_500').notNull().default(0),
    le1000: integer('le_1000').notNull().default(0),
    le2500: integer('le_2500').notNull().default(0),
    le10000: integer('le_10000').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tool, t.status] })],
);

/**
 * Content store, shared by every project and ref: one row per distinct file
 * content. `hash` is the lowercase hex SHA-256 of the file's raw bytes.
 */
export const blobs = sqliteTable('blobs', {
  hash: text('hash').primaryKey(),
  size: integer('size').notNull(),
  content: text('content').notNull(),
  createdAt: integer('created_at').notNull(),
  /** 1: some line may be longer than 1,000 characters; 0: none is; null: unknown (see longLines in content.ts). */
  longLines: integer('long_lines'),
});

/**
 * Extraction output per (content, language, extractor version): symbols and
 * references as JSON arrays, materialised into per-project rows at commit.
 * `status` is 'ok', 'failed' (reason = parse_error|timeout|too_many_symbols: the last two keep what was read) or 'skipped'
 * (reason = binary|encoding|file_too_large|unsupported_language).
 */
export const extractions = sqliteTable(
  'extractions',
  {
    hash: text('hash').notNull(),
    language: text('language').notNull(), // language id, or 'none' when no extractor matches
    extractorVersion: integer('extractor_version').notNull(),
    corpus: text('corpus').notNull(), // 'code' | 'config' | 'docs' | 'none'
    status: text('status').notNull(),
    reason: text('reason'),
    message: text('message'),
    hadErrors: integer('had_errors', { mode: 'boolean' }).notNull().default(false),
    symbolCount: integer('symbol_count').notNull().default(0),
    refCount: integer('ref_count').notNull().default(0),
    parseMs: integer('parse_ms').notNull().default(0),
    symbolsJson: text('symbols_json').notNull().default('[]'),
    refsJson: text('refs_json').notNull().default('[]'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.hash, t.language, t.extractorVersion] }),
    // The few parses that met syntax errors, sought by the extraction-gaps question (src/db/extraction-gaps.ts)
    // instead of reading every file's extraction row.
    index('extractions_partial').on(t.hash, t.language, t.extractorVersion).where(sql.raw(PARTIAL_EXTRACTION_SQL)),
  ],
);

/** The visible files of a project. Replaced atomically at commit. */
export const files = sqliteTable(
  'files',
  {
    projectId: text('project_id').notNull(),
    path: text('path').notNull(),
    hash: text('hash').notNull(),
    size: integer('size').notNull(),
    language: text('language').notNull(),
    corpus: text('corpus').notNull(),
    status: text('status').notNull(), // 'indexed' | 'failed' | 'skipped'
    reason: text('reason'),
    symbolCount: integer('symbol_count').notNull().default(0),
    extractorVersion: integer('extractor_version').notNull(),
    indexedAt: integer('indexed_at').notNull(),
    /** The path's text after its last `.` within its last 16 characters (src/db/path-filter.ts): only its index stores it. */
    ext: text('ext').generatedAlwaysAs(sql.raw(EXT_SQL), { mode: 'virtual' }),
    /** The path's last segment, the file's name (src/db/path-filter.ts): only its index stores it. */
    base: text('base').generatedAlwaysAs(sql.raw(BASE_SQL), { mode: 'virtual' }),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.path] }),
    index('files_hash').on(t.hash),
    // Name endings (`*.py`, `**/*.d.ts`) seek instead of testing every path: the paths ending so, and the few whose folders hold a `.`.
    index('files_ext').on(t.projectId, t.ext, t.path),
    index('files_dotted_folders').on(t.projectId, t.path).where(sql.raw(DOTTED_FOLDER_SQL)),
    // File names (`context.js`, `Makefile`: a task's or a trace's paths) seek instead of testing every path.
    index('files_base').on(t.projectId, t.base),
    // Files that failed to extract or were over the size budget (src/db/extraction-gaps.ts).
    index('files_gaps').on(t.projectId, t.path).where(sql.raw(GAP_FILE_SQL)),
  ],
);

/**
 * Symbols of a project. `id` is `{file_path}::{qualified_name}#{kind}` (plus
 * `~N` for the Nth duplicate in a file), computed from the row (a virtual
 * generated column: only its index stores it). Lines 1-based inclusive; bytes
 * UTF-8, half-open. `rowid` feeds the FTS index.
 */
export const symbols = sqliteTable(
  'symbols',
  {
    rowid: integer('rowid').primaryKey({ autoIncrement: true }),
    projectId: text('project_id').notNull(),
    /** The id minus `{file_path}::` when it is not `{qualified_name}#{kind}` (a repeat's `~N`); else null. */
    key: text('key'),
    id: text('id')
      .notNull()
      .generatedAlwaysAs(sql`file_path || '::' || coalesce(key, qualified_name || '#' || kind)`, { mode: 'virtual' }),
    filePath: text('file_path').notNull(),
    name: text('name').notNull(),
    qualifiedName: text('qualified_name').notNull(),
    kind: text('kind').notNull(),
    signature: text('signature').notNull(),
    docstring: text('docstring'),
    /** `parent` as stored: null when the qualified name implies it (src/db/symbol-parent.ts). */
    parentRaw: text('parent_raw'),
    /** The enclosing symbol's qualified name; null at the top level. Read from `parent_raw` and the qualified name. */
    parent: text('parent').generatedAlwaysAs(sql.raw(SYMBOL_PARENT_SQL), { mode: 'virtual' }),
    language: text('language').notNull(),
    corpus: text('corpus').notNull(),
    isExported: integer('is_exported', { mode: 'boolean' }).notNull(),
    isTest: integer('is_test', { mode: 'boolean' }).notNull(),
    startLine: integer('start_line').notNull(),
    endLine: integer('end_line').notNull(),
    startByte: integer('start_byte').notNull(),
    endByte: integer('end_byte').notNull(),
    confidence: real('confidence').notNull(),
    /** Identifier split into words (camelCase, snake_case) for search. */
    words: text('words').notNull().default(''),
    /**
     * Test, example, fixture or vendored code (is_test, or a path under one of
     * search-rank.ts's AUXILIARY_DIRS), set at commit: search ranks it below source.
     */
    auxiliary: integer('auxiliary', { mode: 'boolean' }).notNull().default(false),
    /**
     * A function or method declared without a body (a C/C++ prototype or member declaration): search ranks a
     * definition of the same tier with a body above it (ExtractedSymbol.declaration).
     */
    declaration: integer('declaration', { mode: 'boolean' }).notNull().default(false),
  },
  (t) => [
    uniqueIndex('symbols_project_id').on(t.projectId, t.id),
    index('symbols_name').on(t.projectId, t.name),
    // dead_code's candidates in path and source order (src/db/uncalled-sql.ts).
    index('symbols_uncalled').on(t.projectId, t.filePath, t.startByte).where(sql.raw(UNCALLED_CANDIDATE_SQL)),
  ],
);

/*
 * References (call sites, imports, inheritance) are stored once, in
 * `extractions.refs_json` (src/db/extraction-json.ts has the layout). The
 * `refs` view (migration 0024, hand-written: drizzle-kit does not model it)
 * reads them as rows (project_id, file_path, language, kind, name, target,
 * imported_names, enclosing, line) through each visible file's extraction;
 * `enclosing` is the symbol id of the innermost enclosing symbol.
 */

/** An open or finished push. One open upload per project (partial unique index in the migration). */
export const uploads = sqliteTable(
  'uploads',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id').notNull(),
    ref: text('ref'),
    commitSha: text('commit_sha'),
    status: text('status').notNull(), // 'open' | 'committed' | 'aborted' | 'expired' | 'superseded'; updated_at is the heartbeat
    mode: text('mode').notNull(), // 'replace' | 'merge'
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    manifestCount: integer('manifest_count').notNull(),
    /** Who pushed, as the client declared it (a CI actor or user name); push history only. */
    pushedBy: text('pushed_by'),
    /** The manifest's change counts, kept after its rows are collected (push history). */
    newFiles: integer('new_files'),
    changedFiles: integer('changed_files'),
    unchangedFiles: integer('unchanged_files'),
    deletedFiles: integer('deleted_files'),
  },
  (t) => [index('uploads_project').on(t.projectId, t.status)],
);

/** The manifest of an upload, classified against the visible index when the upload opened. */
export const uploadFiles = sqliteTable(
  'upload_files',
  {
    uploadId: text('upload_id').notNull(),
    path: text('path').notNull(),
    hash: text('hash').notNull(),
    size: integer('size').notNull(),
    language: text('language').notNull(),
    change: text('change').notNull(), // 'new' | 'changed' | 'unchanged' | 'deleted'
  },
  (t) => [primaryKey({ columns: [t.uploadId, t.path] }), index('upload_files_hash').on(t.uploadId, t.change)],
);

/**
 * Files already credited to a client session in `full_file_read` baselines,
 * so a session is never credited twice for reading the same file. Rows
 * expire (`expires_at`, epoch ms) and are swept lazily.
 */
export const sessionCredits = sqliteTable(
  'session_credits',
  {
    sessionId: text('session_id').notNull(),
    projectId: text('project_id').notNull(),
    filePath: text('file_path').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.projectId, t.filePath] }), index('session_credits_expiry').on(t.expiresAt)],
);

/**
 * One end of resolved graph edges (src/db/edge-ends.ts), stored once per
 * project however many edges meet it: a file and, for a symbol, its key (the
 * symbol id minus `{file}::`; null for a whole file or module, or a reference
 * at module level). An edge row names its two ends by `id`, so neither the
 * path, the key nor the project is written again in an edge or its indexes.
 * Ends no edge uses are removed when their file's edges are rebuilt
 * (src/db/resolution.ts), with the project.
 */
export const edgeEnds = sqliteTable(
  'edge_ends',
  {
    id: integer('id').primaryKey(),
    projectId: text('project_id').notNull(),
    file: text('file').notNull(),
    key: text('key'),
  },
  (t) => [uniqueIndex('edge_ends_at').on(t.projectId, t.file, t.key)],
);

/**
 * Resolved graph edges of a project, rebuilt at commit for the references a
 * push can affect, stored by their ends' ids (`edge_ends`). Statements read
 * them through the `edges` view (migration 0025, hand-written: drizzle-kit
 * does not model it), which joins both ends and gives the columns (project_id,
 * src_file, src_key, dst_file, dst_key, name, line, kind, provenance,
 * confidence, their stored codes, and the ends' ids src_end and dst_end). The
 * source is the enclosing symbol of the reference (`src_key` null at module
 * level); the target a symbol, or a whole file or module (`dst_key` null,
 * IMPORTS). `confidence` 0..1 and `provenance` say how the target was found
 * (docs/graph.md). `line` is the 1-based line of the reference in `src_file`.
 */
export const edgeRows = sqliteTable(
  'edge_rows',
  {
    rowid: integer('rowid').primaryKey({ autoIncrement: true }),
    /** `edge_ends.id` of the source. */
    src: integer('src').notNull(),
    /** `edge_ends.id` of the target. */
    dst: integer('dst'),
    /** The reference text as written (callee, module specifier or base type). */
    name: text('name').notNull(),
    line: integer('line').notNull(),
    /** The kind, provenance and confidence as stored: small codes and thousandths (src/db/edge-columns.ts); the view reads them as text and a number. */
    kindCode: integer('kind_code').notNull(),
    provenanceCode: integer('provenance_code').notNull(),
    confidenceMilli: integer('confidence_milli').notNull(),
  },
  (t) => [index('edge_rows_src').on(t.src), index('edge_rows_dst').on(t.dst)],
);

/** Architecture decision records, per project. `id` is `ADR-NNNN` numbered per project. */
export const adrs = sqliteTable(
  'adrs',
  {
    projectId: text('project_id').notNull(),
    id: text('id').notNull(),
    title: text('title').notNull(),
    status: text('status').notNull(), // 'proposed' | 'accepted' | 'deprecated' | 'superseded'
    context: text('context').notNull().default(''),
    decision: text('decision').notNull().default(''),
    consequences: text('consequences').notNull().default(''),
    supersededBy: text('superseded_by'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.id] })],
);

/**
 * Project-wide aggregates that take a scan of the whole index (architecture,
 * schema), kept once per (generation, graph_generation) so that repeated calls
 * read one row. A row whose generations differ from the project's is stale and
 * recomputed on the next read; it is written only while the project still holds
 * the generations it was computed from.
 */
export const projectAggregates = sqliteTable(
  'project_aggregates',
  {
    projectId: text('project_id').notNull(),
    /** What the body holds, e.g. 'architecture'. */
    name: text('name').notNull(),
    generation: integer('generation').notNull(),
    graphGeneration: integer('graph_generation').notNull(),
    /** JSON. */
    body: text('body').notNull(),
    /** Wall time the computation took. */
    computedMs: integer('computed_ms').notNull(),
    computedAt: integer('computed_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.name] })],
);

/**
 * Where each project lives (src/db/shards.ts): read on the primary only, though
 * every shard runs the same migrations and so has the (empty) table. A project
 * with no row is unknown (new projects are placed on their first push).
 * `moving_to` is set while a move copies the project to another shard; pushes
 * are refused then, and `shard` flips to the target in one statement once the
 * copy is complete. `move_heartbeat_at` is renewed as the copy progresses: a
 * move whose heartbeat is older than MOVE_STALE_MS was abandoned. `move_id`
 * is the id of that move (migration 0018; its cursor on the target carries the
 * same): every catalog write of a move holds only while it is that move's, so
 * a cancel or a late step never ends or flips a move begun since. Null on a
 * move begun before the column existed (its first step then records its id).
 */
export const projectShards = sqliteTable('project_shards', {
  name: text('name').primaryKey(),
  shard: integer('shard').notNull(),
  placedAt: integer('placed_at').notNull(),
  movingTo: integer('moving_to'),
  moveHeartbeatAt: integer('move_heartbeat_at'),
  moveId: text('move_id'),
});

/**
 * A move's durable cursor (src/shards/move.ts), kept on the move's *target*
 * shard so each copied page and the cursor advance commit in one batch: a step
 * that dies half-way never leaves rows the cursor does not count. One row per
 * project being moved to this shard; `phase` is 'copying' until the catalog
 * flips, then 'removing' while the old copy (a leftover on `from_shard`) goes.
 */
export const projectMoves = sqliteTable('project_moves', {
  name: text('name').primaryKey(),
  moveId: text('move_id').notNull(),
  projectId: text('project_id').notNull(),
  fromShard: integer('from_shard').notNull(),
  toShard: integer('to_shard').notNull(),
  /** The source project's generation fields when the copy began (projectVersion). */
  version: text('version').notNull(),
  phase: text('phase').notNull(),
  tableIndex: integer('table_index').notNull(),
  afterRowid: integer('after_rowid').notNull(),
  /** Rows copied so far, per table (JSON object). */
  copied: text('copied').notNull(),
  /** Rows removed from the old shard so far, per table (JSON object). */
  removed: text('removed').notNull(),
  /** Rows the source held when the copy began (an estimate for progress). */
  total: integer('total').notNull(),
  steps: integer('steps').notNull(),
  startedAt: integer('started_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

/**
 * Copies of a project this shard holds that no catalog entry points to: the
 * old copy after a move, or a partial copy of a move that was cancelled or
 * aborted. Removed in bounded steps (by the next move step or the garbage
 * collection); while a row is here no new copy of that project id is written.
 */
export const shardLeftovers = sqliteTable('shard_leftovers', {
  projectId: text('project_id').primaryKey(),
  name: text('name').notNull(),
  since: integer('since').notNull(),
});
