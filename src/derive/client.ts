// The UI's handle on the derive worker: typed calls that resolve with the
// worker's answer. One worker per page.
import type { MethodName, Params, Result, RpcResponse } from './protocol';

/** What crossed the worker boundary since metering began: bytes as JSON text, each way. */
export interface Traffic {
  readonly sent: number;
  readonly received: number;
  readonly messages: number;
  /** Received bytes by method. */
  readonly byMethod: Readonly<Record<string, number>>;
}

export interface DeriveClient {
  call<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>>;
  /**
   * Starts (or restarts from zero) counting the messages' bytes, for the test hook and the bench. Off
   * until asked: measuring a whole document's params as JSON would cost the keystroke it measures.
   */
  meter?(on: boolean): void;
  traffic?(): Traffic;
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
  let metering = false;
  let traffic = { sent: 0, received: 0, messages: 0, byMethod: {} as Record<string, number> };
  const bytes = (v: unknown): number => (v === undefined ? 0 : (JSON.stringify(v)?.length ?? 0));
  const send = (method: MethodName, params: unknown): Promise<unknown> => {
    const id = next++;
    const message = { id, method, params };
    if (metering) {
      traffic.sent += bytes(message);
      traffic.messages++;
    }
    return new Promise((resolve, reject) => {
      pending.set(id, {
        resolve: (v) => {
          if (metering) {
            const n = bytes({ id, ok: true, result: v });
            traffic.received += n;
            traffic.messages++;
            traffic.byMethod[method] = (traffic.byMethod[method] ?? 0) + n;
          }
          resolve(v);
        },
        reject,
      });
      worker.postMessage(message);
    });
  };
  // Typing sends a derivation per keystroke; while one runs, only the newest waiting one is kept,
  // and every caller it replaced gets its (newer) answer.
  let inFlight = false;
  let queued: { params: unknown; waiters: { resolve: (v: unknown) => void; reject: (e: Error) => void }[] } | undefined;
  const derive = (params: unknown): Promise<unknown> =>
    new Promise((resolve, reject) => {
      if (!inFlight) {
        inFlight = true;
        const run = (p: unknown, waiters: { resolve: (v: unknown) => void; reject: (e: Error) => void }[]): void => {
          send('derive', p).then(
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
      return (method === 'derive' ? derive(params) : send(method, params)) as Promise<never>;
    },
    meter(on) {
      metering = on;
      traffic = { sent: 0, received: 0, messages: 0, byMethod: {} };
    },
    traffic: () => ({ ...traffic, byMethod: { ...traffic.byMethod } }),
  };
}
