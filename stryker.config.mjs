// Mutation testing (issue 25): `npm run mutate [area...]` runs one area at a time through
// scripts/mutate.mjs, which sets MUTATE_AREA. Each area mutates its own code and runs only its own
// tests (vitest.mutate.config.ts reads the same variable), so a survivor means that area's tests
// miss it. Not part of `npm test`: a run takes minutes of CPU.
import { MUTATE_AREAS } from './scripts/mutate-areas.mjs';

const name = process.env.MUTATE_AREA ?? 'turn';
const area = MUTATE_AREAS[name];
if (!area) throw new Error(`MUTATE_AREA=${name}: expected one of ${Object.keys(MUTATE_AREAS).join(', ')}`);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  // related: the dry run loads only the area's test files that import the mutated files (with `--mutate
  // FILE`, the tests of that file), not every test of the area. MUTATE_RELATED=0 turns it off.
  vitest: { configFile: 'vitest.mutate.config.ts', related: process.env.MUTATE_RELATED !== '0' },
  mutate: area.mutate,
  // Per-test coverage: each mutant runs only the tests that reach it.
  coverageAnalysis: 'perTest',
  // The machine has 2 cores shared by several engineers.
  concurrency: Number(process.env.MUTATE_CONCURRENCY ?? 1),
  // Reuses the previous run's results for mutants whose code and tests did not change. The baseline is
  // kept in the repository (mutation/, issue 35), so a run on any checkout retests only what changed;
  // a run with `--mutate FILE` adds that file's mutants to it and keeps the other files' results.
  incremental: true,
  incrementalFile: `mutation/${name}.incremental.json`,
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: process.env.MUTATE_REPORT ?? `reports/mutation/${name}.json` },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  ignorePatterns: ['dist', 'dist-cli', 'test-results', 'playwright-report', 'bench/out', 'reports', 'e2e', '.stryker-tmp'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
  // A static mutant (a module-level constant) reruns every test; skipping them keeps a run within the
  // hour on a shared 2-core machine. They are counted as "ignored" in the report.
  ignoreStatic: true,
  thresholds: { high: 85, low: 70, break: null },
};
