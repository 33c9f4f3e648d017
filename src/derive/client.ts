// The UI's handle on the derive worker: typed calls that resolve with the
// worker's answer. One worker per page. The methods, their types and which
// of them coalesce are methods.ts's table.
import { methods } from './methods';
import type { MethodName, Params, Result } from './methods';
import type { RpcResponse } from './protocol';

export interface DeriveClient {
  call<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>>;
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
          send(method, p).then(
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
    call(method, params) {
      const row: { readonly coalesce?: true } = methods[method];
      return (row.coalesce ? coalesced(method, params) : send(method, params)) as Promise<never>;
    },
  };
}
