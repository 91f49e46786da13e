// `npm pack` of the wasm package installs into a fresh folder and works there: require and import in
// Node, and plain ESM (no bundler) in Chromium, served from the installed node_modules.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repo, wasmDir } from './helpers.mjs';
import { withChromium } from './browser.mjs';
import { serve } from '../../examples/dashboard/serve.mjs';

const FP = '46839dcf7511e1b9789e56ccbce9a4e7a562adc9aa9b1088337802fec1018a3c';
const SALT = '00112233445566778899aabbccddeeff'.repeat(2);

test('npm pack installs into a fresh folder and works in Node and Chromium', { timeout: 180_000 }, async () => {
  const work = join(repo, 'target', 'wasm-pack');
  rmSync(work, { recursive: true, force: true });
  const fresh = join(work, 'fresh');
  mkdirSync(fresh, { recursive: true });
  const npm = (args, cwd) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', work], wasmDir));
  const files = packed[0].files.map((f) => f.path).sort();
  console.log(`pack: ${packed[0].filename}: ${packed[0].size} bytes, ${files.length} files`);
  for (const f of ['dist/index.cjs', 'dist/index.node.mjs', 'dist/index.web.mjs', 'dist/index.d.ts',
    'dist/web/ekl_wasm_bg.wasm', 'dist/node/ekl_wasm_bg.wasm', 'dist/esm/convert.mjs', 'README.md']) {
    assert.ok(files.includes(f), `the tarball holds ${f}`);
  }
  assert.ok(!files.some((f) => f.startsWith('test/') || f.startsWith('src/')), 'no tests or sources in the tarball');
  writeFileSync(join(fresh, 'package.json'), '{"name":"fresh","private":true}\n');
  npm(['install', '--no-package-lock', '--no-audit', '--no-fund', '--offline', join(work, packed[0].filename)], fresh);
  assert.ok(readdirSync(join(fresh, 'node_modules')).includes('ekl-wasm'));

  const code = `{area_ref:'loc:ca:dublin',min_beds:3}`;
  const cjs = execFileSync('node', ['-e', `const e=require('ekl-wasm');console.log(e.fingerprint('${SALT}',${code}));try{e.canonicalize('[1,]')}catch(x){console.log(x.name,x.code,x instanceof Error)}`], { cwd: fresh, encoding: 'utf8' });
  assert.equal(cjs, `${FP}\nEklError INVALID_JSON true\n`);
  const esm = execFileSync('node', ['--input-type=module', '-e', `import {fingerprint, EklError} from 'ekl-wasm';import d from 'ekl-wasm';console.log(fingerprint('${SALT}',${code}), typeof EklError, d.fingerprint===fingerprint)`], { cwd: fresh, encoding: 'utf8' });
  assert.equal(esm, `${FP} function true\n`);
  // TypeScript: the declarations the package ships type-check a use of the whole API.
  writeFileSync(join(fresh, 'use.ts'), `import { fingerprint, canonicalize, isEklError, errorCodes, type EklErrorCode, JsonText } from 'ekl-wasm';
const fp: string = fingerprint('${SALT}', { a: [1, 'x', null] });
const bytes: Uint8Array = canonicalize(new JsonText('[1]'));
const codes: readonly EklErrorCode[] = errorCodes();
try { canonicalize('x'); } catch (e) { if (isEklError(e)) { const c: EklErrorCode = e.code; console.log(c, fp, bytes, codes); } }
`);
  execFileSync(join(wasmDir, 'node_modules', '.bin', 'tsc'), ['--noEmit', '--strict', '--module', 'nodenext',
    '--moduleResolution', 'nodenext', '--target', 'es2022', 'use.ts'], { cwd: fresh, encoding: 'utf8' });

  // The page is the README's browser quick start, as written; its console output must be what the
  // README's comments say.
  const readme = readFileSync(join(wasmDir, 'README.md'), 'utf8');
  const html = /```html\n([\s\S]*?)```/.exec(readme)[1];
  const promised = [...html.matchAll(/\/\/ (\S+)\s*$/gm)].map((m) => m[1]);
  writeFileSync(join(fresh, 'index.html'), `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">\n${html}`);
  const server = await serve({ root: fresh, port: 0 });
  try {
    await withChromium(async (page, _c, errors) => {
      const logs = [];
      page.on('console', (m) => { if (m.type() === 'log') logs.push(m.text()); });
      await page.goto(server.url);
      await page.waitForFunction(() => true);
      for (let i = 0; i < 50 && logs.length < promised.length; i++) await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(logs, promised, 'the README quick start prints what its comments say');
      const got = await page.evaluate(async ([salt]) => {
        const e = await import('/node_modules/ekl-wasm/dist/index.web.mjs');
        let code = null;
        try { e.canonicalize('{"a":1,"a":2}'); } catch (x) { code = `${x.name} ${x.code} ${x instanceof Error}`; }
        return [e.fingerprint(salt, { area_ref: 'loc:ca:dublin', min_beds: 3 }), code];
      }, [SALT]);
      assert.deepEqual(got, [FP, 'EklError DUPLICATE_KEY true']);
      assert.deepEqual(errors, []);
    });
  } finally {
    server.close();
  }
});
