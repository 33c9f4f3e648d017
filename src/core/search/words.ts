// Plain words of a text, for the rankers and reports that reason about words rather than
// index terms (the regex ranker's query patterns, findability's shared and missing words).
// Deliberately simpler than the bm25 tokenizer: no stemming, so a reader recognises every word.

/** English filler, plus request filler a model leaves out of a search ("please", "want"). */
export const FILLER_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again all also an and any are as at be been being both but by can could did do does ' +
    'each either etc for from further had has have having here how i if in into is it its itself just me more most ' +
    'my no nor not of off on once only or other our out over own same should so some such than that the their them ' +
    'then there these they this those through to too under until up very via was we were what when where which ' +
    'while who whom why will with would you your ' +
    'please want need help give tell show using use used may must given specified provided'
  ).split(' '),
);

/**
 * Lower-case words: runs of letters and digits; snake_case split, and camelCase within a word that
 * starts lower-case (`listIssues`), not a capitalised brand (`GitHub` stays one word).
 */
export function wordsOf(text: string): string[] {
  const out: string[] = [];
  let word = '';
  let camel = false;
  let prevLowerOrDigit = false;
  const flush = () => {
    if (word !== '') out.push(word);
    word = '';
  };
  // One pass over the characters: ASCII by code, anything else by Unicode class.
  for (const ch of text) {
    const c = ch.charCodeAt(0);
    const lower = c < 128 ? (c >= 97 && c <= 122) : LOWER.test(ch);
    const upper = c < 128 ? (c >= 65 && c <= 90) : UPPER.test(ch);
    const digit = c < 128 ? (c >= 48 && c <= 57) : DIGIT.test(ch);
    if (!lower && !upper && !digit && !(c >= 128 && LETTER.test(ch))) {
      flush();
      prevLowerOrDigit = false;
      continue;
    }
    if (word === '') camel = lower;
    else if (camel && upper && prevLowerOrDigit) flush();
    word += ch.toLowerCase();
    prevLowerOrDigit = lower || digit;
  }
  flush();
  return out;
}

const LOWER = /\p{Ll}/u;
const UPPER = /\p{Lu}/u;
const DIGIT = /\p{N}/u;
const LETTER = /\p{L}/u;

/** The words that carry meaning: two letters or more (one digit is enough), not filler, each once, in order. */
export function contentWords(text: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const w of wordsOf(text)) {
    if ((w.length < 2 && !/\p{N}/u.test(w)) || FILLER_WORDS.has(w) || seen.has(w)) continue;
    seen.add(w);
    out.push(w);
  }
  return out;
}
