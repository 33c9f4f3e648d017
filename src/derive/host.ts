// The derive host: runs the core on the scenario document and answers view
// queries. It lives in a Web Worker in the browser (worker.ts) and runs
// directly in tests. It only reads what the core computed.
import {
  LineIndex,
  originLabel,
  provenance,
  scenarioDocFromText,
  writeScenario,
  parseScenario,
  toJson,
  checkExpectations,
  reportHtml,
  rfdTables,
  summarizeCheck,
  approximateTokenCounter,
  recordableExpectations,
  toolCount,
  Derivation,
} from '../core';
import type { CheckReport, DerivationInput, ExpectationResult, PriceTable, RecordedStep, RfdTable, Scenario, Timeline, ScenarioDoc, TokenCounter } from '../core';
import type { ChartRows, DeriveStats, ProvenanceView, RequestDetail, SetsQuery, SetsView, SetsWindow, TimelineRow, TimelineSnapshot, TimelineView, TimelineWindow } from './protocol';
import { DerivationViews, MAX_WINDOW } from './views';

/** The timeline rows built between two pauses of a window (`timelineWindow`). */
const WINDOW_CHUNK = 8;
import { NO_SOURCE, WorkerDocument, docFromSource, parseDoc } from './document';
import { isMethod, methods } from './methods';
import { inSlices, noSlices, Superseded } from './dispatch';
import type { Slicer } from './dispatch';
import type { Answer, Answers, DeriveParams, HostName, MethodName, Params } from './methods';
import { cacheDifference, LabHost } from './labHost';
import { SharedIndexes } from './searchIndexes';
import { WorkspaceHost } from './workspaceHost';
import { ServersHost } from './serversHost';
import { FindabilityHost } from './findabilityHost';
import { CostHost } from './costHost';
import { TasksHost } from './tasksHost';
import { AbHost } from './abHost';
import { createTokenCounter, loadedTokenCounter } from '../core/providers/tokens';

/**
 * The counter cost expectations are checked with: o200k_base once loaded. A scenario that pins costs
 * starts the load (nothing else loads it before a figure counts tokens); until it lands
 * the figures are the labelled bytes/4 approximation.
 */
function costCounter(scenario: Scenario): TokenCounter | undefined {
  const counter = loadedTokenCounter();
  if (counter) return counter;
  const pins = scenario.steps.some((s) => s.cycles.some((c) => c.expect?.has('cache_tokens') || c.expect?.has('cost_usd')));
  if (pins) createTokenCounter().catch(() => undefined);
  return undefined;
}
function counterOf(scenario: Scenario): { counter?: TokenCounter } {
  const counter = costCounter(scenario);
  return counter ? { counter } : {};
}
import type { LoadedWorkspace } from './workspaceHost';

interface Current {
  revision: number;
  doc: ScenarioDoc;
  timeline?: Timeline;
  /** The parsed scenario and the checker's results, for the report. */
  scenario?: Scenario;
  expectations?: readonly ExpectationResult[];
  /** Its views, built as the page asks for them (views.ts). */
  views?: DerivationViews;
  /** The answer derive gave (the snapshot extends it). */
  view?: TimelineView;
  /** Whether `scenario` is a whole parse of `doc` (not one a layer edit swapped a text into). */
  exact?: boolean;
  /** The `[workspace]` folder's layers, when the scenario names one and the UI opened it. */
  workspace?: LoadedWorkspace;
}

/**
 * How many derivations the host keeps: the newest, and the one before it, which the page still shows
 * while the newest's answer is on its way (the inspector's request, the simulator's "ask the model"
 * await it). Each kept derivation holds its own layer text once a catalogue was edited (92 MB at
 * 100,000 tools) and its views' memos, and whatever lives that long is promoted to V8's old
 * generation, where it stays as garbage until a full collection: at three, the worker's heap grew
 * ~1.3 MB a keystroke at 1,000 tools. A call for an older revision is answered `superseded` (`kept`).
 */
const KEPT_DERIVATIONS = 2;

/** File offers held at once (DeriveHost.offers). */
const KEPT_OFFERS = 2;

export class DeriveHost {
  private current: Current | undefined;
  /** The newest KEPT_DERIVATIONS derivations, so a call asked for just before a newer derivation still answers. */
  private readonly recent = new Map<number, Current>();
  /** Search indexes shared by every run and the search lab (see searchIndexes.ts for why not the core's IndexCache). */
  private readonly indexes = new SharedIndexes();
  private readonly lab = new LabHost((revision) => this.timeline(revision), this.indexes, (doc) => {
    const r = this.workspace.run(doc, doc.workspace ? this.current?.workspace : undefined);
    return { ...(r.timeline ? { timeline: r.timeline } : {}), ...(r.expectations ? { expectations: r.expectations } : {}), ...(r.errors[0] !== undefined ? { error: r.errors[0] } : {}) };
  });
  private readonly workspace = new WorkspaceHost((revision) => this.recent.get(revision), () => this.indexes.rankerMap());
  private readonly servers = new ServersHost((revision) => this.recent.get(revision));
  private readonly layerLines = new Map<string, (offset: number) => { line: number; column: number }>();
  private readonly findabilityHost = new FindabilityHost((revision) => this.timeline(revision), this.indexes, (revision, layer, offset) => {
    const { line, column } = this.layerLink(revision, layer, offset);
    return { line, column };
  });
  private readonly cost = new CostHost((revision) => {
    const c = this.kept(revision);
    if (!c.timeline) throw new Error(`revision ${revision} is not a recent derivation`);
    const ws = c.workspace;
    return { timeline: c.timeline, doc: c.doc, run: (s) => this.workspace.runParsed(s, ws) };
  });

  /** The worker's copy of the document (what typing edits) and its incremental derivation. */
  private readonly document = new WorkerDocument();
  // Its layer and definition caches are the scratch runs' too (cost, tasks, findability run the same
  // layers): typing in a catalogue must not leave them to parse it again.
  private readonly derivation = new Derivation({ layerCache: this.workspace.layerCache, definitionCache: this.workspace.definitions });
  /** One map for every derivation: a new one would read to the Derivation as a changed input. */
  private readonly rankers = this.indexes.rankerMap();

  private readonly tasks = new TasksHost((revision) => {
    const c = this.kept(revision);
    if (!c.timeline) throw new Error(`revision ${revision} is not a recent derivation`);
    const ws = c.workspace;
    return { doc: c.doc, run: (s) => this.workspace.runParsed(s, ws) };
  });

  private readonly ab = new AbHost((revision) => {
    const c = this.kept(revision);
    if (!c.timeline) throw new Error(`revision ${revision} is not a recent derivation`);
    const ws = c.workspace;
    return { doc: c.doc, run: (s) => this.workspace.runParsed(s, ws) };
  });

  /**
   * Who answers each method of the table (methods.ts): this host its own, the sub-hosts theirs. Typed
   * so that a row routed to a host lacking that method, or answering it with another signature, fails
   * to compile.
   */
  private readonly answerers: { readonly [H in HostName]: Answers<H> } = {
    derive: this,
    lab: this.lab,
    cost: this.cost,
    workspace: this.workspace,
    servers: this.servers,
    findability: this.findabilityHost,
    tasks: this.tasks,
    ab: this.ab,
  };

  /** Whether the worker dispatches `name`: a row of the table, whose host has it (never a helper of a host). */
  answers(name: string): name is MethodName {
    return isMethod(name) && typeof (this.answerers[methods[name].host] as unknown as Readonly<Record<string, unknown>>)[name] === 'function';
  }

  /**
   * Answers a method of the table, and only those (the worker's dispatch.ts decides when). `slicer`:
   * where long work may give way between slices (the `supersede: 'settled'` rows).
   */
  call<M extends MethodName>(method: M, params: Params<M>, slicer: Slicer = noSlices): Answer<M> {
    if (!this.answers(method)) throw new Error(`no derive method ${String(method)}`);
    const host = this.answerers[methods[method].host] as unknown as Readonly<Record<string, (p: unknown, s: Slicer) => unknown>>;
    return (host[method] as (p: unknown, s: Slicer) => unknown).call(host, params, slicer) as Answer<M>;
  }

  /**
   * The files offered ahead (document.ts offerFile), as read, parsed and derived when they came, by
   * offer: the newest two. A second file opened before the first one's derivation was asked must not
   * make that derivation a resync (the page would send the first document whole, and it would be
   * derived again, before the second).
   */
  private readonly offers = new Map<number, { readonly doc?: ScenarioDoc; readonly parsed?: ReturnType<typeof parseDoc> }>();
  /** How the newest whole document came (stats). */
  private wholeFrom: DeriveStats['wholeFrom'];
  /** The workspace files of the last derivation: an offered file is derived ahead over them. */
  private lastFiles: DeriveParams['workspace'];

  /**
   * Takes an offered file's bytes (undefined: the worker could not read them): its document is parsed
   * and derived now, before the page has read its own copy, so the derivation naming the offer finds
   * the Derivation's work done (Derivation.run resumes an unchanged input at its last step). The
   * worker's current document and revision are left alone: a derivation of the document before the
   * open (a keystroke sent meanwhile) still applies.
   */
  offered(id: number, bytes: Uint8Array | undefined): void {
    // An older offer read after a newer one (its read was slower) is not derived over the newer one's work.
    if ([...this.offers.keys()].some((k) => k > id)) return;
    let doc: ScenarioDoc | undefined;
    try {
      doc = bytes ? docFromSource(bytes) : undefined;
    } catch {
      doc = undefined;
    }
    const parsed = doc ? parseDoc(doc) : undefined;
    this.offers.set(id, doc && parsed ? { doc, parsed } : {});
    for (const k of this.offers.keys()) if (this.offers.size > KEPT_OFFERS) this.offers.delete(k);
    if (!doc || !parsed?.parse.ok) return;
    this.derivation.run(this.derivationInput(parsed.parse.scenario, this.workspace.load(doc, this.lastFiles)));
  }

  /** What `derive` runs the Derivation on, so a file offered ahead is derived exactly as its derivation will be. */
  private derivationInput(scenario: Scenario, ws: ReturnType<WorkspaceHost['load']>): DerivationInput {
    return { scenario, rankers: this.rankers, ...(ws ? { workspaceLayers: ws.load.layers, workspaceDiagnostics: ws.load.loadDiagnostics } : {}) };
  }

  /** The offered document a derivation names, used up (with every older offer); a NO_SOURCE error (the page sends the document) when not held. */
  private takeOffer(id: number): [ScenarioDoc, ReturnType<typeof parseDoc>] {
    const o = this.offers.get(id);
    for (const k of [...this.offers.keys()]) if (k <= id) this.offers.delete(k);
    if (!o?.doc || !o.parsed) throw new Error(`${NO_SOURCE} (file offer ${id} not held)`);
    return [o.doc, o.parsed];
  }

  derive(params: DeriveParams): TimelineView {
    const { revision, workspace: files, entry } = params;
    this.lastFiles = files;
    const started = Date.now();
    // The worker owns the document: typing sends only what changed (document.ts).
    if (params.edits) this.document.apply(revision, params.edits);
    else if (params.doc) this.document.replace(revision, params.doc);
    else if (params.source) this.document.replace(revision, docFromSource(params.source));
    else if (params.offer !== undefined) this.document.replace(revision, ...this.takeOffer(params.offer));
    if (params.doc) this.wholeFrom = 'doc';
    else if (params.source) this.wholeFrom = 'source';
    else if (params.offer !== undefined) this.wholeFrom = 'offer';
    else this.document.apply(revision, { base: revision, edits: [] });
    const doc = this.document.doc;
    const parsed = this.document.parsed;
    const scenarioErrors: string[] = [];
    let timeline: Timeline | undefined;
    if (!parsed.ok) scenarioErrors.push(...parsed.errors.map((e) => e.message));
    const ws = this.workspace.load(doc, files);
    if (parsed.ok) {
      timeline = this.derivation.run(this.derivationInput(parsed.scenario, ws));
    }
    this.current = { revision, doc, ...(timeline ? { timeline } : {}), ...(ws ? { workspace: ws } : {}) };
    this.recent.set(revision, this.current);
    for (const k of [...this.recent.keys()]) {
      if (this.recent.size <= KEPT_DERIVATIONS) break;
      this.recent.delete(k);
      for (const key of [...this.layerLines.keys()]) if (key.startsWith(`${k}\u0000`)) this.layerLines.delete(key);
    }
    if (!timeline) {
      const wsView = this.workspace.view(doc, ws, undefined);
      const empty: TimelineView = {
        revision, name: doc.name, policy: doc.policy, diagnostics: [], entryCount: 0, spine: { kinds: '', positions: [], steps: [], cycles: [] }, requestCount: 0, requestEntries: [],
        positionCount: 0, positionEntries: [], baseCounts: { configured: 0, discoverable: 0, on: 0, off: 0 }, errorEntries: [], tools: toolCount(0, false),
        passed: 0, failed: 0, problemEntries: [], scenarioErrors, millis: Date.now() - started, ...(wsView ? { workspace: wsView } : {}),
      };
      this.current.view = empty;
      return empty;
    }
    const t = timeline;
    const checked = parsed.ok ? checkExpectations(parsed.scenario, t, counterOf(parsed.scenario)) : [];
    const summary = parsed.ok ? summarizeCheck(parsed.scenario, t, checked) : { passed: 0, failed: 0, problems: [] };
    if (parsed.ok) Object.assign(this.current, { scenario: parsed.scenario, expectations: checked, exact: this.document.parsedWhole });
    const views = this.viewsOf(revision, t, checked);
    this.current.views = views;
    const spine = views.spine();
    // The counts at the selected row ride along, saving the sets panel a round trip per keystroke.
    const last = t.entries.length - 1;
    const at = entry === undefined ? undefined : entry === null ? last : Math.min(entry, last);
    const atPosition = at !== undefined && at >= 0 ? spine.positions[at] : undefined;
    const base = t.positions[0]?.counts;
    const promoted = views.firstPromotion();
    const view: TimelineView = {
      revision,
      name: t.name,
      policy: t.policy,
      diagnostics: t.diagnostics,
      entryCount: t.entries.length,
      spine,
      requestCount: t.requests.length,
      requestEntries: views.requestEntries(),
      positionCount: t.positions.length,
      positionEntries: views.positionEntries(),
      baseCounts: base ? { ...base } : { configured: 0, discoverable: 0, on: 0, off: 0 },
      ...(promoted !== undefined ? { firstPromotion: promoted } : {}),
      errorEntries: views.errorEntries(),
      tools: toolCount(t.positions.at(-1)?.counts.configured ?? 0, t.positions.at(-1)?.registered ?? false),
      passed: summary.passed,
      failed: summary.failed,
      problemEntries: [...new Set(summary.problems.map((p) => p.entry))].sort((a, b) => a - b),
      scenarioErrors,
      millis: Date.now() - started,
      ...(doc.workspace ? { workspace: this.workspace.view(doc, ws, t) } : {}),
      ...(atPosition !== undefined ? { sets: views.setsSummary(atPosition) } : {}),
    };
    this.current.view = view;
    return view;
  }

  /** Request facts built since the worker started (the test hook's proof that rows never shown cost nothing). */
  private requestFacts = 0;

  private viewsOf(revision: number, timeline: Timeline, expectations: readonly ExpectationResult[]): DerivationViews {
    return new DerivationViews(revision, {
      timeline,
      expectations,
      layerLink: (layer, offset) => this.layerLink(revision, layer, offset),
      summaryOf: (s) => this.workspace.definitions.definition(s)?.docs.summary ?? s.config.summary?.value ?? '',
      counted: () => {
        this.requestFacts++;
      },
    });
  }

  /**
   * A kept derivation. One the host no longer keeps (a newer one replaced it) is `superseded`, as the
   * dispatch answers a window of an older revision: the page's query keeps what it showed and asks the
   * revision it moves to. A revision never derived is an error.
   */
  private kept(revision: number): Current {
    const c = this.recent.get(revision);
    if (c) return c;
    let newest = -Infinity;
    for (const k of this.recent.keys()) newest = Math.max(newest, k);
    if (revision < newest) throw new Superseded(`revision ${revision}`);
    throw new Error(`revision ${revision} is not a recent derivation`);
  }

  private views(revision: number): DerivationViews {
    const c = this.kept(revision);
    if (!c.timeline) throw new Error(`revision ${revision} is not a recent derivation`);
    c.views ??= this.viewsOf(revision, c.timeline, c.expectations ?? []);
    return c.views;
  }

  /**
   * A few rows at a time (`slicer`): at 100,000 tools a request's facts take milliseconds, and a newer
   * keystroke's derivation is answered between two chunks instead of after the window (which it abandons).
   */
  async timelineWindow({ revision, offset, limit, brief = false }: { revision: number; offset: number; limit: number; brief?: boolean }, slicer: Slicer = noSlices): Promise<TimelineWindow> {
    const views = this.views(revision);
    const total = this.timeline(revision).entries.length;
    const from = Math.max(0, Math.floor(offset));
    const to = Math.min(total, from + Math.max(0, Math.min(MAX_WINDOW, Math.floor(limit))));
    const rows: TimelineRow[] = [];
    for (let i = from; i < to; i += WINDOW_CHUNK) {
      rows.push(...views.rows(i, Math.min(WINDOW_CHUNK, to - i), brief));
      if (i + WINDOW_CHUNK < to) await slicer();
    }
    return { revision, total, offset: from, rows };
  }

  /** Derivation.prepare for the newest derivation, a step a slice (see the `prepare` row). */
  async prepare({ revision }: { revision: number }, slicer: Slicer = noSlices): Promise<void> {
    if (this.current?.revision !== revision) return;
    this.document.prepare();
    // The document's layers are now the parse's strings: the derivation reads them too, so the page's
    // copy (as received, a catalogue's worth) is let go rather than kept until two more revisions came.
    if (this.document.revision === revision) this.current.doc = this.document.doc;
    await slicer();
    await inSlices(this.derivation.prepare(), slicer);
    if (this.current?.revision === revision) this.prepared = [...this.prepared.slice(-7), revision];
  }

  /** The revisions whose prepare ran to its end (stats). */
  private prepared: readonly number[] = [];

  setsWindow({ revision, position, offset, limit, ...q }: { revision: number; position: number; offset: number; limit: number } & SetsQuery): SetsWindow {
    return this.views(revision).setsWindow(position, offset, limit, q);
  }

  timelineSnapshot({ revision }: { revision: number }): TimelineSnapshot {
    const c = this.kept(revision);
    const view = c.view;
    if (!view) throw new Error(`revision ${revision} has no answer`);
    if (!c.timeline) return { ...view, entries: [], requests: [], positions: [], expectations: [] };
    const views = this.views(revision);
    return { ...view, entries: views.allEntries(), requests: views.requestSnapshots(), positions: views.positionViews(), expectations: views.allExpectations() };
  }

  chartRows({ revision }: { revision: number }): ChartRows {
    return this.views(revision).chartRows();
  }

  problemRows({ revision }: { revision: number }): readonly number[] {
    return this.views(revision).problemRows();
  }

  stats(): DeriveStats {
    const views = this.current?.views;
    return { requestFacts: this.requestFacts, ...(this.current ? { revision: this.current.revision } : {}), builtRequests: views?.builtRequests() ?? [], setsRowsBuilt: views?.setsRowsBuilt ?? 0, prepared: this.prepared, ...(this.derivation.last ? { stepsPlayed: this.derivation.last.stepsPlayed } : {}), ...(this.wholeFrom ? { wholeFrom: this.wholeFrom } : {}) };
  }

  private timeline(revision: number): Timeline {
    const c = this.kept(revision);
    if (!c.timeline) throw new Error(`revision ${revision} is not a recent derivation`);
    return c.timeline;
  }

  sets({ revision, position }: { revision: number; position: number }): SetsView {
    const views = this.views(revision);
    return { ...views.setsSummary(position), rows: views.allSetsRows(position) };
  }

  /** A layer offset as line and column in the layer text of the revision that was asked about. */
  private layerLink(revision: number, layer: string, offset: number): { layer: string; line: number; column: number } {
    const key = `${revision}\u0000${layer}`;
    let f = this.layerLines.get(key);
    if (!f) {
      const c = this.recent.get(revision);
      const text = c?.doc.layers.find((l) => l.name === layer)?.text ?? c?.workspace?.load.layers.find((l) => l.name === layer)?.text ?? '';
      // The layer cache's index when it holds this text: carried over typing, not found again per revision.
      const cache = this.workspace.layerCache;
      const lines = (cache.text(layer) === text ? cache.lines(layer) : undefined) ?? new LineIndex(text);
      f = (o: number) => lines.position(o);
      this.layerLines.set(key, f);
    }
    return { layer, ...f(offset) };
  }

  provenance({ revision, position, name }: { revision: number; position: number; name: string }): ProvenanceView {
    const t = this.timeline(revision);
    // As sets() reads a position: past the end the last one, before the start the first (a negative one
    // read as none, "not configured").
    const p = provenance(t.engine, name, Math.max(0, position));
    return {
      text: p.text,
      steps: p.steps.map((s) => ({
        label: originLabel(s.origin, s.from),
        availability: s.availability,
        allowToggle: s.allowToggle,
        position: s.position,
        ...(s.origin.kind === 'layer' ? { link: this.layerLink(revision, s.origin.layer, s.origin.span.start) } : s.origin.kind === 'delta' ? { link: { position: s.position } } : {}),
      })),
    };
  }












  /** The RFD tables, computed once per token counter (they depend on nothing the user edits). */
  private rfdCache: { counter: string; tables: readonly RfdTable[] } | undefined;

  private async counter(): Promise<TokenCounter | undefined> {
    try {
      return await createTokenCounter();
    } catch {
      return undefined;
    }
  }

  async rfd(): Promise<readonly RfdTable[]> {
    const counter = await this.counter();
    if (this.rfdCache && this.rfdCache.counter === (counter?.id ?? '')) return this.rfdCache.tables;
    const tables = counter ? rfdTables(counter) : rfdTables();
    this.rfdCache = { counter: counter?.id ?? '', tables };
    return tables;
  }

  async report({ revision, generatedAt, prices }: { revision: number; generatedAt: string; prices?: PriceTable }): Promise<string> {
    const c = this.kept(revision);
    const counter = await this.counter();
    const rfd = await this.rfd();
    const file = `${c.doc.name.toLowerCase().replace(/[^a-z0-9]+/gu, '-').replace(/^-|-$/gu, '') || 'scenario'}.toml`;
    let scenario: CheckReport;
    // A scenario built by a layer edit keeps the spans of the last whole parse (document.ts), so the
    // report, which names lines, checks a whole parse of the document instead.
    const whole = c.timeline && c.scenario && !c.exact ? parseScenario(writeScenario(c.doc)) : undefined;
    const checked = whole?.ok ? { s: whole.scenario, e: checkExpectations(whole.scenario, c.timeline!, counterOf(whole.scenario)) } : c.scenario && c.expectations ? { s: c.scenario, e: c.expectations } : undefined;
    if (c.timeline && checked) {
      const { s, e } = checked;
      const summary = summarizeCheck(s, c.timeline, e);
      scenario = {
        file, name: s.name, ...(s.description !== undefined ? { description: s.description } : {}), problems: summary.problems,
        fileErrors: [], timeline: c.timeline, expectations: e, passed: summary.passed, failed: summary.failed, failures: [],
      };
    } else {
      const parsed = parseScenario(writeScenario(c.doc));
      const errors = parsed.ok ? [{ message: 'the scenario did not run', line: 1, column: 1 }] : parsed.errors;
      scenario = { file, name: c.doc.name, fileErrors: errors, expectations: [], passed: 0, failed: 0, failures: [] };
    }
    return reportHtml({ scenarios: [scenario], rfd, tokens: counter ?? approximateTokenCounter, generatedAt, ...(prices ? { prices } : {}) });
  }

  record({ revision, step }: { revision: number; step: number }): RecordedStep {
    return recordableExpectations(this.timeline(revision), step);
  }





  request({ revision, id }: { revision: number; id: number }): RequestDetail {
    const t = this.timeline(revision);
    const r = t.requests[id];
    if (!r) throw new Error(`no request ${id}`);
    const rendered = r.rendered();
    const prev = id > 0 ? t.requests[id - 1]?.rendered() : undefined;
    const blocksOf = (messages: typeof r.messages) => messages.flatMap((m) => (m.kind === 'tool-availability' ? m.blocks.map((b) => ({ type: b.type, tools: [...b.tools] })) : []));
    const blocks = blocksOf(r.messages);
    const view = this.views(revision).request(id);
    if (!view) throw new Error(`no request ${id}`);
    const cache = view.cache;
    const first = cache.firstDifference;
    return {
      id,
      provider: t.policy.provider,
      bodyJson: toJson(rendered.body, true),
      toolChoice: rendered.toolChoice,
      prefixBytes: new TextEncoder().encode(rendered.bytes).length,
      ...(prev && first ? { difference: cacheDifference(prev.bytes, rendered.bytes, first) } : {}),
      view,
      cache,
      cost: view.cost,
      directiveBlocks: blocks,
      newBlocksFrom: id > 0 ? blocksOf(t.requests[id - 1]?.messages ?? []).length : 0,
    };
  }
}

/** For tests and tools: a document from scenario text. */
export { scenarioDocFromText };
