import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 30_000,
    // Vitest's default is one worker fewer than the cores: one worker on CI's 2 cores, so the
    // bridge files that mostly wait on child processes (lifecycle, conformance, security, snapshot:
    // about 100 s between them) ran in series with everything else. VITEST_MAX_WORKERS overrides.
    maxWorkers: 2,
  },
});
