import { describe, expect, it } from 'vitest';
import { PROJECT_TABLES } from '../../../src/db/project-copy';
import { DB } from '../graph/support';

// A move copies a project's rows with `SELECT *`, which reads generated columns too; an INSERT naming one fails
// ("cannot INSERT into generated column"), so every generated column a migration adds must be declared in the copy.
describe('the project copy and the schema', () => {
  it('declares exactly the generated columns of every table it copies', async () => {
    for (const spec of PROJECT_TABLES) {
      const { results } = await DB.prepare('SELECT name, hidden FROM pragma_table_xinfo(?1)').bind(spec.table).all<{ name: string; hidden: number }>();
      expect(results.length, spec.table).toBeGreaterThan(0);
      // hidden 2: virtual generated, 3: stored generated.
      const generated = results.filter((c) => c.hidden === 2 || c.hidden === 3).map((c) => c.name).sort();
      expect([...(spec.generated ?? [])].sort(), spec.table).toEqual(generated);
    }
  });
});
