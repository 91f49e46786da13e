'use strict'
// The public API of the ekl-core JS packages, built over a low-level binding (the napi addon in
// Node, the wasm module in browsers). Shared by both packages: argument checks, the strict value
// conversion, error identity and result shapes live here, once.
//
// A binding is an object with these functions (all JSON text arguments are a well-formed string
// or UTF-8 bytes; every refusal is thrown as an Error with `code` = the core's code, or with the
// message "CODE: message"):
//   errorCodes(): string[]                      coreVersion(): string
//   canonicalize(json, maxBytes|null): Uint8Array
//   canonicalizeAsync?(json, maxBytes|null): Promise<Uint8Array>   (optional: falls back to sync)
//   sha256Hex(bytes|string): string
//   commitment(json, saltHex|null, saltId|null): Commitment
//   inputCommitment(json, saltHex|null, saltId|null): Commitment
//   termsHash(json): string
//   fingerprint(saltHex, json): string          outputFingerprint(saltHex, json): string
//   selectResultBody(json): {member, canonical}  upstreamFingerprint(json, offered|null): string
//   proofKey(agentKey): string
//   challengeProofV1(credential, challenge, endpoint), challengeProofV2(proofKeyHex, challenge, endpoint)
//   enrollAuthorityV1(agentKey, enrollmentId, nonce, endpoint), enrollAuthorityV2(proofKeyHex, ...)
//   verifySignature(secret, agentId, enrollmentId, challenge): string
//   checkVerifySignature(secret, agentId, enrollmentId, challenge, signature): boolean
//
// Adding an operation: one wrapper below (convert the arguments with `value`/`text`/`str`, call
// the binding inside `guard`), its declaration in index.d.ts, its name in docs/operations.json.
// This file must not use Node-only APIs: the wasm package runs it in browsers.

const { EklError, isEklError, fromNative } = require('./errors.js')
const { toJsonText, jsonTextOf, JsonText, isWellFormed, MAX_DEPTH } = require('./convert.js')

/** The size limit of a capability call's input as ekl-json-1: 256 KB (PROTOCOL §2.5). */
const CAPABILITY_INPUT_MAX_BYTES = 262144

function invalid(detail) {
  return new EklError('INVALID_ARGUMENT', detail)
}

/** A string argument: refused when not a string or when it holds a lone surrogate. */
function str(x, what) {
  if (typeof x !== 'string') throw invalid(`${what} must be a string`)
  if (!isWellFormed(x)) {
    throw new EklError('LONE_SURROGATE', `${what} holds a lone UTF-16 surrogate`)
  }
  return x
}

function optStr(x, what) {
  return x === undefined || x === null ? null : str(x, what)
}

/** The options object of a call: absent, or a plain object with only the names allowed. */
function opts(o, allowed, fn) {
  if (o === undefined || o === null) return {}
  if (typeof o !== 'object' || Array.isArray(o)) throw invalid(`${fn}: options must be an object`)
  for (const k of Object.keys(o)) {
    if (!allowed.includes(k)) {
      throw invalid(`${fn}: unknown option ${JSON.stringify(k)} (allowed: ${allowed.join(', ')})`)
    }
  }
  return o
}

function maxBytesOf(o, fn) {
  const m = opts(o, ['maxBytes'], fn).maxBytes
  if (m === undefined || m === null) return null
  if (typeof m !== 'number' || !Number.isSafeInteger(m) || m < 0) {
    throw invalid(`${fn}: maxBytes must be a non-negative integer`)
  }
  return m
}

/**
 * Builds the public API over a binding.
 * @param {object} binding the low-level functions (see the top of this file)
 * @param {{backend: string}} info which binding this is ('native' or 'wasm')
 */
function makeApi(binding, info) {
  const codes = new Set(binding.errorCodes())

  /** Runs a binding call and turns its refusals into EklErrors. */
  function guard(f) {
    try {
      return f()
    } catch (e) {
      throw fromNative(e, codes)
    }
  }

  async function guardAsync(f) {
    try {
      return await f()
    } catch (e) {
      throw fromNative(e, codes)
    }
  }

  const commitOpts = (o, fn) => {
    const { salt, saltId } = opts(o, ['salt', 'saltId'], fn)
    return [optStr(salt, 'salt'), optStr(saltId, 'saltId')]
  }

  const api = {
    // --- ekl-json-1 ---
    canonicalize(json, options) {
      const t = jsonTextOf(json)
      const m = maxBytesOf(options, 'canonicalize')
      return guard(() => binding.canonicalize(t, m))
    },
    canonicalizeValue(value, options) {
      const m = maxBytesOf(options, 'canonicalizeValue')
      const t = toJsonText(value)
      return guard(() => binding.canonicalize(t, m))
    },
    async canonicalizeAsync(json, options) {
      const t = jsonTextOf(json)
      const m = maxBytesOf(options, 'canonicalizeAsync')
      return guardAsync(() =>
        binding.canonicalizeAsync ? binding.canonicalizeAsync(t, m) : binding.canonicalize(t, m),
      )
    },
    async canonicalizeValueAsync(value, options) {
      const m = maxBytesOf(options, 'canonicalizeValueAsync')
      const t = toJsonText(value)
      return guardAsync(() =>
        binding.canonicalizeAsync ? binding.canonicalizeAsync(t, m) : binding.canonicalize(t, m),
      )
    },

    // --- digests and commitments ---
    sha256Hex(data) {
      let d
      if (data instanceof Uint8Array) d = data
      else if (typeof data === 'string') d = str(data, 'data')
      else throw invalid('sha256Hex: data must be a string or a Uint8Array')
      return guard(() => binding.sha256Hex(d))
    },
    commitment(value, options) {
      const [salt, saltId] = commitOpts(options, 'commitment')
      const t = toJsonText(value)
      return guard(() => binding.commitment(t, salt, saltId))
    },
    inputCommitment(input, options) {
      const [salt, saltId] = commitOpts(options, 'inputCommitment')
      const t = toJsonText(input)
      return guard(() => binding.inputCommitment(t, salt, saltId))
    },
    termsHash(terms) {
      const t = toJsonText(terms)
      return guard(() => binding.termsHash(t))
    },

    // --- fingerprints ---
    fingerprint(salt, value) {
      const s = str(salt, 'salt')
      const t = toJsonText(value)
      return guard(() => binding.fingerprint(s, t))
    },
    outputFingerprint(salt, result) {
      const s = str(salt, 'salt')
      const t = toJsonText(result)
      return guard(() => binding.outputFingerprint(s, t))
    },
    selectResultBody(result) {
      const t = toJsonText(result)
      const r = guard(() => binding.selectResultBody(t))
      return { member: r.member, value: JSON.parse(r.canonical) }
    },
    upstreamFingerprint(tools, offered) {
      let names = null
      if (offered !== undefined && offered !== null) {
        if (!Array.isArray(offered)) throw invalid('upstreamFingerprint: offered must be an array of tool names')
        names = offered.map((n) => str(n, 'a tool name'))
      }
      const t = toJsonText(tools)
      return guard(() => binding.upstreamFingerprint(t, names))
    },

    // --- endpoint proofs ---
    proofKey(agentKey) {
      const k = str(agentKey, 'agentKey')
      return guard(() => binding.proofKey(k))
    },
    challengeProofV1(credential, challenge, endpoint) {
      const a = [str(credential, 'credential'), str(challenge, 'challenge'), str(endpoint, 'endpoint')]
      return guard(() => binding.challengeProofV1(a[0], a[1], a[2]))
    },
    challengeProofV2(proofKeyHex, challenge, endpoint) {
      const a = [str(proofKeyHex, 'proofKey'), str(challenge, 'challenge'), str(endpoint, 'endpoint')]
      return guard(() => binding.challengeProofV2(a[0], a[1], a[2]))
    },
    enrollAuthorityV1(agentKey, enrollmentId, nonce, endpoint) {
      const a = [str(agentKey, 'agentKey'), str(enrollmentId, 'enrollmentId'), str(nonce, 'nonce'), str(endpoint, 'endpoint')]
      return guard(() => binding.enrollAuthorityV1(a[0], a[1], a[2], a[3]))
    },
    enrollAuthorityV2(proofKeyHex, enrollmentId, nonce, endpoint) {
      const a = [str(proofKeyHex, 'proofKey'), str(enrollmentId, 'enrollmentId'), str(nonce, 'nonce'), str(endpoint, 'endpoint')]
      return guard(() => binding.enrollAuthorityV2(a[0], a[1], a[2], a[3]))
    },
    verifySignature(registrationSecret, agentId, enrollmentId, challenge) {
      const a = [str(registrationSecret, 'registrationSecret'), str(agentId, 'agentId'), str(enrollmentId, 'enrollmentId'), str(challenge, 'challenge')]
      return guard(() => binding.verifySignature(a[0], a[1], a[2], a[3]))
    },
    checkVerifySignature(registrationSecret, agentId, enrollmentId, challenge, signature) {
      const a = [str(registrationSecret, 'registrationSecret'), str(agentId, 'agentId'), str(enrollmentId, 'enrollmentId'), str(challenge, 'challenge'), str(signature, 'signature')]
      return guard(() => binding.checkVerifySignature(a[0], a[1], a[2], a[3], a[4]))
    },

    // --- identity ---
    errorCodes() {
      return binding.errorCodes()
    },
    coreVersion() {
      return binding.coreVersion()
    },
    backend: info.backend,
    EklError,
    isEklError,
    JsonText,
    MAX_DEPTH,
    CAPABILITY_INPUT_MAX_BYTES,
  }
  return Object.freeze(api)
}

module.exports = { makeApi }
