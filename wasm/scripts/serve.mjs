// A tiny static file server (node:http, no dependencies): the wasm package's browser tests serve
// the repository with it, and the receipt dashboard's examples/dashboard/serve.mjs is it with the
// dashboard's policy. With `csp` it sends that Content-Security-Policy header (a <meta> covers a
// page, a header also covers its Web Workers); `requests` (an array, when given) records every
// request, so that tests can assert what a page fetched. Port 0 picks a free port; the returned
// server has `url`.
import { createServer } from 'node:http';
import { createReadStream, statSync } from 'node:fs';
import { resolve, join, extname, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8', '.cjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json; charset=utf-8',
  '.jsonl': 'application/x-ndjson; charset=utf-8', '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8', '.tsv': 'text/plain; charset=utf-8', '.md': 'text/plain; charset=utf-8',
  '.png': 'image/png', '.svg': 'image/svg+xml',
};

export function serve({ root, port = 8787, host = '127.0.0.1', requests = null, csp = null } = {}) {
  const base = resolve(root);
  const server = createServer((req, res) => {
    if (requests) requests.push({ method: req.method, url: req.url });
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      res.writeHead(400).end('bad request');
      return;
    }
    let file = resolve(join(base, path));
    if (file !== base && !file.startsWith(base + sep)) {
      res.writeHead(403).end('forbidden');
      return;
    }
    try {
      if (statSync(file).isDirectory()) file = join(file, 'index.html');
      const st = statSync(file);
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] || 'application/octet-stream',
        'content-length': st.size,
        'cache-control': 'no-store',
        ...(csp ? { 'content-security-policy': csp, 'referrer-policy': 'no-referrer', 'x-content-type-options': 'nosniff' } : {}),
      });
      createReadStream(file).pipe(res);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  return new Promise((ok) => server.listen(port, host, () => {
    server.url = `http://${host}:${server.address().port}/`;
    ok(server);
  }));
}
