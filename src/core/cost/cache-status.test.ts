import { describe, expect, it } from 'vitest';
import { cacheStatus } from './cache-status';

const hit = { status: 'hit' as const, reason: 'previous request is a prefix: 10 of 20 bytes reused' };
const miss = { status: 'miss' as const, reason: 'tools array differs from the previous request at byte 3' };
const first = { status: 'miss' as const, reason: 'first request' };

describe('one cache status with its reason (issue 24.6)', () => {
  it('a reused prefix below the provider minimum says so, and 0 cached', () => {
    expect(cacheStatus(hit, { cacheRead: 0, cacheWrite: 0, sharedPrefix: 0 }, 1024)).toEqual({ prefix: 'reused', cached: 0, text: 'prefix reused · below the 1,024-token minimum: 0 cached', tone: 'miss' });
  });

  it('tokens read are the good news, whatever the prefix word', () => {
    expect(cacheStatus(hit, { cacheRead: 4054, cacheWrite: 0, sharedPrefix: 4100 }, 1024)).toMatchObject({ text: 'prefix reused · 4,054 cached', tone: 'hit' });
    expect(cacheStatus(miss, { cacheRead: 1200, cacheWrite: 0, sharedPrefix: 1250 }, 1024)).toMatchObject({ text: 'prefix changed · 1,200 cached', tone: 'hit' });
  });

  it('a write with nothing read, a first request, and no cost model', () => {
    expect(cacheStatus(miss, { cacheRead: 0, cacheWrite: 2182, sharedPrefix: 0 }, 1024).text).toBe('prefix changed · 2,182 written: 0 cached');
    expect(cacheStatus(first, { cacheRead: 0, cacheWrite: 0, sharedPrefix: 0 }, 1024).text).toBe('first request · 0 cached');
    expect(cacheStatus(hit)).toEqual({ prefix: 'reused', text: 'prefix reused', tone: 'hit' });
    expect(cacheStatus(first).text).toBe('first request');
  });
});
