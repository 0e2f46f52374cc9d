import { fileMeta, symbolsByNames } from '../../db/source';
import type { ToolContext } from '../define';
import { startExtractionGaps } from '../extraction-gaps';
import { startNearestNames } from '../nearest-names';
import { explainNoSymbols } from '../no-symbols';
import type { ProjectRow } from '../../db/projects';
import { ID_SHAPE, nameCandidates, namePart, parseSymbolId } from '../../symbols/symbol-id';

/** The diagnosis and recovery steps for an id that resolved to nothing. */
export async function explainUnresolvedId(ctx: ToolContext, project: ProjectRow, id: string): Promise<void> {
  if (explainNoSymbols(ctx, project, namePart(id) || undefined, 'no id')) return;
  const projectName = project.name;
  const projectId = project.id;
  const parsed = parseSymbolId(id);
  const name = namePart(id);
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
  // Repairs the server can check: the same qualified name in the named file under another kind. Every question of
  // the recovery is asked at once (one round trip); the steps are written in this order.
  const path = parsed?.path ?? (id.includes('::') ? id.slice(0, id.indexOf('::')) : undefined);
  const qualified = parsed?.qualifiedName ?? (path ? id.slice(path.length + 2).replace(/#[^#]*$/, '') : undefined);
  const relocated = path && qualified ? symbolsByNames(ctx.db, projectId, nameCandidates(qualified), { path, limit: 20 }) : Promise.resolve([]);
  const near = name ? startNearestNames(ctx, project, name, 'symbol', (found) => ({ id: found })) : null;
  const file = path ? fileMeta(ctx.db, projectId, path) : Promise.resolve(null);
  const gaps = startExtractionGaps(ctx, project, name || null, { setEmpty: false });
  // Awaited in turn: one that fails first leaves the others unawaited.
  for (const asked of [relocated, file]) asked.catch(() => undefined);
  for (const r of (await relocated).filter((row) => row.qualified_name === qualified).slice(0, 3)) {
    ctx.meta.next('symbol', { project: projectName, id: r.id }, `the symbol ${qualified} in ${path} has id ${r.id}`);
  }
  if (near) await near();
  if (path && (await file)) {
    ctx.meta.next('read', { project: projectName, path, map: true }, `see the symbols of ${path} with their line ranges`);
  }
  await gaps();
}
