// Characters that change how a command reads without being seen: bidi controls
// (U+202E turns "; touch /tmp/x" around so it looks commented out), zero-width and
// other format characters, controls, line separators, and spaces other than the
// space. Wherever a command, an argument, a folder or a variable name is shown for
// the user to confirm (the "Start servers" dialog, the bridge's terminal), each is
// written as an escape (`\u202E`) and named in a warning, as code hosts warn of
// hidden Unicode (Trojan Source, CVE-2021-42574).

/** One kind of hidden character found in a text. */
export interface HiddenChar {
  /** `U+202E` */
  readonly code: string;
  /** `RIGHT-TO-LEFT OVERRIDE` */
  readonly name: string;
}

const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}\u115F\u1160\u180E\u3164\uFFA0]|\p{Variation_Selector}|\u034F|\u17B4|\u17B5|(?! )\p{Zs}/gu;

const NAMES: Readonly<Record<number, string>> = {
  0x09: 'CHARACTER TABULATION',
  0x0a: 'LINE FEED',
  0x0d: 'CARRIAGE RETURN',
  0x1b: 'ESCAPE',
  0x7f: 'DELETE',
  0xa0: 'NO-BREAK SPACE',
  0xad: 'SOFT HYPHEN',
  0x34f: 'COMBINING GRAPHEME JOINER',
  0x61c: 'ARABIC LETTER MARK',
  0x115f: 'HANGUL CHOSEONG FILLER',
  0x1160: 'HANGUL JUNGSEONG FILLER',
  0x180e: 'MONGOLIAN VOWEL SEPARATOR',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x2028: 'LINE SEPARATOR',
  0x2029: 'PARAGRAPH SEPARATOR',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2060: 'WORD JOINER',
  0x2061: 'FUNCTION APPLICATION',
  0x2062: 'INVISIBLE TIMES',
  0x2063: 'INVISIBLE SEPARATOR',
  0x2064: 'INVISIBLE PLUS',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0x3000: 'IDEOGRAPHIC SPACE',
  0x3164: 'HANGUL FILLER',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE',
};

function nameOf(cp: number): string {
  const known = NAMES[cp];
  if (known) return known;
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return 'control character';
  if (cp >= 0xe0000 && cp <= 0xe007f) return 'TAG character';
  if ((cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef)) return 'VARIATION SELECTOR';
  if (/\p{Zs}/u.test(String.fromCodePoint(cp))) return 'a space other than the space';
  return 'invisible or unassigned character';
}

const codeOf = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

/** The escape shown in place of a hidden character: `\u202E`, or `\u{E0041}` beyond the BMP. */
export function escapeOf(ch: string): string {
  const cp = ch.codePointAt(0) as number;
  return cp > 0xffff ? `\\u{${cp.toString(16).toUpperCase()}}` : `\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** `text` with every hidden character escaped; `keep` characters (e.g. a tab on a terminal) stay. */
export function escapeHidden(text: string, keep = ''): string {
  return text.replace(HIDDEN, (c) => (keep.includes(c) ? c : escapeOf(c)));
}

/** Each distinct hidden character in `text`, in order of first appearance. */
export function hiddenIn(text: string): HiddenChar[] {
  const seen = new Map<number, HiddenChar>();
  for (const m of text.matchAll(HIDDEN)) {
    const cp = m[0].codePointAt(0) as number;
    if (!seen.has(cp)) seen.set(cp, { code: codeOf(cp), name: nameOf(cp) });
  }
  return [...seen.values()];
}

/** Text split into plain runs and hidden characters, for a view that marks each escape. */
export function hiddenParts(text: string): { readonly text: string; readonly hidden?: HiddenChar }[] {
  const out: { text: string; hidden?: HiddenChar }[] = [];
  let last = 0;
  for (const m of text.matchAll(HIDDEN)) {
    const at = m.index;
    if (at > last) out.push({ text: text.slice(last, at) });
    const cp = m[0].codePointAt(0) as number;
    out.push({ text: escapeOf(m[0]), hidden: { code: codeOf(cp), name: nameOf(cp) } });
    last = at + m[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last) });
  return out;
}

/** "U+202E RIGHT-TO-LEFT OVERRIDE, U+200B ZERO WIDTH SPACE" */
export function describeHidden(chars: readonly HiddenChar[]): string {
  return chars.map((c) => `${c.code} ${c.name}`).join(', ');
}
