// Stopping a server means stopping everything it started: `npx` starts node, a
// shell script starts its interpreter, a server may fork helpers. Each server is
// spawned as the leader of its own process group (as JP does: `process_group(0)`
// in crates/jp_mcp/src/client.rs, so a Ctrl+C in the terminal reaches the bridge,
// which then stops its servers in order, and not the servers directly). Stopping
// signals the group and, on Linux, every descendant found through /proc, so a
// child that left the group (setsid) is not orphaned either. A child whose parent
// has already ended is no one's descendant any more (it is re-parented): it is
// found by the variable every server is started with and all it starts inherit
// (TREE_VARIABLE, a cookie per start, as Jenkins' ProcessTreeKiller finds a
// build's processes), so neither a helper left by a server that ended nor one a
// server starts while it is being stopped outlives the stop.
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** The variable in each server's environment that marks it and everything it starts. */
export const TREE_VARIABLE = 'TOOL_WORKBENCH_TREE';

/** A new cookie for one server's start. */
export function newTreeCookie(): string {
  return randomBytes(12).toString('hex');
}

/** Every live process whose environment carries `cookie` (Linux; empty where there is no /proc). */
export function marked(cookie: string): number[] {
  return markedBy(TREE_VARIABLE, cookie);
}

/** Every live process but this one whose environment, as it started, has `variable=value`. */
export function markedBy(variable: string, value: string): number[] {
  const needle = Buffer.from(`${variable}=${value}\0`);
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const name of entries) {
    if (!/^\d+$/u.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`).includes(needle)) out.push(Number(name));
    } catch {
      // Ended while we looked, or another user's.
    }
  }
  return out;
}

/** Parent pid of every process, from /proc/PID/stat (Linux); empty where there is no /proc. */
function parents(): Map<number, number> {
  const map = new Map<number, number>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return map;
  }
  for (const name of entries) {
    if (!/^\d+$/u.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(rest[1]);
      if (Number.isInteger(ppid)) map.set(Number(name), ppid);
    } catch {
      // The process ended while we looked.
    }
  }
  return map;
}

/** Every live descendant of `pid` (children, grandchildren, ...), found through /proc. */
export function descendants(pid: number): number[] {
  return descendantsOf([pid]);
}

/** Every live descendant of any of `roots`, the roots themselves left out. */
function descendantsOf(roots: readonly number[]): number[] {
  const byParent = new Map<number, number[]>();
  for (const [child, parent] of parents()) {
    const list = byParent.get(parent);
    if (list) list.push(child);
    else byParent.set(parent, [child]);
  }
  const out: number[] = [];
  const queue = [...roots];
  const seen = new Set<number>(roots);
  while (queue.length > 0) {
    const p = queue.shift() as number;
    for (const c of byParent.get(p) ?? []) {
      if (seen.has(c)) continue;
      seen.add(c);
      out.push(c);
      queue.push(c);
    }
  }
  return out;
}

/** Whether `pid` still runs. A zombie (ended, not yet reaped by its parent) does not count. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    // No /proc/PID: gone, unless this system has no /proc at all.
    return !existsSync('/proc/self');
  }
}

/** Sends `signal` to the group `pid` leads and to each of `pids`; a process already gone is fine. */
export function signalTree(leader: number, pids: readonly number[], signal: NodeJS.Signals): void {
  try {
    process.kill(-leader, signal);
  } catch {
    // The group is gone (or was never one).
  }
  for (const p of [leader, ...pids]) {
    try {
      process.kill(p, signal);
    } catch {
      // Already gone.
    }
  }
}

function signalOne(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Stops a process tree: SIGTERM to the group and every descendant (listed before the first signal,
 * since an orphan is re-parented and would no longer be found) and every process carrying `cookie`,
 * then SIGKILL to whatever is left after `graceMs`, and waits until none of them runs. The tree is
 * looked for again while it waits, so what a process starts during the stop is stopped too.
 */
export async function stopTree(leader: number, graceMs = 1500, known: readonly number[] = [], cookie?: string): Promise<void> {
  // `known` is a listing taken before anything could end the leader: once it has exited, its orphans are
  // re-parented and no longer found under it (but still by the cookie).
  const all = new Set<number>([leader, ...known]);
  const find = () => [...descendantsOf([...all].filter(isAlive)), ...(cookie !== undefined ? marked(cookie) : [])];
  /** Adds what is new since the last look and sends it `signal`; whether anything in the tree still runs. */
  const look = (signal: NodeJS.Signals): boolean => {
    for (const p of find()) {
      if (all.has(p) || p === process.pid) continue;
      all.add(p);
      signalOne(p, signal);
    }
    return [...all].some(isAlive);
  };
  for (const p of find()) all.add(p);
  all.delete(process.pid);
  signalTree(leader, [...all].filter((p) => p !== leader), 'SIGTERM');
  // The grace is wall time: counted as 50 ms a look, it grew with the /proc scans of a loaded machine
  // (1.5 s took 2.7 s at a load of 18), so a stop's length depended on the load, not on the setting.
  const graceEnd = Date.now() + graceMs;
  while (Date.now() < graceEnd) {
    if (!look('SIGTERM')) return;
    await sleep(50);
  }
  signalTree(leader, [...all].filter((p) => p !== leader && isAlive(p)), 'SIGKILL');
  // SIGKILL is delivered asynchronously: on a loaded machine a killed process can still read as running
  // for a few milliseconds, and a caller that says "stopped" must not be contradicted by a live pid.
  const killEnd = Date.now() + 5000;
  while (look('SIGKILL') && Date.now() < killEnd) await sleep(20);
}
