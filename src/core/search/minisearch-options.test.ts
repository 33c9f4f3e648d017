import { describe, expect, it } from 'vitest';
import { MAX_TOKEN_LENGTH, processTerm, tokenize } from './minisearch-options';
import { porterStem } from './stemmer';

describe('tokenize', () => {
  const rows: [string, string[]][] = [
    ['list_workflow_runs', ['list', 'workflow', 'runs']],
    ['send-slack-message', ['send', 'slack', 'message']],
    ['getWeatherForecast', ['getWeatherForecast', 'get', 'Weather', 'Forecast']],
    ['HTTPServerError', ['HTTPServerError', 'HTTP', 'Server', 'Error']],
    ['parseJSON', ['parseJSON', 'parse', 'JSON']],
    ['base64 s3 mp3Player', ['base64', 'base', '64', 's3', 's', '3', 'mp3Player', 'mp', '3', 'Player']],
    ['Hello, world! (v2.0)', ['Hello', 'world', 'v2', 'v', '2', '0']],
    ['搜索关键词', ['搜索', '索关', '关键', '键词']],
    ['必', ['必']],
    ['MCP服务器 tools', ['MCP服务器', 'MCP', '服务', '务器', 'tools']],
    ['café naïve', ['café', 'naïve']],
    ['', []],
    ['  ...  ', []],
  ];
  for (const [text, tokens] of rows) {
    it(`${JSON.stringify(text)} → ${JSON.stringify(tokens)}`, () => {
      expect(tokenize(text)).toEqual(tokens);
    });
  }

  it(`cuts tokens at ${MAX_TOKEN_LENGTH} characters`, () => {
    expect(tokenize('x'.repeat(10_000))).toEqual(['x'.repeat(MAX_TOKEN_LENGTH)]);
  });
});

describe('processTerm', () => {
  const rows: [string, string | null][] = [
    ['The', null],
    ['and', null],
    ['x', null],
    ['7', '7'],
    ['Searching', 'search'],
    ['searches', 'search'],
    ['Repositories', 'repositori'],
    ['repository', 'repositori'],
    ['PDF', 'pdf'],
    ['now', 'now'],
    ['必', '必'],
  ];
  for (const [term, processed] of rows) {
    it(`${JSON.stringify(term)} → ${JSON.stringify(processed)}`, () => {
      expect(processTerm(term)).toBe(processed);
    });
  }
});

describe('porterStem', () => {
  const rows: [string, string][] = [
    ['caresses', 'caress'], ['ponies', 'poni'], ['cats', 'cat'], ['agreed', 'agre'], ['motoring', 'motor'],
    ['hopping', 'hop'], ['filing', 'file'], ['happy', 'happi'], ['relational', 'relat'], ['generalization', 'gener'],
    ['hopeful', 'hope'], ['goodness', 'good'], ['adjustment', 'adjust'], ['adoption', 'adopt'], ['controll', 'control'],
    ['yelling', 'yell'], ['sky', 'sky'],
  ];
  for (const [word, stem] of rows) {
    it(`${word} → ${stem}`, () => {
      expect(porterStem(word)).toBe(stem);
    });
  }
  it('leaves non-ASCII, very short and very long words alone', () => {
    expect(porterStem('größe')).toBe('größe');
    expect(porterStem('is')).toBe('is');
    expect(porterStem('s'.repeat(40))).toBe('s'.repeat(40));
  });
});
