'use strict'
// ekl-core for Node.js (CommonJS entry; index.mjs re-exports it for ESM).
//
// Loads the native addon (ekl-core.<platform>.node through the napi-rs loader native.js) and
// builds the public API (js/api.js, shared with the wasm package) over it.
//
// Fallback hook (issue 6): when the native addon cannot be loaded (no prebuilt binary for this
// platform, a glibc too old, ...), the loader tries `./wasm/binding.js`, which the wasm package's
// build may place into this package: a module exporting the same low-level binding interface as
// `nodeBinding()` below (documented at the top of js/api.js). EKL_CORE_BACKEND=native|wasm forces
// one. Without that folder the native load error is thrown unchanged.

const { makeApi } = require('./js/api.js')
const { MAX_INPUT_BYTES } = require('./js/convert.js')

/** Adapts the napi addon to the binding interface of js/api.js. */
function nodeBinding(native) {
  // Reusable buffers: JSON text is encoded into `input`, canonical bytes come back through
  // `output`, then copied into a pooled Buffer. A napi String or Buffer per call costs more than
  // canonicalising a small document.
  const encoder = new TextEncoder()
  const OUTPUT_BYTES = 64 * 1024
  const output = new Uint8Array(OUTPUT_BYTES)
  let input = new Uint8Array(64 * 1024)

  /**
   * The UTF-8 bytes of a string in a Buffer of their own, refused past the maximum input (the
   * API layer has refused strings with more code units than that; three bytes a unit can pass it).
   */
  function utf8(text) {
    const b = Buffer.from(text, 'utf8')
    if (b.length > MAX_INPUT_BYTES) {
      throw new Error(`BODY_TOO_LARGE: the text is longer than ${MAX_INPUT_BYTES} bytes as UTF-8`)
    }
    return b
  }

  /** UTF-8 bytes of JSON text (strings are already checked for lone surrogates). */
  function bytes(text) {
    if (typeof text !== 'string') return text
    const need = text.length * 3
    if (need > input.length) {
      // Large documents: one allocation of the exact size rather than a huge scratch buffer.
      if (need > 4 * 1024 * 1024) return utf8(text)
      input = new Uint8Array(Math.max(need, input.length * 2))
    }
    const { written } = encoder.encodeInto(text, input)
    return input.subarray(0, written)
  }

  function ownBytes(text) {
    return typeof text === 'string' ? utf8(text) : text
  }

  function result(n) {
    if (n < 0) return native.takeResult()
    const b = Buffer.allocUnsafe(n)
    b.set(output.subarray(0, n))
    return b
  }

  return {
    errorCodes: native.errorCodes,
    coreVersion: native.coreVersion,
    canonicalize: (json, maxBytes) => result(native.canonicalizeInto(bytes(json), maxBytes, output)),
    canonicalizeAsync: (json, maxBytes) =>
      // The addon copies the bytes before the promise is returned, so the scratch is free again.
      native.canonicalizeAsync(ownBytes(json), maxBytes),
    sha256Hex: (data) => native.sha256Hex(bytes(data)),
    commitment: (json, salt, saltId) => native.commitment(bytes(json), salt, saltId),
    inputCommitment: (json, salt, saltId) => native.inputCommitment(bytes(json), salt, saltId),
    termsHash: (json) => native.termsHash(bytes(json)),
    valueDigest: (json, salt) => native.valueDigest(bytes(json), salt),
    fingerprint: (salt, json) => native.fingerprint(salt, bytes(json)),
    outputFingerprint: (salt, json) => native.outputFingerprint(salt, bytes(json)),
    selectResultBody: (json) => native.selectResultBody(bytes(json)),
    upstreamFingerprint: (json, offered) => native.upstreamFingerprint(bytes(json), offered),
    upstreamProjection: (json, offered) => native.upstreamProjection(bytes(json), offered),
    proofKey: native.proofKey,
    challengeProofV1: native.challengeProofV1,
    challengeProofV2: native.challengeProofV2,
    enrollAuthorityV1: native.enrollAuthorityV1,
    enrollAuthorityV2: native.enrollAuthorityV2,
    verifySignature: native.verifySignature,
    checkVerifySignature: native.checkVerifySignature,
    verifyChallengeProof: native.verifyChallengeProof,
    verifyEnrollAuthority: native.verifyEnrollAuthority,
    receiptKey: native.receiptKey,
    authTag: (json, secret) => native.authTag(bytes(json), secret),
    receiptDigest: (json) => native.receiptDigest(bytes(json)),
    signReceipt: (json, secret) => native.signReceipt(bytes(json), secret),
    verifyReceipt: (json, secret, keys, call, ci, co) => native.verifyReceipt(bytes(json), secret, keys, call, ci, co),
    // Each receipt needs its own bytes (the batch is read after the call returns, off-thread).
    verifyReceipts: (jsons, items, secret, keys) => native.verifyReceipts(jsons.map(ownBytes), items, secret, keys),
    verifyReceiptsAsync: (jsons, items, secret, keys) => native.verifyReceiptsAsync(jsons.map(ownBytes), items, secret, keys),
    screeningRules: (json) => native.screeningRules(bytes(json)),
    // Two texts in one call: the rules get their own bytes, the result the reusable buffer.
    screen: (rules, result) => native.screen(rules === null ? null : ownBytes(rules), bytes(result)),
    screeningFold: native.screeningFold,
    jwksParse: (json) => native.jwksParse(bytes(json)),
    verifyJws: native.verifyJws,
    verifyReceiptJws: native.verifyReceiptJws,
    verifySignedReceipt: (json, jwks, call) => native.verifySignedReceipt(bytes(json), jwks, call),
    verifyScreeningRules: native.verifyScreeningRules,
    signingKey: native.signingKey,
    jwksFromSeed: native.jwksFromSeed,
    signJws: (typ, json, key) => native.signJws(typ, bytes(json), key),
    issueReceipt: (json, key, issuer, audience) => native.issueReceipt(bytes(json), key, issuer, audience),
    testPanic: () => native.__testPanic(),
  }
}

function load() {
  const forced = process.env.EKL_CORE_BACKEND
  let nativeError = null
  if (forced !== 'wasm') {
    try {
      return makeApi(nodeBinding(require('./native.js')), { backend: 'native' })
    } catch (e) {
      if (forced === 'native') throw e
      nativeError = e
    }
  }
  try {
    return makeApi(require('./wasm/binding.js'), { backend: 'wasm' })
  } catch (e) {
    if (e && e.code === 'MODULE_NOT_FOUND' && nativeError !== null) throw nativeError
    throw e
  }
}

module.exports = load()
