// The count words every panel shares: a count and its noun agree.
import { describe, expect, it } from 'vitest';
import { countOf } from './Measures';

describe('countOf', () => {
  it('says "1 tool" and "2 tools", with the count formatted', () => {
    expect(countOf(1, 'tool')).toBe('1 tool');
    expect(countOf(0, 'tool')).toBe('0 tools');
    expect(countOf(2, 'tool')).toBe('2 tools');
    expect(countOf(1024, 'tool')).toBe('1,024 tools');
  });
  it('takes an irregular plural', () => {
    expect(countOf(1, 'query', 'queries')).toBe('1 query');
    expect(countOf(3, 'query', 'queries')).toBe('3 queries');
  });
});
