import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashRange, TokenTable } from './token-table';

describe('TokenTable', () => {
  it('gives one value per distinct token text, however the text is reached', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: fc.constantFrom('a', 'b', 'Z', '1', 'é', '搜'), maxLength: 6 }), { maxLength: 1500 }), (tokens) => {
        const table = new TokenTable<{ token: string }>();
        const made: string[] = [];
        const create = (token: string): { token: string } => {
          made.push(token);
          return { token };
        };
        const byText = new Map<string, { token: string }>();
        tokens.forEach((token, i) => {
          // Reached by a whole string, by a range of a longer one, or by a range with its hash.
          const padded = `..${token}..`;
          const value =
            i % 3 === 0 ? table.get(token, create) : i % 3 === 1 ? table.range(padded, 2, 2 + token.length, create) : table.hashedRange(padded, 2, 2 + token.length, hashRange(token, 0, token.length), create);
          expect(value.token).toBe(token);
          const seen = byText.get(token);
          if (seen) expect(value).toBe(seen);
          else byText.set(token, value);
        });
        expect(made.sort()).toEqual([...byText.keys()].sort());
        expect(table.size).toBe(byText.size);
      }),
      { numRuns: 60 },
    );
  });
});
