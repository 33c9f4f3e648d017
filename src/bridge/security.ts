// The bridge's door, closed to everything but the page it served. MCP Inspector's
// proxy taught what goes wrong (GHSA-7f8r-222p-6f5g / CVE-2025-49596: no
// authentication, so any web page could start commands; GHSA-g9hg-qhmf-q45m:
// commands through XSS; an Origin check that let requests with no Origin through,
// which DNS rebinding uses). So, for every request:
// - Host must be 127.0.0.1:PORT or localhost:PORT (a rebound name is refused), else 403;
// - an Origin header, when present, must be the bridge's own origin, else 403;
// - under /bridge/: `Authorization: Bearer TOKEN` (256 random bits, new at every start), else 401;
// - POST and DELETE under /bridge/ must carry that Origin: none at all is refused too (403).
//   Browsers send Origin on every POST and DELETE, and omit it on same-origin GETs, so GETs
//   rest on the token and the Host check.
import { randomBytes, timingSafeEqual } from 'node:crypto';

export function newToken(): string {
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

function sameSecret(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Why a request is refused, or undefined when it may pass. */
export function refusal(r: RequestFacts, token: string, port: number): Refusal | undefined {
  const host = (r.host ?? '').toLowerCase();
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) {
    return { status: 403, message: `Host ${JSON.stringify(r.host ?? '')} refused: the bridge answers only 127.0.0.1:${port} and localhost:${port}` };
  }
  const own = `http://${host}`;
  if (r.origin !== undefined && r.origin.toLowerCase() !== own) return { status: 403, message: `Origin ${JSON.stringify(r.origin)} refused: only ${own} may use the bridge` };
  if (!r.path.startsWith('/bridge/')) return undefined;
  const auth = r.authorization ?? '';
  if (!auth.startsWith('Bearer ') || !sameSecret(auth.slice(7), token)) {
    return { status: 401, message: 'the bridge needs its token: open the address `tool-workbench serve` printed (it ends in #token=...)' };
  }
  if (r.method !== 'GET' && r.method !== 'HEAD' && r.origin === undefined) {
    return { status: 403, message: `a ${r.method} without an Origin header is refused (the page always sends one)` };
  }
  return undefined;
}
