import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { deflateSync } from 'fflate';
import { crc32, decodeShared, encodeShared, fromBase64Url, inflateCapped, MAX_SHARED_TEXT_BYTES, toBase64Url } from './codec';

const demo = readFileSync(new URL('../../app/demo-scenario.toml', import.meta.url), 'utf8');

describe('share codec', () => {
  it('round-trips a scenario text exactly, compressed', () => {
    const hash = encodeShared(demo);
    expect(hash.startsWith('#s=1.')).toBe(true);
    expect(hash.length).toBeLessThan(demo.length / 2);
    expect(decodeShared(hash)).toEqual({ ok: true, text: demo });
  });

  it('round-trips unicode and every byte of base64url', () => {
    const text = 'name = "Ünïcødé 🚀"\n' + 'x'.repeat(1000);
    expect(decodeShared(encodeShared(text))).toEqual({ ok: true, text });
    const bytes = new Uint8Array(256).map((_, i) => i);
    expect(fromBase64Url(toBase64Url(bytes))).toEqual(bytes);
  });

  it('crc32 matches the standard check value', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });

  it('refuses a truncated link', () => {
    const hash = encodeShared(demo);
    for (const cut of [hash.length - 1, hash.length - 7, Math.floor(hash.length / 2), 8, 5, 3]) {
      const r = decodeShared(hash.slice(0, cut));
      expect(r.ok, `cut at ${cut}`).toBe(false);
    }
  });

  it('refuses a tampered link', () => {
    const hash = encodeShared(demo);
    const at = Math.floor(hash.length * 0.6);
    const flipped = hash.slice(0, at) + (hash[at] === 'A' ? 'B' : 'A') + hash.slice(at + 1);
    const r = decodeShared(flipped);
    expect(r.ok).toBe(false);
    expect(decodeShared('#s=1.not*base64').ok).toBe(false);
    expect(decodeShared('#s=9.AAAA')).toMatchObject({ ok: false });
    expect(decodeShared('#s=garbage')).toMatchObject({ ok: false });
  });
});

describe('bounded inflating', () => {
  /** A link whose text is `n` bytes of one letter: deflate packs it about 1,000 to 1. */
  function bomb(n: number): string {
    return encodeShared('a'.repeat(n));
  }

  it('refuses a link that inflates past the cap, with a clear error', () => {
    const hash = bomb(3 * 1024 * 1024);
    expect(hash.length).toBeLessThan(6000);
    const r = decodeShared(hash, 1024 * 1024);
    expect(r).toMatchObject({ ok: false, tooLarge: true });
    expect(r.ok ? '' : r.error).toMatch(/unpacks to more than 1 MB of scenario text/u);
  });

  it('reads a link just under the cap, whole', () => {
    const text = 'b'.repeat(1024 * 1024 - 1);
    expect(decodeShared(encodeShared(text), 1024 * 1024)).toEqual({ ok: true, text });
  });

  it('the default cap is 20 MiB: 24 MiB of zeros (24 KB packed) stop there', () => {
    expect(MAX_SHARED_TEXT_BYTES).toBe(20 * 1024 * 1024);
    const packed = deflateSync(new Uint8Array(24 * 1024 * 1024), { level: 1 });
    expect(packed.length).toBeLessThan(128 * 1024);
    expect(() => inflateCapped(packed, MAX_SHARED_TEXT_BYTES)).toThrow();
    expect(inflateCapped(packed, 32 * 1024 * 1024).length).toBe(24 * 1024 * 1024);
  });
});
