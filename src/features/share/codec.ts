// A scenario in a URL: the scenario file's text (what `tool-workbench check`
// runs), deflated, followed by the CRC-32 of the text, in base64url, behind a
// version: `#s=1.<payload>`. Raw deflate carries no checksum, so the CRC is
// what tells a tampered or truncated link from a good one.
import { deflateSync, Inflate } from 'fflate';

export const SHARE_PREFIX = '#s=';
export const SHARE_VERSION = '1';

/**
 * The most scenario text a link may inflate to: 20 MiB. The importer reads catalogues of at most
 * 4 MiB of JSON (the largest real one is 1.1 MB), so a scenario holding a few of them is well under
 * it; without a cap, a 1.36 MB link inflated to 1 GB and froze the page for 14 s. Inflating stops
 * at the cap (tens of milliseconds), before anything is decoded or parsed.
 */
export const MAX_SHARED_TEXT_BYTES = 20 * 1024 * 1024;

/**
 * Compressed input is fed in pieces this big: deflate expands at most ~1,032×, so one piece inflates
 * to at most ~8 MB and the output never grows past the cap by more than that.
 */
const INFLATE_PIECE = 8 * 1024;

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = (CRC_TABLE[(c ^ (bytes[i] ?? 0)) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/gu, '-').replace(/\//gu, '_').replace(/=+$/u, '');
}

export function fromBase64Url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/u.test(text) || text.length % 4 === 1) return undefined;
  const b64 = text.replace(/-/gu, '+').replace(/_/gu, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  let binary: string;
  try {
    binary = atob(b64);
  } catch {
    return undefined;
  }
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** The hash fragment (with `#s=`) carrying a scenario text. */
export function encodeShared(text: string): string {
  const data = new TextEncoder().encode(text);
  const packed = deflateSync(data, { level: 9 });
  const out = new Uint8Array(packed.length + 4);
  out.set(packed, 0);
  new DataView(out.buffer).setUint32(packed.length, crc32(data));
  return `${SHARE_PREFIX}${SHARE_VERSION}.${toBase64Url(out)}`;
}

export type Decoded = { ok: true; text: string } | { ok: false; error: string; tooLarge?: true };

class TooLarge extends Error {}

/** Raw inflate that gives up once the output passes `limit` bytes. */
export function inflateCapped(data: Uint8Array, limit: number): Uint8Array {
  const parts: Uint8Array[] = [];
  let size = 0;
  const inflater = new Inflate((chunk) => {
    size += chunk.length;
    if (size > limit) throw new TooLarge();
    parts.push(chunk);
  });
  if (data.length === 0) inflater.push(data, true);
  for (let at = 0; at < data.length; at += INFLATE_PIECE) inflater.push(data.subarray(at, at + INFLATE_PIECE), at + INFLATE_PIECE >= data.length);
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(0)} MB`;
}

/** The scenario text of a hash fragment (`#s=...`, or just what follows `s=`). */
export function decodeShared(hash: string, maxTextBytes = MAX_SHARED_TEXT_BYTES): Decoded {
  const body = hash.startsWith(SHARE_PREFIX) ? hash.slice(SHARE_PREFIX.length) : hash;
  const dot = body.indexOf('.');
  if (dot < 0) return { ok: false, error: 'the link has no version mark; it was cut or edited' };
  const version = body.slice(0, dot);
  if (version !== SHARE_VERSION) return { ok: false, error: `the link is of format ${JSON.stringify(version.slice(0, 8))}, which this workbench does not read` };
  const bytes = fromBase64Url(body.slice(dot + 1));
  if (!bytes) return { ok: false, error: 'the link holds characters a shared scenario never has; it was edited' };
  if (bytes.length < 5) return { ok: false, error: 'the link is too short; it was cut' };
  const expected = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(bytes.length - 4);
  let data: Uint8Array;
  try {
    data = inflateCapped(bytes.subarray(0, bytes.length - 4), maxTextBytes);
  } catch (e) {
    if (e instanceof TooLarge) {
      return { ok: false, tooLarge: true, error: `it unpacks to more than ${megabytes(maxTextBytes)} of scenario text, more than the workbench opens from a link; share the scenario file instead` };
    }
    return { ok: false, error: `the link does not decompress (${e instanceof Error ? e.message : String(e)}); it was cut or edited` };
  }
  if (crc32(data) !== expected) return { ok: false, error: 'the link fails its checksum; it was cut or edited' };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    return { ok: false, error: 'the link does not hold UTF-8 text' };
  }
  return { ok: true, text };
}
