// The task methods in the worker's host: a run in chunks over the demo's own task set, the same
// outcomes as the core's one-shot run, and a task's turn on the scratch copy (the document unchanged).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scenarioDocFromText } from '../core';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { DeriveHost } from './host';
import { deriveWhole } from './testing';

const demoText = readFileSync(new URL('../app/demo-scenario.toml', import.meta.url), 'utf8');
const tasks = readFileSync(new URL('../../scenarios/data/demo-tasks.jsonl', import.meta.url), 'utf8');

describe('task methods', () => {
  // A run started before o200k_base had loaded (the worker starts loading it after the first derivation)
  // had no counter, so its figures depended on how fast the load was; it now waits for the load.
  it('counts the categories section in o200k_base tokens on a run started before the tokenizer has loaded', async () => {
    const d = scenarioDocFromText(demoText);
    if (!d.ok) throw new Error('demo');
    const host = new DeriveHost();
    deriveWhole(host, { doc: d.doc, revision: 1 });
    const started = await host.call('tasksStart', { revision: 1, tasks, settings: { policy: 'never', categories: true, limit: 3, cost: true } });
    expect(started.section.text.length).toBeGreaterThan(0);
    expect(started.section.tokens).toBe(countTokens(started.section.text, { disallowedSpecial: new Set() }));
  });

  it('runs a task set chunk by chunk, then opens a silent miss\'s turn on the scratch copy', async () => {
    const d = scenarioDocFromText(demoText);
    if (!d.ok) throw new Error('demo');
    const host = new DeriveHost();
    const before = deriveWhole(host, { doc: d.doc, revision: 1 });
    const started = await host.call('tasksStart', { revision: 1, tasks: `${tasks}{"query": 1}\n`, settings: { policy: 'never', categories: false, limit: 3, cost: false } });
    expect(started).toMatchObject({ total: 18, taskErrors: ['line 19: "query" must be a string'] });
    expect(started.section.lines).toBeGreaterThan(2);
    const chunks = [host.call('tasksNext', { run: started.run, count: 5 })];
    while (!chunks[chunks.length - 1]?.finished) chunks.push(host.call('tasksNext', { run: started.run, count: 5 }));
    expect(chunks.map((c) => c.done)).toEqual([5, 10, 15, 18]);
    expect(chunks[3]?.finished?.results).toEqual([]);
    const run = chunks[3]?.finished ? { ...chunks[3].finished, results: chunks.flatMap((c) => c.results) } : undefined;
    expect(run?.results.map((r) => r.index)).toEqual([...Array(18).keys()]);
    expect(run?.summary.counts['silent-miss']).toBe(11);
    const miss = run?.results.find((r) => r.outcome === 'silent-miss');
    const turn = host.call('taskTurn', { run: started.run, index: miss?.index ?? -1 });
    expect(turn.entries[0]).toMatchObject({ kind: 'step', step: 3, label: `jp q '${miss?.query ?? ''}'` });
    expect(turn.entries.some((e) => e.kind === 'request')).toBe(true);
    expect(turn.offered[0]).not.toContain(miss?.relevant[0]);
    expect(turn.step.cycles.at(-1)?.reply).toBe('I answered without a tool.');
    // The document's own derivation is untouched: still two steps.
    expect(deriveWhole(host, { doc: d.doc, revision: 2 }).entries.length).toBe(before.entries.length);
  });
});
