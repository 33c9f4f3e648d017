// A rendered request as the cache model's segments: each element of the tools array, the system
// prompt, each message line, with their token counts. Segment texts concatenate back to the request's
// bytes exactly; only the comparison key of Anthropic's last tool leaves out its cache_control marker.
import type { Segment } from '../providers/cache-model';
import type { TokenCounter } from '../providers/cost';
import type { RenderedRequest, ToolElement } from '../providers/render';

/** Token counts by text, so a definition sent in every request is counted once per run of the cost model. */
export class TokenMemo {
  private readonly counts = new Map<string, number>();
  constructor(readonly counter: TokenCounter) {}
  count(text: string): number {
    let n = this.counts.get(text);
    if (n === undefined) {
      n = this.counter.count(text);
      // Bounded: a long session of edits must not grow this without end.
      if (this.counts.size > 50_000) this.counts.clear();
      this.counts.set(text, n);
    }
    return n;
  }
}

/** The top-level elements of a compact JSON array, each with the `[` or `,` before it; the `]` stays with the last. */
export function splitJsonArray(json: string): string[] {
  if (json.length < 2 || json[0] !== '[') return json === '' ? [] : [json];
  const out: string[] = [];
  let depth = 0;
  let inString = false;
  let start = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 1) {
      out.push(json.slice(start, i));
      start = i;
    }
  }
  const last = json.slice(start);
  if (last !== '[]') out.push(last);
  return out;
}

const MARKER = ',"cache_control":{"type":"ephemeral"}';

/** The key drops the closing bracket and the breakpoint marker: neither says what a tool is. */
const keyOf = (text: string): string => `tool ${(text.endsWith(']') ? text.slice(0, -1) : text).replace(MARKER, '')}`;

/**
 * A tool element's segment text (with the `[` or `,` before it, and the `]` after the last) and key,
 * memoized on the element per place: requests sharing a tool share these strings too, so the cache
 * model compares their keys by identity and the token memo finds them by a hash computed once.
 */
function toolSegment(e: ToolElement, first: boolean, last: boolean): { readonly text: string; readonly key: string } {
  const place = (first ? 2 : 0) + (last ? 1 : 0);
  const kept = (e.segments ??= []);
  let seg = kept[place];
  if (!seg) {
    const text = `${first ? '[' : ','}${e.text}${last ? ']' : ''}`;
    kept[place] = seg = { text, key: keyOf(text) };
  }
  return seg;
}

/**
 * The request's segments, tools first, as the provider's prefix orders them: the pieces of
 * `splitJsonArray(toolsJson)`, made from the elements without joining or splitting the array.
 */
export function requestSegments(rendered: Pick<RenderedRequest, 'prefix'>, memo: TokenMemo): Segment[] {
  const segments: Segment[] = [];
  const { tools, system, messages } = rendered.prefix;
  const n = tools?.length ?? 0;
  for (let i = 0; i < n; i++) {
    const seg = toolSegment((tools as readonly ToolElement[])[i] as ToolElement, i === 0, i === n - 1);
    segments.push({ key: seg.key, tokens: memo.count(seg.text), section: 'tools' });
  }
  if (system !== '') segments.push({ key: `system ${system}`, tokens: memo.count(system), section: 'system' });
  for (const { text } of messages) {
    // One line per message (compact JSON has no raw newline).
    const line = text.slice(0, -1);
    if (line === '') continue;
    segments.push({ key: `message ${line}`, tokens: memo.count(text), section: 'messages' });
  }
  return segments;
}
