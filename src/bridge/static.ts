// The built app (dist/), served on the bridge's own origin: only regular files
// whose real path (symlinks resolved) stays inside the folder, with their types,
// never a listing. A symlink in dist/ to anything outside it is not followed.
import { createReadStream, realpathSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.toml': 'text/plain; charset=utf-8',
};

export function serveStatic(dist: string, urlPath: string, res: ServerResponse, head: boolean): void {
  let path: string;
  try {
    path = decodeURIComponent(urlPath);
  } catch {
    res.writeHead(400).end('bad path');
    return;
  }
  if (path.endsWith('/')) path += 'index.html';
  const file = normalize(join(dist, path));
  if (!file.startsWith(dist + sep) || path.includes('\0')) {
    res.writeHead(404).end('not found');
    return;
  }
  let real: string;
  let root: string;
  try {
    real = realpathSync(file);
    root = realpathSync(dist);
  } catch {
    real = '';
    root = dist;
  }
  const stat = real.startsWith(root + sep) ? statSync(real, { throwIfNoEntry: false }) : undefined;
  if (!stat?.isFile()) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found');
    return;
  }
  const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
  // Hashed assets never change; index.html must be fetched again after a rebuild.
  const cache = /\/assets\//u.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache';
  res.writeHead(200, { 'content-type': type, 'content-length': stat.size, 'cache-control': cache });
  if (head) res.end();
  else createReadStream(real).pipe(res);
}
