// The spans of a loaded layer's origins are kept relative to the header section they lie in (issue
// 32, a keystroke inside a 100,000-tool catalogue layer). An insertion near the top of the layer moves
// every later byte; with absolute spans that meant a moved copy of every later tool (and the engine
// then patched each as a tool that had moved). Relative to an Anchor (the start of their section), a
// span moves when its section's anchor moves: an edit read table by table (incremental.ts) adds the
// edit's length to the anchors after it (one number per section) and every later tool stays the same
// object. Readers see an ordinary Span: `start` and `end` are read through the anchors.
//
// What that costs: an Anchor is shared by the LoadedLayers of one lineage of edits, so a LoadedLayer's
// spans read the positions of the newest edit made from it (an older revision's spans read the newer
// text's offsets). Values, names and Map order are never shared that way: only where in the text.
import type { Span } from './toml-ast';
import type { Origin, Sourced } from './types';

/** Where one header section (or the text before the first header) starts in the newest text. */
export interface Anchor {
  base: number;
}

/**
 * A span read through the anchors of the sections holding its first and its last character. Serialised
 * (JSON, a worker message through `plainSpan`) as a plain `{ start, end }`.
 */
export class AnchoredSpan implements Span {
  constructor(
    private readonly a: Anchor,
    private readonly s: number,
    private readonly b: Anchor,
    private readonly e: number,
  ) {}
  get start(): number {
    return this.a.base + this.s;
  }
  get end(): number {
    return this.b.base + this.e;
  }
  toJSON(): Span {
    return { start: this.start, end: this.end };
  }
}

/** A span as a plain object (what a Diagnostic keeps: it crosses the worker boundary, which keeps no getters). */
export function plainSpan(s: Span): Span {
  return s instanceof AnchoredSpan ? { start: s.start, end: s.end } : s;
}

/** The anchors of a text: the root's (at 0), then one per header `[` in order; `bases` gives where each starts. */
export function anchorsOf(sectionStarts: readonly number[]): Anchor[] {
  const out: Anchor[] = [{ base: 0 }];
  for (const start of sectionStarts) out.push({ base: start });
  return out;
}

/** The last of `anchors` (ordered by base) that starts at or before `offset` (strictly before, with `strict`). */
export function anchorIndex(anchors: readonly Anchor[], offset: number, strict = false): number {
  let lo = 0;
  let hi = anchors.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    const b = (anchors[mid] as Anchor).base;
    if (strict ? b < offset : b <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * A value read from a layer, with where it was written kept as its anchors (one object where `{ value,
 * origin }`, the Origin and its AnchoredSpan were three). A layer's config is mostly such values, and at
 * 100,000 tools their objects were most of what an open made the collector copy. The origin is made
 * when first asked (a provenance, a diagnostic, a likeness after an edit), then kept, so it is always
 * the same object. Serialised (JSON) as a plain `{ value, origin }`.
 */
export class LayerSourced<T> implements Sourced<T> {
  #origin: Origin | undefined;
  constructor(
    readonly value: T,
    private readonly layer: string,
    private readonly a: Anchor,
    private readonly s: number,
    private readonly b: Anchor,
    private readonly e: number,
  ) {}
  get origin(): Origin {
    return (this.#origin ??= { kind: 'layer', layer: this.layer, span: new AnchoredSpan(this.a, this.s, this.b, this.e) });
  }
  /** The same place holding another value (a value read again from what was written there). */
  with<U>(value: U): LayerSourced<U> {
    return new LayerSourced(value, this.layer, this.a, this.s, this.b, this.e);
  }
  toJSON(): { value: T; origin: Origin } {
    return { value: this.value, origin: this.origin };
  }
}

/**
 * Spans (offsets of the text `anchors` describe) read relative to the section holding their start, and
 * their end to the section holding their last character (their start's, when empty). Spans are mostly
 * asked in the text's order, so the last section found is tried first (a search per origin was a third
 * of a whole parse's time at 20,000 tools).
 */
class Anchoring {
  private at = 0;
  private a!: Anchor;
  private b!: Anchor;
  constructor(private readonly anchors: readonly Anchor[]) {}

  private holds(k: number, offset: number): boolean {
    const anchors = this.anchors;
    return (anchors[k] as Anchor).base <= offset && (k + 1 >= anchors.length || (anchors[k + 1] as Anchor).base > offset);
  }

  private find(span: Span): void {
    const anchors = this.anchors;
    if (!this.holds(this.at, span.start)) this.at = anchorIndex(anchors, span.start);
    this.a = anchors[this.at] as Anchor;
    this.b = this.a;
    if (span.end > span.start && !this.holds(this.at, span.end - 1)) this.b = anchors[anchorIndex(anchors, span.end, true)] as Anchor;
  }

  span(span: Span): AnchoredSpan {
    this.find(span);
    return new AnchoredSpan(this.a, span.start - this.a.base, this.b, span.end - this.b.base);
  }

  sourced<T>(value: T, span: Span, layer: string): LayerSourced<T> {
    this.find(span);
    return new LayerSourced(value, layer, this.a, span.start - this.a.base, this.b, span.end - this.b.base);
  }
}

/** A function giving a span (offsets of the text `anchors` describe) as an AnchoredSpan (Anchoring). */
export function anchorer(anchors: readonly Anchor[]): (span: Span) => AnchoredSpan {
  const anchoring = new Anchoring(anchors);
  return (span) => anchoring.span(span);
}

/** A layer's origins and sourced values, anchored (Anchoring): what a ReadContext gives for the layer `layer`. */
export function layerOrigins(anchors: readonly Anchor[], layer: string): { origin(at: Span): Origin; sourced<T>(value: T, at: Span): LayerSourced<T> } {
  const anchoring = new Anchoring(anchors);
  return {
    origin: (at) => ({ kind: 'layer', layer, span: anchoring.span(at) }),
    sourced: (value, at) => anchoring.sourced(value, at, layer),
  };
}
