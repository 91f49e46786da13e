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
