// What a live server asks the user while one of its tools runs: MCP elicitation (a
// form built from the schema the server sends) and sampling (a reply the user
// writes in place of a model). The page's MCP client hands each question here;
// the panel that ran the call (the simulator's "Run on the server") shows it and
// answers, or declines; a question nobody answers is cancelled with the request.
// Through the bridge, a server's question reaches the page the same way: the
// bridge relays it on the call's own stream.
import type { CreateMessageResult, ElicitResult } from '@modelcontextprotocol/sdk/types.js';

export interface ElicitationAsk {
  readonly kind: 'elicitation';
  readonly message: string;
  /** The form's schema, as the server sent it (defaults included). */
  readonly requestedSchema: { readonly [key: string]: unknown };
}

export interface SamplingAsk {
  readonly kind: 'sampling';
  /** The conversation the server wants a reply to, as text. */
  readonly messages: readonly { readonly role: string; readonly text: string }[];
  readonly systemPrompt?: string;
  readonly maxTokens?: number;
}

export type AskBody = ElicitationAsk | SamplingAsk;

export type Answer = { readonly action: 'accept'; readonly content?: { readonly [key: string]: unknown }; readonly text?: string } | { readonly action: 'decline' | 'cancel' };

export interface Ask {
  readonly id: number;
  /** The endpoint of the session that asked. */
  readonly url: string;
  readonly body: AskBody;
}

interface Pending extends Ask {
  readonly resolve: (answer: Answer) => void;
}

let pending: readonly Pending[] = [];
let next = 1;
const listeners = new Set<() => void>();
const changed = () => {
  for (const l of listeners) l();
};

export function subscribeAsks(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Every question waiting for the user (a stable array between changes, for useSyncExternalStore). */
export function currentAsks(): readonly Ask[] {
  return pending;
}

/** Answers a question; the server gets the answer at once. */
export function answerAsk(id: number, answer: Answer): void {
  const p = pending.find((x) => x.id === id);
  if (!p) return;
  pending = pending.filter((x) => x !== p);
  changed();
  p.resolve(answer);
}

/** Asks the user; resolves to their answer, or to `cancel` when the request is aborted. */
export function askUser(url: string, body: AskBody, signal?: AbortSignal): Promise<Answer> {
  return new Promise((resolve) => {
    const ask: Pending = { id: next++, url, body, resolve };
    pending = [...pending, ask];
    changed();
    signal?.addEventListener('abort', () => answerAsk(ask.id, { action: 'cancel' }), { once: true });
  });
}

function textOf(content: unknown): string {
  const parts = Array.isArray(content) ? content : [content];
  return parts.map((p) => (typeof p === 'object' && p !== null && (p as { type?: unknown }).type === 'text' ? String((p as { text?: unknown }).text ?? '') : JSON.stringify(p))).join('\n');
}

/** The SDK's elicitation request as a question, and the user's answer as its result. */
export async function elicit(url: string, params: { message: string; requestedSchema?: unknown }, signal: AbortSignal): Promise<ElicitResult> {
  const schema = typeof params.requestedSchema === 'object' && params.requestedSchema !== null ? (params.requestedSchema as Record<string, unknown>) : { type: 'object', properties: {} };
  const a = await askUser(url, { kind: 'elicitation', message: params.message, requestedSchema: schema }, signal);
  return a.action === 'accept' ? { action: 'accept', content: (a.content ?? {}) as ElicitResult['content'] } : { action: a.action };
}

/** The SDK's sampling request as a question; the user's reply is the "model's" message. Declined: an error, as the spec says. */
export async function sample(url: string, params: { messages: readonly { role: string; content: unknown }[]; systemPrompt?: string; maxTokens?: number }, signal: AbortSignal): Promise<CreateMessageResult> {
  const a = await askUser(
    url,
    {
      kind: 'sampling',
      messages: params.messages.map((m) => ({ role: m.role, text: textOf(m.content) })),
      ...(params.systemPrompt !== undefined ? { systemPrompt: params.systemPrompt } : {}),
      ...(params.maxTokens !== undefined ? { maxTokens: params.maxTokens } : {}),
    },
    signal,
  );
  if (a.action !== 'accept') throw Object.assign(new Error('the user declined the sampling request'), { code: -1 });
  return { role: 'assistant', content: { type: 'text', text: a.text ?? '' }, model: 'the user, in the Tool Catalogue Workbench', stopReason: 'endTurn' };
}
