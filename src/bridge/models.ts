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
import { urlSecrets } from './secrets';

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
    for (const id of PROVIDER_IDS) {
      masker.register(this.envKey(id));
      // Credentials written in a base URL are secrets like a key: masked in every reply, line and error.
      const base = this.base(id);
      masker.registerAll(urlSecrets(base));
      const user = userOf(base);
      if (user !== undefined) masker.register(user);
    }
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
      return { provider, words: providerOf(provider).words, ...(wire.keyVariable !== undefined ? { keyVariable: wire.keyVariable } : {}), keySource: this.source(provider), baseVariable: wire.baseVariable, base: shownUrl(this.base(provider)) };
    });
  }
}

/** A URL part percent-decoded, or as written when its escapes are malformed. */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** A URL's user name (decoded), when it has one. */
function userOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.username === '' ? undefined : decoded(u.username);
  } catch {
    return undefined;
  }
}

const CREDENTIAL_PARAM = /key|token|secret|pass|auth|sig|credential/iu;

/**
 * A URL as it may be shown (the page's provider list, errors, the terminal): the user name and password
 * and each credential query parameter's value as `***`, whatever their length (the masker leaves values
 * under 4 characters alone), the rest as written.
 */
export function shownUrl(url: string): string {
  const m = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*@)?([^?#]*)(\?[^#]*)?(#.*)?$/iu.exec(url);
  if (!m) return url;
  const [, scheme = '', userinfo, rest = '', query, hash = ''] = m;
  const user = userinfo === undefined ? '' : userinfo.includes(':') ? '***:***@' : '***@';
  const q = query === undefined ? '' : `?${query.slice(1).split('&').map((pair) => {
    const at = pair.indexOf('=');
    return at > 0 && CREDENTIAL_PARAM.test(pair.slice(0, at)) ? `${pair.slice(0, at)}=***` : pair;
  }).join('&')}`;
  return `${scheme}${user}${rest}${q}${hash}`;
}

/**
 * The URL a request goes to: the request's path after the base URL's path, the base URL's query kept
 * after it (`https://proxy/v1?api-key=K` + `/responses` is `https://proxy/v1/responses?api-key=K`), and
 * no user name or password in it (fetch refuses them; they go as a header, `basic`).
 */
function requestUrl(base: string, path: string): { url: URL; basic?: string } | string {
  let u: URL;
  try {
    u = new URL(base);
  } catch {
    return `${shownUrl(base)} is not a URL`;
  }
  const basic = u.username !== '' || u.password !== '' ? Buffer.from(`${decoded(u.username)}:${decoded(u.password)}`).toString('base64') : undefined;
  u.username = '';
  u.password = '';
  u.pathname = `${u.pathname.replace(/\/+$/u, '')}${path}`;
  return { url: u, ...(basic !== undefined ? { basic } : {}) };
}

/**
 * The most of a provider's reply the bridge reads: 16 MiB. A model's reply is a few KB to a few hundred
 * (even 128K output tokens are well under 1 MB of JSON); the bridge holds a reply whole, parses it,
 * masks every string of it and records it, several times its size in memory, so a reply with no such
 * cap (a 400 MB one took the bridge to 1.3 GB) is no model's, and reading it stops at the cap.
 */
export const MAX_REPLY_BYTES = 16 * 1024 * 1024;
const CAP_REASON = 'a model\'s reply is far smaller; the bridge stops reading rather than hold a reply of any size in memory';

/** Same-origin 307/308 redirects followed before giving up. */
const MAX_REDIRECTS = 3;

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
  /** The cap on a reply's bytes (default MAX_REPLY_BYTES; tests pass a small one). */
  readonly maxReplyBytes?: number;
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
  const baseUrl = keys.base(provider);
  const target = requestUrl(baseUrl, request.path);
  if (typeof target === 'string') return fail(0, null, `${wire.baseVariable}: ${target}`, 0);
  if (target.basic !== undefined) {
    if (headers.authorization !== undefined) return fail(0, null, `${wire.baseVariable} carries a user name and password (${shownUrl(baseUrl)}), which would go in the Authorization header ${d.words}'s key takes: nothing sent; give the proxy its credentials another way`, 0);
    headers.authorization = `Basic ${target.basic}`;
  }
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? defaultSleep;
  const retries = options.retries ?? 2;
  const cap = options.maxReplyBytes ?? MAX_REPLY_BYTES;
  const payload = JSON.stringify(request.body);
  /**
   * The POST, following only a 307 or 308 within the base URL's origin (same method, same body): fetch
   * would follow any redirect and send the key headers along to another host (only Authorization is
   * dropped across origins), so a redirect elsewhere, or a 301/302/303 that would resend the POST as a
   * bodyless GET, ends the request with its target named.
   */
  const post = async (signal: AbortSignal): Promise<Response | string> => {
    let url = target.url;
    for (let hop = 0; ; hop++) {
      const res = await doFetch(url, { method: 'POST', headers, body: payload, redirect: 'manual', signal });
      const location = res.headers.get('location');
      if (res.status < 300 || res.status > 399 || location === null) return res;
      await res.body?.cancel().catch(() => undefined);
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        return `${d.words} redirected the request (${res.status}) to ${JSON.stringify(location)}, which is not a URL`;
      }
      const to = shownUrl(next.href);
      if (next.origin !== target.url.origin) return `${d.words} redirected the request (${res.status}) to ${to}: another origin than ${wire.baseVariable}'s (${target.url.origin}); the bridge sends ${key !== undefined ? 'the key' : 'a request'} only to that origin, and sent nothing there (set ${wire.baseVariable} to the new address if it is right)`;
      if (res.status !== 307 && res.status !== 308) return `${d.words} redirected the request (${res.status}) to ${to}: a ${res.status} would resend the POST as a GET without its body, so the bridge does not follow it (set ${wire.baseVariable} to the new address if it is right)`;
      if (hop >= MAX_REDIRECTS) return `${d.words} redirected the request more than ${MAX_REDIRECTS} times (last to ${to})`;
      url = next;
    }
  };
  const shownBase = shownUrl(baseUrl);
  for (let attempt = 1; ; attempt++) {
    let res: Response | string;
    // Aborted when a reply passes the cap: the connection is dropped, not left in the pool half read.
    const abort = new AbortController();
    try {
      res = await post(abort.signal);
    } catch (e) {
      return fail(0, null, `could not reach ${d.words} at ${shownBase}: ${causeOf(e)}`, attempt);
    }
    if (typeof res === 'string') return fail(0, null, res, attempt);
    let text: string;
    try {
      const read = await readCapped(res, cap);
      if (read === undefined) abort.abort();
      if (read === undefined) return fail(res.status, null, `${d.words}'s reply is over ${cap} bytes, the cap (${CAP_REASON}); nothing of it kept`, attempt);
      text = read;
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
    if (res.status >= 300) return fail(res.status, response, `${d.words} answered ${res.status} with no Location to follow`, attempt);
    if (jsonError !== undefined) return fail(res.status, response, `${d.words}'s reply is not JSON (cut off?): ${jsonError}`, attempt);
    const parsed = wire.parse(json);
    if (!parsed.ok) return fail(res.status, response, `${d.words}: ${parsed.error}`, attempt);
    return { ...base, status: res.status, response, reply: masker.maskDeep(parsed.reply), attempts: attempt };
  }
}

/** A reply's body as text, or undefined once it is over `cap` bytes (by its Content-Length, or as it streams). */
async function readCapped(res: Response, cap: number): Promise<string | undefined> {
  const length = Number(res.headers.get('content-length') ?? '');
  // Not cancelled here: the caller aborts the request, which drops the connection itself.
  if (Number.isFinite(length) && length > cap) return undefined;
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > cap) return undefined;
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function causeOf(e: unknown): string {
  if (e instanceof Error) {
    const cause = (e as Error & { cause?: unknown }).cause;
    return cause instanceof Error ? `${e.message}: ${cause.message}` : e.message;
  }
  return String(e);
}
