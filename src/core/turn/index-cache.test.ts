// A shared IndexCache must never answer a search with another catalogue's index.
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../scenario/parse';
import { IndexCache, runScenario } from './run';

const scenario = (summary: string) => `name = "cache"
[policy]
ranking = "bm25"
[[layers]]
name = "workspace"
text = '''
[conversation.tools.'*']
enable = "discoverable"
[conversation.tools.alpha]
source = "local"
summary = "${summary}"
[conversation.tools.beta]
source = "local"
summary = "Unrelated helper."
'''
[[steps]]
command = "jp q x"
  [[steps.cycles]]
  calls = [ { tool = "search_tools", args = { query = "kangaroo" } } ]
`;

function returned(text: string, cache: IndexCache, ranker: 'bm25' | 'substring' = 'bm25'): string[] {
  const p = parseScenario(text.replace('ranking = "bm25"', `ranking = "${ranker}"`));
  if (!p.ok) throw new Error(p.errors[0]?.message);
  const t = runScenario({ scenario: p.scenario, indexCache: cache });
  return t.calls[0]?.search?.returned.map((r) => r.name) ?? [];
}

describe('IndexCache across runs', () => {
  for (const ranker of ['bm25', 'substring'] as const) {
    it(`${ranker}: a changed tool text is searched anew, the same text reuses the index`, () => {
      const cache = new IndexCache();
      expect(returned(scenario('Feed the kangaroo.'), cache, ranker)).toEqual(['alpha']);
      expect(returned(scenario('Feed the wombat.'), cache, ranker)).toEqual([]);
      expect(returned(scenario('Feed the kangaroo.'), cache, ranker)).toEqual(['alpha']);
    });
  }
});
