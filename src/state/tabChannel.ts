// The tabs of one browser profile talk over a BroadcastChannel: "I saved save N",
// "Recent documents changed", and "who is open?" (so a journal left by a closed tab
// can be told from one a live tab is still using).

export type TabMessage =
  | { readonly type: 'saved'; readonly from: string; readonly rev: number }
  | { readonly type: 'history'; readonly from: string }
  | { readonly type: 'who'; readonly from: string }
  | { readonly type: 'here'; readonly from: string; readonly tab: string };

export interface TabChannel {
  /** This page's own id (a new one on every load). */
  readonly instance: string;
  post(message: TabMessage): void;
  /** Messages from other pages. */
  listen(handler: (message: TabMessage) => void): () => void;
  close(): void;
}

const NAME = 'tool-workbench';

function randomId(): string {
  return typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

export function openTabChannel(): TabChannel | undefined {
  if (typeof BroadcastChannel === 'undefined') return undefined;
  const channel = new BroadcastChannel(NAME);
  const instance = randomId();
  return {
    instance,
    post: (m) => channel.postMessage(m),
    listen: (handler) => {
      const on = (e: MessageEvent<TabMessage>) => {
        if (e.data && typeof e.data === 'object' && e.data.from !== instance) handler(e.data);
      };
      channel.addEventListener('message', on);
      return () => channel.removeEventListener('message', on);
    },
    close: () => channel.close(),
  };
}

const TAB_KEY = 'tool-workbench.tab';

/** This tab's id: kept in sessionStorage, so a reload (and a reopened tab) keeps it, and its journal with it. */
export function tabId(): string {
  try {
    const known = sessionStorage.getItem(TAB_KEY);
    if (known) return known;
    const fresh = randomId();
    sessionStorage.setItem(TAB_KEY, fresh);
    return fresh;
  } catch {
    return randomId();
  }
}
