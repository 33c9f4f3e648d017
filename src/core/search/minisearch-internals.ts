// The one door to MiniSearch's private state. The bm25 fast path (index-build.ts builds MiniSearch's
// index without its per-token work; bm25-score.ts scores it without its per-hit objects) reads and
// writes fields MiniSearch declares protected; this module is the only one that names them, and it
// says here what each is in the release the fast path was written against. Why and what it gains:
// src/core/search/README.md.
//
// On any other release of MiniSearch the fast path is off: indexes are built with MiniSearch's own
// `addAll` and searched with its own `search` (public API only), which rank the same, more slowly.
// minisearch-internals.test.ts fails with a plain message until the fast path is checked against the
// new release (its property tests compare it with stock MiniSearch) and WRITTEN_AGAINST is moved.
import type MiniSearch from 'minisearch';
import type SearchableMap from 'minisearch/SearchableMap';
// The package's exports do not include its package.json; the file is read where npm installed it.
import minisearchPackage from '../../../node_modules/minisearch/package.json' with { type: 'json' };

/** The MiniSearch release the fast path was written against (and is held equal to by property tests). */
export const WRITTEN_AGAINST = '7.2.0';

/** The MiniSearch release installed (and bundled). */
export const INSTALLED_MINISEARCH: string = minisearchPackage.version;

/** Why the fast path may not run against a MiniSearch release, or undefined when it may. */
export function fastPathProblem(version: string = INSTALLED_MINISEARCH): string | undefined {
  return version === WRITTEN_AGAINST ? undefined : `the bm25 fast path was written against MiniSearch ${WRITTEN_AGAINST}; found ${version}`;
}

/** Postings of one term in one field: short document id → term frequency. */
export type Postings = Map<number, number>;
/** One term's postings by field id. */
export type FieldTermData = Map<number, Postings>;

// MiniSearch 7.2.0's protected state, as the fast path uses it (dist/es/index.js, class MiniSearch).
interface Internals {
  /** The term index: a radix tree of processed term → postings by field id. */
  _index: SearchableMap<FieldTermData>;
  /** Documents indexed and not removed (discarded ones are still counted until vacuumed: see _nextId). */
  _documentCount: number;
  /** The next short id; equal to _documentCount while nothing was removed or discarded. */
  _nextId: number;
  /** Short id → the document's id field, and back. */
  _documentIds: Map<number, unknown>;
  _idToShortId: Map<unknown, number>;
  /** Field name → field id (the order of `fields` in the options). */
  _fieldIds: Readonly<Record<string, number>>;
  /** Short id → distinct tokens per field id (addFieldLength). */
  _fieldLength: Map<number, number[]>;
  /** Field id → running average of field lengths (addFieldLength). */
  _avgFieldLength: number[];
}

const internals = <T>(mini: MiniSearch<T>): Internals => mini as unknown as Internals;

/** The term index of a MiniSearch. */
export function termIndex<T>(mini: MiniSearch<T>): SearchableMap<FieldTermData> {
  return internals(mini)._index;
}

/** Puts a term index (a SearchableMap subclass, empty) in place of MiniSearch's own, before anything is added. */
export function replaceTermIndex<T>(mini: MiniSearch<T>, index: SearchableMap<FieldTermData>): void {
  internals(mini)._index = index;
}

/** Whether nothing was ever added: no ids handed out, no documents, no terms. */
export function isPristine<T>(mini: MiniSearch<T>): boolean {
  const m = internals(mini);
  return m._nextId === 0 && m._documentCount === 0 && m._index.size === 0;
}

/** A number that changes whenever documents are added, removed or discarded (to know when counts go stale). */
export function documentsGeneration<T>(mini: MiniSearch<T>): number {
  const m = internals(mini);
  return m._nextId + m._documentCount * 2 ** 26;
}

/** The short ids handed out so far (one past the largest). */
export function nextShortId<T>(mini: MiniSearch<T>): number {
  return internals(mini)._nextId;
}

/** Documents counted by MiniSearch (before this one is added, for the running averages). */
export function documentCount<T>(mini: MiniSearch<T>): number {
  return internals(mini)._documentCount;
}

/** MiniSearch's addDocumentId: a new short id for a document id. */
export function addDocumentId<T>(mini: MiniSearch<T>, id: unknown): number {
  const m = internals(mini);
  if (id == null) throw new Error('MiniSearch: document does not have ID field "id"');
  if (m._idToShortId.has(id)) throw new Error(`MiniSearch: duplicate ID ${String(id)}`);
  const shortId = m._nextId;
  m._idToShortId.set(id, shortId);
  m._documentIds.set(shortId, id);
  m._documentCount += 1;
  m._nextId += 1;
  return shortId;
}

/**
 * addDocumentId for `count` documents added to an empty index, whose ids (`idOf(shortId)`) the
 * caller vouches are distinct and present: the same maps, in the same order, without a check each.
 */
export function addDocumentIds<T>(mini: MiniSearch<T>, count: number, idOf: (shortId: number) => unknown): void {
  const m = internals(mini);
  if (m._nextId !== 0) throw new Error('addDocumentIds needs an empty index');
  for (let shortId = 0; shortId < count; shortId++) {
    const id = idOf(shortId);
    m._idToShortId.set(id, shortId);
    m._documentIds.set(shortId, id);
  }
  m._documentCount += count;
  m._nextId += count;
}

/**
 * Short id → id, and back, for an index whose documents' ids are their short ids (a catalogue's
 * positions, as addAllTexts numbers them): each of MiniSearch's two Maps would hold i → i for every
 * document (~15 MB made and promoted at 100,000 tools, and ~20 ms of setting). This is a Map that
 * answers as those would, holding only how many there are; the first change that is not a resize
 * fills it with those entries and it is a plain Map from then on.
 */
export class IdentityIds extends Map<number, number> {
  /** How many documents, while the ids are 0 … count - 1 and nothing else changed them; -1 after. */
  #count: number;

  constructor(count: number) {
    super();
    this.#count = count;
  }

  /** Whether `key` is one of the ids while they are 0 … count - 1. */
  #holds(key: unknown): key is number {
    return typeof key === 'number' && Number.isInteger(key) && key >= 0 && key < this.#count;
  }

  /** Becomes a plain Map of the same entries, in the same order. */
  #fill(): void {
    const count = this.#count;
    if (count < 0) return;
    this.#count = -1;
    for (let id = 0; id < count; id++) super.set(id, id);
  }

  /** Whether the ids are still 0 … size - 1, held as a count. */
  get identity(): boolean {
    return this.#count >= 0;
  }

  /** The ids 0 … count - 1, as a splice leaves them (ids being positions): only while `identity`. */
  resize(count: number): void {
    if (this.#count < 0) throw new Error('IdentityIds.resize after a change');
    this.#count = count;
  }

  override get size(): number {
    return this.#count >= 0 ? this.#count : super.size;
  }

  override get(key: number): number | undefined {
    // + 0: a Map finds key 0 for -0, and gives the value stored, 0.
    if (this.#count >= 0) return this.#holds(key) ? key + 0 : undefined;
    return super.get(key);
  }

  override has(key: number): boolean {
    return this.#count >= 0 ? this.#holds(key) : super.has(key);
  }

  override set(key: number, value: number): this {
    this.#fill();
    return super.set(key, value);
  }

  override delete(key: number): boolean {
    this.#fill();
    return super.delete(key);
  }

  override clear(): void {
    this.#count = -1;
    super.clear();
  }

  override forEach(fn: (value: number, key: number, map: Map<number, number>) => void, thisArg?: unknown): void {
    if (this.#count < 0) {
      super.forEach(fn, thisArg);
      return;
    }
    for (let id = 0; id < this.#count; id++) fn.call(thisArg, id, id, this);
  }

  override *entries(): MapIterator<[number, number]> {
    if (this.#count < 0) {
      yield* super.entries();
      return;
    }
    for (let id = 0; id < this.#count; id++) yield [id, id];
  }

  override *keys(): MapIterator<number> {
    if (this.#count < 0) {
      yield* super.keys();
      return;
    }
    for (let id = 0; id < this.#count; id++) yield id;
  }

  override values(): MapIterator<number> {
    return this.#count >= 0 ? this.keys() : super.values();
  }

  override [Symbol.iterator](): MapIterator<[number, number]> {
    return this.entries();
  }
}

/**
 * addDocumentId for `count` documents added to an empty index whose ids are their short ids (0 …
 * count - 1): the same answers, in IdentityIds.
 */
export function addIdentityIds<T>(mini: MiniSearch<T>, count: number): void {
  const m = internals(mini);
  if (m._nextId !== 0) throw new Error('addIdentityIds needs an empty index');
  m._documentIds = new IdentityIds(count);
  m._idToShortId = new IdentityIds(count);
  m._documentCount += count;
  m._nextId += count;
}

/**
 * MiniSearch's addFieldLength, operation for operation (the average is a running one over `count`
 * documents before this one): `lengths` is the document's array, made on its first field.
 */
export function addFieldLength<T>(mini: MiniSearch<T>, shortId: number, fieldId: number, count: number, length: number): void {
  const m = internals(mini);
  let lengths = m._fieldLength.get(shortId);
  if (lengths === undefined) m._fieldLength.set(shortId, (lengths = []));
  lengths[fieldId] = length;
  const average = m._avgFieldLength[fieldId] || 0;
  m._avgFieldLength[fieldId] = (average * count + length) / (count + 1);
}

/**
 * What addFieldLength leaves after a run of documents added to an empty index: `lengths` by short id
 * (a document with none, no entry), and the running averages by field id (undefined: a field no
 * document had, left unset as MiniSearch leaves it).
 */
export function setFieldLengths<T>(mini: MiniSearch<T>, lengths: readonly (number[] | undefined)[], averages: readonly (number | undefined)[]): void {
  const m = internals(mini);
  lengths.forEach((own, shortId) => {
    if (own !== undefined) m._fieldLength.set(shortId, own);
  });
  averages.forEach((average, fieldId) => {
    if (average !== undefined) m._avgFieldLength[fieldId] = average;
  });
}

/** A document's field lengths by field id (a copy; empty for a document not indexed). */
export function fieldLengths<T>(mini: MiniSearch<T>, shortId: number): number[] {
  return [...(internals(mini)._fieldLength.get(shortId) ?? [])];
}

/** The average field lengths by field id (a copy). */
export function averageFieldLengths<T>(mini: MiniSearch<T>): number[] {
  return [...internals(mini)._avgFieldLength];
}

/** Sets a document's field length (distinct tokens) without touching the averages (see recomputeAverageFieldLengths). */
export function setFieldLength<T>(mini: MiniSearch<T>, shortId: number, fieldId: number, length: number): void {
  const m = internals(mini);
  let lengths = m._fieldLength.get(shortId);
  if (lengths === undefined) m._fieldLength.set(shortId, (lengths = []));
  lengths[fieldId] = length;
}

/**
 * The average field lengths as addFieldLength leaves them after adding every document in short id
 * order (a running mean, operation for operation, so the bits are the same): what an index whose
 * documents were replaced in place recomputes. Assumes every document has every field (as a
 * catalogue's do) and none was removed.
 */
export function recomputeAverageFieldLengths<T>(mini: MiniSearch<T>, fieldCount: number): void {
  const m = internals(mini);
  const averages = new Float64Array(fieldCount);
  for (let shortId = 0; shortId < m._nextId; shortId++) {
    const lengths = m._fieldLength.get(shortId) ?? [];
    for (let fieldId = 0; fieldId < fieldCount; fieldId++) {
      averages[fieldId] = ((averages[fieldId] as number) * shortId + (lengths[fieldId] as number)) / (shortId + 1);
    }
  }
  for (let fieldId = 0; fieldId < fieldCount; fieldId++) m._avgFieldLength[fieldId] = averages[fieldId] as number;
}

/**
 * Takes the documents with short ids [start, start + removed) out of the ids and field lengths and
 * makes room for `added` at `start`, moving every later one by `added - removed`: the bookkeeping of
 * an index whose short ids are catalogue positions (ids equal short ids) when a run of the catalogue
 * is spliced. The postings are the caller's to move (index-build.ts spliceTexts); the averages too.
 */
export function spliceDocuments<T>(mini: MiniSearch<T>, start: number, removed: number, added: number): void {
  const m = internals(mini);
  const delta = added - removed;
  const lengths = new Map<number, number[]>();
  for (const [shortId, fieldLengths] of m._fieldLength) {
    if (shortId < start) lengths.set(shortId, fieldLengths);
    else if (shortId >= start + removed) lengths.set(shortId + delta, fieldLengths);
  }
  m._fieldLength = lengths;
  const before = m._nextId;
  const after = before + delta;
  const documentIds = m._documentIds;
  const idToShortId = m._idToShortId;
  if (documentIds instanceof IdentityIds && idToShortId instanceof IdentityIds && documentIds.identity && idToShortId.identity) {
    documentIds.resize(after);
    idToShortId.resize(after);
    m._nextId = after;
    m._documentCount = after;
    return;
  }
  for (let id = after; id < before; id++) {
    m._documentIds.delete(id);
    m._idToShortId.delete(id);
  }
  for (let id = before; id < after; id++) {
    m._documentIds.set(id, id);
    m._idToShortId.set(id, id);
  }
  m._nextId = after;
  m._documentCount = after;
}

/** What a search reads: the counts, the ids both ways, the fields' ids, lengths and averages, the term index. */
export interface ScoringState {
  readonly index: SearchableMap<FieldTermData>;
  readonly documentCount: number;
  readonly nextId: number;
  readonly documentIds: ReadonlyMap<number, unknown>;
  readonly idToShortId: ReadonlyMap<unknown, number>;
  readonly fieldIds: Readonly<Record<string, number>>;
  readonly fieldLength: ReadonlyMap<number, readonly number[]>;
  readonly avgFieldLength: readonly number[];
}

export function scoringState<T>(mini: MiniSearch<T>): ScoringState {
  const m = internals(mini);
  return {
    index: m._index,
    documentCount: m._documentCount,
    nextId: m._nextId,
    documentIds: m._documentIds,
    idToShortId: m._idToShortId,
    fieldIds: m._fieldIds,
    fieldLength: m._fieldLength,
    avgFieldLength: m._avgFieldLength,
  };
}
