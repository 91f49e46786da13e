'use strict'
// Shared by the test files. The package under test is whatever `require('ekl-evidence')` resolves to
// from this folder: the package itself (self-reference through "exports") when the tests run in
// node/test, or the packed tarball installed in a fresh folder when scripts/test/40-node.sh copies
// the tests there (EKL_REPO_ROOT then names the repository, for vectors/ and docs/).
const path = require('node:path')

const ROOT = process.env.EKL_REPO_ROOT || path.resolve(__dirname, '..', '..')
/** The package's sources in the repository (types-test/, README.md, ...). */
const SRC_DIR = path.join(ROOT, 'node')
/** The folder of the package under test. */
const PKG_DIR = path.dirname(require.resolve('ekl-evidence/package.json'))
const VECTORS_DIR = process.env.EKL_VECTORS_DIR || path.join(ROOT, 'vectors')

const ekl = require('ekl-evidence')

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

module.exports = { ekl, ROOT, SRC_DIR, PKG_DIR, VECTORS_DIR, outcome, throwsCode }
