// The real token counter: gpt-tokenizer's o200k_base encoding, loaded lazily (a dynamic import), so
// a shell pays for the BPE ranks only when it asks for token counts.
import type { TokenCounter } from './cost';

export const O200K_BASE = 'o200k_base';

let pending: Promise<TokenCounter> | undefined;
let loaded: TokenCounter | undefined;

/** The o200k_base counter if it has finished loading, without waiting for it (hosts that answer synchronously). */
export function loadedTokenCounter(): TokenCounter | undefined {
  return loaded;
}

/**
 * Resolves to an o200k_base counter. Special-token strings such as `<|endoftext|>` are counted as
 * ordinary text (a tool description is data, not a control sequence). The module is loaded once.
 */
export function createTokenCounter(): Promise<TokenCounter> {
  if (pending === undefined) {
    const loading = import('gpt-tokenizer/encoding/o200k_base').then((mod) => {
      const options = { disallowedSpecial: new Set<string>() };
      const counter: TokenCounter = {
        id: O200K_BASE,
        count: (text) => (text === '' ? 0 : mod.countTokens(text, options)),
      };
      loaded = counter;
      return counter;
    });
    // A failed load is not cached: the next call tries again.
    loading.catch(() => {
      if (pending === loading) pending = undefined;
    });
    pending = loading;
  }
  return pending;
}
