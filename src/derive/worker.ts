// The derive worker: hosts the core off the main thread so typing in a
// 10,000-tool layer never blocks the page.
import { DeriveHost } from './host';
import type { MethodName, RpcRequest, RpcResponse } from './protocol';

const host = new DeriveHost();

const fail = (id: number, e: unknown): RpcResponse => ({ id, ok: false, error: e instanceof Error ? e.message : String(e) });

self.onmessage = (event: MessageEvent<RpcRequest>) => {
  const { id, method, params } = event.data;
  const post = (response: RpcResponse) => (self as unknown as Worker).postMessage(response);
  try {
    const fn = host[method as MethodName] as (p: unknown) => unknown;
    const result = fn.call(host, params);
    // A few methods (token counts) load a module first and answer with a promise.
    if (result instanceof Promise) result.then((value: unknown) => post({ id, ok: true, result: value }), (e: unknown) => post(fail(id, e)));
    else post({ id, ok: true, result });
  } catch (e) {
    post(fail(id, e));
  }
};
