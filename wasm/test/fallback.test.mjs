// The Node package's automatic fallback (docs/decisions.md#packaging): a copy of node/ without its
// native addon, with the wasm build it bundles (node/wasm/, written by wasm/scripts/build.sh),
// loads the wasm build without an environment variable, says so in `backend`, and gives the same
// answers and error identity. Skipped until node/index.js exists.
import test from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { repo, operations } from './helpers.mjs';

const nodePkg = join(repo, 'node');
test('the Node package falls back to the wasm binding when its addon cannot load', { skip: !existsSync(join(nodePkg, 'index.js')) && 'no node/index.js on this branch yet' }, (t) => {
  // A folder of this run's own (two runs at once never share it), removed at the end.
  mkdirSync(join(repo, 'target'), { recursive: true });
  const work = mkdtempSync(join(repo, 'target', 'wasm-fallback-'));
  t.after(() => rmSync(work, { recursive: true, force: true }));
  const copy = join(work, 'node');
  cpSync(nodePkg, copy, { recursive: true, filter: (src) => !src.endsWith('.node') && !src.includes('node_modules') && !src.includes(`${join(nodePkg, 'target')}`) });
  assert.ok(existsSync(join(copy, 'wasm', 'binding.cjs')), 'node/wasm/ holds the bundled build');
  const out = execFileSync('node', ['-e', `
    const e = require('./index.js');
    let err; try { e.canonicalize('{"a":1,"a":2}'); } catch (x) { err = [x.name, x.code, e.isEklError(x)]; }
    console.log(JSON.stringify([e.backend, e.fingerprint('${'00112233445566778899aabbccddeeff'.repeat(2)}', { area_ref: 'loc:ca:dublin', min_beds: 3 }), err, e.operations().length, typeof e.signJws]));
  `], { cwd: copy, encoding: 'utf8', env: { ...process.env, EKL_CORE_BACKEND: '' } });
  // The full module (every operation, signing included), not the browser entry's verify build.
  assert.deepEqual(JSON.parse(out), ['wasm', '46839dcf7511e1b9789e56ccbce9a4e7a562adc9aa9b1088337802fec1018a3c', ['EklError', 'DUPLICATE_KEY', true], operations().length, 'function']);
});
