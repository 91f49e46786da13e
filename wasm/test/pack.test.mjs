// The npm package ekl-evidence as a browser and a Node without a native addon get it: the main
// tarball (scripts/npm-pack.sh, no platform package) installed with --offline into a fresh folder;
// require and import in Node (backend wasm: the build inside the package), the declarations a
// bundler resolves, and in headless Chromium the package imported by its name through its
// `browser` entry (an import map to the file package.json's "exports" names; the verify build,
// docs/decisions/packaging.md#browser-entry): the README's quick start as written, then every
// vector file (the lines of vectors/calls.jsonl of its operations), equal to Node's results.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { repo, wasmDir, loadCjs, vectorFiles } from './helpers.mjs';
import { runVectors } from './vectors.mjs';
import { withChromium } from './browser.mjs';
import { serve } from '../scripts/serve.mjs';

const FP = '46839dcf7511e1b9789e56ccbce9a4e7a562adc9aa9b1088337802fec1018a3c';
const SALT = '00112233445566778899aabbccddeeff'.repeat(2);

test('the ekl-evidence tarball installs offline and works in Node (wasm) and Chromium (browser entry)', { timeout: 240_000 }, async (t) => {
  // A folder of this run's own (two runs at once never share it), removed at the end.
  mkdirSync(join(repo, 'target'), { recursive: true });
  const work = mkdtempSync(join(repo, 'target', 'wasm-pack-'));
  t.after(() => rmSync(work, { recursive: true, force: true }));
  const fresh = join(work, 'fresh');
  mkdirSync(fresh, { recursive: true });
  execFileSync('bash', [join(repo, 'scripts', 'npm-pack.sh'), join(work, 'packs')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const version = JSON.parse(readFileSync(join(repo, 'node', 'package.json'), 'utf8')).version;
  const tarball = join(work, 'packs', `ekl-evidence-${version}.tgz`);
  const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').filter(Boolean).map((f) => f.replace(/^package\//, ''));
  console.log(`pack: ${tarball}: ${readFileSync(tarball).length} bytes, ${files.length} files`);
  for (const f of ['index.js', 'index.mjs', 'index.d.ts', 'wasm/index.web.mjs', 'wasm/index.d.mts', 'wasm/binding.cjs',
    'wasm/web/ekl_wasm_bg.wasm', 'wasm/node/ekl_wasm_bg.wasm', 'wasm/esm/convert.mjs', 'README.md', 'LICENSE-APACHE', 'LICENSE-MIT']) {
    assert.ok(files.includes(f), `the tarball holds ${f}`);
  }
  assert.ok(!files.some((f) => /^(test|src|types-test|bench|npm)\//.test(f) || f.endsWith('.node')), 'no tests, sources or addons in the tarball');
  // Each file once: no copy of the JS layer (js/) or of the declarations in wasm/ (npm-pack.sh checks the bytes).
  assert.deepEqual(files.filter((f) => /^wasm\/(cjs\/(api|convert|errors|remote)\.cjs|index\.cjs|index\.node\.mjs)$/.test(f)), []);

  writeFileSync(join(fresh, 'package.json'), '{"name":"fresh","private":true}\n');
  execFileSync('npm', ['install', '--no-package-lock', '--no-audit', '--no-fund', '--offline', '--loglevel=error', tarball], { cwd: fresh, encoding: 'utf8' });
  assert.ok(readdirSync(join(fresh, 'node_modules')).includes('ekl-evidence'));
  const pkg = JSON.parse(readFileSync(join(fresh, 'node_modules', 'ekl-evidence', 'package.json'), 'utf8'));

  // Node, no platform package installed: the bundled wasm build, without an environment variable.
  const code = `{area_ref:'loc:ca:dublin',min_beds:3}`;
  const env = { ...process.env, EKL_CORE_BACKEND: '' };
  const cjs = execFileSync('node', ['-e', `const e=require('ekl-evidence');console.log(e.backend, e.fingerprint('${SALT}',${code}), typeof e.signJws);try{e.canonicalize('[1,]')}catch(x){console.log(x.name,x.code,x instanceof Error)}`], { cwd: fresh, encoding: 'utf8', env });
  // Node's fallback: the full module (signing included).
  assert.equal(cjs, `wasm ${FP} function\nEklError INVALID_JSON true\n`);
  const esm = execFileSync('node', ['--input-type=module', '-e', `import {fingerprint, EklError, backend} from 'ekl-evidence';import d from 'ekl-evidence';console.log(backend, fingerprint('${SALT}',${code}), typeof EklError, d.fingerprint===fingerprint)`], { cwd: fresh, encoding: 'utf8', env });
  assert.equal(esm, `wasm ${FP} function true\n`);

  // TypeScript as a bundler resolves the package (the browser declarations: Uint8Array, no Buffer).
  writeFileSync(join(fresh, 'use.ts'), `import { fingerprint, canonicalize, isEklError, errorCodes, type EklErrorCode, JsonText } from 'ekl-evidence';
const fp: string = fingerprint('${SALT}', { a: [1, 'x', null] });
const bytes: Uint8Array = canonicalize(new JsonText('[1]'));
const codes: readonly EklErrorCode[] = errorCodes();
try { canonicalize('x'); } catch (e) { if (isEklError(e)) { const c: EklErrorCode = e.code; console.log(c, fp, bytes, codes); } }
`);
  execFileSync(join(wasmDir, 'node_modules', '.bin', 'tsc'), ['--noEmit', '--strict', '--module', 'esnext',
    '--moduleResolution', 'bundler', '--customConditions', 'browser', '--target', 'es2022', 'use.ts'], { cwd: fresh, encoding: 'utf8' });

  // Chromium: the README's quick start page, as written (its import map names the browser entry).
  const entry = pkg.exports['.'].browser.default;
  const readme = readFileSync(join(wasmDir, 'README.md'), 'utf8');
  const html = /```html\n([\s\S]*?)```/.exec(readme)[1];
  assert.ok(html.includes(`./node_modules/ekl-evidence/${entry.replace(/^\.\//, '')}`), `the README's import map names the browser entry ${entry}`);
  const promised = [...html.matchAll(/\/\/ (\S+)\s*$/gm)].map((m) => m[1]);
  writeFileSync(join(fresh, 'index.html'), `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">\n${html}`);
  const names = vectorFiles().map((f) => f.name);
  const node = runVectors(loadCjs(), vectorFiles());
  const server = await serve({ root: repo, port: 0 });
  try {
    await withChromium(async (page, _c, errors) => {
      const logs = [];
      page.on('console', (m) => { if (m.type() === 'log') logs.push(m.text()); });
      await page.goto(`${server.url}${relative(repo, fresh).split(sep).join('/')}/index.html`);
      for (let i = 0; i < 50 && logs.length < promised.length; i++) await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(logs, promised, 'the README quick start prints what its comments say');
      // The same page, the package by its name (the import map), every vector file.
      const got = await page.evaluate(async ([salt, names]) => {
        const e = await import('ekl-evidence');
        const { runVectors } = await import('/wasm/test/vectors.mjs');
        let code = null;
        try { e.canonicalize('{"a":1,"a":2}'); } catch (x) { code = `${x.name} ${x.code} ${x instanceof Error}`; }
        const files = await Promise.all(names.map(async (name) => ({ name, text: await (await fetch(`/vectors/${name}`)).text() })));
        const r = runVectors(e, files);
        // vectors/calls.jsonl, dispatched generically (the conformance adapter's ops.mjs).
        const { makeAnswer } = await import('/examples/conformance/ops.mjs');
        const { runVectorCalls } = await import('/examples/conformance/vector-calls.mjs');
        const legacy = await (await fetch('/examples/conformance/legacy-ops.json')).json();
        const texts = Object.fromEntries(files.map((f) => [f.name, f.text]));
        // The browser entry is the verify build: the lines of its operations.
        const has = new Set(e.operations().map((op) => op.name));
        const lines = texts['calls.jsonl'].split('\n').filter((l) => l && (JSON.parse(l).request.op !== 'call' || has.has(JSON.parse(l).request.name)));
        const calls = runVectorCalls(makeAnswer(e, { legacy }), lines.join('\n'), (n) => texts[n], { sha256: (x) => e.sha256Hex(x) });
        return {
          verifyBuild: !('signJws' in e) && typeof e.verifyReceiptJws === 'function',
          fp: e.fingerprint(salt, { area_ref: 'loc:ca:dublin', min_beds: 3 }), code, backend: e.backend,
          records: r.records.map(({ file, case: kase, result }) => ({ file, case: kase, result })), failures: r.failures, unknown: r.unknown,
          calls: calls.length, callFailures: calls.filter((c) => !c.pass || c.tamperedPasses),
        };
      }, [SALT, names]);
      assert.deepEqual([got.fp, got.code, got.backend, got.verifyBuild], [FP, 'EklError DUPLICATE_KEY true', 'wasm', true]);
      assert.deepEqual(got.unknown, []);
      assert.deepEqual(got.failures, []);
      assert.ok(got.calls > 0, 'no line of vectors/calls.jsonl ran');
      assert.deepEqual(got.callFailures, []);
      assert.deepEqual(got.records, node.records.map(({ file, case: kase, result }) => ({ file, case: kase, result })));
      console.log(`chromium: ${got.calls} lines of vectors/calls.jsonl and the number file through the browser entry of the installed package`);
      assert.deepEqual(errors, []);
    });
  } finally {
    server.close();
  }
});
