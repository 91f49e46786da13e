'use strict'
// The one strict conversion of JS values to JSON text, shared by the Node (native) and wasm
// packages of ekl-core so that both behave identically. The text it produces is handed to the
// core's text canonicaliser, which applies every ekl-json-1 rule again: this walker only refuses
// what JSON text cannot express (and, for document-order precedence, what it can check cheaply).
//
// Rules (docs/decisions.md#node, bounds in docs/decisions.md#limits):
// * plain objects (prototype Object.prototype or null): their own enumerable string keys
//   (Object.keys); an own symbol-keyed property is refused (NON_STRING_KEY); an own enumerable
//   accessor (getter/setter) is refused (UNSUPPORTED_TYPE) without running it: plain data
//   properties only; a member whose value is `undefined` is absent, as JSON.stringify has it
//   (SDKs build objects with optional members left undefined);
// * arrays (prototype Array.prototype): elements 0..length-1; a hole or an `undefined` element is
//   refused (UNSUPPORTED_TYPE: JSON.stringify would write null, which is not what was meant), an
//   accessor element too, without running it; other own properties of an array are ignored, as
//   JSON.stringify ignores them;
// * strings; a lone surrogate (in a value or a key) is refused with LONE_SURROGATE, the code of
//   the "\ud800" escape in JSON text;
// * numbers: every finite double (NaN, ±Infinity: NON_FINITE_NUMBER); -0 is written 0. A JS number
//   is a double, as a Python float and the core's Value::Number are, and is accepted as they are
//   (docs/decisions.md#numbers #2): an integer-valued double beyond 2^53 such as 2e20 is handed to
//   the core in exponent form (x.toExponential(), exact), which the core reads as that double and
//   writes as ECMAScript does ("200000000000000000000"). Only integer *literals* beyond ±2^53 are
//   refused, in JSON text (and BigInt, below). Other numbers are written with String(x), the
//   shortest round trip;
// * BigInt: accepted within ±2^53 (written as its decimal digits), INTEGER_OUT_OF_RANGE beyond;
// * booleans, null;
// * refused with UNSUPPORTED_TYPE: undefined (as a value or an array element), functions,
//   symbols, class instances (Map, Set, Date, RegExp, Error, typed arrays, Buffer, boxed
//   primitives, objects of other realms, JsonText below the top level, ...);
// * a Proxy is not told apart (no portable way): its traps run and what they report is what is
//   converted, each member read once through its descriptor; a trap that throws gives
//   UNSUPPORTED_TYPE (its error is not passed on);
// * a structure that contains itself: CYCLIC_VALUE; nesting deeper than LIMITS.maxDepth (an array
//   or object is one level): INPUT_TOO_DEEP. No recursion: an explicit stack, so no input can overflow it;
// * bounds: the JSON form is at most the operation's limit (the 256 KB of a capability input) or
//   LIMITS.maxValueBytes (the bound on host values of every surface, ekl_core::limits), and at
//   most LIMITS.maxReads members and elements are read (as many as JSON text of
//   LIMITS.maxValueBytes can hold); past either the
//   walk stops at once with BODY_TOO_LARGE, so a graph of shared references that expands
//   exponentially costs bounded time and memory.
// The first refusal in document order (the order of the produced text) wins, as in the core; a
// bound is refused where it is passed, before any refusal later in the document.
// This file must not use Node-only APIs: the wasm package runs it in browsers.

const { EklError } = require('./errors.js')

/**
 * The bounds of the conversion, the manifest's `limits` constant (ekl_core::limits and
 * ekl_core::canonical, docs/decisions.md#limits), set by `useLimits` when the API is built over a
 * binding (api.js): no bound is written here. `maxDepth` the deepest nesting (PROTOCOL §2.5: `[]`
 * is depth 1); `maxInputBytes` the longest JSON text an operation reads, in bytes (UTF-8; a string
 * is refused from this many UTF-16 code units on, before it is encoded; longer input is refused
 * with BODY_TOO_LARGE before anything reads it, nothing is copied into wasm memory);
 * `maxValueBytes` the largest JS value the conversion takes, as the length of its JSON form (the
 * bound on host values of every surface, Python's dicts too); `maxReads` the most members and
 * elements the value conversion reads: as many as JSON text of maxValueBytes can hold (a value
 * takes two bytes at least, `0,`), so it never refuses a value whose JSON form fits; it bounds
 * the time spent on members that write nothing (`undefined`); `bound` the largest magnitude of an
 * integer literal (and a BigInt) ekl-json-1 accepts (2^53); `millisecondsFrom` the magnitude from
 * which a `now` can only be milliseconds (the replay constant, set by api.js).
 */
const LIMITS = { maxDepth: 0, maxInputBytes: 0, maxValueBytes: 0, maxReads: 0, bound: 0, bigBound: 0n, millisecondsFrom: 0 }

/**
 * Sets LIMITS from the manifest's `limits` constant (the same values for every binding of one
 * version: setting them again changes nothing).
 * @param {{max_depth: number, max_input_bytes: number, max_value_bytes: number, max_safe_integer_bound: number}} limits
 */
function useLimits(limits) {
  LIMITS.maxDepth = limits.max_depth
  LIMITS.maxInputBytes = limits.max_input_bytes
  LIMITS.maxValueBytes = limits.max_value_bytes
  LIMITS.maxReads = limits.max_value_bytes / 2
  LIMITS.bound = limits.max_safe_integer_bound
  LIMITS.bigBound = BigInt(limits.max_safe_integer_bound)
}
const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?:^|[^\ud800-\udbff])[\udc00-\udfff]/

const objectProto = Object.prototype
const arrayProto = Array.prototype
const getProto = Object.getPrototypeOf
const keysOf = Object.keys
const symbolsOf = Object.getOwnPropertySymbols
const descriptorOf = Object.getOwnPropertyDescriptor
const isArray = Array.isArray
const stringify = JSON.stringify
/** Taken at load, so a prototype patched later cannot write what the core then reads. */
const toExponential = Number.prototype.toExponential
/** `Object.prototype.__lookupGetter__` (Annex B, in every engine we know; absent: descriptors). */
const lookupGetter = /** @type {((this: object, key: PropertyKey) => unknown) | undefined} */ (
  typeof (/** @type {{__lookupGetter__?: unknown}} */ (objectProto)).__lookupGetter__ === 'function'
    ? /** @type {{__lookupGetter__?: unknown}} */ (objectProto).__lookupGetter__
    : undefined
)
/** The engine's own accessors: a view's buffer, and one that throws for a SharedArrayBuffer. */
const bufferGetter = /** @type {(this: Uint8Array) => ArrayBufferLike} */ (
  /** @type {PropertyDescriptor} */ (descriptorOf(getProto(Uint8Array.prototype), 'buffer')).get
)
const byteLengthGetter = /** @type {(this: ArrayBufferLike) => number} */ (
  /** @type {PropertyDescriptor} */ (descriptorOf(ArrayBuffer.prototype, 'byteLength')).get
)
/** @param {Uint8Array} view */
const bufferOf = (view) => bufferGetter.call(view)
/** @param {ArrayBufferLike} buffer */
const abByteLength = (buffer) => byteLengthGetter.call(buffer)

/**
 * True when `s` holds no lone surrogate. (`String.prototype.isWellFormed` is ES2024, newer than
 * the ES2022 library this file is checked against: typed here, used when the engine has it.)
 * @type {(s: string) => boolean}
 */
const isWellFormed =
  typeof (/** @type {{isWellFormed?: unknown}} */ (String.prototype)).isWellFormed === 'function'
    ? (s) => /** @type {string & {isWellFormed(): boolean}} */ (s).isWellFormed()
    : (s) => !LONE.test(s)

/** @param {string} where */
function loneSurrogate(where) {
  return new EklError(
    'LONE_SURROGATE',
    `${where} holds a lone UTF-16 surrogate, which has no UTF-8 form`,
  )
}

/** Whether JSON.stringify escapes lone surrogates (ES2019 well-formed JSON.stringify). */
const STRINGIFY_ESCAPES_LONE = stringify('\ud800') === '"\\ud800"'

/**
 * @param {string} s
 * @param {string} where
 */
function quoteSlow(s, where) {
  if (!isWellFormed(s)) throw loneSurrogate(where)
  return stringify(s)
}

/**
 * JSON text of a string (value or key), refusing lone surrogates.
 * @param {string} s
 * @param {string} where
 * @returns {string}
 */
function quote(s, where) {
  if (!STRINGIFY_ESCAPES_LONE) return quoteSlow(s, where)
  const q = stringify(s)
  // Well-formed JSON.stringify writes a lone surrogate as an escape: only a string that needed
  // an escape can hold one.
  if (q.length !== s.length + 2 && !isWellFormed(s)) throw loneSurrogate(where)
  return q
}

/**
 * Quoted keys already seen: objects of one kind repeat their keys, and a Map lookup (the string's
 * hash is cached) is cheaper than scanning and quoting again. Bounded in entries and key length;
 * only well-formed keys are stored, so a hit needs no check.
 */
/** @type {Map<string, string>} */
const keyCache = new Map()
const KEY_CACHE_MAX = 2048
const KEY_CACHE_MAX_LENGTH = 64

/**
 * JSON text of a key followed by `:`, refusing lone surrogates.
 * @param {string} k
 */
function quoteKey(k) {
  let q = keyCache.get(k)
  if (q === undefined) {
    q = quote(k, 'a key') + ':'
    if (k.length <= KEY_CACHE_MAX_LENGTH) {
      if (keyCache.size >= KEY_CACHE_MAX) keyCache.clear()
      keyCache.set(k, q)
    }
  }
  return q
}

/**
 * A short name of a value's kind for messages (never its content).
 * @param {unknown} v
 * @returns {string}
 */
function describe(v) {
  switch (typeof v) {
    case 'undefined':
      return 'undefined'
    case 'function':
      return 'a function'
    case 'symbol':
      return 'a symbol'
    case 'object': {
      let name
      try {
        const proto = getProto(v)
        const ctor = proto === null ? undefined : proto.constructor
        name = typeof ctor === 'function' && ctor.prototype === proto ? ctor.name : ''
      } catch {
        name = ''
      }
      if (name === 'Object' || name === 'Array') return `an ${name} of another realm`
      if (!name) return 'an object with a foreign prototype'
      return `${/^[AEIO]/.test(name) ? 'an' : 'a'} ${name}`
    }
    default:
      return typeof v
  }
}

/** @param {unknown} v */
function unsupported(v) {
  const what = describe(v)
  // a handle of the other build in this process (the native addon's and the wasm build's classes
  // differ): say so, rather than leave the caller wondering why a JsonText is refused
  const other = /^an? (JsonText|Jwks|SigningKey)$/.test(what) ? ' (one of another copy of ekl-evidence: the native addon and the wasm build each take their own)' : ''
  return new EklError('UNSUPPORTED_TYPE', `${what} has no JSON form${other}`)
}

/**
 * Refuses symbol keys of a plain object; returns its own enumerable string keys.
 * @param {object} obj
 */
function plainKeys(obj) {
  const keys = keysOf(obj)
  if (symbolsOf(obj).length !== 0) {
    throw new EklError('NON_STRING_KEY', 'an object has a symbol-keyed property')
  }
  return keys
}

/**
 * JSON text wrapped so that it is accepted wherever a value is (the core parses it with every
 * ekl-json-1 rule), like the Python package's `JsonText(str|bytes)`. Only at the top level of an
 * argument: a JsonText inside an object or array is refused.
 */
class JsonText {
  /** @param {string | Uint8Array} text */
  constructor(text) {
    if (typeof text === 'string') {
      if (text.length > LIMITS.maxInputBytes) throw tooLarge(LIMITS.maxInputBytes, 'the JSON text')
      if (!isWellFormed(text)) throw loneSurrogate('the JSON text')
    } else if (!(text instanceof Uint8Array)) {
      throw new EklError('INVALID_ARGUMENT', 'JsonText takes a string or a Uint8Array')
    }
    /** @readonly */
    this.text = text
    Object.freeze(this)
  }

  /**
   * What console.log and util.inspect show: the length, never the text (it may be a private
   * JWK or a secret), as Python's repr.
   * @returns {string}
   */
  [Symbol.for('nodejs.util.inspect.custom')]() {
    const n = typeof this.text === 'string' ? new TextEncoder().encode(this.text).length : this.text.length
    return `JsonText(<${n} bytes>)`
  }
}

/**
 * JSON text given as a string, bytes or JsonText, checked for what the native boundary would
 * lose (a lone surrogate in a JS string would become U+FFFD in UTF-8), against the maximum input
 * (BODY_TOO_LARGE, before anything is read), and copied when other threads can write it.
 * @param {unknown} input
 * @param {string} [what] the argument's name in messages
 * @returns {string | Uint8Array}
 */
function jsonTextOf(input, what = 'json') {
  if (typeof input === 'string') {
    if (input.length > LIMITS.maxInputBytes) throw tooLarge(LIMITS.maxInputBytes, 'the JSON text')
    if (!isWellFormed(input)) throw loneSurrogate('the JSON text')
    return input
  }
  if (input instanceof Uint8Array) return boundedText(input)
  if (input instanceof JsonText) return boundedText(input.text)
  throw new EklError(
    'INVALID_ARGUMENT',
    `${what} must be JSON text: a string, a Uint8Array (Buffer) or a JsonText`,
  )
}

/**
 * Bytes the value of a Uint8Array holds, safe to read while the call runs: a view of a
 * SharedArrayBuffer is copied first (another thread may write it at any time; native code must
 * never read memory that changes under it), any other view is returned as it is. The buffer's
 * kind is asked of the engine (an ArrayBuffer getter refuses a SharedArrayBuffer), not of its
 * prototype, so views of another realm's shared memory are copied too.
 * @param {Uint8Array} u8
 * @returns {Uint8Array}
 */
function stableBytes(u8) {
  // empty, or a view of a detached buffer (which the wasm glue cannot copy): empty input alike
  if (u8.length === 0) return new Uint8Array(0)
  const buffer = bufferOf(u8)
  try {
    abByteLength(buffer)
    return u8
  } catch {
    const copy = new Uint8Array(u8.length)
    copy.set(u8)
    return copy
  }
}

/**
 * The refusal of JSON text (or a value's JSON form) longer than `limit`.
 * @param {number} limit
 * @param {string} what
 */
function tooLarge(limit, what) {
  return new EklError('BODY_TOO_LARGE', `${what} is longer than ${limit} bytes`)
}

/**
 * JSON text checked against the maximum input: a string longer than LIMITS.maxInputBytes UTF-16 code
 * units (its UTF-8 form is at least as long) or bytes longer than LIMITS.maxInputBytes are refused
 * before anything reads them. (A string within the bound whose UTF-8 form is longer is refused
 * by the binding once it has encoded it.)
 * @param {string | Uint8Array} t
 * @returns {string | Uint8Array}
 */
function boundedText(t) {
  if (t.length > LIMITS.maxInputBytes) throw tooLarge(LIMITS.maxInputBytes, 'the JSON text')
  return typeof t === 'string' ? t : stableBytes(t)
}

/**
 * The JSON text of a JS value under the strict rules above; a JsonText is passed through.
 *
 * `limit` bounds the JSON form's length (the operation's own limit, such as the 256 KB of a
 * capability input; never more than LIMITS.maxValueBytes): the walk stops with BODY_TOO_LARGE as soon
 * as the text written so far, counted in the lengths of its canonical form, passes it — UTF-16
 * code units, never more than the UTF-8 bytes, so a value whose canonical form fits is never
 * refused here. The members and elements examined are bounded too (LIMITS.maxReads), so a graph
 * of shared references that expands exponentially is refused in bounded time and memory.
 * @param {unknown} value
 * @param {number} [limit]
 * @returns {string | Uint8Array}
 */
function toJsonText(value, limit) {
  const max = limit === undefined || limit === null || limit > LIMITS.maxValueBytes ? LIMITS.maxValueBytes : limit
  try {
    // (instanceof runs a Proxy's getPrototypeOf trap: inside the try too)
    if (value instanceof JsonText) return boundedText(value.text)
    return walk(value, max)
  } catch (e) {
    if (e instanceof EklError) throw e
    // Only a Proxy trap can run code here (getters are never run): what it threw is not ours
    // to pass on, and its message may hold anything.
    throw new EklError('UNSUPPORTED_TYPE', 'reading the value threw (a Proxy trap)')
  }
}

/** The member value the last call of `nextMember` found. @type {unknown} */
let found

/**
 * The index of the first member of `obj` at or after `i` that is written (`keys.length` when
 * none is left): an accessor is refused, a member whose value is `undefined` is absent (as
 * JSON.stringify has it). Each member is read once, through its descriptor, so no getter runs
 * and what is checked is what is written.
 * @param {object} obj
 * @param {string[]} keys
 * @param {number} i
 * @returns {number}
 */
function nextMember(obj, keys, i) {
  for (; i < keys.length; i++) {
    const d = descriptorOf(obj, keys[i])
    // Gone since Object.keys: only a Proxy trap can do that.
    if (d === undefined) continue
    if (!('value' in d)) throw accessor('an object')
    if (d.value !== undefined) {
      found = d.value
      return i
    }
  }
  return i
}

/** @param {string} what */
function accessor(what) {
  return new EklError(
    'UNSUPPORTED_TYPE',
    `${what} has an accessor property (getter); only data properties are converted`,
  )
}

/**
 * Element `i` of an array, refusing an accessor (its getter is never run).
 * @param {unknown[]} a
 * @param {number} i
 * @returns {unknown}
 */
function element(a, i) {
  if (lookupGetter !== undefined) {
    if (lookupGetter.call(a, i) !== undefined) throw accessor('an array')
    return a[i]
  }
  const d = descriptorOf(a, i)
  if (d === undefined) return undefined
  if (!('value' in d)) throw accessor('an array')
  return d.value
}

/** Text longer than this is flattened and set aside, so the rope of small pieces stays small. */
const CHUNK = 1 << 16

/**
 * The JSON text of `value` (see toJsonText), at most `max` long.
 * @param {unknown} value
 * @param {number} max
 * @returns {string}
 */
function walk(value, max) {
  // The open containers, their keys (null for arrays) and the index being written.
  /** @type {object[]} */
  const conts = []
  /** @type {(string[] | null)[]} */
  const keyLists = []
  /** @type {number[]} */
  const idxs = []
  // The text is `parts` (flat strings) followed by `out`; `done` is the length of `parts`.
  /** @type {string[]} */
  const parts = []
  let done = 0
  let out = ''
  // The canonical form's length minus the text's (numbers beyond 2^53 are written differently).
  let extra = 0
  let work = 0
  let v = value
  for (;;) {
    if (done + out.length + extra > max) throw tooLarge(max, "the value's JSON form")
    if (out.length > CHUNK) {
      out.charCodeAt(0) // flattens the rope, so its pieces can be collected
      parts.push(out)
      done += out.length
      out = ''
    }
    if (++work > LIMITS.maxReads) throw tooBig()
    // 1. Write v (or open it, when it is a non-empty container).
    switch (typeof v) {
      case 'string':
        if (done + out.length + extra + v.length > max) throw tooLarge(max, "the value's JSON form")
        out += quote(v, 'a string')
        break
      case 'number':
        if (v !== v || v === Infinity || v === -Infinity) {
          throw new EklError('NON_FINITE_NUMBER', 'NaN and Infinity have no JSON form')
        }
        if (v > LIMITS.bound || v < -LIMITS.bound) {
          // Beyond 2^53, String(x) may be an integer literal, which the text parser refuses.
          const t = toExponential.call(v)
          extra += String(v).length - t.length
          out += t
        } else {
          out += v === 0 ? '0' : String(v)
        }
        break
      case 'boolean':
        out += v ? 'true' : 'false'
        break
      case 'bigint':
        if (v > LIMITS.bigBound || v < -LIMITS.bigBound) throw outOfRange()
        out += String(v) // the abstract ToString, not a BigInt.prototype.toString patched later
        break
      case 'object': {
        if (v === null) {
          out += 'null'
          break
        }
        const proto = getProto(v)
        /** @type {string[] | null} */
        let keys
        if (proto === objectProto || proto === null) {
          keys = plainKeys(v)
        } else if (proto === arrayProto && isArray(v)) {
          keys = null
        } else {
          throw unsupported(v)
        }
        for (let i = 0; i < conts.length; i++) {
          if (conts[i] === v) {
            throw new EklError('CYCLIC_VALUE', 'a structure contains itself')
          }
        }
        if (conts.length >= LIMITS.maxDepth) {
          throw new EklError('INPUT_TOO_DEEP', `nesting deeper than ${LIMITS.maxDepth} levels`)
        }
        if (keys === null) {
          const a = /** @type {unknown[]} */ (v)
          if (a.length === 0) {
            out += '[]'
            break
          }
          out += '['
          conts.push(a)
          keyLists.push(null)
          idxs.push(0)
          v = element(a, 0)
        } else {
          work += keys.length
          if (work > LIMITS.maxReads) throw tooBig()
          const i = nextMember(v, keys, 0)
          if (i === keys.length) {
            out += '{}'
            break
          }
          const k = keys[i]
          if (done + out.length + extra + k.length > max) throw tooLarge(max, "the value's JSON form")
          out += '{' + quoteKey(k)
          conts.push(v)
          keyLists.push(keys)
          idxs.push(i)
          v = found
        }
        continue
      }
      default:
        throw unsupported(v)
    }
    // 2. Move to the next value, closing the containers that are complete.
    for (;;) {
      const d = conts.length - 1
      if (d < 0) {
        if (done + out.length + extra > max) throw tooLarge(max, "the value's JSON form")
        if (parts.length === 0) return out
        parts.push(out)
        return parts.join('')
      }
      const c = conts[d]
      const keys = keyLists[d]
      if (keys === null) {
        const a = /** @type {unknown[]} */ (c)
        const i = idxs[d] + 1
        if (i < a.length) {
          idxs[d] = i
          out += ','
          v = element(a, i)
          break
        }
        out += ']'
      } else {
        const i = nextMember(c, keys, idxs[d] + 1)
        if (i < keys.length) {
          idxs[d] = i
          const k = keys[i]
          if (done + out.length + extra + k.length > max) throw tooLarge(max, "the value's JSON form")
          out += ',' + quoteKey(k)
          v = found
          break
        }
        out += '}'
      }
      conts.pop()
      keyLists.pop()
      idxs.pop()
    }
  }
}

function tooBig() {
  return new EklError(
    'BODY_TOO_LARGE',
    `the value has more than ${LIMITS.maxReads} members and elements to read`,
  )
}

function outOfRange() {
  return new EklError(
    'INTEGER_OUT_OF_RANGE',
    `integer beyond ±2^53 (ekl-json-1 accepts -${LIMITS.bound} to ${LIMITS.bound})`,
  )
}

/**
 * The options object of a call as a null-prototype copy of its own enumerable string-keyed
 * properties, each read once: nothing is read through the prototype chain, so a polluted
 * `Object.prototype` (or options made with `Object.create(proto)`) changes no option. Unknown
 * names are refused, naming the allowed ones; undefined or null is no options, and an option
 * whose value is undefined is left out.
 * @param {string} fn the function's name in messages
 * @param {unknown} options
 * @param {string[]} allowed
 * @returns {Record<string, unknown>}
 */
function ownOptions(fn, options, allowed) {
  /** @type {Record<string, unknown>} */
  const out = Object.create(null)
  if (options === undefined || options === null) return out
  try {
    // a plain object (or a class instance): not an array, a Map, a Date, bytes, a JsonText...,
    // whose members would silently be no options
    if (typeof options !== 'object' || Array.isArray(options) || options instanceof JsonText || Object.prototype.toString.call(options) !== '[object Object]') {
      throw new EklError('INVALID_ARGUMENT', `${fn}: options must be an object (${allowed.join(', ')})`)
    }
    for (const k of Object.keys(options)) {
      if (!allowed.includes(k)) throw new EklError('INVALID_ARGUMENT', `${fn}: unknown option ${JSON.stringify(k)} (allowed: ${allowed.join(', ')})`)
      const v = /** @type {Record<string, unknown>} */ (options)[k]
      if (v !== undefined) out[k] = v
    }
  } catch (e) {
    if (e instanceof EklError) throw e
    // a Proxy trap (or a getter) threw: its error is not ours to pass on
    throw new EklError('INVALID_ARGUMENT', `${fn}: reading the options threw`)
  }
  return out
}

module.exports = { toJsonText, jsonTextOf, stableBytes, ownOptions, JsonText, isWellFormed, LIMITS, useLimits }
