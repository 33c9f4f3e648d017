// The tab's memory, as Chrome's task manager shows it: the "memory footprint" of the renderer process
// that hosts the page, its workers included. On Linux Chrome computes a process's private footprint as
// RssAnon + VmSwap (memory_instrumentation's OSMetrics): resident memory that is the process's own.
// Not counted, on purpose:
// - other renderer processes the browser started: Chromium keeps a spare renderer ready for the next
//   navigation (about 70 MB resident, 20 MB its own), which belongs to no tab;
// - file-backed resident pages (the Chromium binary and its libraries, about 130 MB in every
//   renderer, shared with every other Chromium process), which RSS counts and the footprint does not.
// RSS is printed beside it for comparison with the figures of earlier rounds, which summed the RSS of
// every renderer.
// "At rest" is the footprint again after a garbage collection forced in the page and in each of its
// workers: what the tab holds, without the garbage a collection would free. The page's figure is the
// first one (a user's task manager forces no collection); the second says how much of it is garbage.
import { readFileSync, readdirSync } from 'node:fs';
import type { CDPSession, Page } from '@playwright/test';

interface Proc {
  readonly pid: number;
  readonly ppid: number;
  readonly start: number;
}

function processes(): Proc[] {
  const out: Proc[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.push({ pid: Number(d), ppid: Number(fields[1]), start: Number(fields[19]) });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

function descendants(all: readonly Proc[]): Proc[] {
  const parent = new Map(all.map((p) => [p.pid, p.ppid]));
  return all.filter((p) => {
    for (let q: number | undefined = p.pid, i = 0; q !== undefined && q > 1 && i < 20; q = parent.get(q), i++) if (q === process.pid) return true;
    return false;
  });
}

function read(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function isRenderer(pid: number): boolean {
  return read(`/proc/${pid}/cmdline`).includes('--type=renderer');
}

/** Whether the process runs a dedicated worker: the workbench's page always does (the derive worker), a spare renderer never. */
function hasWorkerThread(pid: number): boolean {
  try {
    return readdirSync(`/proc/${pid}/task`).some((t) => read(`/proc/${pid}/task/${t}/comm`).startsWith('DedicatedWorker'));
  } catch {
    return false;
  }
}

function kb(status: string, key: string): number {
  return Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
}

/**
 * The pid of the renderer hosting the workbench's page: among the renderers this process started, the
 * newest that runs a dedicated worker (a tab closed just before may not have exited yet; the spare
 * renderer runs none).
 */
export function tabRendererPid(): number {
  const tabs = descendants(processes())
    .filter((p) => isRenderer(p.pid) && hasWorkerThread(p.pid))
    .sort((a, b) => b.start - a.start);
  const tab = tabs[0];
  if (!tab) throw new Error('no renderer with a dedicated worker: is the workbench page open?');
  return tab.pid;
}

export interface ProcessMemory {
  /** RssAnon + VmSwap, MB: Chrome's private memory footprint (its task manager's "Memory footprint"). */
  readonly footprint: number;
  /** VmRSS, MB: the footprint plus file-backed and shared pages. */
  readonly rss: number;
}

export function processMemory(pid: number): ProcessMemory {
  const status = read(`/proc/${pid}/status`);
  if (!status) throw new Error(`process ${pid} is gone`);
  return { footprint: (kb(status, 'RssAnon') + kb(status, 'VmSwap')) / 1024, rss: kb(status, 'VmRSS') / 1024 };
}

export interface TabMemory extends ProcessMemory {
  readonly pid: number;
  /** The footprint after a forced collection in the page and its workers, MB. */
  readonly atRest: number;
  /** Used JS heap after that collection, MB: the page's main thread, and each worker's. */
  readonly mainHeap: number;
  readonly workerHeaps: readonly number[];
}

/** Runs CDP commands in each of the page's workers (a non-flat auto-attach on a session of our own). */
async function workers(cdp: CDPSession): Promise<(method: string) => Promise<unknown[]>> {
  const sessions: string[] = [];
  const waiting = new Map<number, (v: unknown) => void>();
  cdp.on('Target.attachedToTarget', (e: { sessionId: string; targetInfo: { type: string } }) => {
    if (e.targetInfo.type === 'worker') sessions.push(e.sessionId);
  });
  cdp.on('Target.receivedMessageFromTarget', (e: { message: string }) => {
    const m = JSON.parse(e.message) as { id?: number; result?: unknown };
    if (m.id !== undefined) waiting.get(m.id)?.(m.result);
  });
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  // Attachments to the workers already running are reported as events right after the call.
  await new Promise((r) => setTimeout(r, 300));
  let id = 1;
  return async (method) => {
    const results: unknown[] = [];
    for (const sessionId of sessions) {
      const n = id++;
      results.push(
        await new Promise((resolve) => {
          waiting.set(n, resolve);
          void cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: n, method }) });
        }),
      );
    }
    return results;
  };
}

/** The tab's memory now, then at rest (see the top of this file). */
export async function tabMemory(page: Page): Promise<TabMemory> {
  const pid = tabRendererPid();
  const found = processMemory(pid);
  const cdp = await page.context().newCDPSession(page);
  try {
    const inWorkers = await workers(cdp);
    await inWorkers('HeapProfiler.collectGarbage');
    await cdp.send('HeapProfiler.collectGarbage');
    // Let the collector hand the freed pages back before reading the process's figures.
    await new Promise((r) => setTimeout(r, 500));
    const main = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
    const heaps = (await inWorkers('Runtime.getHeapUsage')) as { usedSize?: number }[];
    return { pid, ...found, atRest: processMemory(pid).footprint, mainHeap: main.usedSize / 1e6, workerHeaps: heaps.map((w) => (w.usedSize ?? NaN) / 1e6) };
  } finally {
    await cdp.detach();
  }
}

/** One line: the footprint against its target, RSS, and what is left at rest. */
export function tabMemoryLine(m: TabMemory, targetMb: number): string {
  const heaps = `JS heaps at rest: main thread ${m.mainHeap.toFixed(0)} MB, worker${m.workerHeaps.length === 1 ? '' : 's'} ${m.workerHeaps.map((w) => `${w.toFixed(0)} MB`).join(', ')}`;
  return `tab memory ${m.footprint.toFixed(0)} MB (the tab's renderer, its workers included, as Chrome's task manager counts it; target < ${targetMb.toLocaleString('en-US')} MB); resident ${m.rss.toFixed(0)} MB; ${m.atRest.toFixed(0)} MB at rest after a forced collection (${heaps})`;
}
