// Reading a user's file as text in the page: strict UTF-8, never the silent
// U+FFFD replacement of `File.text()`. A file that is not UTF-8 is refused with
// the line and column of its first bad byte, so the user can find and fix it.
import { decodeUtf8 } from '../core';

export type TextRead = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly error: string };

/** Decodes bytes read from a file; `error` reads `LINE:COLUMN: not UTF-8: ...`. */
export function decodeFileBytes(bytes: Uint8Array): TextRead {
  const d = decodeUtf8(bytes);
  return d.ok ? { ok: true, text: d.text } : { ok: false, error: `${d.line}:${d.column}: ${d.message}` };
}

/** A picked or dropped file's text, decoded strictly. */
export async function readFileText(file: Blob): Promise<TextRead> {
  return decodeFileBytes(new Uint8Array(await file.arrayBuffer()));
}

/** readFileText for callers that report failures by rejecting: the error names the file. */
export async function readFileTextOrThrow(file: Blob, name: string): Promise<string> {
  const r = await readFileText(file);
  if (!r.ok) throw new Error(`${name}:${r.error}`);
  return r.text;
}
