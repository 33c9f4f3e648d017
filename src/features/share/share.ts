// Sharing: a link carrying the whole scenario, opened on load (or when the
// hash changes). Opening one never discards the user's work: like every
// replacement, the document it replaces goes to Recent documents, and the banner
// offers it back. A damaged or oversized link gets an error banner and changes
// nothing.
import { scenarioDocFromText, writeScenario } from '../../core';
import type { ScenarioDoc } from '../../core';
import type { Command } from '../../commands/registry';
import type { WorkbenchStore } from '../../state/store';
import { downloadBlob } from '../../components/download';
import { decodeShared, encodeShared, SHARE_PREFIX } from './codec';

/** A link to this page that opens the document. */
export function shareUrl(doc: ScenarioDoc, base = `${location.origin}${location.pathname}${location.search}`): string {
  return `${base}${encodeShared(writeScenario(doc))}`;
}

/** The scenario file of the document: exactly what `tool-workbench check` runs. */
export function scenarioFile(doc: ScenarioDoc): { name: string; text: string } {
  const slug = doc.name.toLowerCase().replace(/[^a-z0-9]+/gu, '-').replace(/^-|-$/gu, '') || 'scenario';
  return { name: `${slug}.toml`, text: writeScenario(doc) };
}

export function downloadScenario(doc: ScenarioDoc): void {
  const f = scenarioFile(doc);
  downloadBlob(f.name, new Blob([f.text], { type: 'application/toml' }));
}

function clearHash(): void {
  history.replaceState(history.state, '', `${location.pathname}${location.search}`);
}

/** Opens the scenario a `#s=` hash carries. Returns whether one was opened. */
export async function openSharedHash(store: WorkbenchStore, hash: string): Promise<boolean> {
  if (!hash.startsWith(SHARE_PREFIX)) return false;
  const decoded = decodeShared(hash);
  if (!decoded.ok) {
    store.getState().showBanner('error', `This shared link is ${decoded.tooLarge ? 'too large' : 'damaged'}: ${decoded.error}. Nothing was opened; your current work is unchanged.`);
    clearHash();
    return false;
  }
  const parsed = scenarioDocFromText(decoded.text);
  if (!parsed.ok) {
    const e = parsed.errors[0];
    store.getState().showBanner('error', `This shared link holds a scenario that does not parse (${e ? `${e.line}:${e.column}: ${e.message}` : 'unknown error'}). Nothing was opened; your current work is unchanged.`);
    clearHash();
    return false;
  }
  const previous = store.getState().doc;
  const kept = store.getState().replaceDoc(parsed.doc, { kind: 'share' });
  store.getState().setSharedPrevious({ id: kept, name: previous.name });
  store.getState().dismissBanner();
  clearHash();
  return true;
}

/** Opens a shared scenario from the page's hash now and whenever the hash changes. */
export function installShareLinks(store: WorkbenchStore): Promise<boolean> {
  window.addEventListener('hashchange', () => void openSharedHash(store, location.hash));
  return openSharedHash(store, location.hash);
}

/** Puts back the document the last shared link replaced (itself a replacement, so the shared one is kept in turn). */
export async function restorePrevious(store: WorkbenchStore): Promise<void> {
  const previous = store.getState().sharedPrevious;
  if (!previous) return;
  store.getState().setSharedPrevious(undefined);
  if (await store.getState().restoreRecent(previous.id)) store.getState().showBanner('info', 'Your previous work is back. The shared scenario is in Recent documents.');
}

export const shareCommands: Command[] = [
  {
    id: 'share.copyLink',
    title: 'Copy a link that opens this scenario',
    group: 'File',
    run: async ({ store }) => {
      const url = shareUrl(store.getState().doc);
      try {
        await navigator.clipboard.writeText(url);
        store.getState().showBanner('info', `Link copied (${Math.round(url.length / 100) / 10} KB). It carries the whole scenario.`);
      } catch {
        store.getState().showBanner('info', `Copy this link: ${url.length > 400 ? `${url.slice(0, 400)}…` : url}`);
      }
    },
  },
  { id: 'share.download', title: 'Download the scenario file (what tool-workbench check runs)', group: 'File', run: ({ store }) => downloadScenario(store.getState().doc) },
  {
    id: 'share.restorePrevious',
    title: 'Restore the work a shared link replaced',
    group: 'File',
    run: async ({ store }) => {
      const s = store.getState();
      const entry = s.recent.find((e) => e.reason.kind === 'share');
      if (!entry) {
        s.showBanner('info', 'No work was replaced by a shared link (see Recent documents for every replaced document).');
        return;
      }
      s.setSharedPrevious({ id: entry.id, name: entry.title });
      await restorePrevious(store);
    },
  },
];
