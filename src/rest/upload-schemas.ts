import * as z from 'zod';
import { MAX_PATH_BYTES, pathProblem } from '../upload/paths';

/**
 * The upload API's bodies (docs/indexing.md), as zod schemas: the routes
 * validate the request fields with them, and the OpenAPI document is
 * generated from them. Per-entry rules that need the whole manifest
 * (duplicates, case clashes, one size per hash) stay in the service, with
 * their own typed errors; a test holds schema and service to the same verdicts.
 */

const SHA256 = z
  .string()
  .regex(/^[0-9a-f]{64}$/, 'hash must be 64 lowercase hex characters (SHA-256)')
  .meta({ description: 'lowercase hex SHA-256 of the file bytes' });

const RELATIVE_PATH = z
  .string()
  .min(1)
  .refine((p) => pathProblem(p) === null, { error: (iss) => pathProblem(iss.input) ?? 'invalid path' })
  .meta({ description: `repository-relative, /-separated, no '.', '..' or empty segment, no backslash or NUL, at most ${MAX_PATH_BYTES} UTF-8 bytes` });

export const ManifestEntrySchema = z.object({
  path: RELATIVE_PATH,
  hash: SHA256,
  size: z.number().int('size must be a non-negative integer').min(0, 'size must be a non-negative integer').meta({ description: 'byte length of the file (UTF-8)' }),
});

const REF_ERR = 'ref must be a string of at most 200 characters';
const COMMIT_ERR = 'commit must be a string of at most 100 characters';
const PUSHED_BY_ERR = 'pushed_by must be a string of at most 100 characters';

export const OpenUploadBody = z.object({
  manifest: z
    .array(ManifestEntrySchema)
    .max(100_000)
    .meta({ description: 'every file of the push once; paths unique, also after folding letter case; one size per hash' }),
  mode: z
    .enum(['replace', 'merge'], { error: 'mode must be one of: replace, merge' })
    .optional()
    .meta({ description: 'replace (default): files not listed are deleted; merge: files not listed are kept' }),
  ref: z.string({ error: REF_ERR }).max(200, REF_ERR).nullable().optional().meta({ description: 'branch or tag, shown in project listings' }),
  commit: z.string({ error: COMMIT_ERR }).max(100, COMMIT_ERR).nullable().optional().meta({ description: 'commit the push was taken from' }),
  pushed_by: z
    .string({ error: PUSHED_BY_ERR })
    .max(100, PUSHED_BY_ERR)
    .nullable()
    .optional()
    .meta({ description: 'who pushes (a CI actor or user name), shown in push history' }),
  take_over: z
    .boolean({ error: 'take_over must be true or false' })
    .optional()
    .meta({ description: "supersede this project's open upload at once (a cancelled CI job's)" }),
});

const ChangeCountsSchema = z.object({ new: z.number().int(), changed: z.number().int(), unchanged: z.number().int(), deleted: z.number().int() });

export const OpenUploadResult = z.object({
  upload_id: z.string(),
  project: z.string(),
  expires_at: z.string().meta({ description: 'ISO time; each batch renews it' }),
  missing: z.array(z.string()).meta({ description: 'hashes of contents the server lacks: send them in file batches' }),
  plan: ChangeCountsSchema,
  superseded: z.string().optional().meta({ description: 'the abandoned (or taken over) upload this one replaced' }),
});

export const FilesBody = z.object({
  files: z
    .array(z.object({ path: RELATIVE_PATH, hash: SHA256, content: z.string().meta({ description: 'the file bytes as UTF-8 text' }) }))
    .min(1)
    .meta({ description: 'contents named by `missing`, under a path of the manifest with that hash; at most 4 MiB per body' }),
});

export const FilesResult = z.object({
  accepted: z.number().int(),
  skipped: z.array(z.object({ path: z.string(), reason: z.string() })),
  failures: z.array(z.object({ path: z.string(), reason: z.string(), message: z.string().nullable() })),
  symbols: z.number().int(),
});

export const CommitResult = z.object({
  project: z.string(),
  ref: z.string().nullable(),
  commit: z.string().nullable(),
  files: z.object({
    new: z.number().int(),
    changed: z.number().int(),
    unchanged: z.number().int(),
    deleted: z.number().int(),
    skipped: z.number().int(),
    failed: z.number().int(),
  }),
  skipped_by_reason: z.record(z.string(), z.number().int()),
  failed_by_reason: z.record(z.string(), z.number().int()),
  symbols: z.number().int(),
  symbols_added: z.number().int(),
  edges: z.number().int().optional().meta({ description: 'resolved graph edges after the push; absent when resolution did not finish' }),
  scip: z
    .object({
      tool: z.string().nullable(),
      tool_version: z.string().nullable(),
      documents: z.number().int(),
      files_covered: z.number().int(),
      skipped: z.record(z.string(), z.number().int()),
      definitions: z.number().int().optional(),
      unmapped_definitions: z.number().int().optional(),
      edges: z.number().int().nullable(),
    })
    .optional()
    .meta({ description: 'what the server made of a SCIP index sent with the commit (docs/graph.md)' }),
  duration_ms: z.number().int(),
});

export const UploadStatusResult = z.object({
  upload_id: z.string(),
  project: z.string(),
  status: z.enum(['open', 'committed', 'aborted', 'expired', 'superseded']),
  ref: z.string().nullable(),
  commit: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
  plan: ChangeCountsSchema,
});

export const AbortResult = z.object({ upload_id: z.string(), status: z.literal('aborted') });

/** The first problem zod found, as one line (`field: message`). */
export function firstIssue(error: z.ZodError): { field: string; message: string } {
  const issue = error.issues[0];
  return { field: issue.path.map(String).join('.'), message: issue.message };
}
