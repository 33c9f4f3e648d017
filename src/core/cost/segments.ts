// A rendered request as the cache model's segments: each element of the tools array, the system
// prompt, each message line, with their token counts. Segment texts concatenate back to the request's
// bytes exactly; only the comparison key of Anthropic's last tool leaves out its cache_control marker.
import type { Segment } from '../providers/cache-model';
import type { TokenCounter } from '../providers/cost';
import type { RenderedRequest } from '../providers/render';

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

/** The request's segments, tools first, as the provider's prefix orders them. */
export function requestSegments(rendered: Pick<RenderedRequest, 'toolsJson' | 'systemJson' | 'messagesJson'>, memo: TokenMemo): Segment[] {
  const segments: Segment[] = [];
  for (const text of splitJsonArray(rendered.toolsJson)) {
    // The key drops the closing bracket and the breakpoint marker: neither says what a tool is.
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
