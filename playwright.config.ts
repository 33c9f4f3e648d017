import { defineConfig } from '@playwright/test';

const chromium = process.env.PLAYWRIGHT_CHROMIUM_PATH ?? '/usr/bin/chromium';
// Several checkouts on one machine each serve the built app on a port of their own.
const port = Number(process.env.E2E_PORT ?? 4173);

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  // CI also keeps every test's duration (and each attempt's) in a JSON file, so a slower run can be
  // compared test by test with an earlier one.
  reporter: process.env.CI ? [['list'], ['json', { outputFile: 'playwright-report/durations.json' }]] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      executablePath: chromium,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
    // Recording a trace for every test was 40% of the suite's CPU (measured on 22 tests: 44.6 s with
    // retain-on-failure, 33.0 s without its screencast, 26.2 s with no trace). CI retries a failed
    // test once and records the retry's trace in full; a local run keeps a failure's trace with DOM
    // snapshots but no screencast.
    trace: process.env.CI ? 'on-first-retry' : { mode: 'retain-on-failure', screenshots: false },
  },
  webServer: {
    command: `npx vite preview --port ${port} --strictPort --host 127.0.0.1`,
    url: `http://127.0.0.1:${port}`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
