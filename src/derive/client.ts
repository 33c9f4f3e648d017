// The UI's handle on the derive worker: typed calls that resolve with the
// worker's answer. One worker per page.
import type { ScenarioDoc } from '../core';
import { originOf } from '../state/lineage';
import { DocumentSender, isResync } from './document';
import type { DeriveParams, MethodName, Params, Result, RpcResponse, TimelineView } from './protocol';

/** A derivation as the page asks for it: the store's document (a reference: what crosses is worked out at send time). */
export interface DeriveRequest extends Omit<DeriveParams, 'doc' | 'edits'> {
  readonly doc: ScenarioDoc;
}

export interface DeriveClient {
  call<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>>;
  /**
   * Derives a revision of the store's document. The worker owns the document, so only what changed
   * since the revision it holds crosses (document.ts); the whole document only when it must.
   */
  derive(request: DeriveRequest): Promise<TimelineView>;
}

export function createWorkerClient(): DeriveClient {
  const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
  let next = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  worker.onmessage = (event: MessageEvent<RpcResponse>) => {
    const r = event.data;
    const p = pending.get(r.id);
    if (!p) return;
    pending.delete(r.id);
    if (r.ok) p.resolve(r.result);
    else p.reject(new Error(r.error));
  };
  worker.onerror = (event) => {
    for (const p of pending.values()) p.reject(new Error(event.message || 'derive worker failed'));
    pending.clear();
  };
  const send = (method: MethodName, params: unknown): Promise<unknown> => {
    const id = next++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, method, params });
    });
  };
  const sender = new DocumentSender(originOf);
  /**
   * The wire parameters of a request, worked out as it is sent (sends are in order, so the sender
   * knows what the worker holds); a worker that lacks the base revision is sent the document whole.
   */
  const sendDerive = (p: DeriveRequest | DeriveParams): Promise<unknown> => {
    if (!('doc' in p) || p.doc === undefined || 'edits' in p) {
      // Wire parameters given as they are: what the worker holds is no longer known here.
      sender.reset();
      return send('derive', p);
    }
    const { doc, ...rest } = p;
    return send('derive', { ...rest, ...sender.update(doc, p.revision) }).catch((e: unknown) => {
      if (!isResync(e)) throw e;
      return send('derive', { ...rest, ...sender.update(doc, p.revision, true) });
    }).catch((e: unknown) => {
      sender.reset();
      throw e;
    });
  };
  // Typing sends a derivation per keystroke; while one runs, only the newest waiting one is kept,
  // and every caller it replaced gets its (newer) answer.
  let inFlight = false;
  let queued: { params: DeriveRequest | DeriveParams; waiters: { resolve: (v: unknown) => void; reject: (e: Error) => void }[] } | undefined;
  const derive = (params: DeriveRequest | DeriveParams): Promise<unknown> =>
    new Promise((resolve, reject) => {
      if (!inFlight) {
        inFlight = true;
        const run = (p: DeriveRequest | DeriveParams, waiters: { resolve: (v: unknown) => void; reject: (e: Error) => void }[]): void => {
          sendDerive(p).then(
            (v) => waiters.forEach((w) => w.resolve(v)),
            (e: Error) => waiters.forEach((w) => w.reject(e)),
          ).finally(() => {
            const q = queued;
            queued = undefined;
            if (q) run(q.params, q.waiters);
            else inFlight = false;
          });
        };
        run(params, [{ resolve, reject }]);
        return;
      }
      queued = { params, waiters: [...(queued?.waiters ?? []), { resolve, reject }] };
    });
  return {
    call(method, params) {
      return (method === 'derive' ? derive(params as DeriveParams) : send(method, params)) as Promise<never>;
    },
    derive(request) {
      return derive(request) as Promise<TimelineView>;
    },
  };
}
