import { claimCredits } from '../db/credits';
import { tokensForBytes } from '../envelope/tokens';
import type { ToolContext } from './define';

/**
 * Declares the `full_file_read` baseline: what reading every distinct file
 * the answer references would have cost (stored sizes, chars/4), minus files
 * already credited to this session when the client sent a session id.
 *
 * @example
 * await fullFileReadBaseline(ctx, project.id, [{ path: 'src/a.ts', size: 4096 }]);
 */
export async function fullFileReadBaseline(ctx: ToolContext, projectId: string, files: readonly { path: string; size: number }[]): Promise<void> {
  const distinct = new Map<string, number>();
  for (const f of files) distinct.set(f.path, f.size);
  let credited = [...distinct.keys()];
  const session = ctx.meta.sessionId;
  if (session) credited = [...(await claimCredits(ctx.db, session, projectId, credited, Date.now()))];
  const bytes = credited.reduce((n, p) => n + (distinct.get(p) ?? 0), 0);
  ctx.meta.baseline('full_file_read', tokensForBytes(bytes));
}
