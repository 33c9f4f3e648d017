// Prefix-cache comparison: a request keeps the provider's cache when the previous request's rendered
// bytes (tools, system, messages) are a byte-prefix of its own (semantics §8 item 13).
import { utf8ByteLength } from './cost';
import type { RenderedRequest } from './render';

export type CacheSection = 'tools' | 'system' | 'messages';

export interface CacheComparison {
  readonly status: 'hit' | 'miss';
  /**
   * On a miss against a previous request: the first UTF-8 byte offset (into `cur.bytes`) where the
   * two requests differ, and the section of the current request it falls in.
   */
  readonly firstDifference?: { readonly offset: number; readonly section: CacheSection };
  readonly reason: string;
}

type Sectioned = Pick<RenderedRequest, 'toolsJson' | 'systemJson' | 'messagesJson' | 'bytes'>;

const SECTION_WORDS: Record<CacheSection, string> = {
  tools: 'tools array',
  system: 'system prompt',
  messages: 'messages',
};

/** Index (UTF-16) of the first differing code unit, or the shorter length when one is a prefix. */
/** Blocks compared natively before the walk: two requests share hundreds of kilobytes of prefix. */
const BLOCK = 4096;

function firstDifferingIndex(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i + BLOCK <= n && a.slice(i, i + BLOCK) === b.slice(i, i + BLOCK)) i += BLOCK;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  // Never split a surrogate pair: report the start of the character.
  if (i > 0 && i < n) {
    const prev = a.charCodeAt(i - 1);
    if (prev >= 0xd800 && prev <= 0xdbff) i--;
  }
  return i;
}

function sectionAt(cur: Sectioned, index: number): CacheSection {
  const toolsEnd = cur.toolsJson.length;
  const systemEnd = toolsEnd + cur.systemJson.length;
  if (index < toolsEnd) return 'tools';
  if (index < systemEnd) return 'system';
  if (index < cur.bytes.length || cur.messagesJson.length > 0) return 'messages';
  // cur ended before the difference (it is a strict prefix of prev): the last non-empty section.
  if (cur.systemJson.length > 0) return 'system';
  if (cur.toolsJson.length > 0) return 'tools';
  return 'messages';
}

export function compareCache(prev: Sectioned | undefined, cur: Sectioned): CacheComparison {
  if (prev === undefined) return { status: 'miss', reason: 'first request' };
  // Well-formed strings: a code-unit prefix is exactly a UTF-8 byte prefix.
  if (cur.bytes.startsWith(prev.bytes)) {
    const reused = utf8ByteLength(prev.bytes);
    return {
      status: 'hit',
      reason: `previous request is a prefix: ${reused} of ${utf8ByteLength(cur.bytes)} bytes reused`,
    };
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
