// Type declarations of the ekl-core npm package (hand-written, checked in; verified by
// `tsc --noEmit` on examples/node/typecheck.ts, which uses the whole API, and by the test that
// compares `EklErrorCode` with the core's ErrorCode::ALL).
/// <reference types="node" />

/**
 * Every stable error code of the core (`ekl_core::ErrorCode`), in declaration order. The test
 * `test/errors.test.js` fails (and prints the corrected list) when this drifts from the Rust enum.
 */
export type EklErrorCode =
  | 'INVALID_JSON'
  | 'INVALID_UTF8'
  | 'LONE_SURROGATE'
  | 'DUPLICATE_KEY'
  | 'NON_FINITE_NUMBER'
  | 'INTEGER_OUT_OF_RANGE'
  | 'INPUT_TOO_DEEP'
  | 'BODY_TOO_LARGE'
  | 'UNSUPPORTED_TYPE'
  | 'NON_STRING_KEY'
  | 'CYCLIC_VALUE'
  | 'INVALID_SALT'
  | 'INVALID_SHAPE'
  | 'INVALID_HEX'
  | 'INVALID_RECEIPT'
  | 'INVALID_TIMESTAMP'
  | 'INVALID_ARGUMENT'
  | 'PROOF_DOWNGRADE'
  | 'JWS_MALFORMED'
  | 'INVALID_BASE64URL'
  | 'ALG_NOT_ALLOWED'
  | 'TYP_MISMATCH'
  | 'KID_MISSING'
  | 'UNKNOWN_KID'
  | 'CRIT_NOT_SUPPORTED'
  | 'SIGNATURE_INVALID'
  | 'INVALID_JWKS'
  | 'INVALID_KEY'
  | 'CLAIM_MISSING'
  | 'CLAIM_INVALID'
  | 'ISSUER_MISMATCH'
  | 'AUDIENCE_MISMATCH'
  | 'TOKEN_EXPIRED'
  | 'TOKEN_NOT_YET_VALID'
  | 'LIFETIME_TOO_LONG'
  | 'PURPOSE_MISMATCH'

/**
 * A refusal of ekl-core. `name` is `'EklError'` in the Node and the wasm package alike; `code` is
 * the core's stable string; `message` is `"CODE: short description"` (never secrets or payloads).
 */
export declare class EklError extends Error {
  constructor(code: EklErrorCode, detail: string, options?: { cause?: unknown })
  readonly name: 'EklError'
  readonly code: EklErrorCode
}

/** True for an error thrown by ekl-core (this package, the wasm package or another copy). */
export declare function isEklError(e: unknown): e is EklError

/**
 * JSON text, accepted wherever a value is: the core parses it with every ekl-json-1 rule
 * (duplicate keys, integers beyond ±2^53, lone surrogate escapes, depth, ...). Top level only.
 */
export declare class JsonText {
  constructor(text: string | Uint8Array)
  readonly text: string | Uint8Array
}

/** JSON text: a string (checked for lone surrogates), UTF-8 bytes (`Buffer`, `Uint8Array`) or a JsonText. */
export type JsonTextInput = string | Uint8Array | JsonText

/**
 * A JS value with a JSON form under ekl-json-1: plain objects (prototype `Object.prototype` or
 * `null`) of data properties, arrays, strings, finite numbers within ±2^53 when integral, BigInt
 * within ±2^53, booleans and null. Anything else is refused with an EklError at run time.
 */
export type JsonValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue }

/** A value argument: a JS value or JSON text wrapped in `JsonText`. */
export type ValueInput = JsonValue | JsonText

/** Options of the canonicalisation functions. */
export interface CanonicalizeOptions {
  /** Refuse with `BODY_TOO_LARGE` when the canonical form has more bytes than this. */
  maxBytes?: number | null
}

/** Options of the commitment functions. */
export interface CommitmentOptions {
  /** A salt of exactly 64 lowercase hex characters (`INVALID_SALT` otherwise). */
  salt?: string | null
  /** The salt's identifier, recorded as `salt_id`. */
  saltId?: string | null
}

/** A commitment (PROTOCOL §9.5), with the protocol's member names: embed it as it is. */
export interface Commitment {
  alg: 'sha-256'
  canon: 'ekl-json-1'
  /** Lowercase hex SHA-256 of (salt bytes ‖) the canonical bytes. */
  digest: string
  /** Present when `saltId` was given. */
  salt_id?: string
  /** Present when salted: the disclosed salt, 64 lowercase hex characters. */
  salt?: string
}

/** The body of an MCP tool result that the output fingerprint covers. */
export interface ResultBody {
  member: 'structuredContent' | 'content'
  /** The selected body, as plain JS data. */
  value: unknown
}

// --- ekl-json-1 (PROTOCOL §9.5) ---

/** Canonicalises JSON text: the ekl-json-1 bytes. */
export declare function canonicalize(json: JsonTextInput, options?: CanonicalizeOptions): Buffer
/** Canonicalises a JS value (or a JsonText): the ekl-json-1 bytes. */
export declare function canonicalizeValue(value: ValueInput, options?: CanonicalizeOptions): Buffer
/** `canonicalize` on the libuv thread pool: does not block the event loop. */
export declare function canonicalizeAsync(json: JsonTextInput, options?: CanonicalizeOptions): Promise<Buffer>
/** `canonicalizeValue` with the canonicalisation on the thread pool (the conversion of the value runs first, on the calling thread). */
export declare function canonicalizeValueAsync(value: ValueInput, options?: CanonicalizeOptions): Promise<Buffer>

// --- digests and commitments ---

/** Lowercase hex SHA-256 of bytes; a string is hashed as its UTF-8 bytes. */
export declare function sha256Hex(data: string | Uint8Array): string
/** The commitment to a value, optionally salted. */
export declare function commitment(value: ValueInput, options?: CommitmentOptions): Commitment
/** The commitment to a capability call's `input` (canonical form at most 256 KB, `BODY_TOO_LARGE`). */
export declare function inputCommitment(input: ValueInput, options?: CommitmentOptions): Commitment
/** The terms hash of §6.7.1: the digest of the terms object without its `hash` member. */
export declare function termsHash(terms: ValueInput): string

// --- fingerprints (§15.3, §5.1) ---

/** SHA-256(salt ‖ ekl-json-1(value)), lowercase hex; the salt is 64 lowercase hex characters. */
export declare function fingerprint(salt: string, value: ValueInput): string
/** The output fingerprint of an MCP tool result: `structuredContent` when present and not null, else `content`. */
export declare function outputFingerprint(salt: string, result: ValueInput): string
/** Which body of an MCP tool result the output fingerprint covers. */
export declare function selectResultBody(result: ValueInput): ResultBody
/** The upstream fingerprint of a `tools/list` result or its array, optionally only the offered tools. */
export declare function upstreamFingerprint(tools: ValueInput, offered?: readonly string[] | null): string

// --- endpoint proofs (§3.1, §4, §15.2) ---

/** The proof key: HMAC-SHA256(agent key, "ekl-endpoint-proof-v2"), lowercase hex. */
export declare function proofKey(agentKey: string): string
/** The v1 endpoint challenge proof. */
export declare function challengeProofV1(credential: string, challenge: string, endpoint: string): string
/** The v2 endpoint challenge proof; the proof key as 64 lowercase hex characters (`INVALID_HEX` otherwise). */
export declare function challengeProofV2(proofKey: string, challenge: string, endpoint: string): string
/** The v1 `ekl_enroll` authority. */
export declare function enrollAuthorityV1(agentKey: string, enrollmentId: string, nonce: string, endpoint: string): string
/** The v2 `ekl_enroll` authority (proof key as lowercase hex). */
export declare function enrollAuthorityV2(proofKey: string, enrollmentId: string, nonce: string, endpoint: string): string
/** The `ekl_verify` signature. */
export declare function verifySignature(registrationSecret: string, agentId: string, enrollmentId: string, challenge: string): string
/** Checks an `ekl_verify` signature in constant time. */
export declare function checkVerifySignature(
  registrationSecret: string,
  agentId: string,
  enrollmentId: string,
  challenge: string,
  signature: string,
): boolean

// --- identity ---

/** Every error code of the core, in declaration order. */
export declare function errorCodes(): EklErrorCode[]
/** The version of the core the binding was built from. */
export declare function coreVersion(): string
/** Which binding is in use: the native addon, or the wasm fallback. */
export declare const backend: 'native' | 'wasm'
/** The deepest nesting accepted (an array or object is one level). */
export declare const MAX_DEPTH: 64
/** The size limit of a capability call's input as ekl-json-1 (256 KB). */
export declare const CAPABILITY_INPUT_MAX_BYTES: 262144
