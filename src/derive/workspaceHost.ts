// The worker side of workspaceProtocol.ts: loads a JP workspace's files into layers with the
// core's loader (cached while the files and the persona stay the same), describes the load for the
// workspace panel, and plans "make discoverable" with its saving per request. It only reads what
// the core computed.
import { approximateTokenCounter, toolCount, checkExpectations, DefinitionCache, definitionCost, LayerCache, loadWorkspace, runScenario, WORKSPACE_CONFIG } from '../core';
import { parseDoc } from './document';
import type { ExpectationResult, Scenario, ScenarioDoc, Timeline, TokenCounter, WorkspaceLoad } from '../core';
import type { ToolDefinition } from '../core/catalogue/types';
import type { Ranker } from '../core/search/types';
import { createTokenCounter } from '../core/providers/tokens';
import { tokenBasis, toolsArrayTokens } from '../core/providers/tool-tokens';
import { callCounts, GENERATED_LAYER, planDiscoverable } from './discoverable';
import type { CostFigures, DiscoverableView, WorkspaceInput, WorkspaceView } from './workspaceProtocol';

export interface LoadedWorkspace {
  readonly input: WorkspaceInput;
  readonly load: WorkspaceLoad;
}

/** What the host keeps of a recent derivation. */
export interface RecentDerivation {
  readonly doc: ScenarioDoc;
  readonly timeline?: Timeline;
  readonly workspace?: LoadedWorkspace;
}

/** The files the persona brought: the layers after the workspace's own config.toml. */
export function personaLayers(load: WorkspaceLoad): string[] {
  if (load.personaFile === undefined) return [];
  const names = load.layers.map((l) => l.name);
  return names.slice(names.indexOf(WORKSPACE_CONFIG) + 1);
}

export class WorkspaceHost {
  private cache: { version: number; persona: string | undefined; load: WorkspaceLoad } | undefined;
  private counter: TokenCounter | undefined;
  /** Typing in one layer re-reads only that layer (the workspace's and the other layers are kept). */
  readonly layerCache = new LayerCache();
  /** ...and rebuilds only the definitions whose tool config changed (the host's views read them here too). */
  readonly definitions = new DefinitionCache();

  constructor(
    private readonly recent: (revision: number) => RecentDerivation | undefined,
    private readonly rankers: () => ReadonlyMap<string, Ranker>,
  ) {}

  /** The workspace of a document, when it names one and its files were given. */
  load(doc: ScenarioDoc, input: WorkspaceInput | undefined): LoadedWorkspace | undefined {
    if (!doc.workspace || !input) return undefined;
    const persona = doc.workspace.persona;
    if (this.cache?.version !== input.version || this.cache.persona !== persona) {
      const files = new Map(Object.entries(input.files));
      this.cache = { version: input.version, persona, load: loadWorkspace(files, persona !== undefined ? { persona } : {}) };
    }
    return { input, load: this.cache.load };
  }

  /** Runs a document over a loaded workspace (as `derive` does). */
  run(doc: ScenarioDoc, ws: LoadedWorkspace | undefined): { timeline?: Timeline; expectations?: readonly ExpectationResult[]; errors: string[] } {
    const parsed = parseDoc(doc).parse;
    if (!parsed.ok) return { errors: parsed.errors.map((e) => e.message) };
    const timeline = this.runParsed(parsed.scenario, ws);
    return { timeline, expectations: checkExpectations(parsed.scenario, timeline), errors: [] };
  }

  /** Runs a parsed scenario with the workspace's layers below its own. */
  runParsed(scenario: Scenario, ws: LoadedWorkspace | undefined): Timeline {
    return runScenario({
      scenario,
      rankers: this.rankers(),
      layerCache: this.layerCache,
      definitionCache: this.definitions,
      ...(ws ? { workspaceLayers: ws.load.layers, workspaceDiagnostics: ws.load.loadDiagnostics } : {}),
    });
  }

  view(doc: ScenarioDoc, ws: LoadedWorkspace | undefined, t: Timeline | undefined): WorkspaceView | undefined {
    if (!doc.workspace) return undefined;
    const base = { path: doc.workspace.path, ...(doc.workspace.persona !== undefined ? { persona: doc.workspace.persona } : {}) };
    const counts: WorkspaceView['counts'] = { configured: 0, on: 0, discoverable: 0, permitted: 0, offered: 0, builtins: [] };
    if (t && t.positions.length > 0) {
      const states = t.statesAt(0);
      const sets = t.setsAt(0);
      let on = 0;
      let discoverable = 0;
      for (const s of states.values()) {
        if (s.enable.availability.value === 'on') on += 1;
        else if (s.enable.availability.value === 'discoverable') discoverable += 1;
      }
      // The builtins (describe_tools, and search_tools once registered) are on: the one count of tools
      // names them (issue 24.5), so the panel's "included" says which.
      const tools = toolCount(states.size, t.positions[0]?.registered ?? false);
      Object.assign(counts, { configured: tools.total, on: on + tools.builtins.length, discoverable, permitted: sets.permitted.length, offered: sets.offered.length, builtins: tools.builtins });
    }
    if (!ws) return { ...base, loaded: false, personas: [], loadPaths: [], layers: [], personaLayers: [], fileCount: 0, diagnostics: [], counts };
    const { load } = ws;
    return {
      ...base,
      loaded: true,
      personas: load.personas,
      ...(load.personaFile !== undefined ? { personaFile: load.personaFile } : {}),
      loadPaths: load.loadPaths,
      layers: load.layers.map((l) => l.name),
      personaLayers: personaLayers(load),
      fileCount: Object.keys(ws.input.files).length,
      diagnostics: load.diagnostics,
      counts,
    };
  }

  private async tokenCounter(): Promise<TokenCounter> {
    if (!this.counter) {
      try {
        this.counter = await createTokenCounter();
      } catch {
        this.counter = approximateTokenCounter;
      }
    }
    return this.counter;
  }

  async discoverable({ revision, keep }: { revision: number; keep: number }): Promise<DiscoverableView> {
    const c = this.recent(revision);
    if (!c) throw new Error(`revision ${revision} is not a recent derivation`);
    const counter = await this.tokenCounter();
    const empty = { revision, keep, layerName: GENERATED_LAYER, layerText: '', applied: false, ranked: [], kept: 0, discoverable: 0, tokenCounter: tokenBasis(c.timeline?.policy.provider ?? 'anthropic', counter.id).label, requests: [] };
    if (!c.doc.workspace || !c.workspace) return { ...empty, error: 'Open a workspace folder first: this scenario has no workspace loaded.' };
    const persona = c.doc.workspace.persona;
    const ws = c.workspace;

    // Before: the document without the generated layer.
    const existing = c.doc.layers.findIndex((l) => l.name === GENERATED_LAYER);
    const beforeDoc: ScenarioDoc = existing < 0 ? c.doc : { ...c.doc, layers: c.doc.layers.filter((_, i) => i !== existing) };
    const before = existing < 0 && c.timeline ? c.timeline : this.run(beforeDoc, ws).timeline;
    if (!before) return { ...empty, error: 'The scenario does not parse; fix it first.' };

    const states = before.statesAt(0);
    const permitted = new Set(before.setsAt(0).permitted);
    const tools = [...states.values()]
      .filter((s) => s.enable.availability.value === 'on')
      .map((s) => ({ name: s.name, order: s.order, permitted: permitted.has(s.name), cost: s.resolution.ok ? definitionCost(s.resolution.definition) : 0 }));
    const files = new Set(personaLayers(ws.load));
    const plan = planDiscoverable({
      ...(persona !== undefined ? { persona } : {}),
      keep,
      tools,
      calls: callCounts(beforeDoc.steps),
      personaFiles: ws.load.layers.filter((l) => files.has(l.name)),
    });

    // After: the generated layer in place of the old one (or on top of the scenario's layers).
    const layer = { name: GENERATED_LAYER, text: plan.layerText };
    const applied = existing >= 0 && c.doc.layers[existing]?.text === plan.layerText;
    const afterDoc: ScenarioDoc = applied
      ? c.doc
      : { ...c.doc, layers: existing < 0 ? [...c.doc.layers, layer] : c.doc.layers.map((l, i) => (i === existing ? layer : l)) };
    const after = applied && c.timeline ? c.timeline : this.run(afterDoc, ws).timeline;
    if (!after) return { ...empty, error: 'The scenario does not parse with the generated layer.' };

    const figures = (t: Timeline, i: number): CostFigures => {
      const r = t.requests[i];
      if (!r) return { tools: 0, bytes: 0, tokens: 0 };
      const defs = r.sets.offered.map((n) => r.definitions.get(n)).filter((d): d is ToolDefinition => d !== undefined);
      return { tools: r.sets.offered.length, bytes: r.cost.offered, tokens: toolsArrayTokens(defs, t.policy.provider, counter) };
    };
    const n = Math.min(before.requests.length, after.requests.length);
    const requests = [];
    for (let i = 0; i < n; i++) {
      const r = after.requests[i];
      if (r) requests.push({ id: r.id, step: r.step, cycle: r.cycle, before: figures(before, i), after: figures(after, i) });
    }
    return {
      revision,
      ...(persona !== undefined ? { persona } : {}),
      keep,
      layerName: GENERATED_LAYER,
      layerText: plan.layerText,
      applied,
      ranked: plan.ranked.map((t) => ({ name: t.name, rank: t.rank, calls: t.calls, mentions: t.mentions, files: t.files, permitted: t.permitted, cost: t.cost, kept: t.kept })),
      kept: plan.kept.length,
      discoverable: plan.discoverable.length,
      tokenCounter: tokenBasis(after.policy.provider, counter.id).label,
      requests,
      ...(before.requests.length !== after.requests.length
        ? { note: `The two runs made different requests (${before.requests.length} before, ${after.requests.length} after); the first ${n} are compared.` }
        : {}),
    };
  }
}
