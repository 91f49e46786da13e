'use strict'
// The public API of the ekl-core JS packages, built from the registry of the bridge crate
// (docs/operations.json, which the binding returns from `operations()`) over a low-level binding:
// the napi addon in Node (node/index.js), the wasm module elsewhere (wasm/js/binding.js). Shared
// by both packages; it must not use Node-only APIs.
//
// Each operation becomes a function named by its `js` name (or the class `Jwks`): required
// parameters positional, optional ones as members of one trailing options object (camelCase;
// unknown names refused, naming the allowed ones). Arguments are converted by their kind:
//   value     a JS value (the strict walker of convert.js) or JsonText → UTF-8 JSON text; the
//             members the registry lists as `times` may hold a Date (written in the core's form)
//   text      JSON text: a string, a Uint8Array or a JsonText → UTF-8 bytes
//   str       a string (lone surrogates refused)        bytes  a Uint8Array or a string
//   int       a safe integer                            bool   a boolean
//   now       seconds since the epoch (a safe integer, or a Date); left out: the host's clock;
//             a number that can only be milliseconds (as the bridge: the manifest's
//             replay.milliseconds_from) is refused
//   salt      64 lowercase hex (a string); left out: a fresh salt from the host's CSPRNG
//   str_list  an array of strings                       jwks   a Jwks, a plain object or JsonText
//   number    any number (the operation checks it)      handle a method's `self` (handleClass)
//   key       a SigningKey
// Results: strings, booleans and bytes as they are; values parsed from canonical JSON text
// (protocol objects keep their wire names); Verdicts: a verdict or an EklError per item.
//
// The binding interface: operations(): manifest JSON text; call(index, args) and optionally
// callAsync(index, args) (args per parameter in registry order, null when left out: JSON text as
// Uint8Array, strings, numbers, booleans, string arrays, key handles; results: string (JSON text
// for values), boolean, bytes, key handle, or {jwks: JSON text, keys: handles}); optionally
// canonicalize(bytes, maxBytes|null) (a fast path) and canonicalizeString(utf8, len: the UTF-8 of a
// string, its first len bytes; the canonical bytes, or null when the text holds U+FFFD);
// errorCodes(), coreVersion(), testPanic().
// Every refusal is thrown as an Error with `code` = the core's code, or the message "CODE: message".

const { EklError, isEklError, fromNative } = require('./errors.js')
const { makeRemoteJwks } = require('./remote.js')
const { toJsonText, jsonTextOf, stableBytes, ownOptions, JsonText, isWellFormed, LIMITS, useLimits } = require('./convert.js')

/**
 * A parameter of an operation in the registry (docs/operations.json).
 * @typedef {object} Param
 * @property {string} name the registry's name (snake_case)
 * @property {string} js the JS name (camelCase)
 * @property {string} kind how an argument is converted (the kinds above)
 * @property {boolean} required positional when required, else a member of the options object
 * @property {number | {param: string}} [limit] the bound on a value argument's canonical form
 * @property {Record<string, string>} [times] the members that may hold a Date: 'timestamp' | 'seconds'
 */
/**
 * An operation of the registry.
 * @typedef {object} Op
 * @property {string} name the registry's name (snake_case)
 * @property {string} js the JS name of its function
 * @property {boolean} [class] made a class instead of a function (parse_jwks: Jwks)
 * @property {string} [method_of] the handle class whose method this row is (its first
 *   parameter is `self`, docs/decisions/handles.md)
 * @property {string} returns the result's kind (present() reads it)
 * @property {Param[]} params
 */
/**
 * A signing key handle of the binding (its secret never reaches JS).
 * @typedef {{kid(): string}} KeyHandle
 */
/**
 * The binding interface (described above). Results depend on the operation's `returns`:
 * present() reads them.
 * @typedef {object} Binding
 * @property {() => string} operations the manifest, JSON text
 * @property {(index: number, args: unknown[]) => unknown} call
 * @property {(index: number, args: unknown[]) => Promise<unknown>} [callAsync]
 * @property {(text: string | Uint8Array, maxBytes: number | null) => Uint8Array} [canonicalize]
 * @property {(utf8: Uint8Array, len: number) => Uint8Array | null} [canonicalizeString]
 * @property {() => string[]} errorCodes
 * @property {() => string} coreVersion
 * @property {() => unknown} testPanic
 */

/**
 * Operations that also take their arguments after the first N by name, in one object (the
 * positional form stays): `issueMacReceipt(call, input, output, { status, relVerAtAdmission,
 * dscVer, secret, keyId? ... })`. scripts/dts.js declares the same form from this table.
 * @type {Record<string, number>}
 */
const OBJECT_FORM = { issue_mac_receipt: 3 }

/**
 * A verdict with Python's helpers (ekl_evidence._verdict.Verdict): `failed()`, `disputed`,
 * `check(name)`, as non-enumerable members (JSON.stringify, structuredClone and the value
 * conversion see the wire shape only).
 * @param {any} v
 * @returns {any}
 */
function withVerdictHelpers(v) {
  if (v === null || typeof v !== 'object' || !Array.isArray(v.checks) || typeof v.accepted !== 'boolean') return v
  /** @type {Array<{name: string, outcome: string}>} */
  const checks = v.checks
  Object.defineProperties(v, {
    failed: { value: () => checks.filter((c) => c.outcome !== 'pass').map((c) => c.name), configurable: true, writable: true },
    check: { value: (/** @type {string} */ name) => checks.find((c) => c.name === name), configurable: true, writable: true },
    disputed: {
      get: () => checks.length > 0 && checks.every((c) => c.outcome !== 'fail') && checks.some((c) => c.outcome === 'mismatch'),
      configurable: true,
    },
  })
  return v
}

/** The most elements of an array whose objects withTimes looks at (a key ring has a few keys). */
const TIMES_MAX_ITEMS = 4096

/** @param {string} detail */
const invalid = (detail) => new EklError('INVALID_ARGUMENT', detail)
/** @param {string} what */
const tooLarge = (what) => new EklError('BODY_TOO_LARGE', `${what} is longer than ${LIMITS.maxInputBytes} bytes`)

const encoder = new TextEncoder()

/** A fresh salt: 32 bytes of the host's CSPRNG (crypto.getRandomValues) as 64 lowercase hex. */
function freshSalt() {
  const bytes = new Uint8Array(32)
  globalThis.crypto.getRandomValues(bytes)
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}
/** A reusable buffer for the first JSON text of a call (the binding reads it during the call). */
let scratch = new Uint8Array(64 * 1024)

/**
 * UTF-8 bytes of JSON text; past the maximum input: BODY_TOO_LARGE, before the binding sees it.
 * @param {string | Uint8Array} t
 * @param {boolean} first whether the reusable buffer may hold it (the call's first text)
 * @returns {Uint8Array}
 */
function utf8(t, first) {
  if (typeof t !== 'string') return t
  if (first && t.length * 3 <= 4 * 1024 * 1024) {
    if (t.length * 3 > scratch.length) scratch = new Uint8Array(Math.max(t.length * 3, scratch.length * 2))
    return scratch.subarray(0, encoder.encodeInto(t, scratch).written)
  }
  const b = encoder.encode(t)
  if (b.length > LIMITS.maxInputBytes) throw tooLarge('the text as UTF-8')
  return b
}

/**
 * A string argument: a string, at most LIMITS.maxInputBytes code units, no lone surrogate.
 * @param {unknown} x
 * @param {string} what
 * @returns {string}
 */
function str(x, what) {
  if (typeof x !== 'string') throw invalid(`${what} must be a string`)
  if (x.length > LIMITS.maxInputBytes) throw tooLarge(what)
  if (!isWellFormed(x)) throw new EklError('LONE_SURROGATE', `${what} holds a lone UTF-16 surrogate`)
  return x
}

/**
 * @param {unknown} x
 * @param {string} what
 * @returns {number}
 */
function integer(x, what) {
  // within ±2^53, as the bridge checks on every surface (JSON's exact integers)
  if (typeof x !== 'number' || !Number.isInteger(x) || Math.abs(x) > LIMITS.bound) throw invalid(`${what} must be an integer within ±2^53`)
  return x
}

/**
 * Seconds since the epoch: a number (a fraction is floored, toward −∞, as on every surface:
 * docs/decisions.md#fractional-now) or a Date; NaN, ±Infinity, beyond ±2^53 and milliseconds
 * are refused.
 * @param {unknown} x
 * @param {string} what
 * @returns {number}
 */
function seconds(x, what) {
  if (x instanceof Date) x = x.getTime() / 1000
  if (typeof x === 'number') x = Math.floor(x)
  if (typeof x !== 'number' || !(Math.abs(x) <= LIMITS.bound)) throw invalid(`${what} must be a number of seconds since the epoch (or a Date)`)
  if (Math.abs(x) >= LIMITS.millisecondsFrom) throw invalid(`${what} must be seconds since the epoch, not milliseconds (Math.floor(Date.now() / 1000))`)
  return x
}

const TEXT_KINDS = new Set(['value', 'text', 'jwks'])
const HANDLE = Symbol('ekl-core handle')
/** The token only this module holds: `new SigningKey(...)` from outside is refused. */
const MINT = Symbol('ekl-core signing key')
const TEXT = Symbol('ekl-core JWKS text')
/**
 * The hidden slots of a Jwks (defined with Object.defineProperty, so not declared by the class).
 * @typedef {{readonly [TEXT]: string, readonly [HANDLE]: Uint8Array}} JwksSlots
 */
/**
 * The hidden slot of a SigningKey.
 * @typedef {{readonly [HANDLE]: KeyHandle}} KeySlots
 */

/**
 * Builds the public API over a binding.
 * @param {Binding} binding the low-level functions (see the top of this file)
 * @param {{backend: string}} info which binding this is ('native' or 'wasm')
 */
function makeApi(binding, info) {
  const codes = new Set(binding.errorCodes())
  const whole = JSON.parse(binding.operations())
  /** @type {Op[]} */
  const manifest = whole.operations
  /** @type {Record<string, any>} the manifest's constants by name */
  const constants = Object.freeze(Object.fromEntries((whole.constants || []).map((/** @type {{name: string, value: unknown}} */ c) => [c.name, c.value])))
  useLimits(constants.limits)
  // The wasm verify build has no replay guard, so no `replay` constants: there the bridge alone
  // refuses milliseconds (INVALID_ARGUMENT, bridge/src/args.rs), with the same code.
  LIMITS.millisecondsFrom = constants.replay ? constants.replay.milliseconds_from : Infinity
  const index = new Map(manifest.map((op, i) => [op.name, i]))

  /**
   * `f()`, what it throws as an EklError (fromNative).
   * @template T
   * @param {() => T} f
   * @returns {T}
   */
  function guard(f) {
    try {
      return f()
    } catch (e) {
      throw fromNative(e, codes)
    }
  }

  /**
   * A validated JWKS (P-256 keys), parsed once; verifications reuse the parse while it is the
   * last one. The handle keeps the set as it was given (a copy of its JSON text), so the keys of
   * other kinds that the parse skipped still answer `UNSUPPORTED_KEY`, as the plain value does,
   * not `UNKNOWN_KID`; `kids` and `toJSON()` are the usable keys.
   */
  class Jwks {
    /** @param {unknown} jwks the key set: a plain object, JSON text, a JsonText or a Jwks */
    constructor(jwks) {
      const i = /** @type {number} */ (index.get('parse_jwks'))
      const args = prepare(manifest[i], [jwks])
      // A copy: the text may sit in the reusable buffer, or in the caller's bytes.
      const given = new Uint8Array(/** @type {Uint8Array} */ (args[0]))
      return jwksOf(/** @type {string} */ (guard(() => binding.call(i, args))), given)
    }
    /** The key ids of the usable keys, in order. */
    get kids() {
      return JSON.parse(/** @type {JwksSlots} */ (/** @type {unknown} */ (this))[TEXT]).keys.map((/** @type {{kid: string}} */ k) => k.kid)
    }
    /** The usable keys as a JWKS value (`{keys: [...]}`). */
    toJSON() {
      return JSON.parse(/** @type {JwksSlots} */ (/** @type {unknown} */ (this))[TEXT])
    }
  }
  /**
   * A Jwks of the canonical text of its usable keys, verifying with `given` (default: that text).
   * @param {string} text
   * @param {Uint8Array} [given]
   * @returns {Jwks}
   */
  function jwksOf(text, given) {
    const j = Object.create(Jwks.prototype)
    Object.defineProperty(j, TEXT, { value: text })
    Object.defineProperty(j, HANDLE, { value: given ?? encoder.encode(text) })
    return Object.freeze(j)
  }

  /** An ES256 signing key (tests, vectors, local networks): its secret never reaches JS. */
  class SigningKey {
    /**
     * @param {KeyHandle} handle what the binding returned (not made by users)
     * @param {symbol} [mint] this module's own token: a SigningKey is made by the operations only
     */
    constructor(handle, mint) {
      if (mint !== MINT || handle === undefined || handle === null || typeof handle.kid !== 'function') throw invalid('make a SigningKey with signingKey(seed, kid) or signingKeyFromJwk(jwk)')
      Object.defineProperty(this, HANDLE, { value: handle })
      Object.freeze(this)
    }
    /** @returns {string} */
    get kid() {
      return /** @type {KeySlots} */ (/** @type {unknown} */ (this))[HANDLE].kid()
    }
  }

  /**
   * The protocol's timestamp of seconds, written by the core (the `format_timestamp` operation).
   * @param {number} secs
   * @returns {string}
   */
  function timestamp(secs) {
    const i = /** @type {number} */ (index.get('format_timestamp'))
    return /** @type {string} */ (call(manifest[i], i, [secs]))
  }

  /**
   * A value whose time members (the parameter's `times` in the registry: `issued_at` of a receipt,
   * `iat`/`nbf`/`exp` of claims, `valid_from`/`valid_until` of each key of a key ring, ...) may
   * hold a Date: those are written in the form the core reads (`timestamp`: as formatTimestamp
   * writes it; `seconds`: an integer; milliseconds refused as for `now`). Only a plain object of
   * data properties holding such a Date is copied, in its order and each member read once through
   * its descriptor (no getter runs), and likewise a plain array (of at most TIMES_MAX_ITEMS
   * elements, data properties) of which some elements are such objects; anything else is handed
   * on as it is, for the strict conversion to accept or refuse with its own code.
   * @param {Op} op
   * @param {Param & {times: Record<string, string>}} p
   * @param {unknown} x
   * @returns {unknown}
   */
  function withTimes(op, p, x) {
    try {
      if (!Array.isArray(x)) return timedObject(op, p, x, `${op.js}: ${p.js}`)
      if (Object.getPrototypeOf(x) !== Array.prototype || x.length > TIMES_MAX_ITEMS) return x
      const items = []
      let changed = false
      for (let i = 0; i < x.length; i++) {
        const d = Object.getOwnPropertyDescriptor(x, i)
        if (d === undefined || !('value' in d)) return x
        const v = timedObject(op, p, d.value, `${op.js}: ${p.js}[${i}]`)
        changed = changed || v !== d.value
        items.push(v)
      }
      return changed ? items : x
    } catch (e) {
      if (isEklError(e)) throw e
      return x // a Proxy trap threw: the conversion meets it again and refuses it
    }
  }

  /**
   * `x` with its time members written (see withTimes), or `x` itself.
   * @param {Op} op
   * @param {Param & {times: Record<string, string>}} p
   * @param {unknown} x
   * @param {string} what
   * @returns {unknown}
   */
  function timedObject(op, p, x, what) {
    if (x === null || typeof x !== 'object' || x instanceof JsonText) return x
    const proto = Object.getPrototypeOf(x)
    if (proto !== Object.prototype && proto !== null) return x
    const dated = Object.keys(p.times).some((m) => {
      const d = Object.getOwnPropertyDescriptor(x, m)
      return d !== undefined && 'value' in d && d.value instanceof Date
    })
    if (!dated || Object.getOwnPropertySymbols(x).length !== 0) return x
    const copy = Object.create(proto)
    for (const k of Object.keys(x)) {
      const d = Object.getOwnPropertyDescriptor(x, k)
      if (d === undefined) continue
      if (!('value' in d)) return x
      let v = d.value
      const form = Object.prototype.hasOwnProperty.call(p.times, k) ? p.times[k] : undefined
      if (form !== undefined && v instanceof Date) {
        const secs = seconds(v, `${what}.${k}`)
        v = form === 'seconds' ? secs : timestamp(secs)
      }
      Object.defineProperty(copy, k, { value: v, enumerable: true, writable: true, configurable: true })
    }
    return copy
  }

  /**
   * One argument converted by its parameter's kind (JSON text as a string or bytes).
   * @param {Op} op
   * @param {Param} p
   * @param {unknown} x
   * @param {number | undefined} limit
   * @returns {unknown}
   */
  function convert(op, p, x, limit) {
    const what = `${op.js}: ${p.js}`
    switch (p.kind) {
      case 'value':
        return toJsonText(p.times ? withTimes(op, /** @type {Param & {times: Record<string, string>}} */ (p), x) : x, limit)
      case 'text':
        if (x !== null && typeof x === 'object' && !(x instanceof Uint8Array) && !(x instanceof JsonText)) {
          // An object or an array where text is expected: the caller wants the value form.
          throw invalid(`${what} must be JSON text: a string, a Uint8Array (Buffer) or a JsonText; for a JS value use canonicalizeValue`)
        }
        return jsonTextOf(x, what)
      case 'jwks':
        if (x instanceof Jwks) return /** @type {Jwks & JwksSlots} */ (x)[HANDLE]
        // JSON text as text (a key set is never a JSON string), as in Python; a value as a value
        if (typeof x === 'string' || x instanceof Uint8Array) return jsonTextOf(x, what)
        return toJsonText(x)
      case 'str':
      case 'salt':
        return str(x, what)
      case 'bytes':
        if (typeof x === 'string') return str(x, what)
        if (!(x instanceof Uint8Array)) throw invalid(`${what} must be a string or a Uint8Array`)
        if (x.length > LIMITS.maxInputBytes) throw tooLarge(what)
        return stableBytes(x)
      case 'int':
        return integer(x, what)
      case 'number':
        // any number (NaN and ±Infinity too): the operation checks its bounds
        if (typeof x !== 'number') throw invalid(`${what} must be a number`)
        return x
      case 'now':
        return seconds(x, what)
      case 'bool':
        if (typeof x !== 'boolean') throw invalid(`${what} must be a boolean`)
        return x
      case 'str_list': {
        if (!Array.isArray(x)) throw invalid(`${what} must be an array of strings`)
        let total = 0
        return x.map((s) => {
          total += str(s, what).length + 1
          if (total > LIMITS.maxInputBytes) throw tooLarge(what)
          return s
        })
      }
      case 'key':
        if (!(x instanceof SigningKey)) throw invalid(`${what} must be a SigningKey (signingKey(seed, kid))`)
        return /** @type {SigningKey & KeySlots} */ (x)[HANDLE]
      default:
        throw invalid(`${what}: unknown kind ${p.kind}`)
    }
  }

  /**
   * The bound on a value argument's canonical form while it is converted: the registry's `limit`
   * of the parameter (docs/operations.json): a number, or `{param}` naming the option that holds
   * it (`maxBytes`); none: LIMITS.maxValueBytes (convert() never goes past that). The option bounds the
   * conversion only when it is a valid one (a non-negative safe integer, as the Python package
   * reads it): it is checked after the value (convert() in parameter order), and a malformed
   * maxBytes must be refused as such (INVALID_ARGUMENT), not as a bound passed (BODY_TOO_LARGE).
   * @param {Op} op
   * @param {Param} p
   * @param {Record<string, unknown>} options
   * @returns {number | undefined}
   */
  function valueLimit(op, p, options) {
    const limit = p.limit
    if (limit === undefined) return undefined
    if (typeof limit === 'number') return limit
    const named = op.params.find((q) => q.name === limit.param)
    if (named === undefined) return undefined
    const given = options[named.js]
    return typeof given === 'number' && Number.isSafeInteger(given) && given >= 0 ? given : undefined
  }

  /**
   * The binding's arguments of `op` from the caller's: required positional, then options.
   * @param {Op} op
   * @param {unknown[]} given
   * @returns {unknown[]}
   */
  function prepare(op, given) {
    const required = op.params.filter((p) => p.required)
    const optional = op.params.filter((p) => !p.required)
    const max = required.length + (optional.length > 0 ? 1 : 0)
    if (given.length > max && given.slice(max).some((x) => x !== undefined)) {
      throw invalid(`${op.js} takes ${required.length} argument${required.length === 1 ? '' : 's'}${optional.length ? ' and an options object' : ''}`)
    }
    /** @type {Record<string, unknown>} */
    const options = optional.length === 0 ? Object.create(null) : ownOptions(op.js, given[required.length], optional.map((p) => p.js))
    const args = op.params.map((p, i) => {
      const x = p.required ? given[i] : options[p.js]
      if (x === undefined || x === null) {
        if (p.kind === 'now') return seconds(Math.floor(Date.now() / 1000), p.js)
        if (p.kind === 'salt') return freshSalt()
        if (!p.required) return null
        if (p.kind !== 'value') throw invalid(`${op.js}: ${p.js} is required`)
      }
      try {
        return convert(op, p, x, valueLimit(op, p, options))
      } catch (e) {
        if (isEklError(e)) throw e
        // Only a Proxy trap runs code here (instanceof, typeof checks): what it threw is not ours
        // to pass on, and its message may hold anything.
        throw new EklError(p.kind === 'value' || p.kind === 'jwks' ? 'UNSUPPORTED_TYPE' : 'INVALID_ARGUMENT', `${op.js}: reading ${p.js} threw (a Proxy trap)`)
      }
    })
    // JSON text to UTF-8 once every argument is read (a Proxy trap that calls the API while one
    // is read cannot overwrite the reusable buffer, which the first text of the call takes).
    let first = true
    op.params.forEach((p, i) => {
      const a = args[i]
      if (TEXT_KINDS.has(p.kind) && typeof a === 'string') {
        args[i] = utf8(a, first)
        first = false
      }
    })
    return args
  }

  /**
   * The positional arguments of `op` from its object form (`OBJECT_FORM`): `given` unchanged unless
   * it is exactly the first `n` arguments and one plain object; then the object's members named
   * by the required parameters after the first `n` become positional, and the rest the options.
   * @param {Op} op
   * @param {number} n
   * @param {unknown[]} given
   * @returns {unknown[]}
   */
  function byName(op, n, given) {
    const obj = given[n]
    if (given.length !== n + 1 || obj === null || typeof obj !== 'object' || Array.isArray(obj)) return given
    const required = op.params.filter((p) => p.required)
    const optional = op.params.filter((p) => !p.required)
    const named = required.slice(n)
    /** @type {Record<string, unknown>} */
    const all = ownOptions(op.js, obj, [...named, ...optional].map((p) => p.js))
    for (const p of named) {
      if (all[p.js] === undefined || all[p.js] === null) throw invalid(`${op.js}: ${p.js} is required`)
    }
    /** @type {Record<string, unknown>} */
    const options = {}
    for (const p of optional) if (all[p.js] !== undefined) options[p.js] = all[p.js]
    return [...given.slice(0, n), ...named.map((p) => all[p.js]), options]
  }

  /**
   * The API's result of what the binding returned (its form follows `op.returns`).
   * @param {Op} op
   * @param {any} r
   * @returns {unknown}
   */
  function present(op, r) {
    switch (op.returns) {
      case 'str':
      case 'bool':
      case 'bytes':
        return r
      case 'Jwks':
        return jwksOf(r)
      case 'SigningKey':
        return new SigningKey(r, MINT)
      case 'KeySet':
        return { jwks: jwksOf(r.jwks), keys: r.keys.map((/** @type {KeyHandle} */ k) => new SigningKey(k, MINT)) }
      case 'Verdicts':
        return JSON.parse(r).map((/** @type {{error?: {code: string, message: string}}} */ v) => (v.error ? new EklError(v.error.code, v.error.message) : withVerdictHelpers(v)))
      case 'Verdict':
        return withVerdictHelpers(JSON.parse(r))
      default:
        return JSON.parse(r)
    }
  }

  /**
   * One call of operation `op` (index `i`) with the binding's arguments.
   * @param {Op} op
   * @param {number} i
   * @param {unknown[]} args
   * @returns {unknown}
   */
  function call(op, i, args) {
    if (binding.canonicalize && (op.name === 'canonicalize' || op.name === 'canonicalize_value')) {
      // prepare() made these: the text as bytes, and maxBytes (an int parameter) or null
      const maxBytes = /** @type {number | null} */ (args[1])
      if (maxBytes !== null && maxBytes < 0) throw invalid(`${op.js}: maxBytes must not be negative`)
      return guard(() => /** @type {Required<Binding>} */ (binding).canonicalize(/** @type {Uint8Array} */ (args[0]), maxBytes))
    }
    return present(op, guard(() => binding.call(i, args)))
  }

  /**
   * `call` on the binding's thread pool, when it has one.
   * @param {Op} op
   * @param {number} i
   * @param {unknown[]} args
   * @returns {Promise<unknown>}
   */
  async function callAsync(op, i, args) {
    if (!binding.callAsync) return call(op, i, args)
    try {
      return present(op, await binding.callAsync(i, args))
    } catch (e) {
      throw fromNative(e, codes)
    }
  }

  /**
   * The class of a handle of the registry (the manifest's `handles`, docs/decisions/handles.md):
   * its constructor row makes the binding's handle (the machine and its lock stay in Rust), kept
   * in a hidden slot; each method row is a method that passes it as `self`. No state of its own.
   * @param {{name: string, constructor: string, methods: string[], doc: string}} h
   */
  function handleClass(h) {
    const n = /** @type {number} */ (index.get(h.constructor))
    const cls = {
      [h.name]: class {
        /** @param {unknown[]} given the constructor row's arguments */
        constructor(...given) {
          const handle = guard(() => binding.call(n, prepare(manifest[n], given)))
          Object.defineProperty(this, HANDLE, { value: handle })
          Object.freeze(this)
        }
      },
    }[h.name]
    for (const name of h.methods) {
      const i = /** @type {number} */ (index.get(name))
      const op = manifest[i]
      // The caller's arguments are the row's but `self` (its first parameter).
      const own = { ...op, params: op.params.slice(1) }
      const method = {
        [op.js](/** @type {unknown[]} */ ...given) {
          const handle = /** @type {any} */ (this)?.[HANDLE]
          if (handle === undefined) throw invalid(`${h.name}.${op.js}: called on another object than a ${h.name}`)
          const args = prepare(own, given)
          return present(op, guard(() => binding.call(i, [handle, ...args])))
        },
      }[op.js]
      Object.defineProperty(cls.prototype, op.js, { value: method, writable: true, configurable: true })
    }
    return cls
  }

  /** @typedef {(...given: unknown[]) => unknown} Fn */
  /** @type {Record<string | symbol, unknown>} */
  const api = {}
  manifest.forEach((op, i) => {
    if (op.class || op.method_of) return
    const named = OBJECT_FORM[op.name]
    const f = { [op.js]: (/** @type {unknown[]} */ ...given) => call(op, i, prepare(op, named === undefined ? given : byName(op, named, given))) }[op.js]
    api[op.js] = f
  })
  if (binding.canonicalize) {
    // canonicalize(text) without options, the call of hot loops: what prepare(), convert() and
    // call() do for it, without their generic work; the same checks in the same order, so the
    // same results and errors (anything else takes the general path).
    const general = /** @type {Fn} */ (api.canonicalize)
    const MAX_SCRATCH_CHARS = (4 * 1024 * 1024) / 3
    api.canonicalize = {
      canonicalize(/** @type {unknown[]} */ ...given) {
        const text = given[0]
        if (given.length === 1) {
          if (typeof text === 'string' && binding.canonicalizeString && text.length <= MAX_SCRATCH_CHARS) {
            // The lone-surrogate check of jsonTextOf, from the UTF-8 form: a lone surrogate
            // becomes U+FFFD there, and text with a U+FFFD takes the general path (null).
            if (text.length * 3 > scratch.length) scratch = new Uint8Array(Math.max(text.length * 3, scratch.length * 2))
            const written = encoder.encodeInto(text, scratch).written
            const r = guard(() => /** @type {Required<Binding>} */ (binding).canonicalizeString(scratch, written))
            if (r !== null) return r
          } else if (text instanceof Uint8Array && text.length <= LIMITS.maxInputBytes) {
            const bytes = stableBytes(text)
            return guard(() => /** @type {Required<Binding>} */ (binding).canonicalize(bytes, null))
          }
        }
        return general(...given)
      },
    }.canonicalize
    // canonicalizeValue(value) without options: likewise (prepare() converts a required value
    // with no limit, then encodes its text into the reusable buffer).
    const generalValue = /** @type {Fn} */ (api.canonicalizeValue)
    api.canonicalizeValue = {
      canonicalizeValue(/** @type {unknown[]} */ ...given) {
        if (given.length !== 1) return generalValue(...given)
        const t = toJsonText(given[0], undefined)
        const bytes = utf8(t, true)
        return guard(() => /** @type {Required<Binding>} */ (binding).canonicalize(bytes, null))
      },
    }.canonicalizeValue
  }
  api.Jwks = Jwks
  // Only in a build that makes signing keys (not the wasm verify build, docs/decisions/wasm.md#verify-build).
  if (index.has('signing_key')) {
    api.SigningKey = SigningKey
    Object.assign(api, {
      /** A fresh seed for ES256 keys: 32 bytes of the host's CSPRNG as 64 lowercase hex; the secret of the keys signingKey(seed, kid) derives (keep it as a private key). */
      newSeed: (/** @type {unknown[]} */ ...given) => {
        if (given.length > 0) throw invalid('newSeed takes no argument')
        return freshSalt()
      },
      /** A fresh random ES256 signing key under kid: signingKey(newSeed(), kid), the seed not kept. */
      newSigningKey: (/** @type {unknown} */ kid, /** @type {unknown[]} */ ...more) => {
        if (more.length > 0) throw invalid('newSigningKey takes one argument, the kid')
        return /** @type {Fn} */ (api.signingKey)(freshSalt(), kid)
      },
    })
  }
  for (const h of whole.handles || []) api[h.name] = handleClass(h)
  // A network's key set fetched and cached (node/js/remote.js, docs/decisions.md#remote-jwks).
  api.RemoteJwks = makeRemoteJwks({ EklError, Policy: /** @type {any} */ (api.RemoteJwksPolicy) })

  // Host helpers: the thread pool (Node; elsewhere they run in place).
  /** @param {string} name */
  const asyncOf = (name) => async (/** @type {unknown[]} */ ...given) => {
    const i = /** @type {number} */ (index.get(name))
    return callAsync(manifest[i], i, prepare(manifest[i], given))
  }
  api.canonicalizeAsync = asyncOf('canonicalize')
  api.canonicalizeValueAsync = asyncOf('canonicalize_value')
  // One call on the thread pool; the bridge splits the batch over every core (option `jobs`), the
  // results in the order of the items. Its arguments take the forms verifyReceipts takes.
  api.verifyReceiptsAsync = asyncOf('verify_receipts')

  Object.assign(api, {
    /** A fresh salt: 32 bytes of the host's CSPRNG (crypto.getRandomValues) as 64 lowercase hex. */
    newSalt: (/** @type {unknown[]} */ ...given) => {
      if (given.length > 0) throw invalid('newSalt takes no argument')
      return freshSalt()
    },
    /** The registry (docs/operations.json): each operation's names, parameters and result. */
    operations: () => JSON.parse(binding.operations()).operations,
    errorCodes: () => binding.errorCodes(),
    coreVersion: () => binding.coreVersion(),
    backend: info.backend,
    EklError,
    isEklError,
    JsonText,
    MAX_DEPTH: constants.limits.max_depth,
    MAX_INPUT_BYTES: constants.limits.max_input_bytes,
    MAX_VALUE_BYTES: constants.limits.max_value_bytes,
    // The size limit of a capability call's input as ekl-json-1: 256 KB (PROTOCOL §2.5), the
    // registry's bound of input_commitment's input.
    CAPABILITY_INPUT_MAX_BYTES: /** @type {Op} */ (manifest.find((o) => o.name === 'input_commitment')).params[0].limit,
  })
  // The manifest's constants by name (hidden, as the test hook below): values the host modules
  // read instead of restating them (`replay`: the replay guard's bounds, SQL and Redis commands).
  Object.defineProperty(api, Symbol.for('ekl-core.constants'), { value: constants })
  // Test hook, hidden (a registered symbol, not enumerable, not declared): a panic in the native
  // layer, through the same guard as every operation.
  Object.defineProperty(api, Symbol.for('ekl-core.testPanic'), {
    value: () => guard(() => binding.testPanic()),
  })
  return Object.freeze(api)
}

module.exports = { makeApi, OBJECT_FORM }
