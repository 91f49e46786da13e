// A tiny static file server (node:http, no dependencies) for the dashboard and the browser tests.
// It has no logic of its own: the page works the same from any static host. With `csp` (the
// dashboard passes CSP below) it sends that Content-Security-Policy as a header too: the <meta> in
// index.html covers the page, a header also covers its Web Workers, which do not inherit the page's
// policy. `requests` (an array, when given) records every request, so that the tests can assert
// what the page fetched.
//   node examples/dashboard/serve.mjs [--root DIR] [--port N] [--host H]
// (defaults: this folder, port 8787, 127.0.0.1; port 0 picks a free one). Prints the URL.
import { createServer } from 'node:http';
import { createReadStream, statSync } from 'node:fs';
import { resolve, join, extname, sep, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8', '.cjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json; charset=utf-8',
  '.jsonl': 'application/x-ndjson; charset=utf-8', '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8', '.tsv': 'text/plain; charset=utf-8', '.md': 'text/plain; charset=utf-8',
  '.png': 'image/png', '.svg': 'image/svg+xml',
};

/** The dashboard's policy: its own files only, no inline script, WebAssembly compilation allowed. */
export const CSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'; "
  + "style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; object-src 'none'; frame-ancestors 'none'";

export function serve({ root = dirname(fileURLToPath(import.meta.url)), port = 8787, host = '127.0.0.1', requests = null, csp = null } = {}) {
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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : fallback;
  };
  const root = arg('--root', undefined);
  const server = await serve({ root, port: Number(arg('--port', 8787)), host: arg('--host', '127.0.0.1'), csp: root ? null : CSP });
  console.log(root ? server.url : `${server.url}#sample  (the page with the sample loaded; ${server.url} for your own files)`);
}
