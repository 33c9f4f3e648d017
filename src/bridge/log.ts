// Per-server logs the page shows (stderr, the requests and responses that passed,
// what the bridge did), and the lines the bridge prints on its terminal. Each entry
// and each line passes the masker (secrets.ts) before it is cut or kept, and the
// terminal escapes control, bidi and invisible characters, so a server's output can
// neither leak a key nor rewrite or disguise what the terminal shows.
import type { LogEntry, LogStream } from '../bridge-protocol';
import { escapeHidden } from '../core/workspace/hidden';
import type { Masker } from './secrets';

export type { LogEntry, LogStream };

const MAX_ENTRY_CHARS = 4000;

/** A bounded log: the newest `max` entries, each masked, then cut to a readable length. */
export class LogRing {
  private entries: LogEntry[] = [];
  private next = 1;
  constructor(
    private readonly masker: Masker,
    private readonly max = 1000,
    private readonly clock: () => number = Date.now,
  ) {}

  add(stream: LogStream, text: string): void {
    this.entries.push({ seq: this.next++, at: this.clock(), stream, text: this.masker.cut(text, MAX_ENTRY_CHARS) });
    // Trimmed once every `max` entries, not on each: a splice per entry of a flood of notifications
    // cost the bridge's one thread seconds (bench/bridge.ts).
    if (this.entries.length >= 2 * this.max) this.entries = this.entries.slice(-this.max);
  }

  /** The newest `max` entries. */
  private get kept(): readonly LogEntry[] {
    return this.entries.length > this.max ? this.entries.slice(-this.max) : this.entries;
  }

  /** Entries after `seq` (0: all kept). */
  since(seq: number): LogEntry[] {
    return this.kept.filter((e) => e.seq > seq);
  }

  get last(): number {
    return this.next - 1;
  }

  /** The last `n` stderr lines, for an error message (JP attaches the same tail). */
  stderrTail(n = 20): string[] {
    return this.kept.filter((e) => e.stream === 'stderr').slice(-n).map((e) => e.text);
  }
}

/** The bridge's terminal: one line per event, masked and escaped. */
export interface Terminal {
  line(text: string): void;
}

/**
 * Text for a terminal: masked, then every control, bidi and invisible character escaped but a tab
 * (and, for text of several lines the bridge put together, `keepLines`, the line feed).
 */
export function forTerminal(text: string, masker: Masker, keepLines = false): string {
  return escapeHidden(masker.mask(text), keepLines ? '\t\n' : '\t');
}

export function terminalOf(write: (text: string) => void, masker: Masker): Terminal {
  return { line: (text) => write(`${forTerminal(text, masker)}\n`) };
}
