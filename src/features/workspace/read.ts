// Reading a JP workspace in the browser: a folder from the directory picker, an
// `<input webkitdirectory>`, a folder dropped on the page, or a .zip. Whatever was opened, the
// `.jp` folder inside it is found (`workspaceRoot`) and only its `*.toml` files are read, keyed by
// their path relative to it, as the core's `loadWorkspace` expects.
import { unzipSync } from 'fflate';
import { WORKSPACE_LIMITS, WORKSPACE_SKIP_DIRS } from '../../core';
import { decodeFileBytes, readFileTextOrThrow } from '../../components/readText';

/** A file found while listing what was opened; `path` is `/`-separated and starts with the opened folder's name. */
export interface FoundFile {
  readonly path: string;
  read(): Promise<string>;
}

export interface ReadWorkspace {
  /** What was opened, for display ("jp-workspace/.jp", "workspace.zip"). */
  readonly source: string;
  /** The `.jp` folder's `*.toml` files: path relative to it → text. */
  readonly files: Record<string, string>;
}

const SKIP_DIRS = WORKSPACE_SKIP_DIRS;
const WORKSPACE_DIR = '.jp';
const CONFIG = 'config.toml';
const MAX_FILES = WORKSPACE_LIMITS.entries;
const MAX_BYTES = WORKSPACE_LIMITS.bytes;

const segments = (p: string): string[] => p.split('/').filter((s) => s !== '');

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The folder to read, as a path prefix ('' for the top): the shallowest `.jp` folder holding a
 * config.toml; else the shallowest folder holding one; else the shallowest `.jp` folder; else the top.
 */
export function workspaceRoot(paths: readonly string[]): string {
  const dirs = new Set<string>();
  const configDirs: string[] = [];
  for (const p of paths) {
    const parts = segments(p);
    if (parts.some((s) => SKIP_DIRS.has(s))) continue;
    for (let i = 1; i < parts.length; i++) if (parts[i - 1] === WORKSPACE_DIR) dirs.add(parts.slice(0, i).join('/'));
    if (parts[parts.length - 1] === CONFIG) configDirs.push(parts.slice(0, -1).join('/'));
  }
  const shallowest = (xs: readonly string[]): string | undefined =>
    [...xs].sort((a, b) => segments(a).length - segments(b).length || compare(a, b))[0];
  const isJp = (d: string): boolean => segments(d).at(-1) === WORKSPACE_DIR;
  return shallowest(configDirs.filter(isJp)) ?? shallowest(configDirs) ?? shallowest([...dirs]) ?? '';
}

/** The `*.toml` files under `root`, keyed relative to it. */
export function underRoot(paths: readonly string[], root: string): Map<string, string> {
  const prefix = root === '' ? '' : `${root}/`;
  const out = new Map<string, string>();
  for (const p of paths) {
    const clean = segments(p).join('/');
    if (!clean.startsWith(prefix) || !clean.endsWith('.toml')) continue;
    const rel = clean.slice(prefix.length);
    if (segments(rel).some((s) => SKIP_DIRS.has(s) || s === '..' || s === '.')) continue;
    out.set(rel, p);
  }
  return out;
}

/** Reads the workspace out of a listing. */
export async function collect(found: readonly FoundFile[], source: string): Promise<ReadWorkspace> {
  if (found.length > MAX_FILES) throw new Error(`${source} holds more than ${MAX_FILES} files; open its .jp folder instead`);
  const byPath = new Map(found.map((f) => [f.path, f]));
  const root = workspaceRoot([...byPath.keys()]);
  const files: Record<string, string> = {};
  let bytes = 0;
  const keys = [...underRoot([...byPath.keys()], root)].sort((a, b) => compare(a[0], b[0]));
  for (const [rel, path] of keys) {
    const text = await (byPath.get(path) as FoundFile).read();
    bytes += text.length;
    if (bytes > MAX_BYTES) throw new Error(`${source}: the .toml files exceed ${MAX_BYTES / 1024 / 1024} MB`);
    files[rel] = text;
  }
  if (Object.keys(files).length === 0) throw new Error(`${source} holds no .toml files${root ? ` under ${root}` : ''}: open a JP workspace's .jp folder`);
  return { source: displayName(source, root), files };
}

/** "jp-workspace/.jp" for a folder, "workspace.zip: .jp" for an archive. */
export function displayName(source: string, root: string): string {
  if (root === '') return source;
  return root === source || root.startsWith(`${source}/`) ? root : `${source}: ${root}`;
}

// ---- zip ----

export function readZip(data: Uint8Array, name: string): Promise<ReadWorkspace> {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(data, { filter: (f) => f.name.endsWith('.toml') && f.originalSize <= MAX_BYTES });
  } catch (e) {
    return Promise.reject(new Error(`${name} is not a readable zip: ${e instanceof Error ? e.message : String(e)}`));
  }
  const found = Object.entries(entries).map(([path, bytes]) => ({
    path,
    read: () => {
      const r = decodeFileBytes(bytes);
      return r.ok ? Promise.resolve(r.text) : Promise.reject(new Error(`${path}:${r.error}`));
    },
  }));
  return collect(found, name);
}

// ---- <input type=file webkitdirectory> ----

export function readFileList(list: FileList | readonly File[]): Promise<ReadWorkspace> {
  const files = [...list];
  const found = files.map((f) => {
    const path = f.webkitRelativePath || f.name;
    return { path, read: () => readFileTextOrThrow(f, path) };
  });
  const top = segments(found[0]?.path ?? '')[0] ?? 'folder';
  return collect(found, top);
}

// ---- drag and drop (FileSystemEntry) ----

function entriesOf(dir: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = dir.createReader();
  const all: FileSystemEntry[] = [];
  return new Promise((resolve, reject) => {
    // readEntries returns a batch at a time (100 in Chromium) until an empty one.
    const next = (): void =>
      reader.readEntries((batch) => {
        if (batch.length === 0) resolve(all);
        else {
          all.push(...batch);
          next();
        }
      }, reject);
    next();
  });
}

const fileOf = (entry: FileSystemFileEntry): Promise<File> => new Promise((resolve, reject) => entry.file(resolve, reject));

async function walkEntry(entry: FileSystemEntry, path: string, out: FoundFile[]): Promise<void> {
  if (out.length > MAX_FILES) return;
  if (entry.isFile) {
    out.push({ path, read: async () => readFileTextOrThrow(await fileOf(entry as FileSystemFileEntry), path) });
    return;
  }
  if (!entry.isDirectory || SKIP_DIRS.has(entry.name)) return;
  let children = await entriesOf(entry as FileSystemDirectoryEntry);
  // A project folder: read only its .jp folder.
  const jp = children.find((c) => c.isDirectory && c.name === WORKSPACE_DIR);
  if (jp && path.split('/').length === 1) children = [jp];
  for (const c of children.sort((a, b) => compare(a.name, b.name))) await walkEntry(c, `${path}/${c.name}`, out);
}

/** The entries of a drop, taken synchronously (a DataTransfer empties after the event). */
export function droppedEntries(dt: DataTransfer): FileSystemEntry[] {
  const out: FileSystemEntry[] = [];
  for (const item of [...dt.items]) {
    if (item.kind !== 'file') continue;
    const e = item.webkitGetAsEntry();
    if (e) out.push(e);
  }
  return out;
}

export async function readDroppedFolder(entry: FileSystemDirectoryEntry): Promise<ReadWorkspace> {
  const found: FoundFile[] = [];
  await walkEntry(entry, entry.name, found);
  return collect(found, entry.name);
}

// ---- showDirectoryPicker ----

interface DirHandle {
  readonly kind: 'directory';
  readonly name: string;
  values(): AsyncIterable<DirHandle | FileHandle>;
}
interface FileHandle {
  readonly kind: 'file';
  readonly name: string;
  getFile(): Promise<File>;
}
type PickerWindow = Window & { showDirectoryPicker?: (options?: { id?: string; mode?: 'read' }) => Promise<DirHandle> };

export function hasDirectoryPicker(): boolean {
  return typeof (window as PickerWindow).showDirectoryPicker === 'function';
}

async function walkHandle(dir: DirHandle, path: string, out: FoundFile[], top: boolean): Promise<void> {
  const children: (DirHandle | FileHandle)[] = [];
  for await (const h of dir.values()) children.push(h);
  const jp = top ? children.find((c) => c.kind === 'directory' && c.name === WORKSPACE_DIR) : undefined;
  for (const c of (jp ? [jp] : children).sort((a, b) => compare(a.name, b.name))) {
    if (out.length > MAX_FILES) return;
    if (c.kind === 'file') out.push({ path: `${path}/${c.name}`, read: async () => readFileTextOrThrow(await c.getFile(), `${path}/${c.name}`) });
    else if (!SKIP_DIRS.has(c.name)) await walkHandle(c, `${path}/${c.name}`, out, false);
  }
}

/** Asks for a folder with the directory picker; undefined when the user cancels. */
export async function pickDirectory(): Promise<ReadWorkspace | undefined> {
  const picker = (window as PickerWindow).showDirectoryPicker;
  if (!picker) throw new Error('this browser has no directory picker');
  let dir: DirHandle;
  try {
    dir = await picker.call(window, { id: 'jp-workspace', mode: 'read' });
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') return undefined;
    throw e;
  }
  const found: FoundFile[] = [];
  await walkHandle(dir, dir.name, found, true);
  return collect(found, dir.name);
}
