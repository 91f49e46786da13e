#!/usr/bin/env node
// The conformance protocol (docs/conformance-protocol.md) answered by the wasm package inside
// headless Chromium: this process serves the package and examples/conformance/ops.mjs over local
// HTTP, opens a blank page with playwright-core, and forwards the request lines it has read to the
// page in batches (page.evaluate), writing the page's answers in order.
//
//   ekl conformance -- node tools/cross-surface/chromium_adapter.mjs
//
// EKL_WASM_PACKAGE: the wasm package folder (default wasm/); EKL_CHROMIUM: the browser binary
// (default /usr/bin/chromium). playwright-core is taken from the wasm package's node_modules.
import http from 'node:http';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const wasmDir = path.resolve(process.env.EKL_WASM_PACKAGE || path.join(repo, 'wasm'));
const chromiumPath = process.env.EKL_CHROMIUM || '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const TYPES = { '.mjs': 'text/javascript', '.js': 'text/javascript', '.cjs': 'text/javascript',
  '.wasm': 'application/wasm', '.html': 'text/html', '.json': 'application/json' };

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url, 'http://localhost');
  let file;
  if (url.pathname === '/blank.html') {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><meta charset="utf-8"><title>ekl conformance</title>');
    return;
  } else if (url.pathname === '/ops.mjs' || url.pathname === '/legacy-ops.json') {
    file = path.join(repo, 'examples', 'conformance', url.pathname.slice(1));
  } else if (url.pathname.startsWith('/pkg/')) {
    file = path.join(wasmDir, path.normalize(url.pathname.slice('/pkg/'.length)));
    if (!file.startsWith(wasmDir)) file = null;
  }
  try {
    if (!file) throw new Error('not found');
    const body = await readFile(file);
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream' });
    res.end(body);
  } catch {
    res.writeHead(404);
    res.end();
  }
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const base = `http://127.0.0.1:${server.address().port}`;

const require = createRequire(path.join(wasmDir, 'package.json'));
const { chromium } = require('playwright-core');
const profile = await mkdtemp(path.join(tmpdir(), 'ekl-conformance-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: chromiumPath, headless: true, args: FLAGS,
});
const page = context.pages()[0] || (await context.newPage());
page.on('pageerror', (e) => process.stderr.write(`chromium: ${e}\n`));
await page.goto(`${base}/blank.html`);
const agent = await page.evaluate(async () => {
  const ekl = await import('/pkg/dist/index.web.mjs');
  const { makeAnswer, answerLine } = await import('/ops.mjs');
  const legacy = await (await fetch('/legacy-ops.json')).json();
  const answer = makeAnswer(ekl, { legacy });
  globalThis.eklAnswerLines = (lines) => Promise.all(lines.map((l) => answerLine(answer, l)));
  return navigator.userAgent;
});
process.stderr.write(`chromium adapter: ${agent}\n`);

const queue = [];
let busy = false;
let ended = false;
async function pump() {
  if (busy) return;
  busy = true;
  while (queue.length > 0) {
    const batch = queue.splice(0, 2000);
    const answers = await page.evaluate((lines) => globalThis.eklAnswerLines(lines), batch);
    process.stdout.write(`${answers.join('\n')}\n`);
  }
  busy = false;
  if (ended) await finish();
}
async function finish() {
  await context.close();
  await rm(profile, { recursive: true, force: true });
  server.close();
  process.exit(0);
}
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  if (line.trim() === '') return;
  queue.push(line);
  setImmediate(pump);
});
rl.on('close', () => {
  ended = true;
  if (!busy) finish();
});
