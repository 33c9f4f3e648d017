// What the two local runtimes (Ollama, llama.cpp) share: a KV cache kept by the runtime, not money.
import type { CacheRules, Citation } from './cache-rules';
import { READ_ON } from './descriptor';

export const LOCAL_CACHE: Pick<CacheRules, 'kind' | 'prefixOrder' | 'breakpointsAfter' | 'refreshOnHit' | 'writeFactor' | 'readFactor' | 'money'> = {
  kind: 'local-kv',
  prefixOrder: ['tools', 'system', 'messages'],
  breakpointsAfter: [],
  refreshOnHit: true,
  writeFactor: 1,
  readFactor: 0,
  money: false,
};

export const RFD_LOCAL: Citation = {
  rule: 'the chat template puts tool definitions ahead of the messages, so a change to the offered set invalidates the KV prefix (inferred, not measured)',
  document: 'RFD 108, "Provider behaviour"',
  url: '../shared/rfd/108-discoverable-tools.txt',
  read: READ_ON,
};

