// The derive worker: hosts the core off the main thread so typing in a
// 10,000-tool layer never blocks the page.
import { DeriveHost } from './host';
import type { DeriveParams } from './methods';
import type { RpcMessage, RpcResponse } from './protocol';
import { channelDefer, Dispatcher } from './dispatch';
import { isFileOfferMessage } from './document';

const host = new DeriveHost();

// The first keystrokes after a load would otherwise meet cold code: once the first derivation is
// answered, derive the same document twice more on a throwaway host, with every layer's text touched
// so the parser runs too, to warm the JIT before the user types.
// The o200k_base tokenizer is not loaded here: the method that first counts tokens (the prompt-cache
// statuses, the cost panel, the RFD tables, a scenario pinning cache_tokens) starts its load, so a
// page showing no token figure never fetches its megabytes of ranks.
let warmed = false;
/** Above this many characters of layer text the spare derivations are skipped. */
const WARM_UP_MAX_CHARS = 256 * 1024;
function warmUp(params: unknown): void {
  if (warmed) return;
  warmed = true;
  setTimeout(() => {
    try {
      const p = params as DeriveParams;
      const doc = p.doc;
      // Only a whole document can warm a spare host (the first derivation always sends one). A
      // catalogue-sized one is not derived again: its first derivation warmed the code already, and
      // two more would hold the worker (and the first keystrokes' derivations) for as long again.
      if (!doc || doc.layers.reduce((n, l) => n + l.text.length, 0) > WARM_UP_MAX_CHARS) return;
      const spare = new DeriveHost();
      for (let i = 1; i <= 2; i++) {
        spare.derive({ ...p, revision: -i, doc: { ...doc, layers: doc.layers.map((l) => ({ ...l, text: `${l.text}${' '.repeat(i)}` })) } });
      }
    } catch {
      // Warming is best effort; the real derivation already answered.
    }
  }, 0);
}

// Messages are queued by the dispatch (dispatch.ts), not answered as they arrive: a derivation goes
// before the calls waiting, calls made useless by a newer revision are answered `superseded`, and long
// work runs in slices with the worker's messages read between them.
// The worker's own calls (`prepare`) have negative ids: their answers are not posted to the page.
let ownId = 0;
const dispatcher = new Dispatcher({
  answer: (method, params, slicer) => host.call(method, params as never, slicer),
  post: (response: RpcResponse) => {
    if (response.id >= 0) (self as unknown as Worker).postMessage(response);
  },
  defer: channelDefer(),
  now: () => performance.now(),
  answered: (method, params) => {
    if (method !== 'derive') return;
    warmUp(params);
    // An opened (replaced, restored) document: what its first keystroke would build lazily is built
    // now, as long work queued behind the page's calls and given up for a newer derivation.
    const p = params as DeriveParams;
    if (p.doc || p.source || p.offer !== undefined) dispatcher.receive({ id: --ownId, method: 'prepare', params: { revision: p.revision } });
  },
});

// A file offered ahead of its document (document.ts offerFile) is read before anything sent after it:
// those messages wait (in order) until its bytes are in and derived, so the derivation naming it finds
// it; the worker has nothing else to do meanwhile that would not be redone for the opened document.
let held: RpcMessage[] | undefined;
let reading = 0;
const release = (): void => {
  if (--reading > 0) return;
  const waiting = held ?? [];
  held = undefined;
  for (const m of waiting) dispatcher.receive(m);
};

self.onmessage = (event: MessageEvent<unknown>) => {
  const m = event.data;
  if (isFileOfferMessage(m)) {
    reading++;
    held ??= [];
    m.file
      .arrayBuffer()
      .then(
        (b) => host.offered(m.offer, new Uint8Array(b)),
        () => host.offered(m.offer, undefined),
      )
      .catch(() => undefined)
      .finally(release);
    return;
  }
  if (held) held.push(m as RpcMessage);
  else dispatcher.receive(m as RpcMessage);
};
