#!/usr/bin/env node
// How many of Java's wrong callers in the default view are a call linked to the wrong overload,
// and how many of those the parameter count alone would separate:
//   node scripts/bench/graph/java-overloads.mjs [bench/results/latest.json]
// after `npm run bench -- --only graph --graph-languages java`. For each wrong edge at the
// default floor, javac's resolution of the call on that line (JavaCalls.java, run again on the
// cached corpus) says which declaration it invokes; when that one has the wrong target's name
// in the wrong target's file, the edge conflated overloads. "Separable" means the declaration
// javac chose is the only one of that name in its file with its parameter count (no varargs).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from '../proc.mjs';
import { buildGraphCorpora } from './corpora.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..', '..', '..');
/** The default view's floor (DEFAULT_MIN_CONFIDENCE, src/graph/view.ts). */
const DEFAULT_FLOOR = 0.8;

/** Parameter count of the declaration of `name` starting on `line` (1-based); -1 for varargs, null if not found. */
function parameterCount(lines, name, line) {
  const text = lines.slice(line - 1, line + 6).join('\n');
  const at = text.indexOf(`${name}(`);
  if (at < 0) return null;
  let depth = 0;
  let commas = 0;
  let inner = '';
  for (let i = at + name.length; i < text.length; i++) {
    const ch = text[i];
    if (ch === '(' || ch === '<') depth++;
    else if (ch === ')' || ch === '>') {
      depth--;
      if (depth === 0) break;
    } else if (ch === ',' && depth === 1) commas++;
    inner += ch;
  }
  if (inner.includes('...')) return -1;
  return inner.replace(/[(\s]/g, '') === '' ? 0 : commas + 1;
}

const report = JSON.parse(await readFile(path.resolve(process.argv[2] ?? path.join(ROOT, 'bench', 'results', 'latest.json')), 'utf8'));
const java = report.graph?.languages?.java;
if (!java) throw new Error('the bench report has no java row: run npm run bench -- --only graph --graph-languages java');
const tmp = await mkdtemp(path.join(os.tmpdir(), 'java-overloads-'));
try {
  const corpus = (await buildGraphCorpora({ root: ROOT, outDir: tmp, cache: path.join(ROOT, '.tmp', 'graph-bench'), languages: ['java'] })).get('java');
  const r = await run('java', ['-Xss16m', path.join(HERE, 'JavaCalls.java'), corpus.dir, ...corpus.files], { cwd: corpus.dir, timeoutMs: 20 * 60_000 });
  if (r.code !== 0) throw new Error(`JavaCalls.java failed (exit ${r.code}): ${r.stderr.slice(-400)}`);
  const { defs, calls } = JSON.parse(r.stdout);
  const sources = new Map();
  const linesOf = async (file) => {
    if (!sources.has(file)) sources.set(file, (await readFile(path.join(corpus.dir, file), 'utf8')).split('\n'));
    return sources.get(file);
  };
  const wrong = java.wrong_edges.filter((w) => w.confidence >= DEFAULT_FLOOR);
  const pairs = new Map();
  for (const w of wrong) {
    const [targetFile, qualified] = w.target.split('::');
    const name = qualified.replace(/#.*$/, '').split('.').pop();
    const callerFile = w.caller.split('::')[0];
    const chosen = calls
      .filter((c) => c.file === callerFile && c.line === w.line)
      .map((c) => defs.find((d) => d.file === c.callee.file && d.line === c.callee.line))
      .find((d) => d && d.file === targetFile && d.name === name);
    let verdict = 'other';
    if (chosen) {
      const siblings = defs.filter((d) => d.file === targetFile && d.name === name);
      const counts = await Promise.all(siblings.map(async (d) => parameterCount(await linesOf(d.file), d.name, d.line)));
      const mine = parameterCount(await linesOf(chosen.file), chosen.name, chosen.line);
      verdict = mine !== null && mine >= 0 && counts.filter((n) => n === mine).length === 1 ? 'overload, separable by parameter count' : 'overload, same parameter count';
    }
    const key = `${w.target}\0${w.caller}`;
    // A pair is as bad as its worst edge.
    if (!pairs.has(key) || verdict === 'other') pairs.set(key, { target: w.target, caller: w.caller, line: w.line, provenance: w.provenance, confidence: w.confidence, verdict });
  }
  const byVerdict = {};
  for (const p of pairs.values()) byVerdict[p.verdict] = (byVerdict[p.verdict] ?? 0) + 1;
  for (const p of pairs.values()) console.log(`${p.verdict.padEnd(40)} ${p.target} <- ${p.caller} @${p.line} (${p.provenance} ${p.confidence})`);
  const separable = byVerdict['overload, separable by parameter count'] ?? 0;
  const { reported, correct } = java.default;
  console.log(JSON.stringify({ default: java.default, wrong_pairs: pairs.size, ...byVerdict }));
  // Each separable pair becomes its right overload: counted correct, or merged into a pair already reported.
  console.log(`precision with those pairs linked to their overload: ${(correct / (reported - separable)).toFixed(3)} – ${((correct + separable) / reported).toFixed(3)}`);
} finally {
  await rm(tmp, { recursive: true, force: true });
}
