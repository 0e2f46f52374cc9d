#!/usr/bin/env node
// Regenerates docs/empty-reasons.md from src/envelope/empty-reasons.ts (the source of truth).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './dev-server.mjs';

const { build } = await import('esbuild');
const out = await build({ entryPoints: [path.join(ROOT, 'src/envelope/empty-reasons.ts')], bundle: true, write: false, format: 'esm', platform: 'neutral' });
const mod = await import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString('base64')}`);
const lines = [
  '# `empty_reason` catalog',
  '',
  'Generated from `src/envelope/empty-reasons.ts` by `node scripts/gen-empty-reasons-doc.mjs`; a test keeps the two equal.',
  'Every empty result stamps `_meta.empty_reason` and `_meta.diagnosis`, mirrors them in MCP',
  '`structuredContent.notice`, and lists recovery `next_steps` the server would itself execute.',
  '`why_empty {code}` returns the entry below with its recovery steps.',
  '',
];
for (const code of mod.EMPTY_REASONS) {
  const e = mod.EMPTY_REASON_CATALOG[code];
  lines.push(`## \`${code}\` — ${e.title}`, '', `**Fires when:** ${e.fires_when}`, '', `**Recovery:** ${e.recovery}`, '');
  if (e.steps.length) {
    lines.push('**Recovery steps:**', '');
    for (const s of e.steps) lines.push(`- \`${s.tool} ${JSON.stringify(s.args)}\` — ${s.why}`);
    lines.push('');
  }
}
const target = path.join(ROOT, 'docs/empty-reasons.md');
const text = lines.join('\n');
if (process.argv.includes('--check')) {
  process.exit(readFileSync(target, 'utf8') === text ? 0 : 1);
}
writeFileSync(target, text);
console.log(`wrote ${target}`);
