import type { Context } from 'hono';
import type { AppEnv } from '../env';
import { isOpenMode } from './auth';
import { TOOLS } from '../tools/registry';
import { VERSION } from '../version';

/** A small human page at `/`: what this is and where to point an MCP host. */
export function landingPage(c: Context<AppEnv>): Response {
  const origin = new URL(c.req.url).origin;
  const access = isOpenMode(c.env) ? 'open mode: no key, this machine only' : 'bearer key required';
  const rows = TOOLS.map((t) => `<tr><td><code>${t.name}</code></td><td>${t.toolset}</td><td>${t.tier}</td><td>${escapeHtml(t.title)}</td></tr>`).join('');
  return c.html(`<!doctype html><html><head><meta charset="utf-8"><title>pincher-edge</title>
<style>body{font:15px system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem}code,pre{background:#f3f3f3;padding:.1rem .3rem}td{padding:.2rem .6rem}</style></head>
<body><h1>pincher-edge ${VERSION}</h1>
<p>Remote code intelligence for AI coding agents. MCP endpoint: <code>${origin}/mcp</code> (${access}).</p>
<p>Probes: <a href="/v1/health">/v1/health</a> · <a href="/v1/ready">/v1/ready</a> · <a href="/v1/openapi.json">/v1/openapi.json</a></p>
<table><thead><tr><th>tool</th><th>toolset</th><th>tier</th><th></th></tr></thead><tbody>${rows}</tbody></table>
</body></html>`);
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch] as string);
}
