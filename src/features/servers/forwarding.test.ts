import { describe, expect, it } from 'vitest';
import { forwardingWords, namesMarked } from './forwarding';

describe('namesMarked', () => {
  const no = new Set(['trigger-sampling-request', 'get-roots-list']);
  it('marks each tool JP is not offered and leaves the others plain', () => {
    expect(namesMarked(['echo', 'trigger-sampling-request', 'get-sum'], no)).toBe('echo, trigger-sampling-request (not offered to JP), get-sum');
  });
  it('past the first few, counts the rest and how many of them JP is not offered', () => {
    expect(namesMarked(['a', 'b', 'get-roots-list', 'c', 'trigger-sampling-request'], no, 2)).toBe('a, b and 3 more (2 not offered to JP)');
    expect(namesMarked(['get-roots-list', 'a', 'b'], no, 1)).toBe('get-roots-list (not offered to JP) and 2 more');
  });
  it('marks nothing when nothing is known', () => {
    expect(namesMarked(['trigger-sampling-request'], new Set())).toBe('trigger-sampling-request');
  });
});

describe('forwardingWords', () => {
  it("says which capabilities the server runs with and offers the other", () => {
    expect(forwardingWords({ kind: 'stdio', forwardsToPage: false })).toMatchObject({ state: expect.stringContaining("JP's client capabilities") as string, action: 'Forward to this page' });
    expect(forwardingWords({ kind: 'stdio' }).action).toBe('Forward to this page');
    const on = forwardingWords({ kind: 'http', forwardsToPage: true });
    expect(on).toMatchObject({ state: 'forwards sampling, elicitation and roots to this page', action: "Use JP's capabilities" });
    expect(on.title).toContain('reconnects to the server');
    expect(forwardingWords({ kind: 'stdio', forwardsToPage: true }).title).toContain('restarts the server');
  });
});
