// Opening an RFD row's scenario in the workbench, at the timeline row that shows it, without losing the
// document it replaces: that one is kept and offered back (the banner's "Back to ...").
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
  // Keep the user's own document: a row scenario opened a moment ago and left unedited is not theirs.
  const keep = st.returnTo && st.doc === st.returnTo.openedDoc ? st.returnTo.doc : st.doc;
  st.replaceDoc(parsed.doc);
  st.setReturnTo({ doc: keep, opened: parsed.doc.name, openedDoc: store.getState().doc });
  st.selectEntry(row.scenario.entry);
  st.setPage('workbench');
  return true;
}

export function returnToDocument(store: WorkbenchStore): void {
  const r = store.getState().returnTo;
  if (!r) return;
  store.getState().replaceDoc(r.doc);
  store.getState().setReturnTo(undefined);
  store.getState().showBanner('info', `Your document “${r.doc.name}” is back.`);
}
