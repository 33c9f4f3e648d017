// OAuth through the bridge (issue 34.6), against a real `serve` and an authorization server and MCP
// server written for these tests (one loopback port): the authorization waits for the user (the view
// names the authorization server and the URL to open), the callback route needs no bridge token and
// does something only for a state the bridge issued, once; the token reaches no reply, log or
// terminal line, even when the server echoes it.
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogEntry, ServerView } from '../bridge-protocol';
import { OAUTH_CALLBACK_PATH, OAuthStates } from './oauth';
import type { OAuthAnswer } from './oauth';
import { endsItsProcesses, eventually, raw, serveForFile } from './testServe';
import type { PageClient, Running } from './testServe';

endsItsProcesses();

interface Guarded {
  readonly origin: string;
  readonly url: string;
  /** Every access and refresh token it issued. */
  readonly issued: string[];
  /** The paths it was asked, in order. */
  readonly seen: string[];
  close(): Promise<void>;
}

const b64url = (b: Buffer) => b.toString('base64url');

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) body += (chunk as Buffer).toString();
  return new URLSearchParams(body);
}

/**
 * An MCP server that wants authorization, with its own authorization server: protected resource
 * metadata, authorization server metadata, dynamic client registration, an authorization endpoint
 * that approves at once, a token endpoint that checks PKCE (S256). Its tool `whoami` echoes the
 * bearer token it got, raw and in base64: a server that leaks what it is given.
 */
async function guardedServer(): Promise<Guarded> {
  const issued: string[] = [];
  const seen: string[] = [];
  const codes = new Map<string, { challenge: string; redirect: string; scope: string }>();
  /** The scopes each access token was granted. */
  const scopes = new Map<string, string[]>();
  let origin = '';
  const json = (res: ServerResponse, status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', origin);
    seen.push(url.pathname);
    if (url.pathname === '/.well-known/oauth-protected-resource/mcp') return json(res, 200, { resource: `${origin}/mcp`, authorization_servers: [origin], scopes_supported: ['tools'] });
    if (url.pathname === '/.well-known/oauth-authorization-server') {
      return json(res, 200, {
        issuer: origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        registration_endpoint: `${origin}/register`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_post'],
      });
    }
    if (url.pathname === '/register' && req.method === 'POST') {
      let body = '';
      for await (const chunk of req) body += (chunk as Buffer).toString();
      const metadata = JSON.parse(body) as Record<string, unknown>;
      return json(res, 201, { ...metadata, client_id: `client-${b64url(randomBytes(6))}`, client_secret: `secret-${b64url(randomBytes(18))}`, token_endpoint_auth_method: 'client_secret_post' });
    }
    if (url.pathname === '/authorize') {
      const code = `code-${b64url(randomBytes(18))}`;
      const redirect = url.searchParams.get('redirect_uri') ?? '';
      codes.set(code, { challenge: url.searchParams.get('code_challenge') ?? '', redirect, scope: url.searchParams.get('scope') ?? '' });
      const back = new URL(redirect);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.href }).end();
      return;
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      const form = await readForm(req);
      const grant = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      if (!grant || b64url(createHash('sha256').update(verifier).digest()) !== grant.challenge || form.get('redirect_uri') !== grant.redirect) return json(res, 400, { error: 'invalid_grant' });
      const access = `at-${b64url(randomBytes(24))}`;
      const refresh = `rt-${b64url(randomBytes(24))}`;
      issued.push(access, refresh);
      scopes.set(access, grant.scope.split(' '));
      return json(res, 200, { access_token: access, token_type: 'Bearer', expires_in: 3600, refresh_token: refresh });
    }
    if (url.pathname === '/mcp') {
      const bearer = (req.headers.authorization ?? '').replace(/^Bearer /u, '');
      if (!issued.includes(bearer)) {
        res.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`, 'content-type': 'application/json' }).end('{"error":"invalid_token"}');
        return;
      }
      let body = '';
      for await (const chunk of req) body += (chunk as Buffer).toString();
      const message = body === '' ? undefined : (JSON.parse(body) as { method?: string; params?: { name?: string } });
      // `admin` wants the scope `admin` too: a step-up (MCP 2025-11-25, authorization, scope challenge).
      if (message?.method === 'tools/call' && message.params?.name === 'admin' && !(scopes.get(bearer) ?? []).includes('admin')) {
        res.writeHead(403, { 'www-authenticate': `Bearer error="insufficient_scope", scope="tools admin", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`, 'content-type': 'application/json' }).end('{"error":"insufficient_scope"}');
        return;
      }
      const server = new Server({ name: 'guarded', version: '1.0.0' }, { capabilities: { tools: {} } });
      server.setRequestHandler(ListToolsRequestSchema, () => ({
        tools: [
          { name: 'whoami', description: 'Says which token it was given', inputSchema: { type: 'object' } },
          { name: 'admin', description: 'Wants the admin scope', inputSchema: { type: 'object' } },
        ],
      }));
      server.setRequestHandler(CallToolRequestSchema, (r) => ({ content: [{ type: 'text', text: r.params.name === 'admin' ? 'admin done' : `you sent ${bearer}; in base64 ${Buffer.from(bearer).toString('base64')}` }] }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      await server.connect(transport);
      await transport.handleRequest(req, res, message);
      return;
    }
    json(res, 404, { error: 'not_found' });
  };
  const http: HttpServer = createServer((req, res) => void handle(req, res));
  const port = await new Promise<number>((ok) => http.listen(0, '127.0.0.1', () => ok((http.address() as { port: number }).port)));
  origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: `${origin}/mcp`,
    issued,
    seen,
    close: () =>
      new Promise<void>((ok) => {
        http.closeAllConnections();
        http.close(() => ok());
      }),
  };
}

describe('OAuthStates: the callback acts only on a state the bridge issued, once', () => {
  const outcome = { status: 200, title: 'ok', text: 'ok' };

  it('hands the answer to what issued the state, once; an unknown, spent, forgotten or expired state is refused', async () => {
    let now = 1000;
    const states = new OAuthStates(60_000, () => now);
    const got: OAuthAnswer[] = [];
    const owner = {};
    const state = states.issue(owner, 'remote', async (a) => {
      got.push(a);
      return outcome;
    });
    expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/u);
    const q = (s: string, extra = 'code=abc') => new URLSearchParams(`${extra}&state=${encodeURIComponent(s)}`);
    expect((await states.answer(q(`${state}x`))).status).toBe(403);
    expect((await states.answer(new URLSearchParams('code=abc'))).status).toBe(403);
    expect(got).toEqual([]);
    expect(await states.answer(q(state))).toEqual(outcome);
    expect(got).toEqual([{ code: 'abc' }]);
    expect((await states.answer(q(state))).status).toBe(403);
    expect(got).toHaveLength(1);

    const refused = states.issue(owner, 'remote', async (a) => {
      got.push(a);
      return outcome;
    });
    await states.answer(q(refused, 'error=access_denied&error_description=no%20thanks'));
    expect(got[1]).toEqual({ error: 'access_denied', errorDescription: 'no thanks' });

    const forgotten = states.issue(owner, 'remote', async () => outcome);
    const kept = states.issue({}, 'other', async () => outcome);
    states.forget(owner);
    expect((await states.answer(q(forgotten))).status).toBe(403);
    now += 60_000;
    expect((await states.answer(q(kept))).status).toBe(403);
    expect(states.size).toBe(0);
  });
});

describe('an HTTP server that wants authorization, through a real serve', () => {
  let s: Running;
  let page: PageClient;
  let guarded: Guarded;
  serveForFile({}, (running, client) => {
    s = running;
    page = client;
  });
  beforeAll(async () => {
    guarded = await guardedServer();
  });
  afterAll(async () => {
    await guarded.close();
  });

  const callback = (query: string, headers: { token?: string; host?: string; origin?: string } = {}) =>
    raw(s.port, { path: `${OAUTH_CALLBACK_PATH}?${query}`, ...(headers.token !== undefined ? { token: headers.token } : {}), ...(headers.host !== undefined ? { host: headers.host } : {}), ...(headers.origin !== undefined ? { origin: headers.origin } : {}) });

  it('waits for the user, takes the callback without a bridge token for its own state only, once, and never shows the token', async () => {
    const connected = await page.post('/bridge/servers', { url: guarded.url });
    expect(connected.status).toBe(200);
    const waiting = connected.json<{ server: ServerView }>().server;
    // Discovery and registration done; nothing opened the authorization page: the page asks the user first.
    expect(waiting.status).toBe('starting');
    expect(waiting.authorization?.authorizationServer).toBe(guarded.origin);
    expect(waiting.authorization?.stepUp).toBe(false);
    expect(waiting.authorization?.scope).toBe('tools');
    expect(guarded.seen).toContain('/register');
    expect(guarded.seen).not.toContain('/authorize');
    const authorizationUrl = new URL(waiting.authorization?.url ?? '');
    expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${guarded.origin}/authorize`);
    expect(authorizationUrl.searchParams.get('redirect_uri')).toBe(`http://127.0.0.1:${s.port}${OAUTH_CALLBACK_PATH}`);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    const state = authorizationUrl.searchParams.get('state') ?? '';
    expect(state).not.toBe('');

    // What no authorization server sent: refused, with or without the page's token, and nothing changes.
    for (const query of [`code=forged&state=${'A'.repeat(43)}`, 'code=forged', `code=forged&state=${state.slice(0, -1)}`]) {
      for (const token of [undefined, s.token]) {
        const r = await callback(query, token !== undefined ? { token } : {});
        expect(r.status, query).toBe(403);
        expect(r.body).toContain('Not an authorization the bridge asked for');
      }
    }
    // The Host check holds for the callback as for every route.
    expect((await callback(`code=x&state=${state}`, { host: `evil.example:${s.port}` })).status).toBe(403);

    // The user agreed and the browser opened the page; the authorization server sends it back.
    const approved = await fetch(authorizationUrl, { redirect: 'manual' });
    const back = new URL(approved.headers.get('location') ?? '');
    expect(back.origin + back.pathname).toBe(`http://127.0.0.1:${s.port}${OAUTH_CALLBACK_PATH}`);
    const code = back.searchParams.get('code') ?? '';
    // A redirect from the authorization server's page: no bridge token, and that page's Origin if any.
    const done = await callback(back.search.slice(1), { origin: guarded.origin });
    expect(done.status).toBe(200);
    expect(done.body).toContain('authorized and connected');
    expect(done.body).not.toContain(code);
    expect(done.body).not.toMatch(/<script/iu);
    // Spent: the same answer again does nothing.
    expect((await callback(back.search.slice(1))).status).toBe(403);

    const view = await eventually(async () => {
      const servers = (await page.get('/bridge/servers')).json<{ servers: ServerView[] }>().servers;
      return servers.find((v) => v.url === guarded.url && v.status === 'running');
    });
    expect(view.name).toBe('guarded');
    expect(view.oauthAuthorized).toBe(true);
    expect(view.authorization).toBeUndefined();

    // The page's session: the server echoes the token it got; the page sees it masked.
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${s.port}${view.endpoint}`), {
      requestInit: { headers: { Authorization: `Bearer ${s.token}`, Origin: `http://127.0.0.1:${s.port}` } },
    });
    const client = new Client({ name: 'test-page', version: '1' });
    await client.connect(transport);
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    await client.close();
    const text = JSON.stringify(result);
    expect(text).toContain('you sent ***; in base64 ***');

    const access = guarded.issued[0] ?? '';
    const refresh = guarded.issued[1] ?? '';
    expect(access).toMatch(/^at-/u);
    const log = (await page.get(`/bridge/servers/${view.name}/log?after=0`)).json<{ entries: LogEntry[] }>().entries;
    const logText = JSON.stringify(log);
    expect(logText).toContain('whoami');
    expect(logText).toContain('***');
    expect(logText).toContain('authorized: the bridge holds a token');
    const everything = [logText, text, JSON.stringify(view), done.body, s.stdout(), s.stderr()].join('\n');
    for (const secret of [access, refresh, code, Buffer.from(access).toString('base64')]) expect(everything).not.toContain(secret);
    // The URL's state is the callback's credential: the terminal and the log name the authorization server only.
    expect(s.stdout()).toContain(`: wants authorization at ${guarded.origin} (scope tools); the page asks you to open it`);
    expect(s.stdout()).toContain(`: authorized at ${guarded.origin} (the token stays in the bridge's memory); connecting again`);
    expect([logText, s.stdout()].join('\n')).not.toContain(state);
  }, 60_000);

  it('a step-up: a call the server refuses for want of scope says so, the view asks again, and the call works once authorized', async () => {
    const connected = (await page.post('/bridge/servers', { url: guarded.url, name: 'stepup' })).json<{ server: ServerView }>().server;
    const first = await fetch(connected.authorization?.url ?? '', { redirect: 'manual' });
    expect((await callback(new URL(first.headers.get('location') ?? '').search.slice(1))).status).toBe(200);
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${s.port}/bridge/servers/stepup/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${s.token}`, Origin: `http://127.0.0.1:${s.port}` } },
    });
    const client = new Client({ name: 'test-page', version: '1' });
    await client.connect(transport);
    try {
      await expect(client.callTool({ name: 'admin', arguments: {} })).rejects.toThrow(`the server wants more authorization (scope tools admin) at ${guarded.origin}: the workbench asks you to open its page; repeat this once authorized`);
      const asking = (await page.get('/bridge/servers')).json<{ servers: ServerView[] }>().servers.find((v) => v.name === 'stepup');
      expect(asking?.status).toBe('running');
      expect(asking?.authorization?.stepUp).toBe(true);
      expect(asking?.authorization?.scope).toBe('tools admin');
      const again = await fetch(asking?.authorization?.url ?? '', { redirect: 'manual' });
      const done = await callback(new URL(again.headers.get('location') ?? '').search.slice(1));
      expect(done.status).toBe(200);
      expect(done.body).toContain('stepup: authorized');
      expect(JSON.stringify(await client.callTool({ name: 'admin', arguments: {} }))).toContain('admin done');
      const after = (await page.get('/bridge/servers')).json<{ servers: ServerView[] }>().servers.find((v) => v.name === 'stepup');
      expect(after?.authorization).toBeUndefined();
    } finally {
      await client.close();
    }
  }, 60_000);

  it('a refusal at the authorization server fails the connection, saying why', async () => {
    const connected = (await page.post('/bridge/servers', { url: guarded.url, name: 'refused' })).json<{ server: ServerView }>().server;
    const state = new URL(connected.authorization?.url ?? '').searchParams.get('state') ?? '';
    const r = await callback(`error=access_denied&error_description=the+user+said+no&state=${state}`);
    expect(r.status).toBe(200);
    expect(r.body).toContain('not authorized');
    const view = (await page.get('/bridge/servers')).json<{ servers: ServerView[] }>().servers.find((v) => v.name === 'refused');
    expect(view?.status).toBe('failed');
    expect(view?.error).toBe('the authorization server did not authorize: access_denied (the user said no)');
  }, 30_000);

  it('a server stopped while it waits forgets its state: the answer that comes later is refused', async () => {
    const connected = (await page.post('/bridge/servers', { url: guarded.url, name: 'stopped' })).json<{ server: ServerView }>().server;
    const approved = await fetch(connected.authorization?.url ?? '', { redirect: 'manual' });
    expect((await page.post('/bridge/servers/stopped/stop')).status).toBe(200);
    const r = await callback(new URL(approved.headers.get('location') ?? '').search.slice(1));
    expect(r.status).toBe(403);
  }, 30_000);
});
