// fast-check as the mutation runs see it (vitest.mutate.config.ts aliases 'fast-check' here): every
// property runs a fifth of the cases the suite asks for (MUTATE_RUNS_FRACTION, default 0.2; at least 1).
// A mutant reruns every property test that reaches its line, so the full counts made a stream or turn
// mutant cost seconds; a mutant that breaks a property almost always fails it within the first cases,
// since the generators start small. A fraction rather than a fixed cap keeps the tests that check their
// own generators took a path often enough (properties.test.ts counts its rebased edits) passing.
// `npm test` never loads this file: there the counts are unchanged.
import * as real from '../node_modules/fast-check/lib/fast-check.js';

export * from '../node_modules/fast-check/lib/fast-check.js';

const fraction = Number(process.env.MUTATE_RUNS_FRACTION ?? 0.2);

export function assert(property, params) {
  return real.assert(property, { ...params, numRuns: Math.max(1, Math.ceil((params?.numRuns ?? 100) * fraction)) });
}

export default { ...real.default, assert };
