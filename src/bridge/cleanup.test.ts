// Tests clean up (issue 34.7): every process a test file starts carries the file's cookie
// (testServe's TEST_VARIABLE), and endTestProcesses ends them all, the ones that ignore SIGTERM
// and the ones no longer anyone's descendant included, so a failing test leaves nothing running.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAlive, markedBy } from './processTree';
import { endTestProcesses, eventually, FIXTURES, serverBin, TEST_COOKIE, TEST_VARIABLE } from './testServe';

describe("a test file's processes", () => {
  it('are all marked with its cookie and all ended, a SIGTERM-ignoring orphan included', async () => {
    // A server whose helper ignores SIGTERM and leaves the group; the server is then killed, so the helper is orphaned.
    const server = spawn(process.execPath, [join(FIXTURES, 'stubborn-tree.mjs'), serverBin('memory')], { stdio: ['pipe', 'ignore', 'pipe'], detached: true });
    let said = '';
    server.stderr.setEncoding('utf8');
    server.stderr.on('data', (d: string) => (said += d));
    const helper = await eventually(() => {
      const m = /^helper (\d+)$/mu.exec(said);
      return m ? Number(m[1]) : undefined;
    }, 20_000, 'the helper pid');
    // A process that ignores SIGTERM itself.
    const stubborn = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);"], { stdio: 'ignore', detached: true });
    process.kill(server.pid as number, 'SIGKILL');
    await eventually(() => (isAlive(server.pid as number) ? undefined : true), 10_000, 'the server to end');
    expect(isAlive(helper)).toBe(true);
    const marked = markedBy(TEST_VARIABLE, TEST_COOKIE);
    expect(marked).toEqual(expect.arrayContaining([helper, stubborn.pid]));
    expect((await endTestProcesses()).map((line) => Number(line.split(' ')[0]))).toEqual(expect.arrayContaining([helper, stubborn.pid]));
    expect([helper, stubborn.pid as number].filter(isAlive)).toEqual([]);
    expect(markedBy(TEST_VARIABLE, TEST_COOKIE).filter(isAlive)).toEqual([]);
  }, 60_000);
});
