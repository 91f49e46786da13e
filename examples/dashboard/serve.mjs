// The dashboard's static server: wasm/scripts/serve.mjs (node:http, no dependencies) with the
// dashboard's policy. It has no logic of its own: the page works the same from any static host.
// The policy goes out as a header too: the <meta> in index.html covers the page, a header also
// covers its Web Workers, which do not inherit the page's policy.
//   node examples/dashboard/serve.mjs [--root DIR] [--port N] [--host H]
// (defaults: this folder, port 8787, 127.0.0.1; port 0 picks a free one). Prints the URL.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve as serveStatic } from '../../wasm/scripts/serve.mjs';

/** The dashboard's policy: its own files only, no inline script, WebAssembly compilation allowed. */
export const CSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'; "
  + "style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; object-src 'none'; frame-ancestors 'none'";

/** Serves `root` (default: this folder) as wasm/scripts/serve.mjs does. */
export function serve({ root = dirname(fileURLToPath(import.meta.url)), ...options } = {}) {
  return serveStatic({ root, ...options });
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
