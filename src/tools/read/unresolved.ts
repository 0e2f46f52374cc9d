import { fileMeta, symbolsByNames } from '../../db/source';
import type { ToolContext } from '../define';
import { startExtractionGaps } from '../extraction-gaps';
import { ownerOf, startNearestNames } from '../nearest-names';
import { explainNoSymbols, holdsNoSymbols } from '../no-symbols';
import { lookupIds, type IdLookup } from './lookup';
import type { ProjectRow } from '../../db/projects';
import { movedSymbolOf } from '../../db/names';
import { ID_SHAPE, namePart, parseSymbolId } from '../../symbols/symbol-id';
import { namePick } from '../../db/name-pick';

/**
 * lookupIds of one id, with `explain` to call when it resolved to nothing
 * (not even in a moved file): the diagnosis and recovery steps. When the id is
 * absent, the recovery's questions are asked with the look-up of its moved
 * file, in the same round trip (unused when it moved).
 */
export async function lookupOrExplain(
  ctx: ToolContext,
  project: ProjectRow,
  id: string,
  opts: Omit<Parameters<typeof lookupIds>[3], 'onAbsent'>,
): Promise<{ found: IdLookup; explain: () => Promise<void> }> {
  let started: (() => Promise<void>) | null = null;
  const onAbsent = ([absent]: readonly string[]) => void (started = startUnresolvedId(ctx, project, absent, true));
  const found = await lookupIds(ctx, project.id, [id], { ...opts, onAbsent });
  return { found, explain: started ?? (() => explainUnresolvedId(ctx, project, id)) };
}

/** The diagnosis and recovery steps for an id that resolved to nothing. */
export async function explainUnresolvedId(ctx: ToolContext, project: ProjectRow, id: string): Promise<void> {
  await startUnresolvedId(ctx, project, id)();
}

/**
 * explainUnresolvedId in two steps: every question of the recovery is asked
 * now, and the diagnosis and steps are written by calling the returned
 * function (nothing is written before). With `whileMoving`, the questions
 * ride with the look-up of the id's moved file (lookupIds' `onAbsent`): the
 * did-you-mean and the extraction gaps then read nothing when the symbol has
 * moved, and the caller writes nothing when it has.
 */
export function startUnresolvedId(ctx: ToolContext, project: ProjectRow, id: string, whileMoving = false): () => Promise<void> {
  if (holdsNoSymbols(project)) {
    return async () => {
      explainNoSymbols(ctx, project, namePart(id) || undefined, 'no id');
    };
  }
  const projectName = project.name;
  const projectId = project.id;
  const parsed = parseSymbolId(id);
  const name = namePart(id);
  // Repairs the server can check: the same qualified name in the named file under another kind. Every question of
  // the recovery is asked at once (one round trip); the steps are written in this order.
  const path = parsed?.path ?? (id.includes('::') ? id.slice(0, id.indexOf('::')) : undefined);
  const qualified = parsed?.qualifiedName ?? (path ? id.slice(path.length + 2).replace(/#[^#]*$/, '') : undefined);
  const relocated = path && qualified ? symbolsByNames(ctx.db, projectId, [namePick(qualified)], [], { path, limit: 20 }) : Promise.resolve([]);
  const moved = whileMoving && parsed ? movedSymbolOf(parsed) : null;
  const near = name ? startNearestNames(ctx, project, name, 'symbol', (found) => ({ id: found }), moved, { path, parent: qualified ? ownerOf(qualified) : null }) : null;
  const file = path ? fileMeta(ctx.db, projectId, path) : Promise.resolve(null);
  const gaps = startExtractionGaps(ctx, project, name || null, { setEmpty: false, unlessMoved: moved });
  // Awaited in turn: one that fails first leaves the others unawaited.
  for (const asked of [relocated, file]) asked.catch(() => undefined);
  return async () => {
    explainUnresolved(ctx, projectName, id, parsed);
    for (const r of (await relocated).filter((row) => row.qualified_name === qualified).slice(0, 3)) {
      ctx.meta.next('symbol', { project: projectName, id: r.id }, `the symbol ${qualified} in ${path} has id ${r.id}`);
    }
    if (near) await near();
    if (path && (await file)) {
      ctx.meta.next('read', { project: projectName, path, map: true }, `see the symbols of ${path} with their line ranges`);
    }
    await gaps();
  };
}

/** The empty reason of an unresolved id: no such symbol, or not an id at all. */
function explainUnresolved(ctx: ToolContext, projectName: string, id: string, parsed: ReturnType<typeof parseSymbolId>): void {
  if (parsed) {
    ctx.meta.empty('target_not_resolved', `no symbol ${id} in project '${projectName}', and no ${parsed.qualifiedName}#${parsed.kind} in another file`, {
      id,
    });
  } else {
    ctx.meta.empty(
      'target_not_resolved',
      `'${id}' is not a symbol id: ids have the shape ${ID_SHAPE}, e.g. src/app.ts::Server.start#Method; search returns exact ids`,
      { id, shape: ID_SHAPE },
    );
  }
}
