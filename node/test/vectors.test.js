'use strict'
// Runs every file of the repository's vectors/ in place against the package.
//
// One runner per file name (RUNNERS below): it turns the file into checks, each with the path of
// its expected value inside the file, the expected value and a thunk computing the actual one.
// A file without a runner fails (bind the new vector file here). The meta-test changes each
// expected value in a copy of the file and requires the runner to fail on it, so no check can
// silently ignore what the file says.
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { ekl, VECTORS_DIR, outcome } = require('./helpers.js')

/** The canonical text of a value, or "error:CODE". */
function canon(f) {
  const r = outcome(f)
  return r.ok ? r.value : `error:${r.code}`
}

/**
 * Runners: (parsed file) => [{ name, path, expected, actual: () => any }]. `path` locates
 * `expected` inside the file (for the meta-test).
 */
const RUNNERS = {
  'fingerprints.json'(v) {
    const checks = []
    v.cases.forEach((c, i) => {
      const at = ['cases', i]
      checks.push(
        {
          name: `${c.name}: ekl-json-1 of the value`,
          path: [...at, 'jcs'],
          expected: c.jcs,
          actual: () => canon(() => ekl.canonicalizeValue(c.value)),
        },
        {
          name: `${c.name}: ekl-json-1 of the value's JSON text`,
          path: [...at, 'jcs'],
          expected: c.jcs,
          actual: () => canon(() => ekl.canonicalize(JSON.stringify(c.value, null, 1))),
        },
        {
          name: `${c.name}: fingerprint`,
          path: [...at, 'fingerprint'],
          expected: c.fingerprint,
          actual: () => ekl.fingerprint(c.salt, c.value),
        },
      )
    })
    const rs = v.result_selection
    // The result selection case uses the salt of the cases (the file does not repeat it).
    const salt = v.cases[0].salt
    checks.push(
      {
        name: 'result_selection: the body fingerprinted',
        path: ['result_selection', 'fingerprinted'],
        expected: rs.fingerprinted,
        actual: () => ekl.selectResultBody(rs.result).member,
      },
      {
        name: 'result_selection: output fingerprint',
        path: ['result_selection', 'fingerprint'],
        expected: rs.fingerprint,
        actual: () => ekl.outputFingerprint(salt, rs.result),
      },
    )
    const ch = v.challenge
    checks.push(
      {
        name: 'challenge: SHA-256 of the provider credential',
        path: ['challenge', 'credential_sha256'],
        expected: ch.credential_sha256,
        actual: () => ekl.sha256Hex(ch.provider_credential),
      },
      {
        name: 'challenge: v1 proof',
        path: ['challenge', 'proof'],
        expected: ch.proof,
        actual: () => ekl.challengeProofV1(ch.provider_credential, ch.challenge, ch.endpoint),
      },
    )
    return checks
  },
}

function vectorFiles() {
  if (!fs.existsSync(VECTORS_DIR)) return null
  return fs
    .readdirSync(VECTORS_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
}

function load(file) {
  return JSON.parse(fs.readFileSync(path.join(VECTORS_DIR, file), 'utf8'))
}

/** A different value of the same type (the meta-test's tampering). */
function tamper(x) {
  if (typeof x === 'string') {
    if (x.length === 0) return 'x'
    const last = x[x.length - 1]
    return x.slice(0, -1) + (last === '0' ? '1' : '0')
  }
  if (typeof x === 'number') return x + 1
  if (typeof x === 'boolean') return !x
  if (x === null) return 0
  return { tampered: x }
}

function setAt(obj, p, value) {
  let o = obj
  for (const k of p.slice(0, -1)) o = o[k]
  o[p[p.length - 1]] = value
}

function getAt(obj, p) {
  return p.reduce((o, k) => o[k], obj)
}

const files = vectorFiles()

test('vectors/ exists and holds vector files', (t) => {
  if (files === null) {
    t.skip(`no ${VECTORS_DIR} yet (set EKL_VECTORS_DIR to run elsewhere)`)
    return
  }
  assert.ok(files.length > 0, `${VECTORS_DIR} holds no .json file`)
})

for (const file of files ?? []) {
  test(`vectors/${file}`, async (t) => {
    const runner = RUNNERS[file]
    assert.ok(runner, `vectors/${file} has no runner in node/test/vectors.test.js: bind it there`)
    const v = load(file)
    const checks = runner(v)
    assert.ok(checks.length > 0, 'the runner made no check')
    for (const c of checks) {
      await t.test(c.name, () => {
        assert.deepEqual(getAt(v, c.path), c.expected, `path ${c.path.join('.')} holds the expected value`)
        assert.deepEqual(c.actual(), c.expected)
      })
    }
  })

  test(`meta: a changed expected value in vectors/${file} fails`, (t) => {
    const runner = RUNNERS[file]
    if (!runner) {
      t.skip('no runner')
      return
    }
    const original = runner(load(file))
    let tested = 0
    for (let i = 0; i < original.length; i++) {
      const copy = load(file)
      const p = original[i].path
      setAt(copy, p, tamper(getAt(copy, p)))
      const check = runner(copy)[i]
      assert.equal(check.name, original[i].name)
      assert.notDeepEqual(
        check.actual(),
        check.expected,
        `check "${check.name}" still passes with ${p.join('.')} changed: it does not compare it`,
      )
      tested++
    }
    assert.equal(tested, original.length)
  })
}

module.exports = { RUNNERS }
