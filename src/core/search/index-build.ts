// The bm25 index as MiniSearch keeps it, built faster: ToolMiniSearch is MiniSearch with its `add`
// and `addAll` specialised to the options of minisearch-options.ts (the only place that constructs
// it), its postings in PostingLists and its term index shortcut by a hash map. The state it builds
// is MiniSearch's own, in the same order: the same document ids, field lengths (distinct tokens per
// field), running average field lengths, terms and postings (minisearch-options.test.ts holds the
// serialized index equal to stock MiniSearch's, through add, remove, discard and vacuum).
//
// addAll into an empty index, which is how every catalogue is indexed, works in passes: scan every
// field once, interning each token by its range of the text (TokenTable), recording one (term, field)
// key per occurrence in chunks and counting each key's documents; then fill every posting list, in
// one pass over the record, into its slice of two shared typed arrays. At 10,000 tools that is a few allocations for 320,000 postings, where growing one
// list per term and field took thousands, and garbage for the collector to copy. Field lengths and
// their running averages are kept aside and handed to MiniSearch once, in the arrays it would hold.
import MiniSearch from 'minisearch';
import type { Options } from 'minisearch';
import SearchableMap from 'minisearch/SearchableMap';
import { addDocumentId, addDocumentIds, addFieldLength, addIdentityIds, setFieldLengths, averageFieldLengths, documentCount, fieldLengths, spliceDocuments, documentsGeneration, isPristine, nextShortId, recomputeAverageFieldLengths, replaceTermIndex, setFieldLength, termIndex } from './minisearch-internals';
import type { FieldTermData } from './minisearch-internals';
import type { MiniSearchDocument, TokenSink } from './minisearch-options';
import { PostingList } from './postings';
import { hashRange, TokenTable } from './token-table';
import type { SearchField } from './types';
import { SEARCH_FIELDS } from './types';

/**
 * The text of one field of a document (by field id, in SEARCH_FIELDS order), or its parts, which are
 * scanned one after another as if joined by a separator; null or undefined where the field is absent.
 */
export type FieldTexts<D> = (document: D, fieldId: number) => string | readonly string[] | null | undefined;

const miniSearchTexts: FieldTexts<MiniSearchDocument> = (document, fieldId) => document[SEARCH_FIELDS[fieldId] as SearchField] as string | null | undefined;

/** The tokenizer and term processing of minisearch-options.ts, handed in (it imports this module). */
export interface Processing {
  readonly scanTokens: (text: string, sink: TokenSink) => void;
  readonly processTerm: (token: string) => string | null;
}

/**
 * MiniSearch's term index (a radix tree) with a hash map beside it: MiniSearch's `add` looks every
 * token up with `fetch`, and walking the tree for each of them was most of the cost of building.
 * The tree is unchanged (a term enters it at its first `fetch`, as before); only the lookups of terms
 * already in it are shortcut. Every other change to the tree forgets the shortcut.
 */
class TermIndex extends SearchableMap<FieldTermData> {
  readonly #entries = new Map<string, FieldTermData>();

  override fetch(key: string, initial: () => FieldTermData): FieldTermData {
    let value = this.#entries.get(key);
    if (value === undefined) {
      value = super.fetch(key, initial);
      this.#entries.set(key, value);
    }
    return value;
  }

  override get(key: string): FieldTermData | undefined {
    return this.#entries.get(key) ?? super.get(key);
  }

  override set(key: string, value: FieldTermData): this {
    this.#entries.delete(key);
    super.set(key, value);
    return this;
  }

  override update(key: string, fn: (value: FieldTermData | undefined) => FieldTermData): this {
    this.#entries.delete(key);
    super.update(key, fn);
    return this;
  }

  override delete(key: string): void {
    this.#entries.delete(key);
    super.delete(key);
  }

  override clear(): void {
    this.#entries.clear();
    super.clear();
  }
}

const FIELD_COUNT = SEARCH_FIELDS.length;
const createFieldData = (): FieldTermData => new Map();

/** A processed term met while adding: its entry in the term index, and its postings by field id. */
interface TermEntry {
  readonly data: FieldTermData;
  readonly postings: (PostingList | undefined)[];
}

/**
 * What scanTokens feeds while documents are added: interns each token, counts the distinct tokens of
 * the field being scanned, and hands each occurrence of a kept term to `occurrence`. What it knows of
 * a token (its term, the last field that met it) is in arrays by the token's number in the table: a
 * token is met ~7 million times at 100,000 tools, and an object per token was one more load from
 * somewhere else on the heap each time.
 */
abstract class Scanner implements TokenSink {
  readonly #tokens = new TokenTable<number>();
  readonly #entryOf: (token: string) => number;
  /** By token number: its term's number, -1 if processTerm drops it. */
  #termOf = new Int32Array(1024);
  /** By token number: the stamp of the last field that met it (0: none yet). */
  #stampOf = new Int32Array(1024);
  /** Terms in the order they were first met (which is the order they entered the term index). */
  readonly terms: TermEntry[] = [];
  readonly #termNumber = new Map<FieldTermData, number>();
  /** Counts the fields scanned, so a token can tell whether this field met it already. */
  #stamp = 0;
  distinct = 0;
  /** The field being scanned. */
  fieldId = 0;

  constructor(index: SearchableMap<FieldTermData>, processTerm: (token: string) => string | null) {
    this.#entryOf = (token) => {
      const term = processTerm(token);
      const number = term ? this.#number(index.fetch(term, createFieldData)) : -1;
      const at = this.#tokens.size;
      if (at === this.#termOf.length) {
        const termOf = new Int32Array(2 * at);
        termOf.set(this.#termOf);
        this.#termOf = termOf;
        const stampOf = new Int32Array(2 * at);
        stampOf.set(this.#stampOf);
        this.#stampOf = stampOf;
      }
      this.#termOf[at] = number;
      return number;
    };
  }

  #number(data: FieldTermData): number {
    let n = this.#termNumber.get(data);
    if (n === undefined) {
      const postings: (PostingList | undefined)[] = [];
      for (const [fieldId, list] of data) {
        // Postings MiniSearch made itself (a Map) are replaced by a PostingList of the same entries.
        const compact = list instanceof PostingList ? list : PostingList.from(list);
        postings[fieldId] = compact;
        if (compact !== list) data.set(fieldId, compact);
      }
      n = this.terms.length;
      this.terms.push({ data, postings });
      this.#termNumber.set(data, n);
      this.termAdded(n);
    }
    return n;
  }

  /** Starts a field: distinct tokens are counted afresh. */
  field(): void {
    this.#stamp++;
    this.distinct = 0;
  }

  range(text: string, start: number, end: number): void {
    this.#met(this.#tokens.hashedIndex(text, start, end, hashRange(text, start, end), this.#entryOf));
  }

  hashedRange(text: string, start: number, end: number, hash: number): void {
    this.#met(this.#tokens.hashedIndex(text, start, end, hash, this.#entryOf));
  }

  token(token: string): void {
    this.#met(this.#tokens.hashedIndex(token, 0, token.length, hashRange(token, 0, token.length), this.#entryOf));
  }

  #met(token: number): void {
    const stampOf = this.#stampOf;
    if (stampOf[token] !== this.#stamp) {
      stampOf[token] = this.#stamp;
      this.distinct++;
    }
    const term = this.#termOf[token] as number;
    if (term >= 0) this.occurrence(term);
  }

  /** A term was numbered `term` (numbers are given 0, 1, … as terms are first met). */
  protected termAdded(term: number): void {
    void term;
  }

  protected abstract occurrence(term: number): void;
}

/** Adds each occurrence's posting at once: for documents added one at a time, or to a non-empty index. */
class PostingScanner extends Scanner {
  shortId = 0;

  protected occurrence(term: number): void {
    const entry = this.terms[term] as TermEntry;
    const postings = entry.postings[this.fieldId];
    if (postings !== undefined) postings.increment(this.shortId);
    else {
      const list = new PostingList();
      list.set(this.shortId, 1);
      entry.postings[this.fieldId] = list;
      entry.data.set(this.fieldId, list);
    }
  }
}

/** Occurrences a chunk of KeyScanner's record holds: chunks are never copied to grow (it reaches millions). */
const CHUNK = 1 << 16;

/**
 * Records each occurrence as a (term, field) key, for the bulk build, counting each key's documents
 * and noting the order keys were first met (the order MiniSearch adds fields to a term).
 */
class KeyScanner extends Scanner {
  readonly chunks: (Uint16Array | Int32Array)[] = [];
  /**
   * Keys are numbered in the order they are first met, so they fit in 16 bits while fewer than 65,536
   * (a (term, field) key numbered by term would not: 26,000 terms at 100,000 tools make 130,000 of
   * them, 50,000 met): the record then takes 2 bytes an occurrence, 10 MB less at 100,000 tools. From
   * the 65,536th key on, chunks are Int32.
   */
  #chunk: Uint16Array | Int32Array = new Uint16Array(CHUNK);
  #at = 0;
  count = 0;
  /** The document being scanned. */
  doc = 0;
  /** By term * FIELD_COUNT + field id: one more than the key's number (0: not met yet). */
  #keyOf = new Int32Array(1024 * FIELD_COUNT);
  /** Keys met so far. */
  keyCount = 0;
  /** By key: its term * FIELD_COUNT + field id. */
  termFieldOf = new Int32Array(1024);
  /** Per key, two ints: one more than the last document holding it (0: none yet), and its documents. */
  keys = new Int32Array(2048);

  /** Room in #keyOf for every key of the term, so an occurrence never checks. */
  protected override termAdded(term: number): void {
    const needed = (term + 1) * FIELD_COUNT;
    if (needed > this.#keyOf.length) {
      const grown = new Int32Array(Math.max(needed, this.#keyOf.length * 2));
      grown.set(this.#keyOf);
      this.#keyOf = grown;
    }
  }

  #newKey(termField: number): number {
    const key = this.keyCount++;
    this.#keyOf[termField] = key + 1;
    if (key === this.termFieldOf.length) {
      const termFieldOf = new Int32Array(2 * key);
      termFieldOf.set(this.termFieldOf);
      this.termFieldOf = termFieldOf;
      const keys = new Int32Array(4 * key);
      keys.set(this.keys);
      this.keys = keys;
    }
    this.termFieldOf[key] = termField;
    if (key === 0x10000) {
      this.chunks.push(this.#chunk.subarray(0, this.#at));
      this.#chunk = new Int32Array(CHUNK);
      this.#at = 0;
    }
    return key;
  }

  protected occurrence(term: number): void {
    const termField = term * FIELD_COUNT + this.fieldId;
    let key = (this.#keyOf[termField] as number) - 1;
    if (key < 0) key = this.#newKey(termField);
    if (this.#at === CHUNK) {
      this.chunks.push(this.#chunk);
      this.#chunk = this.keyCount > 0x10000 ? new Int32Array(CHUNK) : new Uint16Array(CHUNK);
      this.#at = 0;
    }
    this.#chunk[this.#at++] = key;
    this.count++;
    const last = this.keys[2 * key] as number;
    if (last === this.doc + 1) return;
    this.keys[2 * key] = this.doc + 1;
    this.keys[2 * key + 1] = (this.keys[2 * key + 1] as number) + 1;
  }

  /** The record, in chunks (the last one cut to what it holds). */
  record(): (Uint16Array | Int32Array)[] {
    return [...this.chunks, this.#chunk.subarray(0, this.#at)];
  }
}

/**
 * Fills each key's slice of `ids` and `freqs` (from `offsets`), in one pass over the record of
 * occurrences in document order (`ends[doc]`: where the record's occurrences of documents after `doc`
 * start): an occurrence in the document its key's last posting names adds to that posting's
 * frequency. False, part way, if a frequency would pass `max`.
 */
function fillPostings(record: readonly (Uint16Array | Int32Array)[], ends: Int32Array, offsets: Int32Array, ids: Int32Array, freqs: Int32Array | Uint8Array, max: number): boolean {
  const next = offsets.slice();
  let doc = 0;
  let at = 0;
  let end = ends[0] ?? 0;
  for (const chunk of record) {
    for (let i = 0; i < chunk.length; i++, at++) {
      while (at === end) end = ends[++doc] as number;
      const key = chunk[i] as number;
      const slot = next[key] as number;
      if (slot > (offsets[key] as number) && ids[slot - 1] === doc) {
        const freq = freqs[slot - 1] as number;
        if (freq === max) return false;
        freqs[slot - 1] = freq + 1;
      } else {
        ids[slot] = doc;
        freqs[slot] = 1;
        next[key] = slot + 1;
      }
    }
  }
  return true;
}

/** What replaceTexts changed, for telling which searches of the previous documents still hold. */
export interface ReplacedTexts {
  /** Every term the replaced documents held, before or after (their postings, or where those documents meet them, may have changed). */
  readonly touched: ReadonlySet<string>;
  /** Whether a field's average length changed (every document's score may then have changed). */
  readonly averagesChanged: boolean;
}

/**
 * MiniSearch over the term index above, with postings in PostingLists, which also answers document
 * frequencies from its postings.
 */
export class ToolMiniSearch extends MiniSearch<MiniSearchDocument> {
  readonly #processing: Processing;
  readonly #frequency = new Map<string, number>();
  /** The documents (next id and count) #frequency was counted over. */
  #frequencyOf = 0;

  constructor(options: Options<MiniSearchDocument>, processing: Processing) {
    super(options);
    if ((options.storeFields ?? []).length > 0) throw new Error('ToolMiniSearch stores no fields');
    this.#processing = processing;
    replaceTermIndex(this, new TermIndex());
  }

  get #terms(): SearchableMap<FieldTermData> {
    return termIndex(this);
  }

  override add(document: MiniSearchDocument): void {
    this.#add(document, new PostingScanner(this.#terms, this.#processing.processTerm));
  }

  override addAll(documents: readonly MiniSearchDocument[]): void {
    const empty = isPristine(this);
    // A bad or repeated id throws part way, leaving the documents before it added, as MiniSearch does.
    const ids = new Set<unknown>();
    const valid = documents.every((d) => d.id != null && !ids.has(d.id) && (ids.add(d.id), true));
    if (empty && valid) {
      // Ids are distinct and present: checked above.
      this.#addAllAtOnce(documents, miniSearchTexts, () => addDocumentIds(this, documents.length, (shortId) => (documents[shortId] as MiniSearchDocument).id));
      return;
    }
    // The scanner's caches live for one call: a later remove may drop postings or terms.
    const scanner = new PostingScanner(this.#terms, this.#processing.processTerm);
    for (const document of documents) this.#add(document, scanner);
  }

  /** Scans a document's fields, recording field lengths as MiniSearch's addFieldLength does. */
  #scan<D>(document: D, texts: FieldTexts<D>, shortId: number, scanner: Scanner): void {
    const count = documentCount(this) - 1;
    this.#scanFields(document, texts, scanner, (fieldId, distinct) => addFieldLength(this, shortId, fieldId, count, distinct));
  }

  /** Each field of a document through the scanner, then `length` with the field's count of distinct terms. */
  #scanFields<D>(document: D, texts: FieldTexts<D>, scanner: Scanner, length: (fieldId: number, distinct: number) => void): void {
    for (let fieldId = 0; fieldId < FIELD_COUNT; fieldId++) {
      const value = texts(document, fieldId);
      if (value == null) continue;
      scanner.fieldId = fieldId;
      scanner.field();
      if (typeof value === 'string') this.#processing.scanTokens(value, scanner);
      else for (const part of value) this.#processing.scanTokens(part, scanner);
      length(fieldId, scanner.distinct);
    }
  }

  #add(document: MiniSearchDocument, scanner: PostingScanner): void {
    const shortId = addDocumentId(this, document.id);
    scanner.shortId = shortId;
    this.#scan(document, miniSearchTexts, shortId, scanner);
  }

  /**
   * addAll of the documents `texts` reads (document i gets id i) into an empty index, without making a
   * MiniSearchDocument of each: what buildIndex does with a catalogue.
   */
  addAllTexts<D>(documents: readonly D[], texts: FieldTexts<D>): void {
    if (!isPristine(this)) throw new Error('addAllTexts needs an empty index');
    this.#addAllAtOnce(documents, texts, () => addIdentityIds(this, documents.length));
  }

  /** `addIds`: hands MiniSearch the documents' ids, as addDocumentId would one by one. */
  #addAllAtOnce<D>(documents: readonly D[], texts: FieldTexts<D>, addIds: () => void): void {
    const scanner = new KeyScanner(this.#terms, this.#processing.processTerm);
    const n = documents.length;
    const ends = new Int32Array(n);
    // Field lengths and their running averages as addFieldLength makes them (the same operations, so
    // the same bits), kept here and handed over at the end.
    // In a Float64Array: a double stored in an array of `number | undefined` is a heap number of its
    // own, five a document (8 MB of garbage at 100,000 tools). `seen`: the fields some document had.
    const averages = new Float64Array(FIELD_COUNT);
    const seen = new Uint8Array(FIELD_COUNT);
    const lengths = new Array<number[] | undefined>(n);
    const scratch = new Int32Array(FIELD_COUNT);
    const { scanTokens } = this.#processing;
    addIds();
    for (let doc = 0; doc < n; doc++) {
      const document = documents[doc] as D;
      const shortId = doc;
      scanner.doc = doc;
      let last = -1;
      for (let fieldId = 0; fieldId < FIELD_COUNT; fieldId++) {
        const value = texts(document, fieldId);
        scratch[fieldId] = -1;
        if (value == null) continue;
        scanner.fieldId = fieldId;
        scanner.field();
        if (typeof value === 'string') scanTokens(value, scanner);
        else for (let p = 0; p < value.length; p++) scanTokens(value[p] as string, scanner);
        const length = scanner.distinct;
        scratch[fieldId] = length;
        last = fieldId;
        averages[fieldId] = ((averages[fieldId] as number) * doc + length) / (doc + 1);
        seen[fieldId] = 1;
      }
      if (last >= 0) {
        // Sized to the fields set, as MiniSearch's array grows (a field absent is a hole).
        const own = new Array<number>(last + 1);
        for (let fieldId = 0; fieldId <= last; fieldId++) if ((scratch[fieldId] as number) >= 0) own[fieldId] = scratch[fieldId] as number;
        lengths[shortId] = own;
      }
      ends[doc] = scanner.count;
    }
    setFieldLengths(this, lengths, Array.from(averages, (average, fieldId) => (seen[fieldId] === 1 ? average : undefined)));
    const { keys, keyCount, termFieldOf, terms } = scanner;
    // Each key's slice of the shared arrays (see fillPostings).
    const offsets = new Int32Array(keyCount);
    let total = 0;
    for (let key = 0; key < keyCount; key++) {
      offsets[key] = total;
      total += keys[2 * key + 1] as number;
    }
    const ids = new Int32Array(total);
    // Frequencies in bytes while every one fits (they do in tool catalogues: 13 MB less at 100,000
    // tools, which the collector also counts against the next full collection); else in Int32.
    let freqs: Int32Array | Uint8Array = new Uint8Array(total);
    if (!fillPostings(scanner.record(), ends, offsets, ids, freqs, 255)) {
      freqs = new Int32Array(total);
      fillPostings(scanner.record(), ends, offsets, ids, freqs, Infinity);
    }
    // In the order keys were first met: the order MiniSearch adds fields to a term.
    for (let key = 0; key < keyCount; key++) {
      const termField = termFieldOf[key] as number;
      const term = terms[Math.floor(termField / FIELD_COUNT)] as TermEntry;
      term.data.set(termField % FIELD_COUNT, PostingList.view(ids, freqs, offsets[key] as number, keys[2 * key + 1] as number));
    }
  }

  /**
   * Bumped by every replaceTexts: what was derived from the index before (bm25-score.ts's prepared
   * norms and prefix extensions) is stale after it.
   */
  edits = 0;
  /**
   * After replaceTexts: each document's distinct terms in the order a fresh build meets them (see
   * prefixExtensions), worked out when asked; kept over later edits but for the documents they change.
   */
  #termsMet: ((shortId: number) => readonly string[]) | undefined;
  readonly #met = new Map<number, readonly string[]>();

  /**
   * Replaces the words of the documents at `changed` (short ids, which are catalogue positions: the
   * index was built by addAllTexts) by those `documents` now holds there, leaving every other document
   * as it is. `before(id)` is the document as it was indexed. What a search reads comes out as a fresh
   * addAllTexts(documents) would make it: postings (ascending ids), field lengths, the running averages
   * (recomputed over every document, in order, as the build sums them), document frequencies; and
   * prefixExtensions gives prefix matches in the fresh build's order (the tree itself is edited, so
   * its own order is no longer the fresh one's).
   */
  replaceTexts<D>(documents: readonly D[], changed: readonly number[], before: (shortId: number) => D, texts: FieldTexts<D>): ReplacedTexts {
    if (documents.length !== nextShortId(this) || documentCount(this) !== nextShortId(this)) throw new Error('replaceTexts needs the same number of documents, none removed');
    const touched = new Set<string>();
    const lengthsBefore = changed.map((shortId) => fieldLengths(this, shortId));
    for (const shortId of changed) this.#remove(shortId, this.#fieldTerms(before(shortId), texts), touched);
    const scanner = new PostingScanner(this.#terms, this.#processing.processTerm);
    for (const shortId of changed) this.#index(documents[shortId] as D, shortId, texts, scanner, touched);
    // The averages are running means over every document in order: with the same lengths they come
    // out the same, bit for bit, and the pass over every document is skipped (typing inside a word).
    const lengthsMoved = changed.some((shortId, i) => fieldLengths(this, shortId).some((length, f) => length !== lengthsBefore[i]?.[f]));
    const averages = averageFieldLengths(this);
    if (lengthsMoved) recomputeAverageFieldLengths(this, FIELD_COUNT);
    const after = averageFieldLengths(this);
    // A term no replaced document held, before or after, is held by the same documents as before.
    for (const term of touched) this.#frequency.delete(term);
    this.edits++;
    for (const shortId of changed) this.#met.delete(shortId);
    this.#termsMetOf(documents, texts);
    return { touched, averagesChanged: averages.some((average, i) => !Object.is(average, after[i])) };
  }

  /**
   * replaceTexts for a splice: the documents at [start, start + removed) taken out (`before(id)` is the
   * one indexed there), every later one moved by `added - removed` (ids and postings: ids stay catalogue
   * positions, as a fresh build gives them), and `documents[start, start + added)` indexed in their
   * place. The same guarantees as replaceTexts.
   */
  spliceTexts<D>(documents: readonly D[], start: number, removed: number, added: number, before: (shortId: number) => D, texts: FieldTexts<D>): ReplacedTexts {
    const n = nextShortId(this);
    if (documentCount(this) !== n || documents.length !== n - removed + added || start + removed > n) throw new Error('spliceTexts needs the documents of the splice, none removed before');
    const index = this.#terms;
    const touched = new Set<string>();
    for (let shortId = start; shortId < start + removed; shortId++) this.#remove(shortId, this.#fieldTerms(before(shortId), texts), touched);
    const delta = added - removed;
    if (delta !== 0) {
      for (const data of index.values()) {
        for (const [fieldId, postings] of data) {
          if (postings instanceof PostingList) postings.shiftFrom(start + removed, delta);
          else data.set(fieldId, new Map([...postings].map(([id, freq]) => [id >= start + removed ? id + delta : id, freq])));
        }
      }
    }
    spliceDocuments(this, start, removed, added);
    const scanner = new PostingScanner(index, this.#processing.processTerm);
    for (let shortId = start; shortId < start + added; shortId++) this.#index(documents[shortId] as D, shortId, texts, scanner, touched);
    recomputeAverageFieldLengths(this, FIELD_COUNT);
    // Every later document moved: what was worked out per document or per count is stale.
    this.#frequency.clear();
    this.#met.clear();
    this.edits++;
    this.#termsMetOf(documents, texts);
    return { touched, averagesChanged: true };
  }

  /** Takes a document's postings out (its terms by field, as #fieldTerms gives them), dropping terms left with none. */
  #remove(shortId: number, fields: readonly Set<string>[], touched: Set<string>): void {
    const index = this.#terms;
    fields.forEach((terms, fieldId) => {
      for (const term of terms) {
        touched.add(term);
        const data = index.get(term);
        const postings = data?.get(fieldId);
        if (data === undefined || postings === undefined) continue;
        postings.delete(shortId);
        if (postings.size > 0) continue;
        data.delete(fieldId);
        if (data.size === 0) index.delete(term);
      }
    });
  }

  /** Indexes a document at a short id whose postings were taken out, its field lengths set, its terms counted as touched. */
  #index<D>(document: D, shortId: number, texts: FieldTexts<D>, scanner: PostingScanner, touched: Set<string>): void {
    scanner.shortId = shortId;
    this.#scanFields(document, texts, scanner, (fieldId, distinct) => setFieldLength(this, shortId, fieldId, distinct));
    for (const terms of this.#fieldTerms(document, texts)) for (const term of terms) touched.add(term);
  }

  #termsMetOf<D>(documents: readonly D[], texts: FieldTexts<D>): void {
    const met = this.#met;
    this.#termsMet = (shortId) => {
      let terms = met.get(shortId);
      if (terms === undefined) {
        const seen = new Set<string>();
        for (const fieldTerms of this.#fieldTerms(documents[shortId] as D, texts)) for (const term of fieldTerms) seen.add(term);
        met.set(shortId, (terms = [...seen]));
      }
      return terms;
    };
  }

  /** A document's distinct processed terms by field id, each in the order the scan meets it. */
  #fieldTerms<D>(document: D, texts: FieldTexts<D>): Set<string>[] {
    const { scanTokens, processTerm } = this.#processing;
    const out: Set<string>[] = [];
    let terms = new Set<string>();
    const sink: TokenSink = {
      range: (text, start, end) => sink.token(text.slice(start, end)),
      token: (token) => {
        const term = processTerm(token);
        if (term) terms.add(term);
      },
    };
    for (let fieldId = 0; fieldId < FIELD_COUNT; fieldId++) {
      out.push((terms = new Set()));
      const value = texts(document, fieldId);
      if (value == null) continue;
      if (typeof value === 'string') scanTokens(value, sink);
      else for (const part of value) scanTokens(part, sink);
    }
    return out;
  }

  /**
   * The terms extending `prefix` (itself included) with their postings, in the order MiniSearch's
   * `atPrefix` walks them in a freshly built index. That order is the radix tree's, which depends on
   * the order terms entered it; a fresh build enters them as it meets them (document by document, each
   * in scan order), and replaceTexts edits the tree in another order. The order matters: a score sums
   * a document's matches over the extensions in it, and floating-point sums differ in the last bits
   * with the order. Below the node of `prefix` the tree's shape and order depend only on the terms
   * extending it and the order they entered, so a small tree of just those, entered in the fresh
   * build's order (by the first document holding each, then by where that document's scan meets it),
   * walks in the fresh build's order.
   */
  prefixExtensions(prefix: string): Iterable<[string, FieldTermData]> {
    const found = termIndex(this).atPrefix(prefix);
    const termsMet = this.#termsMet;
    if (termsMet === undefined) return found;
    const entries = [...found].map(([term, data]) => {
      let first = Infinity;
      for (const postings of data.values()) {
        // Postings are in ascending id order.
        const id = postings instanceof PostingList ? (postings.length > 0 ? (postings.ids[postings.start] as number) : Infinity) : Math.min(...postings.keys());
        if (id < first) first = id;
      }
      return { term, data, first, at: -1 };
    });
    entries.sort((x, y) => x.first - y.first);
    // Terms first met in the same document: in the order its scan meets them.
    for (let i = 0; i + 1 < entries.length; i++) {
      const first = (entries[i] as (typeof entries)[number]).first;
      if ((entries[i + 1] as (typeof entries)[number]).first !== first) continue;
      const met = termsMet(first);
      let j = i;
      for (; j < entries.length && (entries[j] as (typeof entries)[number]).first === first; j++) {
        const entry = entries[j] as (typeof entries)[number];
        entry.at = met.indexOf(entry.term);
      }
      const group = entries.slice(i, j).sort((x, y) => x.at - y.at);
      entries.splice(i, group.length, ...group);
      i = j - 1;
    }
    const fresh = new SearchableMap<FieldTermData>();
    for (const { term, data } of entries) fresh.set(term, data);
    return fresh.atPrefix(prefix);
  }

  /** The number of documents holding `term` (processed) in any field. */
  documentFrequency(term: string): number {
    const generation = documentsGeneration(this);
    if (this.#frequencyOf !== generation) {
      // Documents came or went since the counts were taken.
      this.#frequency.clear();
      this.#frequencyOf = generation;
    }
    const known = this.#frequency.get(term);
    if (known !== undefined) return known;
    const byField = termIndex(this).get(term);
    let frequency = 0;
    if (byField !== undefined) {
      if (byField.size === 1) {
        for (const docs of byField.values()) frequency = docs.size;
      } else {
        // Distinct ids across the fields' postings, marked in a byte per document.
        const seen = new Uint8Array(nextShortId(this));
        for (const docs of byField.values()) {
          for (const id of docs.keys()) {
            if (seen[id] === 0) {
              seen[id] = 1;
              frequency++;
            }
          }
        }
      }
    }
    this.#frequency.set(term, frequency);
    return frequency;
  }
}
