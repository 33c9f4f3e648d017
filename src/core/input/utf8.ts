// Decoding a user's file: UTF-8 or a clear error naming the line and column of
// the first bad byte. Never the silent U+FFFD replacement that `TextDecoder`
// does by default, which would turn a Latin-1 file into a document that looks
// right and compares wrong. Used by the command line and by every place the
// page reads a file.
import { LineIndex } from '../config/toml-ast';

export type Utf8Decode =
  | { readonly ok: true; readonly text: string }
  | {
      readonly ok: false;
      /** 1-based, in the decoded text before the bad byte (columns count UTF-16 units, as editors do). */
      readonly line: number;
      readonly column: number;
      /** The bad byte's offset in the file. */
      readonly offset: number;
      readonly message: string;
    };

// `fatal: true` throws on the first malformed sequence; a leading byte-order mark is dropped
// (the Encoding Standard's "UTF-8 decode", https://encoding.spec.whatwg.org/#utf-8-decode, 2026-12-01).
const strict = new TextDecoder('utf-8', { fatal: true });
const lenient = new TextDecoder('utf-8');

/**
 * The offset of the first byte that does not start or continue a well-formed UTF-8 sequence
 * (the Encoding Standard's UTF-8 decoder: no overlongs, no surrogates, nothing above U+10FFFF),
 * or -1. For a sequence cut short, the offset of its lead byte.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i += 1;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0;
      if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90;
      if (b === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) return i;
    }
    i += need + 1;
  }
  return -1;
}

const hex = (b: number): string => `0x${b.toString(16).toUpperCase().padStart(2, '0')}`;

/** Decodes `bytes` as UTF-8, dropping a leading byte-order mark; anything else malformed is an error with its place. */
export function decodeUtf8(bytes: Uint8Array): Utf8Decode {
  try {
    return { ok: true, text: strict.decode(bytes) };
  } catch {
    // Located below.
  }
  const offset = firstInvalidUtf8(bytes);
  // The decoder and the scan agree on what is malformed; should they ever not, the file's start is the place.
  const at = offset < 0 ? 0 : offset;
  const before = lenient.decode(bytes.subarray(0, at));
  const { line, column } = new LineIndex(before).position(before.length);
  const shown = [...bytes.subarray(at, Math.min(at + 4, bytes.length))].slice(0, Math.max(1, utf8SequenceLength(bytes[at] ?? 0))).map(hex);
  const message = `not UTF-8: byte${shown.length > 1 ? 's' : ''} ${shown.join(' ')} at byte offset ${at} ${shown.length > 1 ? 'do' : 'does'} not form a character; save the file as UTF-8`;
  return { ok: false, line, column, offset: at, message };
}

/** How many bytes the sequence a lead byte opens should have (1 for a stray byte). */
function utf8SequenceLength(b: number): number {
  if (b >= 0xc2 && b <= 0xdf) return 2;
  if (b >= 0xe0 && b <= 0xef) return 3;
  if (b >= 0xf0 && b <= 0xf4) return 4;
  return 1;
}
