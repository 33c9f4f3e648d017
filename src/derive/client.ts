// The UI's handle on the derive worker: typed calls that resolve with the
// worker's answer. One worker per page.
import type { MethodName, Params, Result, RpcResponse } from './protocol';

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
  };
}
