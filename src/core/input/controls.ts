// Characters that must never reach a terminal or a file raw when they come from
// untrusted text: C0 controls, DEL, C1 controls (a terminal may read U+009B as
// CSI), and the Unicode format characters that reorder or break what is shown:
// the bidirectional marks, overrides and isolates ("Trojan Source",
// CVE-2021-42574) and the line and paragraph separators.

/** A character class (for `new RegExp(..., 'u')`) of every such character, newline and tab included. */
export const CONTROL_CLASS = '\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';
/** The same without newline and tab, for text whose lines are its structure. */
export const CONTROL_CLASS_KEEPING_LINES = '\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';

const ONE = new RegExp(`[${CONTROL_CLASS}]`, 'u');

/** Whether `ch` (one code point) is one of those characters. */
export function isControl(ch: string): boolean {
  return ONE.test(ch);
}

/** `\uXXXX` for a character of the Basic Multilingual Plane, as JSON and TOML write it. */
export function unicodeEscape(ch: string): string {
  return `\\u${(ch.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`;
}
