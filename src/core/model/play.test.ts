// The auto model played through the real core on the demo scenario: its two turns as the demo asks
// them, then the request the issue found it misfiring on. Each turn starts from what the previous
// ones promoted, as in the workbench.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scenarioDocFromText, writeScenario } from '../scenario/doc';
import type { ScenarioDoc } from '../scenario/doc';
import { parseScenario } from '../scenario/parse';
import { runScenario } from '../turn/run';
import type { Timeline } from '../turn/timeline';
import { autoInputAt, openTurn, playAutoTurn, withAction } from './play';
import type { AutoAction } from './auto';

const demo = (): ScenarioDoc => {
  const r = scenarioDocFromText(readFileSync(new URL('../../app/demo-scenario.toml', import.meta.url), 'utf8'));
  if (!r.ok) throw new Error('the demo does not parse');
  return r.doc;
};

const run = (doc: ScenarioDoc): Timeline | undefined => {
  const p = parseScenario(writeScenario(doc));
  return p.ok ? runScenario({ scenario: p.scenario }) : undefined;
};

const shown = (m: AutoAction): string => (m.kind === 'search' ? `search ${m.query}` : m.kind === 'call' ? `call ${m.tool} ${JSON.stringify(m.args)}` : 'reply');

function playAll(doc: ScenarioDoc, queries: readonly string[]): { doc: ScenarioDoc; turns: AutoAction[][] } {
  let current = doc;
  const turns: AutoAction[][] = [];
  for (const q of queries) {
    current = { ...current, steps: [...current.steps, { command: `jp q ${JSON.stringify(q)}`, cycles: [] }] };
    const played = playAutoTurn(current, run);
    expect(played.stopped).toBeUndefined();
    current = played.doc;
    turns.push([...played.moves]);
  }
  return { doc: current, turns };
}

const QUERIES = ['Why did the last deploy of the api fail?', 'Did it raise errors in Sentry?', 'Open a Linear issue for the failing orders test'];

describe('the auto model on the demo', () => {
  it('plays the demo\'s questions and the Linear request sensibly, under bm25', () => {
    const { doc, turns } = playAll({ ...demo(), steps: [] }, QUERIES);
    expect(turns.map((t) => t.map(shown))).toEqual([
      ['search deploy api fail', 'call github_get_job_logs {"owner":"<owner>","repo":"<repo>"}', 'reply'],
      ['search raise errors sentry', 'call sentry_list_issues {"project":"<project>","query":"raise errors"}', 'reply'],
      ['search create linear issue failing orders test', 'call linear_create_issue {"team":"<team>","title":"Failing orders test"}', 'reply'],
    ]);
    // The reasons a presenter reads: why it searched, why it skipped a tool that would change things.
    expect(turns[0]?.[0]?.why).toMatch(/^no offered tool covers the request/u);
    expect(turns[0]?.[1]?.why).toContain('deploy_staging would deploy, which the request did not ask for');
    expect(turns[1]?.[1]?.why).toContain('sentry_resolve_issue would resolve');
    expect(turns[2]?.[1]?.why).toContain('does "create", as the request asks');
    expect(turns[2]?.[2]).toMatchObject({ kind: 'reply', text: expect.stringContaining('From linear_create_issue') as unknown });
    // What it played is an ordinary scenario: it runs, every step without an error.
    const t = run(doc);
    expect(t?.steps.map((s) => s.error)).toEqual([undefined, undefined, undefined]);
    expect(t?.steps[2]?.sets.offered).toContain('linear_create_issue');
  });

  it('under substring ranking it narrows an empty search to one word, and says when nothing fits', () => {
    const d = demo();
    const { turns } = playAll({ ...d, policy: { ...d.policy, ranking: 'substring' }, steps: [] }, QUERIES.slice(0, 2));
    expect(turns[0]?.map(shown)).toEqual(['search deploy api fail', 'search deploy', 'reply']);
    expect(turns[0]?.[2]?.why).toBe('the search found no tool that fits: deploy_staging would deploy, which the request did not ask for');
    expect(turns[1]?.map(shown)).toEqual(['search raise errors sentry', 'search sentry', 'call sentry_list_issues {"project":"<project>","query":"raise errors"}', 'reply']);
  });

  it('is the same for the same document (deterministic)', () => {
    const a = playAll({ ...demo(), steps: [] }, QUERIES.slice(0, 1));
    const b = playAll({ ...demo(), steps: [] }, QUERIES.slice(0, 1));
    expect(b.doc).toEqual(a.doc);
  });
});

describe('playing a turn', () => {
  it('reads a headless input from a timeline: the request\'s permitted tools and the turn\'s earlier calls', () => {
    const doc = demo();
    const t = run(doc);
    if (!t) throw new Error('no run');
    const input = autoInputAt(t, 1, 2, 'Why?');
    expect(input?.cycles).toBe(1);
    expect(input?.calls.map((c) => c.tool)).toEqual(['search_tools']);
    expect(input?.tools.find((x) => x.name === 'github_get_job_logs')).toMatchObject({ offered: true });
    expect(input?.tools.find((x) => x.name === 'sentry_list_issues')).toMatchObject({ offered: false });
    expect(input?.tools.every((x) => x.definition !== undefined)).toBe(true);
    expect(autoInputAt(t, 1, 9, 'Why?')).toBeUndefined();
  });

  it('finds the open turn and writes each action as the open cycle\'s response', () => {
    const doc: ScenarioDoc = { ...demo(), steps: [{ command: "jp q 'hello'", cycles: [] }] };
    const open = openTurn(doc);
    expect(open).toMatchObject({ stepIndex: 0, query: 'hello', cycle: 1 });
    const step = withAction(open!.step, { kind: 'search', query: 'x', limit: 3, why: '' });
    expect(step.cycles).toEqual([{ calls: [{ tool: 'search_tools', args: { query: 'x', limit: 3 } }] }, { calls: [] }]);
    expect(openTurn({ ...doc, steps: [step] })?.cycle).toBe(2);
    expect(openTurn({ ...doc, steps: [withAction(step, { kind: 'reply', text: 'ok', why: '' })] })).toBeUndefined();
    expect(openTurn({ ...doc, steps: [{ command: 'jp config set --id a=b', cycles: [] }] })).toBeUndefined();
  });

  it('stops, saying why, when no turn awaits the model or the open turn sent no request', () => {
    expect(playAutoTurn(demo(), run).stopped).toBe('no turn awaits the model');
    const failing: ScenarioDoc = { ...demo(), steps: [{ command: "jp q -t nope 'x'", cycles: [] }] };
    expect(playAutoTurn(failing, run).stopped).toContain('sent no request');
  });
});
