// Martin Porter's 1980 stemming algorithm, for lowercase ASCII words. The auto model's
// reading of words (core/model/words.ts) stems with it; the bm25 ranking stems with
// its 2001 revision, english-stem.ts.
// Only [a-z] words of 3..30 letters are stemmed; anything else comes back as is,
// which also bounds the regular expressions' work on hostile input.

const c = '[^aeiou]';
const v = '[aeiouy]';
const C = `${c}[^aeiouy]*`;
const V = `${v}[aeiou]*`;
const MGR0 = new RegExp(`^(${C})?${V}${C}`); // measure > 0
const MEQ1 = new RegExp(`^(${C})?${V}${C}(${V})?$`); // measure = 1
const MGR1 = new RegExp(`^(${C})?${V}${C}${V}${C}`); // measure > 1
const S_V = new RegExp(`^(${C})?${v}`); // the stem has a vowel
const CVC = new RegExp(`^${C}${v}[^aeiouwxy]$`);

const STEP2 = new Map<string, string>([
  ['ational', 'ate'], ['tional', 'tion'], ['enci', 'ence'], ['anci', 'ance'], ['izer', 'ize'], ['bli', 'ble'],
  ['alli', 'al'], ['entli', 'ent'], ['eli', 'e'], ['ousli', 'ous'], ['ization', 'ize'], ['ation', 'ate'],
  ['ator', 'ate'], ['alism', 'al'], ['iveness', 'ive'], ['fulness', 'ful'], ['ousness', 'ous'], ['aliti', 'al'],
  ['iviti', 'ive'], ['biliti', 'ble'], ['logi', 'log'],
]);
const STEP3 = new Map<string, string>([
  ['icate', 'ic'], ['ative', ''], ['alize', 'al'], ['iciti', 'ic'], ['ical', 'ic'], ['ful', ''], ['ness', ''],
]);

const STEP1A_SSES = /^(.+?)(ss|i)es$/;
const STEP1A_S = /^(.+?)([^s])s$/;
const STEP1B_EED = /^(.+?)eed$/;
const STEP1B_ED = /^(.+?)(ed|ing)$/;
const STEP1C = /^(.+?)y$/;
const STEP2_RE = /^(.+?)(ational|tional|enci|anci|izer|bli|alli|entli|eli|ousli|ization|ation|ator|alism|iveness|fulness|ousness|aliti|iviti|biliti|logi)$/;
const STEP3_RE = /^(.+?)(icate|ative|alize|iciti|ical|ful|ness)$/;
const STEP4_RE = /^(.+?)(al|ance|ence|er|ic|able|ible|ant|ement|ment|ent|ou|ism|ate|iti|ous|ive|ize)$/;
const STEP4_ION = /^(.+?)(s|t)(ion)$/;
const STEP5_E = /^(.+?)e$/;
const WORD = /^[a-z]{3,30}$/;

export function porterStem(word: string): string {
  if (!WORD.test(word)) return word;
  const initialY = word.startsWith('y');
  let w = initialY ? `Y${word.slice(1)}` : word;
  let m: RegExpExecArray | null;

  // Step 1a
  if ((m = STEP1A_SSES.exec(w))) w = `${m[1]}${m[2]}`;
  else if ((m = STEP1A_S.exec(w))) w = `${m[1]}${m[2]}`;

  // Step 1b
  if ((m = STEP1B_EED.exec(w))) {
    if (MGR0.test(m[1] ?? '')) w = w.slice(0, -1);
  } else if ((m = STEP1B_ED.exec(w))) {
    const stem = m[1] ?? '';
    if (S_V.test(stem)) {
      w = stem;
      if (/(at|bl|iz)$/.test(w)) w += 'e';
      else if (/([^aeiouylsz])\1$/.test(w)) w = w.slice(0, -1);
      else if (CVC.test(w)) w += 'e';
    }
  }

  // Step 1c
  if ((m = STEP1C.exec(w))) {
    const stem = m[1] ?? '';
    if (S_V.test(stem)) w = `${stem}i`;
  }

  // Step 2
  if ((m = STEP2_RE.exec(w))) {
    const stem = m[1] ?? '';
    if (MGR0.test(stem)) w = stem + (STEP2.get(m[2] ?? '') ?? '');
  }

  // Step 3
  if ((m = STEP3_RE.exec(w))) {
    const stem = m[1] ?? '';
    if (MGR0.test(stem)) w = stem + (STEP3.get(m[2] ?? '') ?? '');
  }

  // Step 4
  if ((m = STEP4_RE.exec(w))) {
    const stem = m[1] ?? '';
    if (MGR1.test(stem)) w = stem;
  } else if ((m = STEP4_ION.exec(w))) {
    const stem = `${m[1] ?? ''}${m[2] ?? ''}`;
    if (MGR1.test(stem)) w = stem;
  }

  // Step 5
  if ((m = STEP5_E.exec(w))) {
    const stem = m[1] ?? '';
    if (MGR1.test(stem) || (MEQ1.test(stem) && !CVC.test(stem))) w = stem;
  }
  if (/ll$/.test(w) && MGR1.test(w)) w = w.slice(0, -1);

  return initialY ? `y${w.slice(1)}` : w;
}
