// Fuzz target: the JS host conversion against the text path (issue 14), for the Node addon and,
// with EKL_NODE_PACKAGE=wasm, the wasm build (both use node/js/convert.js).
//
// A seeded generator builds JS values (plain objects, arrays with holes, strings with lone
// surrogates, numbers with -0/NaN/±Infinity/2^53±1, BigInt, undefined members, nesting past 64)
// and compares `canonicalizeValue(value)` with `canonicalize(JSON.stringify(value))`: the same
// bytes, or the same refusal code — except where JSON.stringify itself has no faithful form: NaN,
// ±Infinity and holes (written null), which the conversion must refuse; BigInt (it throws) and
// integer-valued doubles beyond 2^53, whose accepted output must be a fixed point. Any other exception, INTERNAL_ERROR,
// or a disagreement is a finding. Usage: node fuzz_convert.mjs [SECONDS=600] [SEED=1]
import { createRequire } from 'node:module'
import { inspect } from 'node:util'

const require = createRequire(import.meta.url)
const ekl = require(process.env.EKL_FUZZ_PACKAGE || '../index.js')

const secs = Number(process.argv[2] || 600)
let seed = Number(process.argv[3] || 1) >>> 0
function rand() {
  // mulberry32
  seed = (seed + 0x6d2b79f5) >>> 0
  let t = seed
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}
const int = (n) => Math.floor(rand() * n)
const pick = (xs) => xs[int(xs.length)]

const NUMBERS = [0, -0, 1, -1, 0.1, 1e21, 1e-7, 5e-324, Number.MAX_VALUE, 2 ** 53, -(2 ** 53), 2 ** 53 + 2, 2e20, NaN, Infinity, -Infinity]
let unfaithful // JSON.stringify would not keep this value's meaning (set by each case)
// An integer-valued double beyond 2^53 (2e20): accepted by the conversion (a double, as in Python
// and the core), but JSON.stringify writes it as an integer literal, which ekl-json-1 text refuses.
let loose

function str() {
  let s = ''
  for (let i = int(5); i > 0; i--) {
    const r = rand()
    s += r < 0.6 ? String.fromCharCode(0x20 + int(0x5f)) : r < 0.8 ? String.fromCharCode(int(0x10000)) : String.fromCodePoint(0x10000 + int(0xfffff))
  }
  return s
}

function build(depth) {
  const k = int(depth < 70 ? 11 : 6)
  switch (k) {
    case 0: return null
    case 1: return rand() < 0.5
    case 2: {
      const x = rand() < 0.5 ? pick(NUMBERS) : (rand() - 0.5) * 10 ** int(40)
      if (!Number.isFinite(x)) unfaithful = true
      else if (Number.isInteger(x) && Math.abs(x) > 2 ** 53) loose = true
      return x
    }
    case 3: {
      loose = true // JSON.stringify throws on BigInt: nothing to compare with
      return BigInt(pick([0, 1, -5, 2 ** 53])) * (rand() < 0.2 ? 2n : 1n)
    }
    case 4: case 5: return str()
    case 6: case 7: {
      const a = []
      for (let i = int(4); i > 0; i--) {
        const item = build(depth + 1)
        if (item === undefined) unfaithful = true // JSON.stringify writes null; the conversion refuses
        a.push(item)
      }
      if (rand() < 0.05) { a.length += 1; unfaithful = true } // a hole
      return a
    }
    case 8: if (rand() < 0.3) return undefined // a member set to undefined is absent
    // falls through
    default: {
      const o = rand() < 0.1 ? Object.create(null) : {}
      for (let i = int(4); i > 0; i--) o[str()] = build(depth + 1)
      return o
    }
  }
}

/** Sets `unfaithful` and `loose` from the value as built (a member may have been overwritten). */
function classify(root) {
  unfaithful = false
  loose = false
  const stack = [root]
  while (stack.length) {
    const v = stack.pop()
    if (typeof v === 'bigint') loose = true
    else if (typeof v === 'number') {
      if (!Number.isFinite(v)) unfaithful = true
      else if (Number.isInteger(v) && Math.abs(v) > 2 ** 53) loose = true
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        if (!(i in v) || v[i] === undefined) unfaithful = true // JSON.stringify writes null
        else stack.push(v[i])
      }
    } else if (v !== null && typeof v === 'object') {
      for (const k of Object.keys(v)) stack.push(v[k])
    }
  }
}

function outcome(f) {
  try {
    return { ok: Buffer.from(f()).toString('hex') }
  } catch (e) {
    if (e && e.code === 'INTERNAL_ERROR') throw new Error('a panic reached JS', { cause: e })
    if (!e || typeof e.code !== 'string') throw e
    return { error: e.code }
  }
}

const end = Date.now() + secs * 1000
let runs = 0, refused = 0, compared = 0
while (Date.now() < end) {
  for (let batch = 0; batch < 200; batch++) {
    unfaithful = false
    loose = false
    const startSeed = seed
    const value = build(0)
    classify(value)
    runs++
    const host = outcome(() => ekl.canonicalizeValue(value))
    if (host.error) refused++
    if (value === undefined) continue
    if (unfaithful) {
      // JSON.stringify changes the meaning here; the conversion must refuse, never accept.
      if (!host.error) {
        console.error(`finding (seed ${startSeed}): an unfaithful value was accepted: ${inspect(value, { depth: 8 }).slice(0, 400)}`)
        process.exit(1)
      }
      continue
    }
    if (loose) {
      // No text to compare with: an accepted output must be a fixed point of the text path.
      // (The one documented exception: a double beyond 2^53 is written as an integer literal,
      // which ekl-json-1 text refuses, docs/decisions.md#numbers §2.)
      const again = host.ok && outcome(() => ekl.canonicalize(Buffer.from(host.ok, 'hex')))
      if (host.ok && again.ok !== host.ok && again.error !== 'INTEGER_OUT_OF_RANGE') {
        console.error(`finding (seed ${startSeed}): the output is not a fixed point`)
        process.exit(1)
      }
      continue
    }
    const text = JSON.stringify(value)
    const viaText = outcome(() => ekl.canonicalize(text))
    compared++
    if (JSON.stringify(host) !== JSON.stringify(viaText)) {
      console.error(`finding (seed ${startSeed}): host ${JSON.stringify(host)} text ${JSON.stringify(viaText)} for ${text.slice(0, 200)}`)
      process.exit(1)
    }
  }
}
console.log(`js_convert: ${runs} values, ${compared} compared with the text path, ${refused} refused, 0 findings (backend ${ekl.backend || 'native'})`)
