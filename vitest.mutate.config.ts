// The vitest config Stryker runs (stryker.config.mjs): only the tests of the area being mutated.
import { defineConfig } from 'vitest/config';
import { MUTATE_AREAS } from './scripts/mutate-areas.mjs';

const area = MUTATE_AREAS[(process.env.MUTATE_AREA ?? 'turn') as keyof typeof MUTATE_AREAS];

export default defineConfig({
  test: {
    include: area.tests,
    environment: 'node',
    testTimeout: 30_000,
  },
});
