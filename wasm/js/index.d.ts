// TypeScript declarations of the wasm package: the JS API of ekl-core, the same names, argument
// types, results and error identity as the Node (napi) package.
// The ErrorCode union is checked against the Rust enum by wasm/test/api.test.mjs.

/** A JSON value as the strict conversion accepts it (bigint within ±2^53 is also accepted). */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | JsonValue[]
  | { [key: string]: JsonValue };

/**
 * JSON text wrapped so that it is accepted wherever a value is (parsed with every ekl-json-1 rule).
 * Only at the top level of an argument.
 */
export declare class JsonText {
  constructor(text: string | Uint8Array);
  readonly text: string | Uint8Array;
}

/** JSON text: a string, UTF-8 bytes (Uint8Array, Node Buffer) or a JsonText. */
export type JsonTextInput = string | Uint8Array | JsonText;

/**
 * A JSON value argument: a JS value (strict conversion, node/js/convert.js) or a JsonText.
 * A JS string is a JSON string value, not JSON text.
 */
export type JsonInput = JsonValue | bigint | JsonText;

/** Every stable error code of the core (core/src/error.rs). */
export type ErrorCode =
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
  | 'PURPOSE_MISMATCH';

/** Every refusal: a real Error with name 'EklError' and the core's stable code. */
export declare class EklError extends Error {
  constructor(code: ErrorCode, message: string);
  readonly name: 'EklError';
  readonly code: ErrorCode;
}

/** True for a refusal of the library (from the Node or the wasm package). */
export declare function isEklError(e: unknown): e is EklError;

/** Every error code, in the core's declaration order. */
export declare const errorCodes: readonly ErrorCode[];

/** The JSON text of a JS value under the strict conversion (what every value argument goes through). */
export declare function toJsonText(value: JsonInput): string | Uint8Array;

export interface CanonicalizeOptions {
  /** Refuse with BODY_TOO_LARGE when the canonical form is longer than this many bytes. */
  maxBytes?: number;
  /** Apply the 256 KB limit of a capability call's input (§2.5). */
  capabilityInput?: boolean;
}

export interface CommitmentOptions {
  /** A salt, exactly 64 lowercase hex characters (32 bytes); disclosed in the commitment. */
  salt?: string;
  /** The salt's identifier, recorded as salt_id. */
  saltId?: string;
}

export interface Commitment {
  alg: 'sha-256';
  canon: 'ekl-json-1';
  digest: string;
  salt_id?: string;
  salt?: string;
}

export interface ResultBody {
  body: 'structuredContent' | 'content';
  value: JsonValue;
}

/** ekl-json-1 canonical bytes (UTF-8) of JSON text. */
export declare function canonicalize(json: JsonTextInput, options?: CanonicalizeOptions): Uint8Array;
/** ekl-json-1 canonical bytes (UTF-8) of a JS value. */
export declare function canonicalizeValue(value: JsonInput, options?: CanonicalizeOptions): Uint8Array;
/** Lowercase hex SHA-256 of bytes, or of a string's UTF-8 bytes. */
export declare function sha256Hex(data: string | Uint8Array): string;
/** The commitment {alg, canon, digest[, salt_id, salt]} to a value. */
export declare function commitment(value: JsonInput, options?: CommitmentOptions): Commitment;
/** The commitment to a capability call's input (256 KB limit applies). */
export declare function inputCommitment(value: JsonInput, options?: CommitmentOptions): Commitment;
/** The terms hash of §6.7.1 (digest of the terms without their hash member). */
export declare function termsHash(terms: JsonInput): string;
/** Salted fingerprint SHA-256(salt ‖ ekl-json-1(value)) (§15.3). */
export declare function fingerprint(salt: string, value: JsonInput): string;
/** Fingerprint of an MCP tool result: structuredContent when present (not null), else content. */
export declare function outputFingerprint(salt: string, result: JsonInput): string;
/** The body of a tool result that the output fingerprint covers. */
export declare function selectResultBody(result: JsonInput): ResultBody;
/** §5.1 fingerprint of a tools/list result (or an array of tools), optionally only the offered ones. */
export declare function upstreamFingerprint(tools: JsonInput, offered?: readonly string[]): string;
/** The v2 proof key of an agent key, lowercase hex. */
export declare function proofKey(agentKey: string): string;
/** Endpoint challenge proof v1 (§15.2). */
export declare function challengeProofV1(credential: string, challenge: string, endpoint: string): string;
/** Endpoint challenge proof v2 (§15.2, §3.1); proofKey as 64 lowercase hex. */
export declare function challengeProofV2(proofKey: string, challenge: string, endpoint: string): string;
/** ekl_enroll authority v1 (§4). */
export declare function enrollAuthorityV1(agentKey: string, enrollmentId: string, nonce: string, endpoint: string): string;
/** ekl_enroll authority v2 (§4); proofKey as 64 lowercase hex. */
export declare function enrollAuthorityV2(proofKey: string, enrollmentId: string, nonce: string, endpoint: string): string;
/** The ekl_verify signature. */
export declare function verifySignature(secret: string, agentId: string, enrollmentId: string, challenge: string): string;
/** Checks an ekl_verify signature in constant time. */
export declare function checkVerifySignature(secret: string, agentId: string, enrollmentId: string, challenge: string, signature: string): boolean;
