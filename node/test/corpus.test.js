'use strict'
// Text path == value path on a seeded random corpus.
//
// Each random JS value is canonicalised through the value path (canonicalizeValue) and, written
// as JSON text by an independent naive writer (random whitespace, random member order, random
// escapes, other spellings of the same number), through the text path (canonicalize). Both
// must give the same bytes or the same error code. Valid values without BigInt are also compared
// with an independent JS implementation of RFC 8785 (the `canonicalize` package), when present.
const test = require('node:test')
const assert = require('node:assert/strict')
const { ekl, outcome } = require('./helpers.js')

let peer = null
try {
  peer = require('canonicalize').default
} catch {
  // Not installed (the packed-tarball run): the peer comparison is skipped.
}

/** mulberry32: a small seeded PRNG. */
function prng(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const UNITS = [
  'a', 'b', 'z', 'A', '0', ' ', '/', '"', '\\', '\u0000', '\u0001', '\b', '\t', '\n', '\f', '\r',
  '\u001f', '\u007f', 'é', '€', '\u2028', '\u2029', '\ue000', '\uffff', 'ｱ', '😀', '𝄞', '\ufeff',
]

function generator(seed) {
  const r = prng(seed)
  const pick = (xs) => xs[Math.floor(r() * xs.length)]
  const f64 = new Float64Array(1)
  const u32 = new Uint32Array(f64.buffer)

  function string() {
    let s = ''
    const n = Math.floor(r() * 8)
    for (let i = 0; i < n; i++) s += pick(UNITS)
    if (r() < 0.01) s += pick(['\ud800', '\udbff', '\udc00', '\udfff'])
    return s
  }

  function number() {
    const k = r()
    if (k < 0.3) return Math.floor(r() * 2000) - 1000
    if (k < 0.45) return (r() - 0.5) * 10 ** Math.floor(r() * 40 - 20)
    if (k < 0.6) {
      u32[0] = (r() * 2 ** 32) >>> 0
      u32[1] = (r() * 2 ** 32) >>> 0
      return f64[0] // any double, NaN and ±Infinity included (rarely)
    }
    if (k < 0.75) return pick([2 ** 53, -(2 ** 53), 2 ** 53 - 1, 2 ** 53 + 2, -(2 ** 53 + 2), 1e21, 1e21 - 65536, -1e21, 1e20, 0, -0, 5e-324, 1.7976931348623157e308])
    if (k < 0.8) return pick([NaN, Infinity, -Infinity])
    return Math.round((r() - 0.5) * 2 ** 60) / 2 ** Math.floor(r() * 60)
  }

  function value(depth) {
    const k = r()
    if (depth > 5 || k < 0.55) {
      const s = r()
      if (s < 0.35) return string()
      if (s < 0.75) return number()
      if (s < 0.8) return pick([0n, 7n, -7n, 2n ** 53n, -(2n ** 53n), 2n ** 53n + 1n, -(2n ** 60n)])
      if (s < 0.9) return r() < 0.5
      return null
    }
    if (k < 0.75) {
      const n = Math.floor(r() * 5)
      const a = []
      for (let i = 0; i < n; i++) a.push(value(depth + 1))
      return a
    }
    const o = r() < 0.1 ? Object.create(null) : {}
    const n = Math.floor(r() * 6)
    for (let i = 0; i < n; i++) o[r() < 0.2 ? String(Math.floor(r() * 20)) : string()] = value(depth + 1)
    return o
  }

  function deep() {
    // Now and then a value right at or beyond the depth limit.
    let v = value(6)
    const levels = 60 + Math.floor(r() * 8)
    for (let i = 0; i < levels; i++) v = r() < 0.5 ? [v] : { k: v }
    return v
  }

  return { r, pick, next: () => (r() < 0.03 ? deep() : value(0)) }
}

/** An independent, naive JSON writer with random (valid) spelling choices. */
function naiveText(v, g, shuffle) {
  const { r, pick } = g
  const ws = () => (r() < 0.2 ? pick([' ', '\n', '\t', '\r', '  ', ' \n ']) : '')
  function str(s) {
    let out = '"'
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i)
      const ch = s[i]
      const esc = () => {
        const h = c.toString(16).padStart(4, '0')
        return '\\u' + (r() < 0.5 ? h : h.toUpperCase())
      }
      if (ch === '"') out += r() < 0.5 ? '\\"' : esc()
      else if (ch === '\\') out += r() < 0.5 ? '\\\\' : esc()
      else if (ch === '/') out += r() < 0.3 ? '\\/' : '/'
      else if (c < 0x20) {
        const short = { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r' }[c]
        out += short && r() < 0.5 ? short : esc()
      } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        // A surrogate pair: both units escaped, or the character raw.
        if (r() < 0.3) {
          out += esc()
          i++
          const h = s.charCodeAt(i).toString(16)
          out += '\\u' + (r() < 0.5 ? h : h.toUpperCase())
        } else {
          out += ch + s[i + 1]
          i++
        }
      } else if (c >= 0xd800 && c <= 0xdfff) {
        // A lone surrogate: escaped, as JSON.stringify writes it. (Raw in a JS string of JSON
        // text it is refused before parsing, like invalid UTF-8 in bytes: convert.test.js.)
        out += esc()
      } else out += r() < 0.15 ? esc() : ch
    }
    return out + '"'
  }
  function num(x) {
    if (Number.isNaN(x)) return 'NaN'
    if (x === Infinity) return 'Infinity'
    if (x === -Infinity) return '-Infinity'
    if (Object.is(x, -0)) return pick(['-0', '-0.0', '0', '-0e5'])
    // An integer-valued double beyond 2^53 is a double (the value path accepts it): spelled with
    // a fraction or an exponent, since as an integer literal the text path refuses it.
    if (Number.isInteger(x) && Math.abs(x) > 2 ** 53 && Math.abs(x) < 1e21) {
      return r() < 0.5 ? x.toExponential() : `${String(x)}.0`
    }
    return r() < 0.5 ? String(x) : x.toExponential()
  }
  function write(v) {
    switch (typeof v) {
      case 'string':
        return str(v)
      case 'number':
        return num(v)
      case 'bigint':
        return v.toString()
      case 'boolean':
        return String(v)
      case 'object': {
        if (v === null) return 'null'
        if (Array.isArray(v)) return '[' + ws() + v.map((x) => ws() + write(x) + ws()).join(',') + ']'
        const keys = Object.keys(v)
        for (let i = shuffle ? keys.length - 1 : 0; i > 0; i--) {
          const j = Math.floor(r() * (i + 1))
          ;[keys[i], keys[j]] = [keys[j], keys[i]]
        }
        return '{' + ws() + keys.map((k) => ws() + str(k) + ws() + ':' + ws() + write(v[k]) + ws()).join(',') + '}'
      }
      default:
        throw new Error(`unexpected ${typeof v}`)
    }
  }
  return ws() + write(v) + ws()
}

function hasBigInt(v) {
  const stack = [v]
  while (stack.length) {
    const x = stack.pop()
    if (typeof x === 'bigint') return true
    if (x !== null && typeof x === 'object') for (const k of Object.keys(x)) stack.push(x[k])
  }
  return false
}

const SEEDS = [1, 2, 3, 20261129]
const PER_SEED = 1500

/** The numbers inside `v` that the package writes differently from ECMAScript's String(x). */
function numbersWrittenDifferently(v) {
  const out = []
  const stack = [v]
  while (stack.length) {
    const x = stack.pop()
    if (typeof x === 'number') {
      const o = outcome(() => ekl.canonicalizeValue(x))
      if (o.ok && o.value !== String(x === 0 ? 0 : x)) out.push([String(x), o.value])
    } else if (x !== null && typeof x === 'object') for (const k of Object.keys(x)) stack.push(x[k])
  }
  return out
}

const numberDeviations = new Map()

for (const seed of SEEDS) {
  test(`text path == value path, seed ${seed}`, () => {
    const g = generator(seed)
    const stats = { ok: 0, refused: {}, peer: 0 }
    for (let i = 0; i < PER_SEED; i++) {
      const v = g.next()
      // Members in Object.keys order: the first refusal in document order must agree.
      const inOrder = naiveText(v, g, false)
      // Members shuffled: the same bytes when valid (the order of refusals may differ).
      const shuffled = naiveText(v, g, true)
      const asBytes = g.r() < 0.5
      const text = (t) => (asBytes ? Buffer.from(t, 'utf8') : t)
      const byValue = outcome(() => ekl.canonicalizeValue(v))
      const where = (t) => `seed ${seed} #${i}: text ${JSON.stringify(t).slice(0, 300)}`
      assert.deepEqual(outcome(() => ekl.canonicalize(text(inOrder))), byValue, where(inOrder))
      const byShuffled = outcome(() => ekl.canonicalize(text(shuffled)))
      assert.equal(byShuffled.ok, byValue.ok, where(shuffled))
      if (byValue.ok) {
        assert.equal(byShuffled.value, byValue.value, where(shuffled))
        stats.ok++
        if (peer && !hasBigInt(v)) {
          const theirs = peer(v)
          if (byValue.value !== theirs) {
            // Known deviation (reported): the core's number writer and ECMAScript disagree on
            // some doubles (ties between two shortest digit strings, where ECMAScript picks the
            // even one). Any other difference fails.
            const diffs = numbersWrittenDifferently(v)
            assert.ok(diffs.length > 0, `seed ${seed} #${i}: differs from the RFC 8785 peer: ${byValue.value} vs ${theirs}`)
            for (const [js, ours] of diffs) numberDeviations.set(js, ours)
          } else stats.peer++
        }
      } else {
        stats.refused[byValue.code] = (stats.refused[byValue.code] || 0) + 1
      }
    }
    // The corpus must exercise both outcomes and the main refusals.
    assert.ok(stats.ok > PER_SEED / 3, JSON.stringify(stats))
    for (const code of ['NON_FINITE_NUMBER', 'INTEGER_OUT_OF_RANGE']) {
      assert.ok(stats.refused[code] > 0, `no ${code} in ${JSON.stringify(stats)}`)
    }
  })
}

test('numbers are written as ECMAScript String(x) writes them', (t) => {
  if (numberDeviations.size > 0) {
    const list = [...numberDeviations].slice(0, 5).map(([js, ours]) => `${js} (ours ${ours})`)
    t.todo(`core number writer differs from ECMAScript on ${numberDeviations.size} doubles, e.g. ${list.join(', ')}`)
  }
  assert.equal(numberDeviations.size, 0)
})

test('the corpus covers lone surrogates and depth refusals across seeds', () => {
  const seen = {}
  for (const seed of SEEDS) {
    const g = generator(seed)
    for (let i = 0; i < PER_SEED; i++) {
      const v = g.next()
      // Keep the generator in step with the main test.
      naiveText(v, g, false)
      naiveText(v, g, true)
      g.r()
      const o = outcome(() => ekl.canonicalizeValue(v))
      if (!o.ok) seen[o.code] = true
    }
  }
  for (const code of ['LONE_SURROGATE', 'INPUT_TOO_DEEP', 'NON_FINITE_NUMBER', 'INTEGER_OUT_OF_RANGE']) {
    assert.ok(seen[code], `no ${code} in the corpus: ${Object.keys(seen)}`)
  }
})

test('hostile text: random bytes and mutated documents give bytes or an EklError, nothing else', () => {
  const g = generator(7)
  const seen = {}
  for (let i = 0; i < 3000; i++) {
    let input
    if (i % 3 === 0) {
      input = Buffer.alloc(Math.floor(g.r() * 40))
      for (let k = 0; k < input.length; k++) input[k] = Math.floor(g.r() * 256)
    } else {
      let t = naiveText(g.next(), g, true)
      for (let m = 0; m < 1 + Math.floor(g.r() * 3); m++) {
        const at = Math.floor(g.r() * (t.length + 1))
        const op = g.r()
        if (op < 0.4) t = t.slice(0, at) + t.slice(at + 1)
        else if (op < 0.8) t = t.slice(0, at) + g.pick(['{', '}', '[', ']', ',', ':', '"', '\\', '-', '1e', '\u0000', '\ud800', '𝄞', 'NaN']) + t.slice(at)
        else t = t.slice(0, at) + t.slice(at).split('').reverse().join('')
      }
      input = i % 2 ? t : Buffer.from(t, 'utf8')
    }
    const o = outcome(() => ekl.canonicalize(input))
    seen[o.ok ? 'ok' : o.code] = true
    if (o.ok) {
      // Canonical output is a fixed point, except integer-valued doubles beyond 2^53, written as
      // integer literals that the text path refuses (docs/decisions.md#numbers #2).
      const again = outcome(() => ekl.canonicalize(o.value))
      if (again.ok) assert.equal(again.value, o.value, 'canonical output is a fixed point')
      else assert.equal(again.code, 'INTEGER_OUT_OF_RANGE', o.value)
    }
  }
  for (const code of ['INVALID_JSON', 'INVALID_UTF8', 'ok']) assert.ok(seen[code], `no ${code}: ${Object.keys(seen)}`)
})
