// Opening an RFD row's scenario in the workbench, at the timeline row that shows it, without losing the
// document it replaces: that one is kept in Recent documents (the document history) and offered back
// (the banner's "Back to ...").
import { scenarioDocFromText } from '../../core';
import type { RfdRow } from '../../core';
import type { WorkbenchStore } from '../../state/store';

export function openRowScenario(store: WorkbenchStore, row: RfdRow): boolean {
  const parsed = scenarioDocFromText(row.scenario.text);
  if (!parsed.ok) {
    store.getState().showBanner('error', `The RFD row's scenario does not parse (${parsed.errors[0]?.message ?? 'unknown error'}); your document is unchanged.`);
    return false;
  }
  const st = store.getState();
  // The banner offers back the user's own document: a row scenario opened a moment ago and left
  // unedited is not theirs (it is in Recent documents all the same).
  const previous = st.returnTo && st.doc === st.returnTo.openedDoc ? st.returnTo : undefined;
  const name = st.doc.name;
  const id = st.replaceDoc(parsed.doc, { kind: 'rfd', row: row.label });
  st.setReturnTo({ id: previous?.id ?? id, name: previous?.name ?? name, opened: parsed.doc.name, openedDoc: store.getState().doc });
  st.selectEntry(row.scenario.entry);
  st.setPage('workbench');
  return true;
}

export async function returnToDocument(store: WorkbenchStore): Promise<boolean> {
  const r = store.getState().returnTo;
  if (!r) return false;
  // A restore is a replacement too: the RFD scenario goes to Recent documents in turn. The banner
  // stays until the user's document is back (it may be read back from storage): the offer to go
  // back is not withdrawn before it is kept, and stays when the restore fails.
  const restored = await store.getState().restoreRecent(r.id);
  if (restored && store.getState().returnTo === r) store.getState().setReturnTo(undefined);
  return restored;
}
