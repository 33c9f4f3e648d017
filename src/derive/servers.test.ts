// The derive host's servers methods (run directly, as the worker runs them): an
// import preview of the real GitHub catalogue, refusals, the servers view with
// each server's places, an offline server's tools leaving, and the chart's
// selection threshold. And the import slice: one revision per import, undo that
// keeps later edits.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyImport, EMPTY_DOC } from '../core';
import type { ScenarioDoc } from '../core';
import { createWorkbenchStore } from '../state/store';
import { DeriveHost } from './host';
import { selectionThreshold } from './serversHooks';

const GITHUB = readFileSync(resolve(__dirname, '../../../shared/data/catalogues/github-mcp-server.tools-list.json'), 'utf8');
const BLANK: ScenarioDoc = { ...EMPTY_DOC, layers: [{ name: 'workspace', text: '' }] };
const policy = { kind: 'discoverable' as const, keep: 8, offDestructive: true };

describe('importPreview', () => {
  it('reads, generates and measures the GitHub catalogue in the worker', async () => {
    const host = new DeriveHost();
    host.derive({ doc: BLANK, revision: 1 });
    const p = await host.call('importPreview', { source: { kind: 'text', text: GITHUB }, origin: 'github-mcp-server.tools-list.json', policy, revision: 1 });
    if (!p.ok) throw new Error(p.errors.join('\n'));
    expect(p.form).toBe('tools/list');
    expect(p.servers).toEqual([{ name: 'github', tools: 117 }]);
    expect(p.result.counts).toEqual({ on: 8, discoverable: 99, off: 10 });
    // Tokens over the Anthropic tools JSON (the default provider); JP's own measure (name + description + schema) gives 23,270.
    // All on as JP runs today: the 10 destructive tools the policy starts off stay off (issue 24.5).
    expect(p.savings.all).toEqual({ tools: 108, bytes: 91_528, tokens: 20_720 });
    expect(p.savings.tokenBasis?.label).toBe('estimate: o200k_base over the anthropic tools JSON');
    expect(p.savings.counter).toBe('o200k_base');
    expect(p.savings.rfd.verdict).toBe('within');
  });

  it('live tools go through the same checks; a renamed server and its URL land in the result', async () => {
    const host = new DeriveHost();
    host.derive({ doc: BLANK, revision: 1 });
    const tools = [{ name: 'echo', description: 'Echo.', inputSchema: { type: 'object' } }];
    const p = await host.call('importPreview', { source: { kind: 'tools', tools, bytes: 80 }, origin: 'http://127.0.0.1:1/mcp', url: 'http://127.0.0.1:1/mcp', serverNames: ['everything'], policy, revision: 1 });
    expect(p.ok && p.result.servers[0]).toMatchObject({ name: 'everything', url: 'http://127.0.0.1:1/mcp', status: 'running' });
    const bad = await host.call('importPreview', { source: { kind: 'tools', tools: [{ name: 'x', inputSchema: [] }], bytes: 30 }, origin: 'live', policy, revision: 1 });
    expect(bad.ok ? '' : bad.errors.join('\n')).toMatch(/inputSchema must be an object, got an array/u);
  });

  it('pasted JSON nested 100,000 levels deep gets a sentence, not "Maximum call stack size exceeded"', async () => {
    const host = new DeriveHost();
    host.derive({ doc: BLANK, revision: 1 });
    let schema = '{"type":"string"}';
    for (let i = 0; i < 100_000; i++) schema = `{"type":"object","properties":{"a":${schema}}}`;
    const p = await host.call('importPreview', { source: { kind: 'text', text: `{"tools":[{"name":"deep","inputSchema":${schema}}]}` }, origin: 'pasted JSON', policy, revision: 1 });
    const errors = p.ok ? '' : p.errors.join('\n');
    expect(errors).toMatch(/pasted JSON/u);
    expect(errors).toMatch(/too deeply|deeper|depth|nest/iu);
    expect(errors).not.toMatch(/Maximum call stack/u);
  });
});

describe('serversView', () => {
  it("places each server's tools and measures the savings; an offline server's tools leave", async () => {
    const host = new DeriveHost();
    host.derive({ doc: BLANK, revision: 1 });
    const p = await host.call('importPreview', { source: { kind: 'text', text: GITHUB }, origin: 'gh.json', serverNames: ['gh'], policy, revision: 1 });
    if (!p.ok) throw new Error('refused');
    const doc = applyImport(BLANK, p.result);
    host.derive({ doc, revision: 2 });
    const view = await host.call('serversView', { revision: 2, position: 0 });
    const gh = view.servers.find((s) => s.name === 'gh');
    expect(gh?.places).toHaveLength(117);
    expect(gh?.places.find((x) => x.name === 'get_me')).toMatchObject({ availability: 'on', offeredIndex: 1 });
    expect(view.savings.servers[0]).toMatchObject({ server: 'gh', searchable: 99 });

    const offline = { ...doc, servers: doc.servers.map((s) => ({ ...s, status: 'offline' as const })) };
    host.derive({ doc: offline, revision: 3 });
    const sets = host.sets({ revision: 3, position: 0 });
    expect(sets.rows.filter((r) => r.server === 'gh' && r.permitted)).toEqual([]);
    // Only the builtins: search_tools stays registered (offline discoverable tools still count for it).
    expect(sets.rows.filter((r) => r.permitted).map((r) => r.name)).toEqual(['describe_tools', 'search_tools']);
  });
});

describe('the 30–50-tool threshold on the cost chart', () => {
  it('30 tools at the average cost per permitted tool, once a request permits 30', () => {
    const r = (permittedCount: number, permitted: number) => ({ permittedCount, cost: { permitted } });
    expect(selectionThreshold([r(5, 500)], 'bytes', undefined)).toBeUndefined();
    expect(selectionThreshold([r(10, 1000), r(100, 50_000)], 'bytes', undefined)).toEqual({ value: 15_000, label: '30–50 tools: selection degrades (30 tools ≈ 15,000 B)' });
    expect(selectionThreshold([r(100, 50_000)], 'tokens', [{ permitted: 12_000 }])?.value).toBe(3_600);
  });
});

describe('the import slice', () => {
  it('one revision per import; undo removes exactly what it added and keeps later edits', async () => {
    const store = createWorkbenchStore(BLANK);
    const host = new DeriveHost();
    host.derive({ doc: BLANK, revision: 1 });
    const p = await host.call('importPreview', { source: { kind: 'text', text: GITHUB }, origin: 'gh.json', policy, revision: 1 });
    if (!p.ok) throw new Error('refused');
    const r0 = store.getState().revision;
    store.getState().commitImport(applyImport(store.getState().doc, p.result), { layer: p.result.layer.name, servers: p.result.servers.map((x) => x.name) }, 'imported');
    expect(store.getState().revision).toBe(r0 + 1);
    store.getState().setLayerText(0, '# edited after the import\n');
    store.getState().undoImport();
    const doc = store.getState().doc;
    expect(doc.servers).toEqual([]);
    expect(doc.layers).toEqual([{ name: 'workspace', text: '# edited after the import\n' }]);
  });
});
