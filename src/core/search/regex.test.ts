import { describe, expect, it } from 'vitest';
import { patternFromWords, regex, regexPatternError, REGEX_MAX_PATTERN, topLevelAlternatives } from './regex';
import { searchTools } from './contract';
import { all, doc } from './test-docs';
import type { SearchDocument } from './types';

const tools: SearchDocument[] = [
  doc('send_message', 0, { summary: 'Post a message to a Slack channel.', parameterNames: ['channel'] }),
  doc('get_weather', 1, { summary: 'Current conditions for a city.', parameterNames: ['city'] }),
  doc('get_customer_data', 2, { summary: 'A customer record.', parameterNames: ['customer_id'] }),
  doc('get_order_data', 3, { summary: 'An order.', parameterNames: ['order_id'], parameterDescriptions: ['The weather at delivery is ignored.'] }),
  doc('weather_forecast', 4, { summary: 'Forecast for the next days.' }),
];

const names = (pattern: string, filter: (n: string) => boolean = all) => regex.build(tools).search(pattern, { filter }).map((h) => h.name);

describe('regex ranker: the documented pattern examples', () => {
  it('"weather" finds names and descriptions that contain it; name matches first, then config order', () => {
    expect(names('weather')).toEqual(['get_weather', 'weather_forecast', 'get_order_data']);
  });

  it('"get_.*_data" is a wildcard over names', () => {
    expect(names('get_.*_data')).toEqual(['get_customer_data', 'get_order_data']);
  });

  it('is case-insensitive, and a leading (?i) is accepted', () => {
    expect(names('SLACK')).toEqual(['send_message']);
    expect(names('(?i)slack')).toEqual(['send_message']);
  });

  it('matches parameter names and parameter descriptions', () => {
    const hits = regex.build(tools).search('customer_id', { filter: all });
    expect(hits.map((h) => [h.name, h.fields])).toEqual([['get_customer_data', ['parameter_name']]]);
    expect(regex.build(tools).search('delivery', { filter: all })[0]?.fields).toEqual(['parameter_description']);
  });

  it('ranks by how many top-level alternatives match, then the best field', () => {
    // weather_forecast matches both alternatives; get_weather only one (by name); get_order_data one (parameter description).
    expect(names('weather|forecast')).toEqual(['weather_forecast', 'get_weather', 'get_order_data']);
  });

  it('an anchor applies to each field, as re.search on each text would', () => {
    expect(names('^get_')).toEqual(['get_weather', 'get_customer_data', 'get_order_data']);
    expect(names('^current')).toEqual(['get_weather']);
  });

  it('respects the filter', () => {
    expect(names('weather', (n) => n !== 'get_weather')).toEqual(['weather_forecast', 'get_order_data']);
  });
});

describe('regex ranker: refused patterns give no hits and a reason', () => {
  it('longer than 200 characters', () => {
    const long = 'a'.repeat(REGEX_MAX_PATTERN + 1);
    expect(names(long)).toEqual([]);
    expect(regexPatternError(long)).toBe(`pattern is too long: ${REGEX_MAX_PATTERN + 1} characters (at most 200)`);
    expect(regexPatternError('a'.repeat(REGEX_MAX_PATTERN))).toBeUndefined();
  });

  it('syntax errors and what RE2 lacks (lookarounds, backreferences)', () => {
    expect(regexPatternError('(weather')).toMatch(/^invalid pattern: .*missing closing \)/u);
    expect(regexPatternError('(?=weather)')).toMatch(/^invalid pattern:/u);
    expect(regexPatternError('(a)\\1')).toMatch(/^invalid pattern:/u);
    expect(names('(weather')).toEqual([]);
  });

  it('a catastrophic pattern for a backtracking engine answers at once', () => {
    const big = [doc('x', 0, { description: `${'a'.repeat(20_000)}b` })];
    expect(regex.build(big).search('(a+)+$', { filter: all })).toEqual([]);
    expect(regex.build(big).search('(a|aa)*b', { filter: all }).map((h) => h.name)).toEqual(['x']);
  });

  it('through the search_tools contract: limit and total apply as to any ranker', () => {
    const r = searchTools(regex.build(tools), { query: 'weather', limit: 1 }, { filter: all, reportMatchCount: true });
    expect(r).toMatchObject({ ok: true, total: 3, limit: 1 });
    expect(r.ok && r.hits.map((h) => h.name)).toEqual(['get_weather']);
  });
});

describe('regex helpers', () => {
  it('splits top-level alternatives only', () => {
    expect(topLevelAlternatives('a|(b|c)|[|]|d\\|e')).toEqual(['a', '(b|c)', '[|]', 'd\\|e']);
  });

  it('patternFromWords: distinctive words as alternatives, within 200 characters', () => {
    expect(patternFromWords('List the open issues of a repo')).toBe('list|open|issues|repo');
    const p = patternFromWords(Array.from({ length: 80 }, (_, i) => `word${i}`).join(' '));
    expect(p.length).toBeLessThanOrEqual(REGEX_MAX_PATTERN);
    expect(p.endsWith('|')).toBe(false);
    expect(regexPatternError(p)).toBeUndefined();
  });
});
