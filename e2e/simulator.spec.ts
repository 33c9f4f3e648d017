// The turn simulator: acting as the model cycle by cycle, the auto model, and a
// recorded session that the command line checks exactly as the browser showed it.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test, expect } from './fixtures';
import { screenshotsAtTwoSizes } from './screens';
import { expectAccessible } from './axe';
import { turnLab } from './turnScenarios';

const run = promisify(execFile);

test('a full interactive turn: search, promotion in the next request, a tool call, a reply', async ({ workbench }, info) => {
  const sim = workbench.simulator;
  await test.step('open a catalogue with no steps', async () => {
    await workbench.open();
    expect(await workbench.loadScenario(turnLab())).toBe(true);
    await sim.open();
    await expect(sim.page.getByTestId('sim-closed')).toContainText('No steps yet');
  });

  await test.step('type a jp q: a turn opens, awaiting the model', async () => {
    await sim.addStep("jp q 'Why did the deploy fail?'");
    await expect(sim.prompt()).toHaveValue('');
    await expect(sim.openTurn()).toContainText('Step 1, cycle 1 awaits the model');
    const snap = await workbench.snapshot();
    expect(snap.doc.steps).toHaveLength(1);
    expect(snap.timeline.requests[0]?.offered).toEqual(['fs_read_file', 'git_status', 'describe_tools', 'search_tools']);
  });

  await test.step('call search_tools: each result is usable or found-unavailable, with the total', async () => {
    await sim.search('deploy logs', 2);
    const table = sim.lastSearch();
    await expect(table).toContainText('2 returned of 2 matches');
    await expect(table.locator('[data-tool="deploy_logs"] [data-status="usable"]')).toBeVisible();
    await expect(table.locator('[data-tool="deploy_staging"] [data-status="usable"]')).toBeVisible();
  });

  await test.step('the promoted tools join the offered set of the very next request', async () => {
    await expect(sim.joined()).toContainText('deploy_logs');
    await expect(sim.joined()).toContainText('promoted by the search above');
    await expect(sim.openTurn()).toContainText('cycle 2 awaits the model');
    const snap = await workbench.snapshot();
    const next = snap.timeline.requests[1];
    expect(next?.offered).toEqual(expect.arrayContaining(['deploy_logs', 'deploy_staging']));
    expect(next?.added).toEqual(['deploy_staging', 'deploy_logs']);
  });

  await test.step('screenshots of the simulator mid-turn', async () => {
    await screenshotsAtTwoSizes(sim.page, info, 'simulator');
  });

  await test.step('call the promoted tool with JSON arguments (validated as typed)', async () => {
    await sim.page.getByTestId('sim-mode-call').check();
    await sim.page.getByTestId('sim-tool').fill('deploy_logs');
    await expect(sim.page.getByTestId('sim-tool-info')).toContainText('offered');
    await sim.page.getByTestId('sim-args').fill('{"environment": ');
    await expect(sim.page.getByTestId('sim-args-error')).toContainText('line 1');
    await expect(sim.page.getByTestId('sim-call-submit')).toBeDisabled();
    await sim.callTool('deploy_logs', { environment: 'staging' });
    await expect(sim.log().locator('[data-call-status="ok"]').filter({ hasText: 'deploy_logs(' })).toBeVisible();
    await expect(sim.openTurn()).toContainText('cycle 3 awaits the model');
  });

  await test.step('the simulator has no serious accessibility violations', async () => {
    await expectAccessible(sim.page, '[aria-label="Dock"]');
  });

  await test.step('reply: the turn ends, and the document holds ordinary scenario steps', async () => {
    await sim.reply('It failed on a migration.');
    await expect(sim.page.getByTestId('sim-reply-row')).toContainText('It failed on a migration.');
    await expect(sim.page.getByTestId('sim-closed')).toBeVisible();
    const snap = await workbench.snapshot();
    expect(snap.doc.steps[0]).toEqual({
      command: "jp q 'Why did the deploy fail?'",
      cycles: [
        { calls: [{ tool: 'search_tools', args: { query: 'deploy logs', limit: 2 } }] },
        { calls: [{ tool: 'deploy_logs', args: { environment: 'staging' } }] },
        { calls: [], reply: 'It failed on a migration.' },
      ],
    });
    expect(snap.timeline.requests.map((r) => r.cache.status)).toEqual(['miss', 'miss', 'hit']);
  });
});

test('the one step field checks the jp command as you type, with the column', async ({ workbench }) => {
  const sim = workbench.simulator;
  await workbench.open();
  await sim.open();
  await test.step('an unknown flag is an inline error at its column', async () => {
    await sim.prompt().fill("jp q --bogus 'x'");
    await expect(sim.promptError()).toContainText('column 6');
    await expect(sim.prompt()).toHaveAttribute('aria-invalid', 'true');
    await expect(sim.addStepButton()).toBeDisabled();
    const before = (await workbench.snapshot()).doc.steps.length;
    await sim.prompt().press('Enter');
    expect((await workbench.snapshot()).doc.steps.length).toBe(before);
  });
  await test.step('fixing it clears the error; a config set is a step too', async () => {
    await sim.prompt().fill('jp config set --id conversation.tools.deploy_staging.enable=on');
    await expect(sim.promptError()).toHaveCount(0);
    await sim.prompt().press('Enter');
    const snap = await workbench.snapshot();
    expect(snap.doc.steps.at(-1)?.command).toBe('jp config set --id conversation.tools.deploy_staging.enable=on');
  });
});

test('the auto model plays a turn by itself, deterministically', async ({ workbench }) => {
  const sim = workbench.simulator;
  await workbench.open();
  expect(await workbench.loadScenario(turnLab())).toBe(true);
  await sim.open();
  let first: unknown;
  await test.step('from a typed jp q: it searches, calls the best usable match, replies', async () => {
    await sim.prompt().fill("jp q 'Show me the deploy logs for staging'");
    await sim.autoModel();
    await expect(sim.note()).toContainText('search_tools("deploy logs staging")');
    await expect(sim.note()).toContainText('reply');
    const snap = await workbench.snapshot();
    const step = snap.doc.steps[0];
    expect(step?.cycles.map((c) => c.calls.map((k) => k.tool))).toEqual([['search_tools'], ['deploy_logs'], []]);
    // The request names a value the parameter's description lists ("staging or production").
    expect(step?.cycles[1]?.calls[0]?.args).toEqual({ environment: 'staging' });
    await expect(sim.decisions()).toHaveCount(3);
    await expect(sim.decisions().nth(0)).toContainText('because no offered tool covers the request');
    await expect(sim.decisions().nth(1)).toContainText('environment from the request');
    expect(step?.cycles[2]?.reply).toContain('deploy_logs');
    expect(snap.timeline.failed).toBe(0);
    first = step;
  });
  await test.step('the same query plays the same turn again', async () => {
    expect(await workbench.loadScenario(turnLab())).toBe(true);
    await sim.prompt().fill("jp q 'Show me the deploy logs for staging'");
    await sim.autoModel();
    expect((await workbench.snapshot()).doc.steps[0]).toEqual(first);
  });
  await test.step('an offered tool that fits is called without a search', async () => {
    await sim.addStep("jp q 'What is the git status?'");
    await sim.autoModel();
    const step = (await workbench.snapshot()).doc.steps.at(-1);
    expect(step?.cycles.map((c) => c.calls.map((k) => k.tool))).toEqual([['git_status'], []]);
  });
});

test('the browser and the command line agree on a recorded session', async ({ workbench }) => {
  const sim = workbench.simulator;
  await workbench.open();
  expect(await workbench.loadScenario(turnLab({ name: 'Recorded session' }))).toBe(true);
  await sim.open();
  await test.step('play a turn by hand and record what it showed', async () => {
    await sim.addStep("jp q 'Roll back the deploy'");
    await sim.search('deploy', 5);
    await expect(sim.lastSearch()).toContainText('returned');
    await sim.callTool('rollback_release', {});
    await sim.reply('Rolled back.');
    await sim.recordExpectations();
  });
  await test.step('a second turn with a describe_tools call, recorded too', async () => {
    await sim.addStep("jp q 'What does deploy_staging take?'");
    await sim.describeTools(['deploy_staging']);
    await sim.reply('A branch.');
    await sim.page.getByTestId('sim-record').click();
    await expect(sim.note()).toContainText('on step 2');
  });
  let expectations = 0;
  await test.step('the recorded expectations pass in the browser', async () => {
    const snap = await workbench.snapshot();
    expectations = snap.timeline.passed;
    expect(snap.timeline.failed).toBe(0);
    expect(expectations).toBeGreaterThan(8);
    const first = snap.doc.steps[0]?.cycles ?? [];
    expect(first[0]?.expect).toMatchObject({ cache: 'miss' });
    expect(first[0]?.calls[0]?.expect).toMatchObject({ status: 'ok', returned: expect.any(Array), usable: expect.any(Array), total: expect.any(Number) });
    expect(first[1]?.expect).toMatchObject({ offered_includes: expect.arrayContaining(['deploy_staging']) });
    expect(snap.doc.steps[0]?.expect).toMatchObject({ availability: expect.objectContaining({ deploy_staging: 'on' }) });
  });
  await test.step('download the scenario and run tool-workbench check on it', async () => {
    const download = await workbench.share.download();
    const path = await download.path();
    const text = await readFile(path, 'utf8');
    const dir = await mkdtemp(join(tmpdir(), 'workbench-'));
    const file = join(dir, download.suggestedFilename());
    await writeFile(file, text);
    expect(text).toContain('[[steps]]');
    expect(text).toContain('expect');
    const { stdout } = await run(process.execPath, ['node_modules/.bin/tool-workbench', 'check', file], { cwd: process.cwd() });
    const m = /(\d+) passed, 0 failed/u.exec(stdout);
    expect(m, stdout).not.toBeNull();
    expect(Number(m?.[1])).toBe(expectations);
    expect(Number(m?.[1])).toBeGreaterThan(0);
  });
});

test('the simulator follows the turn selected in the timeline', async ({ workbench }) => {
  const sim = workbench.simulator;
  await workbench.open();
  await sim.open();
  await test.step('the demo opens on its first promotion: the simulator shows turn 1', async () => {
    await expect(sim.following()).toContainText("Step 1 jp q 'Why did the last deploy of the api fail?'");
    await expect(sim.log()).toContainText('search_tools("workflow run logs")');
  });
  await test.step('selecting a row of turn 2 shows turn 2', async () => {
    await workbench.timeline.row((await workbench.snapshot()).timeline.entries.findIndex((e) => e.kind === 'turn' && e.step === 2)).click();
    await expect(sim.following()).toContainText("Step 2 jp q 'Did it raise errors in Sentry?'");
    await expect(sim.log()).toContainText('search_tools("sentry issue events stack trace")');
    await expect(sim.log()).not.toContainText('workflow run logs');
  });
});

test('the auto model on the demo\'s questions and on the Linear request: it searches, skips what would change things, says why', async ({ workbench }) => {
  const sim = workbench.simulator;
  await workbench.open();
  await test.step('the demo without its scripted turns', async () => {
    const demo = await readFile('src/app/demo-scenario.toml', 'utf8');
    expect(await workbench.loadScenario(demo.slice(0, demo.indexOf('[[steps]]')), 'demo-unscripted.toml')).toBe(true);
    await sim.open();
  });
  await test.step('"Why did the last deploy of the api fail?": search, then the job logs, never deploy_staging', async () => {
    await sim.addStep("jp q 'Why did the last deploy of the api fail?'");
    await sim.autoModel();
    await expect(sim.decisions()).toHaveCount(3);
    await expect(sim.decisions().nth(0)).toContainText('search_tools("deploy api fail"');
    await expect(sim.decisions().nth(1)).toContainText('github_get_job_logs(');
    await expect(sim.decisions().nth(1)).toContainText('deploy_staging would deploy, which the request did not ask for');
    await expect(sim.decisions().nth(2)).toContainText('reply');
  });
  await test.step('"Did it raise errors in Sentry?": a Sentry tool that reads, not the one that resolves', async () => {
    await sim.addStep("jp q 'Did it raise errors in Sentry?'");
    await sim.autoModel();
    await expect(sim.decisions().nth(1)).toContainText('sentry_list_issues(');
    await expect(sim.decisions().nth(1)).toContainText('sentry_resolve_issue would resolve');
  });
  await test.step('"Open a Linear issue for the failing orders test": search, then linear_create_issue titled from the request', async () => {
    await sim.addStep("jp q 'Open a Linear issue for the failing orders test'");
    await sim.autoModel();
    await expect(sim.decisions().nth(0)).toContainText('no offered tool covers the request');
    await expect(sim.decisions().nth(1)).toContainText('linear_create_issue({"team":"<team>","title":"Failing orders test"})');
    await expect(sim.decisions().nth(1)).toContainText('title from the request; team a placeholder');
    const snap = await workbench.snapshot();
    expect(snap.doc.steps.map((s) => s.cycles.flatMap((c) => c.calls.map((k) => k.tool)))).toEqual([
      ['search_tools', 'github_get_job_logs'],
      ['search_tools', 'sentry_list_issues'],
      ['search_tools', 'linear_create_issue'],
    ]);
    expect(snap.timeline.entries.filter((e) => e.kind === 'step' && e.error)).toEqual([]);
  });
});
