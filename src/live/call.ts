// Running one real tool call on a live server's session (the simulator's "Run on
// the server"), and the text a scenario records as the call's result.
import { liveClient } from './queries';

export interface RealResult {
  /** What the scenario records: the text content, or the JSON of whatever else came. */
  readonly text: string;
  /** The server said the call failed (`isError`). */
  readonly isError: boolean;
  /** The whole reply, for the result view. */
  readonly raw: unknown;
}

const MAX_RESULT_CHARS = 100_000;

/** The call's content as text: text parts joined; other parts (images, resources) as their JSON. */
export function resultText(result: { content?: unknown; structuredContent?: unknown }): string {
  const parts = Array.isArray(result.content) ? (result.content as unknown[]) : [];
  const texts = parts.map((p) => (typeof p === 'object' && p !== null && (p as { type?: unknown }).type === 'text' && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : JSON.stringify(p)));
  const text = texts.length > 0 ? texts.join('\n') : result.structuredContent !== undefined ? JSON.stringify(result.structuredContent) : '';
  return text.length > MAX_RESULT_CHARS ? `${text.slice(0, MAX_RESULT_CHARS)}… (${text.length} characters; cut)` : text;
}

/** A server's progress on a call (MCP notifications/progress). */
export interface CallProgress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

export async function callRealTool(url: string, tool: string, args: Record<string, unknown>, options: { signal?: AbortSignal; onProgress?: (p: CallProgress) => void } = {}): Promise<RealResult> {
  const client = liveClient(url);
  if (!client) throw new Error('the server has no open session: connect it (or start it) first');
  const { signal, onProgress } = options;
  // Progress keeps the call alive (a server reporting progress is working, however long).
  const result = await client.callTool({ name: tool, arguments: args }, undefined, {
    timeout: 120_000,
    ...(signal ? { signal } : {}),
    ...(onProgress ? { onprogress: onProgress, resetTimeoutOnProgress: true } : {}),
  });
  const r = result as { content?: unknown; structuredContent?: unknown; isError?: unknown };
  return { text: resultText(r), isError: r.isError === true, raw: result };
}
