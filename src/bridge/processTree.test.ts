// stopTree's two promises, each of which a loaded CI machine once broke (lifecycle.test.ts's
// "Stop ends the whole tree" failed with one pid still alive): it returns only when nothing it
// was told of still runs, and a child listed before its parent ended is stopped though it has
// since been re-parented and is no longer found under the leader.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { descendants, isAlive, stopTree } from './processTree';

// Ignores SIGTERM, SIGINT and SIGHUP, so only SIGKILL ends it; says "ready" once its handlers are set.
const STUBBORN = "for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(s, () => {}); process.stdout.write('ready\\n'); setInterval(() => {}, 1000);";

const started: number[] = [];
afterEach(() => {
  for (const p of started.splice(0)) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      // Already gone, as it should be.
    }
  }
});

function ready(proc: ChildProcess): Promise<void> {
  return new Promise((ok, fail) => {
    proc.stdout?.once('data', () => ok());
    proc.once('exit', (code) => fail(new Error(`exited early (${code})`)));
  });
}

/** A leader that starts a stubborn child in its own session, prints the child's pid, and waits. */
async function leaderWithOrphanToBe(): Promise<{ leader: ChildProcess; child: number }> {
  const code = `const { spawn } = require('node:child_process');
const c = spawn(process.execPath, ['-e', ${JSON.stringify(STUBBORN)}], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
c.stdout.once('data', () => { process.stdout.write(c.pid + '\\n'); });
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();`;
  const leader = spawn(process.execPath, ['-e', code], { detached: true, stdio: ['pipe', 'pipe', 'ignore'] });
  started.push(leader.pid as number);
  const child = await new Promise<number>((ok, fail) => {
    leader.stdout?.once('data', (d: Buffer) => ok(Number(d.toString().trim())));
    leader.once('exit', (c) => fail(new Error(`the leader exited early (${c})`)));
  });
  started.push(child);
  return { leader, child };
}

describe('stopTree', () => {
  it('returns only once a process that ignores SIGTERM is gone (SIGKILL lands asynchronously)', async () => {
    const proc = spawn(process.execPath, ['-e', STUBBORN], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
    started.push(proc.pid as number);
    await ready(proc);
    await stopTree(proc.pid as number, 100);
    expect(isAlive(proc.pid as number)).toBe(false);
  });

  it('stops a child listed before its leader ended, though it is no longer found under the leader', async () => {
    const { leader, child } = await leaderWithOrphanToBe();
    const known = descendants(leader.pid as number);
    expect(known).toContain(child);
    // The leader ends on its own (as a server does at the end of its input), orphaning the child.
    const exited = new Promise<void>((ok) => leader.once('exit', () => ok()));
    leader.stdin?.end();
    await exited;
    expect(descendants(leader.pid as number)).not.toContain(child);
    expect(isAlive(child)).toBe(true);
    await stopTree(leader.pid as number, 100, known);
    expect(isAlive(child)).toBe(false);
  });

  it('without that listing the orphan would survive: the listing is what stops it', async () => {
    const { leader, child } = await leaderWithOrphanToBe();
    const exited = new Promise<void>((ok) => leader.once('exit', () => ok()));
    leader.stdin?.end();
    await exited;
    await stopTree(leader.pid as number, 100);
    expect(isAlive(child)).toBe(true);
  });
});
