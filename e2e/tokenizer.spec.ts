// The o200k_base tokenizer (a 2 MB chunk of BPE ranks) is fetched only when a figure counts tokens:
// opening the app on a document with no request fetches nothing of it; opening the Cost tab does.
import { test, expect } from './fixtures';

const NO_REQUESTS = `name = "Nothing counted yet"

[[layers]]
name = "workspace"
text = '''
[conversation.tools.build]
source = "local"
summary = "Build the project."
'''
`;

test('an app load fetches the o200k_base tokenizer only once a figure needs it (issue 35)', async ({ workbench, page }) => {
  await workbench.open();
  expect(await workbench.loadScenario(NO_REQUESTS, 'nothing.toml')).toBe(true);
  await workbench.flushAutosave();

  const fetched: string[] = [];
  page.context().on('request', (r) => {
    if (/o200k_base[^/]*\.js/u.test(r.url())) fetched.push(r.url());
  });
  await test.step('reload: the saved document opens, derived and warmed, with no tokenizer', async () => {
    await workbench.open({ keepSaved: true });
    expect((await workbench.snapshot()).doc.name).toBe('Nothing counted yet');
    // Two more round trips to the worker: what it does after the first derivation (its warm-up) is done.
    await workbench.snapshot();
    await workbench.snapshot();
    expect(fetched).toEqual([]);
  });

  await test.step('the Cost tab counts tokens: now it is fetched', async () => {
    await workbench.cost.open();
    await expect.poll(() => fetched.length, { timeout: 30_000 }).toBeGreaterThan(0);
  });
});
