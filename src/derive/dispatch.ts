// The worker's dispatch: which waiting call the derive worker answers next. The worker is one thread
// answering one call at a time, and a keystroke's derivation must never wait behind long work asked
// for an older revision (the cost model's cache statuses, the findability report: ~1.2 s at 100,000
// tools). So calls wait in a queue here instead of running as their messages arrive: a derivation
// goes first; a call that its row (methods.ts `supersede`) says a newer revision makes useless is
// answered `superseded` instead of run, waiting or (for long work running in slices) under way; and
// long work runs a slice at a time, each slice a task of the worker's event loop, so the messages
// that arrive meanwhile are read between two slices.
import { methods } from './methods';
import type { MethodName } from './methods';
import type { RpcMessage, RpcResponse } from './protocol';

/**
 * Where long work may give way: resolves at once while its slice has time left; otherwise once the
 * worker has answered what arrived meanwhile. Rejects with `Superseded` when a newer revision's
 * derivation (or the caller giving up) made the answer useless: the work then unwinds, caching nothing.
 */
export type Slicer = () => Promise<void>;

/** A slicer that never gives way: the hosts' methods run whole when called directly (tests, tools). */
export const noSlices: Slicer = () => Promise.resolve();

/** The work was abandoned for a newer revision, or its caller gave up: no answer, not an error. */
export class Superseded extends Error {
  constructor(what: string) {
    super(`${what} was superseded`);
    this.name = 'Superseded';
  }
}

/** Runs a core computation written in steps (a generator, e.g. `costOfTimelineInSteps`), offering `slicer` a pause after each. */
export async function inSlices<T>(steps: Generator<void, T, undefined>, slicer: Slicer): Promise<T> {
  for (;;) {
    const s = steps.next();
    if (s.done) return s.value;
    await slicer();
  }
}

/**
 * How long a slice of long work runs before it gives way to waiting messages: the longest a keystroke's
 * derivation waits behind the settled work of the revision before (cache statuses, windows). At 12 ms
 * that wait was the tail of the keystroke at 1,000 tools; each slice costs a message to itself (~0.1 ms).
 */
export const SLICE_MS = 4;

export interface DispatchOptions {
  /** Answers a call (DeriveHost.call); long work calls `slicer` between its slices. */
  readonly answer: (method: MethodName, params: unknown, slicer: Slicer) => unknown;
  readonly post: (response: RpcResponse) => void;
  /**
   * Runs `fn` as a new task of the event loop, behind the messages already waiting (a MessageChannel
   * in the worker, `channelDefer`); tests pass their own to step the loop by hand.
   */
  readonly defer: (fn: () => void) => void;
  readonly now: () => number;
  readonly sliceMs?: number;
  /** Told after a call is answered (the worker warms its JIT after the first derivation). */
  readonly answered?: (method: MethodName, params: unknown) => void;
}

type Kind = 'derive' | 'view' | 'settled' | 'other';

interface Job {
  readonly id: number;
  readonly method: MethodName;
  readonly params: unknown;
  readonly kind: Kind;
  readonly revision: number | undefined;
}

/** Work under way in slices (a `supersede` row's), paused (`resume` set) between them. */
interface Running {
  readonly job: Job;
  stopped: boolean;
  resume?: { readonly resolve: () => void; readonly reject: (e: Error) => void };
}

function revisionOf(params: unknown): number | undefined {
  const r = (params as { revision?: unknown } | null | undefined)?.revision;
  return typeof r === 'number' ? r : undefined;
}

function kindOf(method: MethodName): Kind {
  if (method === 'derive') return 'derive';
  const row: { readonly supersede?: 'view' | 'settled' } = methods[method];
  return row.supersede ?? 'other';
}

export class Dispatcher {
  private readonly waiting: Job[] = [];
  /** Every call under way in slices, and the one long ('settled') call among them: long work runs one at a time. */
  private readonly live = new Set<Running>();
  private running: Running | undefined;
  /** The calls paused between two slices, in the order they paused. */
  private readonly paused: Running[] = [];
  /** The newest revision a derivation was asked for: calls of older revisions with a `supersede` row are useless. */
  private newest = -Infinity;
  /** The newest revision derived without error (`newest` falls back to it when a derivation fails). */
  private derived = -Infinity;
  private scheduled = false;
  private sliceStart = 0;
  private readonly sliceMs: number;

  constructor(private readonly options: DispatchOptions) {
    this.sliceMs = options.sliceMs ?? SLICE_MS;
  }

  /** A message from the page: a call to queue, a caller giving up on one, or several of these in order. */
  receive(message: RpcMessage): void {
    if ('batch' in message) {
      for (const m of message.batch) this.receive(m);
      return;
    }
    if ('cancel' in message) {
      this.cancel(message.id);
      return;
    }
    const job: Job = { id: message.id, method: message.method, params: message.params, kind: kindOf(message.method), revision: revisionOf(message.params) };
    if (job.kind === 'derive' && job.revision !== undefined && job.revision > this.newest) {
      this.newest = job.revision;
      this.supersedeOlder();
    }
    if (this.useless(job)) {
      this.superseded(job);
      return;
    }
    this.waiting.push(job);
    this.schedule();
  }

  /** What waits (for tests): the ids in the order they will run, the long work under way first. */
  pending(): { readonly waiting: readonly number[]; readonly running?: number } {
    return { waiting: this.waiting.map((j) => j.id), ...(this.running ? { running: this.running.job.id } : {}) };
  }

  /** Whether the queue holds a call that can start now (long work waits while other long work is under way). */
  private startable(): boolean {
    return this.waiting.some((j) => j.kind !== 'settled' || !this.running);
  }

  private useless(job: Job): boolean {
    return (job.kind === 'view' || job.kind === 'settled') && job.revision !== undefined && job.revision < this.newest;
  }

  private supersedeOlder(): void {
    const useless = this.waiting.filter((j) => this.useless(j));
    if (useless.length > 0) {
      this.waiting.splice(0, this.waiting.length, ...this.waiting.filter((j) => !this.useless(j)));
      for (const job of useless) this.superseded(job);
    }
    for (const r of this.live) if (this.useless(r.job)) this.stop(r);
  }

  private cancel(id: number): void {
    const i = this.waiting.findIndex((j) => j.id === id);
    if (i >= 0) this.waiting.splice(i, 1);
    else for (const r of this.live) if (r.job.id === id) this.stop(r);
  }

  /** Abandons the long work under way: at once if it is paused, else at its next slicer call. */
  private stop(r: Running): void {
    r.stopped = true;
    const resume = r.resume;
    r.resume = undefined;
    const at = this.paused.indexOf(r);
    if (at >= 0) this.paused.splice(at, 1);
    resume?.reject(new Superseded(r.job.method));
  }

  private superseded(job: Job): void {
    this.options.post({ id: job.id, ok: false, superseded: true });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.options.defer(() => {
      this.scheduled = false;
      this.step();
      if (this.startable() || this.paused.length > 0) this.schedule();
    });
  }

  /**
   * Runs one thing: the first derivation; else the first other call; else a slice of a paused window,
   * then of the paused long work; else starts the next long work.
   */
  private step(): void {
    const pick = (pred: (j: Job) => boolean): Job | undefined => {
      const i = this.waiting.findIndex(pred);
      return i < 0 ? undefined : this.waiting.splice(i, 1)[0];
    };
    const job = pick((j) => j.kind === 'derive') ?? pick((j) => j.kind !== 'settled');
    if (job) {
      this.run(job);
      return;
    }
    const at = Math.max(0, this.paused.findIndex((r) => r.job.kind !== 'settled'));
    const r = this.paused.splice(at, 1)[0];
    if (r?.resume) {
      const resume = r.resume;
      r.resume = undefined;
      this.sliceStart = this.options.now();
      resume.resolve();
      return;
    }
    if (this.running) return;
    const long = pick(() => true);
    if (long) this.run(long);
  }

  private run(job: Job): void {
    const { id, method, params } = job;
    const sliced: Running | undefined = job.kind === 'view' || job.kind === 'settled' ? { job, stopped: false } : undefined;
    if (sliced) this.live.add(sliced);
    if (sliced && job.kind === 'settled') this.running = sliced;
    const slicer: Slicer = sliced ? () => this.slice(sliced) : noSlices;
    const done = (response: RpcResponse): void => {
      if (sliced) {
        this.live.delete(sliced);
        if (this.running === sliced) {
          this.running = undefined;
          if (this.waiting.length > 0) this.schedule();
        }
      }
      if (job.kind === 'derive' && job.revision !== undefined) {
        if (response.ok) this.derived = Math.max(this.derived, job.revision);
        // A failed derivation leaves the page on the revision before: its calls are not useless.
        else if (job.revision === this.newest) this.newest = this.derived;
      }
      if (sliced?.stopped && !response.ok) this.superseded(job);
      else this.options.post(response);
      if (response.ok) this.options.answered?.(method, params);
    };
    const failed = (e: unknown): RpcResponse =>
      e instanceof Superseded ? { id, ok: false, superseded: true } : { id, ok: false, error: e instanceof Error ? e.message : String(e) };
    this.sliceStart = this.options.now();
    try {
      const result: unknown = this.options.answer(method, params, slicer);
      // Long work and the methods that load a module first answer with a promise.
      if (result instanceof Promise) result.then((value: unknown) => done({ id, ok: true, result: value }), (e: unknown) => done(failed(e)));
      else done({ id, ok: true, result });
    } catch (e) {
      done(failed(e));
    }
  }

  private slice(r: Running): Promise<void> {
    if (r.stopped) return Promise.reject(new Superseded(r.job.method));
    if (this.options.now() - this.sliceStart < this.sliceMs) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      r.resume = { resolve, reject };
      this.paused.push(r);
      this.schedule();
    });
  }
}

/** Defers to a new task of the event loop through a MessageChannel (no timer clamping), behind the messages already waiting. */
export function channelDefer(): (fn: () => void) => void {
  const channel = new MessageChannel();
  const queued: (() => void)[] = [];
  channel.port1.onmessage = () => queued.shift()?.();
  return (fn) => {
    queued.push(fn);
    channel.port2.postMessage(null);
  };
}
