'use strict'
// The fallback hook of index.js (issue 6): when the native addon cannot be used, the package loads
// ./wasm/binding.cjs, a module with the low-level interface of js/api.js. Simulated here with a
// binding over the addon that behaves as a wasm build does (Uint8Array results, errors whose message is
// "CODE: message" without a `code` property, no async variant), in a copy of the package.
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFileSync } = require('node:child_process')
const { PKG_DIR } = require('./helpers.js')

const FAKE_WASM_BINDING = `'use strict'
const native = require('../native.js')
const out = new Uint8Array(1 << 20)
const bytes = (t) => (typeof t === 'string' ? new TextEncoder().encode(t) : t)
// Errors as wasm-bindgen gives them: a plain Error whose message starts with the code.
const wasmish = (f) => (...args) => {
  try {
    return f(...args)
  } catch (e) {
    throw new Error(e.code && /^[A-Z_]+$/.test(e.code) ? e.code + ': ' + e.message : e.message)
  }
}
module.exports = {
  errorCodes: native.errorCodes,
  coreVersion: native.coreVersion,
  canonicalize: wasmish((json, maxBytes) => {
    const n = native.canonicalizeInto(bytes(json), maxBytes, out, 0)
    return n < 0 ? new Uint8Array(native.takeResult()) : out.slice(0, n)
  }),
  operations: native.operations,
  // Every operation through the one generic call; bytes as Uint8Array, as wasm-bindgen has them.
  call: wasmish((i, args) => {
    const r = native.call(i, args)
    return Buffer.isBuffer(r) ? new Uint8Array(r) : r
  }),
}
`

const CHECK = `
const ekl = require('./index.js')
const assert = require('node:assert/strict')
;(async () => {
  assert.equal(ekl.backend, process.env.EXPECT_BACKEND)
  const out = ekl.canonicalizeValue({ b: 1, a: [1e21] })
  assert.equal(Buffer.from(out).toString(), '{"a":[1e+21],"b":1}')
  try { ekl.canonicalize('{"a":1,"a":2}'); assert.fail('accepted') } catch (e) {
    assert.ok(ekl.isEklError(e)); assert.equal(e.code, 'DUPLICATE_KEY'); assert.equal(e.message, 'DUPLICATE_KEY: duplicate key in an object')
  }
  try { ekl.challengeProofV2('AB', 'c', 'e'); assert.fail('accepted') } catch (e) { assert.equal(e.code, 'INVALID_HEX') }
  assert.equal(Buffer.from(await ekl.canonicalizeAsync('[2,1]')).toString(), '[2,1]')
  await assert.rejects(ekl.canonicalizeAsync('[NaN]'), { name: 'EklError', code: 'NON_FINITE_NUMBER' })
  console.log('ok ' + ekl.backend)
})().catch((e) => { console.error(e); process.exit(1) })
`

function packageCopy(withWasm) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ekl-fallback-'))
  for (const f of fs.readdirSync(PKG_DIR)) {
    if (/^(index\.js|native\.js|package\.json)$/.test(f) || f.endsWith('.node')) fs.copyFileSync(path.join(PKG_DIR, f), path.join(dir, f))
  }
  // Installed from the tarballs, the addon is in the platform package next to the main one.
  const modules = path.dirname(PKG_DIR)
  for (const d of fs.readdirSync(modules).filter((d) => d.startsWith('ekl-evidence-'))) {
    for (const f of fs.readdirSync(path.join(modules, d)).filter((f) => f.endsWith('.node'))) fs.copyFileSync(path.join(modules, d, f), path.join(dir, f))
  }
  fs.cpSync(path.join(PKG_DIR, 'js'), path.join(dir, 'js'), { recursive: true })
  if (withWasm) {
    fs.mkdirSync(path.join(dir, 'wasm'))
    fs.writeFileSync(path.join(dir, 'wasm', 'binding.cjs'), FAKE_WASM_BINDING)
  }
  fs.writeFileSync(path.join(dir, 'check.js'), CHECK)
  return dir
}

const run = (dir, env) =>
  execFileSync(process.execPath, ['check.js'], { cwd: dir, env: { ...process.env, ...env }, encoding: 'utf8', stdio: 'pipe' }).trim()

test('EKL_CORE_BACKEND=wasm loads ./wasm/binding.cjs and the shared API works over it', () => {
  const dir = packageCopy(true)
  try {
    assert.equal(run(dir, { EKL_CORE_BACKEND: 'wasm', EXPECT_BACKEND: 'wasm' }), 'ok wasm')
    assert.equal(run(dir, { EKL_CORE_BACKEND: '', EXPECT_BACKEND: 'native' }), 'ok native')
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('without the native addon the package falls back to ./wasm/binding.cjs; without both it throws the load error', () => {
  const dir = packageCopy(true)
  try {
    const addon = fs.readdirSync(dir).find((f) => f.endsWith('.node'))
    fs.renameSync(path.join(dir, addon), path.join(dir, addon + '.away'))
    // The fake binding itself needs the addon: point it at the moved file.
    fs.writeFileSync(
      path.join(dir, 'wasm', 'binding.cjs'),
      FAKE_WASM_BINDING.replace("require('../native.js')", `require(${JSON.stringify(path.join(dir, addon + '.away'))})`).replace(
        "'use strict'",
        "'use strict'\nrequire.extensions['.away'] = require.extensions['.node']",
      ),
    )
    assert.equal(run(dir, { EKL_CORE_BACKEND: '', EXPECT_BACKEND: 'wasm' }), 'ok wasm')
    fs.rmSync(path.join(dir, 'wasm'), { recursive: true })
    assert.throws(() => run(dir, { EKL_CORE_BACKEND: '', EXPECT_BACKEND: 'native' }), /^Error: ekl-evidence: cannot load on .*: the native addon .* is not installed .*, and the bundled WebAssembly build failed too \(/m)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
