// RunCatalogue reuses what it can from the previous run (a kept definition's search document, a
// resumed run's documents) and must search exactly as a fresh run would: a document reused at another
// config order, or documents of another catalogue version, would search the wrong tools.
import { describe, expect, it } from 'vitest';
import { DefinitionCache } from './definitions';
import { Derivation } from './derivation';
import { IndexCache, runScenario } from './run';
import { call, layer, parsed, run, scenarioText, search, turn } from './test-kit';
import type { ToolSpec } from './test-kit';
import type { Timeline } from './timeline';

const hits = (t: Timeline): string[][] => t.calls.filter((c) => c.search).map((c) => c.search?.returned.map((r) => r.name) ?? []);

describe('RunCatalogue: a kept definition at another config order', () => {
  // The tool that is on comes first in the second run, so every other tool moves one place down.
  const text = (first: Record<string, ToolSpec>, ranking: string) =>
    scenarioText({
      policy: { ranking },
      layer: layer({ ...first, roo: { summary: 'Feed the kangaroo.' }, wom: { enable: '"on"', summary: 'Feed the wombat.' } }),
      body: turn("jp q 'x'", [[search('feed')]]),
    });

  for (const ranking of ['bm25', 'substring']) {
    it(`${ranking}: searches with the document at its new order, as a fresh run does`, () => {
      const definitions = new DefinitionCache();
      const indexes = new IndexCache();
      const before = runScenario({ scenario: parsed(text({}, ranking)), definitionCache: definitions, indexCache: indexes });
      expect(hits(before)).toEqual([['roo']]);
      // Reading the request builds (and so keeps) every permitted tool's definition.
      const rooBefore = before.requests[0]?.definitions.get('roo');
      expect(rooBefore).toBeDefined();
      expect(definitions.built).toBe(2);
      // The same text again: its index is built from the kept definitions' documents (order 0 for roo).
      definitions.startRun();
      expect(hits(runScenario({ scenario: parsed(text({}, ranking)), definitionCache: definitions, indexCache: indexes }))).toEqual([['roo']]);
      const moved = parsed(text({ first: { enable: '"on"', summary: 'Stands first.' } }, ranking));
      definitions.startRun();
      const after = runScenario({ scenario: moved, definitionCache: definitions, indexCache: indexes });
      // roo's definition was kept (its config is unchanged), its order is not.
      expect(after.engine.state('roo')?.order).toBe(1);
      expect(after.requests[0]?.definitions.get('roo')).toBe(rooBefore);
      expect(hits(after)).toEqual(hits(runScenario({ scenario: moved })));
      expect(hits(after)).toEqual([['roo']]);
    });
  }
});

describe('RunCatalogue: documents taken over by a resumed run', () => {
  // Step 2 writes roo's summary (a new catalogue version), step 3 searches for it.
  const text = (summary: string) =>
    scenarioText({
      layer: layer({ roo: { summary: 'Feed the kangaroo.' }, wom: { enable: '"on"', summary: 'Feed the wombat.' } }),
      body: [
        turn("jp q 'one'", [[search('zebra')]]),
        `[[steps]]\ncommand = "jp config set conversation.tools.roo.summary=${summary}"\n`,
        turn("jp q 'three'", [[search('platypus')]]),
      ].join('\n'),
    });

  it('are not those of a later catalogue version than the one the run resumes at', () => {
    const d = new Derivation();
    const first = d.run({ scenario: parsed(text('Pat_the_platypus')) });
    expect(hits(first)).toEqual([[], ['roo']]);
    const edited = parsed(text('Walk_the_dog'));
    const second = d.run({ scenario: edited });
    expect(d.last?.restarted).toBe(false);
    expect(d.last?.stepsReused).toBeGreaterThan(0);
    expect(hits(second)).toEqual(hits(runScenario({ scenario: edited })));
    expect(hits(second)).toEqual([[], []]);
  });

  it('are taken over when the run resumes at the same catalogue version (the same hits as a fresh run)', () => {
    const d = new Derivation();
    d.run({ scenario: parsed(text('Pat_the_platypus')) });
    const edited = parsed(text('Pat_the_platypus').replace("jp q 'three'", "jp q 'four'"));
    const second = d.run({ scenario: edited });
    expect(d.last?.restarted).toBe(false);
    expect(hits(second)).toEqual([[], ['roo']]);
  });
});

describe('RunCatalogue: rankers', () => {
  it('a run given rankers without the policy ranking searches with bm25', () => {
    const s = parsed(
      scenarioText({
        policy: { ranking: 'substring' },
        layer: layer({ roo: { summary: 'Feeding kangaroos.' }, wom: { summary: 'Feed the wombat.' } }),
        body: turn("jp q 'x'", [[search('kangaroo')]]),
      }),
    );
    // Both rankers find roo; their scores tell which one ranked.
    const fallback = runScenario({ scenario: s, rankers: new Map() });
    const ownBm25 = runScenario({ scenario: { ...s, policy: { ...s.policy, ranking: 'bm25' } } });
    expect(fallback.calls[0]?.search?.returned).toEqual(ownBm25.calls[0]?.search?.returned);
    const substring = runScenario({ scenario: s });
    expect(substring.calls[0]?.search?.returned.map((r) => r.score)).not.toEqual(fallback.calls[0]?.search?.returned.map((r) => r.score));
  });
});

describe('RunCatalogue: definitions at a position', () => {
  it("an earlier request keeps its own position's definitions after a later step changed one", () => {
    const t = run({
      layer: layer({ roo: { enable: '"on"', summary: 'Feed the kangaroo.' } }),
      body: [turn("jp q 'one'", []), '[[steps]]\ncommand = "jp config set conversation.tools.roo.summary=Pat_the_platypus"\n', turn("jp q 'two'", [])].join('\n'),
    });
    expect(t.requests).toHaveLength(2);
    // Read last request first: the newest states must not answer for the first request's position.
    expect(t.requests[1]?.definitions.get('roo')?.docs.summary).toBe('Pat_the_platypus');
    expect(t.requests[0]?.definitions.get('roo')?.docs.summary).toBe('Feed the kangaroo.');
    expect(JSON.stringify(t.requests[0]?.rendered().body)).toContain('Feed the kangaroo.');
    expect(JSON.stringify(t.requests[1]?.rendered().body)).toContain('Pat_the_platypus');
  });

  it('the first search of a run, after a step that changed a definition, searches the catalogue as it then stands', () => {
    const t = run({
      layer: layer({ roo: { summary: 'Feed the kangaroo.' }, wom: { enable: '"on"', summary: 'Feed the wombat.' } }),
      body: ['[[steps]]\ncommand = "jp config set conversation.tools.roo.summary=Pat_the_platypus"\n', turn("jp q 'x'", [[search('platypus')]])].join('\n'),
    });
    expect(t.engine.current.catalogueVersion).toBeGreaterThan(0);
    expect(hits(t)).toEqual([['roo']]);
  });

  it('describe_tools describes the builtins with their own definitions', () => {
    const t = run({ layer: layer({ roo: { summary: 'Feed the kangaroo.' } }), body: turn("jp q 'x'", [[call('describe_tools', 'args = { tools = ["describe_tools", "search_tools"] }').replace('args = {}, ', '')]]) });
    const c = t.calls[0];
    expect(c?.status).toBe('ok');
    expect(c?.result).toContain('## describe_tools');
    expect(c?.result).toContain('## search_tools');
    expect(c?.result).toContain('Get detailed descriptions and usage examples for one or more tools.');
    expect(c?.result).not.toContain('No additional documentation');
  });
});
