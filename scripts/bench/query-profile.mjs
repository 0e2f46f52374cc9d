// Where extraction time goes for one file, in Node with the project's own extractor code:
// parse (as read, and as re-read after errors when the language has a second reading), the
// whole tags query, then each query pattern alone, slowest first. Module hooks as in
// extract-node.mjs stand in for wrangler's .wasm and .scm bundling rules.
//
//   node scripts/bench/query-profile.mjs path/to/file.hpp [language-id] [patterns-to-show]
import { readFile } from 'node:fs/promises';
import { register } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const [file, languageId, show = '12'] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node scripts/bench/query-profile.mjs FILE [language-id] [patterns-to-show]\n');
  process.exit(2);
}
const { register: tsx } = await import('tsx/esm/api');
tsx();
register(pathToFileURL(path.join(ROOT, 'scripts', 'bench', 'extract-hooks.mjs')));
const load = (rel) => import(pathToFileURL(path.join(ROOT, rel)).href);
const { TABLE, rowForPath } = await load('src/extract/languages/table.ts');
const P = await load('src/extract/parser.ts');
const { errorChars } = await load('src/extract/recover.ts');
const { extractFile } = await load('src/extract/index.ts');

const row = languageId ? TABLE.find((r) => r.id === languageId) : rowForPath(file);
if (!row || row.tier !== 'ast') throw new Error(`no tree-sitter language for ${file}`);
const text = await readFile(file, 'utf8');
const ms = (t0) => Math.round(performance.now() - t0);
const unbounded = () => new P.Deadline(1e9);

await P.ensureLanguage(row.grammar);
const query = P.compileQuery(row.grammar, row.query, row.shallowQuery);
// Pattern offsets are those of the query compiled (src/extract/shallow-query.ts).
const { shallowQuery } = await load('src/extract/shallow-query.ts');
const compiled = row.shallowQuery ? shallowQuery(row.query) : row.query;
// Warm the grammar's code on the file itself, so that the figures below are steady-state.
P.parse(row.grammar, text, unbounded())?.delete();

const content = row.prepare ? row.prepare(text) : text;
let t0 = performance.now();
const tree = P.parse(row.grammar, content, unbounded());
const report = { file, language: row.id, bytes: Buffer.byteLength(text), parse_ms: ms(t0), error_chars: errorChars(tree.rootNode) };
if (typeof row.blankOnError === 'function' && report.error_chars > 0) {
  t0 = performance.now();
  const second = P.parse(row.grammar, row.blankOnError(content), unbounded());
  Object.assign(report, { reread_parse_ms: ms(t0), reread_error_chars: errorChars(second.rootNode) });
  second.delete();
}
t0 = performance.now();
report.query_matches = P.runQuery(query, tree.rootNode, unbounded()).matches.length;
report.query_ms = ms(t0);
t0 = performance.now();
const extracted = await extractFile(file, text, { maxBytes: 1 << 20, timeoutMs: 2000 });
Object.assign(report, { extract_ms_2s_budget: ms(t0), symbols: extracted.symbols.length, failure: extracted.failure?.message ?? null });
console.log(JSON.stringify(report, null, 2));

const rows = [];
const count = query.patternCount();
for (let i = 0; i < count; i++) {
  const source = compiled.slice(query.startIndexForPattern(i), i + 1 < count ? query.startIndexForPattern(i + 1) : undefined);
  const one = P.compileQuery(row.grammar, source, row.shallowQuery);
  t0 = performance.now();
  const matches = P.runQuery(one, tree.rootNode, unbounded()).matches.length;
  rows.push({ pattern: i, ms: ms(t0), matches, head: source.replace(/;[^\n]*/g, '').replace(/\s+/g, ' ').trim().slice(0, 100) });
  one.delete();
}
rows.sort((a, b) => b.ms - a.ms);
for (const r of rows.slice(0, Number(show))) console.log(`${String(r.ms).padStart(5)} ms ${String(r.matches).padStart(6)} matches  #${r.pattern} ${r.head}`);
tree.delete();
