// Prefix-cache comparison: a request keeps the provider's cache when the previous request's rendered
// bytes (tools, system, messages) are a byte-prefix of its own (semantics §8 item 13).
//
// The requests are compared as pieces (render.ts `Prefix`): each tools array element, the brackets
// and commas between them, the system prompt, each message line. Two requests offering the same tools
// hold the same element objects, so the shared prefix is walked piece by piece by identity, and the
// texts are compared unit by unit only from the first piece that differs. Nothing joins a tools array
// of hundreds of kilobytes per request; the result is the one a comparison of the joined texts gives
// (cache.test.ts holds it to that comparison, kept in cost/test-kit.ts).
import { utf8ByteLength } from './cost';
import { pieceBytes } from './render';
import type { Piece, Prefix, RenderedRequest } from './render';

export type CacheSection = 'tools' | 'system' | 'messages';

export interface CacheComparison {
  readonly status: 'hit' | 'miss';
  /**
   * On a miss against a previous request: the first UTF-8 byte offset (into `cur.bytes`) where the
   * two requests differ, and the section of the current request it falls in.
   */
  readonly firstDifference?: { readonly offset: number; readonly section: CacheSection };
  readonly reason: string;
}

export type Sectioned = Pick<RenderedRequest, 'prefix'>;

const SECTION_WORDS: Record<CacheSection, string> = {
  tools: 'tools array',
  system: 'system prompt',
  messages: 'messages',
};

const OPEN: Piece = { text: '[', bytes: 1 };
const COMMA: Piece = { text: ',', bytes: 1 };
const CLOSE: Piece = { text: ']', bytes: 1 };

/** A prefix as one run of pieces, with each section's end (in UTF-16 units) and each piece's start. */
interface Run {
  readonly pieces: readonly Piece[];
  /** starts[i]: the UTF-16 offset of piece i; starts[pieces.length]: the whole length. */
  readonly starts: readonly number[];
  readonly toolsEnd: number;
  readonly systemEnd: number;
}

const runs = new WeakMap<Prefix, Run>();

function runOf(prefix: Prefix): Run {
  let run = runs.get(prefix);
  if (run) return run;
  const pieces: Piece[] = [];
  if (prefix.tools !== undefined) {
    pieces.push(OPEN);
    prefix.tools.forEach((t, i) => {
      if (i > 0) pieces.push(COMMA);
      pieces.push(t);
    });
    pieces.push(CLOSE);
  }
  const toolsCount = pieces.length;
  if (prefix.system !== '') pieces.push({ text: prefix.system });
  const systemCount = pieces.length;
  for (const m of prefix.messages) pieces.push(m);
  const starts: number[] = [0];
  let at = 0;
  for (const p of pieces) starts.push((at += p.text.length));
  run = { pieces, starts, toolsEnd: starts[toolsCount] ?? 0, systemEnd: starts[systemCount] ?? 0 };
  runs.set(prefix, run);
  return run;
}

const lengthOf = (r: Run): number => r.starts[r.starts.length - 1] ?? 0;

/** Blocks compared natively before the walk: two requests share hundreds of kilobytes of prefix. */
const BLOCK = 4096;

/** How many UTF-16 units a[ao..ao+n) and b[bo..bo+n) share from their start. */
function commonUnits(a: string, ao: number, b: string, bo: number, n: number): number {
  let i = 0;
  while (i + BLOCK <= n && a.slice(ao + i, ao + i + BLOCK) === b.slice(bo + i, bo + i + BLOCK)) i += BLOCK;
  while (i < n && a.charCodeAt(ao + i) === b.charCodeAt(bo + i)) i++;
  return i;
}

/** The piece holding UTF-16 offset `index` (the last piece when `index` is the end). */
function pieceAt(r: Run, index: number): number {
  let lo = 0;
  let hi = r.pieces.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((r.starts[mid] ?? 0) <= index) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function unitAt(r: Run, index: number): number {
  const k = pieceAt(r, index);
  return r.pieces[k]?.text.charCodeAt(index - (r.starts[k] ?? 0)) ?? 0;
}

/** Index (UTF-16) of the first differing code unit of the two texts, or the shorter length when one is a prefix. */
function firstDifferingIndex(a: Run, b: Run): number {
  // Equal pieces first: the same element objects, or equal texts.
  let k = 0;
  const n = Math.min(a.pieces.length, b.pieces.length);
  while (k < n) {
    const x = a.pieces[k] as Piece;
    const y = b.pieces[k] as Piece;
    if (x !== y && x.text !== y.text) break;
    k++;
  }
  let index = a.starts[k] ?? 0;
  // From there, unit by unit across piece boundaries (pieces of the two may no longer line up).
  let ia = k;
  let ib = k;
  let oa = 0;
  let ob = 0;
  while (ia < a.pieces.length && ib < b.pieces.length) {
    const ta = (a.pieces[ia] as Piece).text;
    const tb = (b.pieces[ib] as Piece).text;
    const m = Math.min(ta.length - oa, tb.length - ob);
    const j = commonUnits(ta, oa, tb, ob, m);
    index += j;
    if (j < m) break;
    oa += m;
    ob += m;
    if (oa === ta.length) {
      ia++;
      oa = 0;
    }
    if (ob === tb.length) {
      ib++;
      ob = 0;
    }
  }
  // Never split a surrogate pair: report the start of the character.
  if (index > 0 && index < Math.min(lengthOf(a), lengthOf(b))) {
    const prev = unitAt(a, index - 1);
    if (prev >= 0xd800 && prev <= 0xdbff) index--;
  }
  return index;
}

const isHigh = (u: number): boolean => u >= 0xd800 && u <= 0xdbff;
const isLow = (u: number): boolean => u >= 0xdc00 && u <= 0xdfff;

/**
 * UTF-8 bytes of the run's first `index` UTF-16 units: the pieces' memoized lengths summed, less 2
 * wherever a surrogate pair straddles two pieces (measured apart, each half counts 3 bytes, as a
 * lone surrogate does; together they are one 4-byte character). Rendered pieces never split one.
 */
function bytesBefore(r: Run, index: number): number {
  let total = 0;
  let lastHigh = false;
  const add = (p: Piece, n: number): void => {
    if (n === 0) return;
    if (lastHigh && isLow(p.text.charCodeAt(0))) total -= 2;
    total += n === p.text.length ? pieceBytes(p) : utf8ByteLength(p.text.slice(0, n));
    lastHigh = isHigh(p.text.charCodeAt(n - 1));
  };
  let k = 0;
  for (; k < r.pieces.length && (r.starts[k + 1] ?? 0) <= index; k++) {
    const p = r.pieces[k] as Piece;
    add(p, p.text.length);
  }
  const piece = r.pieces[k];
  if (piece) add(piece, index - (r.starts[k] ?? 0));
  return total;
}

function sectionAt(cur: Run, index: number): CacheSection {
  const length = lengthOf(cur);
  if (index < cur.toolsEnd) return 'tools';
  if (index < cur.systemEnd) return 'system';
  if (index < length || length > cur.systemEnd) return 'messages';
  // cur ended before the difference (it is a strict prefix of prev): the last non-empty section.
  if (cur.systemEnd > cur.toolsEnd) return 'system';
  if (cur.toolsEnd > 0) return 'tools';
  return 'messages';
}

export function compareCache(prev: Sectioned | undefined, cur: Sectioned): CacheComparison {
  if (prev === undefined) return { status: 'miss', reason: 'first request' };
  const a = runOf(prev.prefix);
  const b = runOf(cur.prefix);
  const index = firstDifferingIndex(a, b);
  // Well-formed strings: a code-unit prefix is exactly a UTF-8 byte prefix.
  if (index === lengthOf(a)) {
    return {
      status: 'hit',
      reason: `previous request is a prefix: ${bytesBefore(a, index)} of ${bytesBefore(b, lengthOf(b))} bytes reused`,
    };
  }
  const section = sectionAt(b, index);
  const offset = bytesBefore(b, index);
  const reason =
    index >= lengthOf(b)
      ? `request is shorter than the previous one; it ends at byte ${offset} (${SECTION_WORDS[section]})`
      : `${SECTION_WORDS[section]} differ${section === 'messages' ? '' : 's'} from the previous request at byte ${offset}`;
  return { status: 'miss', firstDifference: { offset, section }, reason };
}
