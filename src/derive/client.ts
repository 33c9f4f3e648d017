// The UI's handle on the derive worker: typed calls that resolve with the
// worker's answer. One worker per page. The methods, their types and which
// of them coalesce are methods.ts's table.
import type { ScenarioDoc } from '../core';
import { lineageFloor, originOf } from '../state/lineage';
import { DocumentSender, isResync, takeFileOffers } from './document';
import { methods } from './methods';
import { Superseded } from './dispatch';
import type { DeriveParams, MethodName, Params, Result } from './methods';
import type { RpcBatch, RpcCancel, RpcRequest, RpcResponse, TimelineView } from './protocol';

/** A derivation as the page asks for it: the store's document (a reference: what crosses is worked out at send time). */
export interface DeriveRequest extends Omit<DeriveParams, 'doc' | 'edits'> {
  readonly doc: ScenarioDoc;
}

/** What crossed the worker boundary since metering began: bytes as JSON text, each way. */
export interface Traffic {
  /** Cloned to the worker (as JSON text); buffers transferred, not cloned, are `transferred`. */
  readonly sent: number;
  /** Bytes moved to the worker without a copy: an opened file's bytes, or the file handed to it to read (document.ts). */
  readonly transferred: number;
  readonly received: number;
  readonly messages: number;
  /** Received bytes by method. */
  readonly byMethod: Readonly<Record<string, number>>;
}

export interface CallOptions {
  /**
   * The caller's interest (react-query's query signal): once it aborts, the worker drops the call if it
   * still waits. It also says how `superseded` is taken (a newer revision's derivation made the call
   * useless, dispatch.ts): with a signal, as no answer (the promise settles only when the signal aborts,
   * so a query shows what it showed before, never an error); without one, as a `Superseded` rejection.
   */
  readonly signal?: AbortSignal;
}

export interface DeriveClient {
  call<M extends MethodName>(method: M, params: Params<M>, options?: CallOptions): Promise<Result<M>>;
  /**
   * Starts (or restarts from zero) counting the messages' bytes, for the test hook and the bench. Off
   * until asked: measuring a whole document's params as JSON would cost the keystroke it measures.
   */
  meter?(on: boolean): void;
  traffic?(): Traffic;
  /**
   * Derives a revision of the store's document. The worker owns the document, so only what changed
   * since the revision it holds crosses (document.ts); the whole document only when it must.
   */
  derive(request: DeriveRequest): Promise<TimelineView>;
}

export function createWorkerClient(): DeriveClient {
  const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
  let next = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; superseded: () => void }>();
  worker.onmessage = (event: MessageEvent<RpcResponse>) => {
    const r = event.data;
    const p = pending.get(r.id);
    if (!p) return;
    pending.delete(r.id);
    if (r.ok) p.resolve(r.result);
    else if ('superseded' in r) p.superseded();
    else p.reject(new Error(r.error));
  };
  worker.onerror = (event) => {
    for (const p of pending.values()) p.reject(new Error(event.message || 'derive worker failed'));
    pending.clear();
  };
  // Messages wait for the end of the task that made them, then go as one (RpcBatch); a derivation goes
  // at once, after what waits (the worker reads them in order), so it starts while the keystroke's task
  // is still running.
  let outbox: (RpcRequest | RpcCancel)[] = [];
  let moving: ArrayBuffer[] = [];
  const flush = (): void => {
    if (outbox.length === 0) return;
    const out = outbox;
    const transfer = moving;
    outbox = [];
    moving = [];
    worker.postMessage(out.length === 1 ? out[0] : ({ batch: out } satisfies RpcBatch), transfer);
  };
  const post = (m: RpcRequest | RpcCancel, now: boolean, transfer: readonly ArrayBuffer[] = []): void => {
    outbox.push(m);
    moving.push(...transfer);
    if (now) flush();
    else if (outbox.length === 1) queueMicrotask(flush);
  };
  let metering = false;
  let traffic = { sent: 0, transferred: 0, received: 0, messages: 0, byMethod: {} as Record<string, number> };
  const bytes = (v: unknown): number => (v === undefined ? 0 : (JSON.stringify(v)?.length ?? 0));
  const send = (method: MethodName, params: unknown, signal?: AbortSignal): Promise<unknown> => {
    const id = next++;
    const message = { id, method, params };
    // An opened file's bytes (document.ts) are moved to the worker, not copied.
    const source = method === 'derive' ? (params as { source?: unknown }).source : undefined;
    const transfer = source instanceof Uint8Array ? [source.buffer as ArrayBuffer] : [];
    if (metering) {
      traffic.sent += source instanceof Uint8Array ? bytes({ ...message, params: { ...(params as object), source: null } }) : bytes(message);
      traffic.transferred += source instanceof Uint8Array ? source.byteLength : 0;
      traffic.messages++;
    }
    return new Promise((resolve, reject) => {
      const aborted = (): Error => (signal?.reason instanceof Error ? signal.reason : new Superseded(method));
      const onAbort = (): void => {
        // Still waiting for the worker: it drops the call (or stops its slices).
        if (pending.delete(id)) post({ id, cancel: true }, false);
        reject(aborted());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      pending.set(id, {
        resolve: (v) => {
          signal?.removeEventListener('abort', onAbort);
          if (metering) {
            const n = bytes({ id, ok: true, result: v });
            traffic.received += n;
            traffic.messages++;
            traffic.byMethod[method] = (traffic.byMethod[method] ?? 0) + n;
          }
          resolve(v);
        },
        reject: (e) => {
          signal?.removeEventListener('abort', onAbort);
          reject(e);
        },
        // No answer: a query keeps what it showed until its signal aborts (its key moved on).
        superseded: () => {
          if (!signal) reject(new Superseded(method));
          else if (signal.aborted) reject(aborted());
        },
      });
      if (signal?.aborted) onAbort();
      else post(message, method === 'derive', transfer);
    });
  };
  const sender = new DocumentSender(originOf);
  // An opened file goes to the worker before the page reads it (document.ts offerFile), after what waits
  // to be sent (the worker reads messages in order).
  takeFileOffers((m) => {
    flush();
    if (metering) traffic.transferred += m.file.size;
    worker.postMessage(m);
  });
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
    const update = sender.update(doc, p.revision);
    lineageFloor('worker', doc);
    return send('derive', { ...rest, ...update }).catch((e: unknown) => {
      if (!isResync(e)) throw e;
      // Whole, and as itself when it went as its file's bytes first (they were used up).
      return send('derive', { ...rest, ...sender.update(doc, p.revision, true) });
    }).catch((e: unknown) => {
      sender.reset();
      throw e;
    });
  };
  // Typing sends a derivation per keystroke; for a coalescing method (the table's `coalesce`), while one
  // call runs only the newest waiting one is kept, and every caller it replaced gets its (newer) answer.
  type Waiter = { resolve: (v: unknown) => void; reject: (e: Error) => void };
  const lanes = new Map<MethodName, { inFlight: boolean; queued?: { params: unknown; waiters: Waiter[] } }>();
  const coalesced = (method: MethodName, params: unknown): Promise<unknown> =>
    new Promise((resolve, reject) => {
      let lane = lanes.get(method);
      if (!lane) lanes.set(method, (lane = { inFlight: false }));
      const l = lane;
      if (!l.inFlight) {
        l.inFlight = true;
        const run = (p: unknown, waiters: Waiter[]): void => {
          (method === 'derive' ? sendDerive(p as DeriveRequest | DeriveParams) : send(method, p)).then(
            (v) => waiters.forEach((w) => w.resolve(v)),
            (e: Error) => waiters.forEach((w) => w.reject(e)),
          ).finally(() => {
            const q = l.queued;
            l.queued = undefined;
            if (q) run(q.params, q.waiters);
            else l.inFlight = false;
          });
        };
        run(params, [{ resolve, reject }]);
        return;
      }
      l.queued = { params, waiters: [...(l.queued?.waiters ?? []), { resolve, reject }] };
    });
  return {
    call(method, params, options) {
      const row: { readonly coalesce?: true } = methods[method];
      return (row.coalesce ? coalesced(method, params) : send(method, params, options?.signal)) as Promise<never>;
    },
    derive(request) {
      return coalesced('derive', request) as Promise<TimelineView>;
    },
    meter(on) {
      metering = on;
      traffic = { sent: 0, transferred: 0, received: 0, messages: 0, byMethod: {} };
    },
    traffic: () => ({ ...traffic, byMethod: { ...traffic.byMethod } }),
  };
}
