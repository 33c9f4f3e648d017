// Starts the derivation of every new revision the moment the store has it, from the store's
// subscription: before React re-renders the panels for the keystroke (and before Monaco paints
// it), so the worker derives while the main thread renders. The panels' useTimeline then finds
// the query already in flight (same key, same parameters) and waits for it.
import type { QueryClient } from '@tanstack/react-query';
import type { WorkbenchStore } from '../state/store';
import { workspaceInput } from '../state/workspaceSlice';
import type { DeriveClient } from './client';
import { timelineQuery } from './queries';

export function deriveOnEdit(store: WorkbenchStore, client: DeriveClient, queryClient: QueryClient): () => void {
  return store.subscribe((s, prev) => {
    if (s.revision === prev.revision) return;
    const workspace = workspaceInput(s);
    void queryClient.prefetchQuery(timelineQuery(client, s.doc, s.revision, workspace, () => store.getState().selectedEntry ?? null));
  });
}
