// The bridge's security rules, each against a running `tool-workbench serve`: the token (401),
// Host and Origin (403), commands only from a confirmed workspace (and printed), secrets never
// shown or logged.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, FIXTURES, pageClient, raw, serverBin, startServe, tempWorkspace } from './testServe';
import type { Running } from './testServe';

const SECRET = 'sk-test-5ecret-value-0123456789';
let s: Running;
let page: ReturnType<typeof pageClient>;

beforeAll(async () => {
  s = await startServe({ WB_TEST_KEY: SECRET });
  page = pageClient(s);
}, 90_000);

afterAll(async () => {
  s.proc.kill('SIGTERM');
  await s.exited;
}, 30_000);

describe('the address and the token', () => {
  it('prints the address with a token of at least 128 random bits on the first line', () => {
    expect(s.stdout().split('\n')[0]).toBe(`Tool Catalogue Workbench on http://127.0.0.1:${s.port}/#token=${s.token}`);
    // base64url: 6 bits a character.
    expect(s.token.length * 6).toBeGreaterThanOrEqual(128);
  });

  it('answers 401 to a /bridge/ request without the token, or with a wrong one', async () => {
    expect((await raw(s.port, { path: '/bridge/info' })).status).toBe(401);
    expect((await raw(s.port, { path: '/bridge/servers', token: `${s.token.slice(0, -1)}x` })).status).toBe(401);
    expect((await raw(s.port, { path: '/bridge/servers', token: '' })).status).toBe(401);
    const ok = await raw(s.port, { path: '/bridge/info', token: s.token });
    expect(ok.status).toBe(200);
    expect(ok.json()).toMatchObject({ app: 'tool-catalogue-workbench', protocolVersions: expect.arrayContaining(['2025-11-25', '2025-06-18', '2024-11-05']) });
  });

  it('gives a new token at every start', async () => {
    const other = await startServe();
    try {
      expect(other.token).not.toBe(s.token);
      expect((await raw(other.port, { path: '/bridge/info', token: s.token })).status).toBe(401);
    } finally {
      other.proc.kill('SIGTERM');
      await other.exited;
    }
  }, 90_000);
});

describe('Host and Origin', () => {
  it.each([
    ['a rebound name', (p: number) => `evil.example:${p}`],
    ['another port', (p: number) => `127.0.0.1:${p + 1}`],
    ['no port', () => '127.0.0.1'],
    ['0.0.0.0', (p: number) => `0.0.0.0:${p}`],
  ])('refuses Host of %s with 403, token or not', async (_why, host) => {
    const r = await raw(s.port, { path: '/bridge/info', token: s.token, host: host(s.port) });
    expect(r.status).toBe(403);
    expect(r.json().error).toMatch(/Host .* refused/u);
    expect((await raw(s.port, { path: '/', host: host(s.port) })).status).toBe(403);
  });

  it('accepts Host localhost:PORT and 127.0.0.1:PORT', async () => {
    expect((await raw(s.port, { path: '/bridge/info', token: s.token, host: `localhost:${s.port}` })).status).toBe(200);
    expect((await raw(s.port, { path: '/bridge/info', token: s.token })).status).toBe(200);
  });

  it('refuses a POST or DELETE with no Origin, or a foreign one, with 403 even with the token', async () => {
    for (const method of ['POST', 'DELETE']) {
      const path = method === 'POST' ? '/bridge/workspaces' : '/bridge/servers/x';
      const none = await raw(s.port, { method, path, token: s.token, body: { path: '/tmp' } });
      expect(none.status, `${method} with no Origin`).toBe(403);
      for (const origin of ['http://evil.example', `http://127.0.0.1:${s.port + 1}`, 'null', `https://127.0.0.1:${s.port}`]) {
        const r = await raw(s.port, { method, path, token: s.token, origin, body: { path: '/tmp' } });
        expect(r.status, `${method} from ${origin}`).toBe(403);
      }
    }
  });

  it('refuses a foreign Origin on a GET too', async () => {
    expect((await raw(s.port, { path: '/bridge/servers', token: s.token, origin: 'http://evil.example' })).status).toBe(403);
  });

  it('accepts the bridge own origin on POST (the route then answers)', async () => {
    const r = await page.post('/bridge/workspaces', {});
    expect(r.status).toBe(400);
    expect(r.json().error).toMatch(/give the path/u);
  });
});

describe('what may start a process', () => {
  it('starts nothing from a request that names a command; the page can only name a URL or a confirmed plan', async () => {
    const marker = join(FIXTURES, 'never-created.txt');
    const r = await page.post('/bridge/servers', { command: 'node', arguments: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`] });
    expect(r.status).toBe(400);
    expect(r.json().error).toMatch(/give the server URL/u);
    const fileUrl = await page.post('/bridge/servers', { url: 'file:///etc/passwd' });
    expect(fileUrl.json<{ server: { status: string; error: string } }>().server).toMatchObject({ status: 'failed', error: expect.stringMatching(/file: is not supported/u) });
    expect(() => readFileSync(marker)).toThrow();
  });

  it('starts a workspace server only after its plan is confirmed, and prints the command on the terminal', async () => {
    const root = tempWorkspace((r) => `[providers.mcp.memo]\ntype = "stdio"\ncommand = "${process.execPath}"\narguments = ["${serverBin('memory')}"]\n` + `# ${r}\n`);
    const opened = await page.post('/bridge/workspaces', { path: root });
    expect(opened.status).toBe(200);
    const id = opened.json<{ workspace: { id: string } }>().workspace.id;
    // A plan nobody made cannot be started.
    const forged = await page.post(`/bridge/workspaces/${id}/start`, { plan: 'made-up' });
    expect(forged.status).toBe(400);
    expect((await page.get('/bridge/servers')).json<{ servers: unknown[] }>().servers.filter((x) => (x as { name: string }).name === 'memo')).toEqual([]);
    const plan = (await page.post(`/bridge/workspaces/${id}/plan`, {})).json<{ plan: { id: string; servers: { commandLine: string; cwd: string }[] } }>().plan;
    expect(plan.servers).toEqual([expect.objectContaining({ name: 'memo', commandLine: `${process.execPath} ${serverBin('memory')}`, cwd: root })]);
    expect(s.stdout()).not.toContain(serverBin('memory'));
    const started = (await page.post(`/bridge/workspaces/${id}/start`, { plan: plan.id })).json<{ servers: { name: string; status: string; serverInfo?: { name: string } }[] }>().servers;
    expect(started).toEqual([expect.objectContaining({ name: 'memo', status: 'running', serverInfo: expect.objectContaining({ name: 'memory-server' }) })]);
    expect(s.stdout()).toContain(`starting memo (from workspace ${join(root, '.jp')}): ${process.execPath} ${serverBin('memory')}  [in ${root}]`);
    await page.del('/bridge/servers/memo');
  });
});

describe('secrets', () => {
  it('never shows an environment value: names in the plan and the view, the value masked in the log and on the terminal', async () => {
    const root = tempWorkspace(
      () => `[providers.mcp.careless]\ntype = "stdio"\ncommand = "${process.execPath}"\narguments = ["${join(FIXTURES, 'env-echo.mjs')}", "WB_TEST_KEY", "${serverBin('memory')}"]\nvariables = ["WB_TEST_KEY", "WB_NOT_SET"]\n`,
    );
    const id = (await page.post('/bridge/workspaces', { path: root })).json<{ workspace: { id: string } }>().workspace.id;
    const planReply = await page.post(`/bridge/workspaces/${id}/plan`, {});
    expect(planReply.body).toContain('WB_TEST_KEY');
    expect(planReply.body).not.toContain(SECRET);
    const plan = planReply.json<{ plan: { id: string } }>().plan;
    const startReply = await page.post(`/bridge/workspaces/${id}/start`, { plan: plan.id });
    expect(startReply.json<{ servers: { status: string; missingVariables: string[] }[] }>().servers[0]).toMatchObject({ status: 'running', missingVariables: ['WB_NOT_SET'] });
    const log = await eventually(async () => {
      const l = await page.get('/bridge/servers/careless/log?after=0');
      return l.body.includes('my key is') ? l.body : undefined;
    });
    expect(log).toContain('my key is ***');
    expect(log).not.toContain(SECRET);
    expect((await page.get('/bridge/servers')).body).not.toContain(SECRET);
    expect(s.stdout()).not.toContain(SECRET);
    expect(s.stderr()).not.toContain(SECRET);
    await page.del('/bridge/servers/careless');
  });
});
