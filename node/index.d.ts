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
  | 'PROOF_INVALID'
  | 'ENROLLMENT_AUTH_REQUIRED'
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
  | 'INTERNAL_ERROR'

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

/**
 * A JS value as the operations take it: a `JsonValue` whose object members may also be `undefined`
 * (absent, as `JSON.stringify` has it: an SDK's optional field left unset); `undefined` as an array
 * element is refused at run time.
 */
export type JsonValueInput =
  | null
  | boolean
  | number
  | bigint
  | string
  | readonly JsonValueInput[]
  | { readonly [key: string]: JsonValueInput | undefined }

/** A value argument: a JS value or JSON text wrapped in `JsonText`. */
export type ValueInput = JsonValueInput | JsonText

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
/** SHA-256((salt ‖) ekl-json-1(value)), lowercase hex; the optional salt is 64 lowercase hex characters. */
export declare function valueDigest(value: ValueInput, salt?: string | null): string

// --- fingerprints (§15.3, §5.1) ---

/** SHA-256(salt ‖ ekl-json-1(value)), lowercase hex; the salt is 64 lowercase hex characters. */
export declare function fingerprint(salt: string, value: ValueInput): string
/** The output fingerprint of an MCP tool result: `structuredContent` when present and not null, else `content`. */
export declare function outputFingerprint(salt: string, result: ValueInput): string
/** Which body of an MCP tool result the output fingerprint covers. */
export declare function selectResultBody(result: ValueInput): ResultBody
/** The upstream fingerprint of a `tools/list` result or its array, optionally only the offered tools. */
export declare function upstreamFingerprint(tools: ValueInput, offered?: readonly string[] | null): string
/** The array the upstream fingerprint hashes: the kept tools sorted by name, each projected to name, description, inputSchema, outputSchema, annotations. */
export declare function upstreamProjection(tools: ValueInput, offered?: readonly string[] | null): JsonValue[]

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

/** `v1` or `v2`, as the protocol's `endpoint_proof` writes it. */
export type ProofVersion = 'v1' | 'v2'

/** What the network holds for an agent (the no-downgrade state of §3.1). */
export type NetworkHolds = { proofKey: string } | { credentialHash: string }

/** One key of a receipt key ring: valid from `validFrom` (inclusive) to `validUntil` (exclusive). */
export interface ReceiptKeySpec {
  keyId: string
  secret: string
  /** RFC 3339 UTC (`YYYY-MM-DDTHH:MM:SS[.fff]Z`). */
  validFrom: string
  validUntil?: string | null
}

/** A receipt key ring: a registration secret (the baseline key `rk-1`) or a list of keys. */
export type ReceiptKeys = string | readonly ReceiptKeySpec[]

/** The call a receipt must answer. The optional members are checked only when given. */
export interface CallExpectation {
  executionId: string
  collaborationId: string
  capabilityId: string
  requesterAgentId: string
  providerAgentId: string
  capabilityVersion?: string | null
  connectionId?: string | null
  termsHash?: string | null
  executionKind?: string | null
  reservationId?: string | null
  grantId?: string | null
  admissionId?: string | null
  /** The digest the consumer expects the receipt to have. */
  receiptDigest?: string | null
}

/** One named check of a verdict. Names are stable snake_case strings, like error codes. */
export interface Check {
  name: string
  outcome: 'pass' | 'fail' | 'mismatch'
  /** Why it did not pass (never a secret, tag or payload). */
  detail?: string
  /** What the verifier expected, as a short display text (never a secret, tag or signature). */
  expected?: string
  /** What the receipt holds, as a short display text (never a tag or signature). */
  received?: string
}

/** A verdict: every check; accepted only when every check passed. A mismatch is a dispute, not an error. */
export interface Verdict {
  accepted: boolean
  checks: Check[]
  /** The digest to report (`collaboration_report`), when it could be computed. */
  receiptDigest?: string
}

/** Options of `verifyReceipt`. */
export interface VerifyReceiptOptions {
  keys: ReceiptKeys
  call: CallExpectation
  /** The consumer's own commitment to what it sent (as `commitment()` returns it). */
  inputCommitment?: Commitment | null
  /** The consumer's own commitment to what it received. */
  outputCommitment?: Commitment | null
}

/** One receipt of a batch. */
export interface ReceiptToVerify {
  receipt: ValueInput
  call: CallExpectation
  inputCommitment?: Commitment | null
  outputCommitment?: Commitment | null
}

/** A safety flag (§15.5, §6.8): never the matched text. */
export interface SafetyFlag {
  category: string
  rules_version: string
  /** The first matching rule (network rules only). */
  rule_id?: string
}

// --- endpoint proofs: verifiers (no downgrade, §3.1) ---

/** The network side of the challenge: the version that verified, or PROOF_INVALID / PROOF_DOWNGRADE. */
export declare function verifyChallengeProof(
  holds: NetworkHolds,
  challenge: string,
  endpoint: string,
  proofs: { proof?: string | null; proofV2?: string | null },
): ProofVersion
/** The agent side of `ekl_enroll`: the version that verified under the announced one, or PROOF_INVALID / PROOF_DOWNGRADE, or ENROLLMENT_AUTH_REQUIRED for an authority version other than 1 or 2 (§4). */
export declare function verifyEnrollAuthority(
  announced: ProofVersion,
  agentKey: string,
  enrollmentId: string,
  nonce: string,
  endpoint: string,
  authority?: string | null,
  authorityVersion?: number | null,
): ProofVersion

// --- MAC receipts (ekl-evidence-mac-1.1, §9.5) ---

/** The receipt key, lowercase hex: HMAC-SHA256(secret, "ekl-receipt-1.1" ‖ 0x00 ‖ keyId). */
export declare function receiptKey(secret: string, keyId: string): string
/** The `auth_tag` of a receipt (without its own `auth_tag`) under a receipt secret. */
export declare function authTag(receipt: ValueInput, secret: string): string
/** SHA-256 hex of the ekl-json-1 bytes of the whole receipt, `auth_tag` included. */
export declare function receiptDigest(receipt: ValueInput): string
/** The receipt with its `auth_tag` (the key chosen by its `key_id`). */
export declare function signReceipt(receipt: ValueInput, secret: string): Record<string, unknown>
/** Verifies a receipt against the call and the consumer's own commitments: a verdict naming each check. */
export declare function verifyReceipt(receipt: ValueInput, options: VerifyReceiptOptions): Verdict
/** Many receipts against one key ring: one verdict per receipt, or the EklError of one that cannot be a receipt. */
export declare function verifyReceipts(items: readonly ReceiptToVerify[], options: { keys: ReceiptKeys }): Array<Verdict | EklError>
/** `verifyReceipts` on the libuv thread pool. */
export declare function verifyReceiptsAsync(items: readonly ReceiptToVerify[], options: { keys: ReceiptKeys }): Promise<Array<Verdict | EklError>>

// --- screening (§15.5) ---

/** Validates the claims of a verified `ekl-screening-rules+jwt`; returns them as plain data. */
export declare function screeningRules(claims: ValueInput): Record<string, unknown>
/** The safety flags of a tool result under the rules (or the local leak patterns only, with null). */
export declare function screen(rules: ValueInput | null, result: ValueInput): SafetyFlag[]
/** A string as screening compares it: NFKC, full case folding, NFKC. */
export declare function screeningFold(text: string): string

/** The signed types of EKP 1.2; a token is accepted only as the type the caller expects. */
export type JwsTyp =
  | 'ekl-relationship+jwt'
  | 'ekl-platform-call+jwt'
  | 'ekl-execution-grant+jwt'
  | 'ekl-revocation-feed+jwt'
  | 'ekl-receipt+jwt'
  | 'ekl-screening-rules+jwt'
  | 'ekl-access+jwt'

/** A validated JWKS of P-256 keys, parsed once (`INVALID_JWKS`) and reused by every verification. */
export declare class Jwks {
  constructor(jwks: ValueInput)
  readonly kids: string[]
  toJSON(): { keys: Array<Record<string, string>> }
}

/** An ES256 signing key from a seed (deterministic; for tests, vectors and local networks). */
export declare class SigningKey {
  private constructor()
  readonly kid: string
}

/** Options of `verifyJws`. Times are seconds since the epoch, passed in (never read from a clock). */
export interface VerifyJwsOptions {
  typ: JwsTyp
  jwks: Jwks | ValueInput
  now: number
  issuer?: string | null
  audience?: string | null
  /** Allowed clock skew in seconds (default 60). */
  skew?: number | null
  maxLifetime?: number | null
  requireExp?: boolean | null
  requireIat?: boolean | null
}

/** A verified compact JWS. */
export interface VerifiedJws {
  header: Record<string, unknown>
  claims: Record<string, unknown>
  kid: string
  typ: JwsTyp
  /** SHA-256 hex of the token's ASCII bytes. */
  tokenSha256: string
}

/** The call a network-signed receipt must answer, with the consumer's clock window (seconds). */
export interface SignedCallExpectation {
  executionId: string
  providerAgentId: string
  requesterAgentId: string
  capabilityId: string
  /** The consumer's own input fingerprint (§15.3). */
  inputFingerprint: string
  /** The consumer's own agent id: the receipt's `aud`. */
  ownAgentId: string
  /** The network's issuer: the receipt's `iss`. */
  networkIssuer: string
  sentAt: number
  receivedAt: number
}

/** Verified screening rules: what `screen` takes. */
export interface ScreeningRulesClaims {
  iss: string
  iat: number
  exp: number
  rules_version: string
  rules: Array<{ rule_id: string; category: string; phrases: string[] }>
}

// --- JWS (ES256 only, explicit typ), network-signed receipts (§9.5.1), screening rules (§15.5) ---

/** Verifies a compact JWS: alg ES256, the exact typ, the kid's key, then iss/aud/times. */
export declare function verifyJws(token: string, options: VerifyJwsOptions): VerifiedJws
/** Verifies a receipt's `receipt_jws` claim by claim against the call: a verdict. */
export declare function verifyReceiptJws(token: string, options: { jwks: Jwks | ValueInput; call: SignedCallExpectation }): Verdict
/** Verifies a whole network-signed receipt object: its signature, its `receipt_jws` and that they agree. */
export declare function verifySignedReceipt(receipt: ValueInput, options: { jwks: Jwks | ValueInput; call: SignedCallExpectation }): Verdict
/** Verifies a screening-rules token (never used from `exp` on); returns the claims `screen` takes. */
export declare function verifyScreeningRules(token: string, options: { jwks: Jwks | ValueInput; issuer: string; now: number }): ScreeningRulesClaims
/** A signing key from a 32-byte seed (64 lowercase hex) and a key id. */
export declare function signingKey(seedHex: string, kid: string): SigningKey
/** The JWKS and the signing keys (one per kid, in order) derived from one seed; `INVALID_KEY` for equal kids. */
export declare function jwksFromSeed(seedHex: string, kids: readonly string[]): { jwks: Jwks; keys: SigningKey[] }
/** Signs claims as a compact JWS of `typ` (deterministic RFC 6979 nonces). */
export declare function signJws(typ: JwsTyp, claims: ValueInput, key: SigningKey): string
/** Issues a network-signed receipt object from its fields: `receipt_jws` and `signature` added. */
export declare function issueReceipt(fields: ValueInput, options: { key: SigningKey; issuer: string; audience: string }): Record<string, unknown>

// --- identity ---

/** Every error code of the core, in declaration order. */
export declare function errorCodes(): EklErrorCode[]
/** The version of the core the binding was built from. */
export declare function coreVersion(): string
/** Which binding is in use: the native addon, or the wasm fallback. */
export declare const backend: 'native' | 'wasm'
/** The deepest nesting accepted (an array or object is one level). */
export declare const MAX_DEPTH: 64
/**
 * The longest input of any operation, 64 MiB: JSON text (bytes, or a string's UTF-8 form) and a
 * string argument. Longer is refused with `BODY_TOO_LARGE` before it is read or copied
 * (docs/decisions.md#limits).
 */
export declare const MAX_INPUT_BYTES: 67108864
/**
 * The largest JS value any operation converts, as the length of its JSON form: 8 MiB (the bound on
 * host values of every surface). Past it the conversion stops at once with `BODY_TOO_LARGE`.
 */
export declare const MAX_VALUE_BYTES: 8388608
/** The size limit of a capability call's input as ekl-json-1 (256 KB). */
export declare const CAPABILITY_INPUT_MAX_BYTES: 262144
