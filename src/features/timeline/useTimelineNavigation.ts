// Moving along the timeline: the selected row (the store's, clamped to the derivation), ↑/↓, j/k,
// Home/End, the scroll that keeps the selected row in view, and the first selection of a freshly
// loaded document.
import { useCallback, useEffect, useRef } from 'react';
import type { RefObject } from 'react';
import { useSelectedEntry } from '../../derive/hooks';
import type { EntryView, TimelineView } from '../../derive/protocol';
import { useWorkbench, useWorkbenchStore } from '../../state/context';
import { firstPromotionEntry, moveSelection } from './rows';

/** The step (0-based index into doc.steps) a row belongs to. */
export function stepIndexOf(e: EntryView | undefined): number | undefined {
  return e?.step !== undefined ? e.step - 1 : undefined;
}

export interface TimelineNavigation {
  readonly selected: number | undefined;
  readonly select: (entry: number | undefined) => void;
  /** The selected row, and the step (0-based) it belongs to. */
  readonly current: EntryView | undefined;
  readonly currentStep: number | undefined;
  readonly count: number;
  /** Moves the selection for a navigation key; false when the key is not one. */
  readonly move: (key: string) => boolean;
  readonly listRef: RefObject<HTMLDivElement | null>;
}

/**
 * Opens a freshly loaded document (boot, file open, demo) on the first
 * promotion, so the idea is visible at a glance; edits never move the selection.
 */
function useSelectOnLoad(view: TimelineView | undefined, revision: number) {
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
    if (!pending.current || !view || view.revision !== revision) return;
    pending.current = false;
    if (store.getState().selectedEntry !== undefined) return;
    const p = firstPromotionEntry(view);
    if (p !== undefined) store.getState().selectEntry(p);
  }, [view, revision, store]);
}

export function useTimelineNavigation(view: TimelineView | undefined): TimelineNavigation {
  const revision = useWorkbench((s) => s.revision);
  const selected = useSelectedEntry(view);
  const select = useWorkbench((s) => s.selectEntry);
  const listRef = useRef<HTMLDivElement>(null);
  useSelectOnLoad(view, revision);
  const count = view?.entries.length ?? 0;
  const current = view && selected !== undefined ? view.entries[selected] : undefined;

  // Scroll the selected row into view when the selection moves (or its row first appears), not on every
  // derivation: scrollIntoView forces a layout, and typing derives on every keystroke.
  const scrolledTo = useRef<number | undefined>(undefined);
  const hasView = view !== undefined;
  useEffect(() => {
    if (selected === undefined || !hasView || scrolledTo.current === selected) return;
    const row = listRef.current?.querySelector(`[data-entry="${selected}"]`);
    if (!row) return;
    scrolledTo.current = selected;
    row.scrollIntoView({ block: 'nearest' });
  }, [selected, hasView, count]);

  const move = useCallback(
    (key: string) => {
      const n = moveSelection(key, selected ?? 0, count);
      if (n !== undefined) select(n);
      return n !== undefined;
    },
    [selected, count, select],
  );

  return { selected, select, current, currentStep: stepIndexOf(current), count, move, listRef };
}
