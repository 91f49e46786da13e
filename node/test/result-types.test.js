'use strict'
// The type of the bytes the operations return, per entry, as node/README.md states it ("Buffer or
// Uint8Array", issue 26.4): in Node, `require` and `import` give a Buffer whichever backend is in
// use (the native addon, or the wasm fallback); the wasm build where there is no global `Buffer`
// (a browser) gives a plain Uint8Array. The declared types of each module resolution are checked
// by scripts/typecheck-flows.js (RESULT_TYPES).
const test = require('node:test')
const assert = require('node:assert/strict')
const { spawnSync } = require('node:child_process')

const REPORT = `const b = e.canonicalizeValue({ a: 1 }); console.log(JSON.stringify({ backend: e.backend,
  buffer: Buffer.isBuffer(b), plain: Object.getPrototypeOf(b) === Uint8Array.prototype, text: new TextDecoder().decode(b) }))`

/** Runs `code` in a child Node from this folder (so 'ekl-evidence' resolves as in the tests). */
function probe(code, { esm = false, env = {} } = {}) {
  const args = esm ? ['--input-type=module', '-e', code] : ['-e', code]
  const run = spawnSync(process.execPath, args, { cwd: __dirname, encoding: 'utf8', env: { ...process.env, ...env } })
  assert.equal(run.status, 0, run.stderr)
  return JSON.parse(run.stdout)
}

test('require and import give a Buffer, with either backend', () => {
  for (const backend of ['', 'wasm']) {
    const env = { EKL_CORE_BACKEND: backend }
    const viaRequire = probe(`const e = require('ekl-evidence'); ${REPORT}`, { env })
    const viaImport = probe(`import * as e from 'ekl-evidence'; ${REPORT}`, { esm: true, env })
    for (const r of [viaRequire, viaImport]) {
      assert.equal(r.text, '{"a":1}')
      assert.equal(r.buffer, true, `a Buffer (backend ${r.backend})`)
      if (backend) assert.equal(r.backend, 'wasm')
    }
  }
})

test('the wasm build without a global Buffer (as in a browser) gives a plain Uint8Array', () => {
  // The package's wasm build (its fallback, EKL_CORE_BACKEND=wasm) loaded where no Buffer exists.
  const r = probe(`const Buffer = { isBuffer: () => false }; delete globalThis.Buffer;
    const e = await import('ekl-evidence'); ${REPORT}`, { esm: true, env: { EKL_CORE_BACKEND: 'wasm' } })
  assert.equal(r.text, '{"a":1}')
  assert.equal(r.backend, 'wasm')
  assert.equal(r.plain, true, 'a Uint8Array, not a subclass')
})
