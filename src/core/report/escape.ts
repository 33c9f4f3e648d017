// Text into HTML: every untrusted string (tool names, descriptions, commands, file names, results)
// goes through `esc`, in text and in attribute values alike.

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Control characters other than tab, newline and carriage return have no business in a report. */
function isControl(code: number): boolean {
  return (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f;
}

export function esc(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    out += ENTITIES[ch] ?? (isControl(code) ? `\\u${code.toString(16).padStart(4, '0')}` : ch);
  }
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
