'use strict'
// The JS side of the rows of docs/host-idioms.md added by issue 44.3 (the Python side:
// python/tests/test_host.py): the verdict's helpers (Python's Verdict.failed(), .disputed,
// .check(name)), issueMacReceipt's object form, EklError's message, and that every row's JS names
// exist in the package.
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { ekl, ROOT } = require('./helpers.js')

const SECRET = 'registration-secret'
const CALL = {
  execution_id: 'ex_1', collaboration_id: 'col_1', capability_id: 'cap_x', requester_agent_id: 'agt_c',
  provider_agent_id: 'agt_p', execution_kind: 'trial', connection_id: 'con_1', capability_version: '1.0.0',
  terms_hash: '00'.repeat(32),
}
const INPUT = { q: 1 }
const OUTPUT = { a: 2 }
const FIXED = { issuedAt: 1_780_000_000, inputSalt: 'aa'.repeat(32), outputSalt: 'bb'.repeat(32), receiptId: 'rcpt_1' }

test('issueMacReceipt: the object form is the positional call', () => {
  const positional = ekl.issueMacReceipt(CALL, INPUT, OUTPUT, 'succeeded', 4, 12, SECRET, FIXED)
  const named = ekl.issueMacReceipt(CALL, INPUT, OUTPUT, { status: 'succeeded', relVerAtAdmission: 4, dscVer: 12, secret: SECRET, ...FIXED })
  assert.deepEqual(named, positional)
  assert.equal(named.rel_ver_at_admission, 4)
  assert.equal(named.dsc_ver, 12)
  // with fresh salts and the clock, it verifies
  const fresh = ekl.issueMacReceipt(CALL, INPUT, OUTPUT, { status: 'failed_before_effect', relVerAtAdmission: 1, dscVer: 1, secret: SECRET })
  assert.equal(fresh.status, 'failed_before_effect')
  assert.equal(ekl.verifyReceipt(fresh, SECRET, CALL).accepted, true)
})

test('issueMacReceipt: the object form refuses a missing argument, an unknown name and a bad status', () => {
  const code = (f) => {
    try {
      f()
    } catch (e) {
      assert.ok(ekl.isEklError(e), String(e))
      return [e.code, e.message]
    }
    assert.fail('not refused')
  }
  const [c1, m1] = code(() => ekl.issueMacReceipt(CALL, INPUT, OUTPUT, { status: 'succeeded', relVerAtAdmission: 1, dscVer: 1 }))
  assert.equal(c1, 'INVALID_ARGUMENT')
  assert.match(m1, /secret is required/)
  const [c2, m2] = code(() => ekl.issueMacReceipt(CALL, INPUT, OUTPUT, { status: 'succeeded', relVerAtAdmission: 1, dscVer: 1, secret: SECRET, sekret: 'x' }))
  assert.equal(c2, 'INVALID_ARGUMENT')
  assert.match(m2, /unknown option "sekret"/)
  assert.equal(code(() => ekl.issueMacReceipt(CALL, INPUT, OUTPUT, { status: 'done', relVerAtAdmission: 1, dscVer: 1, secret: SECRET }))[0], 'INVALID_RECEIPT')
})

test('verdicts carry failed(), disputed and check(name), as Python\'s Verdict, and stay their wire shape', () => {
  const receipt = ekl.issueMacReceipt(CALL, INPUT, OUTPUT, 'succeeded', 1, 1, SECRET)
  const mine = (value, salt) => ekl.commitment(value, { salt })
  const ok = ekl.verifyReceipt(receipt, SECRET, CALL, { inputCommitment: mine(INPUT, receipt.input_commitment.salt), outputCommitment: mine(OUTPUT, receipt.output_commitment.salt) })
  assert.deepEqual([ok.accepted, ok.disputed, ok.failed()], [true, false, []])
  assert.equal(ok.check('auth_tag')?.outcome, 'pass')
  assert.equal(ok.check('no_such_check'), undefined)

  const dispute = ekl.verifyReceipt(receipt, SECRET, CALL, { outputCommitment: mine({ a: 3 }, receipt.output_commitment.salt) })
  assert.deepEqual([dispute.accepted, dispute.disputed, dispute.failed()], [false, true, ['output_commitment']])
  assert.equal(dispute.check('output_commitment').outcome, 'mismatch')

  const forged = ekl.verifyReceipt({ ...receipt, auth_tag: 'A'.repeat(43) }, SECRET, CALL, { outputCommitment: mine({ a: 3 }, receipt.output_commitment.salt) })
  assert.equal(forged.disputed, false, 'a failed check is no dispute')
  assert.ok(forged.failed().includes('auth_tag'))

  // The helpers are not members of the wire shape: JSON, keys, structuredClone, deepEqual.
  assert.deepEqual(Object.keys(ok).sort(), ['accepted', 'checks', 'receipt_digest'])
  assert.equal(JSON.stringify(ok), JSON.stringify({ accepted: ok.accepted, checks: ok.checks, receipt_digest: ok.receipt_digest }))
  assert.deepEqual(structuredClone(ok), { accepted: ok.accepted, checks: ok.checks, receipt_digest: ok.receipt_digest })
  // and a verdict is still a value argument (its canonical form is the wire shape's)
  assert.equal(ekl.canonicalizeValue(ok).toString(), ekl.canonicalizeValue(JSON.parse(JSON.stringify(ok))).toString())

  // every verdict of a batch has them too
  const [v, e] = ekl.verifyReceipts([{ receipt, call: CALL }, { receipt: 5, call: CALL }], SECRET)
  assert.deepEqual(v.failed(), [])
  assert.ok(ekl.isEklError(e))
})

test('EklError.message starts with the code in JS (Python: str(e) does, e.message does not)', () => {
  try {
    ekl.canonicalize('[NaN]')
    assert.fail('refused')
  } catch (e) {
    assert.ok(ekl.isEklError(e))
    assert.match(e.message, /^NON_FINITE_NUMBER: \S/)
    assert.ok(String(e).startsWith('EklError: NON_FINITE_NUMBER: '))
  }
})

test('docs/host-idioms.md: every function its JS column calls is an export of the package (or a method it names)', () => {
  const doc = fs.readFileSync(path.join(ROOT, 'docs', 'host-idioms.md'), 'utf8')
  const rows = doc.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| what |'))
  assert.ok(rows.length >= 20, `${rows.length} rows`)
  // methods of what the exports return: RemoteJwks, a verdict, a Jwks; and String(e)
  const METHODS = new Set(['jwks', 'jwksFor', 'check', 'failed', 'toJSON', 'String'])
  const called = new Set()
  for (const row of rows) {
    const js = row.split(' | ')[2] ?? ''
    for (const m of js.matchAll(/`([A-Za-z][A-Za-z0-9]*)\(/g)) called.add(m[1])
  }
  for (const name of called) {
    if (METHODS.has(name)) continue
    assert.equal(typeof ekl[name], 'function', `docs/host-idioms.md calls \`${name}(\`, which the package does not export`)
  }
  for (const name of ['verifyReceipt', 'issueMacReceipt', 'errorCodes', 'coreVersion', 'isEklError', 'failed', 'check']) assert.ok(called.has(name), name)
})
