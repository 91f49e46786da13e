'use strict'
// Nothing this library signs fails its own verifier (issue 10.4), from JS: generated receipts (valid,
// and with members changed to forms the verifier refuses — timestamps with an offset or in words,
// unknown statuses and kinds, missing or mistyped members, customer members on a trial) go to
// signReceipt: either it refuses with the verifier's code, and the same receipt tagged without the
// checks is not accepted by verifyReceipt, or what it signs is accepted for the call it names.
// A seeded generator, so a failure names its case. The core's property tests prove the same in Rust
// (core/tests/issuing_props.rs), Python's in python/tests/test_issuing.py.
const test = require('node:test')
const assert = require('node:assert/strict')
const { ekl } = require('./helpers.js')

const SECRET = 'rs_prop-secret'
const BASE = {
  receipt_version: '1.1', receipt_id: 'r1', execution_kind: 'trial', requester_agent_id: 'agt_c', provider_agent_id: 'agt_p',
  collaboration_id: 'col_1', connection_id: 'con_1', execution_id: 'ex_1', capability_id: 'cap_1', capability_version: '1.0',
  rel_ver_at_admission: 1, dsc_ver: 1, terms_hash: '00'.repeat(32), input_commitment: ekl.commitment({ q: 1 }),
  output_commitment: ekl.commitment({ a: 2 }), status: 'succeeded', issued_at: '2026-11-29T12:00:00Z', key_id: 'rk-1',
  auth_profile: 'ekl-evidence-mac-1.1',
}
const VALUES = [
  null, true, false, 0, 1, -1, 2.5, '', 'x', 'customer', 'trial', 'validation', 'bogus', 'succeeded', 'failed',
  '2026-11-29T12:00:00Z', '2026-11-29T12:00:00.5Z', '2026-11-29T12:00:00+00:00', '2026-11-29T12:00:00.000Z',
  new Date(Date.UTC(2026, 10, 29)).toISOString(), 'yesterday', '2026-02-30T00:00:00Z', { alg: 'sha-256' }, [], undefined,
]
const NAMES = [...Object.keys(BASE), 'billing_id', 'amount_minor', 'currency']

function rng(seed) {
  let s = seed >>> 0
  return (n) => {
    s = (s + 0x6d2b79f5) >>> 0
    let t = Math.imul(s ^ (s >>> 15), s | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return (((t ^ (t >>> 14)) >>> 0) / 4294967296) * n | 0
  }
}

const CALL = { execution_id: 'ex_1', collaboration_id: 'col_1', capability_id: 'cap_1', requester_agent_id: 'agt_c', provider_agent_id: 'agt_p' }

test('signed receipts verify; refused ones are refused by the verifier too', () => {
  let signedCount = 0
  let refusedCount = 0
  for (let seed = 1; seed <= 1500; seed++) {
    const pick = rng(seed)
    const receipt = { ...BASE }
    const changes = {}
    for (let i = pick(4); i > 0; i--) {
      const name = NAMES[pick(NAMES.length)]
      const value = VALUES[pick(VALUES.length)]
      changes[name] = value
      if (value === undefined) delete receipt[name]
      else receipt[name] = value
    }
    const where = `seed ${seed}: ${JSON.stringify(changes)}`
    let signed
    try {
      signed = ekl.signReceipt(receipt, SECRET)
    } catch (e) {
      assert.ok(ekl.isEklError(e), where)
      assert.ok(['INVALID_RECEIPT', 'INVALID_TIMESTAMP'].includes(e.code), `${where}: ${e.code}`)
      refusedCount++
      let verdict
      try {
        // With the consumer's own commitments, as a verifier holds them: the verifier checks a
        // commitment's form when it compares it (vectors/call-receipt.json, "malformed commitment").
        verdict = ekl.verifyReceipt({ ...receipt, auth_tag: ekl.authTag(receipt, SECRET) }, SECRET, CALL, {
          inputCommitment: BASE.input_commitment, outputCommitment: BASE.output_commitment,
        })
      } catch {
        continue
      }
      assert.equal(verdict.accepted, false, `${where}: refused by the signer, accepted by the verifier`)
      continue
    }
    signedCount++
    const call = {
      execution_id: signed.execution_id, collaboration_id: signed.collaboration_id, capability_id: signed.capability_id,
      requester_agent_id: signed.requester_agent_id, provider_agent_id: signed.provider_agent_id,
    }
    const keys = [{ key_id: signed.key_id, secret: SECRET, valid_from: '2000-01-01T00:00:00Z' }]
    const verdict = ekl.verifyReceipt(signed, keys, call, { inputCommitment: signed.input_commitment, outputCommitment: signed.output_commitment })
    assert.ok(verdict.accepted, `${where}: signed but refused on ${verdict.checks.filter((c) => c.outcome !== 'pass').map((c) => c.name)}`)
  }
  // The generator reaches both sides.
  assert.ok(signedCount > 100 && refusedCount > 100, `${signedCount} signed, ${refusedCount} refused`)
})

// issueMacReceipt: a receipt from the call answered (issue 25).
const ISSUE_CALL = {
  ...CALL, execution_kind: 'customer', connection_id: 'con_1', capability_version: '1.0', terms_hash: '00'.repeat(32),
  reservation_id: 'rsv_1', grant_id: 'grt_1', admission_id: 'adm_1',
}
const INPUT = { q: 'ping', n: 1 }
const OUTPUT = { a: 'pong' }
const issue = (options, call = ISSUE_CALL) => ekl.issueMacReceipt(call, INPUT, OUTPUT, 'succeeded', 3, 7, SECRET, options)
const verifyIssued = (r, call = ISSUE_CALL) => ekl.verifyReceipt(r, SECRET, call, {
  inputCommitment: ekl.commitment(INPUT, { salt: r.input_commitment.salt }),
  outputCommitment: ekl.commitment(OUTPUT, { salt: r.output_commitment.salt }),
})

test('issueMacReceipt: the receipt verifies, with fresh salts and the clock', () => {
  const before = Math.floor(Date.now() / 1000)
  const [one, two] = [issue(), issue()]
  const after = Math.floor(Date.now() / 1000)
  const stamps = new Set()
  for (let t = before; t <= after; t++) stamps.add(ekl.formatTimestamp(t))
  for (const r of [one, two]) {
    const v = verifyIssued(r)
    assert.equal(v.accepted, true, JSON.stringify(v.checks.filter((c) => c.outcome !== 'pass')))
    assert.ok(stamps.has(r.issued_at), r.issued_at)
    assert.equal(r.key_id, 'rk-1')
    assert.deepEqual([r.reservation_id, r.rel_ver_at_admission, r.dsc_ver], ['rsv_1', 3, 7])
    assert.match(r.receipt_id, /^rcpt_[0-9a-f]{32}$/)
    assert.match(r.input_commitment.salt, /^[0-9a-f]{64}$/)
  }
  assert.notEqual(one.input_commitment.salt, two.input_commitment.salt)
  assert.notEqual(one.output_commitment.salt, two.output_commitment.salt)
  assert.notEqual(one.input_commitment.salt, one.output_commitment.salt)
  assert.notEqual(one.receipt_id, two.receipt_id)
})

test('issueMacReceipt: given salts and time give the same bytes (a Date too)', () => {
  const given = { issuedAt: 1795977605, inputSalt: '1f'.repeat(32), outputSalt: 'e0'.repeat(32) }
  const one = issue(given)
  assert.deepEqual(issue(given), one)
  assert.equal(one.issued_at, '2026-11-29T18:40:05Z')
  assert.deepEqual(one.input_commitment, ekl.commitment(INPUT, { salt: '1f'.repeat(32) }))
  assert.deepEqual(issue({ ...given, issuedAt: new Date(1795977605900) }), one)
  assert.deepEqual(issue({ ...given, issuedAt: 1795977605.99 }), one)
  assert.deepEqual(issue({ ...given, keyId: 'rk-2', receiptId: 'r-1' }).receipt_id, 'r-1')
})

test('issueMacReceipt refuses what the verifier would refuse, with codes', () => {
  const without = (k) => Object.fromEntries(Object.entries(ISSUE_CALL).filter(([n]) => n !== k))
  const cases = [
    [() => issue({}, without('execution_kind')), 'INVALID_RECEIPT', /^execution_kind: /],
    [() => issue({}, { ...ISSUE_CALL, execution_kind: 'paid' }), 'INVALID_RECEIPT', /^execution_kind: /],
    [() => issue({}, without('grant_id')), 'INVALID_RECEIPT', /^kind_fields: /],
    [() => issue({}, { ...ISSUE_CALL, execution_kind: 'trial' }), 'INVALID_RECEIPT', /^kind_fields: /],
    [() => issue({}, { ...ISSUE_CALL, executionId: 'x' }), 'INVALID_ARGUMENT', /executionId/],
    [() => ekl.issueMacReceipt(ISSUE_CALL, INPUT, OUTPUT, 'done', 3, 7, SECRET), 'INVALID_RECEIPT', /^status: /],
    [() => ekl.issueMacReceipt(ISSUE_CALL, INPUT, OUTPUT, 'succeeded', -1, 7, SECRET), 'INVALID_RECEIPT', /^required_fields: /],
    [() => ekl.issueMacReceipt(ISSUE_CALL, new ekl.JsonText('{"q": '), OUTPUT, 'succeeded', 3, 7, SECRET), null, /./],
    [() => ekl.issueMacReceipt(ISSUE_CALL, INPUT, { x: NaN }, 'succeeded', 3, 7, SECRET), 'NON_FINITE_NUMBER', /./],
    [() => issue({ keyId: '' }), 'INVALID_RECEIPT', /^key_id: empty/],
    [() => issue({ inputSalt: 'AB'.repeat(32) }), 'INVALID_SALT', /./],
    [() => issue({ issuedAt: Date.now() }), 'INVALID_ARGUMENT', /milliseconds/],
    [() => issue({ salt: '00'.repeat(32) }), 'INVALID_ARGUMENT', /unknown option/],
  ]
  for (const [f, code, message] of cases) {
    assert.throws(f, (e) => {
      assert.ok(ekl.isEklError(e), String(e))
      if (code !== null) assert.equal(e.code, code, e.message)
      assert.match(e.message.replace(/^[A-Z0-9_]+: /, ""), message)
      assert.ok(!e.message.includes(SECRET))
      return true
    })
  }
})
