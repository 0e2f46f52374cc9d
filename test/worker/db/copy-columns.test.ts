import { describe, expect, it } from 'vitest';
import { PROJECT_TABLES } from '../../../src/db/project-copy';
import { DB } from '../graph/support';

// A move copies a project's rows with `SELECT *`, which reads generated columns too; an INSERT naming one fails
// ("cannot INSERT into generated column"), so every generated column a migration adds must be declared in the copy.
// A view (edges, migration 0025) is written through its INSTEAD OF INSERT trigger: the columns that trigger does
// not read are computed by the view, and the copy must declare exactly those.
describe('the project copy and the schema', () => {
  it('declares exactly the generated columns of every table it copies (of a view: the columns its insert trigger does not read)', async () => {
    for (const spec of PROJECT_TABLES) {
      const { results } = await DB.prepare('SELECT name, hidden FROM pragma_table_xinfo(?1)').bind(spec.table).all<{ name: string; hidden: number }>();
      expect(results.length, spec.table).toBeGreaterThan(0);
      // hidden 2: virtual generated, 3: stored generated.
      const view = await DB.prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?1 AND sql LIKE '%INSTEAD OF INSERT%'").bind(spec.table).first<{ sql: string }>();
      const read = new Set([...(view?.sql ?? '').matchAll(/NEW\.`?(\w+)`?/g)].map((m) => m[1]));
      const generated = view
        ? results.map((c) => c.name).filter((c) => c !== 'rowid' && !read.has(c)).sort()
        : results.filter((c) => c.hidden === 2 || c.hidden === 3).map((c) => c.name).sort();
      expect([...(spec.generated ?? [])].sort(), spec.table).toEqual(generated);
    }
  });
});
