// Serves the built app with `vite preview` on a free loopback port and opens
// Debian's Chromium, for the UI benchmarks.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { chromium } from '@playwright/test';
import type { Browser } from '@playwright/test';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** `chromiumArgs`: more switches for Chromium (ui-churn.ts passes V8 flags). */
export async function withPreview(fn: (browser: Browser, baseURL: string) => Promise<void>, chromiumArgs: readonly string[] = []): Promise<void> {
  const port = await freePort();
  // Its own process group, so stopping it stops the vite that npx starts too (not only npx).
  const server = spawn('npx', ['vite', 'preview', '--port', String(port), '--strictPort', '--host', '127.0.0.1'], { stdio: ['ignore', 'pipe', 'inherit'], detached: true });
  const baseURL = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; i < 100; i++) {
      try {
        const r = await fetch(baseURL);
        if (r.ok) break;
      } catch {
        // not up yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const browser = await chromium.launch({
      executablePath: process.env.PLAYWRIGHT_CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', ...chromiumArgs],
    });
    try {
      await fn(browser, baseURL);
    } finally {
      await browser.close();
    }
  } finally {
    try {
      if (server.pid !== undefined) process.kill(-server.pid, 'SIGTERM');
    } catch {
      server.kill();
    }
  }
}
