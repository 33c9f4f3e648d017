// Hooks panels use to read derivations. The timeline is derived for the
// newest revision; views of it ask for that same revision, so the worker
// answers from the timeline it holds.
import { useQuery } from '@tanstack/react-query';
import { useWorkbench, useWorkbenchStore } from '../state/context';
import { workspaceInput } from '../state/workspaceSlice';
import { requestQuery, setsQuery, timelineQuery, useDeriveClient, provenanceQuery } from './queries';
import type { TimelineView } from './protocol';

export function useTimeline() {
  const client = useDeriveClient();
  const store = useWorkbenchStore();
  const doc = useWorkbench((s) => s.doc);
  const revision = useWorkbench((s) => s.revision);
  const workspace = useWorkbench(workspaceInput);
  // The derivation also answers the sets at the selected row (see useSets).
  return useQuery(timelineQuery(client, doc, revision, workspace, () => store.getState().selectedEntry ?? null));
}

/** The selected row, defaulting to the last one. */
export function useSelectedEntry(view: TimelineView | undefined): number | undefined {
  const selected = useWorkbench((s) => s.selectedEntry);
  if (!view || view.entries.length === 0) return undefined;
  if (selected === undefined) return view.entries.length - 1;
  return Math.min(selected, view.entries.length - 1);
}

export function useSelectedPosition(): { view: TimelineView | undefined; entry: number | undefined; position: number } {
  const { data: view } = useTimeline();
  const entry = useSelectedEntry(view);
  const position = entry !== undefined ? (view?.entries[entry]?.position ?? 0) : 0;
  return { view, entry, position };
}

export function useSets() {
  const client = useDeriveClient();
  const { view, position } = useSelectedPosition();
  const revision = view?.revision ?? 0;
  // The derivation carries the sets of the row selected when it started: use them when that is still
  // the row shown, else ask the worker.
  const inline = view?.sets !== undefined && view.sets.revision === revision && view.sets.position === position ? view.sets : undefined;
  return useQuery(setsQuery(client, revision, position, view !== undefined && view.scenarioErrors.length === 0, inline));
}

export function useRequestDetail(id: number | undefined) {
  const client = useDeriveClient();
  const { data: view } = useTimeline();
  const revision = view?.revision ?? 0;
  return useQuery(requestQuery(client, revision, id ?? 0, view !== undefined && id !== undefined && id < view.requests.length));
}

export function useProvenance(name: string | undefined) {
  const client = useDeriveClient();
  const { view, position } = useSelectedPosition();
  return useQuery(provenanceQuery(client, view?.revision ?? 0, position, name ?? '', view !== undefined && name !== undefined));
}
