/**
 * A SCIP index pushed with a commit (docs/indexing.md, "SCIP index"): decoded and checked
 * against the upload's files before the commit batch runs, so a bad index is refused with
 * nothing changed; the checked documents then steer the commit's resolution pass.
 */
import { PincherError } from '../errors';
import type { MetaCollector } from '../envelope/collector';
import { uploadLineCounts, uploadPaths } from '../db/scip';
import { checkScip, countReasons, type ScipCheck } from '../graph/scip/check';
import { decodeScip, ScipDecodeError, type ScipIndex } from '../graph/scip/decode';

/** Largest index a commit accepts (the index travels as the commit request's body). */
export const MAX_SCIP_BYTES = 32 * 1024 * 1024;
/** Pushed paths read to explain an index that matches none of them. */
const PATHS_FOR_DIAGNOSIS = 20_000;
/** Media types of a commit body carrying a SCIP index. */
export const SCIP_MEDIA_TYPES: readonly string[] = ['application/x-scip', 'application/x-protobuf', 'application/octet-stream'];

export interface PushedScip extends ScipCheck {
  tool: string;
  toolVersion: string;
  /** Documents in the index, covered or not. */
  total: number;
}

function decode(bytes: Uint8Array): ScipIndex {
  if (bytes.length === 0) {
    throw new PincherError('invalid_scip', 'the SCIP index is empty (0 bytes)', {
      suggestion: 'check that the indexer finished and wrote index.scip; or push with --no-scip',
    });
  }
  try {
    return decodeScip(bytes);
  } catch (err) {
    if (!(err instanceof ScipDecodeError)) throw err;
    throw new PincherError('invalid_scip', `the body is not a SCIP index (protobuf ${err.message}); nothing was changed`, {
      suggestion: 'send the index.scip file the indexer wrote, unmodified, as the commit body (Content-Type: application/x-scip); or push with --no-scip',
      details: { offset: err.offset, bytes: bytes.length },
    });
  }
}

/** Decodes and checks an index against the upload's files; throws before anything is written. */
export async function prepareScip(d1: D1Database, uploadId: string, bytes: Uint8Array): Promise<PushedScip> {
  const index = decode(bytes);
  const paths = index.documents.map((d) => d.relativePath.replace(/^\.\//, ''));
  const lines = await uploadLineCounts(d1, uploadId, paths);
  // No document names a pushed file: the pushed paths let the refusal say where the index belongs.
  const checked = checkScip(index, lines, lines.size === 0 ? await uploadPaths(d1, uploadId, PATHS_FOR_DIAGNOSIS) : undefined);
  return { ...checked, tool: index.toolName, toolVersion: index.toolVersion, total: index.documents.length };
}

/** The commit answer's `scip` part, with a warning for the documents left out. */
export function reportScip(scip: PushedScip, meta: MetaCollector): Record<string, unknown> {
  if (scip.skipped.length > 0) {
    const counts = countReasons(scip.skipped);
    meta.warn(
      'scip_documents_skipped',
      `${scip.skipped.length} of the ${scip.total} document(s) of the SCIP index were left out (${Object.entries(counts).map(([r, n]) => `${n} ${r}`).join(', ')}); their files keep the heuristic graph. Run the indexer at the push root on the pushed checkout so every document matches a pushed file`,
      { skipped: counts, sample: scip.skipped.slice(0, 5) },
    );
  }
  return {
    tool: scip.tool || null,
    tool_version: scip.toolVersion || null,
    documents: scip.total,
    files_covered: scip.documents.length,
    skipped: countReasons(scip.skipped),
  };
}
