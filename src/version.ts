/** Product version reported by `/v1/health` and MCP `serverInfo`. */
export const VERSION = '0.1.0';

/**
 * The D1 schema this code was built for: the number of migration files in
 * `migrations/`. A test holds this constant equal to the folder's contents, so
 * adding a migration without bumping it fails CI.
 */
export const SCHEMA_VERSION = 30;

/**
 * The oldest schema whose index this code answers from as from one it built
 * itself: the migrations since only changed how rows are stored and carried
 * every row over (0024: references in runs, the old layout still read;
 * 0025: edge ends stored once). A project indexed under an older schema is
 * stale (src/db/projects.ts `staleness`: empty answers say `stale_index`,
 * health lists it) and its next push rebuilds its whole graph
 * (src/db/resolution.ts `planResolution`); one indexed since is neither,
 * whatever SCHEMA_VERSION says.
 * Raise it to SCHEMA_VERSION with a migration after which a re-push would
 * index differently.
 */
export const INDEX_SCHEMA_VERSION = 24;
