'use strict'
// Error identity: EklError, its codes, the TypeScript union, and panics.
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { ekl, PKG_DIR, ROOT, throwsCode } = require('./helpers.js')

test('a refusal is a real Error subclass named EklError with the stable code', () => {
  const e = throwsCode(assert, () => ekl.canonicalize('{"a":1,"a":2}'), 'DUPLICATE_KEY')
  assert.ok(e instanceof Error)
  assert.ok(e instanceof ekl.EklError)
  assert.equal(e.name, 'EklError')
  assert.equal(Object.getPrototypeOf(e).constructor, ekl.EklError)
  assert.match(e.message, /^DUPLICATE_KEY: /)
  assert.match(String(e), /^EklError: DUPLICATE_KEY: /)
  assert.match(e.stack, /^EklError: DUPLICATE_KEY: /)
  assert.deepEqual(Object.keys(e), ['code'])
})

test('EklError can be built by hand and is recognised by isEklError', () => {
  const e = new ekl.EklError('INVALID_ARGUMENT', 'by hand', { cause: 'x' })
  assert.equal(e.code, 'INVALID_ARGUMENT')
  assert.equal(e.message, 'INVALID_ARGUMENT: by hand')
  assert.equal(e.cause, 'x')
  assert.ok(ekl.isEklError(e))
})

test('isEklError recognises another copy of the class (the wasm package) by name and code', () => {
  class EklError extends Error {}
  Object.defineProperty(EklError.prototype, 'name', { value: 'EklError' })
  const foreign = new EklError('x')
  foreign.code = 'INVALID_JSON'
  assert.ok(ekl.isEklError(foreign))
  assert.ok(!ekl.isEklError(new Error('INVALID_JSON: x')))
  assert.ok(!ekl.isEklError(Object.assign(new TypeError('x'), { code: 'INVALID_JSON' })))
  assert.ok(!ekl.isEklError({ name: 'EklError', code: 'INVALID_JSON' }))
  assert.ok(!ekl.isEklError(null))
  assert.ok(!ekl.isEklError('EklError'))
})

test('asynchronous refusals are the same EklError', async () => {
  await assert.rejects(ekl.canonicalizeAsync('[1e400]'), (e) => {
    assert.ok(e instanceof ekl.EklError)
    assert.equal(e.code, 'NON_FINITE_NUMBER')
    assert.match(e.message, /^NON_FINITE_NUMBER: /)
    return true
  })
  await assert.rejects(ekl.canonicalizeValueAsync({ a: new Set() }), { name: 'EklError', code: 'UNSUPPORTED_TYPE' })
  // Argument errors reject too, they do not throw synchronously.
  const p = ekl.canonicalizeAsync(42)
  assert.ok(p instanceof Promise)
  await assert.rejects(p, { name: 'EklError', code: 'INVALID_ARGUMENT' })
})

/** The codes of the EklErrorCode union in index.d.ts, in order. */
function tsCodes() {
  const dts = fs.readFileSync(path.join(PKG_DIR, 'index.d.ts'), 'utf8')
  const m = /export type EklErrorCode =([^]*?)\n\n/.exec(dts)
  assert.ok(m, 'index.d.ts declares EklErrorCode')
  return [...m[1].matchAll(/'([A-Z0-9_]+)'/g)].map((x) => x[1])
}

function unionText(codes) {
  return 'export type EklErrorCode =\n' + codes.map((c) => `  | '${c}'`).join('\n')
}

test('the TypeScript union EklErrorCode equals the core ErrorCode::ALL (errorCodes())', () => {
  const native = ekl.errorCodes()
  const ts = tsCodes()
  assert.ok(native.length >= 30)
  if (JSON.stringify(ts) !== JSON.stringify(native)) {
    assert.fail(`index.d.ts EklErrorCode drifted from ekl_core::ErrorCode::ALL; the corrected declaration:\n\n${unionText(native)}\n`)
  }
})

test('the addon was built from the core in this tree (docs/errors.json, generated from core/src/error.rs)', (t) => {
  const file = path.join(ROOT, 'docs', 'errors.json')
  if (!fs.existsSync(file)) {
    t.skip('not running from the repository')
    return
  }
  const listed = JSON.parse(fs.readFileSync(file, 'utf8')).codes.map((c) => c.code)
  assert.ok(listed.length >= 30)
  assert.deepEqual(ekl.errorCodes(), listed, 'rebuild the addon (npm run build), or bless docs/errors.json (CONTRIBUTING.md)')
  // The union is written from the same file (node scripts/dts.js).
  assert.deepEqual(tsCodes(), listed, 'stale: run `node scripts/dts.js` in node/')
})

test('every code the JS layer throws is a code of the core', () => {
  const codes = new Set(ekl.errorCodes())
  for (const f of ['js/convert.js', 'js/api.js', 'js/errors.js', 'index.js']) {
    const src = fs.readFileSync(path.join(PKG_DIR, f), 'utf8')
    for (const m of src.matchAll(/new EklError\(\s*'([A-Z0-9_]+)'/g)) {
      assert.ok(codes.has(m[1]), `${f} throws ${m[1]}, which the core does not declare`)
    }
  }
})

test('a panic in the addon becomes a thrown INTERNAL_ERROR; the process and the module keep working', () => {
  const native = require(path.join(PKG_DIR, 'native.js'))
  for (let i = 0; i < 3; i++) {
    assert.throws(() => native.__testPanic(), (e) => e instanceof Error && e.code === 'INTERNAL_ERROR' && !/deliberate panic/.test(e.message))
  }
  assert.equal(ekl.canonicalize('[2,1]').toString(), '[2,1]')
})
