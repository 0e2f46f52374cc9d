import type { Context } from 'hono';
import { html, raw } from 'hono/html';
import type { AppEnv } from '../env';
import { isOpenMode } from '../http/auth';
import { TOOLS } from '../tools/registry';
import { SCHEMA_VERSION, VERSION } from '../version';
import { DASHBOARD_JS } from './client';
import { DASHBOARD_CSS } from './style';

/**
 * `GET /`: the dashboard. The page itself holds no index data (it is public);
 * its script reads everything through the API with the key the user enters,
 * sent in the Authorization header and kept in sessionStorage, never in a URL.
 */
export function dashboardPage(c: Context<AppEnv>): Response | Promise<Response> {
  const origin = new URL(c.req.url).origin;
  const open = isOpenMode(c.env);
  const tools = TOOLS.map((t) => html`<tr><td><code>${t.name}</code></td><td>${t.toolset}</td><td>${t.tier}</td><td class="wrap">${t.title}</td></tr>`);
  return c.html(html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>pincher-edge dashboard</title>
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<style>${raw(DASHBOARD_CSS)}</style>
</head>
<body data-open="${open ? '1' : '0'}">
<a class="skip" href="#main">Skip to content</a>
<header>
  <h1>pincher-edge <span class="muted">${VERSION}</span></h1>
  <span id="health-pill" class="pill muted" role="status">checking…</span>
  <nav aria-label="Sections"><a href="#projects">Projects</a> · <a href="#activity">Activity</a> · <a href="#search">Search</a> · <a href="#connect">Connect</a></nav>
</header>
<main id="main">
  <section id="auth" aria-labelledby="auth-h">
    <h2 id="auth-h">Access</h2>
    <p id="auth-state" role="status">${open ? 'Open mode: this local server needs no key.' : 'A read key is enough. It stays in this tab (session storage) and travels only in the Authorization header.'}</p>
    <form id="key-form" ${open ? raw('hidden') : ''}>
      <label>Access key <input id="key" name="key" type="password" autocomplete="off" spellcheck="false" required></label>
      <button type="submit">Use key</button>
      <button type="button" id="forget" class="secondary">Forget key</button>
    </form>
  </section>

  <section id="state" aria-labelledby="state-h">
    <h2 id="state-h">Health and schema</h2>
    <div id="state-body"><p class="muted">Loading…</p></div>
  </section>

  <section id="live" aria-labelledby="live-h">
    <h2 id="live-h">Live pushes</h2>
    <p id="live-state" class="muted">Not connected.</p>
    <ul id="live-list" class="live" aria-live="polite"></ul>
  </section>

  <section id="projects" aria-labelledby="projects-h">
    <h2 id="projects-h">Projects</h2>
    <div id="projects-body"><p class="muted">Loading…</p></div>
  </section>

  <section id="activity" aria-labelledby="activity-h">
    <h2 id="activity-h">Tool calls</h2>
    <form id="activity-form">
      <label>Window <select id="hours" name="hours"><option value="1">last hour</option><option value="24" selected>last 24 hours</option><option value="168">last 7 days</option><option value="720">last 30 days</option></select></label>
    </form>
    <div id="activity-body"><p class="muted">Loading…</p></div>
  </section>

  <section id="search" aria-labelledby="search-h">
    <h2 id="search-h">Search</h2>
    <form id="search-form" role="search">
      <label>Project <select id="search-project" name="project" required></select></label>
      <label>Symbol or words <input id="search-query" name="query" type="search" required maxlength="500"></label>
      <button type="submit">Search</button>
    </form>
    <p id="search-state" role="status" class="muted"></p>
    <ol id="search-results" class="results"></ol>
    <div id="slice" class="slice" hidden tabindex="-1" aria-labelledby="slice-h"><h3 id="slice-h"></h3><pre id="slice-text"></pre></div>
  </section>

  <section id="connect" aria-labelledby="connect-h">
    <h2 id="connect-h">Connect an agent</h2>
    <p>MCP endpoint: <code>${origin}/mcp</code> (${open ? 'open mode: no key, this machine only' : 'bearer key required'}); REST twin: <code>POST ${origin}/v1/tools/{tool}</code>; schema version ${SCHEMA_VERSION}.</p>
    <p>Probes: <a href="/v1/health">/v1/health</a> · <a href="/v1/ready">/v1/ready</a> · <a href="/v1/openapi.json">/v1/openapi.json</a></p>
    <details><summary>Tools (${TOOLS.length})</summary>
      <div class="scroll" tabindex="0" role="region" aria-label="Tools"><table><thead><tr><th scope="col">tool</th><th scope="col">toolset</th><th scope="col">tier</th><th scope="col">what</th></tr></thead><tbody>${tools}</tbody></table></div>
    </details>
  </section>
</main>
<script>${raw(DASHBOARD_JS)}</script>
</body>
</html>`);
}
