// Everything the command line prints goes through here. Names, keys, file names
// and messages come from files anyone can write: an ESC, a BEL or a carriage
// return would reach the terminal as a command (a key holding
// `\u001b]0;PWNED\u0007` retitles it, a `\n` fakes a summary line), so they are
// shown as escapes instead (which characters: ../core/input/controls.ts).
import { CONTROL_CLASS, CONTROL_CLASS_KEEPING_LINES, unicodeEscape } from '../core/input/controls';

const CONTROL = new RegExp(`[${CONTROL_CLASS}]`, 'gu');
const CONTROL_IN_BLOCK = new RegExp(`[${CONTROL_CLASS_KEEPING_LINES}]`, 'gu');

const NAMED: ReadonlyMap<string, string> = new Map([
  ['\n', '\\n'],
  ['\r', '\\r'],
  ['\t', '\\t'],
]);

const escape = (c: string): string => NAMED.get(c) ?? unicodeEscape(c);

/** `text` with every control character written as an escape (`\n`, `\u001b`). */
export function escapeControls(text: string): string {
  return text.replace(CONTROL, escape);
}

/** One printed line: `text` escaped whole (a newline inside it cannot start another line), then a newline. */
export function line(text: string): string {
  return `${escapeControls(text)}\n`;
}

/**
 * A block of JSON or TOML: its newlines and tabs kept, every other control character escaped as
 * `\uXXXX`. The writers already escape what their formats require, so this changes nothing a
 * parser reads back; it is the guard for what they leave raw (C1 controls are legal in both).
 */
export function block(text: string): string {
  const body = text.replace(CONTROL_IN_BLOCK, escape);
  return body.endsWith('\n') ? body : `${body}\n`;
}
