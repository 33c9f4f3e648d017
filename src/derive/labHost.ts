// The worker side of labProtocol.ts: views of the core's Timeline for the
// simulator, the request inspector, the cost chart, the search lab and the
// open-questions panel. Everything is read from what the core computed; the
// search lab searches the indexes the runs use (SharedIndexes), never one built
// per query.
import { checkExpectations, parseEvalQueries, playAutoTurn, runEval, runScenario, searchTools } from '../core';
import { parseDoc } from './document';
import type { ExpectationResult, Policy, PolicyKey, ScenarioDoc, Timeline, ToolState } from '../core';
import { searchDocument } from '../core/catalogue/search-document';
import type { ToolDefinition } from '../core/catalogue/types';
import { createTokenCounter } from '../core/providers/tokens';
import { tokenBasis, toolsArrayTokens } from '../core/providers/tool-tokens';
import { DEFAULT_PRICE_TABLE, TokenMemo, approximateTokenCounter, costOfTimeline } from '../core';
import type { PriceTable, TokenCounter } from '../core';
import type { SearchDocument } from '../core/search/types';
import type { AutoTurnView, CacheDifference, EvalView, PolicyDiffView, PromptCacheDiff, RequestToolsView, SearchHitView, SearchLabView, TokensView } from './labProtocol';
import { diffTimelines } from './policyDiff';
import type { SharedIndexes } from './searchIndexes';

const now = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now());

/** A window of the previous and the current request's bytes around the first difference. */
export function cacheDifference(previous: string, current: string, firstDifference: { offset: number; section: string }, width = 160): CacheDifference {
  // The core reports a UTF-8 byte offset; find the UTF-16 index of that byte in the current text.
  let bytes = 0;
  let i = 0;
  while (i < current.length && bytes < firstDifference.offset) {
    const c = current.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < current.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
    i++;
  }
  const from = Math.max(0, i - width);
  return {
    offset: firstDifference.offset,
    section: firstDifference.section,
    before: current.slice(from, i),
    previous: previous.slice(i, i + width),
    current: current.slice(i, i + width),
    clipped: from > 0,
  };
}

function paramType(schema: Record<string, unknown>): string {
  const t = schema.type;
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string').join(' | ');
  if (Array.isArray(schema.enum)) return 'enum';
  return 'any';
}

function toolView(name: string, def: ToolDefinition | undefined, offered: boolean): RequestToolsView['tools'][number] {
  const params = def
    ? [...def.parameters].map(([p, schema]) => ({
        name: p,
        type: paramType(schema),
        required: def.required.includes(p),
        description: def.docs.parameters.get(p)?.summary ?? (typeof schema.description === 'string' ? schema.description : ''),
      }))
    : [];
  return {
    name,
    offered,
    kind: def?.kind ?? 'builtin',
    summary: def?.docs.summary ?? def?.schemaDescription ?? '',
    params,
    ...(def ? { run: def.run } : {}),
    ...(def?.kind === 'mcp' && def.server !== undefined ? { server: def.server, backendName: def.backendName } : {}),
  };
}

/** The status a search_tools call made at this position would report (the fold's table, for a cycle's first write). */
function promotionStatus(state: ToolState | undefined, policy: Policy): 'usable' | 'unavailable' {
  const a = state?.enable.availability.value;
  if (a === 'discoverable') return policy.never_blocks_promotion && state?.enable.allowToggle.value === 'never' ? 'unavailable' : 'usable';
  return a === 'on' ? 'usable' : 'unavailable';
}

/** A document run for the lab: its timeline and the checker's results, or why it did not run. */
export interface LabRun {
  readonly timeline?: Timeline;
  readonly expectations?: readonly ExpectationResult[];
  readonly error?: string;
}

export class LabHost {
  private docsCache: { key: string; docs: SearchDocument[] } | undefined;
  private tokenCache: { revision: number; view: TokensView } | undefined;

  constructor(
    private readonly timelineOf: (revision: number) => Timeline,
    private readonly indexes: SharedIndexes,
    /** Runs a document as `derive` does (with its workspace layers, when it has some). */
    private readonly runner?: (doc: ScenarioDoc) => LabRun,
  ) {}

  /** Both runs' prompt-cache totals at the table's prices (o200k_base once loaded). */
  private promptDiff(a: Timeline, b: Timeline, table: PriceTable, counter: TokenCounter): PromptCacheDiff | undefined {
    try {
      const memo = new TokenMemo(counter);
      const ca = costOfTimeline(a, { table, counter: memo.counter, memo });
      const cb = costOfTimeline(b, { table, counter: memo.counter, memo });
      return {
        cacheRead: { before: ca.totals.cacheRead, after: cb.totals.cacheRead },
        usd: { before: ca.totals.money, after: cb.totals.money },
        model: { before: ca.model.id, after: cb.model.id },
        priced: ca.priced,
        money: ca.rules.money || cb.rules.money,
      };
    } catch {
      return undefined;
    }
  }

  /** Runs a document through the core with the shared indexes (for policyDiff). */
  run(doc: ScenarioDoc): LabRun {
    if (this.runner) return this.runner(doc);
    const parsed = parseDoc(doc).parse;
    if (!parsed.ok) return { error: parsed.errors[0]?.message ?? 'the scenario does not parse' };
    const timeline = runScenario({ scenario: parsed.scenario, rankers: this.indexes.rankerMap() });
    return { timeline, expectations: checkExpectations(parsed.scenario, timeline) };
  }

  /** The search documents of the catalogue at a position (what the run's search_tools indexed there). */
  private docsAt(t: Timeline, revision: number, position: number): { docs: SearchDocument[]; states: ReadonlyMap<string, ToolState> } {
    const states = t.statesAt(position);
    const key = `${revision}:${t.positions[position]?.catalogueVersion ?? 0}`;
    if (this.docsCache?.key !== key) {
      const docs: SearchDocument[] = [];
      for (const s of states.values()) if (s.resolution.ok) docs.push(searchDocument(s.resolution.definition, s.order));
      this.docsCache = { key, docs };
    }
    return { docs: this.docsCache.docs, states };
  }

  tools({ revision, id }: { revision: number; id: number }): RequestToolsView {
    const t = this.timelineOf(revision);
    const r = t.requests[id];
    if (!r) throw new Error(`no request ${id}`);
    const offered = new Set(r.sets.offered);
    return { id, tools: r.sets.permitted.map((name) => toolView(name, r.definitions.get(name), offered.has(name))) };
  }

  async tokens({ revision }: { revision: number }): Promise<TokensView> {
    if (this.tokenCache?.revision === revision) return this.tokenCache.view;
    const t = this.timelineOf(revision);
    const counter = await createTokenCounter();
    const defs = (names: readonly string[], map: ReadonlyMap<string, ToolDefinition>) => names.map((n) => map.get(n)).filter((d): d is ToolDefinition => d !== undefined);
    const provider = t.policy.provider;
    const basis = tokenBasis(provider, counter.id);
    const view: TokensView = {
      counter: counter.id,
      label: basis.label,
      why: basis.why,
      requests: t.requests.map((r) => ({
        offered: toolsArrayTokens(defs(r.sets.offered, r.definitions), provider, counter),
        permitted: toolsArrayTokens(defs(r.sets.permitted, r.definitions), provider, counter),
      })),
    };
    this.tokenCache = { revision, view };
    return view;
  }

  search({ revision, position, query, limit }: { revision: number; position: number; query: string; limit: number }): SearchLabView {
    const t = this.timelineOf(revision);
    const p = Math.max(0, Math.min(position, t.positions.length - 1));
    const { docs, states } = this.docsAt(t, revision, p);
    const searchable = new Set(t.setsAt(p).searchable);
    const policy = t.policy;
    const results = this.indexes.bases.map((ranker) => {
      const started = now();
      const index = this.indexes.index(ranker, docs);
      const r = searchTools(index, { query, limit }, {
        filter: (name) => searchable.has(name),
        substringMatch: policy.substring_match,
        reportMatchCount: true,
        ...(policy.hide_unapproved ? { exclude: (name: string) => states.get(name)?.run === 'ask' } : {}),
      });
      return { ranker, r, millis: now() - started };
    });
    const failed = results.find((x) => !x.r.ok);
    if (failed && !failed.r.ok) return { position: p, query, limit, searchable: searchable.size, rankings: [], error: failed.r.error };
    const hitLists = results.map((x) => (x.r.ok ? x.r.hits : []));
    const rankings = results.map((x, i) => {
      const other = hitLists[1 - i] ?? [];
      const otherRank = new Map(other.map((h, k) => [h.name, k + 1]));
      const hits: SearchHitView[] = (hitLists[i] ?? []).map((h) => {
        const state = states.get(h.name);
        const def = state?.resolution.ok ? state.resolution.definition : undefined;
        const rank = otherRank.get(h.name);
        return { name: h.name, score: h.score, fields: [...h.fields], status: promotionStatus(state, policy), summary: def?.docs.summary ?? '', ...(rank !== undefined ? { otherRank: rank } : {}) };
      });
      return {
        id: x.ranker.id, label: x.ranker.label, hits,
        total: x.r.ok ? (x.r.total ?? hits.length) : 0, millis: x.millis, active: policy.ranking === x.ranker.id,
      };
    });
    return { position: p, query, limit: results[0]?.r.ok ? results[0].r.limit : limit, searchable: searchable.size, rankings };
  }

  evalQueries({ revision, position, text }: { revision: number; position: number; text: string }): EvalView {
    const started = now();
    const t = this.timelineOf(revision);
    const p = Math.max(0, Math.min(position, t.positions.length - 1));
    const { docs } = this.docsAt(t, revision, p);
    const { queries, errors } = parseEvalQueries(text);
    const report = runEval(docs, queries, this.indexes.rankers());
    return {
      queries: report.queries,
      ks: report.ks,
      errors,
      tools: docs.length,
      rankings: report.rankings.map((r) => ({ id: r.id, label: r.label, recall: [...r.recall], mrr: r.mrr, misses: r.misses.map((m) => ({ query: m.query, relevant: [...m.relevant], returned: [...m.returned] })) })),
      millis: now() - started,
    };
  }

  async policyDiff({ doc, key, value, table }: { doc: ScenarioDoc; key: PolicyKey; value: Policy[PolicyKey]; table?: PriceTable }): Promise<PolicyDiffView> {
    // Awaited, not read if loaded: a diff asked before the worker's early load finished was counted in bytes/4.
    const counter = await createTokenCounter().catch(() => approximateTokenCounter);
    const started = now();
    const from = doc.policy[key];
    const a = this.run(doc);
    const b = this.run({ ...doc, policy: { ...doc.policy, [key]: value } });
    if (!a.timeline || !b.timeline) {
      const empty = { before: 0, after: 0, changed: 0 };
      return {
        key, from, to: value, rows: [], requests: empty, calls: empty,
        expectations: { before: { passed: 0, failed: 0 }, after: { passed: 0, failed: 0 } },
        cache: { before: { reused: 0, requests: 0 }, after: { reused: 0, requests: 0 } }, cost: { before: 0, after: 0 },
        scenarioError: a.error ?? b.error ?? 'the scenario does not run', millis: now() - started,
      };
    }
    const prompt = this.promptDiff(a.timeline, b.timeline, table ?? DEFAULT_PRICE_TABLE, counter);
    return { key, from, to: value, ...diffTimelines(a.timeline, b.timeline, { before: a.expectations ?? [], after: b.expectations ?? [] }), ...(prompt ? { prompt } : {}), millis: now() - started };
  }

  autoTurn({ doc, stepIndex }: { doc: ScenarioDoc; stepIndex: number }): AutoTurnView {
    const played = playAutoTurn(doc, (d) => this.run(d).timeline, stepIndex);
    const step = played.doc.steps[stepIndex];
    return { stepIndex, ...(step ? { step } : {}), moves: played.moves, ...(played.stopped !== undefined ? { stopped: played.stopped } : {}) };
  }
}
