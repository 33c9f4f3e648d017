// The import dialog's state as one value, changed only by named actions (importForm reduces them),
// and what the dialog derives from it: the starting policy, the server names, the preview request and
// the problems to show. Pure; ImportDialog.tsx wires it to React, the live server and the preview.
import { DEFAULT_KEEP } from '../../core';
import type { ImportPolicyInput, ImportPreview, ImportPreviewParams } from '../../derive/serversProtocol';
import { DEFAULT_TIMEOUT_MS } from '../../live/queries';
import type { ImportSource } from '../../state/importSlice';

export type Tab = 'file' | 'paste' | 'url';
export type ServerMode = 'on' | 'discoverable' | 'off';

export const DEFAULT_URL = 'http://127.0.0.1:3001/mcp';

export interface ImportForm {
  readonly tab: Tab;
  /** The file read (version: bumped on each read, so a re-read file is previewed anew). */
  readonly file: { readonly name: string; readonly text: string; readonly version: number } | undefined;
  /** Why the last file was refused before any preview. */
  readonly refused: string | undefined;
  /** The pasted text as typed, and as previewed once typing pauses. */
  readonly paste: string;
  readonly pasted: { readonly text: string; readonly version: number };
  /** The live server's URL as typed, its timeout, and the URL being tried (connected). */
  readonly url: string;
  readonly timeoutSec: number;
  readonly liveUrl: string | undefined;
  /** Names for the catalogue's servers, by position (unset: the catalogue's own). */
  readonly names: Readonly<Record<number, string>>;
  readonly kind: ImportPolicyInput['kind'];
  readonly keep: number;
  readonly offDestructive: boolean;
  /** `per-server`: how each server's tools start, by server name. */
  readonly modes: Readonly<Record<string, ServerMode>>;
  /** The preview's tool filter. */
  readonly filter: string;
}

export type ImportAction =
  | { readonly type: 'tab-chosen'; readonly tab: Tab }
  | { readonly type: 'file-picked' }
  | { readonly type: 'file-read'; readonly name: string; readonly text: string }
  | { readonly type: 'file-refused'; readonly error: string }
  | { readonly type: 'paste-typed'; readonly text: string }
  | { readonly type: 'paste-settled' }
  | { readonly type: 'url-typed'; readonly url: string }
  | { readonly type: 'timeout-typed'; readonly value: string }
  | { readonly type: 'server-tried'; readonly url: string }
  | { readonly type: 'server-renamed'; readonly index: number; readonly name: string }
  | { readonly type: 'policy-chosen'; readonly kind: ImportPolicyInput['kind'] }
  | { readonly type: 'keep-typed'; readonly value: string }
  | { readonly type: 'destructive-off-set'; readonly on: boolean }
  | { readonly type: 'server-mode-chosen'; readonly server: string; readonly mode: ServerMode }
  | { readonly type: 'filter-typed'; readonly text: string };

function tabOf(source: ImportSource): Tab {
  return source.kind === 'url' ? 'url' : source.kind === 'paste' ? 'paste' : 'file';
}

/** The form a dialog opens with, from what it was opened on. */
export function initialForm(source: ImportSource): ImportForm {
  return {
    tab: tabOf(source),
    file: source.kind === 'file' && source.text !== '' ? { name: source.fileName, text: source.text, version: 1 } : undefined,
    refused: source.kind === 'refused' ? source.error : undefined,
    paste: '',
    pasted: { text: '', version: 0 },
    url: source.kind === 'url' ? (source.url ?? DEFAULT_URL) : DEFAULT_URL,
    timeoutSec: DEFAULT_TIMEOUT_MS / 1000,
    liveUrl: undefined,
    names: {},
    kind: 'discoverable',
    keep: DEFAULT_KEEP,
    offDestructive: true,
    modes: {},
    filter: '',
  };
}

export function importForm(form: ImportForm, action: ImportAction): ImportForm {
  switch (action.type) {
    case 'tab-chosen':
      return { ...form, tab: action.tab };
    case 'file-picked':
      // Another catalogue: the last refusal and the names given to the last one's servers go.
      return { ...form, refused: undefined, names: {} };
    case 'file-read':
      return { ...form, file: { name: action.name, text: action.text, version: (form.file?.version ?? 0) + 1 } };
    case 'file-refused':
      return { ...form, file: undefined, refused: action.error };
    case 'paste-typed':
      return { ...form, paste: action.text };
    case 'paste-settled':
      return form.pasted.text === form.paste ? form : { ...form, pasted: { text: form.paste, version: form.pasted.version + 1 } };
    case 'url-typed':
      return { ...form, url: action.url };
    case 'timeout-typed':
      return { ...form, timeoutSec: Number(action.value) || 1 };
    case 'server-tried':
      return { ...form, liveUrl: action.url };
    case 'server-renamed':
      return { ...form, names: { ...form.names, [action.index]: action.name } };
    case 'policy-chosen':
      return { ...form, kind: action.kind };
    case 'keep-typed':
      return { ...form, keep: Math.max(0, Math.floor(Number(action.value) || 0)) };
    case 'destructive-off-set':
      return { ...form, offDestructive: action.on };
    case 'server-mode-chosen':
      return { ...form, modes: { ...form.modes, [action.server]: action.mode } };
    case 'filter-typed':
      return { ...form, filter: action.text };
  }
}

export function timeoutMsOf(form: ImportForm): number {
  return Math.max(1, form.timeoutSec) * 1000;
}

export function policyOf(form: Pick<ImportForm, 'kind' | 'keep' | 'offDestructive' | 'modes'>): ImportPolicyInput {
  return { kind: form.kind, keep: form.keep, offDestructive: form.offDestructive, ...(form.kind === 'per-server' ? { servers: Object.entries(form.modes) } : {}) };
}

/** The servers' names in catalogue order; an empty entry keeps the catalogue's own. */
export function serverNamesOf(names: ImportForm['names']): string[] {
  const max = Math.max(-1, ...Object.keys(names).map(Number));
  return Array.from({ length: max + 1 }, (_, i) => names[i] ?? '');
}

/** A live server's listed tools, as the preview reads them. */
export interface LiveTools {
  readonly tools: readonly unknown[];
  readonly bytes: number;
  readonly fetchedAt: number;
}

/**
 * What to preview, from the tab's source: a read file, settled pasted text, or a tried server's tools.
 * `sourceId` names the source, so another source's preview is never shown for this one. `upstream` is
 * the server's own URL when the tried URL is the bridge's endpoint for it: the scenario records that one
 * (the endpoint belongs to this bridge's session, and carries no meaning elsewhere).
 */
export function previewRequest(
  form: ImportForm,
  common: Pick<ImportPreviewParams, 'policy' | 'serverNames' | 'revision'>,
  live: LiveTools | undefined,
  upstream?: string,
): { sourceId: string; params: ImportPreviewParams | undefined } {
  const { tab, file, pasted, liveUrl } = form;
  if (tab === 'file' && file) {
    return { sourceId: `file:${file.name}:${file.version}`, params: { source: { kind: 'text', text: file.text }, origin: file.name, ...common } };
  }
  if (tab === 'paste' && pasted.text.trim() !== '') {
    return { sourceId: `paste:${pasted.version}`, params: { source: { kind: 'text', text: pasted.text }, origin: 'pasted JSON', ...common } };
  }
  if (tab === 'url' && liveUrl !== undefined && live) {
    const own = upstream ?? liveUrl;
    return { sourceId: `live:${liveUrl}:${live.fetchedAt}`, params: { source: { kind: 'tools', tools: live.tools, bytes: live.bytes }, origin: own, url: own, ...common } };
  }
  return { sourceId: 'none', params: undefined };
}

/** Why nothing can be imported: the file's refusal, the preview's errors, or the preview failing. */
export function problemsOf(form: ImportForm, preview: ImportPreview | undefined, failure: Error | null, requested: boolean): readonly string[] {
  if (form.refused && form.tab === 'file') return [form.refused];
  if (preview && !preview.ok) return preview.errors;
  if (failure && requested) return [`the catalogue could not be read: ${failure.message}`];
  return [];
}
