import { TOOLS } from '../tools/registry';
import { inputJsonSchema, outputJsonSchema, type JsonSchema } from '../tools/describe';
import * as z from 'zod';
import { VERSION } from '../version';
import { AbortResult, CommitResult, FilesBody, FilesResult, OpenUploadBody, OpenUploadResult, UploadStatusResult } from './upload-schemas';

const typedEntry: JsonSchema = {
  type: 'object',
  required: ['code', 'severity', 'message'],
  properties: {
    code: { type: 'string' },
    severity: { type: 'string', enum: ['info', 'warning', 'error'] },
    message: { type: 'string' },
    data: { type: 'object' },
  },
};

/** The shared `_meta` component (docs/envelope.md explains each field). */
export const META_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'The _meta envelope. A missing field means not applicable, never 0/false/empty.',
  properties: {
    request_id: { type: 'string', description: 'ULID; echoed in the X-Request-ID header' },
    client_request_id: { type: 'string', description: "The client's X-Request-ID; echoed in the X-Client-Request-ID header" },
    tokens_used: { type: 'integer' },
    tokens_saved: { type: 'integer' },
    tokens_saved_pct: { type: 'number' },
    baseline_method: {
      type: 'string',
      enum: ['full_file_read', 'lines_read', 'grep_recursive', 'grep_then_read', 'walk_directory', 'read_all_changed', 'sum_of_parts', 'none'],
    },
    savings_scope: { type: 'string', enum: ['call', 'session'] },
    complexity_tier: { type: 'string', enum: ['lite', 'standard', 'heavy'] },
    latency_ms: { type: 'integer' },
    empty_reason: { type: 'string' },
    diagnosis: { type: 'string' },
    diagnosis_v2: { type: 'array', items: typedEntry },
    next_steps: {
      type: 'array',
      items: {
        type: 'object',
        required: ['tool', 'args', 'why'],
        properties: { tool: { type: 'string' }, args: { type: 'object' }, why: { type: 'string' } },
      },
    },
    warnings: { type: 'array', items: { type: 'string' } },
    warnings_v2: { type: 'array', items: typedEntry },
    capabilities: { type: 'array', items: { type: 'string' } },
    binary_drift_warning: {
      type: 'object',
      properties: { stored_version: { type: 'integer' }, running_version: { type: 'integer' }, remediation: { type: 'string' } },
    },
    schema_version: { type: 'integer' },
    schema_version_at_index: { type: 'integer' },
    project_id: { type: 'string' },
    project_name: { type: 'string' },
    session_id: { type: 'string' },
  },
};

const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['error', '_meta'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        suggestion: { type: 'string' },
        details: { type: 'object' },
      },
    },
    _meta: { $ref: '#/components/schemas/Meta' },
  },
};

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});


const jsonContent = (schema: JsonSchema) => ({ 'application/json': { schema } });
const zodSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
};
/** A 200/201 body of the upload API or a probe: the result's fields beside a required `_meta`. */
const enveloped = (schema: JsonSchema): JsonSchema => ({
  ...schema,
  required: [...((schema.required as string[] | undefined) ?? []), '_meta'],
  properties: { ...((schema.properties as Record<string, unknown> | undefined) ?? {}), _meta: { $ref: '#/components/schemas/Meta' } },
});

/** The error responses every authenticated operation can give, plus its own. */
function errors(extra: Record<string, string> = {}): Record<string, unknown> {
  const all: Record<string, string> = {
    '400': 'Invalid JSON body or arguments',
    '401': 'Missing or refused bearer token',
    '403': 'Insufficient scope, origin or host not allowed, or no key configured',
    '429': 'Rate limited: retry after Retry-After seconds',
    '500': 'Internal error',
    ...extra,
  };
  return Object.fromEntries(Object.entries(all).map(([status, text]) => [status, errorResponse(text)]));
}

const nullableInt = { type: ['integer', 'null'] };
const PUSH_HISTORY_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['project', 'uploads'],
  properties: {
    project: { type: 'string' },
    uploads: {
      type: 'array',
      items: {
        type: 'object',
        required: ['upload_id', 'status', 'mode', 'started_at', 'ended_at', 'duration_ms', 'files', 'pushed_by', 'changes'],
        properties: {
          upload_id: { type: 'string' },
          ref: { type: ['string', 'null'] },
          commit: { type: ['string', 'null'] },
          status: { type: 'string', enum: ['open', 'committed', 'aborted', 'expired', 'superseded'] },
          mode: { type: 'string', enum: ['replace', 'merge'] },
          started_at: { type: 'string', format: 'date-time' },
          ended_at: { type: ['string', 'null'], format: 'date-time', description: 'null while open' },
          duration_ms: { ...nullableInt, description: 'open to close; null while open' },
          files: { type: 'integer', description: 'manifest entries' },
          pushed_by: { type: ['string', 'null'], description: "who pushed, as the client declared it (the CLI sends --by, GITHUB_ACTOR or GITLAB_USER_LOGIN); null when it did not say" },
          changes: {
            type: ['object', 'null'],
            description: 'the manifest classified against the index; null only for pushes recorded before the server kept these counts, once their manifest was collected',
            properties: { new: { type: 'integer' }, changed: { type: 'integer' }, unchanged: { type: 'integer' }, deleted: { type: 'integer' } },
          },
        },
      },
    },
  },
};
const ACTIVITY_FIGURES: Record<string, JsonSchema> = {
  calls: { type: 'integer' },
  empty: { type: 'integer' },
  errors: { type: 'integer', description: 'calls answered with an error code' },
  p50_ms: { type: 'integer', description: 'nearest-rank median latency' },
  p99_ms: { type: 'integer' },
  tokens_used: { type: 'integer' },
  tokens_saved: { type: 'integer' },
};
const ACTIVITY_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['window', 'tools', 'series'],
  properties: {
    window: {
      type: 'object',
      properties: { from: { type: 'string', format: 'date-time' }, to: { type: 'string', format: 'date-time' }, hours: { type: 'integer' }, bucket_ms: { type: 'number' } },
    },
    tools: {
      type: 'array',
      items: {
        type: 'object',
        required: ['tool', ...Object.keys(ACTIVITY_FIGURES), 'empty_rate', 'empty_by_reason'],
        properties: { tool: { type: 'string' }, ...ACTIVITY_FIGURES, empty_rate: { type: 'number' }, empty_by_reason: { type: 'object', additionalProperties: { type: 'integer' } } },
      },
    },
    series: {
      type: 'array',
      description: 'one entry per tool and bucket that saw calls',
      items: { type: 'object', required: ['tool', 'bucket', ...Object.keys(ACTIVITY_FIGURES)], properties: { tool: { type: 'string' }, bucket: { type: 'string', format: 'date-time' }, ...ACTIVITY_FIGURES } },
    },
  },
};

const PROJECT_PARAM = { name: 'project', in: 'path', required: true, description: 'project name: 1–100 of A–Z a–z 0–9 . _ -', schema: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,100}$' } };
const UPLOAD_PARAM = { name: 'id', in: 'path', required: true, description: 'upload id (ULID) from opening the upload', schema: { type: 'string' } };

/** `GET /v1/projects/{project}/uploads`: the push history (src/rest/push-history.ts), beside the POST that opens a push. */
function pushHistoryOperation(): Record<string, unknown> {
  return {
    operationId: 'listPushes',
    summary: "A project's pushes, newest first: when, outcome, duration, what changed (read key enough)",
    tags: ['probes'],
    parameters: [{ name: 'limit', in: 'query', required: false, description: 'pushes, 1–100, default 20', schema: { type: 'integer', minimum: 1, maximum: 100 } }],
    responses: { '200': { description: 'The pushes', content: jsonContent(enveloped(PUSH_HISTORY_SCHEMA)) }, ...errors({ '404': 'No such project (project_not_found)', '422': 'Invalid project name (invalid_project_name)' }) },
  };
}

/** The push protocol (docs/indexing.md), from the schemas its routes validate with (src/rest/upload-schemas.ts). */
function uploadPaths(): Record<string, unknown> {
  const tags = ['upload API'];
  return {
    '/v1/projects/{project}/uploads': {
      parameters: [PROJECT_PARAM],
      get: pushHistoryOperation(),
      post: {
        operationId: 'openUpload',
        summary: 'Open an upload: send the manifest, get the hashes the server lacks',
        tags,
        requestBody: { required: true, content: jsonContent(zodSchema(OpenUploadBody, 'input')) },
        responses: {
          '201': { description: 'The upload is open; send the missing contents, then commit', content: jsonContent(enveloped(zodSchema(OpenUploadResult, 'output'))) },
          ...errors({ '400': 'Invalid body, manifest (invalid_manifest) or project name', '409': 'Another push is in progress (push_in_progress) or a size contradicts stored content (size_mismatch)', '413': 'Body over 24 MiB' }),
        },
      },
    },
    '/v1/projects/{project}/uploads/{id}': {
      parameters: [PROJECT_PARAM, UPLOAD_PARAM],
      get: {
        operationId: 'getUpload',
        summary: "An upload's status and plan",
        tags,
        responses: { '200': { description: 'The upload', content: jsonContent(enveloped(zodSchema(UploadStatusResult, 'output'))) }, ...errors({ '404': 'No such upload for this project (upload_not_found)' }) },
      },
      delete: {
        operationId: 'abortUpload',
        summary: 'Abandon an open upload; the visible index is untouched',
        tags,
        responses: { '200': { description: 'Aborted', content: jsonContent(enveloped(zodSchema(AbortResult, 'output'))) }, ...errors({ '404': 'No open upload with this id (upload_not_found)', '409': 'Taken over by a newer push (upload_superseded)' }) },
      },
    },
    '/v1/projects/{project}/uploads/{id}/files': {
      parameters: [PROJECT_PARAM, UPLOAD_PARAM],
      post: {
        operationId: 'sendUploadFiles',
        summary: 'Send a batch of file contents; each is checked, extracted and stored, or the whole batch is refused',
        tags,
        requestBody: { required: true, content: jsonContent(zodSchema(FilesBody, 'input')) },
        responses: {
          '200': { description: 'Stored, with per-file skips and extraction failures', content: jsonContent(enveloped(zodSchema(FilesResult, 'output'))) },
          ...errors({ '400': 'Invalid body, path not in the manifest (invalid_path) or hash mismatch', '404': 'No open upload with this id (upload_not_found)', '409': 'Size differs from the manifest (size_mismatch) or taken over (upload_superseded)', '413': 'Body over 4 MiB' }),
        },
      },
    },
    '/v1/projects/{project}/uploads/{id}/commit': {
      parameters: [PROJECT_PARAM, UPLOAD_PARAM],
      post: {
        operationId: 'commitUpload',
        summary: 'Commit atomically: the new index becomes visible at once, or nothing changes',
        tags,
        requestBody: {
          required: false,
          description: 'Empty, or a SCIP index (at most 32 MiB) whose references become exact edges for the files it covers',
          content: { 'application/x-scip': { schema: { type: 'string', format: 'binary' } }, 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
        },
        responses: {
          '200': { description: 'Committed; _meta.empty_reason says when nothing was indexed', content: jsonContent(enveloped(zodSchema(CommitResult, 'output'))) },
          ...errors({ '404': 'No open upload with this id (upload_not_found)', '409': 'Contents still missing (upload_incomplete) or taken over (upload_superseded)', '413': 'SCIP index over 32 MiB', '422': 'SCIP index unreadable (invalid_scip) or for other files (scip_mismatch)' }),
        },
      },
    },
  };
}

const ISO_OR_NULL: JsonSchema = { type: ['string', 'null'], format: 'date-time' };

const MOVE_STATUS_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['project', 'move', 'from', 'to', 'state', 'table', 'rows_copied', 'rows_total_estimate', 'percent', 'rows_removed', 'steps', 'started_at', 'last_step_at', 'heartbeat_at', 'abandoned', 'abandoned_after'],
  properties: {
    project: { type: 'string' },
    move: { type: ['string', 'null'], pattern: '^[0-9a-f]{32}$', description: "the move's id (the catalog records it when the move begins; its cursor carries the same); null only for a move begun before the catalog recorded ids whose first step wrote no cursor yet. DELETE …/move?move= given it cancels only this move" },
    from: { type: 'integer' },
    to: { type: 'integer' },
    state: { type: 'string', enum: ['copying', 'removing'], description: 'copying: the old shard answers and pushes are refused; removing: the catalog flipped, the old copy is being removed' },
    table: { type: ['string', 'null'], description: "the table being copied ('projects' last); null while removing or before the first step wrote its cursor" },
    rows_copied: { type: 'integer' },
    rows_total_estimate: { type: ['integer', 'null'], description: 'rows the copy writes, counted when it began; null before the first step wrote its cursor' },
    percent: { type: ['integer', 'null'], description: 'rows_copied of rows_total_estimate (100 once removing)' },
    rows_removed: { type: 'integer', description: 'rows of the old copy removed so far' },
    steps: { type: 'integer' },
    started_at: ISO_OR_NULL,
    last_step_at: { ...ISO_OR_NULL, description: "the newer of the catalog's heartbeat and the cursor's last write" },
    heartbeat_at: { ...ISO_OR_NULL, description: "the catalog's heartbeat on the primary (null once it flipped)" },
    abandoned: { type: 'boolean', description: 'no step for 10 minutes: pushes are accepted again and the next step takes the move over' },
    abandoned_after: { ...ISO_OR_NULL, description: 'when the move counts (or counted) as abandoned if no step comes' },
  },
};

const SHARDS_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['shards', 'moves'],
  properties: {
    shards: {
      type: 'array',
      items: {
        type: 'object',
        required: ['shard', 'binding', 'bytes', 'projects', 'moves_in', 'moves_out', 'leftovers'],
        properties: {
          shard: { type: 'integer', description: '0 for the primary (binding DB), n for DB_SHARD_<n>' },
          binding: { type: 'string' },
          bytes: { type: 'integer', description: "the database's stored bytes as D1 reports them" },
          projects: { type: 'integer', description: 'projects the catalog places on it' },
          moves_in: { type: 'array', items: { type: 'string' }, description: 'projects being moved onto this shard (details in `moves`)' },
          moves_out: { type: 'array', items: { type: 'string' }, description: 'projects being moved off this shard' },
          leftovers: {
            type: 'object',
            description: "leftover copies still to remove (an old copy after a move, a cancelled or aborted move's partial copy): the move's steps or the garbage collection remove them",
            required: ['count', 'projects'],
            properties: {
              count: { type: 'integer' },
              projects: {
                type: 'array',
                description: 'the oldest 20',
                items: { type: 'object', required: ['project', 'project_id', 'since'], properties: { project: { type: 'string' }, project_id: { type: 'string' }, since: { type: 'string', format: 'date-time' } } },
              },
            },
          },
        },
      },
    },
    moves: { type: 'array', description: 'the moves in flight, live or abandoned', items: MOVE_STATUS_SCHEMA },
  },
};

const ROWS_PER_TABLE: JsonSchema = { type: 'object', additionalProperties: { type: 'integer' } };

const MOVE_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['project', 'from', 'to', 'state', 'progress'],
  properties: {
    project: { type: 'string' },
    move: { type: 'string', pattern: '^[0-9a-f]{32}$', description: "the move's id: `next` carries it; a retry sent with it after the move finished answers `moved` again (`already_moved`)" },
    from: { type: 'integer' },
    to: { type: 'integer' },
    state: {
      type: 'string',
      enum: ['copying', 'removing', 'moved'],
      description: 'copying: the old shard answers every read and pushes are refused, call `next` again; removing: the catalog flipped, the new shard answers, the old copy is being removed, call `next` again; moved: done',
    },
    progress: {
      type: 'object',
      required: ['copied', 'rows_copied', 'rows_total_estimate', 'table', 'removed', 'steps', 'queries', 'query_budget'],
      properties: {
        copied: { ...ROWS_PER_TABLE, description: 'rows copied to the new shard so far, per table' },
        rows_copied: { type: 'integer' },
        rows_total_estimate: { type: 'integer', description: 'rows the copy writes, counted when it began (contents by distinct hash)' },
        table: { type: ['string', 'null'], description: 'the table being copied; null once the catalog flipped' },
        removed: { ...ROWS_PER_TABLE, description: 'rows removed from the old shard so far, per table' },
        steps: { type: 'integer', description: 'requests the move has taken, this one included' },
        queries: { type: 'integer', description: 'D1 queries this step made' },
        query_budget: { type: 'integer', description: 'D1 queries a step may make (PINCHER_MOVE_STEP_QUERIES, default 400)' },
      },
    },
    next: {
      type: 'object',
      description: 'the request that continues the move (absent once moved)',
      properties: {
        method: { type: 'string', enum: ['POST'] },
        path: { type: 'string' },
        body: { type: 'object', required: ['shard', 'move'], properties: { shard: { type: 'integer' }, move: { type: 'string', pattern: '^[0-9a-f]{32}$' } } },
      },
    },
    copied: { ...ROWS_PER_TABLE, description: 'when moved: rows copied to the new shard, per table' },
    removed: { ...ROWS_PER_TABLE, description: 'when moved: rows removed from the old shard, per table' },
    duration_ms: { type: 'integer', description: 'when moved: time since the first step' },
    finished_by_another_step: {
      type: 'boolean',
      enum: [true],
      description:
        'when moved: another step of the same move (a retry, a second client) finished it while this one ran; `progress` is the move as this step last saw it, and `copied`, `removed` and `duration_ms` are absent',
    },
    already_moved: {
      type: 'boolean',
      enum: [true],
      description:
        'when moved: the request carried the id of a move that had finished before it came (a retry of a step whose answer was lost); nothing was done, and `copied`, `removed` and `duration_ms` repeat the finished move\'s totals',
    },
  },
};

const CANCEL_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['project', 'shard', 'state', 'was_moving_to', 'removed', 'partial_copy_removed'],
  properties: {
    project: { type: 'string' },
    shard: { type: 'integer', description: 'the shard the project stays on' },
    state: { type: 'string', enum: ['cancelled'] },
    was_moving_to: { type: 'integer' },
    removed: { ...ROWS_PER_TABLE, description: 'rows of the partial copy removed by this request' },
    partial_copy_removed: { type: 'boolean', description: 'false: the garbage collection (or the next move to that shard) removes the rest' },
  },
};

/** Operator routes: shards and moves (admin key, docs/capacity.md). */
function adminPaths(): Record<string, unknown> {
  const adminErrors = (extra: Record<string, string> = {}) =>
    errors({ '403': 'Not the admin key (insufficient_scope), or no admin key configured (auth_not_configured)', ...extra });
  return {
    '/v1/admin/shards': {
      get: {
        operationId: 'listShards',
        summary:
          'The D1 shards with their stored bytes and projects, the moves in flight into and out of each (state, rows copied of the estimate, last step, abandoned) and the leftover copies still to remove (admin key)',
        tags: ['admin'],
        responses: { '200': { description: 'OK', content: jsonContent(enveloped(SHARDS_SCHEMA)) }, ...adminErrors() },
      },
    },
    '/v1/admin/projects/{project}/move': {
      post: {
        operationId: 'moveProject',
        summary:
          'One bounded step of moving a project to another shard (call again while `state` is not `moved`): copies its index page by page from a durable cursor while the old copy keeps answering, flips the catalog in one statement once the copy is complete, then removes the old copy. A small project moves in one call. Pushes are refused (project_moving) meanwhile; a move no step touched for 10 minutes is taken over by the next step (admin key)',
        tags: ['admin'],
        parameters: [PROJECT_PARAM],
        requestBody: {
          required: true,
          content: jsonContent({
            type: 'object',
            required: ['shard'],
            properties: {
              shard: { type: 'integer', minimum: 0, description: 'target shard index' },
              move: {
                type: 'string',
                pattern: '^[0-9a-f]{32}$',
                description:
                  "the move id: the `move` of the move's answers (its `next` carries it), or 32 hex digits of the client's own for a new move (the move takes it). Sent with every step, it makes a retry idempotent: a move that finished is answered `moved` again (`already_moved`) for 24 hours, while a request to the shard the project is on without the id of a move that finished there answers 409 already_on_shard",
              },
            },
          }),
        },
        responses: {
          '200': {
            description:
              'A step done: moved (also when another step of the same move finished it meanwhile: `finished_by_another_step`, or when the request carried the id of a move that had finished: `already_moved`), or copying / removing with `next` to call',
            content: jsonContent(enveloped(MOVE_SCHEMA)),
          },
          ...adminErrors({
            '404': 'No such project (project_not_found) or shard (unknown_shard)',
            '409':
              'Already on that shard and the request carried no id of a move that finished there (already_on_shard), a move to another shard running or this step overtaken by a cancel or a new move (project_moving), a push open (push_in_progress), or the project changed on its shard during the copy: the move ended and its partial copy is removed (move_source_changed)',
            '503': 'The project is placed on a shard this Worker is not bound to (shard_unavailable)',
          }),
        },
      },
      delete: {
        operationId: 'cancelProjectMove',
        summary:
          'Cancels the move of a project: it stays on its shard, pushes are accepted again at once, and the partial copy on the target is removed (what one request cannot remove, the garbage collection removes) (admin key)',
        tags: ['admin'],
        parameters: [
          PROJECT_PARAM,
          {
            name: 'move',
            in: 'query',
            required: false,
            schema: { type: 'string', pattern: '^[0-9a-f]{32}$' },
            description:
              "the id of the move to cancel (a move's answers and GET /v1/admin/shards carry it): the cancel ends only that move (also before its first step wrote a cursor), and answers 404 move_not_found when the move in progress is another one. Without it, the move in progress when the request reads the catalog is cancelled, whichever it is; a move begun after that is never ended by this request",
          },
        ],
        responses: {
          '200': { description: 'Cancelled', content: jsonContent(enveloped(CANCEL_SCHEMA)) },
          ...adminErrors({
            '400': 'move is not a move id: 32 lowercase hex digits (invalid_params)',
            '404': 'No such project (project_not_found), or it is not being moved, or its move ended (flipped or cancelled) while this request ran, or the move in progress is not the one named by `move` (move_not_found)',
            '503': 'The project is placed on a shard this Worker is not bound to (shard_unavailable)',
          }),
        },
      },
    },
  };
}

/** Probes, listings, metrics, MCP and the dashboard. */
function servicePaths(): Record<string, unknown> {
  const publicGet = (operationId: string, summary: string, schema: JsonSchema, extra: Record<string, unknown> = {}) => ({
    get: { operationId, summary, tags: ['probes'], security: [], responses: { '200': { description: 'OK', content: jsonContent(schema) }, '403': errorResponse('Host not allowed in open mode (host_not_allowed)'), ...extra } },
  });
  const keyedGet = (operationId: string, summary: string, content: Record<string, unknown>) => ({
    get: { operationId, summary, tags: ['probes'], responses: { '200': { description: 'OK', content }, ...errors() } },
  });
  return {
    '/': {
      get: {
        operationId: 'dashboard',
        summary: 'The dashboard (HTML): projects, pushes (live), tool-call activity, search, health; its script reads the API with the key entered in the page',
        tags: ['probes'],
        security: [],
        responses: { '200': { description: 'HTML', content: { 'text/html': { schema: { type: 'string' } } } }, '403': errorResponse('Host not allowed in open mode (host_not_allowed)') },
      },
    },
    '/v1/health': publicGet('healthProbe', 'Liveness', {
      type: 'object',
      required: ['ok', 'version', 'schema_version', 'auth_required'],
      properties: { ok: { type: 'boolean' }, version: { type: 'string' }, schema_version: { type: 'integer' }, auth_required: { type: 'boolean' } },
    }),
    '/v1/ready': (() => {
      const probe = publicGet(
        'readyProbe',
        'Readiness: every shard (or the one named) reachable with its migrations current',
        enveloped({ type: 'object', properties: { ready: { type: 'boolean' }, schema_version: { type: 'integer' }, applied_migrations: { type: ['integer', 'null'] }, reasons: { type: 'array', items: { type: 'string' } }, warnings: { type: 'array', items: { type: 'string' } } } }),
        {
          '400': errorResponse('shard is not a number (invalid_params)'),
          '404': errorResponse('No such shard (unknown_shard)'),
          '503': { description: 'Not ready, with reasons', content: jsonContent(enveloped({ type: 'object' })) },
        },
      );
      return { get: { ...probe.get, parameters: [{ name: 'shard', in: 'query', required: false, description: 'check this shard only (0 is the primary, DB); omitted, every shard', schema: { type: 'integer', minimum: 0 } }] } };
    })(),
    '/v1/openapi.json': publicGet('openapiDocument', 'This document', { type: 'object' }),
    '/v1/cli.tgz': {
      get: {
        operationId: 'cliTarball',
        summary: "The pincher-edge CLI matching this server, as an npm tarball: npx --yes <server>/v1/cli.tgz push",
        tags: ['CLI'],
        security: [],
        responses: {
          '200': { description: 'npm tarball (one bundled file, no dependencies, Node ≥ 20)', content: { 'application/gzip': { schema: { type: 'string', format: 'binary' } } } },
          '304': { description: 'Not modified (If-None-Match matched the ETag)' },
          '403': errorResponse('Host not allowed in open mode (host_not_allowed)'),
        },
      },
    },
    '/v1/cli/{file}': {
      get: {
        operationId: 'cliTarballVersioned',
        summary: 'The same tarball under its versioned name, pincher-edge-<version>.tgz (cached for good)',
        tags: ['CLI'],
        security: [],
        parameters: [{ name: 'file', in: 'path', required: true, description: "pincher-edge-<this server's version>.tgz", schema: { type: 'string' } }],
        responses: {
          '200': { description: 'npm tarball', content: { 'application/gzip': { schema: { type: 'string', format: 'binary' } } } },
          '304': { description: 'Not modified' },
          '404': errorResponse('Not the version this server serves (not_found)'),
        },
      },
    },
    '/v1/tools': keyedGet('listTools', 'Every tool with schemas, tier and toolset', jsonContent(enveloped({ type: 'object', properties: { tools: { type: 'array', items: { type: 'object' } } } }))),
    '/v1/capabilities': keyedGet('capabilitiesProbe', 'Capability tags true on this deployment', jsonContent(enveloped({ type: 'object', properties: { capabilities: { type: 'array', items: { type: 'string' } } } }))),
    '/v1/events': {
      get: {
        operationId: 'events',
        summary: 'Push lifecycle events as Server-Sent Events (upload_opened, files_received, committed, resolution_finished/pending, upload_aborted)',
        description:
          'Each message has an id (resume with the Last-Event-ID header or last_event_id), an event name (the type) and one data line of JSON. Without a resume point only new events are sent. The stream closes after PINCHER_EVENTS_STREAM_SECONDS (default 300) and the client reconnects; a `gap` event says events after the resume point were pruned.',
        tags: ['events'],
        parameters: [
          { name: 'project', in: 'query', required: false, description: 'only this project\'s events', schema: { type: 'string' } },
          { name: 'last_event_id', in: 'query', required: false, description: 'resume after this event id (0 replays every event kept)', schema: { type: 'integer', minimum: 0 } },
          { name: 'Last-Event-ID', in: 'header', required: false, description: 'what EventSource sends on reconnect; wins over last_event_id', schema: { type: 'string' } },
        ],
        responses: { '200': { description: 'text/event-stream', content: { 'text/event-stream': { schema: { type: 'string' } } } }, ...errors({ '422': 'Invalid project name (invalid_project_name)' }) },
      },
    },
    '/v1/activity': {
      get: {
        operationId: 'toolActivity',
        summary: 'Tool-call activity from the call log: per tool and in 24 buckets, calls, empty results by reason, errors, p50/p99 latency, tokens saved',
        tags: ['probes'],
        parameters: [{ name: 'hours', in: 'query', required: false, description: 'the window, ending now: 1–720 hours, default 24', schema: { type: 'integer', minimum: 1, maximum: 720 } }],
        responses: { '200': { description: 'The activity', content: jsonContent(enveloped(ACTIVITY_SCHEMA)) }, ...errors() },
      },
    },
    '/v1/projects': keyedGet('listProjects', 'Indexed projects', jsonContent(enveloped({ type: 'object', properties: { projects: { type: 'array', items: { type: 'object' } }, total: { type: 'integer' } } }))),
    '/v1/metrics': keyedGet('metricsProbe', 'Prometheus text metrics (running totals per tool and status)', { 'text/plain': { schema: { type: 'string' } } }),
    '/mcp': {
      post: {
        operationId: 'mcp',
        summary: 'MCP streamable HTTP (stateless; JSON responses, SSE when a call sends notifications): 2025-03-26 … 2025-11-25 and 2026-07-28',
        description: 'Stateless: there is no SSE stream to GET and no session to DELETE; GET, DELETE, PUT and PATCH on /mcp answer 405 with Allow: POST.',
        tags: ['MCP'],
        requestBody: { required: true, content: jsonContent({ type: 'object', description: 'a JSON-RPC 2.0 request or notification' }) },
        responses: {
          '200': { description: 'JSON-RPC response', content: jsonContent({ type: 'object' }) },
          '202': { description: 'Notification accepted' },
          ...errors({ '406': 'Accept must allow application/json', '415': 'Content-Type must be application/json' }),
        },
      },
    },
  };
}

/** OpenAPI 3.1, generated from the tool registry and the route schemas on every request. */
export function openApiDocument(serverUrl: string): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const tool of TOOLS) {
    paths[`/v1/tools/${tool.name}`] = {
      post: {
        operationId: tool.name,
        summary: tool.title,
        description: tool.description,
        tags: [tool.toolset === 'core' ? 'core tools' : 'tools'],
        'x-pincher-tier': tool.tier,
        'x-pincher-idempotent': tool.idempotent,
        'x-pincher-read-only': tool.annotations.readOnlyHint,
        'x-pincher-baseline': tool.baseline,
        requestBody: { required: false, content: { 'application/json': { schema: inputJsonSchema(tool) } } },
        responses: {
          '200': {
            description: 'The result and its envelope',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['result', '_meta'],
                  properties: { result: outputJsonSchema(tool, false), _meta: { $ref: '#/components/schemas/Meta' } },
                },
              },
            },
          },
          ...errors({ '413': 'Body over the cap' }),
        },
      },
    };
  }
  Object.assign(paths, uploadPaths(), servicePaths(), adminPaths());
  return {
    openapi: '3.1.0',
    info: {
      title: 'pincher-edge',
      version: VERSION,
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      description: 'Remote code intelligence for AI coding agents. Every response carries the _meta envelope.',
    },
    servers: [{ url: serverUrl }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'PINCHER_HTTP_KEY (read + write) or PINCHER_READ_KEY (read only); PINCHER_ADMIN_KEY for /v1/admin routes' } },
      schemas: { Meta: META_SCHEMA, Error: ERROR_SCHEMA },
    },
  };
}
