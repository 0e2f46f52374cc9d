/**
 * Project-wide figures kept in `project_aggregates` once per (generation,
 * graph_generation) of their project: architecture's and schema's snapshots,
 * health's file figures (src/db/architecture.ts) and a large project's
 * shallow root listing (src/db/content.ts). Only the first read after a push
 * pays for the passes they take; the answer always reflects the visible index.
 */
/** What an aggregate is kept by: the project's id and the generations it is computed from (a ProjectRow has them). */
export interface AggregateProject {
  id: string;
  generation: number;
  graphGeneration: number;
}

export interface AggregateRead<T> {
  value: T;
  /** True when the stored row answered; false when this call computed (and stored) it. */
  cached: boolean;
  /** Wall time the computation took, now or when it was stored. */
  computedMs: number;
}

/**
 * A project-wide aggregate for the generations `project` holds: the stored
 * row `name` when it was computed from exactly those, else `compute()` now,
 * stored only while the project still holds them (a push that commits
 * meanwhile leaves no row behind that claims a generation it was not computed
 * from).
 */
export async function cachedAggregate<T>(d1: D1Database, project: AggregateProject, name: string, compute: () => Promise<T>): Promise<AggregateRead<T>> {
  const row = await d1
    .prepare('SELECT generation, graph_generation, body, computed_ms FROM project_aggregates WHERE project_id = ?1 AND name = ?2')
    .bind(project.id, name)
    .first<{ generation: number; graph_generation: number; body: string; computed_ms: number }>();
  if (row && row.generation === project.generation && row.graph_generation === project.graphGeneration) {
    return { value: JSON.parse(row.body) as T, cached: true, computedMs: row.computed_ms };
  }
  const t0 = Date.now();
  const value = await compute();
  const computedMs = Date.now() - t0;
  await d1
    .prepare(
      `INSERT INTO project_aggregates (project_id, name, generation, graph_generation, body, computed_ms, computed_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7 FROM projects WHERE id = ?1 AND generation = ?3 AND graph_generation = ?4
       ON CONFLICT (project_id, name) DO UPDATE SET generation = excluded.generation, graph_generation = excluded.graph_generation,
         body = excluded.body, computed_ms = excluded.computed_ms, computed_at = excluded.computed_at`,
    )
    .bind(project.id, name, project.generation, project.graphGeneration, JSON.stringify(value), computedMs, Date.now())
    .run();
  return { value, cached: false, computedMs };
}
