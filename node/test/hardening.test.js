'use strict'
// Hardening of the Node package (native addon): the cases shared with the wasm package in Node and
// in Chromium (hardening-cases.mjs), and those that need Node (hardening-node.mjs): shared memory
// written by another thread, what a signing key shows to inspection, panics. The resource bounds,
// with peak memory, are in bounds.test.js.
const test = require('node:test')
const assert = require('node:assert/strict')
const path = require('node:path')
const { ekl, PKG_DIR } = require('./helpers.js')

test('the shared hardening cases: accessors, Proxies, undefined members, bounds, deep JWS claims, keys, panics', async () => {
  const { hardeningProblems, hardeningCases } = await import('./hardening-cases.mjs')
  assert.ok(hardeningCases(ekl).length >= 40)
  assert.deepEqual(hardeningProblems(ekl), [])
})

test('a Uint8Array over a SharedArrayBuffer that a worker keeps writing: valid output or a code, never a panic', async () => {
  const { sharedMemoryRace } = await import('./hardening-node.mjs')
  const { problems, seen, writes } = await sharedMemoryRace(ekl)
  assert.deepEqual(problems, [])
  assert.ok(seen.ok + seen.refused > 1000, JSON.stringify(seen))
  assert.ok(writes > 0, 'the worker wrote while the calls ran')
})

test("the addon's raw exports read a copy of a SharedArrayBuffer view that a worker keeps writing: no output that is not UTF-8", async (t) => {
  if (ekl.backend !== 'native') return t.skip('the wasm backend has no raw exports')
  const { rawSharedMemoryRace } = await import('./hardening-node.mjs')
  const native = require(path.join(PKG_DIR, 'native.js'))
  const { problems, seen, writes } = await rawSharedMemoryRace(native, { rounds: 3000 })
  assert.deepEqual(problems, [])
  assert.ok(seen.ok + seen.refused >= 9000, JSON.stringify(seen))
  assert.ok(writes > 0, 'the worker wrote while the calls ran')
})

test('a view of a SharedArrayBuffer is read as a copy: the same answers as an ordinary view', () => {
  const text = Buffer.from('{"b":[1,2.50,"é"],"a":null}')
  const shared = new Uint8Array(new SharedArrayBuffer(text.length + 4), 2, text.length)
  shared.set(text)
  assert.equal(ekl.canonicalize(shared).toString(), '{"a":null,"b":[1,2.5,"é"]}')
  assert.equal(ekl.sha256Hex(shared), ekl.sha256Hex(text))
  assert.equal(ekl.fingerprint('00'.repeat(32), new ekl.JsonText(shared)), ekl.fingerprint('00'.repeat(32), new ekl.JsonText(text)))
  assert.deepEqual(ekl.inputCommitment(new ekl.JsonText(shared)), ekl.inputCommitment(new ekl.JsonText(text)))
})

test('a signing key shows no seed to util.inspect (showHidden), JSON, or its property names', async () => {
  const { keyInspectionProblems } = await import('./hardening-node.mjs')
  assert.deepEqual(keyInspectionProblems(ekl), [])
})

test('a panic in the addon is INTERNAL_ERROR with a fixed message; the addon keeps serving', () => {
  const native = require(path.join(PKG_DIR, 'native.js'))
  for (let i = 0; i < 3; i++) {
    assert.throws(() => native.__testPanic(), (e) => {
      assert.ok(e instanceof Error)
      assert.equal(e.code, 'INTERNAL_ERROR')
      assert.doesNotMatch(e.message, /deliberate/, 'the panic text never reaches JS')
      return true
    })
  }
  // Through the API layer: an EklError, like every other refusal.
  const panic = ekl[Symbol.for('ekl-core.testPanic')]
  assert.throws(() => panic(), (e) => ekl.isEklError(e) && e.code === 'INTERNAL_ERROR' && e.name === 'EklError')
  assert.equal(ekl.canonicalize('[2,1]').toString(), '[2,1]')
  assert.ok(!Object.keys(ekl).some((k) => /panic/i.test(k)), 'the hook is hidden')
})

test('anything the binding throws that is not a refusal becomes INTERNAL_ERROR with a fixed message', () => {
  const { fromNative } = require(path.join(PKG_DIR, 'js', 'errors.js'))
  const codes = new Set(ekl.errorCodes())
  for (const e of [new Error('called `Option::unwrap()` on a `None` value: {"secret":1}'), Object.assign(new Error('x'), { code: 'GenericFailure' }), new TypeError('y'), 'a string']) {
    const got = fromNative(e, codes)
    assert.ok(ekl.isEklError(got))
    assert.equal(got.code, 'INTERNAL_ERROR')
    assert.doesNotMatch(got.message, /secret|unwrap/)
  }
  assert.equal(fromNative(new Error('DUPLICATE_KEY: duplicate key'), codes).code, 'DUPLICATE_KEY')
  assert.equal(fromNative(Object.assign(new Error('m'), { code: 'INVALID_JSON' }), codes).code, 'INVALID_JSON')
})
