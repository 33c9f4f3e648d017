// Text into HTML: every untrusted string (tool names, descriptions, commands, file names, results)
// goes through `esc`, in text and in attribute values alike.

import { isControl, unicodeEscape } from '../input/controls';

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Escaped for HTML text and attribute values. Control and bidirectional format characters (the
 * command line's list, core/input/controls.ts) are shown as `\uXXXX`, so a name cannot reorder what
 * a reviewer reads; newlines and tabs stay.
 */
export function esc(text: string): string {
  let out = '';
  for (const ch of text) out += ENTITIES[ch] ?? (ch !== '\n' && ch !== '\t' && isControl(ch) ? unicodeEscape(ch) : ch);
  return out;
}

/** A value as one line of JSON (strings quoted), cut at `max` characters, escaped. */
export function escValue(value: unknown, max = 400): string {
  let s: string;
  if (value === undefined) s = '(nothing)';
  else {
    try {
      s = JSON.stringify(value) ?? String(value);
    } catch {
      s = String(value);
    }
  }
  return esc(s.length > max ? `${s.slice(0, max - 1)}…` : s);
}

/** "1,234": figures read like figures. */
export const figure = (n: number): string => n.toLocaleString('en-US');

/** A fragment id from any text: letters, digits and dashes. */
export function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/gu, '-').replace(/^-|-$/gu, '') || 'x';
}
