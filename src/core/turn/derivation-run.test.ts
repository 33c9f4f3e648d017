// Derivation.run's bounds and Derivation.prepare's rehearsal of a keystroke (derivation.ts from line
// 471): what a shell's status line reads from Derivation.last, and which layer a rehearsal may edit.
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../scenario/types';
import { Derivation, REHEARSALS } from './derivation';
import type { DerivationInput } from './derivation';
import { call, layer, parsed, scenarioText, search, turn } from './test-kit';
import type { ToolSpec } from './test-kit';

const tools: Record<string, ToolSpec> = {
  read_file: { summary: 'Reads a file.' },
  list_issues: { summary: 'Lists issues.', enable: '"on"' },
  send_mail: { summary: 'Sends mail.' },
  deploy_app: { summary: 'Deploys an app.' },
};
const catalogue = layer(tools);
const searching = parsed(scenarioText({ layer: catalogue, body: [turn('jp q one', [[search('files', 2)]]), turn('jp q two', [[search('mail', 2)]]), turn('jp q three', [])].join('\n') }));
const quiet = parsed(scenarioText({ layer: catalogue, body: [turn('jp q one', []), turn('jp q two', [])].join('\n') }));

function prepareAll(derivation: Derivation): number {
  let steps = 0;
  for (const _ of derivation.prepare()) steps++;
  return steps;
}

/** The catalogue as a workspace layer below the scenario, whose one layer is `overrides` (what a rehearsal may edit). */
function withOverrides(s: Scenario, overrides: string): DerivationInput {
  return { scenario: { ...s, layers: [{ name: 'overrides', text: overrides }] }, workspaceLayers: s.layers };
}

/** An overrides layer naming read_file, padded with a comment to exactly `chars` characters. */
function overridesOf(chars: number): string {
  const head = '[conversation.tools.read_file]\nrun = "ask"\n#';
  return head + 'x'.repeat(chars - head.length - 1) + '\n';
}

describe('Derivation.run: how much of a run is played', () => {
  it('a throughStep past the last step plays every step, and one below zero plays none', () => {
    const n = searching.steps.length;
    const all = new Derivation();
    expect(all.run({ scenario: searching }, { throughStep: n + 5 }).steps).toHaveLength(n);
    expect(all.last).toMatchObject({ complete: true, stepsPlayed: n, steps: n });
    const none = new Derivation();
    expect(none.run({ scenario: searching }, { throughStep: -2 }).steps).toHaveLength(0);
    expect(none.last).toMatchObject({ complete: false, stepsPlayed: 0, stepsReused: 0 });
  });

  it('a run that plays nothing reports no step replayed (one past the last), also when stopped early', () => {
    const n = searching.steps.length;
    const derivation = new Derivation();
    derivation.run({ scenario: searching }, { throughStep: 1 });
    expect(derivation.last).toMatchObject({ stepsPlayed: 1, replayedFromStep: 1 });
    derivation.run({ scenario: searching }, { throughStep: 1 });
    expect(derivation.last).toMatchObject({ stepsPlayed: 0, stepsReused: 1, replayedFromStep: n + 1 });
    derivation.run({ scenario: searching });
    expect(derivation.last).toMatchObject({ stepsPlayed: n - 1, stepsReused: 1, replayedFromStep: 2 });
  });
});

describe('Derivation.run: a layer edit that changes no tool in value replays nothing', () => {
  // A search, a call that writes nothing, a describe_tools call and a call of the edited tool: each would
  // be played again if the tool had changed; a comment added above its table moves its text alone.
  const body = [turn('jp q one', [[search('files', 2)], [call('list_issues', 'writes = []')]]), turn('jp q two', [['{ tool = "describe_tools", args = { tools = ["read_file"] } }']]), turn('jp q three', [[call('read_file')]])].join('\n');
  const overrides = '[conversation.tools.read_file]\nrun = "ask"\n';
  for (const provider of ['anthropic', 'anthropic-directives']) {
    it(`under provider ${provider}`, () => {
      const s = parsed(scenarioText({ policy: { provider }, layer: catalogue, body }));
      const derivation = new Derivation();
      derivation.run({ scenario: { ...s, layers: [...s.layers, { name: 'overrides', text: overrides }] } });
      derivation.run({ scenario: { ...s, layers: [...s.layers, { name: 'overrides', text: `# moved\n${overrides}` }] } });
      expect(derivation.last).toMatchObject({ restarted: false, toolsReresolved: 0, stepsPlayed: 0, replayedFromStep: s.steps.length + 1 });
    });
  }
});

describe('Derivation.run: a layer edit replays from the first step that reads the changed tool', () => {
  it("past steps that name, configure or force other tools, from the call of the changed one", () => {
    const body = [turn('jp q one -t deploy_app', []), turn('jp q two --cfg conversation.tools.send_mail.enable=on', []), turn('jp q three -u read_file', []), turn('jp q four', [[call('list_issues')]]), turn('jp q five', [])].join('\n');
    const s = parsed(scenarioText({ layer: catalogue, body }));
    const derivation = new Derivation();
    derivation.run({ scenario: { ...s, layers: [...s.layers, { name: 'overrides', text: '[conversation.tools.list_issues]\nrun = "ask"\n' }] } });
    derivation.run({ scenario: { ...s, layers: [...s.layers, { name: 'overrides', text: '[conversation.tools.list_issues]\nrun = "unattended"\n' }] } });
    expect(derivation.last).toMatchObject({ restarted: false, toolsReresolved: 1, stepsReused: 3, replayedFromStep: 4 });
  });
});

describe('Derivation.prepare: the rehearsal of a keystroke', () => {
  const searches = 2;

  it('edits a scenario layer of up to 64 KiB, never a larger one (its edit could be parsed whole)', () => {
    const at = new Derivation();
    at.run(withOverrides(searching, overridesOf(64 * 1024)));
    expect(prepareAll(at)).toBe(1 + searches + 2 * REHEARSALS);
    const past = new Derivation();
    past.run(withOverrides(searching, overridesOf(64 * 1024 + 1)));
    expect(prepareAll(past)).toBe(1 + searches);
  });

  it('turns off a tool the first request offers when no search found one the layer does not name', () => {
    const derivation = new Derivation();
    derivation.run(withOverrides(quiet, '[conversation.tools.read_file]\nrun = "ask"\n'));
    expect(prepareAll(derivation)).toBe(1 + 2 * REHEARSALS);
    // The last run was the undoing: one tool re-resolved back.
    expect(derivation.last).toMatchObject({ restarted: false, toolsReresolved: 1 });
  });

  it('edits the smallest scenario layer, wherever it stands', () => {
    // The small overrides first, the catalogue (naming every tool, so no table can be appended to it)
    // after: the rehearsal's table moves its tool up the merge's order, so its runs start over, yet they run.
    const derivation = new Derivation();
    derivation.run({ scenario: { ...searching, layers: [{ name: 'overrides', text: '[conversation.tools.read_file]\nrun = "ask"\n' }, ...searching.layers] } });
    expect(prepareAll(derivation)).toBe(1 + searches + 2 * REHEARSALS);
  });

  it('rehearses nothing when the layer names every tool a search found and every tool offered', () => {
    const derivation = new Derivation();
    derivation.run({ scenario: quiet });
    expect(prepareAll(derivation)).toBe(1);
  });
});
