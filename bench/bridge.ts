// The local bridge's figures: how long `tool-workbench serve` takes to print its address, to start
// a real stdio server (server-filesystem) from a confirmed plan, to see an HTTP server that went
// away (target: within 5 s), and to stop with every child gone; a busy server's long call, and an idle
// hung one said to be not answering (issue 34.2). Figures, never a timed test.
import { createServer } from 'node:http';
import { join } from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { LogRing, terminalOf } from '../src/bridge/log';
import { descendants, isAlive } from '../src/bridge/processTree';
import { Masker } from '../src/bridge/secrets';
import { eventually, FIXTURES, pageClient, serverBin, startServe, tempWorkspace } from '../src/bridge/testServe';
import { Upstream } from '../src/bridge/upstream';

const ms = (n: number) => `${Math.round(n)} ms`;

/** A server's flood of log notifications, as the bridge logs each (masked, kept, the oldest let go). */
function logFlood(): void {
  const masker = new Masker();
  masker.registerAll(['sk-"hostile\\key-0123456789abcdef', 'sk-live/key+part 0123456789']);
  const ring = new LogRing(masker);
  const line = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'n123456' } });
  const t = performance.now();
  for (let i = 0; i < 300_000; i++) ring.add('notification', line);
  console.log(`  300,000 notifications logged (masked, the newest 1,000 kept): ${ms(performance.now() - t)}`);
}

/**
 * Issue 34.2: a server busy in a call is waited for (JP sends no pings), and an idle one that stops
 * answering is said to be (notAnsweringSecs), never stopped for it.
 */
async function busyAndHung(): Promise<void> {
  const masker = new Masker();
  const spec = { name: 'busy', command: process.execPath, arguments: [join(FIXTURES, 'busy.mjs')], variables: [], optional: false, startupTimeoutSecs: 20, layers: ['bench'] };
  const up = new Upstream('busy', { kind: 'stdio', spec, cwd: FIXTURES, from: 'the bench' }, { terminal: terminalOf(() => undefined, masker), masker });
  await up.start();
  try {
    let t = performance.now();
    await up.forward('tools/call', { name: 'work', arguments: { seconds: 8 } });
    console.log(`  a tool call holding its stdio server 8 s returns after: ${ms(performance.now() - t)} (the server: ${up.status})`);
    const pid = up.view().pid as number;
    process.kill(pid, 'SIGSTOP');
    t = performance.now();
    try {
      await eventually(() => (up.view().notAnsweringSecs !== undefined ? true : undefined), 30_000);
      console.log(`  an idle server that stops answering (SIGSTOP) reads "not answering" after: ${ms(performance.now() - t)} (the server: ${up.status})`);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
  } finally {
    await up.stop();
  }
}

export async function run(): Promise<void> {
  logFlood();
  await busyAndHung();
  let t = performance.now();
  const s = await startServe();
  console.log(`  serve prints its address: ${ms(performance.now() - t)}`);
  const page = pageClient(s);
  try {
    const root = tempWorkspace((r) => `[providers.mcp.fs]\ntype = "stdio"\ncommand = ${JSON.stringify(process.execPath)}\narguments = [${JSON.stringify(serverBin('filesystem'))}, ${JSON.stringify(join(r, 'data'))}]\n`);
    t = performance.now();
    const id = (await page.post('/bridge/workspaces', { path: root })).json<{ workspace: { id: string } }>().workspace.id;
    const plan = (await page.post(`/bridge/workspaces/${id}/plan`)).json<{ plan: { id: string } }>().plan;
    const started = (await page.post(`/bridge/workspaces/${id}/start`, { plan: plan.id })).json<{ servers: { status: string }[] }>().servers;
    console.log(`  open, plan and start server-filesystem (${started[0]?.status}): ${ms(performance.now() - t)}`);

    const http = createServer((req, res) => {
      const server = new Server({ name: 'bench', version: '1' }, { capabilities: { tools: {} } });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      void server.connect(transport).then(() => transport.handleRequest(req, res));
    });
    const port = await new Promise<number>((ok) => http.listen(0, '127.0.0.1', () => ok((http.address() as { port: number }).port)));
    await page.post('/bridge/servers', { url: `http://127.0.0.1:${port}/mcp`, name: 'gone' });
    http.closeAllConnections();
    http.close();
    t = performance.now();
    await eventually(async () => ((await page.get('/bridge/servers')).json<{ servers: { name: string; status: string }[] }>().servers.find((x) => x.name === 'gone')?.status === 'failed' ? true : undefined), 30_000);
    console.log(`  a stateless HTTP server that went away is seen as failed after: ${ms(performance.now() - t)} (target: under 5,000 ms)`);
  } finally {
    const tree = descendants(s.proc.pid as number);
    t = performance.now();
    s.proc.kill('SIGTERM');
    await s.exited;
    console.log(`  SIGTERM to exit, ${tree.length} child processes stopped: ${ms(performance.now() - t)}; left alive: ${tree.filter(isAlive).length}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
