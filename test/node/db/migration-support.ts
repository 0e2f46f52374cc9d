import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// A SQLite file migrated with the sqlite3 CLI, for tests of one migration on a populated database.
const MIGRATIONS = path.resolve(__dirname, '../../../migrations');

export const hasSqlite = (() => {
  try {
    execFileSync('sqlite3', ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

export interface MigratedFile {
  /** Runs `text` and returns the rows of its last statement. */
  sql(text: string): any[];
  /** Applies the migrations numbered from..upTo, in order. */
  apply(upTo: number, from?: number): void;
  remove(): void;
}

export function migratedFile(): MigratedFile {
  const dir = mkdtempSync(path.join(tmpdir(), 'pincher-mig-'));
  const file = path.join(dir, 'd1.sqlite');
  return {
    sql(text) {
      const out = execFileSync('sqlite3', ['-json', file], { input: text, encoding: 'utf8' });
      return out.trim() ? JSON.parse(out) : [];
    },
    apply(upTo, from = 0) {
      for (const f of readdirSync(MIGRATIONS).filter((n) => /^\d{4}_.*\.sql$/.test(n)).sort()) {
        const n = Number(f.slice(0, 4));
        if (n >= from && n <= upTo) execFileSync('sqlite3', [file], { input: readFileSync(path.join(MIGRATIONS, f), 'utf8') });
      }
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
