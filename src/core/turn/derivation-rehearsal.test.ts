// Derivation.prepare's rehearsal of a keystroke (derivation.ts rehearsalOf): which layer it edits and
// which tool it turns off. What is seen of it: how many steps prepare takes (a host's idle time), and
// Derivation.last while the rehearsal's own run stands (before it is undone).
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../scenario/types';
import { Derivation, REHEARSALS } from './derivation';
import { call, layer, parsed, scenarioText, search, turn } from './test-kit';
import type { ToolSpec } from './test-kit';

const tools: Record<string, ToolSpec> = {
  read_file: { summary: 'Reads a file.' },
  list_issues: { summary: 'Lists issues.', enable: '"on"' },
  send_mail: { summary: 'Sends mail.' },
  deploy_app: { summary: 'Deploys an app.' },
};
const catalogue = [{ name: 'catalogue', text: layer(tools) }];

/** `steps` over the catalogue (a workspace layer) and the given scenario layers. */
function input(steps: readonly string[], layers: readonly { name: string; text: string }[]): { scenario: Scenario; workspaceLayers: typeof catalogue } {
  const s = parsed(scenarioText({ body: steps.join('\n') }));
  return { scenario: { ...s, layers }, workspaceLayers: catalogue };
}

function prepareAll(derivation: Derivation): number {
  let steps = 0;
  for (const _ of derivation.prepare()) steps++;
  return steps;
}

// A call of the only "on" tool, a search that finds read_file (discoverable), then the "on" tool again.
const steps = [turn('jp q one', [[call('list_issues')], [search('files', 2)], [call('list_issues')]])];
const searches = 1;

describe('Derivation.prepare: the tool a rehearsal turns off', () => {
  it('is the first tool a search found that the layer does not name, past calls before and after the search', () => {
    // The layer names the one tool the first request offers (list_issues): only the search's hit fits.
    const derivation = new Derivation();
    derivation.run(input(steps, [{ name: 'overrides', text: '[conversation.tools.list_issues]\nrun = "ask"\n' }]));
    expect(prepareAll(derivation)).toBe(1 + searches + 2 * REHEARSALS);
  });

  it("is one table appended to the layer: the rehearsal's run re-resolves that tool alone, the layer's own tables kept", () => {
    const derivation = new Derivation();
    derivation.run(input(steps, [{ name: 'overrides', text: '[conversation.tools.list_issues]\nrun = "ask"\n\n[conversation.tools.deploy_app]\nrun = "ask"\n' }]));
    const g = derivation.prepare();
    for (let k = 0; k < 1 + searches; k++) g.next();
    // The rehearsal has run, not yet been undone.
    expect(g.next().done).toBe(false);
    expect(derivation.last).toMatchObject({ restarted: false, toolsReresolved: 1 });
    expect(g.next().done).toBe(false);
    expect(derivation.last).toMatchObject({ restarted: false, toolsReresolved: 1 });
  });
});

describe('Derivation.prepare: the layer a rehearsal edits', () => {
  it('of two equally small layers, the first (here it names every tool, so nothing is rehearsed)', () => {
    const names = '# read_file list_issues send_mail deploy_app\n';
    const other = `#${'x'.repeat(names.length - 2)}\n`;
    expect(other.length).toBe(names.length);
    const first = new Derivation();
    first.run(input(steps, [{ name: 'a', text: names }, { name: 'b', text: other }]));
    expect(prepareAll(first)).toBe(1 + searches);
    // The other order: the first is the one naming none, and a rehearsal runs.
    const second = new Derivation();
    second.run(input(steps, [{ name: 'b', text: other }, { name: 'a', text: names }]));
    expect(prepareAll(second)).toBe(1 + searches + 2 * REHEARSALS);
  });
});
