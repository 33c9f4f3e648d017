// The derive worker: hosts the core off the main thread so typing in a
// 10,000-tool layer never blocks the page.
import { DeriveHost } from './host';
import type { MethodName, RpcRequest, RpcResponse } from './protocol';

const host = new DeriveHost();

self.onmessage = (event: MessageEvent<RpcRequest>) => {
  const { id, method, params } = event.data;
  let response: RpcResponse;
  try {
    const fn = host[method as MethodName] as (p: unknown) => unknown;
    response = { id, ok: true, result: fn.call(host, params) };
  } catch (e) {
    response = { id, ok: false, error: e instanceof Error ? e.message : String(e) };
  }
  (self as unknown as Worker).postMessage(response);
};
