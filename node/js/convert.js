'use strict'
// The one strict conversion of JS values to JSON text, shared by the Node (native) and wasm
// packages of ekl-core so that both behave identically. The text it produces is handed to the
// core's text canonicaliser, which applies every ekl-json-1 rule again: this walker only refuses
// what JSON text cannot express (and, for document-order precedence, what it can check cheaply).
//
// Rules (docs/decisions.md#node):
// * plain objects (prototype Object.prototype or null): their own enumerable string keys
//   (Object.keys); an own symbol-keyed property is refused (NON_STRING_KEY); an own enumerable
//   accessor (getter) is refused (UNSUPPORTED_TYPE): plain data properties only;
// * arrays (prototype Array.prototype): elements 0..length-1; a hole is `undefined` and refused;
//   other own properties of an array are ignored, as JSON.stringify ignores them;
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
// * refused with UNSUPPORTED_TYPE: undefined (as a value, a member or an array element),
//   functions, symbols, class instances (Map, Set, Date, RegExp, Error, typed arrays, Buffer,
//   boxed primitives, objects of other realms, JsonText below the top level, ...);
// * a structure that contains itself: CYCLIC_VALUE; nesting deeper than 64 (an array or object
//   is one level): INPUT_TOO_DEEP. No recursion: an explicit stack, so no input can overflow it.
// The first refusal in document order (the order of the produced text) wins, as in the core.
// This file must not use Node-only APIs: the wasm package runs it in browsers.

const { EklError } = require('./errors.js')

/** The deepest nesting accepted (PROTOCOL §2.5): `[]` is depth 1. */
const MAX_DEPTH = 64
/** 2^53: the largest magnitude of an integer literal (and a BigInt) ekl-json-1 accepts. */
const BOUND = 9007199254740992
const BIG_BOUND = BigInt(BOUND)
const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?:^|[^\ud800-\udbff])[\udc00-\udfff]/

const objectProto = Object.prototype
const arrayProto = Array.prototype
const getProto = Object.getPrototypeOf
const keysOf = Object.keys
const symbolsOf = Object.getOwnPropertySymbols
const descriptorOf = Object.getOwnPropertyDescriptor
const isArray = Array.isArray
const stringify = JSON.stringify

/** True when `s` holds no lone surrogate. */
const isWellFormed =
  typeof String.prototype.isWellFormed === 'function'
    ? (s) => s.isWellFormed()
    : (s) => !LONE.test(s)

function loneSurrogate(where) {
  return new EklError(
    'LONE_SURROGATE',
    `${where} holds a lone UTF-16 surrogate, which has no UTF-8 form`,
  )
}

/** Whether JSON.stringify escapes lone surrogates (ES2019 well-formed JSON.stringify). */
const STRINGIFY_ESCAPES_LONE = stringify('\ud800') === '"\\ud800"'

function quoteSlow(s, where) {
  if (!isWellFormed(s)) throw loneSurrogate(where)
  return stringify(s)
}

/** JSON text of a string (value or key), refusing lone surrogates. */
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
const keyCache = new Map()
const KEY_CACHE_MAX = 2048
const KEY_CACHE_MAX_LENGTH = 64

/** JSON text of a key followed by `:`, refusing lone surrogates. */
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

/** A short name of a value's kind for messages (never its content). */
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

function unsupported(v) {
  return new EklError('UNSUPPORTED_TYPE', `${describe(v)} has no JSON form`)
}

/** Refuses symbol keys and accessors of a plain object; returns its keys. */
function plainKeys(obj) {
  const keys = keysOf(obj)
  if (symbolsOf(obj).length !== 0) {
    throw new EklError('NON_STRING_KEY', 'an object has a symbol-keyed property')
  }
  for (let i = 0; i < keys.length; i++) {
    const d = descriptorOf(obj, keys[i])
    if (d === undefined || !('value' in d)) {
      throw new EklError(
        'UNSUPPORTED_TYPE',
        'an object has an accessor property (getter); only data properties are converted',
      )
    }
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
      if (!isWellFormed(text)) throw loneSurrogate('the JSON text')
    } else if (!(text instanceof Uint8Array)) {
      throw new EklError('INVALID_ARGUMENT', 'JsonText takes a string or a Uint8Array')
    }
    /** @readonly */
    this.text = text
    Object.freeze(this)
  }
}

/**
 * JSON text given as a string, bytes or JsonText, checked for what the native boundary would
 * lose (a lone surrogate in a JS string would become U+FFFD in UTF-8).
 * @returns {string | Uint8Array}
 */
function jsonTextOf(input, what = 'json') {
  if (typeof input === 'string') {
    if (!isWellFormed(input)) throw loneSurrogate('the JSON text')
    return input
  }
  if (input instanceof Uint8Array) return input
  if (input instanceof JsonText) return input.text
  throw new EklError(
    'INVALID_ARGUMENT',
    `${what} must be JSON text: a string, a Uint8Array (Buffer) or a JsonText`,
  )
}

/**
 * The JSON text of a JS value under the strict rules above; a JsonText is passed through.
 * @returns {string | Uint8Array}
 */
function toJsonText(value) {
  if (value instanceof JsonText) return value.text
  // The open containers, their keys (null for arrays) and the index being written.
  const conts = []
  const keyLists = []
  const idxs = []
  let out = ''
  let v = value
  for (;;) {
    // 1. Write v (or open it, when it is a non-empty container).
    switch (typeof v) {
      case 'string':
        out += quote(v, 'a string')
        break
      case 'number':
        if (v !== v || v === Infinity || v === -Infinity) {
          throw new EklError('NON_FINITE_NUMBER', 'NaN and Infinity have no JSON form')
        }
        // Beyond 2^53, String(x) may be an integer literal, which the text parser refuses.
        out += v > BOUND || v < -BOUND ? v.toExponential() : v === 0 ? '0' : String(v)
        break
      case 'boolean':
        out += v ? 'true' : 'false'
        break
      case 'bigint':
        if (v > BIG_BOUND || v < -BIG_BOUND) throw outOfRange()
        out += v.toString()
        break
      case 'object': {
        if (v === null) {
          out += 'null'
          break
        }
        const proto = getProto(v)
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
        if (conts.length >= MAX_DEPTH) {
          throw new EklError('INPUT_TOO_DEEP', `nesting deeper than ${MAX_DEPTH} levels`)
        }
        if (keys === null) {
          if (v.length === 0) {
            out += '[]'
            break
          }
          out += '['
          conts.push(v)
          keyLists.push(null)
          idxs.push(0)
          v = v[0]
        } else {
          if (keys.length === 0) {
            out += '{}'
            break
          }
          const k = keys[0]
          out += '{' + quoteKey(k)
          conts.push(v)
          keyLists.push(keys)
          idxs.push(0)
          v = v[k]
        }
        continue
      }
      default:
        throw unsupported(v)
    }
    // 2. Move to the next value, closing the containers that are complete.
    for (;;) {
      const d = conts.length - 1
      if (d < 0) return out
      const c = conts[d]
      const keys = keyLists[d]
      const i = idxs[d] + 1
      if (keys === null) {
        if (i < c.length) {
          idxs[d] = i
          out += ','
          v = c[i]
          break
        }
        out += ']'
      } else {
        if (i < keys.length) {
          idxs[d] = i
          const k = keys[i]
          out += ',' + quoteKey(k)
          v = c[k]
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

function outOfRange() {
  return new EklError(
    'INTEGER_OUT_OF_RANGE',
    'integer beyond ±2^53 (ekl-json-1 accepts -9007199254740992 to 9007199254740992)',
  )
}

module.exports = { toJsonText, jsonTextOf, JsonText, isWellFormed, MAX_DEPTH }
