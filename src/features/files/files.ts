// Opening and saving scenario files. A bad file is refused with a banner that
// says where it is wrong; the current work stays untouched.
import { scenarioDocFromText, writeScenario } from '../../core';
import type { WorkbenchStore } from '../../state/store';
import { downloadBlob } from '../../components/download';
import { decodeFileBytes } from '../../components/readText';
import { offerFile, openedFrom } from '../../derive/document';
import type { FileOffer } from '../../derive/document';

export function openScenarioText(store: WorkbenchStore, fileName: string, text: string, from?: Uint8Array | FileOffer): boolean {
  const parsed = scenarioDocFromText(text);
  if (!parsed.ok) {
    const e = parsed.errors[0];
    const more = parsed.errors.length > 1 ? ` (and ${parsed.errors.length - 1} more)` : '';
    store.getState().showBanner('error', `Could not open ${fileName}: ${e ? `${e.line}:${e.column}: ${e.message}` : 'unknown error'}${more}. Your current work is unchanged.`);
    return false;
  }
  // The worker takes the document from the file (offered ahead) or its bytes (moved to it), not as a clone of its text.
  if (from) openedFrom(parsed.doc, from);
  store.getState().replaceDoc(parsed.doc, { kind: 'file', name: fileName });
  store.getState().showBanner('info', `Opened ${fileName}.`);
  return true;
}

/** Opens a picked or dropped scenario file; one that is not UTF-8 is refused with the place of its first bad byte. */
export async function openScenarioFile(store: WorkbenchStore, file: File): Promise<boolean> {
  // The worker reads, parses and derives its own copy while this one is read (derive/document.ts offerFile).
  const offer = offerFile(file);
  const bytes = new Uint8Array(await file.arrayBuffer());
  const read = decodeFileBytes(bytes);
  if (read.ok) return openScenarioText(store, file.name, read.text, offer ?? bytes);
  store.getState().showBanner('error', `Could not open ${file.name}: ${read.error}. Your current work is unchanged.`);
  return false;
}

export function scenarioFileName(name: string): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/gu, '-').replace(/^-|-$/gu, '') || 'scenario';
  return `${slug}.toml`;
}

export function downloadText(fileName: string, text: string, type = 'application/toml'): void {
  downloadBlob(fileName, new Blob([text], { type }));
}

export function saveScenario(store: WorkbenchStore): void {
  const { doc } = store.getState();
  downloadText(scenarioFileName(doc.name), writeScenario(doc));
}

export function pickScenarioFile(store: WorkbenchStore): void {
  const input = document.createElement('input');
  input.type = 'file';
  input.accept = '.toml,text/plain,application/toml';
  input.onchange = () => {
    const file = input.files?.[0];
    if (file) void openScenarioFile(store, file);
  };
  input.click();
}
