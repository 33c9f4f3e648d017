import base from './playwright.config';
import { defineConfig } from '@playwright/test';
export default defineConfig({
  ...base,
  testDir: '/work/main/e2e',
  outputDir: '/tmp/pw-ws',
  use: { ...base.use, baseURL: 'http://127.0.0.1:4273' },
  webServer: { command: 'npx vite preview --outDir /tmp/ws-dist --port 4273 --strictPort --host 127.0.0.1', cwd: '/work/main', url: 'http://127.0.0.1:4273', reuseExistingServer: true, timeout: 60_000 },
});
