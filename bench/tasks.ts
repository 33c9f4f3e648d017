// Task runs (issue 15): all 2,062 MetaTool tasks over its 199 tools, every tool discoverable, policy
// `auto`, on the command line (whole process, wall and CPU time), and the figures of each policy with
// and without the categories section; then (with `ui`) the same run in the built app's derive worker,
// with the longest main-thread task while it runs (target < 200 ms). No time target for the runs.
//   npx tsx bench/tasks.ts        the command line
//   npx vite build && npx tsx bench/tasks.ts ui
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from '@playwright/test';
import { allDiscoverableDoc } from '../src/core/tasks/catalogue';
import { writeScenario } from '../src/core/scenario/doc';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const metatool = resolve(root, '../shared/data/search-eval/metatool/catalogue.tools-list.json');
const metatoolTasks = resolve(root, '../shared/data/search-eval/metatool/queries.jsonl');
const demo = resolve(root, 'src/app/demo-scenario.toml');
const demoTasks = resolve(root, 'scenarios/data/demo-tasks.jsonl');

const CPU_HOOK = `process.on('exit', () => { const u = process.cpuUsage(); process.stderr.write('\\ncpu-ms:' + ((u.user + u.system) / 1000).toFixed(1) + '\\n'); });\n`;

function cli(args: readonly string[]): { ms: number; cpu: number; last: string } {
  const hook = join(mkdtempSync(join(tmpdir(), 'tasks-bench-')), 'cpu-hook.cjs');
  writeFileSync(hook, CPU_HOOK);
  const bin = join(root, 'node_modules', '.bin', 'tool-workbench');
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--require', hook, bin, 'tasks', ...args], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`tasks ${args.join(' ')} failed (${r.status}): ${r.stderr.slice(-400)}`);
  const lines = r.stdout.trimEnd().split('\n');
  return { ms, cpu: Number(/cpu-ms:([\d.]+)/u.exec(r.stderr)?.[1] ?? Number.NaN), last: lines.slice(-3).join(' | ') };
}

export function run(): void {
  console.log(`  load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} on ${availableParallelism()} cores`);
  const all = cli(['--scenario', metatool, '--tasks', metatoolTasks, '--policy', 'auto']);
  console.log(`  tool-workbench tasks, MetaTool 199 tools all discoverable, 2,062 tasks, policy auto (whole process): ${all.ms.toFixed(0)} ms wall, ${all.cpu.toFixed(0)} ms CPU`);
  console.log(`    ${all.last}`);
  if (process.argv.includes('--figures')) {
    for (const [label, scenario, tasks] of [['demo scenario, scenarios/data/demo-tasks.jsonl', demo, demoTasks], ['MetaTool all discoverable, queries.jsonl', metatool, metatoolTasks]] as const) {
      for (const policy of ['never', 'request', 'auto', 'categories']) {
        for (const categories of [false, true]) {
          const r = cli(['--scenario', scenario, '--tasks', tasks, '--policy', policy, ...(categories ? ['--categories'] : [])]);
          console.log(`  ${label}, policy ${policy}, categories ${categories ? 'on' : 'off'} (${r.ms.toFixed(0)} ms): ${r.last.split(' | ').pop() ?? ''}`);
        }
      }
    }
  }
}

/** The same run in the page: the worker plays it in chunks; the main thread's long tasks are recorded. */
export async function runUi(browser: Browser, baseURL: string): Promise<void> {
  const made = allDiscoverableDoc(readFileSync(metatool, 'utf8'), 'catalogue.tools-list.json', 'metatool');
  if (!made.ok) throw new Error(made.errors.join('; '));
  const page = await browser.newPage({ baseURL, viewport: { width: 1440, height: 900 } });
  await page.goto('/');
  await page.waitForFunction(() => window.__workbench !== undefined);
  await page.evaluate((text) => window.__workbench?.loadScenario(text, 'metatool.toml'), writeScenario(made.doc));
  await page.getByTestId('check-status').waitFor();
  await page.getByRole('tab', { name: 'Tasks' }).click();
  await page.getByTestId('tk-file').setInputFiles(metatoolTasks);
  await page.getByTestId('tk-bar').filter({ hasText: '2062 lines' }).waitFor();
  await page.getByTestId('tk-policy').selectOption('auto');
  await page.getByLabel('tokens against all-on').uncheck();
  await page.evaluate(() => {
    const w = window as unknown as { __tasks: number[] };
    w.__tasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__tasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: false });
  });
  const t0 = performance.now();
  await page.getByTestId('tk-run').click();
  await page.getByTestId('tk-summary').filter({ hasText: '2062 tasks' }).waitFor({ timeout: 600_000 });
  const ms = performance.now() - t0;
  const tasks = await page.evaluate(() => (window as unknown as { __tasks: number[] }).__tasks);
  const longest = tasks.length ? Math.max(...tasks) : 0;
  const filters = await page.getByTestId('tk-summary').locator('.tk-filters').textContent();
  console.log(`  Tasks tab, MetaTool 2,062 tasks, policy auto, in the derive worker: ${ms.toFixed(0)} ms; longest main-thread task ${longest.toFixed(0)} ms over ${tasks.length} long tasks (target < 200 ms)`);
  console.log(`    ${filters ?? ''}`);
  await page.close();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv[2] === 'ui') {
    const { withPreview } = await import('./ui-server');
    await withPreview(runUi);
  } else run();
}
