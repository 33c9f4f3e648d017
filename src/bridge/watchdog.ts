// No server outlives the bridge, even when the bridge cannot clean up (SIGKILL, a
// crash, an OOM kill). Each server leads its own process group, so a signal to the
// group reaches everything it started; but a group whose parent died is simply
// re-parented and runs on. So the bridge starts one watchdog process beside it and
// tells it each server's group leader as it starts and ends. The watchdog holds
// only a pipe from the bridge: when that pipe closes (the kernel closes it when the
// bridge dies, however it dies), or its parent changes, it stops every tree it was told of (processTree.ts: SIGTERM to
// the group and every descendant, SIGKILL after the grace) and exits.
// The watchdog runs as `tool-workbench __watchdog` (src/cli), in its own process
// group, so a Ctrl+C in the terminal reaches the bridge (which stops its servers in
// order) and not the watchdog.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { stopTree } from './processTree';

export class Watchdog {
  private child: ChildProcess | undefined;

  /** `argv`: how to start the watchdog process (the CLI's own entry and `__watchdog`). */
  constructor(private readonly argv: readonly string[]) {}

  private ensure(): ChildProcess | undefined {
    if (this.child && this.child.exitCode === null && this.child.stdin?.writable) return this.child;
    const child = spawn(process.execPath, [...this.argv], { stdio: ['pipe', 'ignore', 'inherit'], detached: true });
    child.on('error', () => undefined);
    child.stdin?.on('error', () => undefined);
    // The watchdog must not keep the bridge alive, nor the bridge the watchdog.
    child.unref();
    (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    this.child = child;
    return child;
  }

  /** A server's group leader and its tree's cookie: stopped with its tree if the bridge dies first. */
  watch(pid: number, cookie?: string): void {
    this.ensure()?.stdin?.write(`+${pid}${cookie !== undefined ? ` ${cookie}` : ''}\n`);
  }

  /** The server ended in order: nothing to do for it any more. */
  forget(pid: number): void {
    if (this.child?.stdin?.writable) this.child.stdin.write(`-${pid}\n`);
  }

  /** The bridge stopped everything itself: the watchdog stops what is left (nothing, normally) and goes. */
  close(): void {
    if (this.child?.stdin?.writable) this.child.stdin.end();
  }
}

/** The watchdog process itself: reads leaders from stdin; when the bridge is gone, stops their trees. */
export function runWatchdog(input: NodeJS.ReadableStream = process.stdin): Promise<number> {
  /** Each leader, with its tree's cookie (processTree.ts TREE_VARIABLE) when the bridge gave one. */
  const leaders = new Map<number, string | undefined>();
  const parent = process.ppid;
  let done = false;
  // Signals meant for the bridge's terminal are the bridge's to handle.
  for (const s of ['SIGINT', 'SIGHUP'] as const) process.on(s, () => undefined);
  return new Promise<number>((exit) => {
    const finish = async () => {
      if (done) return;
      done = true;
      clearInterval(poll);
      await Promise.all([...leaders].map(([l, cookie]) => stopTree(l, undefined, [], cookie)));
      exit(0);
    };
    const lines = createInterface({ input });
    lines.on('line', (line) => {
      const [head = '', cookie] = line.split(' ');
      const pid = Number(head.slice(1));
      if (head.startsWith('+') && Number.isInteger(pid) && pid > 1) leaders.set(pid, cookie !== undefined && /^[0-9a-f]{8,}$/u.test(cookie) ? cookie : undefined);
      else if (head.startsWith('-')) leaders.delete(pid);
    });
    lines.on('close', () => void finish());
    // Belt and braces: a parent that changed is a bridge that died, pipe or not.
    const poll = setInterval(() => {
      if (process.ppid !== parent) void finish();
    }, 500);
  });
}
