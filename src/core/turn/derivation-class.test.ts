// The Derivation class (derivation.ts from line 716): what Derivation.last reports across runs, what
// prepare does when there is nothing or little to prepare, and what it leaves when a real run comes
// between its steps; a layer list renamed or grown starts the run over. Timelines are checked against
// runs from scratch.
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../scenario/types';
import { LayerCache } from './caches';
import { Derivation } from './derivation';
import { runScenario } from './run';
import { timelineToJson } from './serialize';
import { checkExpectations } from '../scenario/expectations';
import { toJson } from '../json/serde';
import type { Timeline } from './timeline';
import { call, layer, parsed, scenarioText, search, turn } from './test-kit';
import type { ToolSpec } from './test-kit';

const digest = (s: Scenario, t: Timeline): string => toJson(timelineToJson(t, checkExpectations(s, t), { bodies: true }), false);

const tools: Record<string, ToolSpec> = {
  read_file: { summary: 'Reads a file.' },
  list_issues: { summary: 'Lists issues.', enable: '"on"' },
  send_mail: { summary: 'Sends mail.' },
  deploy_app: { summary: 'Deploys an app.' },
};
const text = layer(tools);
const body = [turn('jp q one', [[search('files', 2)]]), turn('jp q two', [[search('mail', 2)]]), turn('jp q three', [])].join('\n');
const start = parsed(scenarioText({ layer: text, body }));
const withText = (t: string, s: Scenario = start): Scenario => ({ ...s, layers: [{ name: 'workspace', text: t }] });

// A tool without a source (a load diagnostic) in a second layer: its diagnostic kept while the first layer is edited.
const diagnosedLayer = { name: 'second', text: '[conversation.tools.no_source]\nsummary = "nothing to run"\n' };
const diagnosed: Scenario = { ...start, layers: [{ name: 'workspace', text }, diagnosedLayer] };
const editFirst = (s: Scenario, f: (t: string) => string): Scenario => ({ ...s, layers: [{ name: 'workspace', text: f(text) }, diagnosedLayer] });

describe('Derivation.last across runs', () => {
  it('counts the layers parsed by each run, a table re-read after another one included', () => {
    const layerCache = new LayerCache();
    const derivation = new Derivation({ layerCache });
    derivation.run({ scenario: start });
    const once = text.replace('Reads a file.', 'Reads one file.');
    derivation.run({ scenario: withText(once) });
    expect(derivation.last).toMatchObject({ restarted: false, layersParsed: 1 });
    const twice = once.replace('Sends mail.', 'Sends some mail.');
    derivation.run({ scenario: withText(twice) });
    expect(derivation.last).toMatchObject({ restarted: false, layersParsed: 1 });
    // One of the edits re-read a tool's tables only: a run counts its own parses and re-reads, not the cache's since it was made.
    expect(layerCache).toMatchObject({ parsed: 2, tablesReparsed: 1 });
    derivation.run({ scenario: withText(twice) });
    expect(derivation.last).toMatchObject({ layersParsed: 0 });
  });

  it('a first run with load diagnostics gives the timeline a run from scratch gives (its load entry included)', () => {
    const t = new Derivation().run({ scenario: diagnosed });
    expect(t.diagnostics.length).toBeGreaterThan(0);
    expect(digest(diagnosed, t)).toBe(digest(diagnosed, runScenario({ scenario: diagnosed })));
    // The serialized timeline leaves the load entry's index out; check and the page put load problems on that row.
    const fresh = runScenario({ scenario: diagnosed });
    expect(t.loadEntry).toBe(fresh.loadEntry);
    expect(t.entries[t.loadEntry]).toEqual(fresh.entries[fresh.loadEntry]);
  });

  it('counts the indexes re-indexed by each run alone, after a run that re-indexed too', () => {
    const derivation = new Derivation();
    derivation.run({ scenario: start });
    const once = text.replace('Reads a file.', 'Reads one file.');
    derivation.run({ scenario: withText(once) });
    expect(derivation.last).toMatchObject({ restarted: false, indexesReindexed: 1 });
    derivation.run({ scenario: withText(once.replace('Sends mail.', 'Sends some mail.')) });
    expect(derivation.last).toMatchObject({ restarted: false, indexesReindexed: 1 });
  });

  it('a layer renamed, or one added, starts the run over', () => {
    for (const next of [{ ...diagnosed, layers: [{ name: 'workspace', text }, { ...diagnosedLayer, name: 'renamed' }] }, { ...diagnosed, layers: [...diagnosed.layers, { name: 'third', text: '# nothing yet\n' }] }]) {
      const derivation = new Derivation();
      derivation.run({ scenario: diagnosed });
      expect(digest(next, derivation.run({ scenario: next }))).toBe(digest(next, runScenario({ scenario: next })));
      expect(derivation.last).toMatchObject({ restarted: true });
    }
  });
});

describe('a layer edit keeps the diagnostics of the layers it did not touch', () => {
  for (const prepared of [false, true]) {
    it(prepared ? 'after prepare (diagnostics derived ahead, tool by tool)' : 'on the first edit after a run', () => {
      const derivation = new Derivation();
      derivation.run({ scenario: diagnosed });
      if (prepared) for (const _ of derivation.prepare());
      const next = editFirst(diagnosed, (t) => t.replace('Reads a file.', 'Reads a whole file.'));
      const got = derivation.run({ scenario: next });
      expect(derivation.last?.restarted).toBe(false);
      expect(got.diagnostics).toEqual(runScenario({ scenario: next }).diagnostics);
      expect(got.diagnostics.some((d) => d.line !== undefined && d.layer === 'second')).toBe(true);
    });
  }
});

describe('Derivation.prepare', () => {
  it('does nothing before a run, and takes no step for a scenario without tools or searches', () => {
    expect([...new Derivation().prepare()]).toHaveLength(0);
    const empty = parsed(scenarioText({ body: turn('jp q one', []) }));
    const derivation = new Derivation();
    derivation.run({ scenario: empty });
    expect([...derivation.prepare()]).toHaveLength(0);
  });

  it('stops when a run comes between its searches: what is left is the new run\'s', () => {
    const derivation = new Derivation();
    derivation.run({ scenario: start });
    // A layer edit first: its run keeps the diagnostics tool by tool, so prepare starts with the searches.
    derivation.run({ scenario: withText(text.replace('Reads a file.', 'Reads one file.')) });
    const g = derivation.prepare();
    expect(g.next().done).toBe(false);
    const typed = withText(text.replace('Reads a file.', 'Reads two files.'));
    derivation.run({ scenario: typed });
    const stats = derivation.last;
    expect([...g]).toHaveLength(0);
    // The derivation stands on the typed input: running it again replays nothing.
    expect(derivation.last).toBe(stats);
    derivation.run({ scenario: typed });
    expect(derivation.last).toMatchObject({ restarted: false, stepsPlayed: 0 });
  });

  it("stops when a run comes between a rehearsal's undoing and the next rehearsal", () => {
    const derivation = new Derivation();
    derivation.run({ scenario: { ...start, layers: [{ name: 'workspace', text }, { name: 'overrides', text: '[conversation.tools.list_issues]\nrun = "ask"\n' }] } });
    const g = derivation.prepare();
    // The diagnostics, the two searches, the first rehearsal and its undoing.
    for (let k = 0; k < 1 + 2 + 2; k++) expect(g.next().done).toBe(false);
    derivation.run({ scenario: start });
    const stats = derivation.last;
    expect([...g]).toHaveLength(0);
    expect(derivation.last).toBe(stats);
  });
});

describe('a layer edit making an offered tool discoverable, before a search that finds it', () => {
  it('replays from that search, as a run from scratch gives', () => {
    const s = parsed(scenarioText({ layer: text, body: [turn('jp q one', [[call('list_issues')]]), turn('jp q two', [[search('mail', 2)]]), turn('jp q three', [])].join('\n') }));
    // send_mail "on" (offered, never searched for), then made discoverable: the search finds it now. No definition changes.
    const on = withText(text.replace('[conversation.tools.send_mail]\nsource = "local"', '[conversation.tools.send_mail]\nsource = "local"\nenable = "on"'), s);
    expect(on.layers[0]?.text).not.toBe(text);
    const next = s;
    const derivation = new Derivation();
    derivation.run({ scenario: on });
    expect(digest(next, derivation.run({ scenario: next }))).toBe(digest(next, runScenario({ scenario: next })));
    expect(derivation.last).toMatchObject({ restarted: false, toolsReresolved: 1, indexesReindexed: 0, stepsReused: 1, replayedFromStep: 2 });
  });
});
