// Recordings of model exchanges (issue 26): one JSON line per request sent to a provider (the request
// hash, the request, the response, the billed usage, the time), appended as each reply comes back so an
// interrupted run loses nothing. A recording never holds a key: keys travel in headers, which are not
// recorded, and each line passes the masker before it is written anyway.
//
// The same file replays a run with no network (`--replay FILE`: each request is answered by the line
// of the same task, cycle and request hash) and resumes one (`--record FILE` on an existing file: the
// requests it answers are not sent again).
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type { BilledUsage } from '../core/providers/reply';
import type { SentExchange } from './models';
import type { Masker } from './secrets';

/** An exchange as sent (models.ts), with what finds it again in a replay; the retries are not recorded. */
export interface RecordedExchange extends Omit<SentExchange, 'attempts'> {
  /** sha256 of the provider, the model and the request as sent (path and body). */
  readonly hash: string;
  /** 0-based task of a task run, and 1-based cycle of its turn (absent for a page's single turn). */
  readonly task?: number;
  readonly cycle?: number;
  /**
   * Arm B of an A/B (`tasks --ab`); absent for arm A and every other run, so a plain `--model`
   * recording answers arm A of an A/B on the same tasks, and each arm replays its own replies even
   * where the two sent the same request.
   */
  readonly arm?: 'B';
  readonly usage?: BilledUsage;
  /** ISO time the reply came back. */
  readonly time: string;
}

/** The hash a recorded request is found by: the same provider, model, path and body give the same hash. */
export function requestHash(provider: string, model: string, request: { readonly path: string; readonly body: unknown }): string {
  return createHash('sha256').update(JSON.stringify([provider, model, request.path, request.body])).digest('hex');
}

export function exchangeLine(e: SentExchange, at: { task?: number; cycle?: number; arm?: 'A' | 'B' }, time: string): RecordedExchange {
  return {
    hash: requestHash(e.provider, e.model, e.request),
    ...(at.task !== undefined ? { task: at.task } : {}),
    ...(at.cycle !== undefined ? { cycle: at.cycle } : {}),
    ...(at.arm === 'B' ? { arm: 'B' as const } : {}),
    provider: e.provider,
    model: e.model,
    request: e.request,
    status: e.status,
    response: e.response,
    ...(e.reply ? { reply: e.reply } : {}),
    ...(e.error !== undefined ? { error: e.error } : {}),
    ...(e.reply?.usage ? { usage: e.reply.usage } : {}),
    time,
  };
}

const keyOf = (task: number | undefined, cycle: number | undefined, hash: string, arm?: string): string => `${arm === 'B' ? 'B:' : ''}${task ?? '-'}/${cycle ?? '-'}/${hash}`;

export interface LoadedRecording {
  readonly exchanges: readonly RecordedExchange[];
  /** `FILE:LINE: why` for each line that is not an exchange. */
  readonly errors: readonly string[];
}

/** Reads a recording; a bad line is named with its line number and left out. */
export function readRecording(file: string, text: string): LoadedRecording {
  const exchanges: RecordedExchange[] = [];
  const errors: string[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = (lines[i] as string).trim();
    if (l === '') continue;
    let v: unknown;
    try {
      v = JSON.parse(l) as unknown;
    } catch (e) {
      errors.push(`${file}:${i + 1}:1: not JSON (${e instanceof Error ? e.message : String(e)}); a run cut off mid-line leaves one, the rest is kept`);
      continue;
    }
    const o = typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
    if (!o || typeof o.hash !== 'string' || typeof o.provider !== 'string' || typeof o.model !== 'string' || typeof o.status !== 'number') {
      errors.push(`${file}:${i + 1}:1: not a recorded exchange (hash, provider, model and status are required)`);
      continue;
    }
    exchanges.push(o as unknown as RecordedExchange);
  }
  return { exchanges, errors };
}

/** A recording file: read once, then appended to, one masked line per exchange. */
export class Recording {
  private readonly byKey = new Map<string, RecordedExchange>();
  readonly errors: readonly string[];

  constructor(
    readonly file: string | undefined,
    private readonly masker: Masker,
    loaded?: LoadedRecording,
  ) {
    for (const e of loaded?.exchanges ?? []) if (e.reply) this.byKey.set(keyOf(e.task, e.cycle, e.hash, e.arm), e);
    this.errors = loaded?.errors ?? [];
  }

  /** Opens `file` to append to, reading what it already holds (resume). */
  static open(file: string, masker: Masker): Recording {
    return new Recording(file, masker, existsSync(file) ? readRecording(file, readFileSync(file, 'utf8')) : undefined);
  }

  get size(): number {
    return this.byKey.size;
  }

  /** The recorded reply of this request at this task and cycle, if the recording has one. */
  find(task: number | undefined, cycle: number | undefined, hash: string, arm?: 'A' | 'B'): RecordedExchange | undefined {
    return this.byKey.get(keyOf(task, cycle, hash, arm));
  }

  /** Appends one exchange (masked) as one line; a reply is kept for replay. */
  add(e: RecordedExchange): void {
    if (e.reply) this.byKey.set(keyOf(e.task, e.cycle, e.hash, e.arm), e);
    if (this.file === undefined) return;
    appendFileSync(this.file, `${this.masker.mask(JSON.stringify(e))}\n`, { mode: 0o600 });
  }
}
