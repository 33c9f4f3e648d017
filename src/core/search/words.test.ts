import { describe, expect, it } from 'vitest';
import { contentWords, wordsOf } from './words';

describe('words of a text', () => {
  it('split on anything but letters and digits; camelCase splits only in a word that starts lower-case', () => {
    expect(wordsOf('listIssues in GitHub, get_me_now; HTTPServer x2y Ünïcode élan 日本語 ok')).toEqual(['list', 'issues', 'in', 'github', 'get', 'me', 'now', 'httpserver', 'x2y', 'ünïcode', 'élan', '日本語', 'ok']);
    expect(wordsOf('getUserID fooBar2Baz')).toEqual(['get', 'user', 'id', 'foo', 'bar2', 'baz']);
    expect(wordsOf('')).toEqual([]);
  });

  it('content words drop filler and single letters, keep digits, each once', () => {
    expect(contentWords('Please list the issues of a repo, the 2 issues in v2')).toEqual(['list', 'issues', 'repo', '2', 'v2']);
  });
});
