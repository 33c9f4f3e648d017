import { describe, expect, it } from 'vitest';
import { describeToolsDefinition } from '../catalogue/builtins';
import { definitionTokens } from './cost';
import { createTokenCounter } from './tokens';

describe('createTokenCounter (o200k_base)', () => {
  it('counts a positive number of tokens, more for longer text', async () => {
    const counter = await createTokenCounter();
    expect(counter.id).toBe('o200k_base');
    const short = counter.count('Search the available tools.');
    const long = counter.count('Search the available tools by keyword and load the matches into context.');
    expect(short).toBeGreaterThan(0);
    expect(long).toBeGreaterThan(short);
    expect(counter.count('')).toBe(0);
  });

  it('loads once and counts special-token text as plain text', async () => {
    const [a, b] = await Promise.all([createTokenCounter(), createTokenCounter()]);
    expect(a).toBe(b);
    expect(a.count('<|endoftext|>')).toBeGreaterThan(1);
  });

  it('gives describe_tools a token cost below its byte cost', async () => {
    const counter = await createTokenCounter();
    const tokens = definitionTokens(describeToolsDefinition, counter);
    expect(tokens).toBeGreaterThan(0);
    expect(tokens).toBeLessThan(262);
  });
});
