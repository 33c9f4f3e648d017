// The Snowball English stemmer ("Porter2", Martin Porter's 2001 revision of his 1980 algorithm, with
// the R1 prefixes of Snowball 2), for lowercase ASCII words. The bm25 ranking stems with it rather
// than with the 1980 algorithm (stemmer.ts) because the revision stops conflations that tool
// catalogues meet all the time: "generate", "general" and "generic" were all "gener"; "news" was
// "new" (so "latest news" matched every "create a new issue"); "community" met "communication".
// On MetaTool it finds a little more (bench/search-eval.ts; src/core/search/README.md).
//
// It is written with character tests and slices, no regular expressions: it runs once per distinct
// token (processTerm remembers the result). Only [a-z] words of 3..30 letters are stemmed; anything
// else comes back as is. english-stem.test.ts holds every rule as a row, checked against Snowball's
// own implementation when the rows were written.

const A = 97;
const Z = 122;

function isVowel(c: string): boolean {
  return c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u' || c === 'y';
}

/** Whole words with a fixed stem (Snowball's exception1): irregular forms and words that only look inflected. */
const EXCEPTIONS: ReadonlyMap<string, string> = new Map([
  ['skis', 'ski'], ['skies', 'sky'], ['idly', 'idl'], ['gently', 'gentl'], ['ugly', 'ugli'], ['early', 'earli'],
  ['only', 'onli'], ['singly', 'singl'], ['sky', 'sky'], ['news', 'news'], ['howe', 'howe'], ['andes', 'andes'],
  ['atlas', 'atlas'], ['bias', 'bias'], ['cosmos', 'cosmos'],
]);

/** Words that end in -eed without a suffix: the part before it, as the whole rest of the word. */
const EED_WORDS: ReadonlySet<string> = new Set(['succ', 'proc', 'exc']);
/** Words that end in -ing without a suffix ("evening", "herring"): the part before it. */
const ING_WORDS: ReadonlySet<string> = new Set(['even', 'cann', 'inn', 'earr', 'herr', 'out']);

/** Prefixes whose end is where R1 starts (so "general" and "generate" keep apart). */
const R1_PREFIXES = ['gener', 'commun', 'arsen', 'past', 'univers', 'later', 'emerg', 'organ', 'inter'] as const;

const DOUBLES: ReadonlySet<string> = new Set(['bb', 'dd', 'ff', 'gg', 'mm', 'nn', 'pp', 'rr', 'tt']);
const LI_ENDING = 'cdeghkmnrt';

/** Step 2's suffixes, longest first, and their replacements ('ogi' and 'li' have conditions of their own). */
const STEP2: readonly (readonly [string, string])[] = [
  ['ization', 'ize'], ['ational', 'ate'], ['fulness', 'ful'], ['ousness', 'ous'], ['iveness', 'ive'],
  ['tional', 'tion'], ['biliti', 'ble'], ['lessli', 'less'], ['entli', 'ent'], ['ation', 'ate'], ['alism', 'al'],
  ['aliti', 'al'], ['ousli', 'ous'], ['iviti', 'ive'], ['fulli', 'ful'], ['ogist', 'og'], ['enci', 'ence'], ['anci', 'ance'],
  ['abli', 'able'], ['izer', 'ize'], ['ator', 'ate'], ['alli', 'al'], ['bli', 'ble'], ['ogi', 'og'],
  ['li', ''],
];
const STEP3: readonly (readonly [string, string])[] = [
  ['ational', 'ate'], ['tional', 'tion'], ['alize', 'al'], ['icate', 'ic'], ['iciti', 'ic'], ['ative', ''],
  ['ical', 'ic'], ['ness', ''], ['ful', ''],
];
const STEP4: readonly string[] = [
  'ement', 'ance', 'ence', 'able', 'ible', 'ment', 'ant', 'ent', 'ism', 'ate', 'iti', 'ous', 'ive', 'ize', 'ion', 'al', 'er', 'ic',
];

/**
 * A suffix list (ordered longest first) by its entries' last letter, so finding a word's longest
 * suffix tests only the few that end as the word does.
 */
function byLastLetter<T extends readonly [string, string] | string>(suffixes: readonly T[]): ReadonlyMap<string, readonly T[]> {
  const map = new Map<string, T[]>();
  for (const s of suffixes) {
    const text = typeof s === 'string' ? s : s[0];
    const last = text[text.length - 1] as string;
    const list = map.get(last);
    if (list) list.push(s);
    else map.set(last, [s]);
  }
  return map;
}

/** The longest suffix of `suffixes` (byLastLetter of a list ordered longest first) that `w` ends with. */
function longest<T extends readonly [string, string] | string>(w: string, suffixes: ReadonlyMap<string, readonly T[]>): T | undefined {
  const candidates = suffixes.get(w[w.length - 1] ?? '');
  if (candidates) for (const s of candidates) if (w.endsWith(typeof s === 'string' ? s : s[0])) return s;
  return undefined;
}

const STEP1B = byLastLetter(['eedly', 'ingly', 'edly', 'eed', 'ing', 'ed']);
const STEP2_BY_LAST = byLastLetter(STEP2);
const STEP3_BY_LAST = byLastLetter(STEP3);
const STEP4_BY_LAST = byLastLetter(STEP4);

/** Where R1 or R2 starts: after the first non-vowel that follows a vowel, from `from`. */
function regionAfter(w: string, from: number): number {
  for (let i = from + 1; i < w.length; i++) if (!isVowel(w[i] as string) && isVowel(w[i - 1] as string)) return i + 1;
  return w.length;
}

/**
 * Whether `w` (up to `end`) ends in a short syllable: non-vowel, vowel, non-vowel other than w, x
 * and Y; or, as the whole word, a vowel then a non-vowel; or "past".
 */
function endsShort(w: string, end = w.length): boolean {
  const c = w[end - 1];
  const v = w[end - 2];
  if (c !== undefined && v !== undefined && !isVowel(c) && isVowel(v)) {
    if (end === 2) return true;
    const b = w[end - 3] as string;
    if (!isVowel(b) && c !== 'w' && c !== 'x' && c !== 'Y') return true;
  }
  return end >= 4 && w.startsWith('past', end - 4);
}

/** Whether the letters of w before `end` hold a vowel. */
function hasVowel(w: string, end: number): boolean {
  for (let i = 0; i < end; i++) if (isVowel(w[i] as string)) return true;
  return false;
}

/** -eed, -ed, -ing (and -ly after them), with what the stem then needs ("hoping" gives "hope", "hopping" "hop"). */
function step1b(w: string, r1: number): string {
  const suffix = longest(w, STEP1B);
  if (suffix === undefined) return w;
  const stem = w.slice(0, -suffix.length);
  if (suffix === 'eed' || suffix === 'eedly') return stem.length >= r1 && !EED_WORDS.has(stem) ? `${stem}ee` : w;
  if (suffix === 'ing') {
    // "dying", "lying", "tying": a non-vowel then y, and nothing before them.
    if (stem.length === 2 && stem[1] === 'y' && !isVowel(stem[0] as string)) return `${stem[0] as string}ie`;
    if (ING_WORDS.has(stem)) return w;
  }
  if (!hasVowel(stem, stem.length)) return w;
  if (stem.endsWith('at') || stem.endsWith('bl') || stem.endsWith('iz')) return `${stem}e`;
  if (DOUBLES.has(stem.slice(-2))) {
    // "add", "egg", "err": a double after a lone a, e or o at the word's start stays.
    return stem.length === 3 && 'aeo'.includes(stem[0] as string) ? stem : stem.slice(0, -1);
  }
  return stem.length === r1 && endsShort(stem) ? `${stem}e` : stem;
}

function isAsciiWord(word: string): boolean {
  if (word.length < 3 || word.length > 30) return false;
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c < A || c > Z) return false;
  }
  return true;
}

export function englishStem(word: string): string {
  if (!isAsciiWord(word)) return word;
  const exception = EXCEPTIONS.get(word);
  if (exception !== undefined) return exception;

  // A y that starts the word or follows a vowel is a consonant: Y.
  let w = word;
  if (w.includes('y')) {
    let out = '';
    for (let i = 0; i < w.length; i++) {
      const ch = w[i] as string;
      out += ch === 'y' && (i === 0 || isVowel(out[i - 1] as string)) ? 'Y' : ch;
    }
    w = out;
  }

  const prefix = R1_PREFIXES.find((p) => w.startsWith(p));
  const r1 = prefix !== undefined ? prefix.length : regionAfter(w, 0);
  const r2 = regionAfter(w, r1);

  // Step 1a: plurals.
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ied') || w.endsWith('ies')) w = w.length > 4 ? w.slice(0, -2) : w.slice(0, -1);
  else if (w.endsWith('us') || w.endsWith('ss')) {
    // kept
  } else if (w.endsWith('s') && hasVowel(w, w.length - 2)) w = w.slice(0, -1);

  // Step 1b: -eed, -ed, -ing (and -ly after them).
  w = step1b(w, r1);

  // Step 1c: a final y after a non-vowel that is not the first letter becomes i.
  const last = w[w.length - 1];
  if ((last === 'y' || last === 'Y') && w.length > 2 && !isVowel(w[w.length - 2] as string)) w = `${w.slice(0, -1)}i`;

  // Step 2, in R1.
  const s2 = longest(w, STEP2_BY_LAST);
  if (s2 !== undefined && w.length - s2[0].length >= r1) {
    const stem = w.slice(0, -s2[0].length);
    if (s2[0] === 'ogi') {
      if (stem.endsWith('l')) w = `${stem}og`;
    } else if (s2[0] === 'li') {
      if (LI_ENDING.includes(stem[stem.length - 1] ?? ' ')) w = stem;
    } else w = stem + s2[1];
  }

  // Step 3, in R1 (ative in R2).
  const s3 = longest(w, STEP3_BY_LAST);
  if (s3 !== undefined && w.length - s3[0].length >= (s3[0] === 'ative' ? r2 : r1)) w = w.slice(0, -s3[0].length) + s3[1];

  // Step 4, in R2.
  const s4 = longest(w, STEP4_BY_LAST);
  if (s4 !== undefined && w.length - s4.length >= r2) {
    const stem = w.slice(0, -s4.length);
    if (s4 !== 'ion' || stem.endsWith('s') || stem.endsWith('t')) w = stem;
  }

  // Step 5: a final e in R2, or in R1 after no short syllable; ll in R2.
  if (w.endsWith('e')) {
    const at = w.length - 1;
    if (at >= r2 || (at >= r1 && !endsShort(w, at))) w = w.slice(0, -1);
  } else if (w.endsWith('ll') && w.length - 1 >= r2) w = w.slice(0, -1);

  return w.includes('Y') ? w.replaceAll('Y', 'y') : w;
}
