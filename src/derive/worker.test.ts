// The worker as the page meets it: an app load is a derivation, and it must not fetch the o200k_base
// tokenizer (megabytes of BPE ranks) unless a figure asks for token counts.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_PRICE_TABLE, scenarioDocFromText } from '../core';
import type { RpcResponse } from './protocol';
import type * as Tokens from '../core/providers/tokens';

const load = vi.hoisted(() => ({ calls: 0 }));
vi.mock('../core/providers/tokens', async (original) => {
  const real = await original<typeof Tokens>();
  return {
    ...real,
    createTokenCounter: () => {
      load.calls++;
      return real.createTokenCounter();
    },
  };
});

const answers = new Map<number, RpcResponse>();
const waiting = new Map<number, (r: RpcResponse) => void>();
const scope = {
  onmessage: undefined as ((e: MessageEvent<unknown>) => void) | undefined,
  postMessage(r: RpcResponse) {
    answers.set(r.id, r);
    waiting.get(r.id)?.(r);
  },
};
const had = Object.getOwnPropertyDescriptor(globalThis, 'self');
Object.defineProperty(globalThis, 'self', { value: scope, configurable: true, writable: true });
afterAll(() => {
  if (had) Object.defineProperty(globalThis, 'self', had);
  else Reflect.deleteProperty(globalThis, 'self');
});

let nextId = 0;
function call(method: string, params: unknown): Promise<RpcResponse> {
  const id = ++nextId;
  const answered = new Promise<RpcResponse>((resolve) => waiting.set(id, resolve));
  scope.onmessage?.({ data: { id, method, params } } as MessageEvent<unknown>);
  return answers.has(id) ? Promise.resolve(answers.get(id) as RpcResponse) : answered;
}

/** Lets the worker's own follow-ups (the warm-up on a timer, the queued `prepare`) run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('the derive worker and the o200k_base tokenizer', () => {
  it('an app load (a derivation and what the worker does after it) does not load it; a token figure does', async () => {
    await import('./worker');
    const parsed = scenarioDocFromText(readFileSync(new URL('../app/demo-scenario.toml', import.meta.url), 'utf8'));
    if (!parsed.ok) throw new Error(parsed.errors[0]?.message);
    const derived = await call('derive', { doc: parsed.doc, revision: 1, entry: null });
    expect(derived.ok).toBe(true);
    await settle();
    expect(load.calls).toBe(0);

    const statuses = await call('cacheStatuses', { revision: 1, table: DEFAULT_PRICE_TABLE, from: 0, to: 1 });
    expect(statuses.ok).toBe(true);
    expect(load.calls).toBeGreaterThan(0);
  });
});
