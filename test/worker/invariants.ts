import { env } from 'cloudflare:workers';

/**
 * Database invariants every committed state must hold, whatever push failed,
 * raced or was collected before. Each check names the rows that break it;
 * `checkInvariants()` answers the list of broken ones (empty when all hold).
 */
const CHECKS: Record<string, string> = {
  'symbols without their file': `SELECT s.project_id || ':' || s.id AS v FROM symbols s
     WHERE NOT EXISTS (SELECT 1 FROM files f WHERE f.project_id = s.project_id AND f.path = s.file_path)`,
  'refs without their file': `SELECT r.project_id || ':' || r.file_path AS v FROM refs r
     WHERE NOT EXISTS (SELECT 1 FROM files f WHERE f.project_id = r.project_id AND f.path = r.file_path)`,
  'files without their extraction': `SELECT f.project_id || ':' || f.path AS v FROM files f
     WHERE NOT EXISTS (SELECT 1 FROM extractions e WHERE e.hash = f.hash AND e.language = f.language AND e.extractor_version = f.extractor_version)`,
  'readable files without their content': `SELECT f.project_id || ':' || f.path AS v FROM files f
     WHERE coalesce(f.reason, '') NOT IN ('binary', 'encoding', 'file_too_large')
       AND NOT EXISTS (SELECT 1 FROM blobs b WHERE b.hash = f.hash)`,
  'extractions of stored content without it': `SELECT e.hash || ':' || e.language AS v FROM extractions e
     WHERE coalesce(e.reason, '') NOT IN ('binary', 'encoding', 'file_too_large')
       AND EXISTS (SELECT 1 FROM files f WHERE f.hash = e.hash)
       AND NOT EXISTS (SELECT 1 FROM blobs b WHERE b.hash = e.hash)`,
  'file sizes differing from their content': `SELECT f.project_id || ':' || f.path AS v FROM files f JOIN blobs b ON b.hash = f.hash WHERE f.size <> b.size`,
  'edges of a settled graph without their source file': `SELECT e.project_id || ':' || e.src_file AS v FROM edges e
     JOIN projects p ON p.id = e.project_id AND p.graph_generation = p.generation
     WHERE NOT EXISTS (SELECT 1 FROM files f WHERE f.project_id = e.project_id AND f.path = e.src_file)`,
  'edges of a settled graph to a missing symbol': `SELECT e.project_id || ':' || e.dst_file || '::' || e.dst_key AS v FROM edges e
     JOIN projects p ON p.id = e.project_id AND p.graph_generation = p.generation
     WHERE e.dst_key IS NOT NULL AND NOT EXISTS (SELECT 1 FROM symbols s WHERE s.project_id = e.project_id AND s.id = e.dst_file || '::' || e.dst_key)`,
  'project file counts': `SELECT p.name AS v FROM projects p WHERE p.indexed_at IS NOT NULL
     AND p.file_count <> (SELECT count(*) FROM files f WHERE f.project_id = p.id)`,
  'project symbol counts': `SELECT p.name AS v FROM projects p WHERE p.indexed_at IS NOT NULL
     AND p.symbol_count <> (SELECT count(*) FROM symbols s WHERE s.project_id = p.id)`,
  'symbols missing from search': `SELECT 'symbols ' || (SELECT count(*) FROM symbols) || ' vs fts ' || (SELECT count(*) FROM symbols_fts) AS v
     WHERE (SELECT count(*) FROM symbols) <> (SELECT count(*) FROM symbols_fts)`,
  'symbol names missing from symbol_names': `SELECT DISTINCT s.project_id || ':' || s.name AS v FROM symbols s
     WHERE NOT EXISTS (SELECT 1 FROM symbol_names n WHERE n.project_id = s.project_id AND n.name = s.name)`,
  'symbol_names rows without a symbol': `SELECT n.project_id || ':' || n.name AS v FROM symbol_names n
     WHERE NOT EXISTS (SELECT 1 FROM symbols s WHERE s.project_id = n.project_id AND s.name = n.name)`,
  'projects with two open uploads': `SELECT project_id AS v FROM uploads WHERE status = 'open' GROUP BY project_id HAVING count(*) > 1`,
  'manifests without their upload': `SELECT DISTINCT u.upload_id AS v FROM upload_files u WHERE NOT EXISTS (SELECT 1 FROM uploads up WHERE up.id = u.upload_id)`,
  'symbols of files in another language': `SELECT s.project_id || ':' || s.id AS v FROM symbols s
     JOIN files f ON f.project_id = s.project_id AND f.path = s.file_path WHERE f.language <> s.language`,
};

/** The broken invariants, each with up to five offending rows; [] when the database is consistent. */
export async function checkInvariants(): Promise<string[]> {
  const broken: string[] = [];
  for (const [name, sql] of Object.entries(CHECKS)) {
    const rows = (await env.DB.prepare(`${sql} LIMIT 5`).all<{ v: string }>()).results;
    if (rows.length) broken.push(`${name}: ${rows.map((r) => r.v).join(', ')}`);
  }
  return broken;
}
