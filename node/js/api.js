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
//   termsHash(json): string                     valueDigest(json, saltHex|null): string
//   fingerprint(saltHex, json): string          outputFingerprint(saltHex, json): string
//   selectResultBody(json): {member, canonical}  upstreamFingerprint(json, offered|null): string
//   upstreamProjection(json, offered|null): canonical JSON text
//   proofKey(agentKey): string
//   challengeProofV1(credential, challenge, endpoint), challengeProofV2(proofKeyHex, challenge, endpoint)
//   enrollAuthorityV1(agentKey, enrollmentId, nonce, endpoint), enrollAuthorityV2(proofKeyHex, ...)
//   verifySignature(secret, agentId, enrollmentId, challenge): string
//   checkVerifySignature(secret, agentId, enrollmentId, challenge, signature): boolean
//   verifyChallengeProof(holds, holdsHex, challenge, endpoint, proof|null, proofV2|null): 'v1'|'v2'
//   verifyEnrollAuthority(announced, agentKey, enrollmentId, nonce, endpoint, authority|null, version|null)
//   receiptKey(secret, keyId): string           authTag(json, secret): string
//   receiptDigest(json): string                 signReceipt(json, secret): canonical JSON text
//   verifyReceipt(json, secret|null, keys|null, call, inputCommitment|null, outputCommitment|null): Verdict
//   verifyReceipts(jsons[], items[], secret|null, keys|null): (Verdict | {code, message})[]
//   verifyReceiptsAsync?(...same): Promise<...>  (optional: falls back to sync)
//   screeningRules(json): canonical JSON text    screen(rulesJson|null, resultJson): JSON text
//   screeningFold(text): string
//   jwksParse(json): handle (with kids(), toJson())
//   verifyJws(token, typ, jwks, now, issuer|null, audience|null, skew|null, maxLifetime|null,
//             requireExp|null, requireIat|null): {header, claims (JSON text), kid, typ, tokenSha256}
//   verifyReceiptJws(token, jwks, call): Verdict      verifySignedReceipt(json, jwks, call): Verdict
//   verifyScreeningRules(token, jwks, issuer, now): JSON text
//   signingKey(seedHex, kid): handle (with kid())    signJws(typ, json, key): string
//   jwksFromSeed(seedHex, kids[]): {jwks: handle (as jwksParse), keys: handle[] (as signingKey)}
//   issueReceipt(json, key, issuer, audience): JSON text
//   testPanic(): never returns (a panic in the native layer; test hook)
// JSON text arguments are at most MAX_INPUT_BYTES (convert.js): this layer refuses longer strings
// (in UTF-16 code units) and bytes; a binding refuses a string whose UTF-8 form is longer, with
// the message "BODY_TOO_LARGE: ...", before it copies it anywhere.
//
// Adding an operation: one wrapper below (convert the arguments with `value`/`text`/`str`, call
// the binding inside `guard`), its declaration in index.d.ts, its name in docs/operations.json.
// This file must not use Node-only APIs: the wasm package runs it in browsers.

const { EklError, isEklError, fromNative } = require('./errors.js')
const { toJsonText, jsonTextOf, stableBytes, JsonText, isWellFormed, MAX_DEPTH, MAX_INPUT_BYTES, MAX_VALUE_BYTES } = require('./convert.js')

/** The size limit of a capability call's input as ekl-json-1: 256 KB (PROTOCOL §2.5). */
const CAPABILITY_INPUT_MAX_BYTES = 262144

function invalid(detail) {
  return new EklError('INVALID_ARGUMENT', detail)
}

function tooLarge(what) {
  return new EklError('BODY_TOO_LARGE', `${what} is longer than ${MAX_INPUT_BYTES} bytes`)
}

/**
 * A string argument: refused when not a string, when longer than the maximum input
 * (BODY_TOO_LARGE) or when it holds a lone surrogate.
 */
function str(x, what) {
  if (typeof x !== 'string') throw invalid(`${what} must be a string`)
  if (x.length > MAX_INPUT_BYTES) throw tooLarge(what)
  if (!isWellFormed(x)) {
    throw new EklError('LONE_SURROGATE', `${what} holds a lone UTF-16 surrogate`)
  }
  return x
}

function optStr(x, what) {
  return x === undefined || x === null ? null : str(x, what)
}

/** An array of string arguments, at most MAX_INPUT_BYTES code units together. */
function strList(xs, what) {
  let total = 0
  return xs.map((x) => {
    const s = str(x, what)
    total += s.length + 1
    if (total > MAX_INPUT_BYTES) throw tooLarge(`the list of ${what}s`)
    return s
  })
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

const CALL_REQUIRED = ['executionId', 'collaborationId', 'capabilityId', 'requesterAgentId', 'providerAgentId']
const CALL_OPTIONAL = ['capabilityVersion', 'connectionId', 'termsHash', 'executionKind', 'reservationId', 'grantId', 'admissionId', 'receiptDigest']

/** The call a receipt must answer: the five required ids, the optional ones checked when given. */
function callSpec(call, fn) {
  const c = opts(call, [...CALL_REQUIRED, ...CALL_OPTIONAL], `${fn}: call`)
  const out = {}
  for (const k of CALL_REQUIRED) {
    if (c[k] === undefined || c[k] === null) throw invalid(`${fn}: call.${k} is required`)
    out[k] = str(c[k], `call.${k}`)
  }
  for (const k of CALL_OPTIONAL) {
    if (c[k] !== undefined && c[k] !== null) out[k] = str(c[k], `call.${k}`)
  }
  return out
}

/** A receipt key ring: a registration secret (the baseline, key id rk-1) or a list of keys. */
function keyRing(keys, fn) {
  if (typeof keys === 'string') return [str(keys, 'keys'), null]
  if (!Array.isArray(keys) || keys.length === 0) {
    throw invalid(`${fn}: keys must be a registration secret or a non-empty array of {keyId, secret, validFrom, validUntil?}`)
  }
  return [
    null,
    keys.map((k) => {
      const o = opts(k, ['keyId', 'secret', 'validFrom', 'validUntil'], `${fn}: a key`)
      const spec = { keyId: str(o.keyId, 'keyId'), secret: str(o.secret, 'secret'), validFrom: str(o.validFrom, 'validFrom') }
      if (o.validUntil !== undefined && o.validUntil !== null) spec.validUntil = str(o.validUntil, 'validUntil')
      return spec
    }),
  ]
}

/** One of the consumer's own commitments (as `commitment()` returns it), or null. */
function ownCommitment(c, what) {
  if (c === undefined || c === null) return null
  const o = opts(c, ['alg', 'canon', 'digest', 'salt_id', 'salt'], what)
  const out = { alg: str(o.alg, `${what}.alg`), canon: str(o.canon, `${what}.canon`), digest: str(o.digest, `${what}.digest`) }
  if (o.salt_id !== undefined && o.salt_id !== null) out.salt_id = str(o.salt_id, `${what}.salt_id`)
  if (o.salt !== undefined && o.salt !== null) out.salt = str(o.salt, `${what}.salt`)
  return out
}

function verdictOf(v) {
  // `expected` and `received` (display texts of the core, bounded) only when the binding gives them.
  const checks = v.checks.map((c) => {
    const out = { name: c.name, outcome: c.outcome }
    for (const k of ['detail', 'expected', 'received']) if (c[k] !== undefined && c[k] !== null) out[k] = c[k]
    return out
  })
  const out = { accepted: v.accepted, checks }
  if (v.receiptDigest !== undefined && v.receiptDigest !== null) out.receiptDigest = v.receiptDigest
  return out
}

const SIGNED_CALL_STRINGS = ['executionId', 'providerAgentId', 'requesterAgentId', 'capabilityId', 'inputFingerprint', 'ownAgentId', 'networkIssuer']

/** A time in seconds since the epoch (an integer; the package never reads a clock). */
function seconds(x, what) {
  if (typeof x !== 'number' || !Number.isSafeInteger(x)) throw invalid(`${what} must be an integer number of seconds since the epoch`)
  return x
}

/** The call a network-signed receipt must answer, with the consumer's clock window. */
function signedCallSpec(call, fn) {
  const c = opts(call, [...SIGNED_CALL_STRINGS, 'sentAt', 'receivedAt'], `${fn}: call`)
  const out = {}
  for (const k of SIGNED_CALL_STRINGS) {
    if (c[k] === undefined || c[k] === null) throw invalid(`${fn}: call.${k} is required`)
    out[k] = str(c[k], `call.${k}`)
  }
  out.sentAt = seconds(c.sentAt, 'call.sentAt')
  out.receivedAt = seconds(c.receivedAt, 'call.receivedAt')
  return out
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

  function batch(items, options, fn) {
    if (!Array.isArray(items)) throw invalid(`${fn}: items must be an array of {receipt, call, inputCommitment?, outputCommitment?}`)
    const [secret, keys] = keyRing(opts(options, ['keys'], fn).keys, fn)
    const texts = []
    // Every receipt's JSON text together is at most the maximum input.
    let total = 0
    const specs = items.map((it, i) => {
      const o = opts(it, ['receipt', 'call', 'inputCommitment', 'outputCommitment'], `${fn}: items[${i}]`)
      const spec = { call: callSpec(o.call, `${fn}: items[${i}]`) }
      const ci = ownCommitment(o.inputCommitment, 'inputCommitment')
      const co = ownCommitment(o.outputCommitment, 'outputCommitment')
      if (ci) spec.inputCommitment = ci
      if (co) spec.outputCommitment = co
      const t = toJsonText(o.receipt, MAX_INPUT_BYTES - total)
      total += t.length
      if (total > MAX_INPUT_BYTES) throw tooLarge(`${fn}: the receipts together`)
      texts.push(t)
      return spec
    })
    return [texts, specs, secret, keys]
  }

  /** A batch result: a verdict, or the EklError of an input that cannot be a receipt. */
  function batchItem(r) {
    if (r && typeof r.code === 'string' && !('accepted' in r)) return new EklError(r.code, r.message)
    return verdictOf(r)
  }

  const HANDLE = Symbol('ekl-core handle')

  /** A validated JWKS (P-256 keys), parsed once and reused by every verification. */
  class Jwks {
    /** @param {unknown} jwks the key set: a value or JSON text (JsonText) */
    constructor(jwks) {
      const t = toJsonText(jwks)
      Object.defineProperty(this, HANDLE, { value: guard(() => binding.jwksParse(t)) })
      Object.freeze(this)
    }
    /** The key ids. */
    get kids() {
      return this[HANDLE].kids()
    }
    toJSON() {
      return JSON.parse(this[HANDLE].toJson())
    }
  }

  /** An ES256 signing key (tests, vectors, local networks), from a seed: deterministic. */
  class SigningKey {
    constructor(handle) {
      Object.defineProperty(this, HANDLE, { value: handle })
      Object.freeze(this)
    }
    get kid() {
      return this[HANDLE].kid()
    }
  }

  const jwksHandle = (jwks, fn) => {
    if (jwks === undefined || jwks === null) throw invalid(`${fn}: jwks is required`)
    return (jwks instanceof Jwks ? jwks : new Jwks(jwks))[HANDLE]
  }
  const keyHandle = (key, fn) => {
    if (!(key instanceof SigningKey)) throw invalid(`${fn}: key must be a SigningKey (signingKey(seedHex, kid))`)
    return key[HANDLE]
  }

  const offeredNames = (offered, fn) => {
    if (offered === undefined || offered === null) return null
    if (!Array.isArray(offered)) throw invalid(`${fn}: offered must be an array of tool names`)
    return strList(offered, 'tool name')
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
      const t = toJsonText(value, m)
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
      const t = toJsonText(value, m)
      return guardAsync(() =>
        binding.canonicalizeAsync ? binding.canonicalizeAsync(t, m) : binding.canonicalize(t, m),
      )
    },

    // --- digests and commitments ---
    sha256Hex(data) {
      let d
      if (data instanceof Uint8Array) {
        if (data.length > MAX_INPUT_BYTES) throw tooLarge('data')
        d = stableBytes(data)
      } else if (typeof data === 'string') d = str(data, 'data')
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
      // The 256 KB of §2.5 bounds the conversion itself: a huge value stops being read there.
      const t = toJsonText(input, CAPABILITY_INPUT_MAX_BYTES)
      return guard(() => binding.inputCommitment(t, salt, saltId))
    },
    termsHash(terms) {
      const t = toJsonText(terms)
      return guard(() => binding.termsHash(t))
    },
    valueDigest(value, salt) {
      const s = optStr(salt, 'salt')
      const t = toJsonText(value)
      return guard(() => binding.valueDigest(t, s))
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
      const names = offeredNames(offered, 'upstreamFingerprint')
      const t = toJsonText(tools)
      return guard(() => binding.upstreamFingerprint(t, names))
    },
    upstreamProjection(tools, offered) {
      const names = offeredNames(offered, 'upstreamProjection')
      const t = toJsonText(tools)
      return JSON.parse(guard(() => binding.upstreamProjection(t, names)))
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

    // --- endpoint proofs: verifiers ---
    verifyChallengeProof(holds, challenge, endpoint, proofs) {
      const h = opts(holds, ['proofKey', 'credentialHash'], 'verifyChallengeProof: holds')
      const kinds = Object.keys(h).filter((k) => h[k] !== undefined && h[k] !== null)
      if (kinds.length !== 1) throw invalid('verifyChallengeProof: holds is {proofKey} or {credentialHash}')
      const p = opts(proofs, ['proof', 'proofV2'], 'verifyChallengeProof: proofs')
      const a = [kinds[0], str(h[kinds[0]], kinds[0]), str(challenge, 'challenge'), str(endpoint, 'endpoint'), optStr(p.proof, 'proof'), optStr(p.proofV2, 'proofV2')]
      return guard(() => binding.verifyChallengeProof(a[0], a[1], a[2], a[3], a[4], a[5]))
    },
    verifyEnrollAuthority(announced, agentKey, enrollmentId, nonce, endpoint, authority, authorityVersion) {
      let version = null
      if (authorityVersion !== undefined && authorityVersion !== null) {
        if (!Number.isInteger(authorityVersion) || authorityVersion < 0 || authorityVersion > 2 ** 32 - 1) {
          throw invalid('verifyEnrollAuthority: authorityVersion must be an integer')
        }
        version = authorityVersion
      }
      const a = [str(announced, 'announced'), str(agentKey, 'agentKey'), str(enrollmentId, 'enrollmentId'), str(nonce, 'nonce'), str(endpoint, 'endpoint'), optStr(authority, 'authority')]
      return guard(() => binding.verifyEnrollAuthority(a[0], a[1], a[2], a[3], a[4], a[5], version))
    },

    // --- MAC receipts (ekl-evidence-mac-1.1) ---
    receiptKey(secret, keyId) {
      const a = [str(secret, 'secret'), str(keyId, 'keyId')]
      return guard(() => binding.receiptKey(a[0], a[1]))
    },
    authTag(receipt, secret) {
      const s = str(secret, 'secret')
      const t = toJsonText(receipt)
      return guard(() => binding.authTag(t, s))
    },
    receiptDigest(receipt) {
      const t = toJsonText(receipt)
      return guard(() => binding.receiptDigest(t))
    },
    signReceipt(receipt, secret) {
      const s = str(secret, 'secret')
      const t = toJsonText(receipt)
      return JSON.parse(guard(() => binding.signReceipt(t, s)))
    },
    verifyReceipt(receipt, options) {
      const o = opts(options, ['keys', 'call', 'inputCommitment', 'outputCommitment'], 'verifyReceipt')
      const [secret, keys] = keyRing(o.keys, 'verifyReceipt')
      const call = callSpec(o.call, 'verifyReceipt')
      const ci = ownCommitment(o.inputCommitment, 'inputCommitment')
      const co = ownCommitment(o.outputCommitment, 'outputCommitment')
      const t = toJsonText(receipt)
      return verdictOf(guard(() => binding.verifyReceipt(t, secret, keys, call, ci, co)))
    },
    verifyReceipts(items, options) {
      const [texts, specs, secret, keys] = batch(items, options, 'verifyReceipts')
      return guard(() => binding.verifyReceipts(texts, specs, secret, keys)).map(batchItem)
    },
    async verifyReceiptsAsync(items, options) {
      const [texts, specs, secret, keys] = batch(items, options, 'verifyReceiptsAsync')
      const run = binding.verifyReceiptsAsync ?? binding.verifyReceipts
      // Large batches in up to 4 chunks, so the thread pool verifies them in parallel; the
      // results keep the order of the items.
      const chunks = binding.verifyReceiptsAsync && texts.length >= 1024 ? 4 : 1
      const size = Math.ceil(texts.length / chunks)
      const parts = []
      for (let i = 0; i < texts.length || parts.length === 0; i += size || 1) {
        parts.push(guardAsync(() => run(texts.slice(i, i + size), specs.slice(i, i + size), secret, keys)))
      }
      return (await Promise.all(parts)).flat().map(batchItem)
    },

    // --- screening (§15.5) ---
    screeningRules(claims) {
      const t = toJsonText(claims)
      return JSON.parse(guard(() => binding.screeningRules(t)))
    },
    screen(rules, result) {
      const r = rules === undefined || rules === null ? null : toJsonText(rules)
      const t = toJsonText(result)
      return JSON.parse(guard(() => binding.screen(r, t)))
    },
    screeningFold(text) {
      const t = str(text, 'text')
      return guard(() => binding.screeningFold(t))
    },

    // --- JWKS, JWS, network-signed receipts, screening-rules tokens ---
    verifyJws(token, options) {
      const fn = 'verifyJws'
      const o = opts(options, ['typ', 'jwks', 'now', 'issuer', 'audience', 'skew', 'maxLifetime', 'requireExp', 'requireIat'], fn)
      const t = str(token, 'token')
      const a = [str(o.typ, 'typ'), jwksHandle(o.jwks, fn), seconds(o.now, 'now'), optStr(o.issuer, 'issuer'), optStr(o.audience, 'audience')]
      const skew = o.skew === undefined || o.skew === null ? null : seconds(o.skew, 'skew')
      const life = o.maxLifetime === undefined || o.maxLifetime === null ? null : seconds(o.maxLifetime, 'maxLifetime')
      const flag = (x, what) => {
        if (x === undefined || x === null) return null
        if (typeof x !== 'boolean') throw invalid(`${fn}: ${what} must be a boolean`)
        return x
      }
      const r = guard(() => binding.verifyJws(t, a[0], a[1], a[2], a[3], a[4], skew, life, flag(o.requireExp, 'requireExp'), flag(o.requireIat, 'requireIat')))
      return { header: JSON.parse(r.header), claims: JSON.parse(r.claims), kid: r.kid, typ: r.typ, tokenSha256: r.tokenSha256 }
    },
    verifyReceiptJws(token, options) {
      const o = opts(options, ['jwks', 'call'], 'verifyReceiptJws')
      const t = str(token, 'token')
      const j = jwksHandle(o.jwks, 'verifyReceiptJws')
      const call = signedCallSpec(o.call, 'verifyReceiptJws')
      return verdictOf(guard(() => binding.verifyReceiptJws(t, j, call)))
    },
    verifySignedReceipt(receipt, options) {
      const o = opts(options, ['jwks', 'call'], 'verifySignedReceipt')
      const j = jwksHandle(o.jwks, 'verifySignedReceipt')
      const call = signedCallSpec(o.call, 'verifySignedReceipt')
      const t = toJsonText(receipt)
      return verdictOf(guard(() => binding.verifySignedReceipt(t, j, call)))
    },
    verifyScreeningRules(token, options) {
      const o = opts(options, ['jwks', 'issuer', 'now'], 'verifyScreeningRules')
      const a = [str(token, 'token'), jwksHandle(o.jwks, 'verifyScreeningRules'), str(o.issuer, 'issuer'), seconds(o.now, 'now')]
      return JSON.parse(guard(() => binding.verifyScreeningRules(a[0], a[1], a[2], a[3])))
    },
    signingKey(seedHex, kid) {
      const a = [str(seedHex, 'seedHex'), str(kid, 'kid')]
      return new SigningKey(guard(() => binding.signingKey(a[0], a[1])))
    },
    jwksFromSeed(seedHex, kids) {
      const s = str(seedHex, 'seedHex')
      if (!Array.isArray(kids)) throw invalid('jwksFromSeed: kids must be an array of key ids')
      const k = strList(kids, 'kid')
      const r = guard(() => binding.jwksFromSeed(s, k))
      const jwks = Object.create(Jwks.prototype)
      Object.defineProperty(jwks, HANDLE, { value: r.jwks })
      Object.freeze(jwks)
      return { jwks, keys: r.keys.map((h) => new SigningKey(h)) }
    },
    signJws(typ, claims, key) {
      const a = [str(typ, 'typ'), keyHandle(key, 'signJws')]
      const t = toJsonText(claims)
      return guard(() => binding.signJws(a[0], t, a[1]))
    },
    issueReceipt(fields, options) {
      const o = opts(options, ['key', 'issuer', 'audience'], 'issueReceipt')
      const a = [keyHandle(o.key, 'issueReceipt'), str(o.issuer, 'issuer'), str(o.audience, 'audience')]
      const t = toJsonText(fields)
      return JSON.parse(guard(() => binding.issueReceipt(t, a[0], a[1], a[2])))
    },
    Jwks,
    SigningKey,

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
    MAX_INPUT_BYTES,
    MAX_VALUE_BYTES,
    CAPABILITY_INPUT_MAX_BYTES,
  }
  // Test hook, hidden (a registered symbol, not enumerable, not declared): a panic in the native
  // layer, through the same guard as every operation, to prove that it becomes INTERNAL_ERROR
  // and that the library keeps serving (node/test/hardening.test.js, wasm/test/hardening.test.mjs).
  Object.defineProperty(api, Symbol.for('ekl-core.testPanic'), {
    value: () => guard(() => binding.testPanic()),
  })
  return Object.freeze(api)
}

module.exports = { makeApi }
