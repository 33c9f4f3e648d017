// Issue 33 §1: a policy's A/B on the user's model. McNemar's exact test against known discordant counts
// (the two-sided binomial on the discordant pairs, p = min(1, 2·P(X ≤ min(b, c))), X ~ Bin(b + c, ½),
// no mid-p), the switches `--ab` takes, and the pairing of two arms' task results.
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../scenario/policy';
import { parseScenario } from '../scenario/parse';
import type { Scenario } from '../scenario/types';
import { layer, scenarioText } from '../turn/test-kit';
import type { ToolSpec } from '../turn/test-kit';
import { IndexCache, runScenario } from '../turn/run';
import { AB_SWITCH_NAMES, abEstimateLine, abLine, armB, exactPrice, formatP, mcnemarExact, pairArms, parseAbSwitch, pricedWords, runAbTasks } from './ab';
import { DEFAULT_PRICE_TABLE } from '../providers/prices';
import type { AskModel, ModelAnswer } from './model-play';
import type { ModelTaskResult } from './model-run';
import type { Outcome } from './types';

describe('McNemar exact, two-sided, no mid-p', () => {
  // Exact values: 2·Σ_{i≤k} C(n,i) / 2^n with n = b + c, k = min(b, c), capped at 1.
  const ROWS: readonly (readonly [number, number, number])[] = [
    [0, 0, 1],
    [1, 9, 0.021484375], // 2·(1 + 10)/1024 = 22/1024
    [9, 1, 0.021484375],
    [0, 1, 1], // 2·1/2 = 1
    [0, 5, 0.0625], // 2/32
    [0, 6, 0.03125], // 2/64
    [2, 8, 0.109375], // 2·(1 + 10 + 45)/1024 = 112/1024
    [3, 3, 1],
    [5, 4, 1],
    [0, 10, 0.001953125], // 2/1024
    [1, 4, 0.375], // 2·(1 + 5)/32
    [4, 16, 0.01181793212890625], // 2·(1 + 20 + 190 + 1140 + 4845)/2^20 = 12392/1048576
  ];
  it.each(ROWS)('b = %i, c = %i → p = %f', (b, c, p) => {
    expect(mcnemarExact(b, c)).toBe(p);
  });

  it('stays exact and finite for large counts (no overflow of 2^n)', () => {
    const p = mcnemarExact(600, 600);
    expect(p).toBe(1);
    const tiny = mcnemarExact(0, 2000);
    expect(tiny).toBeGreaterThanOrEqual(0);
    expect(tiny).toBeLessThan(1e-300);
    const mid = mcnemarExact(480, 560);
    expect(mid).toBeGreaterThan(0.01);
    expect(mid).toBeLessThan(0.02);
  });

  it('refuses counts that are not whole and non-negative', () => {
    expect(() => mcnemarExact(-1, 2)).toThrow(/whole numbers/u);
    expect(() => mcnemarExact(1.5, 2)).toThrow(/whole numbers/u);
  });

  it.each([
    [1, '1.0000'],
    [0.021484375, '0.0215'],
    [0.001953125, '0.0020'],
    [0.0009765625, '9.77e-4'],
  ])('p = %f prints as %s', (p, text) => {
    expect(formatP(p)).toBe(text);
  });
});

describe('--ab SWITCH=VALUE', () => {
  it.each([
    ['ranking=substring', { key: 'ranking', value: 'substring' }],
    ['substring_match=whole_query', { key: 'substring_match', value: 'whole_query' }],
    ['report_match_count=false', { key: 'report_match_count', value: false }],
    ['forced_off_tool=reject', { key: 'forced_off_tool', value: 'reject' }],
    ['promoted_position=append', { key: 'promoted_position', value: 'append' }],
    ['never_blocks_promotion=true', { key: 'never_blocks_promotion', value: true }],
    ['hide_unapproved=true', { key: 'hide_unapproved', value: true }],
    ['categories=true', { key: 'categories_prompt', value: true }],
    ['categories_prompt=true', { key: 'categories_prompt', value: true }],
  ])('%s', (text, want) => {
    expect(parseAbSwitch(text)).toEqual({ ...want, written: text });
  });

  it.each([
    ['ranking', '--ab takes SWITCH=VALUE'],
    ['colour=red', '--ab takes SWITCH=VALUE with SWITCH one of ranking, substring_match, report_match_count, forced_off_tool, promoted_position, never_blocks_promotion, hide_unapproved, categories'],
    ['ranking=fuzzy', '--ab ranking takes bm25 or substring, got `fuzzy`'],
    ['hide_unapproved=yes', '--ab hide_unapproved takes false or true, got `yes`'],
    ['provider=openai', '--ab provider: both arms play the same model (--model); the provider is not a switch of an A/B'],
  ])('%s → %s', (text, message) => {
    const r = parseAbSwitch(text);
    expect(typeof r).toBe('string');
    expect(r).toContain(message);
  });

  it('arm B is the scenario with the switches set, nothing else changed', () => {
    const s = { policy: DEFAULT_POLICY, steps: [] } as unknown as Scenario;
    const b = armB(s, [{ key: 'ranking', value: 'substring', written: 'ranking=substring' }, { key: 'categories_prompt', value: true, written: 'categories=true' }]);
    expect(b.policy).toEqual({ ...DEFAULT_POLICY, ranking: 'substring', categories_prompt: true });
    expect(s.policy.ranking).toBe('bm25');
  });
});

function result(index: number, outcome: Outcome, stopped: ModelTaskResult['stopped'] = 'reply', cycles = 1): ModelTaskResult {
  return { index, query: `task ${index}`, relevant: [], outcome, reason: '', needed: [], searched: false, queries: [], moves: [], cycles: Array.from({ length: cycles }, (_, i) => ({ cycle: i + 1, reply: { text: '', calls: [] }, calls: [] })), stopped, why: '', usage: { uncached: 0, cacheRead: 0, cacheWrite: 0, output: 0 }, usd: 0, calibration: [] };
}

describe('pairing the arms', () => {
  it('counts met in each arm and the discordant pairs over the complete pairs only', () => {
    const a = [result(0, 'met-up-front'), result(1, 'silent-miss'), result(2, 'met-by-search'), result(3, 'impossible'), result(4, 'silent-miss'), result(5, 'met-by-search', 'budget')];
    const b = [result(0, 'met-up-front'), result(1, 'met-by-search'), result(2, 'silent-miss'), result(3, 'impossible'), result(4, 'met-by-search'), result(5, 'met-by-search', 'budget', 0)];
    const ab = pairArms(a, b);
    expect(ab).toMatchObject({ complete: 5, incomplete: [5], metA: 2, metB: 3, aOnly: 1, bOnly: 2, p: 1 });
    expect(ab.pairs.map((p) => [p.task, p.a, p.b, p.complete])).toEqual([
      [0, 'met-up-front', 'met-up-front', true],
      [1, 'silent-miss', 'met-by-search', true],
      [2, 'met-by-search', 'silent-miss', true],
      [3, 'impossible', 'impossible', true],
      [4, 'silent-miss', 'met-by-search', true],
      [5, 'met-by-search', undefined, false],
    ]);
    expect(abLine(ab, [{ key: 'ranking', value: 'substring', written: 'ranking=substring' }, { key: 'categories_prompt', value: true, written: 'categories=true' }])).toBe('A/B on 5 tasks (B: ranking=substring categories=true): met A 2, B 3; A only 1, B only 2; McNemar exact p = 1.0000');
  });

  it('a task missing from an arm, or stopped by an error, is no complete pair', () => {
    const ab = pairArms([result(0, 'met-up-front'), result(1, 'met-up-front', 'error')], [result(0, 'silent-miss')]);
    expect([ab.complete, ab.incomplete, ab.aOnly, ab.bOnly]).toEqual([1, [1], 1, 0]);
  });
});

const TOOLS: Record<string, ToolSpec> = {
  read_file: { enable: '"on"', summary: 'Read a file from the workspace.' },
  deploy_staging: { summary: 'Deploy a branch to the staging environment.' },
};

function scenarioOf(): Scenario {
  const p = parseScenario(scenarioText({ policy: { ranking: 'bm25', provider: 'anthropic' }, layer: layer(TOOLS), body: '' }));
  if (!p.ok) throw new Error(p.errors.map((e) => e.message).join('; '));
  return p.scenario;
}

describe('runAbTasks: both arms, one budget', () => {
  const indexCache = new IndexCache();
  const runner = (s: Scenario) => runScenario({ scenario: s, indexCache });
  const tasks = [0, 1, 2, 3].map((i) => ({ query: `Deploy branch ${i} to staging`, relevant: ['deploy_staging'] }));
  const usage = { uncached: 1_000_000, cacheRead: 0, cacheWrite: 0, output: 0 };
  // Arm A's model never searches; arm B's searches first. Each request bills 1M uncached tokens.
  const askFor = (arm: 'A' | 'B', sent: string[]) => (task: number): AskModel => (req) => {
    sent.push(`${arm}${task}:${req.cycle}`);
    const answer: ModelAnswer = arm === 'B' && req.cycle === 1 ? { ok: true, reply: { text: '', calls: [{ id: 'c', name: 'search_tools', args: { query: 'deploy staging' } }], usage } } : { ok: true, reply: { text: 'done', calls: [], usage } };
    return Promise.resolve(answer);
  };

  it('plays every task in both arms with the arm\'s scenario', async () => {
    const sent: string[] = [];
    const r = await runAbTasks(scenarioOf(), runner, tasks, { model: 'anthropic:m', provider: 'anthropic', switches: [{ key: 'ranking', value: 'substring', written: 'ranking=substring' }], askFor: (arm) => askFor(arm, sent) });
    expect(r.b.results.map((x) => x.outcome)).toEqual(['met-by-search', 'met-by-search', 'met-by-search', 'met-by-search']);
    expect(r.a.results.map((x) => x.outcome)).toEqual(['silent-miss', 'silent-miss', 'silent-miss', 'silent-miss']);
    expect(r.ab).toMatchObject({ complete: 4, metA: 0, metB: 4, aOnly: 0, bOnly: 4, p: 0.125 });
    expect(sent).toHaveLength(4 + 8);
  });

  it('--max-usd stops both arms on one budget; the test is on the complete pairs only', async () => {
    const sent: string[] = [];
    // $1 per million input tokens: every request costs $1. A pair is 3 requests (A 1, B 2): after two
    // pairs $6 is spent, below $6.5, so task 3's A is sent ($7) and its B is not.
    const price = { id: 'm', provider: 'anthropic', input: 1, output: 0, cacheRead: 0, cacheWrite: 0 } as never;
    const r = await runAbTasks(scenarioOf(), runner, tasks, { model: 'anthropic:m', provider: 'anthropic', switches: [{ key: 'ranking', value: 'substring', written: 'ranking=substring' }], askFor: (arm) => askFor(arm, sent), maxUsd: 6.5, price });
    expect(r.stoppedBy).toMatch(/^the budget cap/u);
    expect(r.ab.complete).toBe(2);
    expect(r.ab.incomplete).toEqual([2, 3]);
    expect([r.ab.metA, r.ab.metB, r.ab.bOnly]).toEqual([0, 2, 2]);
    expect(r.ab.p).toBe(0.5);
    expect(sent).toEqual(['A0:1', 'B0:1', 'B0:2', 'A1:1', 'B1:1', 'B1:2', 'A2:1']);
  });

  it('a stop asked by the caller (the page\'s Stop) ends the run as the cap does: whole pairs kept, the test on those', async () => {
    const sent: string[] = [];
    let stop = false;
    const r = await runAbTasks(scenarioOf(), runner, tasks, {
      model: 'anthropic:m',
      provider: 'anthropic',
      switches: [{ key: 'ranking', value: 'substring', written: 'ranking=substring' }],
      askFor: (arm) => askFor(arm, sent),
      // Stop pressed while task 2's B was being answered: nothing after its turn is sent.
      onResult: (arm, res) => { if (arm === 'B' && res.index === 1) stop = true; },
      stopBefore: () => (stop ? 'stopped on the page' : undefined),
    });
    expect(r.stoppedBy).toBe('stopped on the page');
    expect(sent).toEqual(['A0:1', 'B0:1', 'B0:2', 'A1:1', 'B1:1', 'B1:2']);
    expect(r.ab).toMatchObject({ complete: 2, incomplete: [2, 3], metA: 0, metB: 2, bOnly: 2, p: 0.5 });
    // Each arm's turns are kept by task for the page to open; the unasked ones have no request answered.
    expect(r.played.B.map((p) => p?.cycles.length)).toEqual([2, 2, 0, 0]);
    expect(r.played.A[1]?.stepNo).toBe(scenarioOf().steps.length + 1);
  });

  it('the run names what stopped it: the caller\'s stop before anything was billed, the cap once it is reached', async () => {
    const price = { id: 'm', provider: 'anthropic', input: 1, output: 0, cacheRead: 0, cacheWrite: 0 } as never;
    const r = await runAbTasks(scenarioOf(), runner, tasks, { model: 'anthropic:m', provider: 'anthropic', switches: [{ key: 'ranking', value: 'substring', written: 'ranking=substring' }], askFor: (arm) => askFor(arm, []), maxUsd: 0.5, price, stopBefore: () => 'stopped on the page' });
    expect(r.stoppedBy).toBe('stopped on the page');
    const capped = await runAbTasks(scenarioOf(), runner, tasks, { model: 'anthropic:m', provider: 'anthropic', switches: [{ key: 'ranking', value: 'substring', written: 'ranking=substring' }], askFor: (arm) => askFor(arm, []), maxUsd: 0.5, price, stopBefore: () => undefined });
    expect(capped.stoppedBy).toMatch(/^the budget cap: \$1\.0000 spent of \$0\.50/u);
  });
});

describe('the A/B estimate, priced as the terminal prices it', () => {
  it('names both arms, the requests of each and the money of both', () => {
    const line = abEstimateLine({ tasks: 20, switches: [{ key: 'categories_prompt', value: true, written: 'categories=true' }], a: { requests: 30, money: 0.01 }, b: { requests: 25, money: 0.02 }, provider: 'anthropic', model: 'claude-haiku-4-5', priced: 'claude-haiku-4-5 at the price table of X', exact: true, maxUsd: 0.5 });
    expect(line).toBe("estimate: 20 tasks in 2 arms (A: the scenario as written; B: categories=true), about 55 requests (A 30, B 25) to Anthropic claude-haiku-4-5, about $0.0300 (claude-haiku-4-5 at the price table of X); the workbench's auto policy's turns priced by its cost model: a real model may search, call and write more; stops at $0.5000");
  });

  it('prices only a model the table has (or a local runtime), as the terminal does', () => {
    expect(exactPrice(DEFAULT_PRICE_TABLE, 'anthropic', 'claude-haiku-4-5')?.id).toBe('claude-haiku-4-5');
    expect(exactPrice(DEFAULT_PRICE_TABLE, 'anthropic', 'claude-nonesuch')).toBeUndefined();
    expect(pricedWords(DEFAULT_PRICE_TABLE, undefined, 'claude-nonesuch')).toBe(`unpriced: no row for claude-nonesuch in the price table of ${DEFAULT_PRICE_TABLE.date}`);
  });

  it('offers the switches --ab takes, categories among them', () => {
    expect(AB_SWITCH_NAMES.map(([n]) => n)).toContain('categories');
    expect(AB_SWITCH_NAMES.map(([n]) => n)).not.toContain('provider');
    for (const [name] of AB_SWITCH_NAMES) expect(typeof parseAbSwitch(`${name}=nonsense`)).toBe('string');
  });
});
