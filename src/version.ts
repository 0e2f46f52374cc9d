/** Product version reported by `/v1/health` and MCP `serverInfo`. */
export const VERSION = '0.1.0';

/**
 * The D1 schema this code was built for: the number of migration files in
 * `migrations/`. A test holds this constant equal to the folder's contents, so
 * adding a migration without bumping it fails CI.
 */
export const SCHEMA_VERSION = 26;
