// `npm run bench:ui` (builds first): the UI benchmarks in the built app, in Chromium, each
// printing its figures and its target. Sections run in order over one preview server; each
// module also runs alone (`npx tsx bench/<module>.ts` after `npx vite build`).
import type { Browser } from '@playwright/test';
import { withPreview } from './ui-server';
import { run as shell } from './ui-shell';
import { run as replay } from './ui-replay';
import { run as scale } from './ui-scale';
import { run as live } from './ui-live';
import { runUi as tasks } from './tasks';

export const sections: readonly [string, (browser: Browser, baseURL: string) => Promise<void>][] = [
  ['shell (issue 4): typing, long tasks, first-paint JavaScript', shell],
  ['replay (issue 5): a 50-turn scenario over 2,000 tools', replay],
  ['scale (issue 16): 10,000 and 100,000 tools opened, typed into, scrolled', scale],
  ['live (issue 32): a small layer and the catalogue layer typed into at 1,000, 10,000 and 100,000 tools', live],
  ['tasks (issue 15): 2,062 MetaTool tasks in the worker', tasks],
];

if (import.meta.url === `file://${process.argv[1]}`) {
  const only = process.argv[2];
  let failed = 0;
  await withPreview(async (browser, baseURL) => {
    for (const [name, run] of sections) {
      if (only && !name.startsWith(only)) continue;
      console.log(`\n== ${name}`);
      try {
        await run(browser, baseURL);
      } catch (e) {
        failed += 1;
        console.log(`  failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  });
  if (failed > 0) process.exitCode = 1;
}
