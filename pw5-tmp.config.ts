import base from './playwright.config';
import { defineConfig } from '@playwright/test';
export default defineConfig({
  ...base,
  testDir: '/work/main/e2e',
  outputDir: '/tmp/t5/test-results',
  use: { ...base.use, baseURL: 'http://127.0.0.1:4185' },
  webServer: { command: 'npx vite preview --outDir /tmp/t5/dist --port 4185 --strictPort --host 127.0.0.1', cwd: '/work/main', url: 'http://127.0.0.1:4185', reuseExistingServer: true, timeout: 60_000 },
});
