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
  for (const token of text.split(/[^\p{L}\p{N}]+/u)) {
    if (token === '') continue;
    const parts = /^\p{Ll}/u.test(token) ? token.replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, '$1 $2').split(' ') : [token];
    for (const p of parts) out.push(p.toLowerCase());
  }
  return out;
}

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
