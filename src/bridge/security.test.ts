// The bridge's security rules, each against a running `tool-workbench serve`: the one-time code
// and the session token (401), Host and Origin (403), each table-driven over hostile values;
// commands only from a confirmed workspace (and printed), secrets never shown or logged; the small
// doors (malformed escapes, symlinks in dist/).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { endsItsProcesses, eventually, exchangeCode, FIXTURES, pageClient, raw, ROOT, serveForFile, serverBin, startServe, tempWorkspace } from './testServe';
import type { PageClient, Running } from './testServe';

// Whatever a failing test leaves running ends with the file (issue 34.7).
endsItsProcesses();

const SECRET = 'sk-test-5ecret-value-0123456789';
let s: Running;
let page: PageClient;

serveForFile({ WB_TEST_KEY: SECRET }, (running, client) => {
  s = running;
  page = client;
});

describe('the address, its one-time code and the session token', () => {
  it('prints the address with a one-time code of at least 128 random bits on the first line, and never a token', () => {
    expect(s.stdout().split('\n')[0]).toBe(`Tool Catalogue Workbench on http://127.0.0.1:${s.port}/#code=${s.code}`);
    // base64url: 6 bits a character.
    expect(s.code.length * 6).toBeGreaterThanOrEqual(128);
    expect(s.token.length * 6).toBeGreaterThanOrEqual(128);
    expect(s.stdout()).not.toContain(s.token);
    expect(s.stdout()).toMatch(/session 1 opened with the address's code/u);
  });

  it('spends the code: the same address a second time (from history, from scrollback) opens no session', async () => {
    const again = await exchangeCode(s.port, s.code);
    expect(again.status).toBe(403);
    expect(again.json().error).toMatch(/spent or wrong/u);
    expect(again.body).not.toContain(s.token);
  });

  it('exchanges only with the bridge own Origin and Host', async () => {
    const other = await startServe();
    try {
      const code = other.stdout().split('\n')[0]?.split('#code=')[1] ?? '';
      expect(code).toBe(other.code);
      // Spent by startServe already; a fresh one comes from the terminal (Enter), tested below.
      for (const origin of [null, 'http://evil.example', `http://127.0.0.1:${other.port}.evil.example`]) {
        const r = await raw(other.port, { method: 'POST', path: '/bridge/session', origin, body: { code } });
        expect(r.status, `exchange from ${String(origin)}`).toBe(403);
      }
    } finally {
      other.proc.kill('SIGTERM');
      await other.exited;
    }
  }, 90_000);

  it('prints a new address when Enter is pressed on its terminal; the previous code stops working', async () => {
    const own = await startServe({}, [], 'pipe');
    try {
      const fresh = async (n: number) => {
        own.proc.stdin?.write('\n');
        const codes = await eventually(() => {
          const all = [...own.stdout().matchAll(/A new address \(the previous one no longer opens a session\): http:\/\/127\.0\.0\.1:\d+\/#code=([A-Za-z0-9_-]+)/gu)].map((m) => m[1] as string);
          return all.length === n ? all : undefined;
        }, 10_000, `new address ${n}`);
        return codes[n - 1] as string;
      };
      const first = await fresh(1);
      const latest = await fresh(2);
      expect(latest).not.toBe(first);
      expect((await exchangeCode(own.port, first)).status).toBe(403);
      const ok = await exchangeCode(own.port, latest);
      expect(ok.status).toBe(200);
      const token = ok.json<{ token: string }>().token;
      expect((await raw(own.port, { path: '/bridge/info', token })).status).toBe(200);
      // Both sessions work; each is its own.
      expect((await raw(own.port, { path: '/bridge/info', token: own.token })).status).toBe(200);
      expect(token).not.toBe(own.token);
    } finally {
      own.proc.kill('SIGTERM');
      await own.exited;
    }
  }, 90_000);

  it('gives a new code and new tokens at every start', async () => {
    const other = await startServe();
    try {
      expect(other.code).not.toBe(s.code);
      expect(other.token).not.toBe(s.token);
      expect((await raw(other.port, { path: '/bridge/info', token: s.token })).status).toBe(401);
    } finally {
      other.proc.kill('SIGTERM');
      await other.exited;
    }
  }, 90_000);

  it('answers /bridge/info with the session token', async () => {
    const ok = await raw(s.port, { path: '/bridge/info', token: s.token });
    expect(ok.status).toBe(200);
    expect(ok.json()).toMatchObject({ app: 'tool-catalogue-workbench', protocolVersions: expect.arrayContaining(['2025-11-25', '2025-06-18', '2024-11-05']) });
  });

  // Each row is a value an attacker could try in place of the token; every one is refused.
  const tokens: [string, (t: string) => string | null][] = [
    ['no Authorization at all', () => null],
    ['empty', () => ''],
    ['one character of it', (t) => t.slice(0, 1)],
    ['a prefix (all but the last character)', (t) => t.slice(0, -1)],
    ['an extension (one more character)', (t) => `${t}x`],
    ['its last character changed', (t) => `${t.slice(0, -1)}${t.endsWith('A') ? 'B' : 'A'}`],
    ['its case flipped', (t) => [...t].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('')],
    ['percent-encoded', (t) => [...t].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')],
    ['in standard base64 (+/ for -_, padded)', (t) => `${t.replace(/-/gu, '+').replace(/_/gu, '/')}=`],
    ['base64 of itself', (t) => Buffer.from(t).toString('base64')],
    ['split by a space', (t) => `${t.slice(0, 8)} ${t.slice(8)}`],
    ['the printed code in its place', () => s.code],
  ];
  it.each(tokens)('answers 401 to a token that is %s', async (_why, forge) => {
    const token = forge(s.token);
    for (const path of ['/bridge/info', '/bridge/servers', '/bridge/workspaces']) {
      const r = await raw(s.port, { path, token });
      expect(r.status, `${path} with ${JSON.stringify(token)}`).toBe(401);
      expect(r.json().error).toMatch(/needs a session/u);
    }
  });

  it.each([
    ['a lowercase scheme', (t: string) => `bearer ${t}`],
    ['two spaces after the scheme', (t: string) => `Bearer  ${t}`],
    ['another scheme', (t: string) => `Basic ${t}`],
    ['no scheme', (t: string) => t],
  ])('answers 401 to the real token with %s', async (_why, header) => {
    const r = await new Promise<number>((ok, fail) => {
      const req = httpRequest({ host: '127.0.0.1', port: s.port, path: '/bridge/info', headers: { host: `127.0.0.1:${s.port}`, authorization: header(s.token) }, agent: false }, (res) => {
        res.resume();
        ok(res.statusCode ?? 0);
      });
      req.on('error', fail);
      req.end();
    });
    expect(r).toBe(401);
  });
});

describe('Host and Origin', () => {
  // Each row is a Host a rebinding or look-alike name would send; every one is refused, token or not.
  const hosts: [string, (p: number) => string | null][] = [
    ['a rebound name', (p) => `evil.example:${p}`],
    ['a nip.io-style name for 127.0.0.1', (p) => `127.0.0.1.nip.io:${p}`],
    ['a dashed nip.io-style name', (p) => `127-0-0-1.nip.io:${p}`],
    ['a name that resolves to loopback', (p) => `localtest.me:${p}`],
    ['127.0.0.1 with a trailing dot', (p) => `127.0.0.1.:${p}`],
    ['localhost with a trailing dot', (p) => `localhost.:${p}`],
    ['IPv6 loopback', (p) => `[::1]:${p}`],
    ['IPv4-mapped IPv6 loopback', (p) => `[::ffff:127.0.0.1]:${p}`],
    ['a short form of 127.0.0.1', (p) => `127.1:${p}`],
    ['127.0.0.1 as one number', (p) => `2130706433:${p}`],
    ['127.0.0.1 with no port', () => '127.0.0.1'],
    ['localhost with no port', () => 'localhost'],
    ['another port', (p) => `127.0.0.1:${p + 1}`],
    ['the port with a leading zero', (p) => `127.0.0.1:0${p}`],
    ['0.0.0.0', (p) => `0.0.0.0:${p}`],
    ['another loopback address', (p) => `127.0.0.2:${p}`],
    ['LOCALHOST in capitals', (p) => `LOCALHOST:${p}`],
    ['userinfo before the name', (p) => `evil@127.0.0.1:${p}`],
    ['empty', () => ''],
  ];
  it.each(hosts)('refuses Host of %s with 403, token or not', async (_why, host) => {
    const h = host(s.port);
    const r = await raw(s.port, { path: '/bridge/info', token: s.token, host: h });
    expect(r.status, `Host ${String(h)}`).toBe(403);
    expect(r.json().error).toMatch(/Host .* refused/u);
    expect((await raw(s.port, { path: '/', host: h })).status).toBe(403);
    // The OAuth callback needs no token, and its Host is checked all the same.
    expect((await raw(s.port, { path: '/bridge/oauth/callback?code=x&state=y', host: h })).status).toBe(403);
    // What a reloaded page asks to re-attach (issue 34.5) is behind the same door.
    expect((await raw(s.port, { path: '/bridge/workspaces', token: s.token, host: h })).status).toBe(403);
  });

  it('accepts Host localhost:PORT and 127.0.0.1:PORT', async () => {
    expect((await raw(s.port, { path: '/bridge/info', token: s.token, host: `localhost:${s.port}` })).status).toBe(200);
    expect((await raw(s.port, { path: '/bridge/workspaces', token: s.token })).status).toBe(200);
    expect((await raw(s.port, { path: '/bridge/info', token: s.token })).status).toBe(200);
  });

  // Each row is an Origin that shares a prefix or a suffix with the bridge's, or differs in scheme,
  // port, case or form; every one is refused, on GET, POST and DELETE, token or not.
  const origins: [string, (p: number) => string][] = [
    ['another site', () => 'http://evil.example'],
    ['own origin followed by a domain (prefix shared)', (p) => `http://127.0.0.1:${p}.evil.example`],
    ['own origin with a digit more on the port (prefix shared)', (p) => `http://127.0.0.1:${p}0`],
    ['a port that is a prefix of the own port', (p) => `http://127.0.0.1:${String(p).slice(0, -1)}`],
    ['a subdomain ending in 127.0.0.1 (suffix shared)', (p) => `http://evil.127.0.0.1:${p}`],
    ['a look-alike host ending in own origin (suffix shared)', (p) => `http://evil127.0.0.1:${p}`],
    ['own origin with a path', (p) => `http://127.0.0.1:${p}/`],
    ['the opaque origin null (sandboxed frames, file:)', () => 'null'],
    ['https', (p) => `https://127.0.0.1:${p}`],
    ['ws', (p) => `ws://127.0.0.1:${p}`],
    ['file', () => 'file://'],
    ['another port', (p) => `http://127.0.0.1:${p + 1}`],
    ['no port', () => 'http://127.0.0.1'],
    ['the scheme in capitals', (p) => `HTTP://127.0.0.1:${p}`],
    ['localhost in capitals', (p) => `http://LOCALHOST:${p}`],
    ['localhost while the Host is 127.0.0.1', (p) => `http://localhost:${p}`],
    ['empty', () => ''],
  ];
  it.each(origins)('refuses Origin of %s with 403', async (_why, origin) => {
    const o = origin(s.port);
    for (const [method, path] of [['GET', '/bridge/servers'], ['GET', '/bridge/workspaces'], ['POST', '/bridge/workspaces'], ['DELETE', '/bridge/servers/x'], ['POST', '/bridge/session']] as const) {
      const r = await raw(s.port, { method, path, token: s.token, origin: o, body: method === 'POST' ? { path: '/tmp', code: s.code } : undefined });
      expect(r.status, `${method} ${path} from ${JSON.stringify(o)}`).toBe(403);
      expect(r.json().error).toMatch(/Origin .* refused/u);
    }
  });

  it('refuses a POST or DELETE with no Origin with 403, even with the token', async () => {
    for (const method of ['POST', 'DELETE']) {
      const path = method === 'POST' ? '/bridge/workspaces' : '/bridge/servers/x';
      const none = await raw(s.port, { method, path, token: s.token, body: { path: '/tmp' } });
      expect(none.status, `${method} with no Origin`).toBe(403);
    }
  });

  it('accepts the bridge own origin on POST (the route then answers)', async () => {
    const r = await page.post('/bridge/workspaces', {});
    expect(r.status).toBe(400);
    expect(r.json().error).toMatch(/give the path/u);
  });
});

describe('the small doors', () => {
  it('the OAuth callback is the one GET without a token, and does nothing for a state the bridge did not issue', async () => {
    const r = await raw(s.port, { path: '/bridge/oauth/callback?code=x&state=y' });
    expect(r.status).toBe(403);
    expect(r.body).toContain('Not an authorization the bridge asked for');
    expect(r.body).not.toMatch(/<script/iu);
    // Only GET, and only that path, pass without a token: anything else meets the door as every route.
    expect((await raw(s.port, { method: 'POST', path: '/bridge/oauth/callback', origin: `http://127.0.0.1:${s.port}` })).status).toBe(401);
    expect((await raw(s.port, { method: 'POST', path: '/bridge/oauth/callback' })).status).toBe(403);
    expect((await raw(s.port, { path: '/bridge/oauth/callbackx?state=y' })).status).toBe(401);
    expect((await raw(s.port, { path: '/bridge/oauth/callback/x?state=y' })).status).toBe(401);
  });

  it('answers 400, not 500, to a malformed percent-escape in a path', async () => {
    const r = await raw(s.port, { path: '/bridge/servers/%E0%A4%A/log', token: s.token });
    expect(r.status).toBe(400);
    expect(r.json().error).toMatch(/malformed percent-escape/u);
    expect((await raw(s.port, { path: '/%E0%A4%A' })).status).toBe(400);
  });

  it('serves only regular files whose real path stays inside dist/: a symlink out of it is not followed', async () => {
    const dist = join(ROOT, 'dist');
    mkdirSync(dist, { recursive: true });
    const secretDir = mkdtempSync(join(tmpdir(), 'wb-outside-'));
    writeFileSync(join(secretDir, 'secret.txt'), 'outside dist\n');
    const link = join(dist, `wb-link-${process.pid}.txt`);
    const dirLink = join(dist, `wb-dir-${process.pid}`);
    symlinkSync(join(secretDir, 'secret.txt'), link);
    symlinkSync(secretDir, dirLink);
    try {
      for (const path of [`/${basename(link)}`, `/${basename(dirLink)}/secret.txt`, '/%2e%2e/package.json', '/..%2fpackage.json']) {
        const r = await raw(s.port, { path });
        expect(r.status, path).toBe(404);
        expect(r.body).not.toContain('outside dist');
      }
    } finally {
      rmSync(link, { force: true });
      rmSync(dirLink, { force: true });
    }
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
    // The workspace's root, where JP runs its servers (RFD 087's root-as-working-directory; issue 34.1).
    expect(plan.servers).toEqual([expect.objectContaining({ name: 'memo', commandLine: `${process.execPath} ${serverBin('memory')}`, cwd: root })]);
    expect(s.stdout()).not.toContain(serverBin('memory'));
    const started = (await page.post(`/bridge/workspaces/${id}/start`, { plan: plan.id })).json<{ servers: { name: string; status: string; serverInfo?: { name: string } }[] }>().servers;
    expect(started).toEqual([expect.objectContaining({ name: 'memo', status: 'running', serverInfo: expect.objectContaining({ name: 'memory-server' }) })]);
    // The terminal says what it knows: which request, with which session's token, confirmed which plan. Never "in the page".
    const how = `POST /bridge/workspaces/${id}/start from session 1`;
    expect(s.stdout()).toContain(`plan ${plan.id} (1 server of ${join(root, '.jp')}) confirmed by ${how}`);
    expect(s.stdout()).toContain(`starting memo (from workspace ${join(root, '.jp')}; plan ${plan.id}, confirmed by ${how}): ${process.execPath} ${serverBin('memory')}  [in ${root}]`);
    expect(s.stdout()).not.toMatch(/confirmed in the page/u);
    // A plan runs once: the same plan again is refused, and nothing more starts.
    const again = await page.post(`/bridge/workspaces/${id}/start`, { plan: plan.id });
    expect(again.status).toBe(400);
    expect(again.json().error).toMatch(/unknown, spent or expired/u);
    // The restart button re-runs the same command, and the terminal names that request too.
    await page.post('/bridge/servers/memo/start');
    expect(s.stdout()).toContain(`starting memo (from workspace ${join(root, '.jp')}; restarted by POST /bridge/servers/memo/start from session 1): `);
    await page.del('/bridge/servers/memo');
  });

  it('lets a plan expire when nobody confirms it in time (--expire), and drops a failed connection then too', async () => {
    const own = await startServe({}, ['--expire', '1']);
    try {
      const client = pageClient(own);
      const root = tempWorkspace(() => `[providers.mcp.memo]\ntype = "stdio"\ncommand = "${process.execPath}"\narguments = ["${serverBin('memory')}"]\n`);
      const id = (await client.post('/bridge/workspaces', { path: root })).json<{ workspace: { id: string } }>().workspace.id;
      const plan = (await client.post(`/bridge/workspaces/${id}/plan`, {})).json<{ plan: { id: string; expiresAt: number } }>().plan;
      expect(plan.expiresAt).toBeGreaterThan(Date.now() - 5000);
      const failed = (await client.post('/bridge/servers', { url: 'http://127.0.0.1:9/mcp', name: 'nowhere' })).json<{ server: { status: string } }>().server;
      expect(failed.status).toBe('failed');
      await new Promise((r) => setTimeout(r, 2500));
      const late = await client.post(`/bridge/workspaces/${id}/start`, { plan: plan.id });
      expect(late.status).toBe(400);
      expect(late.json().error).toMatch(/unknown, spent or expired/u);
      await eventually(async () => ((await client.get('/bridge/servers')).json<{ servers: { name: string }[] }>().servers.length === 0 ? true : undefined), 15_000, 'the failed connection to expire');
      expect(own.stdout()).not.toContain('starting memo');
    } finally {
      own.proc.kill('SIGTERM');
      await own.exited;
    }
  }, 90_000);

  it('with --confirm-in-terminal, asks y/N on the terminal before any process starts: N starts nothing, y starts it', async () => {
    const own = await startServe({}, ['--confirm-in-terminal'], 'pipe');
    try {
      const client = pageClient(own);
      const marker = join(mkdtempSync(join(tmpdir(), 'wb-ask-')), 'started');
      const root = tempWorkspace(() => `[providers.mcp.memo]\ntype = "stdio"\ncommand = "${process.execPath}"\narguments = ["-e", ${JSON.stringify(`require('fs').writeFileSync(${JSON.stringify(marker)}, 'x'); import(${JSON.stringify(serverBin('memory'))})`)}]\n`);
      const id = (await client.post('/bridge/workspaces', { path: root })).json<{ workspace: { id: string } }>().workspace.id;
      const start = async () => {
        const plan = (await client.post(`/bridge/workspaces/${id}/plan`, {})).json<{ plan: { id: string } }>().plan;
        return client.post(`/bridge/workspaces/${id}/start`, { plan: plan.id });
      };
      const no = start();
      await eventually(() => (own.stdout().includes('[y/N]') ? true : undefined), 10_000, 'the question');
      expect(own.stdout()).toMatch(/Start 1 server of .*\?\n {2}memo: .* \[y\/N\]/u);
      own.proc.stdin?.write('n\n');
      const refused = await no;
      expect(refused.status).toBe(403);
      expect(refused.json().error).toMatch(/refused on the bridge terminal/u);
      expect(() => readFileSync(marker)).toThrow();
      const yes = start();
      await eventually(() => (own.stdout().split('[y/N]').length === 3 ? true : undefined), 10_000, 'the second question');
      own.proc.stdin?.write('y\n');
      const ok = await yes;
      expect(ok.json<{ servers: { status: string }[] }>().servers[0]?.status).toBe('running');
      expect(readFileSync(marker, 'utf8')).toBe('x');
      // The question shows the command the user says y to: hidden characters escaped and named there too.
      const spoof = tempWorkspace(() => `[providers.mcp."memo\u202e"]\ntype = "stdio"\ncommand = "sh"\narguments = ["-c", "true \u202e\u2066; touch /tmp/x\u2069 \u2066 # start\u2069\u202c"]\n`);
      const spoofId = (await client.post('/bridge/workspaces', { path: spoof })).json<{ workspace: { id: string } }>().workspace.id;
      const spoofPlan = (await client.post(`/bridge/workspaces/${spoofId}/plan`, {})).json<{ plan: { id: string } }>().plan;
      const asked = client.post(`/bridge/workspaces/${spoofId}/start`, { plan: spoofPlan.id, hiddenConfirmed: true });
      await eventually(() => (own.stdout().split('[y/N]').length === 4 ? true : undefined), 10_000, 'the third question');
      own.proc.stdin?.write('n\n');
      expect((await asked).status).toBe(403);
      const question = own.stdout().split('[y/N]')[2] ?? '';
      expect(question).toContain("memo\\u202E: sh -c 'true \\u202E\\u2066; touch /tmp/x\\u2069 \\u2066 # start\\u2069\\u202C'");
      expect(question).toMatch(/WARNING: hidden characters, shown escaped: memo\\u202E name: U\+202E RIGHT-TO-LEFT OVERRIDE; .*argument 2: U\+202E RIGHT-TO-LEFT OVERRIDE, U\+2066/u);
      expect(own.stdout()).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/u);
    } finally {
      own.proc.kill('SIGTERM');
      await own.exited;
    }
  }, 90_000);
});

describe('secrets', () => {
  it("never shows the password or a credential query parameter of a server's URL", async () => {
    const url = 'http://user:pa55word-secret@127.0.0.1:9/mcp?api_key=qk-secret-0123456789&x=1&token=tq%2Fsecret-987654';
    const r = await page.post('/bridge/servers', { url, name: 'urlsecret' });
    expect(r.json<{ server: { status: string; url: string } }>().server).toMatchObject({ status: 'failed', url: 'http://user:***@127.0.0.1:9/mcp?api_key=***&x=1&token=***' });
    for (const text of [r.body, (await page.get('/bridge/servers')).body, (await page.get('/bridge/servers/urlsecret/log?after=0')).body, s.stdout()]) {
      for (const f of ['pa55word-secret', 'qk-secret-0123456789', 'tq%2Fsecret-987654', 'tq/secret-987654']) expect(text).not.toContain(f);
    }
    await page.del('/bridge/servers/urlsecret');
  });

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
