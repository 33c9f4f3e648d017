// search_tools' reach with a ranker that filters by name: a run may be given its own rankers
// (runScenario's `rankers`, as the lab and the workspace hosts pass theirs), and the regex ranker
// reads SearchOptions.filter, not filterOrder. Its hits must still be the searchable tools only, and
// under hide_unapproved never a tool that asks before it runs.
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../scenario/parse';
import { regex } from '../search/regex';
import { runScenario } from './run';
import { layer, scenarioText, search, turn } from './test-kit';

function returned(policy: Record<string, boolean>, query = 'kangaroo', own = true): string[] {
  const text = scenarioText({
    policy,
    layer: layer({
      alpha: { enable: '"on"', summary: 'Feed the kangaroo.' },
      beta: { summary: 'Keep the kangaroo.', run: 'unattended' },
      gamma: { summary: 'Heal the kangaroo.', run: 'ask' },
      delta: { enable: '"off"', summary: 'Ride the kangaroo.' },
    }),
    body: turn("jp q 'x'", [[search(query)]]),
  });
  const p = parseScenario(text);
  if (!p.ok) throw new Error(p.errors[0]?.message);
  // The policy asks for bm25; this run's ranker of that id is the regex one.
  const t = runScenario({ scenario: p.scenario, ...(own ? { rankers: new Map([['bm25', regex]]) } : {}) });
  const c = t.calls[0];
  if (c?.status !== 'ok') throw new Error(`search failed: ${c?.result}`);
  return c.search?.returned.map((r) => r.name) ?? [];
}

describe('search_tools with a ranker that filters by name', () => {
  it('returns the searchable tools only: not one already offered, nor one turned off', () => {
    expect(returned({})).toEqual(['beta', 'gamma']);
  });

  it('under hide_unapproved, leaves out a tool whose run mode asks', () => {
    expect(returned({ hide_unapproved: true })).toEqual(['beta']);
    // The default ranker, which filters by order, agrees.
    expect(returned({ hide_unapproved: true }, 'kangaroo', false)).toEqual(['beta']);
    expect(returned({}, 'kangaroo', false)).toEqual(['beta', 'gamma']);
  });

  it('a pattern matching only an offered tool finds nothing', () => {
    expect(returned({}, 'feed')).toEqual([]);
  });
});
