// The vitest config Stryker runs (stryker.config.mjs): only the tests of the area being mutated, with
// fast-check's properties cut to a fifth of their cases (scripts/fast-check-mutate.mjs).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { MUTATE_AREAS } from './scripts/mutate-areas.mjs';

const area = MUTATE_AREAS[(process.env.MUTATE_AREA ?? 'turn') as keyof typeof MUTATE_AREAS];

export default defineConfig({
  resolve: {
    alias: [{ find: /^fast-check$/, replacement: fileURLToPath(new URL('./scripts/fast-check-mutate.mjs', import.meta.url)) }],
  },
  test: {
    include: area.tests,
    environment: 'node',
    testTimeout: 30_000,
  },
});
