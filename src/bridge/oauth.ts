// OAuth for HTTP MCP servers that want authorization (MCP 2025-11-25, basic/authorization): the SDK's
// client auth does the protocol (protected resource metadata, authorization server metadata, dynamic
// client registration, authorization code with PKCE); this module holds what it needs between the
// steps, in this process's memory only, and takes the answer on loopback.
//
// - `BridgeOAuthClient`: one server's OAuthClientProvider. Tokens, the client's secret and the PKCE
//   verifier are registered with the bridge's one masker the moment they are known, so no log,
//   reply, terminal line or file carries them. The authorization URL is handed to the upstream,
//   which shows it to the page: the page asks the user, and opens it in the user's browser only
//   when they agree (nothing reaches the authorization page without that).
// - `OAuthStates`: the `state` values the bridge issued, each spent once, expiring. The
//   authorization server sends the browser back to `GET /bridge/oauth/callback?code&state`: a
//   redirect, which carries no bridge token, so the state is that request's credential. An
//   unknown, spent or expired state is refused, whoever asks.
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Masker } from './secrets';
import { newSecret, OAUTH_CALLBACK_PATH, sameSecret } from './security';

export { OAUTH_CALLBACK_PATH };

/** What the authorization server sent the browser back with. */
export interface OAuthAnswer {
  readonly code?: string;
  /** RFC 6749 4.1.2.1: the user refused, or the server could not authorize. */
  readonly error?: string;
  readonly errorDescription?: string;
}

/** What the callback page says, once the upstream took the answer. */
export interface CallbackOutcome {
  readonly status: number;
  readonly title: string;
  readonly text: string;
}

/** Takes one answer: the upstream that issued the state finishes its authorization with it. */
export type AnswerReceiver = (answer: OAuthAnswer) => Promise<CallbackOutcome>;

interface Issued {
  readonly state: string;
  /** What issued it (an upstream): its unspent states are forgotten when it stops. */
  readonly owner: object;
  readonly server: string;
  readonly receive: AnswerReceiver;
  readonly until: number;
}

/** The states the bridge issued and not yet spent: one-shot, and each good for `ttlMs`. */
export class OAuthStates {
  private issued: Issued[] = [];

  constructor(
    /** How long an authorization may take, from the request to the callback. */
    readonly ttlMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  /** A new state for `server`'s authorization request; its answer goes to `receive`. */
  issue(owner: object, server: string, receive: AnswerReceiver): string {
    const state = newSecret();
    this.issued.push({ state, owner, server, receive, until: this.clock() + this.ttlMs });
    return state;
  }

  /** Spends a state: what issued it, or undefined when the bridge never issued it, or it was spent or expired. */
  take(state: string): Issued | undefined {
    this.expire();
    let found: Issued | undefined;
    // Every state compared, in constant time each (as the session tokens): it is a credential.
    for (const i of this.issued) if (sameSecret(state, i.state)) found = i;
    if (found) this.issued = this.issued.filter((i) => i !== found);
    return found;
  }

  /** Forgets an owner's unspent states (it stopped, or started again). */
  forget(owner: object): void {
    this.issued = this.issued.filter((i) => i.owner !== owner);
  }

  expire(): void {
    const now = this.clock();
    this.issued = this.issued.filter((i) => i.until > now);
  }

  get size(): number {
    return this.issued.length;
  }

  /**
   * The callback's query, answered: the issuing upstream's outcome, or a refusal (403) for a state
   * the bridge did not issue, spent or let expire. Shared by the route and the tests' follower.
   */
  async answer(query: URLSearchParams): Promise<CallbackOutcome> {
    const state = query.get('state') ?? '';
    const issued = state === '' ? undefined : this.take(state);
    if (!issued) {
      return {
        status: 403,
        title: 'Not an authorization the bridge asked for',
        text: 'This answer carries no state the bridge issued, or one already used or expired: nothing was done. Start the authorization again from the workbench.',
      };
    }
    const code = query.get('code') ?? undefined;
    const error = query.get('error') ?? undefined;
    const errorDescription = query.get('error_description') ?? undefined;
    if (code === undefined && error === undefined) return { status: 400, title: 'No authorization code', text: `The authorization server sent neither a code nor an error for ${issued.server}; its state is now spent.` };
    return issued.receive({ ...(code !== undefined ? { code } : {}), ...(error !== undefined ? { error } : {}), ...(errorDescription !== undefined ? { errorDescription } : {}) });
  }
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/gu, (c) => `&#${c.charCodeAt(0)};`);

/** The plain page the browser shows after the redirect: no script, nothing loaded, masked. */
export function callbackPage(outcome: CallbackOutcome, masker: Masker): string {
  const title = escapeHtml(masker.mask(outcome.title));
  const text = escapeHtml(masker.mask(outcome.text));
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p><p>You may close this tab and go back to the workbench.</p></body></html>\n`;
}

/** Client credentials given for a server whose authorization server does not register clients (pre-registration). */
export interface PreRegisteredClient {
  readonly clientId: string;
  readonly clientSecret?: string;
}

export interface OAuthClientOptions {
  /** The bridge's callback, `http://127.0.0.1:PORT/bridge/oauth/callback` (read when an authorization starts: the port is known by then). */
  readonly redirectUrl: () => string;
  readonly masker: Masker;
  /** Issues the state of the next authorization request. */
  readonly issueState: () => string;
  /** The authorization page to open (once the user agrees). */
  readonly onAuthorizationUrl: (url: URL) => void;
  readonly preRegistered?: PreRegisteredClient;
}

/** What the bridge says of itself when it registers (RFC 7591). */
export const CLIENT_NAME = 'Tool Catalogue Workbench bridge';

/**
 * One server's OAuth client state, in memory only (a restart of the bridge asks again). Every secret
 * it receives is registered with the masker before the SDK uses it.
 */
export class BridgeOAuthClient implements OAuthClientProvider {
  private information: OAuthClientInformationMixed | undefined;
  private saved: OAuthTokens | undefined;
  private verifier: string | undefined;
  private discovery: OAuthDiscoveryState | undefined;

  constructor(private readonly options: OAuthClientOptions) {
    const pre = options.preRegistered;
    if (pre) {
      options.masker.registerAll(pre.clientSecret !== undefined ? [pre.clientSecret] : []);
      this.information = { client_id: pre.clientId, ...(pre.clientSecret !== undefined ? { client_secret: pre.clientSecret } : {}) };
    }
  }

  get redirectUrl(): string {
    return this.options.redirectUrl();
  }

  get clientMetadata(): OAuthClientMetadata {
    return { client_name: CLIENT_NAME, redirect_uris: [this.redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] };
  }

  state(): string {
    return this.options.issueState();
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.information;
  }

  saveClientInformation(information: OAuthClientInformationMixed): void {
    const secret = (information as { client_secret?: unknown }).client_secret;
    if (typeof secret === 'string') this.options.masker.register(secret);
    this.information = information;
  }

  tokens(): OAuthTokens | undefined {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.options.masker.registerAll([tokens.access_token, tokens.refresh_token, tokens.id_token].filter((t): t is string => typeof t === 'string'));
    this.saved = tokens;
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.options.onAuthorizationUrl(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.options.masker.register(codeVerifier);
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error('no PKCE code verifier: the bridge started no authorization for this server');
    return this.verifier;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if ((scope === 'all' || scope === 'client') && !this.options.preRegistered) this.information = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  /** Whether the bridge holds a token for this server (said to the page; never the token). */
  get authorized(): boolean {
    return this.saved !== undefined;
  }
}
