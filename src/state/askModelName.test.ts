// The model name for "Ask the model" survives a reload (issue 35): kept per provider in localStorage.
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

describe('the model name for Ask the model', () => {
  beforeEach(() => {
    vi.resetModules();
    vi.stubGlobal('localStorage', fakeStorage());
  });
  afterEach(() => vi.unstubAllGlobals());

  it('is kept per provider across a reload, and cleared when emptied', async () => {
    const first = await import('./askModelName');
    expect(first.savedModelName('anthropic')).toBe('');
    first.saveModelName('anthropic', 'claude-haiku-4-5');
    first.saveModelName('openai', 'gpt-5');
    vi.resetModules();
    const again = await import('./askModelName');
    expect(again.savedModelName('anthropic')).toBe('claude-haiku-4-5');
    expect(again.savedModelName('openai')).toBe('gpt-5');
    again.saveModelName('anthropic', '');
    expect(again.savedModelName('anthropic')).toBe('');
    expect(again.savedModelName('openai')).toBe('gpt-5');
  });

  it('reads damaged storage as no name, never a crash', async () => {
    const { ASK_MODEL_KEY, savedModelName } = await import('./askModelName');
    localStorage.setItem(ASK_MODEL_KEY, '{not json');
    expect(savedModelName('anthropic')).toBe('');
    localStorage.setItem(ASK_MODEL_KEY, JSON.stringify({ anthropic: 7, openai: 'gpt-5' }));
    expect(savedModelName('anthropic')).toBe('');
    expect(savedModelName('openai')).toBe('gpt-5');
  });
});
