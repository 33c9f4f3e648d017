import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { crc32, decodeShared, encodeShared, fromBase64Url, toBase64Url } from './codec';

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
