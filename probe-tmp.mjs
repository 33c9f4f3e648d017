import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import http from 'node:http';
async function tryUrl(url, timeout=3000) {
  const client = new Client({ name: 'probe', version: '0' });
  const t0 = Date.now();
  try {
    const ac = new AbortController();
    const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { signal: ac.signal } });
    await client.connect(transport, { timeout });
    const r = await client.listTools(undefined, { timeout });
    console.log(url, 'ok', r.tools.length, r.nextCursor, r.tools.map(t=>t.name).join(','), client.getServerVersion());
    await client.close();
  } catch (e) { console.log(url, 'ERR', Date.now()-t0, e?.constructor?.name, e?.code, String(e?.message).slice(0,300), e?.cause?.code); }
}
const html = http.createServer((q,s)=>{s.writeHead(200,{'content-type':'text/html','access-control-allow-origin':'*'}); s.end('<html><body>hi</body></html>')}).listen(3392);
const hang = http.createServer((q,s)=>{}).listen(3393);
await tryUrl('http://127.0.0.1:3391/mcp');
await tryUrl('http://127.0.0.1:3392/mcp');
await tryUrl('http://127.0.0.1:3393/mcp', 1500);
await tryUrl('http://127.0.0.1:3399/mcp');
html.close(); hang.close(); process.exit(0);
