// The import dialog, live servers' wishes and what changed between fetches, and
// the last import (so it can be undone). An import lands in the document as ONE
// change (one revision); undo puts the document back as it was.
import type { StoreApi } from 'zustand/vanilla';
import { checkCatalogueSize, decodeUtf8 } from '../core';
import type { CacheImpact, Plain, ScenarioDoc, ServerDoc, ToolListDiff } from '../core';
import { standingUndo } from './history';
import type { Replacement } from './history';
import { edited } from './lineage';

/** What the import dialog opens on. */
export type ImportSource =
  | { readonly kind: 'file'; readonly fileName: string; readonly text: string }
  | { readonly kind: 'refused'; readonly fileName: string; readonly error: string }
  | { readonly kind: 'paste' }
  | { readonly kind: 'url'; readonly url?: string };

export interface ImportDialogState {
  readonly source: ImportSource;
  /** Bumped each time the dialog is (re)opened with a source, so it resets. */
  readonly seq: number;
}

/**
 * A live server's tool list that differs from the one the document recorded (issue 24.2: it shows
 * beside the recording and enters the document only when the user takes it).
 */
export interface ServerChange {
  /** The server's list as it gave it last; never written into the document by itself. */
  readonly live: readonly { readonly [key: string]: Plain }[];
  /** The recorded list against the live one when it arrived (what `impact` was judged on). */
  readonly diff: ToolListDiff;
  readonly impact?: CacheImpact;
  readonly at: number;
}

/** The recorded list a "take the live list" replaced, bound to the revision the take made (like a deleted step's undo). */
export interface ToolListUndo {
  readonly server: string;
  readonly tools: ServerDoc['tools'];
  readonly revision: number;
}

/** The take the document still accepts an undo of (none once it changed since). */
export function liveToolListUndo(s: { readonly toolListUndo: ToolListUndo | undefined; readonly revision: number }): ToolListUndo | undefined {
  return standingUndo(s.toolListUndo, s.revision);
}

export interface ImportSlice {
  importDialog: ImportDialogState | undefined;
  /** Live servers the user wants connected (by server name); others show offline. */
  liveWanted: ReadonlyMap<string, boolean>;
  /** Each live server's newest list, kept beside the recorded one (whether or not the two differ). */
  serverChanges: ReadonlyMap<string, ServerChange>;
  /** The last "take the live list", for its undo. */
  toolListUndo: ToolListUndo | undefined;
  /** What the last import added (by name), so undo removes exactly that and keeps every later edit. */
  lastImport: { readonly layer: string; readonly servers: readonly string[]; readonly summary: string } | undefined;
  openImport(source?: ImportSource): void;
  closeImport(): void;
  /** Replaces the document with one that has the import (one revision), remembering what it added. */
  commitImport(doc: ScenarioDoc, added: { layer: string; servers: readonly string[] }, summary: string): void;
  undoImport(): void;
  setLiveWanted(server: string, wanted: boolean): void;
  recordServerChange(server: string, change: ServerChange | undefined): void;
  /** Writes the server's live list (its ServerChange) into the document as one undoable edit. */
  takeLiveList(server: string): void;
  /** Puts the recorded list back, only while the document is still the revision the take made. */
  undoTakeLiveList(): void;
  /** Changes one server of the document (status, tools), as one revision. */
  updateServer(name: string, patch: Partial<Omit<ServerDoc, 'name'>>): void;
  removeServer(name: string): void;
}

interface DocState {
  doc: ScenarioDoc;
  revision: number;
  keepInHistory(doc: ScenarioDoc, reason: Replacement): string;
}

export function importSlice<S extends ImportSlice & DocState>(set: StoreApi<S>['setState'], get: StoreApi<S>['getState']): ImportSlice {
  const put = (partial: Partial<ImportSlice & DocState>) => set(partial as Partial<S>);
  let seq = 0;
  return {
    importDialog: undefined,
    liveWanted: new Map(),
    serverChanges: new Map(),
    toolListUndo: undefined,
    lastImport: undefined,
    openImport: (source = { kind: 'file', fileName: '', text: '' }) => put({ importDialog: { source, seq: ++seq } }),
    closeImport: () => put({ importDialog: undefined }),
    commitImport: (doc, added, summary) => {
      const s = get();
      const wanted = new Map(s.liveWanted);
      for (const server of doc.servers) if (added.servers.includes(server.name) && server.url !== undefined) wanted.set(server.name, server.status === 'running');
      put({ lastImport: { ...added, summary }, doc: edited(s.doc, doc), revision: s.revision + 1, liveWanted: wanted, importDialog: undefined });
    },
    undoImport: () => {
      const s = get();
      const last = s.lastImport;
      if (!last) return;
      // Undo drops the layer whole, with any edits made to it since: keep the document as it was.
      s.keepInHistory(s.doc, { kind: 'undo-import', layer: last.layer });
      const servers = new Set(last.servers);
      put({
        doc: edited(s.doc, { ...s.doc, layers: s.doc.layers.filter((l) => l.name !== last.layer), servers: s.doc.servers.filter((x) => !servers.has(x.name)) }),
        revision: s.revision + 1,
        lastImport: undefined,
      });
    },
    setLiveWanted: (server, wanted) => {
      const m = new Map(get().liveWanted);
      m.set(server, wanted);
      put({ liveWanted: m });
    },
    recordServerChange: (server, change) => {
      const m = new Map(get().serverChanges);
      if (change) m.set(server, change);
      else m.delete(server);
      put({ serverChanges: m });
    },
    takeLiveList: (server) => {
      const s = get();
      const live = s.serverChanges.get(server)?.live;
      const recorded = s.doc.servers.find((x) => x.name === server)?.tools;
      if (!live || !recorded) return;
      s.updateServer(server, { tools: [...live] });
      put({ toolListUndo: { server, tools: recorded, revision: get().revision } });
    },
    undoTakeLiveList: () => {
      const entry = liveToolListUndo(get());
      put({ toolListUndo: undefined });
      if (entry) get().updateServer(entry.server, { tools: entry.tools });
    },
    updateServer: (name, patch) => {
      const s = get();
      if (!s.doc.servers.some((x) => x.name === name)) return;
      put({ doc: edited(s.doc, { ...s.doc, servers: s.doc.servers.map((x) => (x.name === name ? { ...x, ...patch } : x)) }), revision: s.revision + 1 });
    },
    removeServer: (name) => {
      const s = get();
      put({ doc: edited(s.doc, { ...s.doc, servers: s.doc.servers.filter((x) => x.name !== name) }), revision: s.revision + 1 });
    },
  };
}

/** Whether a dropped or picked file is a catalogue (JSON) rather than a scenario (TOML). */
export function isCatalogueFile(file: { name: string; type: string }): boolean {
  return /\.json$/iu.test(file.name) || file.type === 'application/json';
}

/** A picked or dropped catalogue file, measured before it is read (a 5 MB file is refused unread). */
export async function readCatalogueFile(file: File): Promise<ImportSource> {
  const tooBig = checkCatalogueSize(file.size, file.name);
  if (tooBig) return { kind: 'refused', fileName: file.name, error: tooBig };
  // Strict UTF-8: File.text() would replace bad bytes with U+FFFD and import names nobody wrote.
  const read = decodeUtf8(new Uint8Array(await file.arrayBuffer()));
  if (!read.ok) return { kind: 'refused', fileName: file.name, error: `${file.name}:${read.line}:${read.column}: ${read.message}` };
  return { kind: 'file', fileName: file.name, text: read.text };
}

/** Opens the import dialog on a file. */
export async function openCatalogueFile(store: StoreApi<ImportSlice>, file: File): Promise<void> {
  store.getState().openImport(await readCatalogueFile(file));
}
