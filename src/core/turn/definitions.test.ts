// The definition cache must be invisible: a run that reuses the previous run's definitions derives
// exactly what a fresh run does (sets, costs, request bytes, search results, describe_tools), and
// a definition is reused only when nothing that reaches it changed.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkExpectations } from '../scenario/expectations';
import { parseScenario } from '../scenario/parse';
import type { Scenario } from '../scenario/types';
import { DefinitionCache } from './definitions';
import { LayerCache, runScenario } from './run';
import { timelineToJson } from './serialize';
import type { Timeline } from './timeline';
import { parsed } from './test-kit';

const dir = resolve(dirname(fileURLToPath(import.meta.url)), '../../../scenarios');
const demo = resolve(dirname(fileURLToPath(import.meta.url)), '../../app/demo-scenario.toml');

/** What a run derives, requests rendered to their bytes. */
function derived(s: Scenario, t: Timeline): unknown {
  return { json: timelineToJson(t, checkExpectations(s, t)), bytes: t.requests.map((r) => r.rendered().bytes), calls: t.calls.map((c) => c.result) };
}

/** Edits of the first layer: text above every tool (all origins move), a summary, a parameter, back. */
function variants(s: Scenario): Scenario[] {
  const [first, ...rest] = s.layers;
  if (!first) return [s];
  const withText = (text: string): Scenario => ({ ...s, layers: [{ ...first, text }, ...rest] });
  const summary = first.text.replace(/summary = "([^"]*)"/u, 'summary = "$1 (edited)"');
  const param = first.text.replace(/(\[conversation\.tools\.([A-Za-z0-9_-]+)\]\n)/u, '$1[conversation.tools.$2.parameters.added]\ntype = "string"\nrequired = true\n\n');
  return [s, withText(`# moved\n\n${first.text}`), withText(summary), withText(param), s];
}

describe('DefinitionCache', () => {
  // The scenarios that need no files beside them (a workspace folder, a server's catalogue file).
  const files = [...readdirSync(dir).filter((f) => f.endsWith('.toml')).map((f) => resolve(dir, f)), demo].filter((f) => parseScenario(readFileSync(f, 'utf8')).ok);
  it('covers the project scenarios and the demo', () => expect(files.length).toBeGreaterThan(10));
  for (const file of files) {
    it(`${file.split('/').pop()}: runs with the caches derive what fresh runs derive, edit after edit`, () => {
      const definitions = new DefinitionCache();
      const layers = new LayerCache();
      for (const s of variants(parsed(readFileSync(file, 'utf8')))) {
        const cached = runScenario({ scenario: s, definitionCache: definitions, layerCache: layers });
        expect(derived(s, cached)).toEqual(derived(s, runScenario({ scenario: s })));
      }
    });
  }

  const tool = (summary: string, enable = 'on', param = 'string') => `name = "t"
[[layers]]
name = "w"
text = '''
[conversation.tools.alpha]
source = "local"
enable = "${enable}"
summary = "${summary}"
[conversation.tools.alpha.parameters.id]
type = "${param}"
'''
[[steps]]
command = "jp q 'x'"
`;

  it('reuses a definition across enable changes and moved origins, and rebuilds it when its inputs change', () => {
    const cache = new DefinitionCache();
    const run = (text: string) => {
      const t = runScenario({ scenario: parsed(text), definitionCache: cache });
      return t.requests[0]?.definitions.get('alpha');
    };
    const first = run(tool('A tool.'));
    expect(first?.schemaDescription).toBe('A tool.');
    expect(cache.built).toBe(1);
    expect(run(tool('A tool.', 'discoverable'))).toBe(first); // permitted still, enable changed only
    expect(run(`# a comment moves every origin\n${tool('A tool.')}`.replace("text = '''\n", "text = '''\n\n\n"))).toBe(first);
    expect(cache.built).toBe(1);
    const edited = run(tool('Another tool.'));
    expect(edited).not.toBe(first);
    expect(edited?.schemaDescription).toBe('Another tool.');
    expect(run(tool('Another tool.', 'on', 'integer'))?.parameters.get('id')).toEqual(expect.objectContaining({ type: 'integer' }));
    expect(cache.built).toBe(3);
  });
});
