// `serve` and `snapshot` on the command line: --help, bad arguments, and a port that is taken,
// each a sentence and an exit status, never a stack trace.
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { mainAsync } from './main';
import type { Io } from './main';

function io() {
  let out = '';
  let err = '';
  const io: Io = { out: (t) => void (out += t), err: (t) => void (err += t), readFile: () => '' };
  return { io, out: () => out, err: () => err };
}

describe('serve and snapshot', () => {
  it.each(['serve', 'snapshot'])('%s --help prints its usage and exits 0', async (command) => {
    const t = io();
    expect(await mainAsync([command, '--help'], t.io)).toBe(0);
    expect(t.out()).toMatch(new RegExp(`^usage: tool-workbench ${command} `, 'u'));
  });

  it.each([
    [['serve', '--port'], /--port needs a value/u],
    [['serve', '--port', '70000'], /--port must be a whole number from 0 to 65535/u],
    [['serve', '--idle-stop', '-1'], /unknown argument "-1"|--idle-stop needs a value|whole number/u],
    [['serve', '--bogus'], /unknown argument "--bogus"/u],
    [['snapshot', '--workspace', 'x'], /--out FILE is required/u],
  ])('%j is refused with exit 2 and the usage', async (args, message) => {
    const t = io();
    expect(await mainAsync(args, t.io)).toBe(2);
    expect(t.err()).toMatch(message);
    expect(t.err()).toContain('usage: tool-workbench');
  });

  it('says so when the port asked for is taken', async () => {
    const taken = createServer();
    const port = await new Promise<number>((ok) => taken.listen(0, '127.0.0.1', () => ok((taken.address() as { port: number }).port)));
    try {
      const t = io();
      expect(await mainAsync(['serve', '--port', String(port), '--no-open', '--no-build'], t.io)).toBe(2);
      expect(t.err()).toBe(`tool-workbench serve: cannot listen on 127.0.0.1:${port}: the port is taken; pick another with --port N (0: any free port)\n`);
      expect(t.out()).toBe('');
    } finally {
      taken.close();
    }
  });
});
