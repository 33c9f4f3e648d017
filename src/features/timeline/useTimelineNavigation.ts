// Moving along the timeline: the selected row (the store's, clamped to the derivation), ↑/↓, j/k,
// Home/End, the scroll that keeps the selected row in view, and the first selection of a freshly
// loaded document.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { RefObject } from 'react';
import { useSelectedEntry } from '../../derive/hooks';
import type { TimelineView } from '../../derive/protocol';
import { spineEntry } from '../../derive/spine';
import type { SpineEntry } from '../../derive/spine';
import { useWorkbench, useWorkbenchStore } from '../../state/context';
import { firstPromotionEntry, moveSelection, SelectionScroll } from './rows';

/** The step (0-based index into doc.steps) a row belongs to. */
export function stepIndexOf(e: { readonly step?: number | undefined } | undefined): number | undefined {
  return e?.step !== undefined ? e.step - 1 : undefined;
}

export interface TimelineNavigation {
  readonly selected: number | undefined;
  readonly select: (entry: number | undefined) => void;
  /** The selected row, and the step (0-based) it belongs to. */
  readonly current: SpineEntry | undefined;
  readonly currentStep: number | undefined;
  readonly count: number;
  /** Moves the selection for a navigation key; false when the key is not one. */
  readonly move: (key: string) => boolean;
  readonly listRef: RefObject<HTMLDivElement | null>;
  /** Where the list scrolls on a selection change: the load's own choice leaves it at its start. */
  readonly scroll: SelectionScroll;
}

/**
 * Opens a freshly loaded document (boot, file open, demo) on the first
 * promotion, so the idea is visible at a glance, with the list at its start;
 * edits never move the selection.
 */
function useSelectOnLoad(view: TimelineView | undefined, scroll: SelectionScroll, listRef: RefObject<HTMLDivElement | null>) {
  const store = useWorkbenchStore();
  const pending = useRef(true);
  useEffect(
    () =>
      store.subscribe((s, prev) => {
        // Only a replaced document changes both its layers and its steps at once.
        if (s.doc !== prev.doc && s.doc.layers !== prev.doc.layers && s.doc.steps !== prev.doc.steps) pending.current = true;
      }),
    [store],
  );
  useEffect(() => {
    // The store's revision is read, not watched: only a new answer can make the two meet.
    if (!pending.current || !view || view.revision !== store.getState().revision) return;
    pending.current = false;
    if (store.getState().selectedEntry !== undefined) return;
    const p = firstPromotionEntry(view);
    if (p === undefined) {
      // Nothing to select: the list still shows the new document's start, not the old one's scroll.
      listRef.current?.scrollTo({ top: 0 });
      return;
    }
    scroll.chosenOnLoad(p);
    store.getState().selectEntry(p);
  }, [view, store, scroll, listRef]);
}

export function useTimelineNavigation(view: TimelineView | undefined): TimelineNavigation {
  const selected = useSelectedEntry(view);
  const select = useWorkbench((s) => s.selectEntry);
  const listRef = useRef<HTMLDivElement>(null);
  const [scroll] = useState(() => new SelectionScroll());
  useSelectOnLoad(view, scroll, listRef);
  const count = view?.entryCount ?? 0;
  // The row's kind, position and step come from the spine (its words from the list's window); the list
  // scrolls the selected row into view (TimelineList).
  const current = spineEntry(view, selected);

  const move = useCallback(
    (key: string) => {
      const n = moveSelection(key, selected ?? 0, count);
      if (n !== undefined) select(n);
      return n !== undefined;
    },
    [selected, count, select],
  );

  return { selected, select, current, currentStep: stepIndexOf(current), count, move, listRef, scroll };
}
