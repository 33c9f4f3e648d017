#!/usr/bin/env node
// `npm run mutate [area...] [-- stryker options]`: Stryker over each area in turn (all of them when none is named), one at a
// time and at low priority, since a run keeps its cores busy for minutes. MUTATE_CONCURRENCY (default 1)
// sets Stryker's test runners.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { MUTATE_AREAS } from './mutate-areas.mjs';

// Area names come first; the first option and everything after it go to Stryker as they are (e.g.
// `npm run mutate tasks -- --mutate src/core/tasks/outcome.ts`). npm removes its own `--`, so the
// options arrive right after the areas; a literal `--` before them is accepted too.
const args = process.argv.slice(2);
const firstOption = args.findIndex((a) => a.startsWith('-'));
const asked = firstOption < 0 ? args : args.slice(0, firstOption);
const passed = firstOption < 0 ? [] : args.slice(firstOption).filter((a, i) => !(i === 0 && a === '--'));
const areas = asked.length > 0 ? asked : Object.keys(MUTATE_AREAS);
const unknown = areas.filter((a) => !(a in MUTATE_AREAS));
if (unknown.length > 0) {
  console.error(`unknown area ${unknown.join(', ')}: expected ${Object.keys(MUTATE_AREAS).join(', ')}`);
  process.exit(2);
}
// Stryker's sandbox is .stryker-tmp/sandbox-N, one folder deeper than the repository: tests that read
// ../shared (beside the repository) find it through this link.
mkdirSync('.stryker-tmp', { recursive: true });
if (!existsSync('.stryker-tmp/shared')) symlinkSync('../../shared', '.stryker-tmp/shared');
// Stryker links the project's node_modules into its sandbox only when it is a real folder; in a git
// worktree whose node_modules is a link to another checkout's, the sandbox had none, so every test file
// importing a path under node_modules (src/core/search reads minisearch's package.json there) failed to
// load, the dry run still "succeeded" on the few files left, and every mutant survived. The sandbox then
// gets the link from a build command (Stryker runs it in the sandbox before the first test run).
const linkNodeModules = existsSync('node_modules') && lstatSync('node_modules').isSymbolicLink() && !passed.some((a) => a === '--buildCommand' || a === '-b');
if (linkNodeModules) passed.push('--buildCommand', `ln -s ${realpathSync('node_modules')} node_modules`);
let failed = 0;
for (const area of areas) {
  console.log(`\n== mutate ${area} ==`);
  const r = spawnSync('nice', ['-n', '15', 'npx', 'stryker', 'run', 'stryker.config.mjs', ...passed], { stdio: 'inherit', env: { ...process.env, MUTATE_AREA: area } });
  if (r.status !== 0) failed++;
}
process.exit(failed > 0 ? 1 : 0);
