import { beforeAll, describe, expect, it } from 'vitest';
import { push } from '../upload/support';
import { mcpTool, restCall, type Json } from './support';

/**
 * The savings model of docs/envelope.md, recomputed from the raw files with
 * this file's own grep and line counting (nothing imported from src/). The
 * corpus is real code: this repository's own utility and envelope sources.
 */
const raw = import.meta.glob(['../../../src/util/*.ts', '../../../src/envelope/tokens.ts'], { query: '?raw', import: 'default', eager: true }) as Record<string, string>;
const FILES: Record<string, string> = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k.replace('../../../', ''), v]));
const P = 'savings-real';

const size = (path: string) => new TextEncoder().encode(FILES[path]).length;
const tokens = (chars: number) => Math.ceil(chars / 4);

function lines(text: string): string[] {
  const out = text.split('\n');
  if (out.length && out[out.length - 1] === '') out.pop();
  return out.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/** `grep -rn` output characters over every file: `path:N:text\n` per matching line. */
function grepChars(re: RegExp): number {
  let n = 0;
  for (const path of Object.keys(FILES).sort()) {
    lines(FILES[path]).forEach((l, i) => {
      if (re.test(l)) n += `${path}:${i + 1}:${l}\n`.length;
    });
  }
  return n;
}

/** Characters of lines from..to of a file, each with its newline. */
function spanChars(path: string, from: number, to: number): number {
  return lines(FILES[path])
    .slice(from - 1, to)
    .reduce((n, l) => n + l.length + 1, 0);
}

const saved = (baseline: number, used: number) => Math.max(0, baseline - used);

/** The file part of a symbol id (`path::name#Kind`). */
const fileOf = (id: string) => id.slice(0, id.indexOf('::'));

/** `path size` listing characters of the files under `dir` ('' for all), one line per file. */
function listingChars(dir: string): number {
  return Object.keys(FILES)
    .filter((p) => dir === '' || p.startsWith(`${dir}/`))
    .reduce((n, p) => n + `${p} ${size(p)}\n`.length, 0);
}

beforeAll(async () => {
  const files = Object.entries(FILES).map(([path, content]) => ({ path, content }));
  const reply = await restCall('index', { project: P, files });
  expect(reply.status, reply.text.slice(0, 300)).toBe(200);
});

describe('savings recomputed from the raw files', () => {
  it('search: the grep -rni output of the query words', async () => {
    const { body } = await restCall('search', { project: P, query: 'editDistance' });
    expect(body.result.results.length).toBeGreaterThan(0);
    const m = body._meta;
    expect(m.baseline_method).toBe('grep_recursive');
    expect(m.tokens_saved).toBe(saved(tokens(grepChars(/editDistance/i)), m.tokens_used));
    expect(m.savings_scope).toBe('call');
  });

  // needleWord is counted inside D1; größeWert (non-ASCII, case ignored) is scanned in the Worker: the same cap.
  it.each([['needleWord', 'savings-capped', true], ['größeWert', 'savings-capped-utf8', false]])(
    'search for %s over more matching bytes than the baseline counts: the files holding it, in path order, up to 256 KiB, a lower bound',
    async (word, project, least) => {
      // Five files hold the word on every tenth line, then the symbol's own file: about 500 KB of files holding it.
      const line = (i: number) => (i % 10 === 0 ? `row ${i} holds ${word} here` : `row ${i} filler`).padEnd(99, '.');
      const big = Array.from({ length: 1000 }, (_, i) => `${line(i)}\n`).join('');
      const files: Record<string, string> = { 'src/needle.ts': `export function ${word}(): number {\n  return 1;\n}\n` };
      for (let k = 0; k < 5; k++) files[`big/f${k}.txt`] = big;
      // Pushed through the upload API (the five files share one content).
      expect((await push(project, files)).commit?.status).toBe(200);
      const re = new RegExp(word, 'i');
      const grep = (paths: string[]) => paths.reduce((n, path) => n + lines(files[path]).reduce((m, l, i) => m + (re.test(l) ? `${path}:${i + 1}:${l}\n`.length : 0), 0), 0);
      // Every file holds the word; in path order, those whose sizes add up to at most 256 KiB are counted (two of them).
      let upto = 0;
      const counted = Object.keys(files).sort().filter((path) => (upto += new TextEncoder().encode(files[path]).length) <= 256 * 1024);
      expect(counted).toEqual(['big/f0.txt', 'big/f1.txt']);
      for (let i = 0; i < 2; i++) {
        const { body } = await restCall('search', { project, query: word });
        expect(body.result.results.length).toBeGreaterThan(0);
        expect(body._meta.baseline_method).toBe('grep_recursive');
        // Counted in D1, each file holding the word past the cut adds the least grep prints for it: `path:N:word\n`.
        const rest = Object.keys(files).sort().filter((p) => !counted.includes(p));
        const floor = least ? rest.reduce((n, p) => n + `${p}:1:${word}\n`.length, 0) : 0;
        expect(body._meta.tokens_saved).toBe(saved(tokens(grep(counted) + floor), body._meta.tokens_used));
      }
    },
  );

  it('search with two words: either word on a line counts the line once', async () => {
    const { body } = await restCall('search', { project: P, query: 'nearest OR countTokens' });
    expect(body.result.results.length).toBeGreaterThan(0);
    expect(body._meta.tokens_saved).toBe(saved(tokens(grepChars(/nearest|countTokens/i)), body._meta.tokens_used));
  });

  it('search with no hit saves nothing and still names its method', async () => {
    const { body } = await restCall('search', { project: P, query: 'zzqxnothing' });
    expect(body._meta.empty_reason).toBeDefined();
    expect([body._meta.tokens_saved, body._meta.tokens_saved_pct, body._meta.baseline_method]).toEqual([0, 0, 'grep_recursive']);
  });

  it('symbol: the defining file read whole', async () => {
    const { body } = await restCall('symbol', { project: P, id: 'src/util/did-you-mean.ts::editDistance#Function' });
    expect(body.result).toBeDefined();
    expect(body._meta.baseline_method).toBe('full_file_read');
    expect(body._meta.tokens_saved).toBe(saved(tokens(size('src/util/did-you-mean.ts')), body._meta.tokens_used));
  });

  it('batch of three symbols of one file credits the file once', async () => {
    const ids = ['editDistance', 'didYouMean', 'nearest'].map((n) => `src/util/did-you-mean.ts::${n}#Function`);
    const { body } = await restCall('batch', { project: P, calls: ids.map((id) => ({ tool: 'symbol', args: { id } })) });
    expect(body.result.entries.map((e: Json) => e.status)).toEqual(['ok', 'ok', 'ok']);
    expect(body._meta.baseline_method).toBe('full_file_read');
    expect(body._meta.tokens_saved).toBe(saved(tokens(size('src/util/did-you-mean.ts')), body._meta.tokens_used));
  });

  it('read of a line window: exactly those lines', async () => {
    const { body } = await restCall('read', { project: P, path: 'src/util/did-you-mean.ts', offset: 2, limit: 5 });
    expect(body._meta.baseline_method).toBe('lines_read');
    expect(body._meta.tokens_saved).toBe(saved(tokens(spanChars('src/util/did-you-mean.ts', 2, 6)), body._meta.tokens_used));
  });

  it('read past the end, and of a missing symbol, saves nothing', async () => {
    const past = await restCall('read', { project: P, path: 'src/util/did-you-mean.ts', offset: 99999 });
    expect(past.body._meta.empty_reason).toBe('cap_dropped_all');
    expect(past.body._meta.tokens_saved).toBe(0);
    const missing = await restCall('read', { project: P, path: 'src/util/did-you-mean.ts', symbol: 'noSuchThing' });
    expect(missing.body._meta.empty_reason).toBe('target_not_resolved');
    expect([missing.body._meta.tokens_saved, missing.body._meta.tokens_saved_pct]).toEqual([0, 0]);
  });

  it('grep: the grep -rn lines it delivered, nothing for truncating its own output', async () => {
    const { body } = await restCall('grep', { project: P, pattern: 'function', limit: 1 });
    expect(body.result.truncated).toBe(true);
    const [m] = body.result.matches;
    expect(body._meta.baseline_method).toBe('grep_recursive');
    expect(body._meta.tokens_saved).toBe(saved(tokens(`${m.path}:${m.line}:${m.text}\n`.length), body._meta.tokens_used));
    expect(body._meta.tokens_saved).toBe(0);
  });

  it('symbols: each distinct defining file once', async () => {
    const ids = ['src/util/did-you-mean.ts::editDistance#Function', 'src/util/did-you-mean.ts::nearest#Function', 'src/util/clip.ts::clip#Function'];
    const { body } = await restCall('symbols', { project: P, ids });
    expect(body.result.missing).toEqual([]);
    expect(body._meta.baseline_method).toBe('full_file_read');
    expect(body._meta.tokens_saved).toBe(saved(tokens(size('src/util/did-you-mean.ts') + size('src/util/clip.ts')), body._meta.tokens_used));
  });

  it('read with symbol, and read of the map: the file read whole', async () => {
    for (const args of [{ symbol: 'editDistance' }, { map: true }]) {
      const { body } = await restCall('read', { project: P, path: 'src/util/did-you-mean.ts', ...args });
      expect(body._meta.empty_reason, JSON.stringify(args)).toBeUndefined();
      expect(body._meta.baseline_method).toBe('full_file_read');
      expect(body._meta.tokens_saved, JSON.stringify(args)).toBe(saved(tokens(size('src/util/did-you-mean.ts')), body._meta.tokens_used));
    }
  });

  it('context: the distinct files of the symbol and the dependencies it carries', async () => {
    const { body } = await restCall('context', { project: P, id: 'src/util/did-you-mean.ts::didYouMean#Function' });
    expect(body._meta.empty_reason).toBeUndefined();
    const files = new Set(['src/util/did-you-mean.ts', ...(body.result.dependencies as Json[]).map((d) => fileOf(d.id as string))]);
    const baseline = [...files].reduce((n, f) => n + size(f), 0);
    expect(body._meta.baseline_method).toBe('full_file_read');
    expect(body._meta.tokens_saved).toBe(saved(tokens(baseline), body._meta.tokens_used));
  });

  it('context_for_task: the distinct files of the seeds it shows, read whole', async () => {
    const { body } = await restCall('context_for_task', { project: P, task: 'change how didYouMean ranks the nearest names' });
    expect(body._meta.empty_reason).toBeUndefined();
    const seeds = body.result.seeds as Json[];
    expect(seeds.length).toBeGreaterThan(0);
    const files = new Set(seeds.map((s) => fileOf(s.id as string)));
    const baseline = [...files].reduce((n, f) => n + size(f), 0);
    expect(body._meta.baseline_method).toBe('full_file_read');
    expect(body._meta.tokens_saved).toBe(saved(tokens(baseline), body._meta.tokens_used));
  });

  it('trace: grep -rn for the name plus the span of every listed caller', async () => {
    const { body } = await restCall('trace', { project: P, name: 'editDistance' });
    const hops = body.result.hops as Json[];
    expect(hops.length).toBeGreaterThan(0);
    let spans = 0;
    for (const id of new Set(hops.map((h) => h.id as string))) {
      const s = (await restCall('symbol', { project: P, id, fields: ['start_line', 'end_line'] })).body.result.symbol;
      spans += spanChars(fileOf(id), s.start_line, s.end_line);
    }
    expect(body._meta.baseline_method).toBe('grep_then_read');
    expect(body._meta.tokens_saved).toBe(saved(tokens(grepChars(/editDistance/) + spans), body._meta.tokens_used));
  });

  it('trace with nothing listed saves nothing', async () => {
    const { body } = await restCall('trace', { project: P, name: 'editDistance', direction: 'outbound' });
    expect(body.result.hops).toEqual([]);
    expect([body._meta.tokens_saved, body._meta.baseline_method]).toEqual([0, 'grep_then_read']);
  });

  it('plan_change: grep -rn for the name plus the span of every impact entry', async () => {
    const { body } = await restCall('plan_change', { project: P, name: 'editDistance' });
    const listed = [...(body.result.impact as Json[]), ...(body.result.tests as Json[])].filter((h) => h.id);
    expect(listed.length).toBeGreaterThan(0);
    let spans = 0;
    for (const id of new Set(listed.map((h) => h.id as string))) {
      const s = (await restCall('symbol', { project: P, id, fields: ['start_line', 'end_line'] })).body.result.symbol;
      spans += spanChars(fileOf(id), s.start_line, s.end_line);
    }
    expect(body._meta.baseline_method).toBe('grep_then_read');
    expect(body._meta.tokens_saved).toBe(saved(tokens(grepChars(/editDistance/) + spans), body._meta.tokens_used));
  });

  it("neighborhood: the target's file read whole", async () => {
    const { body } = await restCall('neighborhood', { project: P, id: 'src/util/did-you-mean.ts::nearest#Function' });
    expect(body._meta.empty_reason).toBeUndefined();
    expect(body._meta.baseline_method).toBe('full_file_read');
    expect(body._meta.tokens_saved).toBe(saved(tokens(size('src/util/did-you-mean.ts')), body._meta.tokens_used));
  });

  it('dead_code: the distinct files of the symbols it lists', async () => {
    // Exported functions are entry points, never dead: a file of its own with uncalled private functions.
    const content = 'function lonely(): number {\n  return 1;\n}\n\nfunction alone(): number {\n  return 2;\n}\n';
    const project = 'savings-dead';
    expect((await restCall('index', { project, files: [{ path: 'src/lonely.ts', content }] })).status).toBe(200);
    const { body } = await restCall('dead_code', { project });
    expect((body.result.dead as Json[]).map((d) => d.file)).toEqual(['src/lonely.ts', 'src/lonely.ts']);
    expect(body._meta.baseline_method).toBe('full_file_read');
    expect(body._meta.tokens_saved).toBe(saved(tokens(new TextEncoder().encode(content).length), body._meta.tokens_used));
  });

  it('ls and find: the full `path size` listing of their scope', async () => {
    const ls = await restCall('ls', { project: P, path: 'src/util' });
    expect(ls.body._meta.baseline_method).toBe('walk_directory');
    expect(ls.body._meta.tokens_saved).toBe(saved(tokens(listingChars('src/util')), ls.body._meta.tokens_used));
    const find = await restCall('find', { project: P, pattern: '*.ts' });
    expect(find.body._meta.baseline_method).toBe('walk_directory');
    expect(find.body._meta.tokens_saved).toBe(saved(tokens(listingChars('')), find.body._meta.tokens_used));
  });

  it('list: every matching project, unpaginated', async () => {
    const { body } = await restCall('list', { name_contains: P, limit: 1 });
    const all = await restCall('list', { name_contains: P, limit: 200 });
    expect(body._meta.baseline_method).toBe('walk_directory');
    expect(body._meta.tokens_saved).toBe(saved(tokens(JSON.stringify(all.body.result.projects).length), body._meta.tokens_used));
  });

  it('changes: the indexed files the input changes, read whole', async () => {
    const ranges = [{ path: 'src/util/did-you-mean.ts', start_line: 2, end_line: 3 }];
    const { body } = await restCall('changes', { project: P, ranges });
    expect(body._meta.empty_reason).toBeUndefined();
    expect(body._meta.baseline_method).toBe('read_all_changed');
    expect(body._meta.tokens_saved).toBe(saved(tokens(size('src/util/did-you-mean.ts')), body._meta.tokens_used));
  });

  it('batch mixing methods: the sum of its parts, each file once', async () => {
    const calls = [
      { tool: 'symbol', args: { id: 'src/util/did-you-mean.ts::editDistance#Function' } },
      { tool: 'symbol', args: { id: 'src/util/did-you-mean.ts::nearest#Function' } },
      { tool: 'read', args: { path: 'src/util/clip.ts', offset: 1, limit: 3 } },
    ];
    const { body } = await restCall('batch', { project: P, calls });
    expect(body.result.entries.map((e: Json) => e.status)).toEqual(['ok', 'ok', 'ok']);
    expect(body._meta.baseline_method).toBe('sum_of_parts');
    // Whole files once (the two symbols share one), plus the read's own lines_read figure.
    const baseline = tokens(size('src/util/did-you-mean.ts')) + tokens(spanChars('src/util/clip.ts', 1, 3));
    expect(body._meta.tokens_saved).toBe(saved(baseline, body._meta.tokens_used));
  });

  it('a tool without a native equivalent reports numbers, never null', async () => {
    const { body } = await restCall('why_empty', { code: 'query_too_narrow' });
    expect([body._meta.tokens_saved, body._meta.tokens_saved_pct, body._meta.baseline_method]).toEqual([0, 0, 'none']);
  });

  it('a session dedups a file across calls and says so in savings_scope', async () => {
    const headers = { 'x-pincher-session': `savings-${Date.now()}` };
    const id = 'src/util/did-you-mean.ts::didYouMean#Function';
    const first = await restCall('symbol', { project: P, id }, { headers });
    expect(first.body._meta.savings_scope).toBe('session');
    expect(first.body._meta.tokens_saved).toBe(saved(tokens(size('src/util/did-you-mean.ts')), first.body._meta.tokens_used));
    const again = await restCall('symbol', { project: P, id }, { headers });
    expect(again.body._meta.tokens_saved).toBe(0);
  });

  it('on MCP, the transport session (Mcp-Session-Id) scopes the savings', async () => {
    const headers = { 'mcp-session-id': `mcp-savings-${Date.now()}` };
    const id = 'src/util/did-you-mean.ts::nearest#Function';
    const first = await mcpTool('2025', 'symbol', { project: P, id }, { headers });
    expect(first.result?._meta.savings_scope).toBe('session');
    expect(first.result?._meta.tokens_saved).toBeGreaterThan(0);
    const again = await mcpTool('2025', 'symbol', { project: P, id }, { headers });
    expect(again.result?._meta.tokens_saved).toBe(0);
  });

  it('on MCP, tokens_used counts every text block the model receives, notice and sentence included', async () => {
    const { result } = await mcpTool('2025', 'search', { project: P, query: 'zzqxnothing' });
    const blocks = (result?.content as Json[]).map((c) => c.text as string);
    expect(blocks).toHaveLength(2);
    expect(result?._meta.tokens_used).toBe(tokens(blocks.join('\n').length));
    const hit = await mcpTool('2025', 'symbol', { project: P, id: 'src/util/did-you-mean.ts::editDistance#Function' });
    expect(hit.result?._meta.tokens_used).toBe(tokens((hit.result?.content as Json[])[0].text.length));
  });
});
