// `npx tsx scripts/grep-statements.ts <d1 persist dir> <out.json> (--bench-mix <bench results .json> | <calls.json>)`: the D1
// statements grep sends for the latency bench's grep calls (`latency.mix.grep` of the results JSON; or the argument objects
// of calls.json), as `{"name": {"sql", "values"}}` for scripts/sql-callgrind.py: each statement as the request database binds it
// (LIMIT and OFFSET values written into the text). Runs the tool's own steps (compilePattern, the prefilter page or the
// summary's prefilter, runGrep with no time budget) on a local D1 a latency bench kept (pass its v3/d1 folder; use a copy).
// Names are `gNN#K`: the NNth call's Kth statement. Prints each call's statement count and matches.
import { Miniflare } from 'miniflare';
import { readFileSync, writeFileSync } from 'node:fs';
import { projectFiles } from '../src/db/content';
import { literalLimits } from '../src/db/limit-literals';
import { compilePattern } from '../src/tools/grep/pattern';
import { prefilterFiles, prefilterPage, runGrep } from '../src/tools/grep/run';
import { compileGlob } from '../src/util/glob';

const args = process.argv.slice(2);
const [dir, out] = args;
const mixFile = args.includes('--bench-mix') ? args[args.indexOf('--bench-mix') + 1] : null;
const callsFile = args[2] && !args[2].startsWith('--') ? args[2] : null;
if (!dir || !out || (!mixFile && !callsFile)) {
  console.error('usage: npx tsx scripts/grep-statements.ts <d1 persist dir> <out.json> (--bench-mix <bench results .json> | <calls.json>)');
  process.exit(2);
}
type Call = { pattern: string; literal?: boolean; ignore_case?: boolean; path?: string; context?: number; limit?: number; summary?: boolean };
const calls: Call[] = mixFile
  ? JSON.parse(readFileSync(mixFile, 'utf8')).latency.mix.grep.map((x: { args: Call }) => x.args)
  : JSON.parse(readFileSync(callsFile!, 'utf8'));

const mf = new Miniflare({ modules: true, script: 'export default { fetch() { return new Response("") } }', d1Databases: { DB: '00000000-0000-0000-0000-000000000000' }, d1Persist: dir });
const d1 = (await mf.getD1Database('DB')) as unknown as D1Database;
const project = (await d1.prepare('SELECT id FROM projects WHERE name = ?1').bind('bench-latency').first<{ id: string }>())!.id;

const statements: Record<string, { sql: string; values: unknown[] }> = {};
/** A D1 whose every bound statement is recorded under `name` (numbered in order). */
function recording(name: string): D1Database {
  let k = 0;
  return new Proxy(d1, {
    get(t, key) {
      if (key !== 'prepare') return (t as any)[key];
      return (sql: string) => {
        const s = t.prepare(sql);
        return new Proxy(s, {
          get(p, key2) {
            if (key2 !== 'bind') return (p as any)[key2];
            return (...values: unknown[]) => {
              const bound = literalLimits(sql, values) ?? { sql, values };
              statements[`${name}#${k++}`] = bound;
              return t.prepare(bound.sql).bind(...bound.values);
            };
          },
        });
      };
    },
  });
}

for (const [i, a] of calls.entries()) {
  const name = `g${String(i).padStart(2, '0')}`;
  const db = recording(name);
  const ignoreCase = a.ignore_case === true;
  const m = compilePattern(a.pattern, { literal: a.literal === true, ignoreCase });
  let folded = null;
  if (!ignoreCase) try { folded = compilePattern(a.pattern, { literal: a.literal === true, ignoreCase: true }); } catch { /* unsafe folded: none, as the tool */ }
  const glob = a.path === undefined ? null : compileGlob(a.path);
  const summary = a.summary === true;
  const under = glob?.folder || undefined;
  const pre = summary ? prefilterFiles(db, project, m, under, folded) : prefilterPage(db, project, m, { under, pathContains: glob?.literals, folded, context: a.context ?? 0 });
  const scope = glob
    ? (await projectFiles(d1, project, { under, pathContains: glob.literals })).filter((f) => glob.test(f.path))
    : m.prefilter ? null : await projectFiles(d1, project, {});
  const run = await runGrep(db, project, scope, m, { limit: a.limit ?? 100, context: a.context ?? 0, summary, deadline: Date.now() + 3_600_000, stopWhenListed: !summary }, pre);
  console.log([name, a.pattern, Object.keys(statements).filter((s) => s.startsWith(`${name}#`)).length, run.scan.totalMatches].join('\t'));
}
writeFileSync(out, JSON.stringify(statements, null, 1));
await mf.dispose();
