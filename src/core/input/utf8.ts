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

/** The bytes a lead byte needs after it, and the range its first continuation byte must fall in (the Encoding Standard's table). */
function sequence(b: number): { need: number; lo: number; hi: number } | undefined {
  if (b >= 0xc2 && b <= 0xdf) return { need: 1, lo: 0x80, hi: 0xbf };
  if (b >= 0xe0 && b <= 0xef) return { need: 2, lo: b === 0xe0 ? 0xa0 : 0x80, hi: b === 0xed ? 0x9f : 0xbf };
  if (b >= 0xf0 && b <= 0xf4) return { need: 3, lo: b === 0xf0 ? 0x90 : 0x80, hi: b === 0xf4 ? 0x8f : 0xbf };
  return undefined;
}

/**
 * The first malformed sequence: its offset and how many bytes of it are shown (the lead byte and
 * the continuation bytes that were right before one was missing or wrong), or undefined. No
 * overlongs, no surrogates, nothing above U+10FFFF.
 */
export function firstInvalidUtf8(bytes: Uint8Array): { offset: number; length: number } | undefined {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i += 1;
      continue;
    }
    const seq = sequence(b);
    if (!seq) return { offset: i, length: 1 };
    for (let k = 1; k <= seq.need; k++) {
      const c = bytes[i + k];
      if (c === undefined || c < (k === 1 ? seq.lo : 0x80) || c > (k === 1 ? seq.hi : 0xbf)) return { offset: i, length: k };
    }
    i += seq.need + 1;
  }
  return undefined;
}

const hex = (b: number): string => `0x${b.toString(16).toUpperCase().padStart(2, '0')}`;

/** Decodes `bytes` as UTF-8, dropping a leading byte-order mark; anything else malformed is an error with its place. */
export function decodeUtf8(bytes: Uint8Array): Utf8Decode {
  try {
    return { ok: true, text: strict.decode(bytes) };
  } catch {
    // Located below.
  }
  // The decoder and the scan agree on what is malformed; should they ever not, the file's start is the place.
  const bad = firstInvalidUtf8(bytes) ?? { offset: 0, length: Math.min(1, bytes.length) };
  const before = lenient.decode(bytes.subarray(0, bad.offset));
  const { line, column } = new LineIndex(before).position(before.length);
  const shown = [...bytes.subarray(bad.offset, bad.offset + bad.length)].map(hex);
  const what = shown.length === 1 ? `byte ${shown[0] ?? ''} at byte offset ${bad.offset} does` : `bytes ${shown.join(' ')} at byte offset ${bad.offset} do`;
  return { ok: false, line, column, offset: bad.offset, message: `not UTF-8: ${what} not form a character; save the file as UTF-8` };
}
