'use strict'
// Host helpers: newSalt from the CSPRNG; a value where text is expected points to the value form.
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

test('canonicalize of an object points to canonicalizeValue', () => {
  assert.throws(() => ekl.canonicalize({ a: 1 }), (e) => e.code === 'INVALID_ARGUMENT' && /canonicalizeValue/.test(e.message))
  assert.throws(() => ekl.canonicalize(42), (e) => e.code === 'INVALID_ARGUMENT' && !/canonicalizeValue/.test(e.message))
})
