// A task set run by the model (model-run.ts): what the run reports about money, the tasks the budget
// cap left unasked, and the calibration table's rows (billed beside modelled, per request).
import { describe, expect, it } from 'vitest';
import { costOfTimeline } from '../cost/conversation';
import type { CostOptions } from '../cost/conversation';
import { DEFAULT_PRICE_TABLE, modelFor } from '../providers/prices';
import type { ModelReply } from '../providers/reply';
import type { ProviderId } from '../providers/types';
import { parseScenario } from '../scenario/parse';
import type { Scenario } from '../scenario/types';
import { layer, scenarioText } from '../turn/test-kit';
import type { ToolSpec } from '../turn/test-kit';
import { IndexCache, runScenario } from '../turn/run';
import { modelStep } from './model-play';
import type { AskModel, ModelAnswer, ModelRequest } from './model-play';
import { calibrationGaps, finishModelRun, playModelTask, runModelTask, runModelTasks, withCarriedCache } from './model-run';
import type { CalibrationRow } from './model-run';

const TOOLS: Record<string, ToolSpec> = {
  read_file: { enable: '"on"', summary: 'Read a file from the workspace.' },
  deploy_staging: { summary: 'Deploy a branch to the staging environment.' },
  sentry_list_issues: { summary: 'List the error issues Sentry recorded.' },
};

function scenarioOf(body = '', provider: ProviderId = 'anthropic', categories = false): Scenario {
  const p = parseScenario(scenarioText({ policy: { ranking: 'bm25', provider, ...(categories ? { categories_prompt: true } : {}) }, layer: layer(TOOLS), body }));
  if (!p.ok) throw new Error(p.errors.map((e) => e.message).join('; '));
  return p.scenario;
}

const indexCache = new IndexCache();
const runner = (s: Scenario) => runScenario({ scenario: s, indexCache });
const MTOK = { uncached: 1_000_000, cacheRead: 0, cacheWrite: 0, output: 0 };
const reply = (text: string, calls: [string, Record<string, unknown>][] = [], usage = MTOK): ModelReply => ({ text, calls: calls.map(([name, args], i) => ({ id: `c${i}`, name, args })), usage });
const ok = (r: ModelReply): ModelAnswer => ({ ok: true, reply: r });
const price = modelFor(DEFAULT_PRICE_TABLE, 'anthropic', 'claude-haiku-4-5');
// Ten tokens a character: the small test catalogue's prefix is then above haiku's 4096-token cache minimum.
const counter = { id: 'chars*10', count: (t: string) => t.length * 10 };
const cost: CostOptions = { table: DEFAULT_PRICE_TABLE, model: 'claude-haiku-4-5', counter };

const TASKS = [
  { query: 'Deploy main to staging', relevant: ['deploy_staging'] },
  { query: 'Read the README', relevant: ['read_file'] },
  { query: 'What errors did Sentry record?', relevant: ['sentry_list_issues'] },
];

/** A model that always searches first, then answers; every request bills 1M uncached tokens ($1 at haiku). */
const searcher = (sent: ModelRequest[] = []): AskModel => (req) => {
  sent.push(req);
  return Promise.resolve(req.cycle === 1 ? ok(reply('', [['search_tools', { query: 'deploy staging' }]])) : ok(reply('Done.')));
};

describe('the budget cap', () => {
  it('a task stopped after one sent, billed request is a task that ran, not one left unasked', async () => {
    const sent: ModelRequest[] = [];
    // The first request spends the whole $1: task 0 stops before its second request, the others before their first.
    const run = await runModelTasks(scenarioOf(), runner, TASKS, { model: 'anthropic:claude-haiku-4-5', provider: 'anthropic', askFor: () => searcher(sent), ...(price ? { price } : {}), maxUsd: 1 });
    expect(sent).toHaveLength(1);
    expect(run.results.map((r) => [r.stopped, r.cycles.length])).toEqual([['budget', 1], ['budget', 0], ['budget', 0]]);
    expect(run.notRun).toEqual([1, 2]);
    expect(run.results[0]?.usd).toBeCloseTo(1, 10);
    expect(run.usd).toBeCloseTo(1, 10);
    // The task that was sent is counted by the summary with the outcome its one request left (it searched).
    expect(run.run.summary.tasks).toBe(1);
    expect(run.results[0]?.searched).toBe(true);
    expect(run.stoppedBy).toBe('the budget cap: $1.0000 spent of $1.00');
  });
});

describe('the calibration table', () => {
  it('reads the requests of the step it reports when the scenario already has steps', async () => {
    const base = scenarioOf('[[steps]]\ncommand = "jp q hello"\n  [[steps.cycles]]\n  reply = "Hello."\n[[steps]]\ncommand = "jp q again"\n  [[steps.cycles]]\n  reply = "Again."');
    const run = await runModelTasks(base, runner, TASKS.slice(0, 1), { model: 'anthropic:claude-haiku-4-5', provider: 'anthropic', askFor: () => searcher(), ...(price ? { price } : {}), cost });
    const rows = run.results[0]?.calibration ?? [];
    expect(rows.map((r) => [r.task, r.cycle])).toEqual([[0, 1], [0, 2]]);
    // The model's turn is step 3: its rows are that step's requests as the cost model prices them.
    const cycles = run.results[0]?.cycles ?? [];
    const timeline = runner({ ...base, steps: [...base.steps, modelStep(TASKS[0]?.query ?? '', cycles)] });
    const step3 = costOfTimeline(timeline, cost).requests.filter((r) => r.step === 3);
    expect(step3).toHaveLength(2);
    expect(rows.map((r) => r.modelled)).toEqual(step3.map((r) => ({ uncached: r.figures.uncached, cacheRead: r.figures.cacheRead, cacheWrite: r.figures.cacheWrite, output: r.output })));
    // Step 3's first request reads the prefix the earlier steps wrote: a fresh conversation's would not.
    expect(rows[0]?.modelled?.cacheRead).toBeGreaterThan(0);
    // A task played alone (the progress callback's rows) reads the same step.
    const alone = await runModelTask(base, runner, TASKS[0] ?? { query: '', relevant: [] }, 0, { ...MODEL, askFor: () => searcher(), cost });
    expect(alone.calibration).toEqual(rows);
    const fresh = await runModelTasks(scenarioOf(), runner, TASKS.slice(0, 1), { model: 'anthropic:claude-haiku-4-5', provider: 'anthropic', askFor: () => searcher(), ...(price ? { price } : {}), cost });
    expect(fresh.results[0]?.calibration[0]?.modelled?.cacheRead).toBe(0);
    expect(rows.every((r) => r.billed?.uncached === 1_000_000)).toBe(true);
  });
});

/** A promise the test settles. */
function deferred<T>(): { promise: Promise<T>; settle: (v: T) => void } {
  let settle: (v: T) => void = () => undefined;
  const promise = new Promise<T>((r) => {
    settle = r;
  });
  return { promise, settle };
}

const MODEL = { model: 'anthropic:claude-haiku-4-5', provider: 'anthropic' as const, ...(price ? { price } : {}) };

describe('a task set run by the model: what the run reports', () => {
  it('passes the cycle cap and the shell\'s call resolver to every task', async () => {
    const ask: AskModel = () => Promise.resolve(ok(reply('', [['read_file', { path: 'a' }]])));
    const run = await runModelTasks(scenarioOf(), runner, TASKS.slice(0, 2), { ...MODEL, askFor: () => ask, maxCycles: 1, resolveCall: () => Promise.resolve({ kind: 'server', result: 'contents of a' }) });
    expect(run.results.map((r) => [r.stopped, r.cycles.length, r.cycles[0]?.calls[0]?.kind, r.cycles[0]?.calls[0]?.result])).toEqual([['cycles', 1, 'server', 'contents of a'], ['cycles', 1, 'server', 'contents of a']]);
  });

  it('an error answer and a reply without usage cost nothing and do not stop the run; a task that failed at its first request was asked', async () => {
    const answers: ModelAnswer[] = [{ ok: false, error: '500 Internal Server Error' }, ok({ text: 'Done.', calls: [] }), ok(reply('Done.'))];
    let n = 0;
    const ask: AskModel = () => Promise.resolve(answers[n++] ?? { ok: false, error: 'the script ran out' });
    const run = await runModelTasks(scenarioOf(), runner, TASKS, { ...MODEL, askFor: () => ask, maxUsd: 1.5 });
    expect(run.results.map((r) => [r.stopped, r.usd])).toEqual([['error', 0], ['reply', 0], ['reply', 1]]);
    expect(run.notRun).toEqual([]);
    expect(run.run.summary.tasks).toBe(3);
    expect(run.stoppedBy).toBeUndefined();
    expect(run.usage).toEqual(MTOK);
  });

  it('reports each finished task with the count done and the money spent, and totals the billed usage', async () => {
    const seen: [number, number, number][] = [];
    const run = await runModelTasks(scenarioOf(), runner, TASKS, { ...MODEL, askFor: () => searcher(), onResult: (r, done, spent) => seen.push([r.index, done, spent]) });
    // The searcher searches, then answers: two $1 requests a task.
    expect(seen).toEqual([[0, 1, 2], [1, 2, 4], [2, 3, 6]]);
    expect(run.usage).toEqual({ uncached: 6_000_000, cacheRead: 0, cacheWrite: 0, output: 0 });
    expect(run.usd).toBeCloseTo(6, 10);
    expect(run.run).toMatchObject({ policy: 'auto', categories: false, limit: 0, section: { lines: 0, text: '' } });
    const withCategories = await runModelTasks(scenarioOf('', 'anthropic', true), runner, TASKS.slice(0, 1), { ...MODEL, askFor: () => searcher() });
    expect(withCategories.run.categories).toBe(true);
  });

  it('plays `concurrency` tasks at once, one by default', async () => {
    const inFlight = async (concurrency: number | undefined): Promise<number> => {
      let now = 0;
      let most = 0;
      const ask: AskModel = async () => {
        now += 1;
        most = Math.max(most, now);
        await Promise.resolve();
        await Promise.resolve();
        now -= 1;
        return ok(reply('Done.'));
      };
      await runModelTasks(scenarioOf(), runner, TASKS, { ...MODEL, askFor: () => ask, ...(concurrency !== undefined ? { concurrency } : {}) });
      return most;
    };
    expect(await inFlight(undefined)).toBe(1);
    expect(await inFlight(2)).toBe(2);
    expect(await inFlight(8)).toBe(3);
  });

  it('the cap\'s reason names the money spent when it was reached, though a request in flight then bills more', async () => {
    const late = deferred<ModelAnswer>();
    // Task 0 answers at once and spends the $1 cap; task 1's request, sent alongside, comes back after task 0 stopped.
    const askFor = (i: number): AskModel => (i === 0 ? () => Promise.resolve(ok(reply('', [['search_tools', { query: 'deploy' }]]))) : () => late.promise);
    const run = await runModelTasks(scenarioOf(), runner, TASKS.slice(0, 2), {
      ...MODEL,
      askFor,
      maxUsd: 1,
      concurrency: 2,
      onResult: (r) => {
        if (r.index === 0) late.settle(ok(reply('', [['search_tools', { query: 'read' }]])));
      },
    });
    expect(run.results.map((r) => [r.stopped, r.cycles.length, r.why])).toEqual([
      ['budget', 1, 'the budget cap: $1.0000 spent of $1.00'],
      ['budget', 1, 'the budget cap: $1.0000 spent of $1.00'],
    ]);
    expect(run.stoppedBy).toBe('the budget cap: $1.0000 spent of $1.00');
    expect(run.usd).toBeCloseTo(2, 10);
    expect(run.notRun).toEqual([]);
  });

  it('finishing a run leaves out the tasks never started', async () => {
    const run = await runModelTasks(scenarioOf(), runner, TASKS.slice(0, 1), { ...MODEL, askFor: () => searcher() });
    const first = run.results[0];
    if (!first) throw new Error('no result');
    const finished = finishModelRun('anthropic:claude-haiku-4-5', scenarioOf(), [undefined, first, undefined], undefined);
    expect(finished.results.map((r) => r.index)).toEqual([0]);
    expect([finished.notRun, finished.run.summary.tasks, finished.usd]).toEqual([[], 1, first.usd]);
  });
});

describe('the calibration table across tasks (issue 33 §4)', () => {
  it('keeps the provider\'s prompt cache from task to task: a task reads the prefix the task before it wrote', async () => {
    const run = await runModelTasks(scenarioOf(), runner, TASKS.slice(0, 2), { ...MODEL, askFor: () => searcher(), cost });
    const rows = run.results.flatMap((r) => r.calibration);
    expect(rows.map((r) => [r.task, r.cycle])).toEqual([[0, 1], [0, 2], [1, 1], [1, 2]]);
    const [first, , next] = rows;
    // Task 0 starts with nothing cached; task 1's first request shares the system prompt and the tools with it.
    expect(first?.modelled?.cacheRead).toBe(0);
    expect(next?.modelled?.cacheRead).toBeGreaterThan(0);
    expect(next?.because).toMatch(/read/u);
    // Task 1 played alone (a fresh conversation) would read nothing on its first request.
    const alone = await runModelTask(scenarioOf(), runner, TASKS[1] ?? { query: '', relevant: [] }, 1, { ...MODEL, askFor: () => searcher(), cost });
    expect(alone.calibration[0]?.modelled?.cacheRead).toBe(0);
    // Task 0's rows are those of the task alone: the carried cache starts where a single task does.
    const zero = await runModelTask(scenarioOf(), runner, TASKS[0] ?? { query: '', relevant: [] }, 0, { ...MODEL, askFor: () => searcher(), cost });
    expect(run.results[0]?.calibration).toEqual(zero.calibration);
  });

  it('a task the cap left unasked has no rows, and the next task carries only what was sent', async () => {
    const run = await runModelTasks(scenarioOf(), runner, TASKS, { ...MODEL, askFor: () => searcher(), cost, maxUsd: 2 });
    expect(run.results.map((r) => r.calibration.length)).toEqual([2, 0, 0]);
  });

  const row = (task: number, billed: [number, number, number] | undefined, modelled: [number, number, number] | undefined): CalibrationRow => ({
    task,
    cycle: 1,
    ...(billed ? { billed: { uncached: billed[0], cacheRead: billed[1], cacheWrite: billed[2], output: 0 } } : {}),
    ...(modelled ? { modelled: { uncached: modelled[0], cacheRead: modelled[1], cacheWrite: modelled[2], output: 0 }, because: 'the model\'s sentence' } : {}),
  });
  // [billed uncached/read/write, modelled uncached/read/write] → tokens apart, the reason's start.
  const GAPS: readonly (readonly [string, CalibrationRow, number, string])[] = [
    ['read more than modelled', row(0, [100, 900, 0], [1000, 0, 0]), 1800, 'the provider read 900 more tokens from its cache than modelled'],
    ['read less than modelled', row(0, [1000, 0, 0], [100, 900, 0]), 1800, 'the provider read 900 fewer tokens from its cache than modelled'],
    ['wrote more than modelled', row(0, [100, 0, 900], [1000, 0, 0]), 1800, 'the provider wrote 900 more tokens to its cache than modelled'],
    ['wrote less than modelled', row(0, [1000, 0, 0], [100, 0, 900]), 1800, 'the provider wrote 900 fewer tokens to its cache than modelled'],
    ['counted more tokens', row(0, [1200, 0, 0], [1000, 0, 0]), 200, 'the provider counted 200 more input tokens than the workbench\'s counter'],
    ['counted fewer tokens', row(0, [800, 0, 0], [1000, 0, 0]), 200, 'the provider counted 200 fewer input tokens than the workbench\'s counter'],
  ];
  it.each(GAPS)('a row where the provider %s', (_name, r, apart, why) => {
    const [gap] = calibrationGaps([r]);
    expect(gap?.apart).toBe(apart);
    expect(gap?.why.startsWith(why)).toBe(true);
    // Only the way the row differs is named: no "0 more" for the others.
    expect(gap?.why.match(/the provider/gu)).toHaveLength(1);
    expect(gap?.why.endsWith('(the model: the model\'s sentence)')).toBe(true);
  });

  it('a row that differs in two ways gives both reasons, the larger first', () => {
    // Billed 50 uncached and 900 read; the model counts 2274 tokens, none cached (below the minimum).
    const [gap] = calibrationGaps([row(0, [50, 900, 0], [2274, 0, 0])]);
    expect(gap?.apart).toBe(900 + 2224);
    expect(gap?.why).toMatch(/^the provider counted 1324 fewer input tokens than the workbench's counter: .*; the provider read 900 more tokens from its cache than modelled: .* \(the model: the model's sentence\)$/u);
  });

  it('adds the cache model\'s sentence only when it has one', () => {
    const bare: CalibrationRow = { task: 0, cycle: 1, billed: { uncached: 900, cacheRead: 0, cacheWrite: 0, output: 0 }, modelled: { uncached: 1000, cacheRead: 0, cacheWrite: 0, output: 0 } };
    for (const r of [bare, { ...bare, because: '' }]) expect(calibrationGaps([r])[0]?.why).toBe("the provider counted 100 fewer input tokens than the workbench's counter: its own tokenizer, and the envelope the bridge adds");
  });

  it('rows as far apart are listed in task order, then cycle order', () => {
    const at = (task: number, cycle: number): CalibrationRow => ({ ...row(task, [900, 0, 0], [1000, 0, 0]), cycle });
    expect(calibrationGaps([at(3, 1), at(1, 2), at(1, 1)]).map((g) => [g.task, g.cycle])).toEqual([[1, 1], [1, 2], [3, 1]]);
  });

  it('lists the rows that differ most first, at most n, leaving out rows that agree or lack a side', () => {
    const rows = [row(0, [1000, 0, 0], [1000, 0, 0]), row(1, [900, 0, 0], [1000, 0, 0]), row(2, [100, 900, 0], [1000, 0, 0]), row(3, undefined, [1000, 0, 0]), row(4, [1000, 0, 0], undefined), row(5, [500, 0, 0], [1000, 0, 0])];
    expect(calibrationGaps(rows).map((g) => [g.task, g.apart])).toEqual([[2, 1800], [5, 500], [1, 100]]);
    expect(calibrationGaps(rows, 1).map((g) => g.task)).toEqual([2]);
    expect(calibrationGaps([row(0, [1000, 0, 0], [1000, 0, 0])])).toEqual([]);
  });
});

describe('the cache carried across tasks: what counts as sent', () => {
  it('the first task starts from the cache every request of the scenario\'s steps leaves, at their times', async () => {
    // Step 2 comes ten minutes later, after the five-minute cache of step 1 expired, and has two
    // requests (a call, then the reply), more than the model's one-request turn.
    const base = scenarioOf('[[steps]]\ncommand = "jp q again"\n  [[steps.cycles]]\n  reply = "Again."\n[[steps]]\ncommand = "jp q read a"\nelapsed = "10m"\n  [[steps.cycles]]\n  calls = [ { tool = "read_file", args = { path = "a" } } ]\n  [[steps.cycles]]\n  reply = "Read."');
    const answers: AskModel = () => Promise.resolve(ok(reply('Done.')));
    const run = await runModelTasks(base, runner, TASKS.slice(0, 2), { ...MODEL, askFor: () => answers, cost });
    const rows = run.results.map((r) => r.calibration[0]?.modelled);
    const alone = (i: number) => runner({ ...base, steps: [...base.steps, modelStep(TASKS[i]?.query ?? '', run.results[i]?.cycles ?? [])] });
    const expected = costOfTimeline(alone(0), cost).requests.filter((r) => r.step === 3);
    expect(rows[0]).toEqual({ uncached: expected[0]?.figures.uncached, cacheRead: expected[0]?.figures.cacheRead, cacheWrite: expected[0]?.figures.cacheWrite, output: expected[0]?.output });
    expect(run.results[0]?.calibration[0]?.because).toBe(expected[0]?.figures.reason);
  });

  it('recomputes only the tasks that were played, and nothing without a cost model', async () => {
    const { result, played } = await playModelTask(scenarioOf(), runner, TASKS[0] ?? { query: '', relevant: [] }, 0, { ...MODEL, askFor: () => searcher(), cost });
    expect(withCarriedCache([undefined, result, undefined], [undefined, played, undefined], cost)).toEqual([undefined, result, undefined]);
    const bare = { ...result, calibration: [] };
    expect(withCarriedCache([bare], [played], undefined)).toEqual([bare]);
  });

  it('a request that failed was not cached: the next task with the same query reads only what was answered', async () => {
    const same = [TASKS[0] ?? { query: '', relevant: [] }, TASKS[0] ?? { query: '', relevant: [] }];
    const failing = (): AskModel => {
      let n = 0;
      return () => Promise.resolve(n++ === 0 ? ok(reply('', [['search_tools', { query: 'deploy staging' }]])) : { ok: false, error: '500 Internal Server Error' });
    };
    const run = await runModelTasks(scenarioOf(), runner, same, { ...MODEL, askFor: (i) => (i === 0 ? failing() : searcher()), cost });
    expect(run.results.map((r) => [r.stopped, r.calibration.length])).toEqual([['error', 1], ['reply', 2]]);
    // Had task 0's failed second request been cached, task 1's identical second request would read all of it.
    const second = run.results[1]?.calibration[1]?.modelled;
    expect((second?.uncached ?? 0) + (second?.cacheWrite ?? 0)).toBeGreaterThan(0);
    const answered = await runModelTasks(scenarioOf(), runner, same, { ...MODEL, askFor: () => searcher(), cost });
    const read = answered.results[1]?.calibration[1]?.modelled;
    expect(read?.cacheRead).toBeGreaterThan(second?.cacheRead ?? 0);
  });
});
