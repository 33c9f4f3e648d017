import { describe, expect, it } from 'vitest';
import { EMPTY_DOC, scenarioDocFromText, writeScenario } from '../../core';
import type { ScenarioDoc } from '../../core';
import { DeriveHost } from '../../derive/host';
import { followedStep, openTurn, recordExpectations, withCall, withReply } from './turn';
import { deriveWhole } from '../../derive/testing';

const layer = `[conversation.tools.'*']
enable = "discoverable"
[conversation.tools.reader]
source = "local"
enable = "on"
summary = "Read a file."
[conversation.tools.deployer]
source = "local"
summary = "Deploy a branch."
[conversation.tools.deployer.parameters.branch]
type = "string"
required = true
`;

const base: ScenarioDoc = { ...EMPTY_DOC, name: 'turn', layers: [{ name: 'w', text: layer }], steps: [] };

describe('the open turn', () => {
  it('is the last jp q step awaiting the model', () => {
    expect(openTurn(base)).toBeUndefined();
    const one = { ...base, steps: [{ command: "jp q 'deploy it'", cycles: [] }] };
    expect(openTurn(one)).toMatchObject({ stepIndex: 0, cycle: 1, query: 'deploy it' });
    const called = { ...one, steps: [withCall(one.steps[0]!, { tool: 'search_tools', args: { query: 'deploy' } })] };
    expect(called.steps[0]?.cycles).toEqual([{ calls: [{ tool: 'search_tools', args: { query: 'deploy' } }] }, { calls: [] }]);
    expect(openTurn(called)).toMatchObject({ cycle: 2 });
    const replied = { ...called, steps: [withReply(called.steps[0]!, 'done')] };
    expect(replied.steps[0]?.cycles.at(-1)).toEqual({ calls: [], reply: 'done' });
    expect(openTurn(replied)).toBeUndefined();
    expect(openTurn({ ...base, steps: [{ command: 'jp config set --id conversation.tools.reader.enable=off', cycles: [] }] })).toBeUndefined();
  });
});

describe('recordExpectations', () => {
  it('writes what the checker reads of the run, and the written scenario passes', () => {
    let doc: ScenarioDoc = { ...base, steps: [{ command: "jp q 'deploy it'", cycles: [] }] };
    doc = { ...doc, steps: [withCall(doc.steps[0]!, { tool: 'search_tools', args: { query: 'deploy', limit: 3 } })] };
    doc = { ...doc, steps: [withCall(doc.steps[0]!, { tool: 'deployer', args: { branch: 'main' } })] };
    doc = { ...doc, steps: [withReply(doc.steps[0]!, 'ok')] };
    const host = new DeriveHost();
    deriveWhole(host, { doc, revision: 1 });
    const { step, count } = recordExpectations(doc.steps[0]!, host.record({ revision: 1, step: 1 }));
    expect(count).toBeGreaterThan(5);
    expect(step.cycles[0]?.expect).toEqual({ cache: 'miss' });
    expect(step.cycles[0]?.calls[0]?.expect).toEqual({ status: 'ok', returned: ['deployer'], usable: ['deployer'], total: 1 });
    expect(step.cycles[1]?.expect).toEqual({ cache: 'miss', offered_includes: ['deployer'] });
    expect(step.expect).toEqual({ availability: { deployer: 'on' } });
    const recorded = { ...doc, steps: [step] };
    const again = scenarioDocFromText(writeScenario(recorded));
    if (!again.ok) throw new Error(again.errors[0]?.message);
    const checked = deriveWhole(host, { doc: again.doc, revision: 2 });
    expect(checked.failed).toBe(0);
    expect(checked.passed).toBe(count);
  });
});

describe('the step the simulator follows', () => {
  it('is the selected row\'s step, else the last step', () => {
    const two = { ...base, steps: [{ command: "jp q 'one'", cycles: [] }, { command: "jp q 'two'", cycles: [] }] };
    const view = deriveWhole(new DeriveHost(), { doc: two, revision: 1 });
    const firstStepRow = view.entries.find((e) => e.kind === 'request' && e.step === 1)?.index;
    expect(followedStep(view, firstStepRow, 2)).toBe(1);
    expect(followedStep(view, 0, 2)).toBe(2); // the base config row belongs to no step
    expect(followedStep(view, undefined, 2)).toBe(2);
    expect(followedStep(undefined, undefined, 0)).toBe(0);
  });

  it('follows a just-added step while the view still ends at the previous one (the derivation lags the document)', () => {
    const one = { ...base, steps: [{ command: "jp q 'one'", cycles: [] }] };
    const stale = deriveWhole(new DeriveHost(), { doc: one, revision: 1 });
    expect(followedStep(stale, undefined, 2)).toBe(2);
  });
});
