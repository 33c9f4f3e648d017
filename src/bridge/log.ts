// Per-server logs the page shows (stderr, the requests and responses that passed,
// what the bridge did), and the lines the bridge prints on its terminal. Secrets
// (auth header values, the values of a server's environment variables) are masked
// wherever they would appear, and control characters are escaped, so a server's
// output can neither leak a key nor rewrite the terminal.
import type { LogEntry, LogStream } from '../bridge-protocol';

export type { LogEntry, LogStream };

const MAX_ENTRY_CHARS = 4000;

/** Escapes C0/C1 control characters (except tab) as \u escapes, so text prints as text. */
export function escapeControl(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Replaces each secret (4 characters or more) in `text` with `***`, the longest first. */
export function mask(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of [...secrets].sort((a, b) => b.length - a.length)) if (s.length >= 4) out = out.split(s).join('***');
  return out;
}

/**
 * `mask` through a JSON value (a server's reply on its way to the page): every string, and every
 * key, with each secret masked. A server that echoes an API key back (in a tool's description, a
 * call's result, an error) cannot hand it to the page, where autosave, share links, exported
 * scenarios and snapshots would keep it.
 */
export function maskDeep<T>(value: T, secrets: readonly string[]): T {
  const live = secrets.filter((s) => s.length >= 4);
  if (live.length === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return mask(v, live);
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [mask(k, live), walk(x)]));
    return v;
  };
  return walk(value) as T;
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

/** A bounded log: the newest `max` entries, each cut to a readable length. */
export class LogRing {
  private entries: LogEntry[] = [];
  private next = 1;
  constructor(
    private readonly secrets: () => readonly string[],
    private readonly max = 1000,
    private readonly clock: () => number = Date.now,
  ) {}

  add(stream: LogStream, text: string): void {
    const cut = text.length > MAX_ENTRY_CHARS ? `${text.slice(0, MAX_ENTRY_CHARS)}… (${text.length} characters)` : text;
    this.entries.push({ seq: this.next++, at: this.clock(), stream, text: mask(cut, this.secrets()) });
    if (this.entries.length > this.max) this.entries.splice(0, this.entries.length - this.max);
  }

  /** Entries after `seq` (0: all kept). */
  since(seq: number): LogEntry[] {
    return this.entries.filter((e) => e.seq > seq);
  }

  get last(): number {
    return this.next - 1;
  }

  /** The last `n` stderr lines, for an error message (JP attaches the same tail). */
  stderrTail(n = 20): string[] {
    return this.entries.filter((e) => e.stream === 'stderr').slice(-n).map((e) => e.text);
  }
}

/** The bridge's terminal: one line per event, escaped and masked. */
export interface Terminal {
  line(text: string): void;
}

export function terminalOf(write: (text: string) => void, secrets: () => readonly string[] = () => []): Terminal {
  return { line: (text) => write(`${escapeControl(mask(text, secrets()))}\n`) };
}
