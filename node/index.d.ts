// Type declarations of the ekl-core npm package. The operations and the interfaces of the result
// shapes (between the markers below) are generated from docs/operations.json (the shapes are
// declared once, in bridge/src/shapes.rs) and the union `EklErrorCode` from docs/errors.json by
// `node scripts/dts.js` (test/api.test.js fails when they are stale); the rest is written by hand.
// Checked by `tsc` on types-test/, which uses the whole API, and by the test that compares
// `EklErrorCode` with the core's ErrorCode::ALL.
/// <reference types="node" />

/**
 * Every stable error code of the core (`ekl_core::ErrorCode`), in declaration order; what each
 * means: docs/errors.md. Written by `node scripts/dts.js` from docs/errors.json (do not edit);
 * `test/errors.test.js` fails when it drifts from the Rust enum.
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
  | 'UNSUPPORTED_KEY'
  | 'JWKS_UNAVAILABLE'
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
  | 'ASSERTION_REPLAY'
  | 'CREDENTIAL_REPLAY'
  | 'REPLAY_STORE_FULL'
  | 'REPLAY_STORE_UNAVAILABLE'
  | 'MCP_INVALID_MESSAGE'
  | 'MCP_AMBIGUOUS_ANSWER'
  | 'MCP_NO_ANSWER'
  | 'MCP_BAD_CURSOR'
  | 'MCP_UNSUPPORTED_ENCODING'
  | 'MCP_TIMEOUT'
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

/**
 * The type of a value argument of type `T`: `T` itself when its values can have a JSON form, so
 * that ordinary code type-checks without a cast: an `interface`, a `Record<string, unknown>` (a
 * parsed response), an SDK's result type, the package's own results (`Commitment`, `Receipt`,
 * `Verdict`, ...), optional members (`page?: number`, absent when `undefined`). `unknown` and
 * `any` are accepted as they are (the conversion checks them at run time). Refused at compile
 * time, as at run time: functions, symbols, `undefined` as an array element or as
 * the value itself, class instances whose members are methods (`Map`, `Date`, typed arrays, ...).
 * A `JsonText` is accepted at the top level. (A symbol-keyed member is refused at run time only.)
 * A type parameter is accepted as it is, like `unknown` (checked at run time): a generic wrapper
 * `function f<T>(x: T) { return inputCommitment(x) }` compiles (see `JsonEnforce`).
 */
export type JsonArg<T> = T & JsonEnforce<T, T extends JsonText ? unknown : JsonCompatible<T>>

/**
 * `unknown` when `T` is assignable to `Check` (the rule computed from `T`), else `Check`, so that
 * a refused argument is reported member by member against `Check`. While `T` is a type parameter
 * (inside a generic function) the test is deferred, and TypeScript relates an argument to a
 * deferred conditional type through both of its branches, skipping a branch that no instantiation
 * can take: `[X] extends [never]` can be true only for `never`, and `X` (`true` or `never`) is
 * `true` under TypeScript's permissive instantiation, so only the `unknown` branch is checked and
 * the type parameter passes. A concrete type gets the same result as before. (docs/decisions.md B13)
 */
export type JsonEnforce<T, Check> = [[T] extends [Check] ? true : never] extends [never] ? Check : unknown

/** `T` mapped to what a JSON-compatible `T` is (see `JsonArg`). */
export type JsonCompatible<T> = unknown extends T
  ? T
  : T extends JsonValueInput
    ? T
    : T extends undefined | symbol | ((...args: never[]) => unknown)
      ? never
      : T extends readonly unknown[]
        ? { [I in keyof T]: JsonElement<T[I]> }
        : T extends object
          ? { [K in keyof T]: K extends string ? (T extends VerdictHelpers ? (K extends keyof VerdictHelpers ? T[K] : JsonMember<T[K]>) : JsonMember<T[K]>) : never }
          : never
/**
 * `JsonArg<T>` for an object whose members `K` hold a time (`issued_at` of a receipt, `iat`,
 * `nbf`, `exp` of claims, ...): a `Date` is accepted there too, and written in the form the core
 * reads (the protocol's timestamp, or seconds since the epoch).
 */
export type JsonArgWithTimes<T, K extends string> = T &
  JsonEnforce<
    T,
    T extends JsonText
      ? unknown
      : unknown extends T
        ? unknown
        : T extends JsonValueInput
          ? unknown
          : T extends undefined | symbol | ((...args: never[]) => unknown)
            ? never
            : { [P in keyof T]: P extends K ? JsonMember<Exclude<T[P], Date>> | Extract<T[P], Date> : P extends string ? JsonMember<T[P]> : never }
  >
/** An object member: `undefined` is allowed (the member is absent, as `JSON.stringify` has it). */
type JsonMember<T> = unknown extends T ? T : T extends undefined ? undefined : JsonCompatible<T>
/** An array element: `undefined` is refused (`JSON.stringify` would write `null`). */
type JsonElement<T> = unknown extends T ? T : JsonCompatible<T>

/** `v1` or `v2`, as the protocol's `endpoint_proof` writes it. */
export type ProofVersion = 'v1' | 'v2'

/** One key of a receipt key ring: valid from `valid_from` (inclusive) to `valid_until` (exclusive), RFC 3339 UTC or a Date. */
export interface KeyRingEntry {
  key_id: string
  secret: string
  valid_from: string | Date
  valid_until?: string | Date | null
}

/** The former name of `KeyRingEntry` (Python's name for it since 0.1.0). @deprecated use KeyRingEntry */
export type ReceiptKeySpec = KeyRingEntry

/** A receipt key ring: a registration secret (the baseline key `rk-1`) or a list of keys. */
export type ReceiptKeys = string | readonly KeyRingEntry[]

/** The call a MAC receipt must answer, in wire names. The optional members are checked only when given. */
export interface ReceiptCall {
  execution_id: string
  collaboration_id: string
  capability_id: string
  requester_agent_id: string
  provider_agent_id: string
  capability_version?: string | null
  connection_id?: string | null
  terms_hash?: string | null
  execution_kind?: string | null
  reservation_id?: string | null
  grant_id?: string | null
  admission_id?: string | null
  /** The digest the consumer expects the receipt to have. */
  receipt_digest?: string | null
}

/** One receipt of a batch. */
export interface ReceiptToVerify {
  /** The receipt: any object (a `Receipt`, a parsed response, an interface), or a `JsonText`. */
  receipt: object
  call: ReceiptCall
  input_commitment?: Commitment | null
  output_commitment?: Commitment | null
}

/** The call a network-signed receipt must answer, with the consumer's clock window (seconds), in wire names. */
export interface SignedReceiptCall {
  execution_id: string
  provider_agent_id: string
  requester_agent_id: string
  capability_id: string
  /** The consumer's own input fingerprint (§15.3). */
  input_fingerprint: string
  /** The consumer's own agent id: the receipt's `aud`. */
  own_agent_id: string
  /** The network's issuer: the receipt's `iss`. */
  network_issuer: string
  /** When the consumer sent the call: seconds since the epoch, or a Date. */
  sent_at: Seconds
  /** When the consumer received the answer: seconds since the epoch, or a Date. */
  received_at: Seconds
}

/** Why a fetch of a key set failed, as the host saw it (`RemoteJwksPolicy.failed`). */
export type RemoteJwksCause = 'timeout' | 'network' | 'refused'

/** The signed types of EKP 1.2; a token is accepted only as the type the caller expects. */
export type JwsTyp =
  | 'ekl-relationship+jwt'
  | 'ekl-platform-call+jwt'
  | 'ekl-execution-grant+jwt'
  | 'ekl-revocation-feed+jwt'
  | 'ekl-receipt+jwt'
  | 'ekl-screening-rules+jwt'
  | 'ekl-access+jwt'

/** The execution statuses a receipt may report (§4, §9.5): `issueMacReceipt`'s `status`. */
export type ExecutionStatus =
  | 'accepted'
  | 'running'
  | 'succeeded'
  | 'failed_before_effect'
  | 'cancelled'
  | 'outcome_unknown'

/** The purpose of a platform call credential (§3, §4, §4.1). */
export type PlatformCallPurpose = 'enroll' | 'validation' | 'revalidation' | 'deliver'

// @generated shapes: begin (node scripts/dts.js, from the shapes of docs/operations.json; do not edit)

/**
 * A commitment (PROTOCOL §9.5), `{"alg": "sha-256", "canon": "ekl-json-1", "digest": hex}`, plus
 * `salt_id` and the disclosed `salt` when salted, with the protocol's member names: embed it as it
 * is.
 */
export interface Commitment {
  alg: 'sha-256'
  canon: 'ekl-json-1'
  /** Lowercase hex SHA-256 of (salt bytes ‖) the canonical bytes. */
  digest: string
  /** Present when a salt id was given (`salt_id`, JS `saltId`). */
  salt_id?: string
  /** Present when salted: the disclosed salt, 64 lowercase hex characters. */
  salt?: string
}

/**
 * A salted commitment, as an issued MAC receipt holds them: a `Commitment` whose `salt` is always
 * present (the salt to commit to the value with, §9.5).
 */
export interface SaltedCommitment {
  alg: 'sha-256'
  canon: 'ekl-json-1'
  /** Lowercase hex SHA-256 of the salt bytes ‖ the canonical bytes. */
  digest: string
  /** Present when a salt id was given (`salt_id`, JS `saltId`). */
  salt_id?: string
  /** The disclosed salt, 64 lowercase hex characters. */
  salt: string
}

/** The body of an MCP tool result that its output fingerprint covers, and which member it is. */
export interface ResultBody {
  member: 'structuredContent' | 'content'
  /** The selected body, as plain data. */
  value: unknown
}

/** A verified compact JWS: its header and claims, the kid used, its typ and its SHA-256. */
export interface VerifiedJws {
  header: Record<string, unknown>
  claims: Record<string, unknown>
  kid: string
  typ: JwsTyp
  /** SHA-256 hex of the token's ASCII bytes. */
  token_sha256: string
}

/** One capability of a relationship assertion's `caps`. */
export interface AssertionCap {
  id: string
  ver: number | string
}

/**
 * A verified relationship assertion (§9.1): the token, its registered claims and its own members.
 * `aud` is the token endpoint it was verified for. Consuming `jti` once per (issuer, token
 * endpoint, jti) is the caller's (§9.2).
 */
export interface VerifiedRelationshipAssertion extends VerifiedJws {
  iss: string
  iat: number
  exp: number
  sub: string
  aud: string
  jti: string
  org: string
  con: string
  rel_ver: number | string
  dsc_ver: number | string
  caps: AssertionCap[]
}

/**
 * A verified platform call credential (§3, §4): `purpose` is the one the caller expected. Single
 * use: recording `jti` until `exp` + 60 s is the caller's.
 */
export interface VerifiedPlatformCall extends VerifiedJws {
  iss: string
  iat: number
  exp: number
  jti: string
  purpose: PlatformCallPurpose
}

/** A verified revocation feed page or snapshot (§9.3.1); its items are in `claims`. */
export interface VerifiedRevocationFeed extends VerifiedJws {
  iss: string
  iat: number
  /** `null` (Python: `None`) when the token has none. */
  exp: number | null
}

/** A verified access token (§15.1). */
export interface VerifiedAccessToken extends VerifiedJws {
  iss: string
  iat: number
  exp: number
}

/** One rule of screening rules: its id, its category and its phrases. */
export interface ScreeningRule {
  rule_id: string
  category: string
  phrases: string[]
}

/** Validated screening rules (§15.5): what `screen` takes as `rules`. */
export interface ScreeningRules {
  rules_version: string
  rules: ScreeningRule[]
}

/** A verified screening rules token; also accepted as the `rules` of `screen`. */
export interface ScreeningRulesToken extends ScreeningRules {
  iss: string
  iat: number
  exp: number
}

/** A safety flag of a screened result (§15.5, §6.8): never the matched text. */
export interface SafetyFlag {
  category: string
  rules_version: string
  /** The first matching rule (network rules only). */
  rule_id?: string
}

/**
 * A MAC receipt (profile ekl-evidence-mac-1.1, §9.5) as `sign_receipt` returns it (plain data, wire
 * names): the members it was given, with its `key_id` and `auth_tag` always.
 */
export interface Receipt {
  [member: string]: unknown
  key_id: string
  auth_tag: string
}

/**
 * A MAC receipt as `issue_mac_receipt` returns it: every member of §9.5, both commitments salted;
 * `reservation_id`, `grant_id` and `admission_id` for a customer call only.
 */
export interface IssuedReceipt {
  [member: string]: unknown
  receipt_version: string
  receipt_id: string
  execution_kind: string
  requester_agent_id: string
  provider_agent_id: string
  collaboration_id: string
  connection_id: string
  execution_id: string
  capability_id: string
  capability_version: string
  rel_ver_at_admission: number
  dsc_ver: number
  terms_hash: string
  /** Salted: `salt` is the salt to commit to what was sent with. */
  input_commitment: SaltedCommitment
  /** Salted: `salt` is the salt to commit to what was received with. */
  output_commitment: SaltedCommitment
  status: ExecutionStatus
  issued_at: string
  key_id: string
  auth_profile: string
  auth_tag: string
  reservation_id?: string
  grant_id?: string
  admission_id?: string
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
  /** Why `key_id` failed: the key is unknown, not yet valid or expired at `issued_at`. */
  reason?: 'unknown_key' | 'key_not_yet_valid' | 'key_expired'
  /**
   * A knock-on: not checked, because the check it names failed (`auth_tag` without a usable key is
   * blocked by `key_id`); not a cause of its own.
   */
  blocked_by?: string
}

/**
 * A verdict: every check; accepted only when every check passed. A mismatch is a dispute, not an
 * error.
 */
export interface Verdict {
  accepted: boolean
  checks: Check[]
  /** The digest to report (`collaboration_report`), when it could be computed. */
  receipt_digest?: string
}

/** A check of a verdict that did not pass, in brief: `name` and `outcome` always. */
export interface FailingCheck {
  name: string
  outcome: 'fail' | 'mismatch'
  detail?: string
  /** Why `key_id` failed (as in a verdict's check). */
  reason?: 'unknown_key' | 'key_not_yet_valid' | 'key_expired'
  /** A knock-on: not checked, because the check it names failed. */
  blocked_by?: string
}

/**
 * The first cause of a receipt that is not accepted (`summarize_receipt_lines`): its first failing
 * check that was made (`check`; a knock-on, blocked by another's failure, is not a cause) and, for
 * `key_id`, why (`reason`: an unknown key, a key not yet valid or expired at `issued_at`; else
 * null). A table counts each failed receipt once, under it.
 */
export interface FirstCause {
  check: string
  reason: 'unknown_key' | 'key_not_yet_valid' | 'key_expired' | null
}

/**
 * One line of a receipt archive in brief (`summarize_receipt_lines`): its ids as written in the
 * receipt (a JWS's claims; any JSON value, null when absent), its verdict in short, or the error of
 * an item that cannot be verified (`accepted` is then null).
 */
export interface ReceiptLineSummary {
  line: number
  kind: 'mac' | 'jws' | 'object' | 'unknown'
  label: unknown
  receipt_id: unknown
  execution_id: unknown
  provider_agent_id: unknown
  capability_id: unknown
  issued_at: unknown
  accepted: boolean | null
  receipt_digest: string | null
  passed: number
  failing: FailingCheck[]
  cause: FirstCause | null
  error: { code: EklErrorCode, message: string } | null
}

/**
 * A receipt archive verified as `ekl receipt verify-archive` writes it (`verify_archive`): `output`
 * the JSON lines `{"line": N, "verdict": V}` or `{"error": {code, message}, "line": N}`, and the
 * items counted.
 */
export interface ArchiveOutput {
  output: string
  accepted: number
  not_accepted: number
  refused: number
}

/**
 * A network-signed receipt (profile ekl-evidence-sig-1.2, §9.5.1) as `issue_receipt` returns it:
 * its fields (`issued_at` and the call claims always, which it requires), then `receipt_jws`,
 * `key_id` and `signature` (always present).
 */
export interface SignedReceipt {
  [member: string]: unknown
  receipt_jws: string
  key_id: string
  signature: string
  issued_at: string
  execution_id: string
  provider_agent_id: string
  requester_agent_id: string
  capability_id: string
  input_fingerprint: string
}

/** A public P-256 JWK as this library writes it (`public_jwk`, the keys of a JWKS). */
export interface Jwk {
  kty: 'EC'
  crv: 'P-256'
  alg: 'ES256'
  use: 'sig'
  kid: string
  x: string
  y: string
}

/**
 * What the replay store is asked for an admitted credential (`replay_admit`); handed back to
 * `replay_answer` with the store's answers.
 */
export interface ReplayAdmission {
  /** relationship_assertion or platform_call */
  kind: string
  /** the store key, 64 lowercase hex */
  key: string
  /** the now the store is given, milliseconds */
  now_ms: number
  /** until when the store keeps the key (exclusive), ms */
  expires_at_ms: number
  /** a restore moment later than this refuses the credential, ms */
  restored_after_ms: number
}

/** A restore to record in the replay store (`replay_restore`). */
export interface ReplayRestore {
  /** the moment of detection, milliseconds */
  at_ms: number
  /** until when the store keeps it, milliseconds */
  until_ms: number
  /** the now the store is given, milliseconds */
  now_ms: number
  /** the window, seconds: 120 + 2 x skew */
  window: number
}

/**
 * What a RemoteJwksPolicy asks of its host now: serve the set held, fetch it, fail with `error`,
 * follow the redirect, or read the body.
 */
export interface RemoteJwksDecision {
  /** serve, fetch, fail, follow or read */
  action: 'serve' | 'fetch' | 'fail' | 'follow' | 'read'
  /** the refusal (action `fail`) */
  error?: { code: EklErrorCode, message: string }
  /** the deadline of the whole fetch in seconds (action `fetch`) */
  timeout?: number
  /** the largest body (actions `fetch` and `read`) */
  max_bytes?: number
}

/** The state of one MCP call's wire window (`mcp_window`): pass it back as it is. */
export interface McpWindow {
  /** The method of the call's request. */
  method: string
  /** The members its params must hold (absent reads as null). */
  match: Record<string, unknown>
  /** The id of the call's request, once sent. */
  awaited: number | string | null
  /** Whether its answer was received. */
  answered: boolean
  /** The bytes received during the call. */
  received: number
}

/**
 * What one message of an MCP call was (`mcp_window`): `seen` is `call` (the call's request),
 * `sent`, `answer` (with `result`, once), `error` (the JSON-RPC error answer), `request` (the
 * server's, with `id` and `method`), `notification`, `other` (an answer to another request) or
 * `end`.
 */
export interface McpWindowStep {
  /** The state for the next step. */
  window: McpWindow
  seen: 'call' | 'sent' | 'answer' | 'error' | 'request' | 'notification' | 'other' | 'end'
  /** The answer's result, read by the core's reader. */
  result?: Record<string, unknown>
  /** The answer's length in bytes. */
  bytes?: number
  /** The error answer's error object. */
  error?: unknown
  /** The id of the server's request. */
  id?: number | string
  /** The method of the server's request. */
  method?: string
}

/** The state of one MCP tools/list (`mcp_listing_page`): pass it back as it is. */
export interface McpListing {
  pages: number
  tools: number
  bytes: number
  cursors: string[]
}

/**
 * One page of an MCP tools/list (`mcp_listing_page`): the state, the next cursor and the window of
 * the next page (`null` when the listing ended).
 */
export interface McpListingStep {
  listing: McpListing
  next: string | null
  window: McpWindow | null
}
// @generated shapes: end

/** An ES256 signing key from a seed (deterministic; for tests, vectors and local networks). */
export declare class SigningKey {
  private constructor()
  readonly kid: string
}

/** A JWKS and its signing keys, one per kid (a tuple when the kids are a literal list). */
export interface KeySet<K extends readonly string[] = string[]> {
  jwks: Jwks
  keys: { -readonly [I in keyof K]: SigningKey }
}

/** A time in seconds since the epoch, or a Date (never milliseconds: a number over 1e11 is refused). */
export type Seconds = number | Date

/**
 * The helpers of every verdict the operations return (`verifyReceipt`, `verifySignedReceipt`,
 * `verifyReceiptJws`, each verdict of `verifyReceipts`), as Python's `Verdict` has them. They are
 * non-enumerable: `JSON.stringify`, `structuredClone` and the value parameters see the wire shape
 * only, and a verdict passes where a value is taken.
 */
export interface VerdictHelpers {
  /** The names of the checks that did not pass (Python: `verdict.failed()`). */
  failed(): string[]
  /**
   * True when nothing failed but a commitment mismatched: authentic evidence that the provider
   * committed to another input or result than the consumer's (Python: `verdict.disputed`).
   */
  readonly disputed: boolean
  /** The check called `name`, or `undefined` (Python: `verdict.check(name)`, `None`). */
  check(name: string): Check | undefined
}
export interface Verdict extends VerdictHelpers {}

// @generated operations: begin (node scripts/dts.js, from docs/operations.json; do not edit)

/**
 * ekl-json-1 canonical bytes of JSON text (RFC 8785 with EKP's refusals). (PROTOCOL §9.5; `canonicalize`)
 * @param text JSON text
 * @param maxBytes refuse output longer than this (BODY_TOO_LARGE) (option)
 */
export declare function canonicalize(text: JsonTextInput, options?: {
  /** refuse output longer than this (BODY_TOO_LARGE) */
  maxBytes?: number | null
}): Buffer

/**
 * ekl-json-1 canonical bytes of a JSON value. (PROTOCOL §9.5; `canonicalize_value`)
 * @param value the value
 * @param maxBytes refuse output longer than this (BODY_TOO_LARGE) (option)
 */
export declare function canonicalizeValue<T>(value: JsonArg<T>, options?: {
  /** refuse output longer than this (BODY_TOO_LARGE) */
  maxBytes?: number | null
}): Buffer

/**
 * Lowercase hex SHA-256 of bytes (a string: of its UTF-8 bytes). (utility; `sha256_hex`)
 * @param data the bytes
 */
export declare function sha256Hex(data: string | Uint8Array): string

/**
 * The commitment {alg, canon, digest[, salt_id, salt]} of a value. (PROTOCOL §9.5; `commitment`)
 * @param value the value committed to
 * @param salt the salt: 64 lowercase hex (32 bytes) (option)
 * @param saltId the salt's identifier (option)
 */
/** `commitment` given a salt: the commitment is salted (its `salt` always present). */
export declare function commitment<T>(value: JsonArg<T>, options: {
  /** the salt: 64 lowercase hex (32 bytes) */
  salt: string
  /** the salt's identifier */
  saltId?: string | null
}): SaltedCommitment
export declare function commitment<T>(value: JsonArg<T>, options?: {
  /** the salt: 64 lowercase hex (32 bytes) */
  salt?: string | null
  /** the salt's identifier */
  saltId?: string | null
}): Commitment

/**
 * The commitment of a capability call's input (at most 256 KB as ekl-json-1). (PROTOCOL §2.5, §9.5; `input_commitment`)
 * @param input the call's input
 * @param salt the salt: 64 lowercase hex (32 bytes) (option)
 * @param saltId the salt's identifier (option)
 */
/** `inputCommitment` given a salt: the commitment is salted (its `salt` always present). */
export declare function inputCommitment<T>(input: JsonArg<T>, options: {
  /** the salt: 64 lowercase hex (32 bytes) */
  salt: string
  /** the salt's identifier */
  saltId?: string | null
}): SaltedCommitment
export declare function inputCommitment<T>(input: JsonArg<T>, options?: {
  /** the salt: 64 lowercase hex (32 bytes) */
  salt?: string | null
  /** the salt's identifier */
  saltId?: string | null
}): Commitment

/**
 * The terms hash: 64 lowercase hex. (PROTOCOL §6.7.1; `terms_hash`)
 * @param terms the terms object
 */
export declare function termsHash<T>(terms: JsonArg<T>): string

/**
 * SHA-256 of (salt ‖) a value's ekl-json-1 bytes: 64 lowercase hex. (PROTOCOL §9.5; `value_digest`)
 * @param value the value
 * @param salt the salt: 64 lowercase hex (32 bytes) (option)
 */
export declare function valueDigest<T>(value: JsonArg<T>, options?: {
  /** the salt: 64 lowercase hex (32 bytes) */
  salt?: string | null
}): string

/**
 * The salted fingerprint SHA-256(salt ‖ ekl-json-1(value)). (PROTOCOL §15.3; `fingerprint`)
 * @param salt the salt: 64 lowercase hex (32 bytes)
 * @param value the value
 */
export declare function fingerprint<T>(salt: string, value: JsonArg<T>): string

/**
 * The salted fingerprint of an MCP tool result's body (structuredContent, else content). (PROTOCOL §15.3; `output_fingerprint`)
 * @param salt the salt: 64 lowercase hex (32 bytes)
 * @param result the tool result
 */
export declare function outputFingerprint<T>(salt: string, result: JsonArg<T>): string

/**
 * The body of a tool result that its fingerprint covers: {member, value}. (PROTOCOL §15.3; `select_result_body`)
 * @param result the tool result
 */
export declare function selectResultBody<T>(result: JsonArg<T>): ResultBody

/**
 * The upstream fingerprint of a tools/list result, optionally of the offered tools only. (PROTOCOL §5.1; `upstream_fingerprint`)
 * @param tools the tools/list result ({"tools": [...]})
 * @param offered the names of the tools offered (option)
 */
export declare function upstreamFingerprint<T>(tools: JsonArg<T>, options?: {
  /** the names of the tools offered */
  offered?: readonly string[] | null
}): string

/**
 * The array the upstream fingerprint hashes. (PROTOCOL §5.1; `upstream_projection`)
 * @param tools the tools/list result ({"tools": [...]})
 * @param offered the names of the tools offered (option)
 */
export declare function upstreamProjection<T>(tools: JsonArg<T>, options?: {
  /** the names of the tools offered */
  offered?: readonly string[] | null
}): JsonValue[]

/**
 * The proof key of an agent key: 64 lowercase hex. (PROTOCOL §3.1; `proof_key`)
 * @param agentKey the agent key
 */
export declare function proofKey(agentKey: string): string

/**
 * The v1 endpoint challenge proof. (PROTOCOL §15.2; `challenge_proof_v1`)
 * @param credential the agent's credential
 * @param challenge the challenge
 * @param endpoint the endpoint URL
 */
export declare function challengeProofV1(credential: string, challenge: string, endpoint: string): string

/**
 * The v2 endpoint challenge proof. (PROTOCOL §3.1; `challenge_proof_v2`)
 * @param proofKey the proof key: 64 lowercase hex
 * @param challenge the challenge
 * @param endpoint the endpoint URL
 */
export declare function challengeProofV2(proofKey: string, challenge: string, endpoint: string): string

/**
 * The v1 enrollment authority. (PROTOCOL §4; `enroll_authority_v1`)
 * @param agentKey the agent key
 * @param enrollmentId the enrollment id
 * @param nonce the nonce
 * @param endpoint the endpoint URL
 */
export declare function enrollAuthorityV1(agentKey: string, enrollmentId: string, nonce: string, endpoint: string): string

/**
 * The v2 enrollment authority. (PROTOCOL §4; `enroll_authority_v2`)
 * @param proofKey the proof key: 64 lowercase hex
 * @param enrollmentId the enrollment id
 * @param nonce the nonce
 * @param endpoint the endpoint URL
 */
export declare function enrollAuthorityV2(proofKey: string, enrollmentId: string, nonce: string, endpoint: string): string

/**
 * The ekl_verify signature the network expects. (PROTOCOL §4; `verify_signature`)
 * @param registrationSecret the registration secret
 * @param agentId the agent id
 * @param enrollmentId the enrollment id
 * @param challenge the challenge
 */
export declare function verifySignature(registrationSecret: string, agentId: string, enrollmentId: string, challenge: string): string

/**
 * Whether an ekl_verify signature is right (constant-time). (PROTOCOL §4; `check_verify_signature`)
 * @param registrationSecret the registration secret
 * @param agentId the agent id
 * @param enrollmentId the enrollment id
 * @param challenge the challenge
 * @param signature the signature received
 */
export declare function checkVerifySignature(registrationSecret: string, agentId: string, enrollmentId: string, challenge: string, signature: string): boolean

/**
 * The network side of the endpoint challenge: "v1" or "v2". Give exactly one of proof_key (only proof_v2 counts; a v1 proof is PROOF_DOWNGRADE) and credential_hash (only the v1 proof can be checked). Refusals: PROOF_INVALID, PROOF_DOWNGRADE. (PROTOCOL §3.1, §15.2; `verify_challenge_proof`)
 * @param challenge the challenge
 * @param endpoint the endpoint URL
 * @param proof the v1 proof received (option)
 * @param proofV2 the v2 proof received (option)
 * @param proofKey the agent's proof key, when the network holds it (option)
 * @param credentialHash the credential hash, when the network holds that (option)
 */
export declare function verifyChallengeProof(challenge: string, endpoint: string, options?: {
  /** the v1 proof received */
  proof?: string | null
  /** the v2 proof received */
  proofV2?: string | null
  /** the agent's proof key, when the network holds it */
  proofKey?: string | null
  /** the credential hash, when the network holds that */
  credentialHash?: string | null
}): ProofVersion

/**
 * The agent side of ekl_enroll: "v1" or "v2". After an announced "v2" a v1 authority is PROOF_DOWNGRADE; an authority_version other than 1 or 2 is ENROLLMENT_AUTH_REQUIRED. (PROTOCOL §4; `verify_enroll_authority`)
 * @param announced the endpoint_proof its last announcement answered: v1 or v2
 * @param agentKey the agent key
 * @param enrollmentId the enrollment id
 * @param nonce the nonce
 * @param endpoint the endpoint URL
 * @param authority the authority received (option)
 * @param authorityVersion the authority's version (option)
 */
export declare function verifyEnrollAuthority(announced: ProofVersion, agentKey: string, enrollmentId: string, nonce: string, endpoint: string, options?: {
  /** the authority received */
  authority?: string | null
  /** the authority's version */
  authorityVersion?: number | null
}): ProofVersion

/**
 * The protocol's UTC timestamp form (YYYY-MM-DDTHH:MM:SSZ) of a time in seconds. (PROTOCOL §9.5; `format_timestamp`)
 * @param time the time (seconds since the epoch, or the host's date type)
 */
export declare function formatTimestamp(time: Seconds): string

/**
 * The receipt key of a secret and key id: 64 lowercase hex. (PROTOCOL §9.5; `receipt_key`)
 * @param secret the registration secret
 * @param keyId the key id
 */
export declare function receiptKey(secret: string, keyId: string): string

/**
 * The auth_tag of a receipt (its other members) under a registration secret. (PROTOCOL §9.5; `auth_tag`)
 * @param receipt the receipt
 * @param secret the registration secret
 */
export declare function authTag<T>(receipt: JsonArg<T>, secret: string): string

/**
 * The receipt digest: SHA-256 of ekl-json-1 of the whole receipt. (PROTOCOL §9.5; `receipt_digest`)
 * @param receipt the receipt
 */
export declare function receiptDigest<T>(receipt: JsonArg<T>): string

/**
 * The receipt with its auth_tag. Refuses what verify_receipt would refuse. (PROTOCOL §9.5; `sign_receipt`)
 * @param receipt the receipt, without auth_tag; a Date is accepted for issued_at (timestamp)
 * @param secret the registration secret
 */
export declare function signReceipt<T>(receipt: JsonArgWithTimes<T, 'issued_at'>, secret: string): Receipt

/**
 * Issues a MAC receipt (ekl-evidence-mac-1.1) for a call answered: every member the verifier requires for the call's execution_kind, the commitments to the input and the output with fresh salts, issued_at now, the auth_tag. Refuses what verify_receipt would refuse, and verifies the receipt before returning it. (PROTOCOL §9.5; `issue_mac_receipt`)
 * @param call the call answered, as verify_receipt takes it; it must name execution_kind, connection_id, capability_version and terms_hash, and for a customer call reservation_id, grant_id and admission_id
 * @param input the call's input object (at most 256 KB as ekl-json-1)
 * @param output the result answered
 * @param status the execution status: accepted, running, succeeded, failed_before_effect, cancelled or outcome_unknown
 * @param relVerAtAdmission the relationship version at admission
 * @param dscVer the descriptor version
 * @param secret the receipt secret (the registration secret for rk-1)
 * @param keyId the secret's key id (default rk-1) (option)
 * @param receiptId the receipt id (default: rcpt_ and 32 hex of the SHA-256 of the receipt's other members) (option)
 * @param issuedAt the time of issue (default: now) (option)
 * @param inputSalt the input commitment's salt, 64 lowercase hex (default: fresh from the host's CSPRNG) (option)
 * @param outputSalt the output commitment's salt, 64 lowercase hex (default: fresh from the host's CSPRNG) (option)
 */
/** The arguments of `issueMacReceipt` after the first 3, by name (its object form). */
export interface IssueMacReceiptOptions {
  /** the execution status: accepted, running, succeeded, failed_before_effect, cancelled or outcome_unknown */
  status: ExecutionStatus
  /** the relationship version at admission */
  relVerAtAdmission: number
  /** the descriptor version */
  dscVer: number
  /** the receipt secret (the registration secret for rk-1) */
  secret: string
  /** the secret's key id (default rk-1) */
  keyId?: string | null
  /** the receipt id (default: rcpt_ and 32 hex of the SHA-256 of the receipt's other members) */
  receiptId?: string | null
  /** the time of issue (default: now) */
  issuedAt?: Seconds | null
  /** the input commitment's salt, 64 lowercase hex (default: fresh from the host's CSPRNG) */
  inputSalt?: string | null
  /** the output commitment's salt, 64 lowercase hex (default: fresh from the host's CSPRNG) */
  outputSalt?: string | null
}
/** `issueMacReceipt` with its arguments after the first 3 by name (the same call as the positional form below). */
export declare function issueMacReceipt<T, U>(call: ReceiptCall, input: JsonArg<T>, output: JsonArg<U>, options: IssueMacReceiptOptions): IssuedReceipt
export declare function issueMacReceipt<T, U>(call: ReceiptCall, input: JsonArg<T>, output: JsonArg<U>, status: ExecutionStatus, relVerAtAdmission: number, dscVer: number, secret: string, options?: {
  /** the secret's key id (default rk-1) */
  keyId?: string | null
  /** the receipt id (default: rcpt_ and 32 hex of the SHA-256 of the receipt's other members) */
  receiptId?: string | null
  /** the time of issue (default: now) */
  issuedAt?: Seconds | null
  /** the input commitment's salt, 64 lowercase hex (default: fresh from the host's CSPRNG) */
  inputSalt?: string | null
  /** the output commitment's salt, 64 lowercase hex (default: fresh from the host's CSPRNG) */
  outputSalt?: string | null
}): IssuedReceipt

/**
 * The verdict on a MAC receipt: every check, pass, fail or mismatch. (PROTOCOL §9.5; `verify_receipt`)
 * @param receipt the receipt
 * @param keys the key ring: the registration secret, or a list of {key_id, secret, valid_from, valid_until?}; a Date is accepted for valid_from (timestamp), valid_until (timestamp)
 * @param call the call: {execution_id, collaboration_id, capability_id, requester_agent_id, provider_agent_id, …}
 * @param inputCommitment the consumer's own input commitment (option)
 * @param outputCommitment the consumer's own output commitment (option)
 */
export declare function verifyReceipt<T>(receipt: JsonArg<T>, keys: ReceiptKeys, call: ReceiptCall, options?: {
  /** the consumer's own input commitment */
  inputCommitment?: Commitment | SaltedCommitment | null
  /** the consumer's own output commitment */
  outputCommitment?: Commitment | SaltedCommitment | null
}): Verdict

/**
 * Verdicts on many MAC receipts under one key ring; an item that cannot be read gives {error: {code, message}} in its place. (PROTOCOL §9.5; `verify_receipts`)
 * @param items a list of {receipt, call, input_commitment?, output_commitment?}
 * @param keys the key ring: the registration secret, or a list of keys; a Date is accepted for valid_from (timestamp), valid_until (timestamp)
 * @param jobs threads to verify on (default: every core available; 1: the calling thread only) (option)
 */
export declare function verifyReceipts(items: readonly ReceiptToVerify[], keys: ReceiptKeys, options?: {
  /** threads to verify on (default: every core available; 1: the calling thread only) */
  jobs?: number | null
}): Array<Verdict | EklError>

/**
 * Verdicts on a receipt archive: JSON lines, one item a line ({receipt, call, input_commitment?, output_commitment?} for a MAC receipt, {receipt_jws, call} or {receipt: signed object, call} for a network-signed one, an optional label); one verdict per non-blank line, or {error: {code, message}} for an item that cannot be verified. (PROTOCOL §9.5; `verify_receipt_lines`)
 * @param lines the archive: JSON lines text
 * @param keys the key ring of MAC receipts; a Date is accepted for valid_from (timestamp), valid_until (timestamp) (option)
 * @param jwks the network's key set, for network-signed receipts (option)
 * @param ownAgentId your agent id: a call's own_agent_id and requester_agent_id when the item has none (option)
 * @param networkIssuer the network's issuer: a signed call's network_issuer when the item has none (option)
 * @param jobs threads to verify on (default: every core available; 1: the calling thread only) (option)
 */
export declare function verifyReceiptLines<T>(lines: JsonTextInput, options?: {
  /** the key ring of MAC receipts */
  keys?: ReceiptKeys | null
  /** the network's key set, for network-signed receipts */
  jwks?: Jwks | JsonArg<T> | null
  /** your agent id: a call's own_agent_id and requester_agent_id when the item has none */
  ownAgentId?: string | null
  /** the network's issuer: a signed call's network_issuer when the item has none */
  networkIssuer?: string | null
  /** threads to verify on (default: every core available; 1: the calling thread only) */
  jobs?: number | null
}): Array<Verdict | EklError>

/**
 * A receipt archive in brief (the items of verify_receipt_lines): one row per non-blank line, {line, kind, label, receipt_id, execution_id, provider_agent_id, capability_id, issued_at, accepted, receipt_digest, passed, failing: [{name, outcome, detail?, reason?, blocked_by?}], cause, error}: the ids a table of the archive shows and the verdict in short, with the first cause of a receipt not accepted ({check, reason}; a knock-on check is blocked_by the one whose failure left it unchecked); an item that cannot be verified has accepted null and error {code, message}. (PROTOCOL §9.5; `summarize_receipt_lines`)
 * @param lines the archive: JSON lines text
 * @param keys the key ring of MAC receipts; a Date is accepted for valid_from (timestamp), valid_until (timestamp) (option)
 * @param jwks the network's key set, for network-signed receipts (option)
 * @param ownAgentId your agent id: a call's own_agent_id and requester_agent_id when the item has none (option)
 * @param networkIssuer the network's issuer: a signed call's network_issuer when the item has none (option)
 * @param jobs threads to verify on (default: every core available; 1: the calling thread only) (option)
 */
export declare function summarizeReceiptLines<T>(lines: JsonTextInput, options?: {
  /** the key ring of MAC receipts */
  keys?: ReceiptKeys | null
  /** the network's key set, for network-signed receipts */
  jwks?: Jwks | JsonArg<T> | null
  /** your agent id: a call's own_agent_id and requester_agent_id when the item has none */
  ownAgentId?: string | null
  /** the network's issuer: a signed call's network_issuer when the item has none */
  networkIssuer?: string | null
  /** threads to verify on (default: every core available; 1: the calling thread only) */
  jobs?: number | null
}): ReceiptLineSummary[]

/**
 * A receipt archive verified and written as `ekl receipt verify-archive` writes it: {output, accepted, not_accepted, refused}, output the JSON lines {"line": N, "verdict": V} or {"error": {code, message}, "line": N} (with failures_only, the items not accepted alone, each with its failing checks); the verdicts never become host objects (the form for large archives, Dask workers). (PROTOCOL §9.5; `verify_archive`)
 * @param lines the archive: JSON lines text
 * @param keys the key ring of MAC receipts; a Date is accepted for valid_from (timestamp), valid_until (timestamp) (option)
 * @param jwks the network's key set, for network-signed receipts (option)
 * @param ownAgentId your agent id: a call's own_agent_id and requester_agent_id when the item has none (option)
 * @param networkIssuer the network's issuer: a signed call's network_issuer when the item has none (option)
 * @param jobs threads to verify on (default: every core available; 1: the calling thread only) (option)
 * @param failuresOnly only the items not accepted, each verdict with its failing checks alone (option)
 * @param firstLine the number of the text's first line (default 1): a block of a larger archive (option)
 */
export declare function verifyArchive<T>(lines: JsonTextInput, options?: {
  /** the key ring of MAC receipts */
  keys?: ReceiptKeys | null
  /** the network's key set, for network-signed receipts */
  jwks?: Jwks | JsonArg<T> | null
  /** your agent id: a call's own_agent_id and requester_agent_id when the item has none */
  ownAgentId?: string | null
  /** the network's issuer: a signed call's network_issuer when the item has none */
  networkIssuer?: string | null
  /** threads to verify on (default: every core available; 1: the calling thread only) */
  jobs?: number | null
  /** only the items not accepted, each verdict with its failing checks alone */
  failuresOnly?: boolean | null
  /** the number of the text's first line (default 1): a block of a larger archive */
  firstLine?: number | null
}): ArchiveOutput

/**
 * The screening rules of a rules token's claims, validated: {rules_version, rules}. (PROTOCOL §15.5; `screening_rules`)
 * @param claims the claims (rules_version, rules)
 */
export declare function screeningRules<T>(claims: JsonArg<T>): ScreeningRules

/**
 * The safety flags of a tool result: the network's rules (when given) and the local leak patterns. (PROTOCOL §15.5; `screen`)
 * @param result the tool result
 * @param rules the screening rules ({rules_version, rules}) (option)
 */
export declare function screen<T, U>(result: JsonArg<T>, options?: {
  /** the screening rules ({rules_version, rules}) */
  rules?: ScreeningRules | JsonArg<U> | null
}): SafetyFlag[]

/**
 * The screening fold of a text (NFKC, full case folding). (PROTOCOL §15.5; `screening_fold`)
 * @param text the text
 */
export declare function screeningFold(text: string): string

/**
 * A validated JWKS of P-256 keys, parsed once for many verifications. (PROTOCOL §3; `parse_jwks`)
 * @param jwks the key set
 */
export interface Jwks {
  readonly kids: string[]
  toJSON(): { keys: Array<Record<string, string>> }
}
export declare const Jwks: {
  new <T>(jwks: Jwks | JsonArg<T>): Jwks
  readonly prototype: Jwks
}

/**
 * Verifies a compact ES256 JWS of an EKP type: header, signature and claims. Returns {header, claims, kid, typ, token_sha256}. (PROTOCOL §3; `verify_jws`)
 * @param token the compact JWS
 * @param typ the expected token type
 * @param jwks the key set
 * @param now the time to check against (default: now) (option)
 * @param issuer the expected iss (option)
 * @param audience the expected aud (option)
 * @param skew the allowed clock skew in seconds (default 60) (option)
 * @param maxLifetime the longest exp − iat allowed (option)
 * @param requireExp whether exp is required (default true) (option)
 * @param requireIat whether iat is required (default true) (option)
 */
export declare function verifyJws<T>(token: string, typ: JwsTyp, jwks: Jwks | JsonArg<T>, options?: {
  /** the time to check against (default: now) */
  now?: Seconds | null
  /** the expected iss */
  issuer?: string | null
  /** the expected aud */
  audience?: string | null
  /** the allowed clock skew in seconds (default 60) */
  skew?: number | null
  /** the longest exp − iat allowed */
  maxLifetime?: number | null
  /** whether exp is required (default true) */
  requireExp?: boolean | null
  /** whether iat is required (default true) */
  requireIat?: boolean | null
}): VerifiedJws

/**
 * Signs claims as a compact ES256 JWS of an EKP type. Refuses what verify_jws would refuse. (PROTOCOL §3; `sign_jws`)
 * @param typ the token type
 * @param claims the claims; a Date is accepted for iat (seconds), nbf (seconds), exp (seconds)
 * @param key the signing key
 */
export declare function signJws<T>(typ: JwsTyp, claims: JsonArgWithTimes<T, 'iat' | 'nbf' | 'exp'>, key: SigningKey): string

/**
 * An ES256 signing key derived from a 32-byte seed (deterministic; tests, vectors, local networks). (PROTOCOL §3; `signing_key`)
 * @param seed the seed: 64 lowercase hex
 * @param kid the key id
 */
export declare function signingKey(seed: string, kid: string): SigningKey

/**
 * An ES256 signing key from a private JWK: d alone (the public point derived) or with x and y (checked against d). (PROTOCOL §3; `signing_key_from_jwk`)
 * @param jwk the private JWK (kty EC, crv P-256, kid, d)
 */
export declare function signingKeyFromJwk<T>(jwk: JsonArg<T>): SigningKey

/**
 * An ES256 signing key from a PEM file: PKCS#8 (BEGIN PRIVATE KEY) or SEC1 (BEGIN EC PRIVATE KEY), P-256, unencrypted. (PROTOCOL §3; `signing_key_from_pem`)
 * @param pem the PEM text
 * @param kid the key id it signs under
 */
export declare function signingKeyFromPem(pem: string, kid: string): SigningKey

/**
 * The public JWK of a signing key (for the key set a verifier fetches). (PROTOCOL §3; `public_jwk`)
 * @param key the signing key
 */
export declare function publicJwk(key: SigningKey): Jwk

/**
 * The JWKS and signing keys derived from one seed, one per kid. (PROTOCOL §3; `jwks_from_seed`)
 * @param seed the seed: 64 lowercase hex
 * @param kids the key ids
 */
export declare function jwksFromSeed<const K extends readonly string[]>(seed: string, kids: K): KeySet<K>

/**
 * The verdict on a network-signed receipt's compact JWS against the call. (PROTOCOL §9.5.1; `verify_receipt_jws`)
 * @param token the receipt_jws
 * @param jwks the network's key set
 * @param call the call: {execution_id, provider_agent_id, requester_agent_id, capability_id, input_fingerprint, own_agent_id, network_issuer, sent_at, received_at}; a Date is accepted for sent_at (seconds), received_at (seconds)
 */
export declare function verifyReceiptJws<T>(token: string, jwks: Jwks | JsonArg<T>, call: SignedReceiptCall): Verdict

/**
 * The verdict on a network-signed receipt object: its signature, its JWS, and that they agree. (PROTOCOL §9.5.1; `verify_signed_receipt`)
 * @param receipt the receipt object
 * @param jwks the network's key set
 * @param call the call (as for verify_receipt_jws); a Date is accepted for sent_at (seconds), received_at (seconds)
 */
export declare function verifySignedReceipt<T, U>(receipt: JsonArg<T>, jwks: Jwks | JsonArg<U>, call: SignedReceiptCall): Verdict

/**
 * Issues a network-signed receipt (object signature and receipt_jws) from its fields. Returns the fields with receipt_jws, key_id (the key's kid) and signature added. Refuses what the verifier would refuse; fields holding iss, aud or iat, the claims it adds, are INVALID_ARGUMENT. (PROTOCOL §9.5.1; `issue_receipt`)
 * @param fields the receipt's members (§9.5.1): issued_at (RFC 3339 UTC) and the call claims execution_id, provider_agent_id, requester_agent_id, capability_id, input_fingerprint (strings) are required, any other member (status, receipt_id, ...) is kept as given; not iss, aud or iat; a Date is accepted for issued_at (timestamp)
 * @param key the network's signing key
 * @param issuer the network's issuer (iss)
 * @param audience the consumer's agent id (aud)
 */
export declare function issueReceipt<T>(fields: JsonArgWithTimes<T, 'issued_at'>, key: SigningKey, issuer: string, audience: string): SignedReceipt

/**
 * Verifies an execution grant for a provider: typ ekl-execution-grant+jwt, aud ekl:agent:{provider_id}, lifetime at most 600 s. Returns {header, claims, kid, typ, token_sha256}. (PROTOCOL §9.3.2; `verify_execution_grant`)
 * @param token the execution grant
 * @param jwks the network's key set
 * @param issuer the network's issuer
 * @param providerId the provider's agent id
 * @param now the time to check against (default: now) (option)
 */
export declare function verifyExecutionGrant<T>(token: string, jwks: Jwks | JsonArg<T>, issuer: string, providerId: string, options?: {
  /** the time to check against (default: now) */
  now?: Seconds | null
}): VerifiedJws

/**
 * Verifies a relationship assertion at a provider's token endpoint: typ ekl-relationship+jwt, aud the token endpoint, lifetime at most 120 s, sub jti org con rel_ver dsc_ver caps required, auth_profile ekl-auth-1.1. Returns the verified token with {iss, iat, exp, sub, aud, jti, org, con, rel_ver, dsc_ver, caps}. Single use: consuming jti is the caller's (§9.2). (PROTOCOL §9.1; `verify_relationship_assertion`)
 * @param token the relationship assertion
 * @param jwks the network's key set
 * @param issuer the network's issuer
 * @param tokenEndpoint the provider's token endpoint (the aud)
 * @param now the time to check against (default: now) (option)
 */
export declare function verifyRelationshipAssertion<T>(token: string, jwks: Jwks | JsonArg<T>, issuer: string, tokenEndpoint: string, options?: {
  /** the time to check against (default: now) */
  now?: Seconds | null
}): VerifiedRelationshipAssertion

/**
 * Verifies a platform call credential for a tool that accepts one purpose: typ ekl-platform-call+jwt, lifetime at most 60 s, jti required, purpose equal to the expected one (PURPOSE_MISMATCH), aud checked when an audience is given. Returns the verified token with {iss, iat, exp, jti, purpose}. Single use: consuming jti is the caller's. (PROTOCOL §3, §4; `verify_platform_call`)
 * @param token the platform call credential
 * @param jwks the network's key set
 * @param issuer the network's issuer
 * @param purpose the purpose the tool accepts: enroll, validation, revalidation or deliver
 * @param audience the expected aud (default: not checked) (option)
 * @param now the time to check against (default: now) (option)
 */
export declare function verifyPlatformCall<T>(token: string, jwks: Jwks | JsonArg<T>, issuer: string, purpose: PlatformCallPurpose, options?: {
  /** the expected aud (default: not checked) */
  audience?: string | null
  /** the time to check against (default: now) */
  now?: Seconds | null
}): VerifiedPlatformCall

/**
 * Verifies a revocation feed page or snapshot: typ ekl-revocation-feed+jwt, aud the provider's agent id, iat required, exp checked when present. Returns the verified token with {iss, iat, exp} (exp null when absent); the items are in claims. (PROTOCOL §9.3.1; `verify_revocation_feed`)
 * @param token the feed page or snapshot
 * @param jwks the network's key set
 * @param issuer the network's issuer
 * @param providerAgentId the provider's agent id (the aud)
 * @param now the time to check against (default: now) (option)
 */
export declare function verifyRevocationFeed<T>(token: string, jwks: Jwks | JsonArg<T>, issuer: string, providerAgentId: string, options?: {
  /** the time to check against (default: now) */
  now?: Seconds | null
}): VerifiedRevocationFeed

/**
 * Verifies an access token at a provider: typ ekl-access+jwt, aud ekl:agent:{provider_id}, lifetime at most 900 s. Returns the verified token with {iss, iat, exp}. (PROTOCOL §15.1; `verify_access_token`)
 * @param token the access token
 * @param jwks the network's key set
 * @param issuer the network's issuer
 * @param providerId the provider's agent id
 * @param now the time to check against (default: now) (option)
 */
export declare function verifyAccessToken<T>(token: string, jwks: Jwks | JsonArg<T>, issuer: string, providerId: string, options?: {
  /** the time to check against (default: now) */
  now?: Seconds | null
}): VerifiedAccessToken

/**
 * Issues a relationship assertion (typ ekl-relationship+jwt) from its claims: iss, aud (the provider's token endpoint), iat, exp (at most 120 s later), sub, jti, org, auth_profile ekl-auth-1.1, con, rel_ver, dsc_ver, caps [{id, ver}]. Refuses, with its code, what verify_relationship_assertion would refuse at the token's first valid second. (PROTOCOL §9.1; `issue_relationship_assertion`)
 * @param claims the claims; a Date is accepted for iat (seconds), nbf (seconds), exp (seconds)
 * @param key the network's signing key
 */
export declare function issueRelationshipAssertion<T>(claims: JsonArgWithTimes<T, 'iat' | 'nbf' | 'exp'>, key: SigningKey): string

/**
 * Issues a platform call credential (typ ekl-platform-call+jwt) from its claims: iss, iat, exp (at most 60 s later), jti, purpose (enroll, validation, revalidation or deliver), aud when the tool names one. Refuses, with its code, what verify_platform_call would refuse. (PROTOCOL §3; `issue_platform_call`)
 * @param claims the claims; a Date is accepted for iat (seconds), nbf (seconds), exp (seconds)
 * @param key the network's signing key
 */
export declare function issuePlatformCall<T>(claims: JsonArgWithTimes<T, 'iat' | 'nbf' | 'exp'>, key: SigningKey): string

/**
 * Issues an execution grant (typ ekl-execution-grant+jwt) from its claims: iss, aud ekl:agent:{provider_id}, iat, exp (at most 600 s later). Refuses, with its code, what verify_execution_grant would refuse. (PROTOCOL §9.3.2; `issue_execution_grant`)
 * @param claims the claims; a Date is accepted for iat (seconds), nbf (seconds), exp (seconds)
 * @param key the network's signing key
 */
export declare function issueExecutionGrant<T>(claims: JsonArgWithTimes<T, 'iat' | 'nbf' | 'exp'>, key: SigningKey): string

/**
 * Issues a revocation feed page or snapshot (typ ekl-revocation-feed+jwt) from its claims: iss, aud (the provider's agent id), iat, exp optional, the items. Refuses, with its code, what verify_revocation_feed would refuse. (PROTOCOL §9.3.1; `issue_revocation_feed`)
 * @param claims the claims; a Date is accepted for iat (seconds), nbf (seconds), exp (seconds)
 * @param key the network's signing key
 */
export declare function issueRevocationFeed<T>(claims: JsonArgWithTimes<T, 'iat' | 'nbf' | 'exp'>, key: SigningKey): string

/**
 * Issues an access token (typ ekl-access+jwt) from its claims: iss, aud ekl:agent:{provider_id}, iat, exp (at most 900 s later). Refuses, with its code, what verify_access_token would refuse. (PROTOCOL §15.1; `issue_access_token`)
 * @param claims the claims; a Date is accepted for iat (seconds), nbf (seconds), exp (seconds)
 * @param key the network's signing key
 */
export declare function issueAccessToken<T>(claims: JsonArgWithTimes<T, 'iat' | 'nbf' | 'exp'>, key: SigningKey): string

/**
 * Verifies a screening rules token: {iss, iat, exp, rules_version, rules}. (PROTOCOL §15.5; `verify_screening_rules`)
 * @param token the token
 * @param jwks the network's key set
 * @param issuer the network's issuer
 * @param now the time to check against (default: now) (option)
 */
export declare function verifyScreeningRules<T>(token: string, jwks: Jwks | JsonArg<T>, issuer: string, options?: {
  /** the time to check against (default: now) */
  now?: Seconds | null
}): ScreeningRulesToken

/**
 * The replay store key of a credential: lowercase hex SHA-256 of the ekl-json-1 array ["ekl-replay-1", kind, issuer, audience, jti]. (PROTOCOL §9.2; `replay_key`)
 * @param kind relationship_assertion or platform_call
 * @param issuer the credential's iss
 * @param audience the token endpoint (assertion) or the audience (platform call)
 * @param jti the credential's jti
 */
export declare function replayKey(kind: string, issuer: string, audience: string, jti: string): string

/**
 * Admits a verified single-use credential at now_ms, or refuses it before any store is asked (TOKEN_EXPIRED, TOKEN_NOT_YET_VALID, LIFETIME_TOO_LONG, INVALID_ARGUMENT): what the replay store is asked (the key, until when it keeps it, its now, the latest restore moment that lets it in). Hand the store's answers to replay_answer. (PROTOCOL §9.2; `replay_admit`)
 * @param kind relationship_assertion or platform_call
 * @param issuer the credential's iss
 * @param audience the token endpoint (assertion) or the audience (platform call)
 * @param jti the credential's jti
 * @param iat the credential's iat, seconds
 * @param exp the credential's exp, seconds
 * @param nowMs the time, integer milliseconds since the epoch (not negative; seconds × 1000)
 * @param skew the clock skew, seconds in [0, 300] (default 60; the same on every replica) (option)
 */
export declare function replayAdmit(kind: string, issuer: string, audience: string, jti: string, iat: number, exp: number, nowMs: number, options?: {
  /** the clock skew, seconds in [0, 300] (default 60; the same on every replica) */
  skew?: number | null
}): ReplayAdmission

/**
 * Checks the replay store's answers for an admission: the restore moment it keeps (read before the add) and whether it added the key. A restore moment later than restored_after_ms, or an add that changed nothing, is the kind's replay code (ASSERTION_REPLAY, CREDENTIAL_REPLAY); else true. (PROTOCOL §9.2; `replay_answer`)
 * @param admission what replay_admit returned
 * @param restoreMoment the restore moment the store keeps, milliseconds (left out: none) (option)
 * @param added whether the store added the key (left out: not asked yet) (option)
 */
export declare function replayAnswer(admission: ReplayAdmission, options?: {
  /** the restore moment the store keeps, milliseconds (left out: none) */
  restoreMoment?: number | null
  /** whether the store added the key (left out: not asked yet) */
  added?: boolean | null
}): boolean

/**
 * A restore from an older backup detected at now_ms, to record in the replay store: for the window (120 s + 2 × skew) every credential whose iat is before the moment plus the skew is refused. With now_ms 0 it checks a skew and gives its window. (PROTOCOL §9.2; `replay_restore`)
 * @param nowMs the time of detection, integer milliseconds since the epoch (not negative)
 * @param skew the clock skew, seconds in [0, 300] (default 60; the same on every replica) (option)
 */
export declare function replayRestore(nowMs: number, options?: {
  /** the clock skew, seconds in [0, 300] (default 60; the same on every replica) */
  skew?: number | null
}): ReplayRestore

/**
 * The cache policy of a network's key set fetched over HTTP(S) (PROTOCOL §3, §9.5.1; ekl_core::remote_jwks), holding its state and the last good set. A host's RemoteJwks drives it in one loop: ask (need, kid), do the I/O it names (fetch, follow, read), report (response, body, failed). (`remote_jwks_policy`)
 */
export declare class RemoteJwksPolicy {
  /**
   * A fetched key set's cache policy (the machine under RemoteJwks): freshness from Cache-Control, cooldown, staleness, unknown-kid refetch, redirects, the body through the strict reader. INVALID_ARGUMENT for a URL that is not http(s) with a host, one with a user name or password, or an option out of its bounds. (PROTOCOL §3)
   * @param url the key set's URL, as given (https in production)
   * @param scheme the URL's scheme as the host's URL parser read it, without ':' (absent: it could not) (option)
   * @param host the host the request connects to (lowercase; an international name in ASCII) (option)
   * @param port the port written in the URL, if any (option)
   * @param credentials whether the URL holds a user name or a password (option)
   * @param timeout the deadline of a whole fetch, seconds, in (0, 600] (default 5) (option)
   * @param timeoutMs the same in milliseconds, in (0, 600000] (give timeout or timeout_ms) (option)
   * @param maxBytes the largest body, an integer in [1, 64 MiB] (default 1 MiB) (option)
   * @param cooldown seconds between unknown-kid refetches and after a failure, and the least time a set is cached, in [0, 86400] (default 30) (option)
   * @param defaultMaxAge seconds a set is fresh without Cache-Control max-age, in [0, 86400] (default 300) (option)
   * @param maxStale seconds past its freshness the last good set serves while refetches fail, in [0, 31536000] (default 86400) (option)
   */
  constructor(url: string, options?: {
    /** the URL's scheme as the host's URL parser read it, without ':' (absent: it could not) */
    scheme?: string | null
    /** the host the request connects to (lowercase; an international name in ASCII) */
    host?: string | null
    /** the port written in the URL, if any */
    port?: number | null
    /** whether the URL holds a user name or a password */
    credentials?: boolean | null
    /** the deadline of a whole fetch, seconds, in (0, 600] (default 5) */
    timeout?: number | null
    /** the same in milliseconds, in (0, 600000] (give timeout or timeout_ms) */
    timeoutMs?: number | null
    /** the largest body, an integer in [1, 64 MiB] (default 1 MiB) */
    maxBytes?: number | null
    /** seconds between unknown-kid refetches and after a failure, and the least time a set is cached, in [0, 86400] (default 30) */
    cooldown?: number | null
    /** seconds a set is fresh without Cache-Control max-age, in [0, 86400] (default 300) */
    defaultMaxAge?: number | null
    /** seconds past its freshness the last good set serves while refetches fail, in [0, 31536000] (default 86400) */
    maxStale?: number | null
  })
  /**
   * A caller wants the set at now: serve the set held, fetch it (within timeout and max_bytes), or fail (within the cooldown after a failure, when no set may serve). (PROTOCOL §3; `remote_jwks_policy_need`)
   * @param now the host's monotonic clock, seconds (any finite number)
   */
  need(now: number): RemoteJwksDecision
  /**
   * The fetch a caller waited for failed (reported with `failed`): serve the last good set while it is not too stale, else fail. (PROTOCOL §3; `remote_jwks_policy_need_failed`)
   * @param now the host's monotonic clock, seconds (any finite number)
   */
  needFailed(now: number): RemoteJwksDecision
  /**
   * A caller wants the set to verify token with, at now: serve the set held when it has the token's kid (or the token has none), else refetch once per cooldown, else fail with UNKNOWN_KID saying when the next refetch may happen. (PROTOCOL §9.5.1; `remote_jwks_policy_kid`)
   * @param now the host's monotonic clock, seconds (any finite number)
   * @param token the compact JWS whose kid is looked up in the set held (option)
   */
  kid(now: number, options?: {
    /** the compact JWS whose kid is looked up in the set held */
    token?: string | null
  }): RemoteJwksDecision
  /**
   * The refetch for an unknown kid gave a set: serve it, or fail with UNKNOWN_KID when the kid is still unknown. (PROTOCOL §9.5.1; `remote_jwks_policy_kid_fetched`)
   * @param token the compact JWS whose kid is looked up in the set held (option)
   */
  kidFetched(options?: {
    /** the compact JWS whose kid is looked up in the set held */
    token?: string | null
  }): RemoteJwksDecision
  /**
   * The refetch for an unknown kid failed (reported with `failed`): the UNKNOWN_KID refusal its caller gets. (PROTOCOL §9.5.1; `remote_jwks_policy_kid_failed`)
   */
  kidFailed(): RemoteJwksDecision
  /**
   * One HTTP response of a fetch: follow the redirect (same origin only, never https to http, at most 5), read the body (at most max_bytes), or fail. (PROTOCOL §3; `remote_jwks_policy_response`)
   * @param status the response's status
   * @param hops the redirects already followed in this fetch
   * @param location its Location header, if any (option)
   * @param scheme the redirect's target (Location resolved against the URL requested) as the host's URL parser read it: its scheme (absent: it could not) (option)
   * @param host the target's host (option)
   * @param port the target's port, if written (option)
   * @param credentials whether the target holds a user name or a password (option)
   * @param opaque the runtime hides where the redirect goes (a browser's opaqueredirect) (option)
   */
  response(status: number, hops: number, options?: {
    /** its Location header, if any */
    location?: string | null
    /** the redirect's target (Location resolved against the URL requested) as the host's URL parser read it: its scheme (absent: it could not) */
    scheme?: string | null
    /** the target's host */
    host?: string | null
    /** the target's port, if written */
    port?: number | null
    /** whether the target holds a user name or a password */
    credentials?: boolean | null
    /** the runtime hides where the redirect goes (a browser's opaqueredirect) */
    opaque?: boolean | null
  }): RemoteJwksDecision
  /**
   * The body of a 2xx response, as read at now (longer: the host stopped reading past max_bytes), with the response's Cache-Control: the key set, read once by the strict reader, kept and returned; or JWKS_UNAVAILABLE saying why it is not usable, recorded as the fetch's failure. (PROTOCOL §3; `remote_jwks_policy_body`)
   * @param now the host's monotonic clock, seconds (any finite number)
   * @param body the body as read
   * @param longer the body was longer than max_bytes (option)
   * @param cacheControl the response's Cache-Control header, if any (option)
   */
  body(now: number, body: string | Uint8Array, options?: {
    /** the body was longer than max_bytes */
    longer?: boolean | null
    /** the response's Cache-Control header, if any */
    cacheControl?: string | null
  }): Jwks
  /**
   * A fetch failed at now: timeout (the deadline passed), network (the host's HTTP client failed), refused (a response the policy refused: its message). Recorded (no new attempt within the cooldown); the refusal its callers get. (PROTOCOL §3; `remote_jwks_policy_failed`)
   * @param now the host's monotonic clock, seconds (any finite number)
   * @param cause timeout, network or refused
   * @param message the refusal's message (cause refused: the `fail` of response) (option)
   */
  failed(now: number, cause: RemoteJwksCause, options?: {
    /** the refusal's message (cause refused: the `fail` of response) */
    message?: string | null
  }): RemoteJwksDecision
}

/**
 * One step of an MCP call's wire window: a message the client sent or received (its bytes as they crossed), or the end of the call; the state comes back with what the message was (the answer's result once; a second answer or a decoy refused). (PROTOCOL §5.1; `mcp_window`)
 * @param window the state: {method, match} for a new call, else the window of the last step
 * @param event "sent", "received" or "end"
 * @param message the message's bytes as they crossed (sent, received) (option)
 */
export declare function mcpWindow<T>(window: JsonArg<T>, event: string, options?: {
  /** the message's bytes as they crossed (sent, received) */
  message?: string | Uint8Array | null
}): McpWindowStep

/**
 * One page of an MCP tools/list: the answer's result of the page asked (none: the first page's window); the next cursor and its window, or none when the listing ended (a repeated cursor or too many pages refused). (PROTOCOL §5.1; `mcp_listing_page`)
 * @param listing the state of the last step (absent: a new listing) (option)
 * @param result the result of the page's answer (option)
 * @param bytes the length of the page's answer in bytes (option)
 */
export declare function mcpListingPage<T, U>(options?: {
  /** the state of the last step (absent: a new listing) */
  listing?: JsonArg<T> | null
  /** the result of the page's answer */
  result?: JsonArg<U> | null
  /** the length of the page's answer in bytes */
  bytes?: number | null
}): McpListingStep
// @generated operations: end

// --- host helpers ---

/** `canonicalize` on the libuv thread pool: does not block the event loop. */
export declare function canonicalizeAsync(text: JsonTextInput, options?: { maxBytes?: number | null }): Promise<Buffer>
/** `canonicalizeValue` with the canonicalisation on the thread pool (the conversion of the value runs first, on the calling thread). */
export declare function canonicalizeValueAsync<T>(value: JsonArg<T>, options?: { maxBytes?: number | null }): Promise<Buffer>
/** `verifyReceipts` on the libuv thread pool (the batch split over every core, or `jobs` threads; in order). */
export declare function verifyReceiptsAsync(items: readonly ReceiptToVerify[], keys: ReceiptKeys, options?: { jobs?: number | null }): Promise<Array<Verdict | EklError>>
/**
 * A network's key set fetched with `fetch` and cached (docs/decisions.md#remote-jwks): cached for
 * the response's Cache-Control max-age, clamped to [`cooldown`, 1 day] (300 s without one; the
 * cooldown is the floor, so `no-store` cannot make every verification a fetch); fetched again once
 * per `cooldown` seconds for a token whose kid it does not hold; one fetch bounded by `timeoutMs`
 * in all and `maxBytes`; same-origin redirects followed, another origin or https to http refused;
 * after a failed fetch the last good set keeps serving for `maxStale` seconds past its freshness,
 * then (or with none) `JWKS_UNAVAILABLE`. Options are own properties only; a wrong type or a value
 * out of range is `INVALID_ARGUMENT`.
 */
export declare class RemoteJwks {
  constructor(url: string, options?: {
    /** the whole fetch's deadline, in (0, 600000] (default 5000 ms) */
    timeoutMs?: number
    /** the largest body read, an integer in [1, 64 MiB] (default 1 MiB) */
    maxBytes?: number
    /** seconds between two refetches for unknown kids or after a failure, and the least time a set is cached, in [0, 86400] (default 30) */
    cooldown?: number
    /** seconds a set is fresh without Cache-Control max-age, in [0, 86400] (default 300) */
    defaultMaxAge?: number
    /** seconds past its freshness the last good set serves while refetches fail, in [0, 31536000] (default 86400) */
    maxStale?: number
    /** a clock in seconds (tests; default: a monotonic clock) */
    clock?: () => number
    /** the fetch function (default: the global fetch) */
    fetch?: typeof fetch
  })
  /** Fetches attempted. */
  readonly fetches: number
  /** The key set: cached while fresh, else fetched again. */
  jwks(): Promise<Jwks>
  /** The key set to verify `token` with (fetched again once per cooldown for an unknown kid; else rejects with UNKNOWN_KID saying when the next refetch may happen). */
  jwksFor(token: string): Promise<Jwks>
}
/** A fresh salt: 32 bytes of the host's CSPRNG (`crypto.getRandomValues`) as 64 lowercase hex. */
export declare function newSalt(): string
/** A fresh seed for ES256 keys: 32 bytes of the host's CSPRNG as 64 lowercase hex. It is the secret of the keys `signingKey(seed, kid)` and `jwksFromSeed(seed, kids)` derive: keep it as you would keep a private key. */
export declare function newSeed(): string
/** A fresh random ES256 signing key under `kid`: `signingKey(newSeed(), kid)`, the seed not kept (for a key to keep, store `newSeed()` and call `signingKey(seed, kid)`); `publicJwk(key)` is its public key. */
export declare function newSigningKey(kid: string): SigningKey
/** One operation of the registry (docs/operations.json). */
export interface Operation {
  name: string
  python: string
  js: string
  class: boolean
  section: string
  returns: string
  doc: string
  params: Array<{ name: string; js: string; kind: 'value' | 'text' | 'str' | 'bytes' | 'int' | 'now' | 'bool' | 'str_list' | 'jwks' | 'key' | 'salt'; required: boolean; doc: string }>
}
/** The registry the package is built from (docs/operations.json), in order. */
export declare function operations(): Operation[]
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
