import { nestedSymbols, symbolsByIds, symbolsByQualifiedKind, type SymbolRow } from '../../db/source';
import type { ToolContext } from '../define';
import { parseSymbolId, type ParsedId } from '../../symbols/symbol-id';
import { movedSymbolOf } from '../../db/names';
import { outlinesByOwner, viewOf, type OutlineEntry, wantsOutline, wantsSource, type Detail, type SymbolField, type SymbolView } from './view';

export interface IdLookup {
  /** Views by the id asked for (a moved symbol is keyed by the old id). */
  found: Map<string, SymbolView>;
  /** The rows behind `found`, same keys. */
  rows: Map<string, SymbolRow>;
  /** Ids of the right shape that resolve to nothing, in input order. */
  missing: string[];
  /** Ids that are not of the shape `{file_path}::{qualified_name}#{Kind}`, in input order. */
  malformed: string[];
  /** The files the answer draws on, for the full_file_read baseline. */
  files: { path: string; size: number }[];
}

/**
 * Resolves symbol ids in two or three statements whatever their number:
 * the ids themselves (but those `opts.knownAbsent` holds: the caller read them and
 * found nothing); for the missing ones, the same qualified name and kind
 * in another file (a moved file: reported with a `symbol_moved` warning);
 * then outlines when a skeleton is asked for.
 */
export async function lookupIds(
  ctx: ToolContext,
  projectId: string,
  ids: readonly string[],
  opts: {
    fields?: readonly SymbolField[];
    detail: Detail;
    knownAbsent?: ReadonlySet<string>;
    /** Called with the ids of the right shape found absent, as their moved files are looked for: what it asks at once rides in that round trip. */
    onAbsent?: (ids: readonly string[]) => void;
  },
): Promise<IdLookup> {
  const parsed = new Map<string, ParsedId>();
  const malformed: string[] = [];
  for (const id of ids) {
    const p = parseSymbolId(id);
    if (p) parsed.set(id, p);
    else malformed.push(id);
  }
  const withSource = wantsSource(opts.fields, opts.detail);
  const rows = new Map<string, SymbolRow>();
  // Ids the caller already read and found absent (trace's walk reads its start's row) are not read again.
  const asked = [...parsed.keys()].filter((id) => !opts.knownAbsent?.has(id));
  for (const r of await symbolsByIds(ctx.db, projectId, asked, withSource)) rows.set(r.id, r);

  // Ids that no longer exist: the same qualified name and kind in another file means the file moved.
  const absent = [...parsed.values()].filter((p) => !rows.has(p.id));
  const movedTo = new Map<string, string>();
  if (absent.length > 0) {
    opts.onAbsent?.(absent.map((p) => p.id));
    const hits = await symbolsByQualifiedKind(
      ctx.db,
      projectId,
      absent.map((p) => ({ key: p.id, ...movedSymbolOf(p) })),
    );
    const byWant = new Map<string, string[]>();
    for (const h of hits) {
      const from = parsed.get(h.want);
      if (!from) continue;
      byWant.set(h.want, [...(byWant.get(h.want) ?? []), h.id]);
    }
    for (const [want, candidates] of byWant) {
      const repeat = parsed.get(want)?.repeat ?? '';
      const same = candidates.find((c) => (parseSymbolId(c)?.repeat ?? '') === repeat);
      const to = same ?? candidates[0];
      movedTo.set(want, to);
      ctx.meta.warn('symbol_moved', `${want} is now ${to} (its file moved or was renamed); use the new id`, {
        requested: want,
        id: to,
        ...(candidates.length > 1 ? { candidates: candidates.slice(0, 10) } : {}),
      });
    }
    const extra = [...new Set(movedTo.values())].filter((id) => !rows.has(id));
    for (const r of await symbolsByIds(ctx.db, projectId, extra, withSource)) rows.set(r.id, r);
  }

  const resolved = [...parsed.keys()].map((id) => [id, rows.get(movedTo.get(id) ?? id)] as const);
  const outlines = wantsOutline(opts.fields, opts.detail) ? await outlinesFor(ctx, projectId, resolved.flatMap(([, r]) => (r ? [r] : []))) : new Map();

  const found = new Map<string, SymbolView>();
  const foundRows = new Map<string, SymbolRow>();
  const missing: string[] = [];
  const files = new Map<string, number>();
  for (const [id, row] of resolved) {
    if (!row) {
      missing.push(id);
      continue;
    }
    files.set(row.file_path, row.file_size);
    foundRows.set(id, row);
    found.set(id, viewOf(row, { ...opts, outline: outlines.get(row.id), movedFrom: row.id === id ? undefined : id }));
  }
  return { found, rows: foundRows, missing, malformed, files: [...files].map(([path, size]) => ({ path, size })) };
}

/** Outline rows across every skeleton of one answer, so many skeletons cannot flood it. */
export const OUTLINE_BUDGET = 2000;

/** The outlines of `rows` (skeleton views), OUTLINE_BUDGET shared among them; for callers that already hold the rows. */
export async function outlinesFor(ctx: ToolContext, projectId: string, rows: readonly SymbolRow[]): Promise<Map<string, OutlineEntry[]>> {
  const owners = [...new Map(rows.map((r) => [r.id, r])).values()];
  if (owners.length === 0) return new Map();
  const perOwner = Math.max(20, Math.floor(OUTLINE_BUDGET / owners.length));
  const nested = await nestedSymbols(ctx.db, projectId, owners, perOwner);
  const cut = [...new Map(nested.filter((r) => r.total > perOwner).map((r) => [r.owner, r.total])).entries()];
  if (cut.length > 0) {
    ctx.meta.warn(
      'outline_truncated',
      `the outline of ${cut.map(([id, total]) => `${id} (${total} nested symbols)`).slice(0, 5).join(', ')} shows its first ${perOwner}; read with symbol and map shows a symbol's whole map`,
      { per_owner: perOwner, truncated: cut.map(([id, total]) => ({ id, total })) },
    );
  }
  return outlinesByOwner(nested);
}
