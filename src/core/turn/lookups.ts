// The catalogue as one run reads it: each tool's definition (the previous run's when its config is
// unchanged, see definitions.ts) and the search index of the catalogue at the newest position.
import { describeToolsDefinition, DESCRIBE_TOOLS, SEARCH_TOOLS, searchToolsDefinition } from '../catalogue/builtins';
import { resolvedSearchDocument, unbuiltLocalTool, unkeptDefinition } from '../catalogue/resolve';
import { definitionCost, localDefinitionCost } from '../providers/cost';
import { searchDocument } from '../catalogue/search-document';
import type { ToolDefinition } from '../catalogue/types';
import { bm25 } from '../search/bm25';
import type { Ranker, RankerIndex, SearchDocument } from '../search/types';
import type { StreamEngine, ToolState } from '../stream/engine';
import type { IndexCache } from './caches';
import type { DefinitionCache } from './definitions';

/**
 * One search document per definition object and order: a definition reused from the previous run
 * (definitions.ts) brings its document back, so IndexCache sees the same objects and keeps its index
 * without comparing texts.
 */
const documents = new WeakMap<ToolDefinition, SearchDocument>();

function documentOf(d: ToolDefinition, order: number): SearchDocument {
  const hit = documents.get(d);
  if (hit && hit.order === order) return hit;
  const doc = searchDocument(d, order);
  documents.set(d, doc);
  return doc;
}

export class RunCatalogue {
  /** The search documents of one catalogue version; availability changes never rebuild them. */
  private docsVersion = -1;
  private docs: SearchDocument[] = [];

  constructor(
    private readonly engine: StreamEngine,
    private readonly rankers: ReadonlyMap<string, Ranker>,
    private readonly indexCache: IndexCache,
    private readonly definitionCache: DefinitionCache | undefined,
  ) {}

  /**
   * Takes `prev`'s search documents when they are of the catalogue version this engine stands at. The
   * caller vouches that `prev`'s engine is one this engine was forked from with no definition changed:
   * the positions up to a fork are its parent's and a version only grows, so within one line of
   * positions a version names one catalogue. Walking every tool for its document cost ~50 ms a run at
   * 100,000 tools.
   */
  adoptDocuments(prev: RunCatalogue): void {
    if (prev.docsVersion !== this.engine.current.catalogueVersion) return;
    this.docs = prev.docs;
    this.docsVersion = prev.docsVersion;
  }

  /** The rankers search_tools may use, by id (a resumed run keeps them). */
  get rankerMap(): ReadonlyMap<string, Ranker> {
    return this.rankers;
  }

  /** A resolved tool's definition, the previous run's when its config is unchanged. */
  definitionOfState(s: ToolState | undefined): ToolDefinition | undefined {
    if (s === undefined || !s.resolution.ok) return undefined;
    return this.definitionCache ? this.definitionCache.definition(s) : s.resolution.definition;
  }

  /**
   * A resolved tool's definition cost (0 when unresolved): the kept definition's, else counted from a
   * local tool's config, else from a definition built and let go. Pricing every permitted tool of a
   * large catalogue so keeps no definitions and builds none for local tools.
   */
  costOfState(s: ToolState | undefined): number {
    if (s === undefined || !s.resolution.ok) return 0;
    const kept = this.definitionCache?.kept(s);
    if (kept) return definitionCost(kept);
    const local = unbuiltLocalTool(s.resolution);
    return local ? localDefinitionCost(local) : definitionCost(unkeptDefinition(s.resolution));
  }

  /** A tool's definition at the newest position, the builtins' included. */
  definitionOf(name: string): ToolDefinition | undefined {
    if (name === DESCRIBE_TOOLS) return describeToolsDefinition;
    if (name === SEARCH_TOOLS) return searchToolsDefinition;
    return this.definitionOfState(this.engine.state(name));
  }

  /** A lookup of definitions in the states of one position, the builtins' included. */
  definitionsAt(position: number): (name: string) => ToolDefinition | undefined {
    // No definition changed since the position (promotions and directives move availability only): the
    // newest states answer, without replaying the position's states (a copy of every tool's).
    const engine = this.engine;
    const sameCatalogue = engine.positions[position]?.catalogueVersion === engine.current.catalogueVersion;
    const states: Pick<ReadonlyMap<string, ToolState>, 'get'> = sameCatalogue ? { get: (name) => engine.state(name) } : engine.statesAt(position);
    return (name) => {
      if (name === DESCRIBE_TOOLS) return describeToolsDefinition;
      if (name === SEARCH_TOOLS) return searchToolsDefinition;
      return this.definitionOfState(states.get(name));
    };
  }

  /** The index search_tools reads with a ranker, over every resolvable tool of the current catalogue. */
  searchIndex(rankerId: string): RankerIndex {
    const ranker = this.rankers.get(rankerId) ?? bm25;
    const version = this.engine.current.catalogueVersion;
    if (this.docsVersion !== version) {
      const docs: SearchDocument[] = [];
      for (const s of this.engine.currentStates()) {
        if (!s.resolution.ok) continue;
        // A definition kept gives its document; otherwise none is built for it (resolve.ts).
        const d = this.definitionCache?.kept(s);
        docs.push(d ? documentOf(d, s.order) : resolvedSearchDocument(s.resolution, s.order));
      }
      this.docs = docs;
      this.docsVersion = version;
    }
    const current = this.docs;
    return this.indexCache.get(ranker, current, () => ranker.build(current));
  }
}
