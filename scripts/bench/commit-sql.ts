// Prints the SQL and bindings of a commit's statements (src/db/index-store.ts commitStatements) as JSON, for
// replay-push-writes.py: `npx tsx scripts/bench/commit-sql.ts <project id> <upload id> <extractor version>`.
import { commitStatements } from '../../src/db/index-store';

const [projectId, uploadId, version] = process.argv.slice(2);
const recorder = { prepare: (sql: string) => ({ bind: (...args: unknown[]) => ({ sql, args }) }) } as unknown as D1Database;
console.log(JSON.stringify(commitStatements(recorder, { projectId, uploadId, extractorVersion: Number(version), schemaVersion: 0, ref: null, commitSha: null, now: 0 })));
