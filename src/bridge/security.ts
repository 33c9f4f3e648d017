// The bridge's door, closed to everything but the page it served. MCP Inspector's
// proxy taught what goes wrong (GHSA-7f8r-222p-6f5g / CVE-2025-49596: no
// authentication, so any web page could start commands; GHSA-g9hg-qhmf-q45m:
// commands through XSS; an Origin check that let requests with no Origin through,
// which DNS rebinding uses). So, for every request:
// - Host must be exactly 127.0.0.1:PORT or localhost:PORT (a rebound name is refused), else 403;
// - an Origin header, when present, must be exactly the bridge's own origin, else 403;
// - under /bridge/: `Authorization: Bearer TOKEN`, a session token, else 401;
// - POST and DELETE under /bridge/ must carry that Origin: none at all is refused too (403).
//   Browsers send Origin on every POST and DELETE, and omit it on same-origin GETs, so GETs
//   rest on the token and the Host check.
// The address `serve` prints carries a one-time code, not a token: the page exchanges it once
// (`POST /bridge/session`, the one route without a token) for a session token it keeps in the
// tab. An address left in the browser's history or the terminal's scrollback is spent.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 256 random bits, base64url. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

export interface Refusal {
  readonly status: 401 | 403;
  readonly message: string;
}

export interface RequestFacts {
  readonly method: string;
  readonly path: string;
  readonly host: string | undefined;
  readonly origin: string | undefined;
  readonly authorization: string | undefined;
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/**
 * Whether `given` is `secret`, in time that depends on neither (both are hashed to 32 bytes first,
 * so neither a prefix nor the length shows in how long the answer takes).
 */
export function sameSecret(given: string, secret: string): boolean {
  return timingSafeEqual(digest(given), digest(secret));
}

/** A page session: one exchanged code. */
export interface Session {
  readonly n: number;
  readonly since: number;
  /** The exchanging request's User-Agent, for the terminal (a claim, not a proof). */
  readonly userAgent: string;
}

/** The one-time codes and the session tokens they were exchanged for. */
export class Sessions {
  private code: string | undefined;
  private readonly tokens: { readonly token: string; readonly session: Session }[] = [];

  constructor(private readonly clock: () => number = Date.now) {}

  /** A new one-time code (the previous one, if unspent, stops working). */
  newCode(): string {
    this.code = newSecret();
    return this.code;
  }

  /** Spends the code: a new session token, or undefined when the code is wrong or spent. */
  exchange(code: string, userAgent: string): { token: string; session: Session } | undefined {
    const current = this.code;
    if (current === undefined || !sameSecret(code, current)) return undefined;
    this.code = undefined;
    const session: Session = { n: this.tokens.length + 1, since: this.clock(), userAgent: userAgent.slice(0, 120) };
    const token = newSecret();
    this.tokens.push({ token, session });
    return { token, session };
  }

  /** The session a bearer token belongs to; every token is compared, in constant time each. */
  of(token: string): Session | undefined {
    let found: Session | undefined;
    for (const t of this.tokens) if (sameSecret(token, t.token)) found = t.session;
    return found;
  }

  /** Every secret this door holds, for masking (a token or code never reaches a log or a reply). */
  secrets(): string[] {
    return [...(this.code !== undefined ? [this.code] : []), ...this.tokens.map((t) => t.token)];
  }
}

/** The one route a request may reach without a token: it exchanges the printed code for one. */
export const EXCHANGE_PATH = '/bridge/session';

/**
 * Where an authorization server sends the browser back (oauth.ts). A redirect carries no bridge token
 * and, from the authorization server's page, whatever Origin the browser gives it: this route needs
 * neither, and does nothing but for a `state` the bridge issued (one-shot, expiring), which is this
 * request's credential. The Host check holds for it as for every route.
 */
export const OAUTH_CALLBACK_PATH = '/bridge/oauth/callback';

/** Why a request is refused, or the session it belongs to (none for the exchange, the OAuth callback and the app's files). */
export function refusal(r: RequestFacts, sessions: Sessions, port: number): Refusal | { readonly session?: Session } {
  const host = r.host ?? '';
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) {
    return { status: 403, message: `Host ${JSON.stringify(r.host ?? '')} refused: the bridge answers only 127.0.0.1:${port} and localhost:${port}` };
  }
  if (r.path === OAUTH_CALLBACK_PATH && r.method === 'GET') return {};
  const own = `http://${host}`;
  if (r.origin !== undefined && r.origin !== own) return { status: 403, message: `Origin ${JSON.stringify(r.origin)} refused: only ${own} may use the bridge` };
  if (!r.path.startsWith('/bridge/')) return {};
  if (r.method !== 'GET' && r.method !== 'HEAD' && r.origin === undefined) {
    return { status: 403, message: `a ${r.method} without an Origin header is refused (the page always sends one)` };
  }
  if (r.path === EXCHANGE_PATH && r.method === 'POST') return {};
  const auth = r.authorization ?? '';
  const session = auth.startsWith('Bearer ') ? sessions.of(auth.slice(7)) : undefined;
  if (!session) return { status: 401, message: 'the bridge needs a session: open the address `tool-workbench serve` printed (it ends in #code=...); press Enter in its terminal for a new one' };
  return { session };
}
