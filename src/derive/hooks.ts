// Hooks panels use to read derivations. The timeline is derived for the
// newest revision; views of it ask for that same revision, so the worker
// answers from the timeline it holds. Rows come in windows (issue 32.4): a
// panel asks for the rows it shows, never for all of them.
import { keepPreviousData, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useSyncExternalStore } from 'react';
import { useWorkbench, useWorkbenchStore } from '../state/context';
import { deriveQuery, requestQuery, setsWindowQuery, timelineWindowQuery, useDeriveClient, provenanceQuery } from './queries';
import { timelineSource } from './timelineSource';
import type { TimelineSource } from './timelineSource';
import type { SetsQuery, SetsSummary, SetsWindow, TimelineView } from './protocol';
import { spineEntry } from './spine';
import type { SpineEntry } from './spine';

function useSource(): TimelineSource {
  return timelineSource(useQueryClient(), useWorkbenchStore(), useDeriveClient());
}

/**
 * The derivation on screen (the newest answer; while a newer revision is derived, the previous one). A
 * panel re-renders when an answer comes, not at each keystroke (timelineSource.ts).
 */
export function useTimeline(): { data: TimelineView | undefined } {
  const source = useSource();
  return { data: useSyncExternalStore(source.subscribe, source.view) };
}

/** The newest derivation at once, before the other panels render it (timelineSource.ts): for the set counts only. */
function useTimelineNow(): TimelineView | undefined {
  const source = useSource();
  return useSyncExternalStore(source.subscribeNow, source.viewNow);
}

/** The derivation and whether a newer one is being asked: for the markers that say so (re-renders twice a keystroke). */
export function useTimelineStatus(): { data: TimelineView | undefined; isFetching: boolean } {
  const source = useSource();
  const r = useSyncExternalStore(source.subscribeNow, source.result);
  return { data: r.data, isFetching: r.isFetching };
}

/**
 * Whether the document on screen is older than the store's: the view's revision is behind, or its answer
 * is still being fetched. A boolean selector, so only the marker that reads it re-renders as typing starts
 * and stops.
 */
export function useBehind(viewRevision: number | undefined): boolean {
  const { isFetching } = useTimelineStatus();
  const behind = useWorkbench((s) => viewRevision !== undefined && s.revision !== viewRevision);
  return isFetching || behind;
}

/** The selected row, defaulting to the last one. */
export function useSelectedEntry(view: TimelineView | undefined): number | undefined {
  const selected = useWorkbench((s) => s.selectedEntry);
  if (!view || view.entryCount === 0) return undefined;
  if (selected === undefined) return view.entryCount - 1;
  return Math.min(selected, view.entryCount - 1);
}

export function useSelectedPosition(): { view: TimelineView | undefined; entry: number | undefined; position: number; row: SpineEntry | undefined } {
  const { data: view } = useTimeline();
  return selectedPositionIn(view, useSelectedEntry(view));
}

function selectedPositionIn(view: TimelineView | undefined, entry: number | undefined): { view: TimelineView | undefined; entry: number | undefined; position: number; row: SpineEntry | undefined } {
  const row = spineEntry(view, entry);
  return { view, entry, position: row?.position ?? 0, row };
}

const NO_FILTER: SetsQuery = {};

/**
 * The set counts at the selected position: the derivation carries them when that is still the row
 * shown, else a zero-row window asks the worker.
 */
export function useSetCounts(): { data: SetsSummary | undefined; isFetching: boolean; isPlaceholderData: boolean } {
  const client = useDeriveClient();
  // At once: the counts are what a keystroke is waited on for (the rest of the page follows a frame later).
  const now = useTimelineNow();
  const { view, position } = selectedPositionIn(now, useSelectedEntry(now));
  const revision = view?.revision ?? 0;
  const inline = view?.sets !== undefined && view.sets.revision === revision && view.sets.position === position ? view.sets : undefined;
  const q = useQuery(setsWindowQuery(client, revision, position, 0, 0, NO_FILTER, view !== undefined && view.scenarioErrors.length === 0 && inline === undefined));
  if (inline) return { data: inline, isFetching: false, isPlaceholderData: false };
  return { data: q.data, isFetching: q.isFetching, isPlaceholderData: q.isPlaceholderData };
}

/** Rows [offset, offset + limit) of the sets at the selected position, filtered in the worker. */
export function useSetsWindow(offset: number, limit: number, filter: SetsQuery, enabled = true) {
  const client = useDeriveClient();
  const { view, position } = useSelectedPosition();
  const revision = view?.revision ?? 0;
  return useQuery(setsWindowQuery(client, revision, position, offset, limit, filter, enabled && view !== undefined && view.scenarioErrors.length === 0));
}

/**
 * Blocks of the sets rows at the selected position (block k: rows [k * size, (k + 1) * size)), filtered
 * in the worker; each block its own query, kept a minute, so rows seen come back at once. While a block of
 * a new derivation comes, the block it replaces stays on screen: useQueries matches its observers by key,
 * so a new revision gets new observers with no previous data to keep, and each keystroke would unmount
 * every row for a frame of placeholders and mount them again.
 */
export function useSetsBlocks(blocks: readonly number[], size: number, filter: SetsQuery): readonly (SetsWindow | undefined)[] {
  const client = useDeriveClient();
  const { view, position } = useSelectedPosition();
  const revision = view?.revision ?? 0;
  const enabled = view !== undefined && view.scenarioErrors.length === 0;
  // No `combine`: react-query shares a combined result structurally with the one before, a deep walk of
  // every row of every block at each render (a third of a scroll frame's work at 10,000 tools).
  const windows = useQueries({
    queries: blocks.map((k) => ({ ...setsWindowQuery(client, revision, position, k * size, size, filter, enabled), gcTime: 60_000 })),
  }).map((r) => r.data);
  // Only a block of the same list stands in (same position, same filter): another list's rows would be
  // wrong rows, not old ones. Only the blocks asked now are kept: a long scroll holds a screenful.
  const shown = useRef(new Map<number, SetsWindow>());
  const list = `${position}\u0000${JSON.stringify(filter)}`;
  const listRef = useRef(list);
  if (listRef.current !== list) {
    listRef.current = list;
    shown.current = new Map();
  }
  const kept = new Map<number, SetsWindow>();
  const out = blocks.map((k, i) => {
    const w = windows[i] ?? shown.current.get(k);
    if (w) kept.set(k, w);
    return w;
  });
  shown.current = kept;
  return out;
}

/** Rows [offset, offset + limit) of the timeline, each with its request's facts; `brief`: as the list shows them (see timelineWindow). */
export function useTimelineWindow(offset: number, limit: number, enabled = true, brief = false) {
  const client = useDeriveClient();
  const { data: view } = useTimeline();
  const revision = view?.revision ?? 0;
  return useQuery(timelineWindowQuery(client, revision, offset, limit, brief, enabled && view !== undefined && view.entryCount > 0 && limit > 0));
}

/** One timeline row with its words, brief (the selected row, a request's row). */
export function useTimelineRow(index: number | undefined) {
  const { data, ...rest } = useTimelineWindow(index ?? 0, 1, index !== undefined, true);
  const row = data?.rows[0];
  return { ...rest, data: row && row.entry.index === index ? row : undefined };
}

/** Every request's definition cost and the markers between them: the cost chart and its threshold (only while shown). */
export function useChartRows(enabled = true) {
  const client = useDeriveClient();
  const { data: view } = useTimeline();
  const revision = view?.revision ?? 0;
  return useQuery({
    ...deriveQuery(client, 'chartRows', { revision }),
    staleTime: Infinity,
    gcTime: 10_000,
    enabled: enabled && view !== undefined && view.scenarioErrors.length === 0,
    placeholderData: keepPreviousData,
  });
}

export function useRequestDetail(id: number | undefined) {
  const client = useDeriveClient();
  const { data: view } = useTimeline();
  const revision = view?.revision ?? 0;
  return useQuery(requestQuery(client, revision, id ?? 0, view !== undefined && id !== undefined && id < view.requestCount));
}

export function useProvenance(name: string | undefined) {
  const client = useDeriveClient();
  const { view, position } = useSelectedPosition();
  return useQuery(provenanceQuery(client, view?.revision ?? 0, position, name ?? '', view !== undefined && name !== undefined));
}
