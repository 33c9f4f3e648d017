// The live-server URLs the user confirmed: each one they pressed Connect for (in the servers
// panel, or typed into the import dialog). A document only names URLs; it never confirms one,
// so a shared link, a dropped file or a loaded scenario cannot make the page send a request.
// Kept in this browser's localStorage, never in the document (which travels).
const KEY = 'tool-workbench.confirmed-servers';
/** The newest 50: a person confirms a handful; the cap only stops the list growing forever. */
export const MAX_CONFIRMED = 50;

/** The form a URL is compared in (`new URL().href`: case of scheme and host, default port, path `/`). */
export function normalizeUrl(url: string): string | undefined {
  try {
    return new URL(url).href;
  } catch {
    return undefined;
  }
}

function read(): string[] {
  try {
    const v = JSON.parse(globalThis.localStorage?.getItem(KEY) ?? '[]') as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

function write(urls: readonly string[]): void {
  try {
    globalThis.localStorage?.setItem(KEY, JSON.stringify(urls.slice(0, MAX_CONFIRMED)));
  } catch {
    // Storage full or denied: the confirmation still holds for this page's life (see `session`).
  }
}

/** Confirmations of this page's life, also when localStorage refuses to keep them. */
const session = new Set<string>();
const listeners = new Set<() => void>();
let version = 0;

function changed(): void {
  version += 1;
  for (const l of listeners) l();
}

/** For `useSyncExternalStore`: called when a confirmation is added or forgotten (here or in another tab). */
let watching = false;

export function subscribeConfirmed(listener: () => void): () => void {
  listeners.add(listener);
  if (!watching && typeof globalThis.addEventListener === 'function') {
    watching = true;
    globalThis.addEventListener('storage', (e: StorageEvent) => {
      if (e.key === KEY) changed();
    });
  }
  return () => listeners.delete(listener);
}

/** Changes whenever the confirmations do (the snapshot `useSyncExternalStore` compares). */
export function confirmedVersion(): number {
  return version;
}

export function isConfirmed(url: string): boolean {
  const u = normalizeUrl(url);
  return u !== undefined && (session.has(u) || read().includes(u));
}

/** The user pressed Connect for this exact URL. */
export function confirmUrl(url: string): void {
  const u = normalizeUrl(url);
  if (u === undefined) return;
  session.add(u);
  write([u, ...read().filter((x) => x !== u)]);
  changed();
}

/** Forgets a confirmation (Disconnect): the URL will not reconnect on its own again. */
export function forgetUrl(url: string): void {
  const u = normalizeUrl(url);
  if (u === undefined) return;
  session.delete(u);
  write(read().filter((x) => x !== u));
  changed();
}
