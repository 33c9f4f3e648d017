// The confirmed URLs: only the exact URL the user pressed Connect for, kept in
// localStorage (and for the page's life when storage refuses), newest first, capped.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

function fakeStorage(): Storage {
  const m = new Map<string, string>();
  return {
    get length() {
      return m.size;
    },
    clear: () => m.clear(),
    getItem: (k) => m.get(k) ?? null,
    key: (i) => [...m.keys()][i] ?? null,
    removeItem: (k) => void m.delete(k),
    setItem: (k, v) => void m.set(k, v),
  };
}

describe('confirmed live-server URLs', () => {
  beforeEach(() => {
    vi.resetModules();
    vi.stubGlobal('localStorage', fakeStorage());
  });
  afterEach(() => vi.unstubAllGlobals());

  it('confirms the exact URL only (compared in its normal form), and forgets it', async () => {
    const { confirmUrl, forgetUrl, isConfirmed } = await import('./confirmed');
    expect(isConfirmed('http://127.0.0.1:3001/mcp')).toBe(false);
    confirmUrl('HTTP://127.0.0.1:3001/mcp');
    expect(isConfirmed('http://127.0.0.1:3001/mcp')).toBe(true);
    expect(isConfirmed('http://127.0.0.1:3002/mcp')).toBe(false);
    expect(isConfirmed('http://127.0.0.1:3001/mcp/other')).toBe(false);
    expect(isConfirmed('not a url')).toBe(false);
    forgetUrl('http://127.0.0.1:3001/mcp');
    expect(isConfirmed('http://127.0.0.1:3001/mcp')).toBe(false);
  });

  it('survives a reload through localStorage, newest first, at most 50', async () => {
    const first = await import('./confirmed');
    for (let i = 0; i < first.MAX_CONFIRMED + 10; i++) first.confirmUrl(`http://localhost:${4000 + i}/mcp`);
    vi.resetModules();
    const again = await import('./confirmed');
    expect(again.isConfirmed(`http://localhost:${4000 + first.MAX_CONFIRMED + 9}/mcp`)).toBe(true);
    expect(again.isConfirmed('http://localhost:4000/mcp')).toBe(false);
    expect((JSON.parse(localStorage.getItem('tool-workbench.confirmed-servers') ?? '[]') as string[]).length).toBe(first.MAX_CONFIRMED);
  });

  it('still holds for the page when storage refuses to keep it', async () => {
    vi.stubGlobal('localStorage', { ...fakeStorage(), setItem: () => { throw new Error('QuotaExceededError'); } });
    const { confirmUrl, isConfirmed } = await import('./confirmed');
    confirmUrl('http://localhost:3001/mcp');
    expect(isConfirmed('http://localhost:3001/mcp')).toBe(true);
  });
});
