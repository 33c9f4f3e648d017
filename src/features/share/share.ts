// Sharing: a link carrying the whole scenario, opened on load (or when the
// hash changes). Opening one never silently discards the user's work: the
// replaced document is kept in memory for the "Restore your previous work"
// banner and in IndexedDB under its own key. A damaged link gets an error
// banner and changes nothing.
import { scenarioDocFromText, writeScenario } from '../../core';
import type { ScenarioDoc } from '../../core';
import type { Command } from '../../commands/registry';
import { openWorkbenchDb, WORKBENCH_STORE } from '../../state/persistence';
import type { WorkbenchStore } from '../../state/store';
import { downloadBlob } from '../../components/download';
import { decodeShared, encodeShared, SHARE_PREFIX } from './codec';

const PREVIOUS_KEY = 'before-shared-link';

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

async function stashPrevious(doc: ScenarioDoc): Promise<void> {
  try {
    const db = await openWorkbenchDb();
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction(WORKBENCH_STORE, 'readwrite');
      tx.objectStore(WORKBENCH_STORE).put(doc, PREVIOUS_KEY);
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error ?? new Error('IndexedDB write failed'));
    });
  } catch {
    // The in-memory copy still backs the restore banner.
  }
}

export async function loadStashedPrevious(): Promise<ScenarioDoc | undefined> {
  try {
    const db = await openWorkbenchDb();
    return await new Promise((resolve) => {
      const req = db.transaction(WORKBENCH_STORE, 'readonly').objectStore(WORKBENCH_STORE).get(PREVIOUS_KEY);
      req.onsuccess = () => resolve(req.result as ScenarioDoc | undefined);
      req.onerror = () => resolve(undefined);
    });
  } catch {
    return undefined;
  }
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
  await stashPrevious(previous);
  store.getState().replaceDoc(parsed.doc);
  store.getState().setSharedPrevious(previous);
  store.getState().dismissBanner();
  clearHash();
  return true;
}

/** Opens a shared scenario from the page's hash now and whenever the hash changes. */
export function installShareLinks(store: WorkbenchStore): Promise<boolean> {
  window.addEventListener('hashchange', () => void openSharedHash(store, location.hash));
  return openSharedHash(store, location.hash);
}

export function restorePrevious(store: WorkbenchStore): void {
  const previous = store.getState().sharedPrevious;
  if (!previous) return;
  store.getState().replaceDoc(previous);
  store.getState().setSharedPrevious(undefined);
  store.getState().showBanner('info', 'Your previous work is back.');
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
      const previous = store.getState().sharedPrevious ?? (await loadStashedPrevious());
      if (!previous) {
        store.getState().showBanner('info', 'No work was replaced by a shared link.');
        return;
      }
      store.getState().setSharedPrevious(previous);
      restorePrevious(store);
    },
  },
];
