// The guided tour's steps: what a position is, a promotion, the request that follows it, and its cost.
// Each step picks the timeline row it is about from the derived view, and names the region to outline.
// A document without a promotion (a user's own, often with no steps) skips the stops about one, and
// the cost stop names only the requests and promotions it has.
// Pure (DOM-free), so the choice of rows is unit-tested.
import type { TimelineView } from '../../derive/protocol';
import type { DockTab } from '../../state/store';

export interface TourStep {
  readonly title: string;
  /** False when the document has nothing this stop can show (undefined: every document has it). */
  readonly shows?: (view: TimelineView) => boolean;
  /** What the stop says on the demo (and on any document with everything it names). */
  readonly body: string;
  /** The text for this document, where the demo's would name what it has not (undefined: body). */
  readonly bodyFor?: (view: TimelineView) => string;
  /** The timeline row to select (undefined: leave the selection). */
  readonly entry?: (view: TimelineView) => number | undefined;
  /** A CSS selector for the region to outline. */
  readonly target: string;
  readonly dock?: DockTab;
}

const firstPromotion = (v: TimelineView): number | undefined => v.firstPromotion;

/** The first request after the first promotion: the one that carries the promoted definitions. */
export function requestAfterPromotion(v: TimelineView): number | undefined {
  const p = firstPromotion(v);
  if (p === undefined) return v.requestEntries[0];
  return v.requestEntries.find((row) => row > p);
}

const COST = 'Every request carries the definitions it offers: their cost in bytes and tokens, against what offering every permitted tool would cost.';

export const TOUR: readonly TourStep[] = [
  {
    title: 'A position',
    body: 'Each row of the timeline is a position in the conversation: the base config from the layers, then each delta, turn, request and call, in order. Selecting a row drives the rest of the screen: on the right, every tool at that position, its availability, and its sets (P permitted, O offered, S searchable).',
    entry: () => 0,
    target: '[aria-label="Timeline"]',
  },
  {
    title: 'A promotion',
    body: 'The model called search_tools. What the search returned is promoted by a config delta (discoverable → on), durable in the conversation\'s stream like any other config. The sets on the right now offer those tools.',
    entry: firstPromotion,
    shows: (v) => firstPromotion(v) !== undefined,
    target: '[aria-label="Timeline"] [aria-selected="true"]',
  },
  {
    title: 'The request that follows it',
    body: 'The very next request of the same turn already offers the promoted definitions ("+N new"): discovery costs one tool call, not one turn. Its "cached" figure is what the provider\'s prompt cache read; hover it for the status and its reason (here the tools array grew, so the prefix changed).',
    entry: requestAfterPromotion,
    // About what a promotion adds to the request after it: only where there is both.
    shows: (v) => firstPromotion(v) !== undefined && requestAfterPromotion(v) !== undefined,
    target: '[aria-label="Timeline"] [aria-selected="true"]',
  },
  {
    title: 'The cost',
    body: `${COST} The cost chart puts the two side by side, request by request, with the promotions as markers.`,
    // A user's own document may have no promotion, or no request at all: the chart then has no
    // promotion marker, or is empty, and the stop says so instead of describing the demo's.
    bodyFor: (v) =>
      v.requestCount === 0
        ? 'Each request carries the definitions it offers: their cost in bytes and tokens, against what offering every permitted tool would cost. This document has no request yet, so the cost chart is empty: once a jp q step sends one, it puts the two side by side, request by request.'
        : firstPromotion(v) === undefined
          ? `${COST} The cost chart puts the two side by side, request by request.`
          : `${COST} The cost chart puts the two side by side, request by request, with the promotions as markers.`,
    target: '[aria-label="Dock"]',
    dock: 'chart',
  },
  {
    title: 'Your turn',
    body: 'Type a jp command in the field under the timeline (Alt+P) to add a step, then act as the model in the Simulator, or let the auto model play the turn. RFD 108 in the header (Alt+R) shows the RFD\'s tables as the engine computes them.',
    target: '[aria-label="Timeline"] form',
    dock: 'simulator',
  },
];

/** The stops of the tour for this document: only those about what it has, in words about what it has. */
export function tourFor(view: TimelineView | undefined): readonly TourStep[] {
  if (view === undefined) return TOUR;
  return TOUR.filter((s) => s.shows?.(view) ?? true).map((s) => (s.bodyFor ? { ...s, body: s.bodyFor(view) } : s));
}
