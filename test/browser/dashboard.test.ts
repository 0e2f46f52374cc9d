// The dashboard in a real browser (headless Chromium) against a real local server
// (`wrangler dev` behind scripts/local-server.mjs) holding a project pushed by the CLI.
// Screenshots go to .tmp/browser/ as test artefacts.
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleMessage, Page } from 'playwright-core';
import { cli } from '../node/cli/run-cli';
import { http, rest, startE2EServer, type E2EServer } from '../node/e2e/support';
import { launchChromium, type Browser } from './chromium';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SHOTS = path.join(ROOT, '.tmp', 'browser');
const FULL = 'browser-full-key';
const READ = 'browser-read-key';
const PROJECT = 'browser-cli';

let server: E2EServer;
/** The same Worker in local open mode (no key configured), empty. */
let openServer: E2EServer;
let browser: Browser;
let fixture: string;

/** The CLI's own source: real code, pushed through the real CLI. */
function pushFixture(dir: string) {
  return cli(['push', dir, '--url', server.url, '--project', PROJECT, '--ref', 'main', '--commit', 'a'.repeat(40), '--json'], { PINCHER_HTTP_KEY: FULL });
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  // Launch first: a missing browser fails the suite before a server is started.
  browser = await launchChromium();
  [server, openServer] = await Promise.all([
    startE2EServer({ PINCHER_HTTP_KEY: FULL, PINCHER_READ_KEY: READ }, 200_000),
    startE2EServer({ PINCHER_ALLOW_OPEN: '1' }, 200_000),
  ]);
  fixture = mkdtempSync(path.join(tmpdir(), 'pincher-browser-fixture-'));
  cpSync(path.join(ROOT, 'cli'), fixture, { recursive: true, filter: (src) => !src.includes(`${path.sep}dist`) });
  const pushed = await pushFixture(fixture);
  expect(pushed.code, pushed.stderr).toBe(0);
  // Some activity for the charts: a hit, an empty result, a read.
  await rest(server.url, 'search', { project: PROJECT, query: 'runPush' }, READ);
  await rest(server.url, 'search', { project: PROJECT, query: 'zzzNothingHere' }, READ);
  await rest(server.url, 'read', { project: PROJECT, path: 'push.mjs', offset: 1, limit: 5 }, READ);
  // Their call-log rows land when the server's call-log window closes (PINCHER_CALL_LOG_WINDOW_MS, 500 ms): wait for them.
  const deadline = Date.now() + 20_000;
  for (;;) {
    const r = await http(server.url, '/v1/activity', { key: READ });
    const tools = (r.body?.tools ?? []) as { tool: string; calls: number; empty_rate: number }[];
    const search = tools.find((t) => t.tool === 'search');
    if ((search?.calls ?? 0) >= 2 && tools.some((t) => t.tool === 'read')) break;
    if (Date.now() > deadline) throw new Error(`the calls never reached GET /v1/activity: ${JSON.stringify(tools)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}, 280_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([server?.stop(), openServer?.stop()]);
  if (fixture) rmSync(fixture, { recursive: true, force: true });
});

interface Watched {
  page: Page;
  errors: string[];
  urls: string[];
  authHeaders: string[];
}

/** A fresh tab (fresh sessionStorage) recording console errors, uncaught exceptions and every request. */
async function openTab(width = 1280, base = server.url): Promise<Watched> {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width, height: 900 });
  const watched: Watched = { page, errors: [], urls: [], authHeaders: [] };
  page.on('console', (m: ConsoleMessage) => {
    if (m.type() === 'error') watched.errors.push(`${m.text()} @ ${m.location().url}`);
  });
  page.on('pageerror', (err) => watched.errors.push(`uncaught: ${err.message}`));
  page.on('request', (req) => {
    watched.urls.push(req.url());
    const auth = req.headers().authorization;
    if (auth) watched.authHeaders.push(auth);
  });
  await page.goto(base + '/');
  return watched;
}

async function signIn(page: Page, key: string): Promise<void> {
  await page.getByLabel('Access key').fill(key);
  await page.getByRole('button', { name: 'Use key' }).click();
}

describe('the dashboard in headless Chromium', () => {
  it('loads with a read key and shows projects, languages, pushes, activity charts and health, with zero console errors', async () => {
    const { page, errors, urls, authHeaders } = await openTab();
    await expectText(page, '#auth-state', /needs a key/);
    await signIn(page, READ);
    await page.locator(`#projects-body th[scope=row] >> text=${PROJECT}`).waitFor();
    await page.locator(`#h-${PROJECT} td >> text=committed`).first().waitFor();
    await page.locator('#activity-body svg').first().waitFor();
    await expectText(page, '#health-pill', /^ready$/);
    await expectText(page, '#state-body', /Schema drift\s*none/);
    await expectText(page, `#p-${PROJECT}`, /javascript/);
    await expectText(page, `#p-${PROJECT}`, /cross-file|same-file/);
    await expectText(page, '#activity-body', /search/);
    await expectText(page, '#activity-body', /no_match|query_too_narrow|empty/);
    await expectText(page, '#live-state', /Connected/);
    expect(await page.evaluate(() => sessionStorage.getItem('pincher.key'))).toBe(READ);
    await page.screenshot({ path: path.join(SHOTS, 'dashboard-1280.png'), fullPage: true });
    // The key travels in the Authorization header only, never in a URL.
    expect(authHeaders).toContain(`Bearer ${READ}`);
    expect(urls.filter((u) => u.includes(READ))).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('is usable at 375 px wide: no horizontal page scroll, controls reachable', async () => {
    const { page, errors } = await openTab(375);
    await signIn(page, READ);
    await page.locator(`#projects-body th[scope=row] >> text=${PROJECT}`).waitFor();
    await page.locator('#activity-body svg').first().waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await page.getByLabel('Symbol or words').isVisible()).toBe(true);
    await page.screenshot({ path: path.join(SHOTS, 'dashboard-375.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('searches from the keyboard and opens a result as an anchored source slice', async () => {
    const { page, errors } = await openTab();
    await signIn(page, READ);
    await page.locator(`#search-project option >> text=${PROJECT}`).waitFor({ state: 'attached' });
    await page.getByLabel('Symbol or words').fill('runPush');
    await page.getByLabel('Symbol or words').press('Enter');
    const first = page.locator('#search-results button').first();
    await first.waitFor();
    expect(await first.textContent()).toContain('runPush');
    await first.focus();
    await page.keyboard.press('Enter');
    await page.locator('#slice:not([hidden])').waitFor();
    const slice = (await page.locator('#slice-text').textContent()) ?? '';
    expect(slice).toContain('runPush');
    // LINE:HASH anchors, one per line, and an id per line to link to.
    expect(slice.split('\n')[0]).toMatch(/^\d+:[0-9a-z]+ /);
    expect(await page.locator('#slice-text span[id^="L"].hit').count()).toBeGreaterThan(0);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('slice');
    await page.screenshot({ path: path.join(SHOTS, 'search-slice.png'), fullPage: false });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows a push live while it runs: opened, each batch received, committed, resolved; then its history row', async () => {
    const { page, errors } = await openTab();
    await signIn(page, READ);
    await expectText(page, '#live-state', /Connected/);
    const before = await page.locator(`#h-${PROJECT} tbody tr`).count();
    // A push driven step by step through the upload API, so each step can be watched.
    const files = [
      { path: 'live/a.mjs', content: 'export function liveA(n) {\n  return n + 1;\n}\n' },
      { path: 'live/b.mjs', content: 'export function liveB(n) {\n  return n * 2;\n}\n' },
    ].map((f) => ({ ...f, hash: createHash('sha256').update(f.content).digest('hex') }));
    const opened = await http(server.url, `/v1/projects/${PROJECT}/uploads`, {
      method: 'POST',
      key: FULL,
      body: { mode: 'merge', ref: 'main', manifest: files.map((f) => ({ path: f.path, hash: f.hash, size: Buffer.byteLength(f.content) })) },
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const id = opened.body.upload_id as string;
    const entry = page.locator(`#push-${id}`);
    await entry.waitFor({ timeout: 20_000 });
    expect(await entry.getAttribute('data-state')).toBe('running');
    await expectText(page, `#push-${id}`, /2 files, 2 to send/);
    const send = (f: (typeof files)[number]) => http(server.url, `/v1/projects/${PROJECT}/uploads/${id}/files`, { method: 'POST', key: FULL, body: { files: [{ path: f.path, hash: f.hash, content: f.content }] } });
    expect((await send(files[0])).status).toBe(200);
    await page.waitForFunction((sel) => (document.querySelector(sel) as HTMLProgressElement | null)?.value === 1, `#push-${id} progress`, { timeout: 20_000 });
    await page.screenshot({ path: path.join(SHOTS, 'live-push-running.png'), fullPage: false });
    expect((await send(files[1])).status).toBe(200);
    await page.waitForFunction((sel) => (document.querySelector(sel) as HTMLProgressElement | null)?.value === 2, `#push-${id} progress`, { timeout: 20_000 });
    expect((await http(server.url, `/v1/projects/${PROJECT}/uploads/${id}/commit`, { method: 'POST', key: FULL })).status).toBe(200);
    await page.locator(`#push-${id}[data-state="resolved"]`).waitFor({ timeout: 20_000 });
    await expectText(page, `#push-${id}`, /resolved \(2 new, 0 changed, 0 deleted; [\d,]+ symbols in/);
    await expectText(page, `#push-${id}`, /graph edges/);
    // The history reloads on its own and lists the new push.
    await page.waitForFunction(([sel, n]) => document.querySelectorAll(sel as string).length > (n as number), [`#h-${PROJECT} tbody tr`, before] as const, { timeout: 15_000 });
    await page.screenshot({ path: path.join(SHOTS, 'live-push-done.png'), fullPage: false });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('works without a key in open mode: no key form, health and an empty server explained', async () => {
    const { page, errors, authHeaders } = await openTab(1280, openServer.url);
    await expectText(page, '#health-pill', /^ready$/);
    await expectText(page, '#projects-body', /No project is indexed yet/);
    await expectText(page, '#auth-state', /Open mode/);
    expect(await page.locator('#key-form').isHidden()).toBe(true);
    await page.locator('#activity-body p, #activity-body table').first().waitFor();
    await expectText(page, '#live-state', /Connected/);
    expect(authHeaders).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'open-mode.png'), fullPage: false });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('refuses a wrong key, keeps no key and shows no data', async () => {
    const { page, errors } = await openTab();
    await signIn(page, 'not-the-key');
    await expectText(page, '#auth-state', /refused/);
    expect(await page.evaluate(() => sessionStorage.getItem('pincher.key'))).toBeNull();
    expect(await page.locator('#projects-body table').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('key');
    await page.screenshot({ path: path.join(SHOTS, 'wrong-key.png'), fullPage: false });
    // Chromium logs each refused request; nothing else may fail.
    expect(errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
    await page.close();
  });
});

async function expectText(page: Page, selector: string, pattern: RegExp): Promise<void> {
  await page.waitForFunction(
    ([sel, source, flags]) => [...document.querySelectorAll(sel)].some((el) => new RegExp(source, flags).test((el.textContent ?? '').replace(/\s+/g, ' '))),
    [selector, pattern.source, pattern.flags] as const,
    { timeout: 20_000 },
  ).catch(async (err) => {
    const text = await page.locator(selector).first().textContent().catch(() => '(missing)');
    throw new Error(`${selector} never matched ${pattern}: ${String(text).slice(0, 300)} (${err instanceof Error ? err.message.split('\n')[0] : err})`);
  });
}
