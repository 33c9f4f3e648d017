// The one place secrets are masked. Every value the bridge holds that a user would not
// want shown (an environment value given to a server, a header value, an API key, the
// bridge's own codes and tokens) is registered here once, and everything that leaves
// the bridge passes `mask` or `maskDeep` on its way out: each HTTP reply (bridge.ts
// `send`), each MCP message to the page (facade.ts), each log entry (log.ts), each
// terminal line and each file written (snapshot.ts). A server can put a secret in
// any field (serverInfo.version, a tool's description, an error) and in any form: the
// raw text; JSON-escaped (`\"`, `\/`, `\u0022`), once or again (JSON text inside JSON,
// as a log of a tool's JSON answer holds it); percent-encoded in either case (`%2F`,
// `%2f`, `+` for a space); hex in either case; or base64, so each form is masked. Text is
// cut only after it is masked, so a cut never leaves a secret's first characters.
//
// To keep a new secret out of everything the bridge says: `masker.register(value)`.

/** Shorter values are not masked: they would mask common words. */
const MIN_CHARS = 4;
/** A derived form (base64 middle, encodings) must be at least this long to be worth masking. */
const MIN_FORM_CHARS = 6;
export const MASK = '***';

const reEscape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');

/** The stable part of `bytes`' base64 when it starts `offset` bytes (0-2) into a longer text. */
function base64Middle(bytes: Buffer, offset: number): string {
  const b64 = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64').replace(/=+$/u, '');
  // The first group mixes in the bytes before the secret; the last, the bytes after it.
  const start = offset === 0 ? 0 : 4;
  return b64.slice(start, Math.floor((offset + bytes.length) / 3) * 4);
}

/** Every form in which `value` may appear in text the bridge sends. */
export function formsOf(value: string): string[] {
  const forms = new Set<string>([value]);
  forms.add(JSON.stringify(value).slice(1, -1));
  forms.add(encodeURIComponent(value));
  forms.add(encodeURIComponent(value).replace(/%20/gu, '+'));
  forms.add(encodeURI(value));
  const bytes = Buffer.from(value, 'utf8');
  for (let offset = 0; offset < 3; offset++) {
    const middle = base64Middle(bytes, offset);
    forms.add(middle);
    forms.add(middle.replace(/\+/gu, '-').replace(/\//gu, '_'));
  }
  return [...forms].filter((f) => f === value || f.length >= MIN_FORM_CHARS);
}

/** A hex number as a pattern matching its digits in either case (`2f` and `2F`). */
function hexEither(n: number, width: number): string {
  return n
    .toString(16)
    .padStart(width, '0')
    .replace(/[a-f]/gu, (d) => `[${d}${d.toUpperCase()}]`);
}

/**
 * Backslashes before an escaped character, JSON-escaped 1 to 3 times over (`\"`, `\\\"`, ...): each
 * count exactly, the longest first, so a match never takes a backslash that escapes what follows.
 */
const ESCAPED = (counts: readonly number[]) => `(?:${counts.map((k) => `\\\\{${k}}`).join('|')})`;
const SHORT_ESCAPES: Readonly<Record<string, string>> = { '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't' };

/** One character of a secret, as any of the encoders a server may use writes it. */
function charPattern(ch: string): string {
  const alts = [reEscape(ch)];
  // JSON: `"` → `\"` → `\\\"`; `\` → `\\` → `\\\\`; `/` may be escaped as `\/` (PHP).
  if (ch === '"' || ch === '/') alts.unshift(`${ESCAPED([7, 3, 1])}${reEscape(ch)}`);
  if (ch === '\\') alts.unshift(ESCAPED([8, 4, 2]));
  const short = SHORT_ESCAPES[ch];
  if (short !== undefined) alts.push(`${ESCAPED([4, 2, 1])}${short}`);
  // \u escapes (Go's <>&, Python's non-ASCII), of each UTF-16 unit, escaped again or not.
  alts.push([...Array(ch.length).keys()].map((i) => `${ESCAPED([4, 2, 1])}u${hexEither(ch.charCodeAt(i), 4)}`).join(''));
  // Percent-encoding of its UTF-8 bytes, in either case; a space as +.
  alts.push([...Buffer.from(ch, 'utf8')].map((b) => `%${hexEither(b, 2)}`).join(''));
  if (ch === ' ') alts.push('\\+');
  return `(?:${alts.join('|')})`;
}

/** A pattern for `value` in every form: per character (raw, JSON, \u, percent), hex, base64. */
export function patternOf(value: string): string {
  const chars = [...value].map(charPattern).join('');
  const hex = [...Buffer.from(value, 'utf8')].map((b) => hexEither(b, 2)).join('');
  // formsOf's literal forms: the base64 ones are only there; the others the per-character pattern covers too.
  return [chars, hex, ...formsOf(value).sort((a, b) => b.length - a.length).map(reEscape)].join('|');
}

export class Masker {
  private readonly values = new Set<string>();
  private pattern: RegExp | undefined;

  /** Masks `value` (and its encoded forms) in everything from now on. Short or empty values are ignored. */
  register(value: string | undefined): void {
    if (value === undefined || value.length < MIN_CHARS || this.values.has(value)) return;
    this.values.add(value);
    this.pattern = undefined;
  }

  registerAll(values: Iterable<string>): void {
    for (const v of values) this.register(v);
  }

  get size(): number {
    return this.values.size;
  }

  private regex(): RegExp | undefined {
    if (this.values.size === 0) return undefined;
    if (!this.pattern) {
      // Longest first, so no tail of a longer secret is left behind a shorter one it starts with.
      const values = [...this.values].sort((a, b) => b.length - a.length);
      this.pattern = new RegExp(values.map(patternOf).join('|'), 'gu');
    }
    return this.pattern;
  }

  /** `text` with every registered secret, in every form, replaced by `***`. */
  mask(text: string): string {
    const re = this.regex();
    return re ? text.replace(re, MASK) : text;
  }

  /** `mask`, then cut to `max` characters (the cut never splits a secret: it is gone already). */
  cut(text: string, max: number): string {
    const masked = this.mask(text);
    return masked.length > max ? `${masked.slice(0, max)}… (${masked.length} characters)` : masked;
  }

  /**
   * `mask` through a JSON value: every string and every key. Iterative, so a value nested
   * thousands deep masks without a stack overflow; `__proto__` stays an own key.
   */
  maskDeep<T>(value: T): T {
    if (this.regex() === undefined) return value;
    return this.walk(value) as T;
  }

  private walk(root: unknown): unknown {
    const wrap: { v: unknown } = { v: root };
    const stack: [Record<string | number, unknown>, string | number][] = [[wrap as unknown as Record<string, unknown>, 'v']];
    while (stack.length > 0) {
      const [holder, key] = stack.pop() as [Record<string | number, unknown>, string | number];
      const v = holder[key];
      if (typeof v === 'string') holder[key] = this.mask(v);
      else if (Array.isArray(v)) {
        const copy = v.slice();
        holder[key] = copy;
        for (let i = 0; i < copy.length; i++) stack.push([copy as unknown as Record<number, unknown>, i]);
      } else if (typeof v === 'object' && v !== null) {
        const copy: Record<string, unknown> = {};
        for (const [k, x] of Object.entries(v)) Object.defineProperty(copy, this.mask(k), { value: x, enumerable: true, writable: true, configurable: true });
        holder[key] = copy;
        for (const k of Object.keys(copy)) stack.push([copy, k]);
      }
    }
    return wrap.v;
  }
}

/**
 * What to mask of the headers a user gave: each value, and the credentials after an auth scheme
 * (`Bearer TOKEN` → TOKEN too), since a server that echoes the token alone leaks it as surely.
 */
export function headerSecrets(headers: Readonly<Record<string, string>>): string[] {
  const out: string[] = [];
  for (const v of Object.values(headers)) {
    out.push(v);
    const m = /^[A-Za-z][A-Za-z0-9._~+/-]*\s+(\S.*)$/u.exec(v.trim());
    if (m) out.push(m[1] as string);
  }
  return out;
}

/** A name that says its value is a credential: API_KEY, TOKEN, SECRET, PASSWORD, ... */
const CREDENTIAL_NAME = /(?:^|_)(?:API_?KEY|KEYS?|TOKENS?|SECRETS?|PASSWORD|PASSWD|PASS|CREDENTIALS?|AUTH|PAT|COOKIE)(?:$|_)/iu;
/** An inherited value shorter than this is no credential (USE_TOKEN=true must not mask "true"). */
const MIN_INHERITED_CHARS = 8;

/**
 * What to mask of the environment a server inherits besides its own `variables` (a server gets the
 * bridge's whole environment, as JP's do, so one that echoes $GITHUB_TOKEN leaks it as surely):
 * each value whose variable's name says it is a credential.
 */
export function environmentSecrets(env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.entries(env).flatMap(([name, value]) => (value !== undefined && value.length >= MIN_INHERITED_CHARS && CREDENTIAL_NAME.test(name) ? [value] : []));
}

/** A query parameter whose name says its value is a credential (`?api_key=`, `?token=`, `?sig=`). */
const CREDENTIAL_PARAM = /key|token|secret|pass|auth|sig|credential/iu;

/** What to mask of a server's URL: the password in it, and each credential query parameter's value, raw and decoded. */
export function urlSecrets(url: string): string[] {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return [];
  }
  const out: string[] = [];
  if (u.password !== '') out.push(u.password);
  for (const raw of u.search.slice(1).split('&')) {
    const at = raw.indexOf('=');
    if (at > 0 && CREDENTIAL_PARAM.test(raw.slice(0, at))) out.push(raw.slice(at + 1));
  }
  for (const [name, value] of u.searchParams) if (CREDENTIAL_PARAM.test(name)) out.push(value);
  try {
    if (u.password !== '') out.push(decodeURIComponent(u.password));
  } catch {
    // A malformed escape: the raw form is masked.
  }
  return out;
}
