// Sending JP's rendered request to the user's real model (issue 26), from node only: the page never
// talks to a provider (its CSP stays), the bridge does, and `tool-workbench tasks --model` does the same
// from the command line. What is sent is the rendered body exactly, in the provider's envelope
// (src/core/providers/reply.ts: the model, Anthropic's max_tokens, `stream: false`); the base URL comes
// only from the environment (or the provider's default), never from the page, so a page cannot send a
// key anywhere else.
//
// Keys: from the environment of the terminal that started the process (the variable each provider's
// own SDK reads), or typed in the page and kept in this process's memory only. Every key is registered
// with the masker the moment it is known, so it is masked in every reply, log line, terminal line and
// recording; it is never written anywhere.
import { providerOf, PROVIDER_IDS } from '../core/providers/registry';
import type { ModelReply } from '../core/providers/reply';
import { errorMessageOf } from '../core/providers/reply';
import type { ProviderId } from '../core/providers/types';
import type { Masker } from './secrets';

export type KeySource = 'environment' | 'page' | 'none' | 'not needed';

export interface ProviderStatus {
  readonly provider: ProviderId;
  readonly words: string;
  /** The environment variable the key is read from (undefined: a local server that takes none). */
  readonly keyVariable?: string;
  readonly keySource: KeySource;
  readonly baseVariable: string;
  /** The base URL requests go to (from the environment, or the provider's default). */
  readonly base: string;
}

/** The keys and base URLs this process holds: the environment's, and keys typed in the page (memory only). */
export class ModelKeys {
  private readonly typed = new Map<ProviderId, string>();

  constructor(
    private readonly env: Readonly<Record<string, string | undefined>>,
    private readonly masker: Masker,
  ) {
    for (const id of PROVIDER_IDS) masker.register(this.envKey(id));
  }

  private envKey(provider: ProviderId): string | undefined {
    const v = providerOf(provider).reply.keyVariable;
    const value = v === undefined ? undefined : this.env[v];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  }

  /** A key typed in the page, for this process's life only ('' forgets it). */
  setTyped(provider: ProviderId, key: string): void {
    const k = key.trim();
    if (k === '') {
      this.typed.delete(provider);
      return;
    }
    this.masker.register(k);
    this.typed.set(provider, k);
  }

  key(provider: ProviderId): string | undefined {
    return this.typed.get(provider) ?? this.envKey(provider);
  }

  source(provider: ProviderId): KeySource {
    if (this.typed.has(provider)) return 'page';
    if (this.envKey(provider) !== undefined) return 'environment';
    return providerOf(provider).reply.keyRequired ? 'none' : 'not needed';
  }

  /** The base URL, from the environment or the default; OLLAMA_HOST may be a bare host:port, as Ollama takes it. */
  base(provider: ProviderId): string {
    const wire = providerOf(provider).reply;
    const raw = (this.env[wire.baseVariable] ?? '').trim() || wire.defaultBase;
    const withScheme = /^[a-z][a-z0-9+.-]*:\/\//iu.test(raw) ? raw : `http://${raw}`;
    return withScheme.replace(/\/+$/u, '');
  }

  status(): ProviderStatus[] {
    return PROVIDER_IDS.map((provider) => {
      const wire = providerOf(provider).reply;
      return { provider, words: providerOf(provider).words, ...(wire.keyVariable !== undefined ? { keyVariable: wire.keyVariable } : {}), keySource: this.source(provider), baseVariable: wire.baseVariable, base: this.base(provider) };
    });
  }
}

/** One exchange with a provider: what was sent (never a header, so never a key) and what came back. */
export interface SentExchange {
  readonly provider: ProviderId;
  readonly model: string;
  readonly request: { readonly path: string; readonly body: unknown };
  /** HTTP status; 0 when no reply came (the network, a cut-off reply). */
  readonly status: number;
  /** The reply's JSON, or its text (cut) when it is not JSON. */
  readonly response: unknown;
  readonly reply?: ModelReply;
  /** Why there is no reply, in words, masked. */
  readonly error?: string;
  readonly attempts: number;
}

export interface SendOptions {
  readonly fetch?: typeof fetch;
  /** Waits before a retry (tests pass one that does not wait). */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Retries of a 429 (default 2). */
  readonly retries?: number;
  /** The longest Retry-After honoured, in seconds (default 60); a longer one ends the attempt. */
  readonly maxRetryAfter?: number;
  /** Where "set the key" points the user. */
  readonly keyHint?: string;
}

const MAX_TEXT = 2000;
const defaultSleep = (ms: number): Promise<void> => new Promise((ok) => setTimeout(ok, ms));

/** Seconds of a Retry-After header (delta-seconds only; an HTTP date is read as unknown). */
function retryAfterSeconds(value: string | null): number | undefined {
  if (value === null) return undefined;
  const n = Number(value.trim());
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** Sends one rendered body to `provider`'s `model` and reads the reply with the provider's own parser. */
export async function sendToModel(provider: ProviderId, model: string, body: unknown, keys: ModelKeys, masker: Masker, options: SendOptions = {}): Promise<SentExchange> {
  const d = providerOf(provider);
  const wire = d.reply;
  const request = wire.request(model, body);
  const base = { provider, model, request };
  const fail = (status: number, response: unknown, error: string, attempts: number): SentExchange => ({ ...base, status, response, error: masker.mask(error), attempts });
  const key = keys.key(provider);
  if (wire.keyRequired && key === undefined) {
    return fail(0, null, `no ${d.words} key: ${options.keyHint ?? `set ${wire.keyVariable} in the terminal that runs tool-workbench, or type a key in the page`}`, 0);
  }
  const headers: Record<string, string> = { 'content-type': 'application/json', ...wire.headers };
  if (key !== undefined && wire.keyHeader !== 'none') {
    if (wire.keyHeader === 'x-api-key') headers['x-api-key'] = key;
    else if (wire.keyHeader === 'x-goog-api-key') headers['x-goog-api-key'] = key;
    else headers.authorization = `Bearer ${key}`;
  }
  const url = `${keys.base(provider)}${request.path}`;
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? defaultSleep;
  const retries = options.retries ?? 2;
  for (let attempt = 1; ; attempt++) {
    let res: Response;
    try {
      res = await doFetch(url, { method: 'POST', headers, body: JSON.stringify(request.body) });
    } catch (e) {
      return fail(0, null, `could not reach ${d.words} at ${keys.base(provider)}: ${causeOf(e)}`, attempt);
    }
    let text: string;
    try {
      text = await res.text();
    } catch (e) {
      return fail(res.status, null, `the connection closed before ${d.words}'s reply was complete (${causeOf(e)})`, attempt);
    }
    let json: unknown;
    let jsonError: string | undefined;
    try {
      json = JSON.parse(text) as unknown;
    } catch (e) {
      jsonError = e instanceof Error ? e.message : String(e);
    }
    const response = jsonError === undefined ? masker.maskDeep(json) : masker.cut(text, MAX_TEXT);
    const said = jsonError === undefined ? errorMessageOf(json) : undefined;
    const detail = said !== undefined ? `: ${said}` : '';
    if (res.status === 429) {
      const after = retryAfterSeconds(res.headers.get('retry-after'));
      if (attempt <= retries && (after === undefined || after <= (options.maxRetryAfter ?? 60))) {
        await sleep((after ?? 2 ** attempt) * 1000);
        continue;
      }
      return fail(429, response, `${d.words} is rate limiting (429)${after !== undefined ? `; it asks to retry after ${after} s` : ''}${detail}`, attempt);
    }
    if (res.status === 401 || res.status === 403) return fail(res.status, response, `${d.words} refused the key (${res.status})${detail}; check ${wire.keyVariable ?? 'the key'}`, attempt);
    if (res.status >= 500) return fail(res.status, response, `${d.words} failed (${res.status})${detail}`, attempt);
    if (res.status >= 400) return fail(res.status, response, `${d.words} refused the request (${res.status})${detail}`, attempt);
    if (jsonError !== undefined) return fail(res.status, response, `${d.words}'s reply is not JSON (cut off?): ${jsonError}`, attempt);
    const parsed = wire.parse(json);
    if (!parsed.ok) return fail(res.status, response, `${d.words}: ${parsed.error}`, attempt);
    return { ...base, status: res.status, response, reply: masker.maskDeep(parsed.reply), attempts: attempt };
  }
}

function causeOf(e: unknown): string {
  if (e instanceof Error) {
    const cause = (e as Error & { cause?: unknown }).cause;
    return cause instanceof Error ? `${e.message}: ${cause.message}` : e.message;
  }
  return String(e);
}
