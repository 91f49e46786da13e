'use strict'
// The fast paths of canonicalize(text) and canonicalizeValue(value) without options (js/api.js,
// issue 15) against the general path (the same call with an options object): the same bytes or
// the same error, code and message, on every kind of input, the U+FFFD fallback included.
const test = require('node:test')
const assert = require('node:assert/strict')
const { ekl } = require('./helpers.js')

function result(f) {
  try {
    const r = f()
    return { ok: true, bytes: Buffer.from(r).toString('hex'), isBuffer: Buffer.isBuffer(r) }
  } catch (e) {
    return { ok: false, name: e.name, code: e.code, message: e.message }
  }
}

const texts = [
  '{"b":1,"a":[true,null,"é"]}',
  ' [1.50, -0, 1e21, "\\u00e9\\n\\"", {"\\u0061":1}] ',
  '["\ufffd"]', // a genuine U+FFFD: the fast path hands over to the general one
  '["\ufffd", "\ud800"]',
  '["\ud800"]', // lone surrogates: LONE_SURROGATE, before anything else
  '{"\udc00":1}',
  '[1,] \ud83d',
  '[1,]',
  '{"a":1,"a":2}',
  '[9007199254740993]',
  '',
  '\ufeff[]',
  '['.repeat(65) + ']'.repeat(65),
  JSON.stringify({ long: 'x'.repeat(200000), k: ['ｱｲｳ', '😀'] }),
  JSON.stringify(['é'.repeat(800000)]), // beyond the reusable buffer: the general path
]

test('canonicalize(text): the fast path equals the general one', () => {
  for (const t of texts) {
    assert.deepEqual(result(() => ekl.canonicalize(t)), result(() => ekl.canonicalize(t, {})), JSON.stringify(t.slice(0, 40)))
    const b = Buffer.from(t)
    assert.deepEqual(result(() => ekl.canonicalize(b)), result(() => ekl.canonicalize(b, {})))
    const u8 = new Uint8Array(b)
    assert.deepEqual(result(() => ekl.canonicalize(u8)), result(() => ekl.canonicalize(u8, { maxBytes: null })))
    const shared = new Uint8Array(new SharedArrayBuffer(b.length))
    shared.set(b)
    assert.deepEqual(result(() => ekl.canonicalize(shared)), result(() => ekl.canonicalize(shared, {})))
  }
  for (const bad of [undefined, null, 1, {}, [], new ekl.JsonText('[1]')]) {
    assert.deepEqual(result(() => ekl.canonicalize(bad)), result(() => ekl.canonicalize(bad, {})))
  }
  assert.equal(ekl.canonicalize('["\ufffd"]').toString(), '["\ufffd"]')
})

test('canonicalize(text): a lone surrogate anywhere is LONE_SURROGATE, also next to U+FFFD', () => {
  for (const t of ['["\ud800"]', '["\ufffd\udfff"]', '{"x": "\ud83d"} trailing', '\udc00']) {
    assert.equal(result(() => ekl.canonicalize(t)).code, 'LONE_SURROGATE', JSON.stringify(t))
  }
})

test('canonicalizeValue(value): the fast path equals the general one', () => {
  const values = [
    { b: 1, a: [true, null, 'é', -0, 1e21, 2e20] },
    ['\ufffd', { '😀': 'ｱ' }],
    ['\ud800'],
    { [Symbol('s')]: 1 },
    undefined,
    null,
    () => 1,
    new Map(),
    9007199254740993n,
    Object.assign(Object.create(null), { z: 1, y: undefined }),
    new ekl.JsonText('{"b":2,"a":1}'),
    new ekl.JsonText('[1,]'),
  ]
  const cyclic = []
  cyclic.push(cyclic)
  values.push(cyclic)
  for (const v of values) {
    assert.deepEqual(result(() => ekl.canonicalizeValue(v)), result(() => ekl.canonicalizeValue(v, {})))
  }
})
