import { catalogEntries } from './catalog';
import { indexedProjects, listProjects, staleness, type IndexedProjects, type ProjectPage, type ProjectRow } from './projects';

/**
 * Project listings across every shard (src/db/shards.ts), merged as one
 * database would have answered them. A project appears once, from the shard
 * the catalog places it on: a move's copy on its target (before the flip) and
 * its leftover on the source (after it) are not listed. A project the catalog
 * does not know is listed from the primary (stored before the catalog).
 */
export interface ShardDb {
  index: number;
  db: D1Database;
}

/** Rows the listings read per shard at most: the merged page is cut from them. */
const MAX_PER_SHARD = 10_000;

function byCatalog(catalog: Map<string, number>, shard: number): (row: ProjectRow) => boolean {
  return (row) => (catalog.get(row.name) ?? 0) === shard;
}

async function catalogMap(primary: D1Database): Promise<Map<string, number>> {
  return new Map((await catalogEntries(primary)).map((e) => [e.name, e.shard]));
}

/** listProjects over every shard: ordered by name, `total` counting every match. */
export async function listProjectsAcross(
  shards: readonly ShardDb[],
  opts: { nameContains?: string; limit: number; offset: number },
): Promise<ProjectPage & { shardOf: Map<string, number>; every?: ProjectRow[] }> {
  if (shards.length === 1) {
    const page = await listProjects(shards[0].db, opts);
    return { ...page, shardOf: new Map(page.rows.map((r) => [r.id, shards[0].index])) };
  }
  const [catalog, ...pages] = await Promise.all([
    catalogMap(shards[0].db),
    ...shards.map((s) => listProjects(s.db, { nameContains: opts.nameContains, limit: MAX_PER_SHARD, offset: 0 })),
  ]);
  const shardOf = new Map<string, number>();
  const rows = pages.flatMap((page, i) => page.rows.filter(byCatalog(catalog, shards[i].index)).map((r) => (shardOf.set(r.id, shards[i].index), r)));
  rows.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  // Every matching row is in hand already: `every` spares a caller that needs them all another pass.
  return { total: rows.length, rows: rows.slice(opts.offset, opts.offset + opts.limit), shardOf, every: rows };
}

/** Stale first, then the latest indexed, then by name: indexedProjects' order. */
function indexedOrder(a: ProjectRow, b: ProjectRow): number {
  const stale = (p: ProjectRow) => (staleness(p) === null ? 0 : 1);
  return stale(b) - stale(a) || (b.indexedAt ?? 0) - (a.indexedAt ?? 0) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/** indexedProjects over every shard, with the shard of each listed row. */
export async function indexedProjectsAcross(
  shards: readonly ShardDb[],
  opts: { limit: number; offset: number; staleNamed: number },
): Promise<IndexedProjects & { shardOf: Map<string, number> }> {
  const shardOf = new Map<string, number>();
  if (shards.length === 1) {
    const page = await indexedProjects(shards[0].db, opts);
    for (const r of page.rows) shardOf.set(r.id, shards[0].index);
    return { ...page, shardOf };
  }
  const [catalog, ...pages] = await Promise.all([
    catalogMap(shards[0].db),
    ...shards.map((s) => indexedProjects(s.db, { limit: opts.offset + opts.limit, offset: 0, staleNamed: opts.staleNamed })),
  ]);
  const rows: ProjectRow[] = [];
  const stale: ProjectRow[] = [];
  let total = 0;
  let staleTotal = 0;
  pages.forEach((page, i) => {
    const keep = byCatalog(catalog, shards[i].index);
    // A row not kept here is a move's second copy: it is counted on the shard that keeps it.
    const dropped = page.rows.filter((r) => !keep(r));
    total += page.total - dropped.length;
    staleTotal += page.stale.total - page.stale.first.filter((r) => !keep(r)).length;
    for (const r of page.rows.filter(keep)) {
      shardOf.set(r.id, shards[i].index);
      rows.push(r);
    }
    stale.push(...page.stale.first.filter(keep));
  });
  rows.sort(indexedOrder);
  stale.sort(indexedOrder);
  return { total, rows: rows.slice(opts.offset, opts.offset + opts.limit), stale: { total: staleTotal, first: stale.slice(0, opts.staleNamed) }, shardOf };
}
