// Reading the files the command line is given: regular files only, a size cap
// checked before reading, and UTF-8 or an error at the line and column of the
// first bad byte. Today's failures this stops: `check /dev/zero` grew to 6.5 GB,
// a FIFO waited forever for a writer, Latin-1 text was silently replaced.
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { decodeUtf8 } from '../core/input/utf8';
import { formatBytes } from '../core/import/catalogue';

/**
 * The largest file the command line reads: 32 MiB. The largest real inputs are far below it
 * (LiveMCPBench's catalogue, 1.1 MB; the 10,000-tool, 50-turn scenario of bench/check-scale.ts,
 * 6.5 MB, five times under it), and reading and decoding 32 MiB takes about a second
 * (bench/input.ts); a bigger file is a log, a dump or a device, and parsing it would hold hundreds
 * of megabytes.
 */
export const MAX_INPUT_BYTES = 32 * 1024 * 1024;

/** A file that cannot be used, with the place in it when there is one (not UTF-8). */
export class InputError extends Error {
  constructor(
    message: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
    this.name = 'InputError';
  }
}

function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a named pipe, a FIFO';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a file';
}

const SYSTEM: ReadonlyMap<string, string> = new Map([
  ['ENOENT', 'no such file'],
  ['ENOTDIR', 'no such file (a part of the path is not a folder)'],
  ['EACCES', 'permission denied'],
  ['EPERM', 'permission denied'],
  ['ELOOP', 'too many symbolic links'],
  ['ENAMETOOLONG', 'the path is too long'],
  ['EISDIR', 'not a regular file (it is a folder)'],
]);

/** A system error as a sentence, without Node's syscall decoration. */
export function systemMessage(e: unknown): string {
  const code = typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : undefined;
  return (code !== undefined ? SYSTEM.get(code) : undefined) ?? (e instanceof Error ? e.message : String(e));
}

const tooBig = (bytes: number, max: number): string =>
  `the file is ${bytes > max ? formatBytes(bytes) : `over ${formatBytes(max)}`}; the command line reads at most ${formatBytes(max)} from one file`;

/** Decodes a file's bytes as UTF-8 (a byte-order mark dropped), or throws an InputError at the first bad byte. */
export function decodeInput(bytes: Uint8Array): string {
  const d = decodeUtf8(bytes);
  if (!d.ok) throw new InputError(d.message, d.line, d.column);
  return d.text;
}

/** Reads a regular file of at most `maxBytes` as UTF-8; anything else throws an InputError saying why. */
export function readInputFile(path: string, maxBytes = MAX_INPUT_BYTES): string {
  let st: Stats;
  try {
    st = statSync(path);
  } catch (e) {
    throw new InputError(systemMessage(e));
  }
  // Checked before opening: opening a FIFO waits for a writer, and /dev/zero never ends.
  if (!st.isFile()) throw new InputError(`not a regular file (it is ${kindOf(st)})`);
  if (st.size > maxBytes) throw new InputError(tooBig(st.size, maxBytes));
  let fd: number;
  try {
    // O_NONBLOCK: should the path become a FIFO after the check, opening it still returns at once.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    throw new InputError(systemMessage(e));
  }
  try {
    if (!fstatSync(fd).isFile()) throw new InputError('not a regular file');
    // Read up to one byte past the cap: a file that grew since the check is refused, not truncated.
    const buffer = Buffer.alloc(Math.min(maxBytes + 1, Math.max(st.size + 1, 64 * 1024)));
    let length = 0;
    let chunk = buffer;
    for (;;) {
      if (length === chunk.length) {
        if (chunk.length > maxBytes) throw new InputError(tooBig(length, maxBytes));
        const bigger = Buffer.alloc(Math.min(maxBytes + 1, chunk.length * 2));
        chunk.copy(bigger, 0, 0, length);
        chunk = bigger;
      }
      const n = readSync(fd, chunk, length, chunk.length - length, null);
      if (n === 0) break;
      length += n;
    }
    return decodeInput(chunk.subarray(0, length));
  } finally {
    closeSync(fd);
  }
}

/** `file: message`, or `file:line:column: message` when the problem has a place. */
export function readErrorText(file: string, e: unknown): string {
  if (e instanceof InputError && e.line !== undefined) return `${file}:${e.line}:${e.column ?? 1}: ${e.message}`;
  return `${file}: cannot read: ${e instanceof InputError ? e.message : systemMessage(e)}`;
}
