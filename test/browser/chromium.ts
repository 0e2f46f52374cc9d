// Headless Chromium for the browser tests: Debian's `chromium-headless-shell` driven by
// playwright-core (Playwright's own browser download needs its CDN; this machine may have no
// internet). A missing or broken browser throws: the suite fails, it never skips.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Where Debian installs it; `PINCHER_CHROMIUM` names another binary. */
export const CHROMIUM = process.env.PINCHER_CHROMIUM ?? '/usr/bin/chromium-headless-shell';

/** Flags for a machine without internet: nothing phones home, no sandbox (CI runs as root). */
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Launches Chromium with a fresh profile, or throws saying how to install it. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `the browser tests need headless Chromium at ${CHROMIUM} and it is not there: install it with ` +
        '`apt-get install -y chromium-headless-shell` (.ci/run does), or point PINCHER_CHROMIUM at a Chromium binary',
    );
  }
  const profile = mkdtempSync(path.join(tmpdir(), 'pincher-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS, viewport: { width: 1280, height: 900 } });
    return {
      context,
      close: async () => {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(profile, { recursive: true, force: true });
    throw new Error(`headless Chromium at ${CHROMIUM} did not start: ${err instanceof Error ? err.message : String(err)}`);
  }
}
