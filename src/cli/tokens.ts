// The command line counts tokens with o200k_base, loaded synchronously on the first count (a shell
// process, not a page), so `check` can price requests synchronously with the same counter the
// workbench uses. Loading its tables costs about 170 ms, so a command that never counts (--version,
// --help, eval, findability, import) never loads them.
import { createRequire } from 'node:module';
import type { TokenCounter } from '../core';

type CountTokens = (text: string, options: object) => number;

const options = { disallowedSpecial: new Set<string>() };
let countTokens: CountTokens | undefined;

function counter(): CountTokens {
  countTokens ??= (createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as { countTokens: CountTokens }).countTokens;
  return countTokens;
}

export const o200kCounter: TokenCounter = {
  id: 'o200k_base',
  count: (text) => (text === '' ? 0 : counter()(text, options)),
};
