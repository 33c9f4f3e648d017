// Running a task set: the task's turn as a scenario step and as a document step, the switches of a
// run (categories, search limit, move cap, unknown policy), and a priced run against all-on.
import { describe, expect, it } from 'vitest';
import { costOfTimeline } from '../cost/conversation';
import { approximateTokenCounter } from '../providers/cost';
import { DEFAULT_PRICE_TABLE } from '../providers/prices';
import { parseScenario } from '../scenario/parse';
import type { Scenario } from '../scenario/types';
import { layer, scenarioText, search, turn } from '../turn/test-kit';
import type { ScenarioSpec, ToolSpec } from '../turn/test-kit';
import { IndexCache, runScenario } from '../turn/run';
import type { AutoAction } from '../model/auto';
import { playTask, prepareTasks, runTasks, taskStep, taskStepDoc } from './run';
import type { PolicyName } from './types';

const TOOLS: Record<string, ToolSpec> = {
  read_file: { enable: '"on"', summary: 'Read a file from the workspace.' },
  deploy_staging: { summary: 'Deploy a branch to the staging environment.' },
  deploy_prod: { summary: 'Deploy a branch to the production environment.' },
  sentry_list_issues: { summary: 'List the error issues Sentry recorded.' },
  sentry_resolve_issue: { summary: 'Resolve an error issue in Sentry.' },
};

function scenarioOf(spec: Partial<ScenarioSpec> = {}): Scenario {
  const p = parseScenario(scenarioText({ policy: { ranking: 'bm25' }, layer: layer(TOOLS), body: '', ...spec }));
  if (!p.ok) throw new Error(p.errors.map((e) => e.message).join('; '));
  return p.scenario;
}

const indexCache = new IndexCache();
const runner = (s: Scenario) => runScenario({ scenario: s, indexCache });
const DEPLOY = { query: 'Deploy the main branch to staging', relevant: ['deploy_staging'] };
const moves: AutoAction[] = [
  { kind: 'search', query: 'deploy staging', limit: 2, why: 's' },
  { kind: 'call', tool: 'deploy_staging', args: { branch: 'main' }, why: 'c' },
  { kind: 'reply', text: 'Deployed.', why: 'r' },
];

describe('the task\'s turn as a step', () => {
  it('a scenario step: jp q with the request quoted, a cycle per move (a search is a search_tools call with its limit)', () => {
    const s = taskStep("it's -u x", moves);
    expect(s.command).toBe('jp q "it\'s -u x"');
    expect(s.cycles.map((c) => ({ calls: c.calls.map((k) => ({ tool: k.tool, args: k.args })), reply: c.reply, restart: c.restart }))).toEqual([
      { calls: [{ tool: 'search_tools', args: { query: 'deploy staging', limit: 2 } }], reply: undefined, restart: false },
      { calls: [{ tool: 'deploy_staging', args: { branch: 'main' } }], reply: undefined, restart: false },
      { calls: [], reply: 'Deployed.', restart: false },
    ]);
  });

  it('a document step: what "Add this turn to the document" appends, the same calls and reply', () => {
    const d = taskStepDoc('Deploy it', moves);
    expect(d.command).toBe("jp q 'Deploy it'");
    expect(JSON.stringify(d.cycles)).toContain('"tool":"search_tools"');
    expect(d.cycles.flatMap((c) => c.calls.map((k) => k.tool))).toEqual(['search_tools', 'deploy_staging']);
    expect(d.cycles.at(-1)?.reply).toBe('Deployed.');
    expect(taskStepDoc('nothing yet', [])).toEqual({ command: "jp q 'nothing yet'", cycles: [] });
  });
});

describe('the switches of a run', () => {
  it('the categories switch is the run\'s own: a scenario that has the section on runs without it unless asked', () => {
    const on = scenarioOf({ policy: { ranking: 'bm25', categories_prompt: true } });
    expect(prepareTasks(on, runner, { policy: 'auto' }).scenario.policy.categories_prompt).toBe(false);
    expect(prepareTasks(scenarioOf(), runner, { policy: 'auto', categories: true }).scenario.policy.categories_prompt).toBe(true);
    expect(runTasks(scenarioOf(), runner, [DEPLOY], { policy: 'categories', categories: true }).categories).toBe(true);
    const run = runTasks(on, runner, [DEPLOY], { policy: 'categories' });
    expect(run.categories).toBe(false);
    // The categories policy without the section in the prompt never searches.
    expect(run.results[0]?.outcome).toBe('silent-miss');
  });

  it('the search limit: 3 unless asked, and every search of the run uses it', () => {
    const dflt = runTasks(scenarioOf(), runner, [DEPLOY], { policy: 'request' });
    expect(dflt.limit).toBe(3);
    expect(dflt.results[0]?.moves[0]).toMatchObject({ kind: 'search', limit: 3 });
    const one = runTasks(scenarioOf(), runner, [DEPLOY], { policy: 'request', limit: 1 });
    expect(one.limit).toBe(1);
    expect(one.results[0]?.moves[0]).toMatchObject({ kind: 'search', limit: 1 });
  });

  it('an unknown policy is an error naming it', () => {
    const p = prepareTasks(scenarioOf(), runner, { policy: 'guess' as PolicyName });
    expect(() => playTask(p, DEPLOY)).toThrow('unknown policy guess');
  });

  it('the move cap stops the play: no moves at 0, one at 1, and the full play (search, call, reply) by default', () => {
    const full = playTask(prepareTasks(scenarioOf(), runner, { policy: 'auto' }), DEPLOY);
    expect(full.moves.map((m) => m.kind)).toEqual(['search', 'call', 'reply']);
    // The returned turn has one cycle per move: the play ends at the reply, not after an extra open cycle.
    expect(full.scenario.steps.at(-1)?.cycles).toHaveLength(3);
    expect(full.timeline.requests.filter((r) => r.step === full.scenario.steps.length)).toHaveLength(3);
    expect(playTask(prepareTasks(scenarioOf(), runner, { policy: 'auto', maxMoves: 0 }), DEPLOY).moves).toEqual([]);
    const one = playTask(prepareTasks(scenarioOf(), runner, { policy: 'auto', maxMoves: 1 }), DEPLOY);
    expect(one.moves.map((m) => m.kind)).toEqual(['search']);
    const two = runTasks(scenarioOf(), runner, [DEPLOY], { policy: 'auto', maxMoves: 2 });
    expect(two.results[0]?.moves.map((m) => m.kind)).toEqual(['search', 'call']);
  });

  it('a play reads the scenario\'s earlier steps: a tool a step already promoted is met up front', () => {
    const r = runTasks(scenarioOf({ body: turn('jp q go', [[search('deploy staging')]]) }), runner, [DEPLOY], { policy: 'never' });
    expect(r.results[0]?.outcome).toBe('met-up-front');
    expect(r.results[0]?.index).toBe(0);
  });
});

describe('a priced run', () => {
  const cost = { table: DEFAULT_PRICE_TABLE, counter: approximateTokenCounter };
  const tasks = [
    DEPLOY,
    { query: 'read the file README.md', relevant: ['read_file'] },
    { query: 'List the Sentry error issues', relevant: ['sentry_list_issues'] },
  ];

  it('each task\'s turn priced against the same turn with every permitted tool on, and the totals summed', () => {
    const run = runTasks(scenarioOf(), runner, tasks, { policy: 'auto', cost });
    const priced = run.results.map((r) => r.tokens);
    for (const t of priced) {
      expect(t?.tokens).toBeGreaterThan(0);
      expect(t?.money).toBeGreaterThan(0);
      expect(t?.allOnTokens).toBeGreaterThan(0);
      expect(t?.allOnMoney).toBeGreaterThan(0);
    }
    // The task met up front makes no search: all-on offers four more definitions, so it costs more.
    const upFront = run.results[1]?.tokens;
    expect(run.results[1]?.outcome).toBe('met-up-front');
    expect(upFront?.allOnTokens).toBeGreaterThan(upFront?.tokens ?? Infinity);
    expect(upFront?.allOnMoney).toBeGreaterThan(upFront?.money ?? Infinity);
    const sum = (f: (t: NonNullable<(typeof priced)[number]>) => number) => priced.reduce((a, t) => a + (t ? f(t) : 0), 0);
    expect(run.summary.tokens).toMatchObject({ tokens: sum((t) => t.tokens), allOnTokens: sum((t) => t.allOnTokens) });
    expect(run.summary.tokens?.money).toBeCloseTo(sum((t) => t.money), 12);
    expect(run.summary.tokens?.priced).toMatch(/\d{4}-\d{2}-\d{2}/u);
    // The counter of the cost options counts the categories section too.
    expect(run.section.tokens).toBe(approximateTokenCounter.count(run.section.text));
  });

  it('a task is priced on its own turn only: the input and output of its requests, not the earlier turns\'', () => {
    const scenario = scenarioOf({ body: turn('jp q first read a long file please', [[]]) });
    const p = prepareTasks(scenario, runner, { policy: 'auto', cost });
    const played = playTask(p, DEPLOY);
    // Priced, the turn ends with the policy's own reply text (its output tokens count).
    expect(played.scenario.steps.at(-1)?.cycles.at(-1)?.reply).toBe((played.moves.at(-1) as { text?: string } | undefined)?.text);
    const own = costOfTimeline(played.timeline, cost).requests.filter((r) => r.step === 2);
    expect(own).toHaveLength(3);
    const tokens = runTasks(scenario, runner, [DEPLOY], { policy: 'auto', cost }).results[0]?.tokens;
    expect(tokens?.tokens).toBe(own.reduce((a, r) => a + r.figures.input + r.output, 0));
    expect(tokens?.money).toBeCloseTo(own.reduce((a, r) => a + r.money.total, 0), 12);
  });

  it('a turn that did not start is not priced; without cost options nothing is', () => {
    // A runner whose JP refuses the task's turn (as it refuses an unknown -u tool).
    const refusing = (s: Scenario) => runner({ ...s, steps: s.steps.map((st, i) => (i === s.steps.length - 1 ? { ...st, command: 'jp q -u nosuch x' } : st)) });
    const refused = runTasks(scenarioOf(), refusing, [DEPLOY], { policy: 'auto', cost }).results[0];
    expect(refused?.error).toBeTruthy();
    expect(refused?.tokens).toBeUndefined();
    expect(Object.keys(refused ?? {})).not.toContain('tokens');
    const plain = runTasks(scenarioOf(), runner, tasks, { policy: 'auto' });
    expect(plain.results.every((r) => r.tokens === undefined)).toBe(true);
    expect(plain.summary.tokens).toBeUndefined();
    expect(plain.section.tokens).toBeUndefined();
    // A counter alone counts the section without pricing anything.
    const counted = runTasks(scenarioOf(), runner, tasks, { policy: 'auto', counter: approximateTokenCounter });
    expect(counted.section.tokens).toBe(approximateTokenCounter.count(counted.section.text));
    expect(counted.section.lines).toBeGreaterThan(0);
    expect(counted.summary.tokens).toBeUndefined();
  });
});
