// The search lab: both rankings side by side at the selected position, and a
// query set scored with recall@k and MRR.
import { test, expect } from './fixtures';
import { screenshotsAtTwoSizes } from './screens';
import { expectAccessible } from './axe';

const QUERIES = [
  { query: 'workflow logs', relevant: ['github_get_job_logs'] },
  { query: 'crash stack trace', relevant: ['sentry_get_issue_events'] },
  { query: 'merge a pull request', relevant: ['github_merge_pull_request'] },
  { query: 'move a ticket to done', relevant: ['linear_update_issue_status'] },
].map((q) => JSON.stringify(q)).join('\n');

test('a query through both rankings, and a query set scored per ranking', async ({ workbench }, info) => {
  const lab = workbench.searchLab;
  await workbench.open();
  await lab.open();
  await test.step('both rankings answer side by side with scores, fields and status', async () => {
    await lab.query('workflow run', 5);
    await expect(lab.hits('bm25').first()).toBeVisible();
    await expect(lab.hits('substring').first()).toBeVisible();
    await expect(lab.ranking('bm25')).toContainText('the model\'s ranking');
    const top = lab.hits('bm25').first();
    await expect(top).toContainText('usable');
    await expect(top).toContainText(/name|summary|description/u);
    await expect(lab.ranking('substring')).toContainText(/\d+ of \d+ matches/u);
  });
  await test.step('the lab has no serious accessibility violations', async () => {
    await expectAccessible(lab.page, '[data-testid="search-lab"]');
  });
  await test.step('a multi-word query substring misses and BM25 finds', async () => {
    await lab.query('crash stack trace');
    await expect(lab.ranking('substring')).toContainText('No match');
    await expect(lab.hits('bm25').first()).toContainText('sentry_get_issue_events');
  });
  await test.step('an empty query is the contract\'s error, never "list everything"', async () => {
    await lab.query('   ');
    await expect(lab.page.getByTestId('lab-error')).toContainText('query must not be empty');
  });
  await test.step('load a JSONL query set: recall@k, MRR and misses per ranking', async () => {
    await lab.loadQuerySet(QUERIES);
    await expect(lab.evaluation()).toContainText('4 queries');
    await expect(lab.mrr('bm25')).toHaveText(/^[01]\.\d{3}$/u);
    const bm25 = Number(await lab.mrr('bm25').textContent());
    const sub = Number(await lab.mrr('substring').textContent());
    expect(bm25).toBeGreaterThan(sub);
    await lab.query('workflow run');
    await expect(lab.hits('bm25').first()).toBeVisible();
    await screenshotsAtTwoSizes(lab.page, info, 'searchlab');
    await expect(lab.misses('substring').first()).toContainText('wanted');
  });
});
