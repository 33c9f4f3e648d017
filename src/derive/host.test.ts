// The derive host's answers for typing: the sets of the selected row ride along with the
// derivation (one round trip per keystroke), and a re-run re-reads only the layers that changed.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkExpectations, checkScenario, DEFAULT_PRICE_TABLE, LayerCache, loadLayer, parseScenario, runScenario, scenarioDocFromText, timelineToJson, writeScenario } from '../core';
import type { ScenarioDoc } from '../core';
import { DeriveHost } from './host';
import { Superseded } from './dispatch';
import { deriveWhole } from './testing';
import type { SetsView } from './protocol';

const demoText = readFileSync(new URL('../app/demo-scenario.toml', import.meta.url), 'utf8');

function doc(text: string): ScenarioDoc {
  const d = scenarioDocFromText(text);
  if (!d.ok) throw new Error(d.errors[0]?.message);
  return d.doc;
}

/** A SetsView without its rows: what the derivation's answer carries. */
function summaryOf(v: SetsView): Omit<SetsView, 'rows'> {
  const { rows, ...summary } = v;
  expect(rows.length).toBe(summary.counts.configured);
  return summary;
}

describe('derive with an entry hint', () => {
  const demo = doc(demoText);

  it('carries the sets at the last row (null) or the given row, the same as the sets method', () => {
    const host = new DeriveHost();
    const last = deriveWhole(host, { doc: demo, revision: 1, entry: null });
    const lastEntry = last.entries[last.entries.length - 1];
    expect(last.sets?.position).toBe(lastEntry?.position);
    expect(last.sets).toEqual(summaryOf(host.sets({ revision: 1, position: lastEntry?.position ?? 0 })));

    const second = deriveWhole(host, { doc: demo, revision: 2, entry: 1 });
    expect(second.sets?.position).toBe(second.entries[1]?.position);
    expect(second.sets).toEqual(summaryOf(host.sets({ revision: 2, position: second.entries[1]?.position ?? 0 })));

    // A row past the end reads as the last one (as the timeline panel clamps it).
    const past = deriveWhole(host, { doc: demo, revision: 3, entry: 10_000 });
    expect(past.sets?.position).toBe(past.entries[past.entries.length - 1]?.position);
  });

  it('carries no sets without a hint', () => {
    expect(deriveWhole(new DeriveHost(), { doc: demo, revision: 1 }).sets).toBeUndefined();
  });
});

describe('sets at a position', () => {
  const demo = doc(demoText);

  it('answers the last position for one past the end, and position 0 for a negative one', () => {
    const host = new DeriveHost();
    const view = host.derive({ doc: demo, revision: 1 });
    const last = view.positionCount - 1;
    expect(last).toBeGreaterThan(0);
    const atLast = host.sets({ revision: 1, position: last });
    for (const past of [last + 1, last + 1000, Number.MAX_SAFE_INTEGER]) expect(host.sets({ revision: 1, position: past })).toEqual(atLast);
    expect(atLast.position).toBe(last);
    const atFirst = host.sets({ revision: 1, position: 0 });
    expect(host.sets({ revision: 1, position: -1 })).toEqual(atFirst);
    expect(host.sets({ revision: 1, position: -50 }).position).toBe(0);
    // The two ends differ in this scenario, so the clamping is seen, not a constant answer.
    expect(atFirst.counts).not.toEqual(atLast.counts);
  });
});

describe('provenance at a position', () => {
  const demo = doc(demoText);

  it('answers the last position for one past the end, and position 0 for a negative one', () => {
    const host = new DeriveHost();
    const view = host.derive({ doc: demo, revision: 1 });
    const last = view.positionCount - 1;
    const name = host.sets({ revision: 1, position: 0 }).rows.find((r) => r.kind !== 'builtin')?.name ?? '';
    expect(name).not.toBe('');
    const atFirst = host.provenance({ revision: 1, position: 0, name });
    expect(atFirst.text).not.toBe('not configured');
    for (const before of [-1, -50]) expect(host.provenance({ revision: 1, position: before, name })).toEqual(atFirst);
    const atLast = host.provenance({ revision: 1, position: last, name });
    for (const past of [last + 1, last + 1000]) expect(host.provenance({ revision: 1, position: past, name })).toEqual(atLast);
  });
});

describe('the derivations the host keeps', () => {
  const demo = doc(demoText);

  it('answers the newest revision and the one before it; an older one is superseded, one never derived an error', async () => {
    const host = new DeriveHost();
    for (const revision of [1, 2, 3]) host.derive({ doc: demo, revision });
    for (const revision of [2, 3]) {
      expect(host.call('problemRows', { revision })).toEqual(host.call('problemRows', { revision: 3 }));
      expect(host.call('request', { revision, id: 0 }).id).toBe(0);
    }
    for (const call of [() => host.call('problemRows', { revision: 1 }), () => host.call('request', { revision: 1, id: 0 }), () => host.call('record', { revision: 1, step: 1 })]) {
      expect(call).toThrow(Superseded);
    }
    await expect(host.call('costs', { revision: 1, table: DEFAULT_PRICE_TABLE })).rejects.toThrow(Superseded);
    expect(() => host.call('problemRows', { revision: 4 })).toThrow('revision 4 is not a recent derivation');
    expect(() => host.call('problemRows', { revision: 4 })).not.toThrow(Superseded);
  });
});

describe('LayerCache', () => {
  const scenario = (() => {
    const p = parseScenario(demoText);
    if (!p.ok) throw new Error('demo does not parse');
    return p.scenario;
  })();

  it('re-reads only the layers whose text changed, and runs the same as without it', () => {
    const cache = new LayerCache();
    const first = cache.loadAll(scenario.layers);
    const again = cache.loadAll(scenario.layers.map((l) => ({ ...l })));
    again.forEach((l, i) => expect(l).toBe(first[i]));
    const edited = scenario.layers.map((l, i) => (i === 0 ? { ...l, text: `${l.text}\n# edited\n` } : l));
    const third = cache.loadAll(edited);
    expect(third[0]).not.toBe(first[0]);
    expect(third[0]).toEqual(loadLayer(edited[0]!));
    third.slice(1).forEach((l, i) => expect(l).toBe(first[i + 1]));

    const plain = runScenario({ scenario });
    runScenario({ scenario, layerCache: cache });
    const cached = runScenario({ scenario, layerCache: cache });
    expect(timelineToJson(cached, checkExpectations(scenario, cached))).toEqual(timelineToJson(plain, checkExpectations(scenario, plain)));
  });

  it('a derivation after an edit matches a fresh host', () => {
    const demo = doc(demoText);
    const host = new DeriveHost();
    deriveWhole(host, { doc: demo, revision: 1 });
    const edited: ScenarioDoc = { ...demo, layers: demo.layers.map((l, i) => (i === demo.layers.length - 1 ? { ...l, text: l.text.replace('"on"', '"off"') } : l)) };
    const warm = deriveWhole(host, { doc: edited, revision: 2, entry: null });
    const cold = deriveWhole(new DeriveHost(), { doc: edited, revision: 2, entry: null });
    expect({ ...warm, millis: 0 }).toEqual({ ...cold, millis: 0 });
    expect(writeScenario(edited)).not.toBe(writeScenario(demo));
  });
});

describe('the check count the header and the timeline show', () => {
  it('is the command line\'s: expectations plus unexpected load errors, with the rows of each problem', () => {
    const text = `name = "load error"
[[layers]]
name = "workspace"
text = '''
[conversation.tools.a]
source = "local"
enable = "sometimes"
'''
[[steps]]
command = "jp q 'x'"
[steps.expect]
offered = ["nope"]
`;
    const view = deriveWhole(new DeriveHost(), { doc: doc(text), revision: 1 });
    const cli = checkScenario('x.toml', writeScenario(doc(text)));
    expect([view.passed, view.failed]).toEqual([cli.passed, cli.failed]);
    expect(view.failed).toBe(2);
    expect(view.problemEntries[0]).toBe(0);
    expect(view.problemEntries.length).toBe(2);
    const ok = deriveWhole(new DeriveHost(), { doc: doc(demoText), revision: 1 });
    expect(ok.failed).toBe(0);
    expect(ok.problemEntries).toEqual([]);
  });

  it('plays the open turn with the core\'s auto model, in the worker', () => {
    const demo = doc(demoText);
    const withTurn = { ...demo, steps: [...demo.steps, { command: "jp q 'Open a Linear issue for the failing orders test'", cycles: [] }] };
    const played = new DeriveHost().call('autoTurn', { doc: withTurn, stepIndex: 2 });
    expect(played.moves.map((m) => m.kind)).toEqual(['search', 'call', 'reply']);
    expect(played.moves[1]).toMatchObject({ kind: 'call', tool: 'linear_create_issue' });
    expect(played.step?.cycles.length).toBe(3);
  });
});
