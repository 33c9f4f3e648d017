// The official MCP conformance suite (@modelcontextprotocol/conformance, pinned) run through the
// bridge: every server scenario, against the workbench's own reference server
// (fixtures/conformance-server.mjs) reached by a running `tool-workbench serve`, through the
// endpoint the page uses. The suite's client knows nothing of the bridge's door, so a small proxy
// plays the page's browser: it adds the session token, and the bridge's own Origin and Host where
// the suite sends the proxy's; any other Host or Origin (the DNS-rebinding scenario's) passes
// through untouched, for the bridge to refuse.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endsItsProcesses, FIXTURES, pageClient, ROOT, startServe } from './testServe';
import type { Running } from './testServe';

// Whatever a failing test leaves running ends with the file (issue 34.7).
endsItsProcesses();

const CLI = join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

let s: Running;
let reference: ChildProcess;
let proxy: Server;

function startReference(): Promise<{ proc: ChildProcess; port: number }> {
  const proc = spawn(process.execPath, [join(FIXTURES, 'conformance-server.mjs'), '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((ok, fail) => {
    let out = '';
    proc.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (\d+)/u.exec(out);
      if (m) ok({ proc, port: Number(m[1]) });
    });
    proc.once('exit', (code) => fail(new Error(`the reference server exited (${code})`)));
  });
}

/** The page's browser, for a client that is not one: token, and own Origin/Host for the proxy's. */
function startProxy(bridgePort: number, token: string): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    const own = `127.0.0.1:${(server.address() as { port: number }).port}`;
    const headers = { ...req.headers };
    if (headers.host === own || headers.host === own.replace('127.0.0.1', 'localhost')) headers.host = `127.0.0.1:${bridgePort}`;
    if (headers.origin === undefined || headers.origin === `http://${own}`) headers.origin = `http://127.0.0.1:${bridgePort}`;
    headers.authorization ??= `Bearer ${token}`;
    const up = request({ host: '127.0.0.1', port: bridgePort, method: req.method, path: req.url, headers, setHost: false, agent: false }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
    res.on('close', () => up.destroy());
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok({ server, port: (server.address() as { port: number }).port })));
}

function runSuite(url: string): Promise<{ code: number | null; out: string }> {
  const cwd = mkdtempSync(join(tmpdir(), 'wb-conformance-'));
  const proc = spawn(process.execPath, ['--import', join(FIXTURES, 'conformance-node20.mjs'), CLI, 'server', '--url', url, '--suite', 'all'], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((ok) => proc.once('exit', (code) => ok({ code, out })));
}

beforeAll(async () => {
  s = await startServe();
  const ref = await startReference();
  reference = ref.proc;
  const connected = await pageClient(s).post('/bridge/servers', { url: `http://127.0.0.1:${ref.port}/mcp`, name: 'reference' });
  expect(connected.json<{ server: { status: string } }>().server.status).toBe('running');
  proxy = (await startProxy(s.port, s.token)).server;
}, 90_000);

afterAll(async () => {
  proxy.closeAllConnections();
  proxy.close();
  reference.kill();
  s.proc.kill('SIGTERM');
  await s.exited;
}, 30_000);

describe('the MCP conformance suite through the bridge', () => {
  it('passes every server scenario against the reference server, through the page endpoint', async () => {
    const list = await new Promise<string>((ok) => {
      const p = spawn(process.execPath, ['--import', join(FIXTURES, 'conformance-node20.mjs'), CLI, 'list'], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      p.stdout?.on('data', (d: Buffer) => (out += d.toString()));
      p.once('exit', () => ok(out));
    });
    const scenarios = [...(list.split('Client scenarios')[0] ?? '').matchAll(/^ {2}- (\S+) /gmu)].map((m) => m[1] as string);
    expect(scenarios.length).toBe(32);
    const port = (proxy.address() as { port: number }).port;
    const { code, out } = await runSuite(`http://127.0.0.1:${port}/bridge/servers/reference/mcp`);
    const summary = out.slice(out.indexOf('=== SUMMARY ==='));
    const passed = [...summary.matchAll(/^✓ (\S+):/gmu)].map((m) => m[1]);
    const failed = [...summary.matchAll(/^✗ (\S+):.*$/gmu)].map((m) => m[0]);
    expect(failed, summary).toEqual([]);
    expect(passed.sort()).toEqual([...scenarios].sort());
    expect(code).toBe(0);
  }, 300_000);
});
