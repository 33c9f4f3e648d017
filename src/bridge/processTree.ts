// Stopping a server means stopping everything it started: `npx` starts node, a
// shell script starts its interpreter, a server may fork helpers. Each server is
// spawned as the leader of its own process group (as JP does: `process_group(0)`
// in crates/jp_mcp/src/client.rs, so a Ctrl+C in the terminal reaches the bridge,
// which then stops its servers in order, and not the servers directly). Stopping
// signals the group and, on Linux, every descendant found through /proc, so a
// child that left the group (setsid) is not orphaned either.
import { existsSync, readdirSync, readFileSync } from 'node:fs';

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
  const byParent = new Map<number, number[]>();
  for (const [child, parent] of parents()) {
    const list = byParent.get(parent);
    if (list) list.push(child);
    else byParent.set(parent, [child]);
  }
  const out: number[] = [];
  const queue = [pid];
  const seen = new Set<number>([pid]);
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

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Stops a process tree: SIGTERM to the group and every descendant (listed before the first signal,
 * since an orphan is re-parented and would no longer be found), then SIGKILL to whatever is left
 * after `graceMs`, and waits until none of them runs.
 */
export async function stopTree(leader: number, graceMs = 1500, known: readonly number[] = []): Promise<void> {
  // `known` is a listing taken before anything could end the leader: once it has exited, its orphans are
  // re-parented and no longer found under it.
  const tree = [...new Set([...known, ...descendants(leader)])].filter((p) => p !== leader);
  signalTree(leader, tree, 'SIGTERM');
  const all = [leader, ...tree];
  for (let waited = 0; waited < graceMs; waited += 50) {
    if (!all.some(isAlive)) return;
    await sleep(50);
  }
  signalTree(leader, tree.filter(isAlive), 'SIGKILL');
  // SIGKILL is delivered asynchronously: on a loaded machine a killed process can still read as running
  // for a few milliseconds, and a caller that says "stopped" must not be contradicted by a live pid.
  for (let waited = 0; waited < 2000 && all.some(isAlive); waited += 20) await sleep(20);
}
