import { env } from 'cloudflare:workers';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { callTool, rest, type Json } from '../helpers';

/**
 * grep against an independent computation of `grep -rn` semantics over the
 * files pushed: lines split on \n (a trailing \r dropped, no line after a
 * final newline), 1-based numbers, files in path order.
 */
const FILES: Record<string, string> = {
  'src/server.ts': [
    "import { Hono } from 'hono';",
    'export function handleRequest(req: Request) {',
    '  // TODO: validate the body',
    '  return handle_request_inner(req);',
    '}',
    'function handle_request_inner(r: Request) { return r; }',
    "const odd = 'a.b(c';",
    '',
  ].join('\n'),
  'src/util/strings.ts': ['export const HandleRequest = 1;', "export const label = 'a.b(c) here';", "export const other = 'axb(c';", 'export const todo = "todo: lowercase";'].join('\n'),
  'lib/helpers.py': ['def handle_request(x):', '    return x  # TODO later', '', 'class Thing:', '    pass', ''].join('\r\n'),
  'docs/guide.md': ['# Guide', '', 'Call handleRequest to serve.', 'ÜBER über alles', 'See TODO list.', ''].join('\n'),
  'notes/plain.txt': 'first line\nsecond TODO line\nthird line',
};

const PROJECT = 'grep-main';

interface Expected {
  path: string;
  line: number;
  text: string;
  before?: string[];
  after?: string[];
}

function linesOf(content: string): string[] {
  const lines = content.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

function refGrep(files: Record<string, string>, re: RegExp, opts: { keep?: (path: string) => boolean; context?: number } = {}): Expected[] {
  const out: Expected[] = [];
  const c = opts.context ?? 0;
  for (const path of Object.keys(files).filter(opts.keep ?? (() => true)).sort()) {
    const lines = linesOf(files[path]);
    lines.forEach((text, i) => {
      if (!re.test(text)) return;
      const hit: Expected = { path, line: i + 1, text };
      if (c > 0) {
        hit.before = lines.slice(Math.max(0, i - c), i);
        hit.after = lines.slice(i + 1, i + 1 + c);
      }
      out.push(hit);
    });
  }
  return out;
}

/** Characters of `grep -rn` output for the hits: `path:line:text\n` each. */
function grepOutputChars(hits: Expected[]): number {
  return hits.reduce((n, h) => n + `${h.path}:${h.line}:${h.text}\n`.length, 0);
}

async function grep(args: Json): Promise<Json> {
  const { status, body } = await rest('grep', { project: PROJECT, ...args });
  expect(status, JSON.stringify(body).slice(0, 400)).toBe(200);
  return body;
}

function scanStats(body: Json): Json {
  const entry = (body._meta.diagnosis_v2 as Json[]).find((d) => d.code === 'grep_scan');
  expect(entry?.severity).toBe('info');
  return entry?.data as Json;
}

async function runStep(step: Json): Promise<Json> {
  const { status, body } = await rest(step.tool, step.args);
  expect(status, `${step.tool} ${JSON.stringify(step.args)}: ${JSON.stringify(body).slice(0, 300)}`).toBe(200);
  expect(body).not.toHaveProperty('error');
  const unknown = ((body._meta.warnings_v2 ?? []) as Json[]).filter((w) => w.code === 'unknown_arg');
  expect(unknown).toEqual([]);
  return body;
}

beforeAll(async () => {
  const pushed = await rest('index', { project: PROJECT, files: Object.entries(FILES).map(([path, content]) => ({ path, content })) });
  expect(pushed.status).toBe(200);
});

describe('grep results equal grep -rn over the pushed files', () => {
  it('matches a regex line by line, in path order, with 1-based lines', async () => {
    const body = await grep({ pattern: 'handle_?[Rr]equest' });
    const expected = refGrep(FILES, /handle_?[Rr]equest/);
    expect(body.result.matches).toEqual(expected);
    expect(body.result.total_matches).toBe(expected.length);
    expect(body.result.files_matched).toBe(new Set(expected.map((e) => e.path)).size);
    expect(body.result.truncated).toBe(false);
  });

  it('treats pattern as a fixed string with literal: true, and refuses it as an invalid regex otherwise', async () => {
    const body = await grep({ pattern: 'a.b(c', literal: true });
    expect(body.result.matches).toEqual(refGrep(FILES, /a\.b\(c/));
    expect(body.result.matches.length).toBe(2);
    const bad = await rest('grep', { project: PROJECT, pattern: 'a.b(c' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_params');
    expect(bad.body.error.suggestion).toContain('literal: true');
  });

  it('differs between regex and literal for the same text', async () => {
    const regex = await grep({ pattern: 'a.b\\(c' });
    expect(regex.result.matches).toEqual(refGrep(FILES, /a.b\(c/));
    expect(regex.result.total_matches).toBe(3); // 'axb(c' matches the regex, not the fixed string
  });

  it('ignores case with ignore_case, including non-ASCII letters', async () => {
    const body = await grep({ pattern: 'todo', ignore_case: true });
    expect(body.result.matches).toEqual(refGrep(FILES, /todo/i));
    const umlaut = await grep({ pattern: 'über', ignore_case: true });
    expect(umlaut.result.matches).toEqual(refGrep(FILES, /über/i));
    expect(umlaut.result.matches[0].text).toBe('ÜBER über alles');
  });

  it('returns context lines before and after each match', async () => {
    const body = await grep({ pattern: 'TODO', context: 2 });
    expect(body.result.matches).toEqual(refGrep(FILES, /TODO/, { context: 2 }));
    const first = body.result.matches.find((m: Json) => m.path === 'lib/helpers.py');
    expect(first.before).toEqual(['def handle_request(x):']);
    expect(first.after).toEqual(['', 'class Thing:']);
  });

  it('filters files with the path glob', async () => {
    const ts = await grep({ pattern: 'e', path: '*.ts', limit: 1000 });
    expect(ts.result.matches).toEqual(refGrep(FILES, /e/, { keep: (p) => p.endsWith('.ts') }));
    const src = await grep({ pattern: 'e', path: 'src/**/*.{ts,py}', limit: 1000 });
    expect(src.result.matches).toEqual(refGrep(FILES, /e/, { keep: (p) => p.startsWith('src/') }));
    const folder = await grep({ pattern: 'e', path: 'src/util', limit: 1000 });
    expect(folder.result.matches).toEqual(refGrep(FILES, /e/, { keep: (p) => p.startsWith('src/util/') }));
  });

  it('returns per-file counts without lines with summary: true', async () => {
    const body = await grep({ pattern: 'TODO', summary: true });
    const expected = refGrep(FILES, /TODO/);
    const counts = new Map<string, number>();
    for (const e of expected) counts.set(e.path, (counts.get(e.path) ?? 0) + 1);
    expect(body.result.files).toEqual([...counts].map(([path, count]) => ({ path, count })));
    expect(body.result).not.toHaveProperty('matches');
    expect(body.result.total_matches).toBe(expected.length);
  });

  it('cuts at limit, flags truncated, keeps counting past it, and counts only the delivered lines in the baseline', async () => {
    const body = await grep({ pattern: 'e', limit: 3 });
    const all = refGrep(FILES, /e/);
    expect(all.length).toBeGreaterThan(10);
    expect(body.result.matches).toEqual(all.slice(0, 3));
    expect(body.result.total_matches).toBe(all.length);
    expect(body.result.truncated).toBe(true);

    const used = Math.ceil(JSON.stringify(body.result).length / 4);
    // Truncating its own output saves nothing: the baseline is grep -rn printing the 3 delivered lines.
    const baseline = Math.ceil(grepOutputChars(all.slice(0, 3)) / 4);
    expect(body._meta.baseline_method).toBe('grep_recursive');
    expect(body._meta.tokens_used).toBe(used);
    expect(body._meta.tokens_saved).toBe(Math.max(0, baseline - used));

    const [step] = body._meta.next_steps as Json[];
    expect(step.args).toMatchObject({ pattern: 'e', summary: true });
    const spread = await runStep(step);
    expect(spread.result.total_matches).toBe(all.length);
  });

  it('counts grep -C context lines and group separators in the baseline', async () => {
    const body = await grep({ pattern: 'TODO', context: 1 });
    // grep -rn -C1 TODO: per file, the union of windows; `--` between groups.
    let chars = 0;
    let groups = 0;
    for (const path of Object.keys(FILES).sort()) {
      const lines = linesOf(FILES[path]);
      const hits = lines.flatMap((l, i) => (/TODO/.test(l) ? [i] : []));
      let shown = -1;
      for (const i of hits) {
        const from = Math.max(0, i - 1);
        const to = Math.min(lines.length - 1, i + 1);
        if (from > shown + 1 || shown < 0) groups++;
        for (let j = Math.max(from, shown + 1); j <= to; j++) chars += `${path}${j === i ? ':' : '-'}${j + 1}${j === i ? ':' : '-'}${lines[j]}\n`.length;
        shown = Math.max(shown, to);
      }
    }
    chars += 3 * (groups - 1);
    const used = Math.ceil(JSON.stringify(body.result).length / 4);
    expect(body._meta.tokens_saved).toBe(Math.max(0, Math.ceil(chars / 4) - used));
  });

  it('answers over MCP with structuredContent valid against the output schema', async () => {
    const { body } = await callTool('grep', { project: PROJECT, pattern: 'handleRequest' });
    expect(body.result.isError).toBeUndefined();
    expect(body.result.structuredContent.matches).toEqual(refGrep(FILES, /handleRequest/));
  });
});

/** 60 small modules plus a decoy: the literal needle_xyz is rare. */
const RARE = 'grep-rare';
const files: Record<string, string> = {};
beforeAll(async () => {
  for (let i = 0; i < 60; i++) {
    const n = String(i).padStart(2, '0');
    files[`pkg/mod${n}.py`] = `def fn_${n}(a, b):\n    return a + b  # call 555-${1000 + i}\n`;
  }
  files['pkg/mod07.py'] += 'needle_xyz = 1\n';
  files['pkg/mod42.py'] += 'print(needle_xyz)\n';
  // Every trigram of needle_xyz, never contiguous: a false positive the scan must drop.
  files['pkg/decoy.py'] = 'needle_xy = 0\nw_xyz = 2\n';
  const pushed = await rest('index', { project: RARE, files: Object.entries(files).map(([path, content]) => ({ path, content })) });
  expect(pushed.status).toBe(200);
});

describe('trigram prefilter', () => {
  it('reads only the files whose content holds the literal trigrams', async () => {
    const { body } = await rest('grep', { project: RARE, pattern: 'needle_xyz' });
    expect(body.result.matches).toEqual(refGrep(files, /needle_xyz/));
    const stats = scanStats(body);
    expect(stats.full_scan).toBe(false);
    expect(stats.files_in_scope).toBe(61);
    // The decoy holds the trigrams but not the literal; the SQL check drops it.
    expect(stats.candidates_prefiltered).toBe(2);
    expect(stats.files_scanned).toBe(2);
    expect(stats.bytes_scanned).toBeLessThan(200);
    expect(body._meta.warnings_v2 ?? []).not.toContainEqual(expect.objectContaining({ code: 'grep_full_scan' }));
  });

  it('uses the trigram index for a regex through its required literal and stays case-insensitive', async () => {
    const { body } = await rest('grep', { project: RARE, pattern: 'NEEDLE_\\w+', ignore_case: true });
    expect(body.result.matches).toEqual(refGrep(files, /NEEDLE_\w+/i));
    expect(scanStats(body).candidates_prefiltered).toBe(3);
  });

  it('falls back to a full scan, flagged in _meta, when no literal of 3+ characters is required', async () => {
    const { body } = await rest('grep', { project: RARE, pattern: '\\d{3}-\\d{4}', summary: true });
    const stats = scanStats(body);
    expect(stats.full_scan).toBe(true);
    expect(stats.candidates_prefiltered).toBe(61);
    expect(stats.files_scanned).toBe(61);
    const full = (body._meta.warnings_v2 as Json[]).find((w) => w.code === 'grep_full_scan');
    expect(full?.severity).toBe('info');
    expect(body.result.total_matches).toBe(refGrep(files, /\d{3}-\d{4}/).length);
  });
});

describe('scan time budget', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** A clock that jumps 700 ms per reading, so the 2 s budget runs out after a few files. */
  function fastClock(): void {
    const real = Date.now.bind(Date);
    let readings = 0;
    vi.spyOn(Date, 'now').mockImplementation(() => real() + 700 * readings++);
  }

  it('stops at the budget, flags truncated and scan_budget_exhausted, and keeps partial counts', async () => {
    fastClock();
    const { body } = await rest('grep', { project: RARE, pattern: 'return a \\+ b', summary: true });
    vi.restoreAllMocks();
    const warnings = body._meta.warnings_v2 as Json[];
    expect(warnings.map((w) => w.code)).toContain('scan_budget_exhausted');
    expect(body.result.truncated).toBe(true);
    expect(scanStats(body).files_scanned).toBeLessThan(61);
    expect(body.result.total_matches).toBe(scanStats(body).files_scanned);
  });

  it('reports cap_dropped_all when the budget runs out before any match', async () => {
    fastClock();
    const { body } = await rest('grep', { project: RARE, pattern: 'never_in_any_file|\\d{3}-\\d{4}x' });
    vi.restoreAllMocks();
    expect(body._meta.empty_reason).toBe('cap_dropped_all');
    expect(body.result.truncated).toBe(true);
    expect((body._meta.warnings_v2 as Json[]).map((w) => w.code)).toContain('scan_budget_exhausted');
  });
});

describe('pattern safety', () => {
  for (const pattern of ['(a+)+$', '(.*)*x', '(\\w+\\s?)*$', '(a|aa)+b', '\\w+\\s*\\w+!']) {
    it(`refuses /${pattern}/ quickly with a typed error and a safer form`, async () => {
      const t0 = Date.now();
      const { status, body } = await rest('grep', { project: PROJECT, pattern });
      expect(Date.now() - t0).toBeLessThan(1000);
      expect(status).toBe(400);
      expect(body.error.code).toBe('invalid_params');
      expect(body.error.message).toContain('refused');
      expect(body.error.details.rule).toMatch(/nested_quantifier|overlapping_alternation|stacked_quantifiers/);
      expect(body.error.suggestion).toMatch(/→/);
    });
  }

  it('answers a.*b.*c over a long line dense with a and b without backtracking blow-up', async () => {
    const line = 'ab'.repeat(990); // 1,980 characters: the c that follows is inside the 2,000 examined
    // Short lines keep the mean line length under the minified-file blocklist threshold.
    const content = `${line}\n${line}c\n${'short line\n'.repeat(10)}`.repeat(20);
    const pushed = await rest('index', { project: 'grep-dense', files: [{ path: 'data.txt', content }] });
    expect(pushed.status).toBe(200);
    const t0 = Date.now();
    const { body } = await rest('grep', { project: 'grep-dense', pattern: 'a.*b.*c', summary: true });
    expect(Date.now() - t0).toBeLessThan(1500);
    expect(body.result.total_matches).toBe(20);
  });
});

describe('empty results say why and what to call next (every step executed)', () => {
  it('no_project_indexed for an unknown project, with list', async () => {
    const { status, body } = await rest('grep', { project: 'grep-nope', pattern: 'x' });
    expect(status).toBe(200);
    expect(body._meta.empty_reason).toBe('no_project_indexed');
    expect(body.result).toEqual({ matches: [], total_matches: 0, files_matched: 0, truncated: false });
    for (const step of body._meta.next_steps) await runStep(step);
  });

  it('no_results_in_corpus for a project with no files, with list', async () => {
    await env.DB.prepare("INSERT INTO projects (id, name, created_at, indexed_at, file_count, symbol_count) VALUES ('grep-empty-id', 'grep-empty', 1, 2, 0, 0)").run();
    const { body } = await rest('grep', { project: 'grep-empty', pattern: 'x' });
    expect(body._meta.empty_reason).toBe('no_results_in_corpus');
    for (const step of body._meta.next_steps) await runStep(step);
  });

  it('query_too_narrow when the path glob matches no file, with the same grep without path', async () => {
    const body = await grep({ pattern: 'handleRequest', path: '*.rs' });
    expect(body._meta.empty_reason).toBe('query_too_narrow');
    const [step] = body._meta.next_steps as Json[];
    expect(step).toMatchObject({ tool: 'grep', args: { pattern: 'handleRequest', project: PROJECT } });
    expect(step.args).not.toHaveProperty('path');
    const after = await runStep(step);
    expect(after.result.matches).toEqual(refGrep(FILES, /handleRequest/));
  });

  it('query_too_narrow when the glob matches files but the pattern only matches outside them', async () => {
    const body = await grep({ pattern: 'handle_request_inner', path: 'docs/**' });
    expect(body._meta.empty_reason).toBe('query_too_narrow');
    const after = await runStep(body._meta.next_steps[0]);
    expect(after.result.total_matches).toBe(2);
  });

  it('omits the without-path step when the pattern matches nowhere', async () => {
    const body = await grep({ pattern: 'zebra_quux', path: '*.rs' });
    expect(body._meta.empty_reason).toBe('query_too_narrow');
    expect(body._meta.next_steps ?? []).toEqual([]);
  });

  it('no_results_in_corpus with the same grep ignoring case when that finds matches', async () => {
    const body = await grep({ pattern: 'HANDLE_REQUEST_INNER' });
    expect(body._meta.empty_reason).toBe('no_results_in_corpus');
    const [step] = body._meta.next_steps as Json[];
    expect(step).toMatchObject({ tool: 'grep', args: { pattern: 'HANDLE_REQUEST_INNER', ignore_case: true, project: PROJECT } });
    const after = await runStep(step);
    expect(after.result.matches).toEqual(refGrep(FILES, /HANDLE_REQUEST_INNER/i));
  });

  it('no_results_in_corpus with a search on the literal when nothing matches even ignoring case', async () => {
    const body = await grep({ pattern: 'zebra_quux\\d+' });
    expect(body._meta.empty_reason).toBe('no_results_in_corpus');
    const steps = body._meta.next_steps as Json[];
    expect(steps[0]).toEqual({ tool: 'search', args: { query: 'zebra_quux', project: PROJECT }, why: expect.any(String) });
    for (const step of steps) await runStep(step);
  });
});
