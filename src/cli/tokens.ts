// The command line counts tokens with o200k_base, loaded up front (a shell process, not a page), so
// `check` can price requests synchronously, with the same counter the workbench uses.
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { TokenCounter } from '../core';

const options = { disallowedSpecial: new Set<string>() };

export const o200kCounter: TokenCounter = {
  id: 'o200k_base',
  count: (text) => (text === '' ? 0 : countTokens(text, options)),
};
