'use strict'
// Host values: one test per rule of the strict conversion (js/convert.js, docs/decisions.md#node).
const test = require('node:test')
const assert = require('node:assert/strict')
const vm = require('node:vm')
const { ekl, throwsCode } = require('./helpers.js')

const cv = (v) => ekl.canonicalizeValue(v).toString('utf8')
const ct = (t) => ekl.canonicalize(t).toString('utf8')

test('plain objects, null-prototype objects and arrays', () => {
  assert.equal(cv({ b: 1, a: [true, false, null] }), '{"a":[true,false,null],"b":1}')
  const bare = Object.create(null)
  bare.z = 'last'
  bare.y = {}
  assert.equal(cv(bare), '{"y":{},"z":"last"}')
  assert.equal(cv([]), '[]')
  assert.equal(cv({}), '{}')
  assert.equal(cv([[[]], {}]), '[[[]],{}]')
})

test('keys sorted by UTF-16 code units, strings escaped as RFC 8785 says', () => {
  assert.equal(
    cv({ é: 1, z: 2, '😀': 3, A: 4, '€': 5, aa: 6, a: 7, 'ｱ': 8 }),
    '{"A":4,"a":7,"aa":6,"z":2,"é":1,"€":5,"😀":3,"ｱ":8}',
  )
  assert.equal(cv('\u0000\u0008\t\n\u000b\f\r\u001f"\\/\u007f\u2028é😀'), '"\\u0000\\b\\t\\n\\u000b\\f\\r\\u001f\\"\\\\/\u007f\u2028é😀"')
})

test('numbers: -0 is 0, ECMAScript formatting, edges of ±2^53', () => {
  assert.equal(cv(-0), '0')
  assert.equal(cv([0, -0, 1.5, -1.5, 0.1, 1e-7, 1e-6, 5e-324]), '[0,0,1.5,-1.5,0.1,1e-7,0.000001,5e-324]')
  // eslint-disable-next-line no-loss-of-precision -- RFC 8785's example, written as it gives it
  assert.equal(cv(333333333.33333329), '333333333.3333333')
  assert.equal(cv(2 ** 53), '9007199254740992')
  assert.equal(cv(-(2 ** 53)), '-9007199254740992')
  assert.equal(cv(2 ** 53 - 1), '9007199254740991')
  // From 1e21 on, String(x) has an exponent, which the text path accepts too.
  assert.equal(cv([1e21, -1e21, 1.7976931348623157e308]), '[1e+21,-1e+21,1.7976931348623157e+308]')
})

test('integer-valued doubles beyond ±2^53 are doubles (as Python floats), integer literals are refused', () => {
  for (const x of [2 ** 53 + 2, -(2 ** 53 + 2), 1e20, -1e20, 999999999999999900000, 2 ** 60]) {
    // The value path writes the double as ECMAScript does, like the text path for 2e20 or 1.0e20.
    assert.equal(cv(x), String(x))
    assert.equal(ct(x.toExponential()), String(x))
    assert.equal(ct(`${String(x)}.0`), String(x))
    // The same digits as an integer literal in JSON text are refused.
    throwsCode(assert, () => ct(String(x)), 'INTEGER_OUT_OF_RANGE', `text ${x}`)
  }
  // JSON.parse of a text the text path accepts gives a value the value path accepts, with the
  // same bytes.
  const text = '{"big": 1.5e20, "edge": 9007199254740993.0}'
  assert.equal(cv(JSON.parse(text)), ct(text))
  assert.equal(ct(text), '{"big":150000000000000000000,"edge":9007199254740992}')
})

test('NaN and ±Infinity are refused with NON_FINITE_NUMBER', () => {
  for (const x of [NaN, Infinity, -Infinity]) {
    throwsCode(assert, () => cv(x), 'NON_FINITE_NUMBER', String(x))
    throwsCode(assert, () => cv({ a: [x] }), 'NON_FINITE_NUMBER', String(x))
  }
})

test('BigInt within ±2^53 is an integer; beyond is refused', () => {
  assert.equal(cv([0n, -5n, 2n ** 53n, -(2n ** 53n)]), '[0,-5,9007199254740992,-9007199254740992]')
  throwsCode(assert, () => cv(2n ** 53n + 1n), 'INTEGER_OUT_OF_RANGE')
  throwsCode(assert, () => cv({ a: -(2n ** 53n) - 1n }), 'INTEGER_OUT_OF_RANGE')
  throwsCode(assert, () => cv(10n ** 30n), 'INTEGER_OUT_OF_RANGE')
})

test('booleans and null', () => {
  assert.equal(cv(true), 'true')
  assert.equal(cv(false), 'false')
  assert.equal(cv(null), 'null')
})

test('undefined: a member is absent (the rule of JSON.stringify); a value, an element or a hole is refused', () => {
  throwsCode(assert, () => cv(undefined), 'UNSUPPORTED_TYPE')
  // Members: absent, as JSON.stringify and real SDKs (optional fields left undefined) have it.
  assert.equal(cv({ a: undefined }), '{}')
  assert.equal(cv({ b: 2, a: undefined, c: { d: undefined, e: [1] } }), '{"b":2,"c":{"e":[1]}}')
  assert.equal(cv({ a: undefined, b: 1 }), JSON.stringify({ b: 1 }))
  const bare = Object.create(null)
  bare.x = undefined
  assert.equal(cv([bare, { y: undefined }]), '[{},{}]')
  // The same bytes as JSON text without the member, through every value operation.
  const salt = '00'.repeat(32)
  assert.equal(ekl.fingerprint(salt, { a: 1, b: undefined }), ekl.fingerprint(salt, { a: 1 }))
  assert.deepEqual(ekl.inputCommitment({ q: 'x', page: undefined }), ekl.inputCommitment({ q: 'x' }))
  // A member holding undefined does not hide a refusal after it, nor count as one.
  throwsCode(assert, () => cv({ a: undefined, b: NaN }), 'NON_FINITE_NUMBER')
  // Elements: refused (JSON.stringify would write null, which is not what was given).
  throwsCode(assert, () => cv([1, undefined]), 'UNSUPPORTED_TYPE')
  throwsCode(assert, () => cv({ a: [undefined] }), 'UNSUPPORTED_TYPE')
  // eslint-disable-next-line no-sparse-arrays
  throwsCode(assert, () => cv([1, , 3]), 'UNSUPPORTED_TYPE')
  throwsCode(assert, () => cv(new Array(2)), 'UNSUPPORTED_TYPE')
})

test('functions, symbols and class instances are refused with UNSUPPORTED_TYPE', () => {
  class Point {
    constructor() {
      this.x = 1
    }
  }
  class List extends Array {}
  const refused = {
    function: () => 1,
    'async function': async () => 1,
    class: Point,
    symbol: Symbol('s'),
    'class instance': new Point(),
    Map: new Map([['a', 1]]),
    Set: new Set([1]),
    WeakMap: new WeakMap(),
    Date: new Date(0),
    RegExp: /x/,
    Error: new Error('x'),
    Promise: Promise.resolve(1),
    Uint8Array: new Uint8Array(2),
    Float64Array: new Float64Array(2),
    Buffer: Buffer.from('x'),
    ArrayBuffer: new ArrayBuffer(2),
    DataView: new DataView(new ArrayBuffer(2)),
    'boxed String': Object('x'),
    'boxed Number': Object(1),
    'boxed Boolean': Object(true),
    'boxed BigInt': Object(1n),
    'Array subclass': List.from([1]),
    'object with a prototype': Object.create({ inherited: 1 }),
    'object of another realm': vm.runInNewContext('({a: 1})'),
    'array of another realm': vm.runInNewContext('[1]'),
    globalThis,
  }
  for (const [what, v] of Object.entries(refused)) {
    throwsCode(assert, () => cv(v), 'UNSUPPORTED_TYPE', what)
    throwsCode(assert, () => cv({ nested: [v] }), 'UNSUPPORTED_TYPE', `${what} nested`)
  }
  // A JsonText is accepted at the top level only.
  throwsCode(assert, () => cv({ nested: new ekl.JsonText('{}') }), 'UNSUPPORTED_TYPE', 'nested JsonText')
})

test('messages name the kind of value, never its content', () => {
  const e = throwsCode(assert, () => cv({ secret: new Map([['k', 'hunter2']]) }), 'UNSUPPORTED_TYPE')
  assert.match(e.message, /^UNSUPPORTED_TYPE: a Map has no JSON form$/)
  assert.ok(!e.message.includes('hunter2') && !e.message.includes('secret'))
})

test('symbol-keyed properties are refused with NON_STRING_KEY; non-enumerable ones are ignored', () => {
  throwsCode(assert, () => cv({ a: 1, [Symbol('meta')]: 2 }), 'NON_STRING_KEY')
  const o = { a: 1 }
  Object.defineProperty(o, 'hidden', { value: 2, enumerable: false })
  assert.equal(cv(o), '{"a":1}')
})

test('accessor properties (getters) are refused: plain data properties only', () => {
  let reads = 0
  const o = {
    get a() {
      reads++
      return 1
    },
  }
  throwsCode(assert, () => cv(o), 'UNSUPPORTED_TYPE')
  assert.equal(reads, 0, 'the getter is never run')
  throwsCode(assert, () => cv({ x: [{ set b(v) {} }] }), 'UNSUPPORTED_TYPE')
})

test('other own properties of an array are ignored, as JSON.stringify ignores them', () => {
  const a = [1, 2]
  a.extra = 'x'
  assert.equal(cv(a), '[1,2]')
})

test('cyclic structures are refused with CYCLIC_VALUE; shared references are not cycles', () => {
  const o = { a: 1 }
  o.self = o
  throwsCode(assert, () => cv(o), 'CYCLIC_VALUE')
  const arr = [1]
  arr.push(arr)
  throwsCode(assert, () => cv(arr), 'CYCLIC_VALUE')
  const x = { y: { z: [] } }
  x.y.z.push({ back: x })
  throwsCode(assert, () => cv(x), 'CYCLIC_VALUE')
  const shared = { s: 1 }
  assert.equal(cv({ a: shared, b: [shared, shared] }), '{"a":{"s":1},"b":[{"s":1},{"s":1}]}')
})

test('depth: 64 levels are accepted, 65 refused with INPUT_TOO_DEEP, without recursion', () => {
  const nest = (n, leaf) => {
    let v = leaf
    for (let i = 0; i < n; i++) v = [v]
    return v
  }
  assert.equal(cv(nest(63, [])), '['.repeat(64) + ']'.repeat(64))
  throwsCode(assert, () => cv(nest(64, [])), 'INPUT_TOO_DEEP')
  throwsCode(assert, () => cv(nest(64, {})), 'INPUT_TOO_DEEP')
  assert.equal(cv(nest(64, 1)), '['.repeat(64) + '1' + ']'.repeat(64))
  let deep = {}
  for (let i = 0; i < 100000; i++) deep = { d: deep }
  throwsCode(assert, () => cv(deep), 'INPUT_TOO_DEEP')
  // A cycle longer than 64 is refused by depth first, and still without a stack overflow.
  const head = { n: null }
  let tail = head
  for (let i = 0; i < 100; i++) tail = tail.n = { n: null }
  tail.n = head
  throwsCode(assert, () => cv(head), 'INPUT_TOO_DEEP')
  // The same rule in the text path.
  throwsCode(assert, () => ct('['.repeat(65) + ']'.repeat(65)), 'INPUT_TOO_DEEP')
})

test('a lone surrogate gives LONE_SURROGATE, the code of the \\ud800 escape in JSON text', () => {
  // JSON.stringify writes a lone surrogate as an escape, which the core refuses: the same code.
  assert.equal(JSON.stringify('\ud800'), '"\\ud800"')
  throwsCode(assert, () => ct(JSON.stringify('\ud800')), 'LONE_SURROGATE', 'escape in text')
  for (const s of ['\ud800', '\udc00', 'a\ud800b', '\udc00\ud800', 'x\ud83d']) {
    throwsCode(assert, () => cv(s), 'LONE_SURROGATE', JSON.stringify(s))
    throwsCode(assert, () => cv({ [s]: 1 }), 'LONE_SURROGATE', `key ${JSON.stringify(s)}`)
    // Raw in a JS string of JSON text: refused, never replaced by U+FFFD.
    throwsCode(assert, () => ct(`"${s}"`), 'LONE_SURROGATE', `raw in text ${JSON.stringify(s)}`)
    throwsCode(assert, () => new ekl.JsonText(`["${s}"]`), 'LONE_SURROGATE')
  }
  assert.equal(cv('\ud83d\ude00'), '"😀"')
})

test('the first refusal in document order wins, as in the core', () => {
  throwsCode(assert, () => cv([NaN, undefined]), 'NON_FINITE_NUMBER')
  throwsCode(assert, () => cv([undefined, NaN]), 'UNSUPPORTED_TYPE')
  throwsCode(assert, () => cv({ a: '\ud800', b: new Map() }), 'LONE_SURROGATE')
  throwsCode(assert, () => cv({ b: new Map(), a: '\ud800' }), 'UNSUPPORTED_TYPE')
  throwsCode(assert, () => ct('["\\ud800", NaN]'), 'LONE_SURROGATE')
  throwsCode(assert, () => ct('[NaN, "\\ud800"]'), 'NON_FINITE_NUMBER')
})

test('JsonText: JSON text wherever a value is accepted, with every text rule', () => {
  assert.equal(cv(new ekl.JsonText('{"b": 1.0, "a": 2}')), '{"a":2,"b":1}')
  assert.equal(cv(new ekl.JsonText(Buffer.from('[1e1]'))), '[10]')
  throwsCode(assert, () => cv(new ekl.JsonText('{"a":1,"\\u0061":2}')), 'DUPLICATE_KEY')
  throwsCode(assert, () => cv(new ekl.JsonText('[9007199254740993]')), 'INTEGER_OUT_OF_RANGE')
  throwsCode(assert, () => cv(new ekl.JsonText(new Uint8Array([0x22, 0xff, 0x22]))), 'INVALID_UTF8')
  throwsCode(assert, () => new ekl.JsonText(42), 'INVALID_ARGUMENT')
  const salt = '00'.repeat(32)
  assert.equal(
    ekl.fingerprint(salt, new ekl.JsonText('{"min_beds":3,"area_ref":"loc:ca:dublin"}')),
    ekl.fingerprint(salt, { area_ref: 'loc:ca:dublin', min_beds: 3 }),
  )
})

test('text inputs: string, Buffer, Uint8Array (views with an offset), JsonText; nothing else', () => {
  const doc = '{"b":[1,2],"a":"é"}'
  const want = '{"a":"é","b":[1,2]}'
  assert.equal(ct(doc), want)
  assert.equal(ct(Buffer.from(doc)), want)
  assert.equal(ct(new TextEncoder().encode(doc)), want)
  const padded = Buffer.from(`xxx${doc}yyy`)
  assert.equal(ct(padded.subarray(3, padded.length - 3)), want)
  assert.equal(ct(new Uint8Array(padded.buffer, padded.byteOffset + 3, padded.length - 6)), want)
  assert.equal(ct(new ekl.JsonText(doc)), want)
  for (const bad of [42, null, undefined, {}, [], new Uint16Array(2), new ArrayBuffer(2)]) {
    throwsCode(assert, () => ekl.canonicalize(bad), 'INVALID_ARGUMENT', String(bad))
  }
  throwsCode(assert, () => ct('\ufeff[]'), 'INVALID_JSON')
  throwsCode(assert, () => ct(Buffer.from([0x5b, 0xc3, 0x28, 0x5d])), 'INVALID_UTF8')
})

test('large inputs and outputs (beyond the reusable buffers) are exact', () => {
  const big = {}
  for (let i = 0; i < 20000; i++) big[`k${(i * 7919) % 20000}`] = ['é😀', i, i / 3]
  const text = JSON.stringify(big)
  assert.ok(text.length > 200000)
  const keys = Object.keys(big).sort()
  const expected = '{' + keys.map((k) => `${JSON.stringify(k)}:${JSON.stringify(big[k])}`).join(',') + '}'
  assert.equal(cv(big), expected)
  assert.equal(ct(text), expected)
  assert.equal(ct(Buffer.from(text)), expected)
  // Small calls after a large one still use the reusable buffers correctly.
  assert.equal(cv({ b: 1, a: 2 }), '{"a":2,"b":1}')
})

// A review of the edges users hold (2026-12-03): each of these was refused with another code, or
// accepted, or let a Proxy's own error out; the same in the native and the wasm backend.
test('edges of the argument forms: key sets as text, integers to ±2^53, detached bytes, Proxies, options', () => {
  const util = require('node:util')
  const TYP = 'ekl-screening-rules+jwt'
  const { jwks, keys } = ekl.jwksFromSeed('11'.repeat(32), ['k1'])
  const claims = { iss: 'https://net.example', iat: 1_800_000_000, exp: 1_800_003_600, rules_version: '1', rules: [] }
  const tok = ekl.signJws(TYP, claims, keys[0])
  const text = JSON.stringify(jwks.toJSON())
  const opts = { now: 1_800_000_100, issuer: 'https://net.example' }
  // a key set as JSON text (a string or bytes), as in Python: the same verdict as the Jwks
  const want = JSON.stringify(ekl.verifyJws(tok, TYP, jwks, opts))
  for (const form of [text, Buffer.from(text), new ekl.JsonText(text)]) {
    assert.equal(JSON.stringify(ekl.verifyJws(tok, TYP, form, opts)), want)
    assert.deepEqual(new ekl.Jwks(form).kids, ['k1'])
  }
  // integers: within ±2^53 (2^53 itself included), as the bridge checks on every surface
  assert.equal(ekl.canonicalizeValue(1, { maxBytes: 2 ** 53 }).toString(), '1')
  throwsCode(assert, () => ekl.canonicalizeValue(1, { maxBytes: 2 ** 53 + 2 }), 'INVALID_ARGUMENT')
  // a view of a detached buffer is empty input, as native reads it (the wasm glue threw)
  const b = new ArrayBuffer(3)
  const u = new Uint8Array(b)
  u.set([91, 49, 93])
  structuredClone(b, { transfer: [b] })
  throwsCode(assert, () => ekl.canonicalize(u), 'INVALID_JSON')
  assert.equal(ekl.sha256Hex(u), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
  // a Proxy whose trap throws, at the top of an argument: a code, never the trap's own error
  const trap = new Proxy({}, { getPrototypeOf() { throw new Error('trap payload') } })
  for (const f of [() => ekl.canonicalizeValue(trap), () => ekl.commitment(trap), () => ekl.verifyJws(tok, TYP, trap, opts)]) {
    const e = throwsCode(assert, f, 'UNSUPPORTED_TYPE')
    assert.ok(!e.message.includes('payload'))
  }
  const { proxy, revoke } = Proxy.revocable({}, {})
  revoke()
  throwsCode(assert, () => ekl.canonicalizeValue(1, proxy), 'INVALID_ARGUMENT')
  // options that are not a plain object are refused, not read as no options
  for (const bad of [new Map([['maxBytes', 1]]), new Date(), new Uint8Array(1)]) {
    throwsCode(assert, () => ekl.canonicalizeValue(1, bad), 'INVALID_ARGUMENT', util.inspect(bad))
  }
  // a SigningKey is made by the operations only
  throwsCode(assert, () => new ekl.SigningKey({ kid: () => 'k1' }), 'INVALID_ARGUMENT')
  // a JsonText shows its length, never its text (it may be a private JWK)
  const shown = util.inspect(new ekl.JsonText('{"d":"secret"}'))
  assert.equal(shown, 'JsonText(<14 bytes>)')
})
