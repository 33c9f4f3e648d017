// The worker side of serversProtocol.ts: previews of a catalogue import (read,
// generated and run by the core, off the main thread) and the servers panel's
// view of the current timeline. Everything is read from what the core computed.
import { buildImport, discoverySavings, readCatalogue, readCatalogueValue, runScenario, serverNameFromFileName, serverSlug, tooDeepTool, DEFAULT_POLICY } from '../core';
import type { Catalogue, CatalogueRead, McpToolEntry, ScenarioDoc, StartingPolicy, Timeline, TokenCounter } from '../core';
import type { Scenario } from '../core/scenario/types';
import { createTokenCounter } from '../core/providers/tokens';
import type { ImportPolicyInput, ImportPreview, ImportPreviewParams, ServersView, ServerView } from './serversProtocol';

const now = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now());

export function startingPolicy(p: ImportPolicyInput): StartingPolicy {
  return { kind: p.kind, keep: p.keep, offDestructive: p.offDestructive, ...(p.servers ? { servers: new Map(p.servers) } : {}) };
}

const NO_SPAN = { start: 0, end: 0 };

/** A scenario holding only the import: its servers and its layer, no steps. */
function importScenario(catalogue: Catalogue, serverNames: readonly string[], layer: { name: string; text: string }): Scenario {
  return {
    name: 'import preview',
    policy: DEFAULT_POLICY,
    layers: [layer],
    servers: catalogue.servers.map((s, i) => ({ name: serverNames[i] ?? 'server', status: 'running', tools: s.tools as McpToolEntry[], span: NO_SPAN })),
    steps: [],
  };
}

/**
 * A read that a deeply nested catalogue overflows (every schema walk recurses) ends in a sentence,
 * never in "Maximum call stack size exceeded".
 */
function readBounded(read: () => CatalogueRead, origin: string): CatalogueRead {
  try {
    return read();
  } catch (e) {
    if (e instanceof RangeError) return { ok: false, errors: [`${origin} nests its JSON too deeply to read (a schema inside a schema, thousands of levels down); real catalogues nest fewer than 20 levels`] };
    throw e;
  }
}

export class ServersHost {
  private counter: Promise<TokenCounter> | undefined;
  /** The last text read, so changing the policy does not parse the file again. */
  private lastText: { text: string; origin: string; read: ReturnType<typeof readCatalogue> } | undefined;

  constructor(
    private readonly recent: (revision: number) => { doc: ScenarioDoc; timeline?: Timeline } | undefined,
  ) {}

  private tokens(): Promise<TokenCounter> {
    this.counter ??= createTokenCounter();
    return this.counter;
  }

  async importPreview(params: ImportPreviewParams): Promise<ImportPreview> {
    const started = now();
    let read: ReturnType<typeof readCatalogue>;
    if (params.source.kind === 'text') {
      const cached = this.lastText;
      const { text } = params.source;
      if (cached && cached.origin === params.origin && cached.text === text) read = cached.read;
      else {
        read = readBounded(() => readCatalogue(text, params.origin), params.origin);
        this.lastText = { text: params.source.text, origin: params.origin, read };
      }
    } else {
      const { tools, bytes } = params.source;
      read = readBounded(() => readCatalogueValue({ tools }, bytes, params.origin), params.origin);
    }
    if (!read.ok) return { ok: false, errors: read.errors };
    const tooDeep = tooDeepTool(read.catalogue.servers.flatMap((x) => x.tools), params.origin);
    if (tooDeep) return { ok: false, errors: [tooDeep] };
    const catalogue = read.catalogue;
    const into = this.recent(params.revision)?.doc;
    const single = catalogue.form !== 'multi-server';
    const names = catalogue.servers.map((s, i) => {
      const given = params.serverNames?.[i]?.trim();
      if (given) return given;
      return s.key ?? (single ? serverNameFromFileName(params.origin) : 'server');
    });
    const result = buildImport(catalogue, {
      policy: startingPolicy(params.policy),
      origin: params.origin,
      serverNames: names,
      ...(into ? { into } : {}),
      ...(params.url !== undefined ? { url: () => params.url } : {}),
    });
    const scenarioNames = result.servers.map((s) => s.name);
    const timeline = runScenario({ scenario: importScenario(catalogue, scenarioNames, result.layer) });
    const counter = await this.tokens();
    const savings = discoverySavings(timeline.statesAt(0).values(), timeline.setsAt(0), counter, timeline.policy.provider);
    return {
      ok: true,
      form: catalogue.form,
      bytes: catalogue.bytes,
      warnings: catalogue.warnings,
      servers: catalogue.servers.map((s, i) => ({
        ...(s.key !== undefined ? { key: s.key } : {}),
        name: scenarioNames[i] ?? 'server',
        ...(names[i] !== undefined && serverSlug(names[i]) !== scenarioNames[i] ? { taken: serverSlug(names[i]) } : {}),
        tools: s.tools.length,
        ...(s.description !== undefined ? { description: s.description } : {}),
        ...(s.category !== undefined ? { category: s.category } : {}),
        ...(s.serverInfo || s.protocolVersion !== undefined || s.instructions !== undefined || s.capabilities
          ? {
              about: {
                ...(s.serverInfo ? { serverInfo: s.serverInfo } : {}),
                ...(s.protocolVersion !== undefined ? { protocolVersion: s.protocolVersion } : {}),
                ...(s.instructions !== undefined ? { instructions: s.instructions } : {}),
                ...(s.capabilities ? { capabilities: s.capabilities } : {}),
              },
            }
          : {}),
      })),
      result,
      savings,
      millis: Math.round(now() - started),
    };
  }

  async serversView({ revision, position }: { revision: number; position: number }): Promise<ServersView> {
    const c = this.recent(revision);
    const t = c?.timeline;
    if (!c || !t) throw new Error(`revision ${revision} is not a recent derivation`);
    const p = Math.max(0, Math.min(position, t.positions.length - 1));
    const states = t.statesAt(p);
    const sets = t.setsAt(p);
    const offeredIndex = new Map(sets.offered.map((n, i) => [n, i]));
    const places = new Map<string, ServerView['places'][number][]>();
    for (const s of states.values()) {
      const src = s.config.source?.value;
      if (src?.kind !== 'mcp') continue;
      const list = places.get(src.server) ?? [];
      const index = offeredIndex.get(s.name);
      list.push({ name: s.name, backendName: src.tool ?? s.name, availability: s.enable.availability.value, ...(index !== undefined ? { offeredIndex: index } : {}) });
      places.set(src.server, list);
    }
    const counter = await this.tokens();
    const savings = discoverySavings(states.values(), sets, counter, t.policy.provider);
    return {
      revision,
      position: p,
      servers: c.doc.servers.map((s) => ({
        name: s.name,
        status: s.status,
        ...(s.url !== undefined ? { url: s.url } : {}),
        ...(s.catalogue !== undefined ? { catalogue: s.catalogue } : {}),
        listed: s.tools.length,
        places: places.get(s.name) ?? [],
      })),
      savings,
    };
  }
}
