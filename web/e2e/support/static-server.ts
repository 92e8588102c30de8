import { createReadStream, existsSync, statSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.map': 'application/json',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/**
 * Serves a Vite build like a production host: files as they are, any other path as index.html (the single-page
 * app routes it). Bound to the loopback interface only.
 */
export async function serveSpa(root: string, port: number): Promise<Server> {
  const base = resolve(root);
  const server = createServer((req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://static.invalid');
    const candidate = normalize(join(base, decodeURIComponent(pathname)));
    const inside = candidate === base || candidate.startsWith(base + sep);
    const file = inside && existsSync(candidate) && statSync(candidate).isFile() ? candidate : join(base, 'index.html');
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', done);
  });
  return server;
}
