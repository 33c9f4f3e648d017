// Test-only: the prefix comparison and the cost model's segments as they were computed before the
// requests were compared piece by piece (providers/cache.ts, cost/segments.ts): over the joined texts,
// the tools array split back into its elements. The property tests hold the piecewise answers to these.
// Nothing in the shipping code imports this module.
import type { CacheComparison, CacheSection } from '../providers/cache';
import type { Segment } from '../providers/cache-model';
import { utf8ByteLength } from '../providers/cost';
import type { RenderedRequest } from '../providers/render';
import { splitJsonArray } from './segments';
import type { TokenMemo } from './segments';

export type JoinedRequest = Pick<RenderedRequest, 'toolsJson' | 'systemJson' | 'messagesJson' | 'bytes'>;

const SECTION_WORDS: Record<CacheSection, string> = { tools: 'tools array', system: 'system prompt', messages: 'messages' };

function firstDifferingIndex(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i > 0 && i < n) {
    const prev = a.charCodeAt(i - 1);
    if (prev >= 0xd800 && prev <= 0xdbff) i--;
  }
  return i;
}

function sectionAt(cur: JoinedRequest, index: number): CacheSection {
  const toolsEnd = cur.toolsJson.length;
  const systemEnd = toolsEnd + cur.systemJson.length;
  if (index < toolsEnd) return 'tools';
  if (index < systemEnd) return 'system';
  if (index < cur.bytes.length || cur.messagesJson.length > 0) return 'messages';
  if (cur.systemJson.length > 0) return 'system';
  if (cur.toolsJson.length > 0) return 'tools';
  return 'messages';
}

/** compareCache over the joined texts. */
export function joinedCompareCache(prev: JoinedRequest | undefined, cur: JoinedRequest): CacheComparison {
  if (prev === undefined) return { status: 'miss', reason: 'first request' };
  if (cur.bytes.startsWith(prev.bytes)) {
    return { status: 'hit', reason: `previous request is a prefix: ${utf8ByteLength(prev.bytes)} of ${utf8ByteLength(cur.bytes)} bytes reused` };
  }
  const index = firstDifferingIndex(prev.bytes, cur.bytes);
  const section = sectionAt(cur, index);
  const offset = utf8ByteLength(cur.bytes.slice(0, index));
  const reason =
    index >= cur.bytes.length
      ? `request is shorter than the previous one; it ends at byte ${offset} (${SECTION_WORDS[section]})`
      : `${SECTION_WORDS[section]} differ${section === 'messages' ? '' : 's'} from the previous request at byte ${offset}`;
  return { status: 'miss', firstDifference: { offset, section }, reason };
}

const MARKER = ',"cache_control":{"type":"ephemeral"}';

/** requestSegments over the joined texts: the tools array split back into its elements. */
export function joinedRequestSegments(rendered: Pick<RenderedRequest, 'toolsJson' | 'systemJson' | 'messagesJson'>, memo: TokenMemo): Segment[] {
  const segments: Segment[] = [];
  for (const text of splitJsonArray(rendered.toolsJson)) {
    const key = (text.endsWith(']') ? text.slice(0, -1) : text).replace(MARKER, '');
    segments.push({ key: `tool ${key}`, tokens: memo.count(text), section: 'tools' });
  }
  if (rendered.systemJson !== '') segments.push({ key: `system ${rendered.systemJson}`, tokens: memo.count(rendered.systemJson), section: 'system' });
  for (const line of rendered.messagesJson.split('\n')) {
    if (line === '') continue;
    segments.push({ key: `message ${line}`, tokens: memo.count(`${line}\n`), section: 'messages' });
  }
  return segments;
}
