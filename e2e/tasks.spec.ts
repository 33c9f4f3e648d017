// Task runs (issue 15) in the page: load the demo's task set, run it under two policies in the worker,
// see the outcomes that changed, open a silent miss's turn on the scratch copy, export both formats.
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect } from './fixtures';
import { screenshotsAtTwoSizes } from './screens';

const TASKS = resolve(dirname(fileURLToPath(import.meta.url)), '../scenarios/data/demo-tasks.jsonl');
const SLOW = { timeout: 60_000 };

test('load a task set, run two policies, open a silent miss in its turn, export the results', async ({ workbench, page }, info) => {
  const tasks = workbench.tasks;
  await workbench.open();
  await tasks.open();

  await test.step('a pasted task set: a bad line is reported with its line, the rest run', async () => {
    await tasks.paste('{"query": "What is the git status?", "relevant": ["git_status"]}\n{"query": 1}\n');
    await expect(tasks.panel()).toContainText('2 lines (pasted)');
    await tasks.run();
    await expect(tasks.summary()).toContainText('1 task ', SLOW);
    await expect(page.getByTestId('tk-task-errors')).toContainText('1 line left out: line 2: "query" must be a string');
    await expect(tasks.filter('met-up-front')).toContainText('met up front 1');
  });

  await tasks.loadFile(TASKS);
  await expect(tasks.panel()).toContainText('18 lines (demo-tasks.jsonl)');

  await test.step('never: every discoverable need is a silent miss; names the catalogue lacks are reported', async () => {
    await tasks.choosePolicy('never');
    await tasks.run();
    await expect(tasks.summary()).toContainText('18 tasks', SLOW);
    await expect(tasks.filter('silent-miss')).toContainText('silent miss 11');
    await expect(tasks.summary()).toContainText('searched in 0 of 18');
    // Each ratio names what it divides (issue 24.7): all the tasks, then the ones a search would have helped.
    await expect(tasks.rate()).toHaveText('searched in 0 of 18 tasks · search rate 0% (searched in 0 of the 11 tasks a search would have helped)');
    await expect(page.getByTestId('tk-unknown')).toContainText('slack_post_message (1 task)');
    await expect(tasks.rows().first()).toBeVisible();
  });

  await test.step('auto: searches, fewer silent misses, and the tasks whose outcome changed', async () => {
    await tasks.choosePolicy('auto');
    await tasks.run();
    await expect(tasks.summary()).toContainText('policy auto', SLOW);
    await expect(tasks.filter('silent-miss')).toContainText('silent miss 1');
    await expect(tasks.comparison()).toContainText('10 tasks changed outcome', SLOW);
    await tasks.comparison().locator('summary').click();
    await expect(tasks.comparison()).toContainText('silent miss → met by search');
    // Each run's search rate names its denominator there too (issue 24.7).
    await expect(tasks.comparison().getByTestId('tk-compare-rate')).toHaveText([/^0% \(0 of 11\)$/u, /^\d+% \(\d+ of \d+\)$/u]);
  });

  await test.step('only the silent misses, and the one opens in its turn on the scratch copy', async () => {
    for (const o of ['met-up-front', 'met-by-search', 'impossible']) await tasks.filter(o).click();
    await expect(tasks.rows()).toHaveCount(1);
    await tasks.rows().first().click();
    await expect(tasks.turn()).toContainText('silent miss');
    await expect(tasks.turn().getByTestId('tk-turn-rows')).toContainText("jp q 'What releases did we publish?'");
    await expect(tasks.turn()).toContainText('github_list_releases not offered');
    await screenshotsAtTwoSizes(page, info, 'tasks');
  });

  await test.step('export JSONL and CSV: one record per task', async () => {
    const jsonl = await tasks.export('jsonl');
    expect(jsonl.suggestedFilename()).toBe('tasks-auto.jsonl');
    const lines = (await readFile(await jsonl.path(), 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(18);
    expect(JSON.parse(lines[17] ?? '{}')).toMatchObject({ policy: 'auto', outcome: 'impossible', relevant: ['slack_post_message'] });
    const csv = await tasks.export('csv');
    expect(csv.suggestedFilename()).toBe('tasks-auto.csv');
    const rows = (await readFile(await csv.path(), 'utf8')).trim().split('\r\n');
    expect(rows[0]).toBe('policy,categories,query,relevant,outcome,searched,queries,ranks,states,reason,tokens,all_on_tokens');
    expect(rows).toHaveLength(19);
  });
});
