// The model A/B in the worker's host (issue 33 §1's page part): the run is the core's, driven as a
// conversation (each answer the next request or the finished run), with the CLI's estimate and A/B
// line; the page's Stop ends it on whole pairs; each arm's turn opens from the run.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATEGORIES_HEADING, mcnemarExact, parseEvalQueries, scenarioDocFromText } from '../core';
import type { ModelAnswer } from '../core';
import { DeriveHost } from './host';
import { deriveWhole } from './testing';
import type { AbAsk, AbEvent } from './abProtocol';

const demoText = readFileSync(new URL('../app/demo-scenario.toml', import.meta.url), 'utf8');
const tasks = readFileSync(new URL('../../scenarios/data/demo-tasks.jsonl', import.meta.url), 'utf8');
const relevant = parseEvalQueries(tasks).queries.map((t) => t.relevant[0] ?? '');

function hostWithDemo(): DeriveHost {
  const d = scenarioDocFromText(demoText);
  if (!d.ok) throw new Error('demo');
  const host = new DeriveHost();
  deriveWhole(host, { doc: d.doc, revision: 1 });
  return host;
}

const usage = { uncached: 1000, cacheRead: 0, cacheWrite: 0, output: 10 };

/** Arm B's model (it sees the categories section) searches for the task's tool first; arm A's answers at once. */
function model(ask: AbAsk): ModelAnswer {
  const system = JSON.stringify((ask.body as { system?: unknown }).system ?? '');
  if (system.includes(CATEGORIES_HEADING) !== (ask.arm === 'B')) throw new Error(`arm ${ask.arm}'s request has the wrong system prompt`);
  if (ask.arm === 'B' && ask.cycle === 1) return { ok: true, reply: { text: '', calls: [{ id: 's', name: 'search_tools', args: { query: relevant[ask.task] ?? '' } }], usage } };
  return { ok: true, reply: { text: 'done', calls: [], usage } };
}

const params = { revision: 1, tasks, provider: 'anthropic' as const, model: 'claude-haiku-4-5', switches: ['categories=true'] };

describe('the model A/B in the worker', () => {
  it('estimates both arms in the CLI\'s words before anything is sent', async () => {
    const host = hostWithDemo();
    const e = await host.call('abEstimate', { ...params, maxUsd: 1 });
    expect(e.line).toMatch(/^estimate: 18 tasks in 2 arms \(A: the scenario as written; B: categories=true\), about (\d+) requests \(A \d+, B \d+\) to Anthropic claude-haiku-4-5, about \$0\.\d{4} \(claude-haiku-4-5 at the price table of [\d-]+\); .*; stops at \$1\.00$/u);
    expect(e.tasks).toBe(18);
    await expect(host.call('abEstimate', { ...params, switches: ['categories=false'] })).rejects.toThrow("categories=false is the scenario's own value: arm B would be arm A");
    await expect(host.call('abEstimate', { ...params, switches: ['ranking=best'] })).rejects.toThrow(/ranking takes .* got `best`/u);
    await expect(host.call('abEstimate', { ...params, model: 'claude-nonesuch', maxUsd: 1 })).rejects.toThrow(/a budget needs a price/u);
  });

  it('plays both arms request by request, then the A/B line, the discordant tasks and each arm\'s turn', async () => {
    const host = hostWithDemo();
    let e: AbEvent = await host.call('abStart', params);
    const asked: string[] = [];
    while (e.ask) {
      asked.push(`${e.ask.arm}${e.ask.task}:${e.ask.cycle}`);
      e = await host.call('abAnswer', { run: e.run, answer: model(e.ask) });
    }
    const f = e.finished;
    if (!f) throw new Error('no finished run');
    expect(asked.slice(0, 3)).toEqual(['A0:1', 'B0:1', 'B0:2']);
    expect(e.progress).toMatchObject({ A: 18, B: 18, total: 18 });
    // 18 A requests + 36 B requests, each $1/M input ×1000 + $5/M output ×10 at haiku's row.
    expect(e.progress.spent).toBeGreaterThan(0);
    const aOnly = f.ab.pairs.filter((p) => p.a !== p.b && (p.a === 'met-up-front' || p.a === 'met-by-search') && p.b !== 'met-up-front' && p.b !== 'met-by-search').length;
    expect(f.ab.aOnly).toBe(aOnly);
    expect(f.ab.bOnly).toBeGreaterThan(5);
    // The 4 tools up front are met in both arms; B's search meets the 11 silent misses (2/2^11 = 9.77e-4).
    expect(f.line).toBe('A/B on 18 tasks (B: categories=true): met A 4, B 15; A only 0, B only 11; McNemar exact p = 9.77e-4');
    expect(f.ab.p).toBe(mcnemarExact(0, 11));
    expect(f.arms.A.summary).toMatch(/^tasks 18: met up front 4, met by search 0, silent misses 11, impossible 3;/u);
    expect(f.errors).toEqual([]);
    const disc = f.ab.pairs.find((p) => p.a === 'silent-miss' && p.b === 'met-by-search');
    if (!disc) throw new Error('no discordant task');
    const turnB = host.call('abTurn', { run: e.run, arm: 'B', index: disc.task });
    expect(turnB.entries.some((x) => x.label.includes('search_tools'))).toBe(true);
    expect(turnB.offered[1]).toContain(relevant[disc.task]);
    expect(turnB.step.cycles[0]?.calls[0]?.tool).toBe('search_tools');
    const turnA = host.call('abTurn', { run: e.run, arm: 'A', index: disc.task });
    expect(turnA.offered[0]).not.toContain(relevant[disc.task]);
    expect(turnA.step.cycles).toEqual([{ calls: [], reply: 'done' }]);
  });

  it('the page\'s Stop ends the run on whole pairs; a provider\'s error is kept as text', async () => {
    const host = hostWithDemo();
    let e: AbEvent = await host.call('abStart', params);
    let n = 0;
    while (e.ask) {
      n += 1;
      const answer: ModelAnswer = e.ask.task === 1 && e.ask.arm === 'A' ? { ok: false, error: 'Anthropic refused the key (401): invalid x-api-key' } : model(e.ask);
      // Stop pressed while task 3's B answer was on its way (A0, B0 ×2, A1, B1 ×2, A2, B2 ×2).
      e = await host.call('abAnswer', { run: e.run, answer, stop: n === 9 });
    }
    const f = e.finished;
    expect(n).toBe(9);
    expect(f?.stoppedNote).toBe('stopped by your Stop: 2 of 18 pairs complete; the A/B test is on those only');
    expect(f?.ab.complete).toBe(2);
    expect(f?.errors).toEqual(['arm A, task 2: stopped: Anthropic refused the key (401): invalid x-api-key']);
    expect(f?.line).toMatch(/^A\/B on 2 tasks \(B: categories=true\)/u);
    expect(() => host.call('abAnswer', { run: e.run, answer: { ok: false, error: 'x' } })).toThrow(/awaits no answer/u);
  });
});
