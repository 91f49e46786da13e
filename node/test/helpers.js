'use strict'
// Shared by the test files. EKL_TEST_PACKAGE points the tests at another copy of the package
// (scripts/test/40-node.sh runs them against the packed tarball installed in a fresh folder).
const path = require('node:path')

const PKG_DIR = path.resolve(__dirname, '..')
const ROOT = path.resolve(PKG_DIR, '..')
const VECTORS_DIR = process.env.EKL_VECTORS_DIR || path.join(ROOT, 'vectors')
const PACKAGE = process.env.EKL_TEST_PACKAGE || 'ekl-core'

const ekl = require(PACKAGE)

/** The code of what `f` throws, or its result when it does not throw. */
function outcome(f) {
  try {
    const r = f()
    return { ok: true, value: Buffer.isBuffer(r) ? r.toString('utf8') : r }
  } catch (e) {
    if (!ekl.isEklError(e)) throw e
    return { ok: false, code: e.code }
  }
}

/** Asserts that `f` throws an EklError with `code`. */
function throwsCode(assert, f, code, what) {
  let thrown
  try {
    f()
  } catch (e) {
    thrown = e
  }
  assert.ok(thrown !== undefined, `${what ?? 'call'}: expected ${code}, nothing was thrown`)
  assert.ok(ekl.isEklError(thrown), `${what ?? 'call'}: expected an EklError, got ${thrown}`)
  assert.equal(thrown.code, code, `${what ?? 'call'}: ${thrown.message}`)
  return thrown
}

module.exports = { ekl, PKG_DIR, ROOT, VECTORS_DIR, PACKAGE, outcome, throwsCode }
