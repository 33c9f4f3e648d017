// The provider reply cap (issue 33 §3, src/bridge/models.ts MAX_REPLY_BYTES): a provider (or a proxy)
// answering 400 MB took the bridge to 1.3 GB, since a reply was read whole, parsed, masked and recorded.
// This serves a 400 MB reply from loopback, once with a Content-Length and once streamed (chunked, no
// length), and prints how long sendToModel takes to give up and how far the process's memory rose. A
// small reply is timed beside it, so the cap is seen to cost an ordinary reply nothing. Figures only.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { MAX_REPLY_BYTES, ModelKeys, sendToModel } from '../src/bridge/models';
import { Masker } from '../src/bridge/secrets';

const REPLY_BYTES = 400 * 1024 * 1024;
const CHUNK = Buffer.alloc(1024 * 1024, 'x');
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;

function serve(withLength: boolean): Promise<{ server: Server; url: string }> {
  const small = JSON.stringify({ content: [{ type: 'text', text: 'ok' }], usage: { input_tokens: 1, output_tokens: 1 } });
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url?.startsWith('/small')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(small);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', ...(withLength ? { 'content-length': String(REPLY_BYTES) } : {}) });
      let sent = 0;
      const pump = (): void => {
        while (sent < REPLY_BYTES) {
          sent += CHUNK.length;
          if (!res.write(CHUNK)) {
            res.once('drain', pump);
            return;
          }
        }
        res.end();
      };
      res.on('close', () => {
        sent = REPLY_BYTES;
      });
      pump();
    });
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` })));
}

async function once(withLength: boolean): Promise<void> {
  const { server, url } = await serve(withLength);
  const masker = new Masker();
  const big = new ModelKeys({ ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: 'sk-bench-0123456789' }, masker);
  const small = new ModelKeys({ ANTHROPIC_BASE_URL: `${url}/small`, ANTHROPIC_API_KEY: 'sk-bench-0123456789' }, masker);
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  let t = performance.now();
  const sent = await sendToModel('anthropic', 'm', { messages: [] }, big, masker);
  const took = performance.now() - t;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log(`  a ${mb(REPLY_BYTES)} reply ${withLength ? 'with a Content-Length' : 'streamed, no length'}: refused in ${took.toFixed(0)} ms, memory rose ${mb(peak - before)} (cap ${mb(MAX_REPLY_BYTES)}): ${sent.error?.slice(0, 60) ?? 'NOT REFUSED'}…`);
  t = performance.now();
  const n = 200;
  for (let i = 0; i < n; i++) await sendToModel('anthropic', 'm', { messages: [] }, small, masker);
  console.log(`  an ordinary reply through the same path: ${((performance.now() - t) / n).toFixed(2)} ms each (${n} requests)`);
  server.closeAllConnections();
  server.close();
}

export async function run(): Promise<void> {
  await once(true);
  await once(false);
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
