import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scenarioDocFromText } from '../core';
import type { ScenarioDoc } from '../core';
import { DeriveHost } from './host';
import { cacheDifference } from './labHost';
import { SharedIndexes } from './searchIndexes';
import { deriveWhole } from './testing';

const demoText = readFileSync(new URL('../app/demo-scenario.toml', import.meta.url), 'utf8');

function doc(text: string): ScenarioDoc {
  const d = scenarioDocFromText(text);
  if (!d.ok) throw new Error(d.errors[0]?.message);
  return d.doc;
}

const tiny = (summary: string) => `name = "tiny"
[[layers]]
name = "w"
text = '''
[conversation.tools.alpha]
source = "local"
enable = "discoverable"
summary = "${summary}"
[conversation.tools.beta]
source = "local"
enable = "on"
summary = "b"
'''
[[steps]]
command = "jp q 'x'"
  [[steps.cycles]]
    [[steps.cycles.calls]]
    tool = "search_tools"
    args = { query = "zebra" }
  [[steps.cycles]]
  reply = "ok"
`;

describe('shared search indexes', () => {
  it('rebuild when a tool text changes, even at the same catalogue size (the core IndexCache key would not)', () => {
    const host = new DeriveHost();
    deriveWhole(host, { doc: doc(tiny('giraffe')), revision: 1 });
    const v = deriveWhole(host, { doc: doc(tiny('zebra')), revision: 2 });
    expect(v.entries.find((e) => e.kind === 'call')?.search?.returned.map((r) => r.name)).toEqual(['alpha']);
  });

  it('build once per distinct catalogue, whatever the array identity', () => {
    const indexes = new SharedIndexes();
    const docs = [{ name: 'a', order: 0, parameterNames: [], summary: 's', description: '', parameterDescriptions: [] }];
    const [substring] = indexes.bases;
    if (!substring) throw new Error('no ranker');
    const first = indexes.index(substring, docs);
    expect(indexes.index(substring, [...docs])).toBe(first);
    expect(indexes.builds).toBe(1);
    indexes.index(substring, [{ ...docs[0]!, summary: 't' }]);
    expect(indexes.builds).toBe(2);
  });
});

describe('lab methods', () => {
  const host = new DeriveHost();
  const view = deriveWhole(host, { doc: doc(demoText), revision: 7 });

  it('search: both rankings over the searchable set at a position, with fields and status', () => {
    const r = host.call('search', { revision: 7, position: 0, query: 'workflow logs', limit: 5 });
    expect(r.rankings.map((x) => x.id)).toEqual(['substring', 'bm25']);
    expect(r.rankings.find((x) => x.active)?.id).toBe('bm25');
    const bm25 = r.rankings[1];
    expect(bm25?.hits[0]?.name).toBe('github_get_job_logs');
    expect(bm25?.hits[0]?.fields).toContain('name');
    expect(bm25?.hits.every((h) => h.status === 'usable')).toBe(true);
    expect(r.searchable).toBe(27);
    // Already-offered tools never appear: at the last position the promoted ones are on.
    const later = host.call('search', { revision: 7, position: view.positions.length - 1, query: 'workflow logs', limit: 5 });
    expect(later.rankings[1]?.hits.map((h) => h.name)).not.toContain('github_get_job_logs');
  });

  it('search: the contract errors (empty query) come back as an error', () => {
    expect(host.call('search', { revision: 7, position: 0, query: '  ', limit: 5 }).error).toBe('query must not be empty');
  });

  it('evalQueries: recall@k and MRR per ranking, misses, and bad lines reported', () => {
    const e = host.call('evalQueries', { revision: 7, position: 0, text: '{"query":"crash stack","relevant":["sentry_get_issue_events"]}\nnot json\n' });
    expect(e.queries).toBe(1);
    expect(e.errors).toEqual([expect.stringMatching(/^line 2, column 1: not JSON: /u)]);
    expect(e.rankings.find((r) => r.id === 'bm25')?.mrr).toBe(1);
    expect(e.rankings.find((r) => r.id === 'substring')?.misses).toHaveLength(1);
  });

  it('tools: the permitted set of a request, offered flagged, with parameters', () => {
    const t = host.call('tools', { revision: 7, id: 1 });
    expect(new Set(t.tools.filter((x) => x.offered).map((x) => x.name))).toEqual(new Set(view.requests[1]?.offered));
    expect(t.tools).toHaveLength(view.requests[1]?.permittedCount ?? -1);
    const logs = t.tools.find((x) => x.name === 'github_get_job_logs');
    expect(logs?.params.filter((p) => p.required).map((p) => p.name)).toEqual(['owner', 'repo']);
  });

  it("tools: each tool's effective run mode, so the page can tell which calls of the model run without a question (issue 33)", () => {
    const t = host.call('tools', { revision: 7, id: 1 });
    expect(t.tools.find((x) => x.name === 'fs_read_file')?.run).toBe('unattended');
    // Set by the workspace's '*' only: the fallback is its run.
    expect(t.tools.find((x) => x.name === 'github_get_job_logs')?.run).toBe('ask');
  });

  it('tokens: offered and permitted definition tokens per request', async () => {
    const t = await host.call('tokens', { revision: 7 });
    expect(t.counter).toBe('o200k_base');
    expect(t.label).toMatch(/^estimate: o200k_base over the \S+ tools JSON$/);
    expect(t.why).toContain('publishes no tokenizer');
    expect(t.requests).toHaveLength(view.requests.length);
    for (const r of t.requests) expect(r.permitted).toBeGreaterThanOrEqual(r.offered);
  });

  it('request: a miss after a promotion carries the window around the first difference', () => {
    const d = host.request({ revision: 7, id: 1 });
    expect(d.cache.status).toBe('miss');
    expect(d.difference?.section).toBe('tools');
    expect(d.difference?.previous.startsWith(d.difference.current)).toBe(false);
    expect(d.difference?.current).toMatch(/^github_list_workflow_runs/u);
  });

  it('policyDiff: promoted_position reorders the arrays of the requests after a promotion', async () => {
    const p = await host.call('policyDiff', { doc: doc(demoText), key: 'promoted_position', value: 'append' });
    expect(p.from).toBe('config_order');
    expect(p.rows.length).toBeGreaterThan(0);
    expect(p.rows.every((r) => r.changes.some((c) => c.what.startsWith('tools array order')))).toBe(true);
    expect(p.expectations.after.failed).toBe(0);
    const same = await host.call('policyDiff', { doc: doc(demoText), key: 'hide_unapproved', value: false });
    expect(same.rows).toEqual([]);
  });

  it('policyDiff: the directives provider keeps the prefix across discoveries, in the one cache word (issue 24.6)', async () => {
    const p = await host.call('policyDiff', { doc: doc(demoText), key: 'provider', value: 'anthropic-directives' });
    expect(p.cache.after.reused).toBeGreaterThan(p.cache.before.reused);
    expect(p.cache.after.requests).toBe(p.cache.before.requests);
    const changes = p.rows.flatMap((r) => r.changes.filter((c) => c.what === 'cache prefix'));
    expect(changes.length).toBeGreaterThan(0);
    for (const c of changes) for (const side of [c.before, c.after]) expect(side).toMatch(/^(prefix reused|prefix changed|first request) \(/u);
  });
});

describe('cacheDifference', () => {
  it('maps the UTF-8 byte offset to characters and windows both texts', () => {
    const prev = 'héllo [a,b]';
    const cur = 'héllo [a,c]';
    // 'h' 1 + 'é' 2 + 'llo [a,' 7 = byte 10, character 9.
    const d = cacheDifference(prev, cur, { offset: 10, section: 'tools' }, 4);
    expect(d.before).toBe(' [a,');
    expect(d.before.length).toBeLessThanOrEqual(4);
    expect(d.previous).toBe('b]');
    expect(d.current).toBe('c]');
    expect(d.clipped).toBe(true);
  });
});
