'use strict'
// Host helpers: newSalt, newSeed and newSigningKey from the CSPRNG; a value where text is expected points to the value form.
const test = require('node:test')
const assert = require('node:assert/strict')
const { ekl } = require('./helpers.js')

test('newSalt: a fresh salt every operation takes', () => {
  const salts = new Set(Array.from({ length: 64 }, () => ekl.newSalt()))
  assert.equal(salts.size, 64)
  for (const s of salts) assert.match(s, /^[0-9a-f]{64}$/)
  const s = ekl.newSalt()
  assert.equal(ekl.fingerprint(s, { a: 1 }), ekl.fingerprint(s, new ekl.JsonText('{"a":1}')))
  assert.equal(ekl.commitment({ a: 1 }, { salt: s }).salt, s)
  assert.throws(() => ekl.newSalt(32), { code: 'INVALID_ARGUMENT' })
})

test('newSeed and newSigningKey: a fresh ES256 key from the CSPRNG, the seed its secret', () => {
  const seeds = new Set(Array.from({ length: 64 }, () => ekl.newSeed()))
  assert.equal(seeds.size, 64)
  for (const s of seeds) assert.match(s, /^[0-9a-f]{64}$/)
  const seed = ekl.newSeed()
  assert.deepEqual(ekl.publicJwk(ekl.signingKey(seed, 'k1')), ekl.publicJwk(ekl.signingKey(seed, 'k1')))
  const key = ekl.newSigningKey('k1')
  const other = ekl.newSigningKey('k1')
  assert.equal(key.kid, 'k1')
  assert.notDeepEqual(ekl.publicJwk(key), ekl.publicJwk(other))
  const claims = { iss: 'https://net.example', aud: 'agt_1', iat: 1000, exp: 1060 }
  const token = ekl.signJws('ekl-access+jwt', claims, key)
  const jwks = { keys: [ekl.publicJwk(key)] }
  assert.equal(ekl.verifyJws(token, 'ekl-access+jwt', jwks, { now: 1030 }).kid, 'k1')
  assert.throws(() => ekl.verifyJws(token, 'ekl-access+jwt', { keys: [ekl.publicJwk(other)] }, { now: 1030 }), { code: 'SIGNATURE_INVALID' })
  assert.throws(() => ekl.newSigningKey(''), { code: 'INVALID_KEY' })
  assert.throws(() => ekl.newSeed(1), { code: 'INVALID_ARGUMENT' })
})

test('canonicalize of an object points to canonicalizeValue', () => {
  assert.throws(() => ekl.canonicalize({ a: 1 }), (e) => e.code === 'INVALID_ARGUMENT' && /canonicalizeValue/.test(e.message))
  assert.throws(() => ekl.canonicalize(42), (e) => e.code === 'INVALID_ARGUMENT' && !/canonicalizeValue/.test(e.message))
})

// The time members of issuing values (the registry's `times`, docs/decisions.md#times).
const MAC = {
  receipt_version: '1.1', receipt_id: 'r1', execution_kind: 'trial',
  execution_id: 'ex_1', collaboration_id: 'col_1', capability_id: 'cap_1',
  requester_agent_id: 'agt_c', provider_agent_id: 'agt_p', connection_id: 'con_1',
  capability_version: '1.0', rel_ver_at_admission: 1, dsc_ver: 1,
  terms_hash: 't', input_commitment: { alg: 'sha-256', canon: 'ekl-json-1', digest: 'ab'.repeat(32) },
  output_commitment: { alg: 'sha-256', canon: 'ekl-json-1', digest: 'cd'.repeat(32) }, status: 'succeeded',
  issued_at: '2026-11-29T12:00:05Z', key_id: 'rk-1', auth_profile: 'ekl-evidence-mac-1.1',
}
const AT = new Date(Date.UTC(2026, 10, 29, 12, 0, 5, 999))

test('time members: a Date gives what its wire form gives (issued_at, iat, exp), the caller\'s object unchanged', () => {
  assert.deepEqual(ekl.signReceipt({ ...MAC, issued_at: AT }, 's'), ekl.signReceipt(MAC, 's'))
  const { keys: [key] } = ekl.jwksFromSeed('42'.repeat(32), ['net-1'])
  const dated = { iss: 'https://n.example', iat: new Date(1780000000500), exp: new Date(1780000060000) }
  assert.equal(ekl.signJws('ekl-access+jwt', dated, key), ekl.signJws('ekl-access+jwt', { iss: 'https://n.example', iat: 1780000000, exp: 1780000060 }, key))
  assert.ok(dated.iat instanceof Date)
  const base = {
    receipt_version: '1.2', receipt_id: 'r', execution_kind: 'trial', requester_agent_id: 'agt_c', provider_agent_id: 'agt_p',
    collaboration_id: 'c', connection_id: 'n', execution_id: 'e', capability_id: 'x', capability_version: '1.0.0',
    input_fingerprint: 'ab'.repeat(32), output_fingerprint: 'cd'.repeat(32), status: 'succeeded', auth_profile: 'ekl-evidence-sig-1.2',
  }
  assert.deepEqual(
    ekl.issueReceipt({ ...base, issued_at: AT }, key, 'https://n.example', 'agt_c'),
    ekl.issueReceipt({ ...base, issued_at: '2026-11-29T12:00:05Z' }, key, 'https://n.example', 'agt_c'),
  )
})

test('time members: an invalid Date is refused naming the member; a Date elsewhere, an accessor, a symbol key keep their refusals', () => {
  const { keys: [key] } = ekl.jwksFromSeed('42'.repeat(32), ['net-1'])
  assert.throws(() => ekl.signJws('ekl-access+jwt', { iat: new Date(NaN) }, key), (e) => e.code === 'INVALID_ARGUMENT' && /claims\.iat/.test(e.message))
  assert.throws(() => ekl.signJws('ekl-access+jwt', { iat: 1, other: AT }, key), { code: 'UNSUPPORTED_TYPE' })
  let ran = false
  const getter = { iat: AT, get exp() { ran = true; return 1 } }
  assert.throws(() => ekl.signJws('ekl-access+jwt', getter, key), { code: 'UNSUPPORTED_TYPE' })
  assert.equal(ran, false)
  assert.throws(() => ekl.signJws('ekl-access+jwt', { iat: AT, [Symbol('s')]: 1 }, key), { code: 'NON_STRING_KEY' })
  const trap = new Proxy({ iat: AT }, { getOwnPropertyDescriptor() { throw new Error('secret payload') } })
  assert.throws(() => ekl.signJws('ekl-access+jwt', trap, key), (e) => e.code === 'UNSUPPORTED_TYPE' && !/secret/.test(e.message))
})

test('time members: the keys of a key ring take a Date for valid_from and valid_until', () => {
  const signed = ekl.signReceipt(MAC, 's')
  const call = {
    execution_id: 'ex_1', collaboration_id: 'col_1', capability_id: 'cap_1',
    requester_agent_id: 'agt_c', provider_agent_id: 'agt_p',
  }
  const asText = [{ key_id: 'rk-1', secret: 's', valid_from: '2026-01-01T00:00:00Z' }]
  const dated = [{ key_id: 'rk-1', secret: 's', valid_from: new Date(Date.UTC(2026, 0, 1)) }]
  const verdict = ekl.verifyReceipt(signed, dated, call)
  assert.equal(verdict.accepted, true)
  assert.deepEqual(verdict, ekl.verifyReceipt(signed, asText, call))
  assert.ok(dated[0].valid_from instanceof Date)
  // Retired one second before issued_at (12:00:05): refused as its wire form is.
  const retired = [
    { key_id: 'rk-0', secret: 'old', valid_from: '2025-01-01T00:00:00Z' },
    { key_id: 'rk-1', secret: 's', valid_from: new Date(Date.UTC(2026, 0, 1)), valid_until: new Date(Date.UTC(2026, 10, 29, 12, 0, 4, 999)) },
  ]
  const refused = ekl.verifyReceipt(signed, retired, call)
  assert.equal(refused.checks.find((c) => c.name === 'key_id').outcome, 'fail')
  const retiredText = [retired[0], { ...retired[1], valid_from: '2026-01-01T00:00:00Z', valid_until: '2026-11-29T12:00:04Z' }]
  assert.deepEqual(refused, ekl.verifyReceipt(signed, retiredText, call))
  assert.deepEqual(ekl.verifyReceipts([{ receipt: signed, call }], dated)[0], verdict)
  const lines = JSON.stringify({ receipt: signed, call }) + '\n'
  assert.deepEqual(ekl.verifyReceiptLines(lines, { keys: dated }), ekl.verifyReceiptLines(lines, { keys: asText }))
  // An invalid Date names its key; an accessor element keeps the conversion's refusal.
  assert.throws(() => ekl.verifyReceipt(signed, [{ ...dated[0], valid_from: new Date(NaN) }], call), (e) => e.code === 'INVALID_ARGUMENT' && /keys\[0\]\.valid_from/.test(e.message))
  const ring = [dated[0]]
  Object.defineProperty(ring, 1, { get() { throw new Error('secret payload') }, enumerable: true })
  assert.throws(() => ekl.verifyReceipt(signed, ring, call), (e) => !/secret/.test(e.message))
})
