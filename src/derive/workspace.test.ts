// The derive host over a JP workspace: JP's own `.jp` folder loads with each persona, "make
// discoverable" ranks and writes its layer deterministically, and the saving is measured per request.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTomlTree } from '../cli/workspace';
import { DEFAULT_POLICY, parseToml } from '../core';
import type { ScenarioDoc } from '../core';
import { callCounts, GENERATED_LAYER, planDiscoverable } from './discoverable';
import { DeriveHost } from './host';
import type { WorkspaceInput } from './workspaceProtocol';
import { deriveWhole } from './testing';

const jpFolder = resolve(__dirname, '../../../shared/data/jp-workspace/.jp');
const files: WorkspaceInput = { version: 1, files: Object.fromEntries(readTomlTree(jpFolder)) };

function doc(persona: string | undefined, layers: ScenarioDoc['layers'] = []): ScenarioDoc {
  return {
    name: 'ws',
    policy: DEFAULT_POLICY,
    layers,
    servers: [],
    workspace: { path: '.jp', ...(persona !== undefined ? { persona } : {}) },
    steps: [
      {
        command: "jp q 'Fix the failing test in jp_config'",
        cycles: [
          { calls: [{ tool: 'cargo_test', args: {}, result: 'FAILED' }] },
          { calls: [{ tool: 'fs_read_file', args: { path: 'src/lib.rs' } }] },
          { calls: [], reply: 'Fixed.' },
        ],
      },
    ],
  };
}

describe('planDiscoverable', () => {
  const tools = ['a', 'b', 'c', 'd', 'off_server'].map((name, order) => ({ name, order, permitted: name !== 'off_server', cost: 100 }));
  const input = {
    persona: 'dev',
    keep: 2,
    tools,
    calls: new Map([['c', 1]]),
    personaFiles: [
      { name: 'p.toml', text: 'use d and d, and off_server off_server off_server off_server\n[conversation.tools]\nb = true\n' },
      { name: 's.toml', text: "d_x is not d; 'b'\n" },
    ],
  };

  it('ranks by calls, then mentions in the persona files, then catalogue order; offline tools take no place', () => {
    const plan = planDiscoverable(input);
    expect(plan.ranked.map((t) => [t.name, t.calls, t.mentions, t.files])).toEqual([
      ['c', 1, 0, 0],
      ['off_server', 0, 4, 1],
      ['d', 0, 3, 2],
      ['b', 0, 2, 2],
      ['a', 0, 0, 0],
    ]);
    expect(plan.kept).toEqual(['c', 'd']);
    expect(plan.discoverable).toEqual(['off_server', 'b', 'a']);
  });

  it('writes a layer of its own that parses, with one enable = "discoverable" table per tool', () => {
    const plan = planDiscoverable({ ...input, tools: [...tools, { name: 'odd name\n', order: 9, permitted: true, cost: 1 }] });
    const parsed = parseToml(plan.layerText);
    expect(parsed.errors).toEqual([]);
    expect(plan.layerText).toContain('[conversation.tools."odd name\\n"]');
    expect(plan.layerText).toContain('#   1. c: 1 call, 0 mentions');
    expect(plan.layerText.match(/enable = "discoverable"/gu)).toHaveLength(4);
    expect(planDiscoverable(input).layerText).toBe(planDiscoverable(input).layerText);
  });

  it('counts calls across steps and cycles', () => {
    expect([...callCounts(doc('dev').steps)]).toEqual([['cargo_test', 1], ['fs_read_file', 1]]);
  });
});

describe('DeriveHost with a workspace', () => {
  it('loads JP\'s own workspace: dev has 37 on (describe_tools included) and offers 32; pr-triager 34 on', () => {
    const host = new DeriveHost();
    const dev = deriveWhole(host, { doc: doc('dev'), revision: 1, workspace: files });
    expect(dev.scenarioErrors).toEqual([]);
    expect(dev.workspace).toMatchObject({ loaded: true, persona: 'dev', personaFile: 'config/personas/dev.toml', counts: { on: 37, offered: 32 } });
    expect(dev.workspace?.personas).toHaveLength(13);
    expect(dev.workspace?.personas).toEqual(expect.arrayContaining(['dev', 'pr-triager']));
    expect(dev.workspace?.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(host.sets({ revision: 1, position: 0 }).counts.offered).toBe(32);
    const pr = deriveWhole(host, { doc: doc('pr-triager'), revision: 2, workspace: files });
    expect(pr.workspace?.counts.on).toBe(34);
    const none = deriveWhole(host, { doc: doc(undefined), revision: 3, workspace: files });
    expect(none.workspace?.counts.on).toBe(2);
    // The builtins the "on" count holds, by name (issue 24.5): search_tools only once registered.
    expect(dev.workspace?.counts.builtins).toEqual(['describe_tools']);
    expect(none.workspace?.counts.builtins).toEqual(['describe_tools']);
  });

  it('runs without the files when none were given, and says so', () => {
    const host = new DeriveHost();
    const v = deriveWhole(host, { doc: doc('dev'), revision: 1 });
    expect(v.workspace).toMatchObject({ loaded: false, path: '.jp' });
  });

  it('links a tool\'s availability to the workspace file that decided it', () => {
    const host = new DeriveHost();
    deriveWhole(host, { doc: doc('dev'), revision: 1, workspace: files });
    const row = host.sets({ revision: 1, position: 0 }).rows.find((r) => r.name === 'fs_read_file');
    expect(row?.link).toMatchObject({ layer: 'config/skill/read-files.toml', line: 15 });
  });

  it('makes dev\'s tools discoverable and measures the saving on every request', async () => {
    const host = new DeriveHost();
    deriveWhole(host, { doc: doc('dev'), revision: 1, workspace: files });
    const plan = await host.call('discoverable', { revision: 1, keep: 10 });
    expect(plan.error).toBeUndefined();
    expect(plan.ranked).toHaveLength(36);
    expect(plan.kept).toBe(10);
    expect(plan.discoverable).toBe(26);
    expect(plan.ranked.slice(0, 2).map((t) => t.name)).toEqual(['cargo_test', 'fs_read_file']);
    expect(plan.ranked.filter((t) => t.name.startsWith('rust_')).every((t) => !t.kept)).toBe(true);
    expect(plan.applied).toBe(false);
    expect(plan.requests).toHaveLength(3);
    for (const r of plan.requests) {
      expect(r.before.tools).toBe(32);
      // 10 kept, describe_tools and search_tools (registered now that tools are discoverable).
      expect(r.after.tools).toBe(12);
      expect(r.after.bytes).toBeLessThan(r.before.bytes);
      expect(r.after.tokens).toBeLessThan(r.before.tokens);
    }

    // Applied: the generated layer is in the document, and the plan reads the same figures.
    const applied = doc('dev', [{ name: GENERATED_LAYER, text: plan.layerText }]);
    const view = deriveWhole(host, { doc: applied, revision: 2, workspace: files });
    expect(view.requests.map((r) => r.cost.offered)).toEqual(plan.requests.map((r) => r.after.bytes));
    const again = await host.call('discoverable', { revision: 2, keep: 10 });
    expect(again.applied).toBe(true);
    expect(again.requests).toEqual(plan.requests);
    // 10 kept, describe_tools and search_tools: the "on" count names both builtins it holds (issue 24.5).
    expect(view.workspace?.counts).toMatchObject({ on: 12, discoverable: 26, offered: 12, builtins: ['describe_tools', 'search_tools'] });
  });
});
