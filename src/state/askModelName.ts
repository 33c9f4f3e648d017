// The model name typed for "Ask the model", per provider, kept in this browser's localStorage so it
// survives a reload, as the price table's choices do (prices.ts). Only the name: a key typed beside it
// goes to the bridge and is never kept by the page.
export const ASK_MODEL_KEY = 'tool-workbench:ask-model:v1';

function read(): Record<string, string> {
  try {
    const v = JSON.parse(globalThis.localStorage?.getItem(ASK_MODEL_KEY) ?? '{}') as unknown;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return {};
    return Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {};
  }
}

/** The name last typed for this provider ('' when none). */
export function savedModelName(provider: string): string {
  return read()[provider] ?? '';
}

export function saveModelName(provider: string, name: string): void {
  const names = read();
  if (name === '') delete names[provider];
  else names[provider] = name;
  try {
    globalThis.localStorage?.setItem(ASK_MODEL_KEY, JSON.stringify(names));
  } catch {
    // Storage full or denied: the name still holds until the page closes.
  }
}
