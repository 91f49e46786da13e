// --- Declarations of the operations wrapped by wasm/js/extra.js (not yet in node/index.d.ts) ---

/** One check of a verdict. */
export interface Check {
  name: string
  outcome: 'pass' | 'fail' | 'mismatch'
  detail?: string
}
/** The verdict on a receipt: every check run, and the receipt's digest when it could be computed. */
export interface Verdict {
  accepted: boolean
  checks: Check[]
  receipt_digest: string | null
}
/** A receipt key: `{key_id, secret, valid_from, valid_until?}` (RFC 3339 UTC). */
export interface ReceiptKey {
  key_id: string
  secret: string
  valid_from: string
  valid_until?: string | null
}
/** A key ring: its keys (or `{keys}`), or the registration secret as the baseline key `rk-1`. */
export type KeyRing = readonly ReceiptKey[] | { keys: readonly ReceiptKey[] } | string
/** The call a MAC receipt must belong to (snake_case, as in the protocol). */
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
  receipt_digest?: string | null
}
/** The receipt key of a secret and key id (lowercase hex). */
export declare function receiptKey(secret: string, keyId: string): string
/** The auth_tag of a receipt (its members other than auth_tag). */
export declare function authTag(receipt: ValueInput, secret: string): string
/** SHA-256 of ekl-json-1 of the whole receipt. */
export declare function receiptDigest(receipt: ValueInput): string
/** The receipt with its auth_tag. */
export declare function signReceipt(receipt: ValueInput, secret: string): { [key: string]: unknown }
/** Verifies a MAC receipt (§9.5) against a key ring, the call and the consumer's own commitments. */
export declare function verifyReceipt(
  receipt: ValueInput,
  keyRing: KeyRing | JsonText,
  call: ReceiptCall | JsonText,
  ownInputCommitment?: Commitment | JsonText | null,
  ownOutputCommitment?: Commitment | JsonText | null,
): Verdict
/** Verifies many MAC receipts; per item its verdict or `{error: {code, message}}`. */
export declare function verifyReceipts(
  keyRing: KeyRing | JsonText,
  items: readonly { receipt: unknown; call: ReceiptCall; input_commitment?: Commitment; output_commitment?: Commitment }[] | JsonText,
): (Verdict | { error: { code: EklErrorCode; message: string } })[]
/** The network side of the endpoint challenge (no downgrade): the accepted version. */
export declare function verifyChallengeProof(
  holds: { proofKey: string } | { credentialHash: string },
  challenge: string,
  endpoint: string,
  proof?: string | null,
  proofV2?: string | null,
): 'v1' | 'v2'
/** The agent side of ekl_enroll (no downgrade once v2 was announced): the accepted version. */
export declare function verifyEnrollAuthority(
  announced: 'v1' | 'v2',
  agentKey: string,
  enrollmentId: string,
  nonce: string,
  endpoint: string,
  authority?: string | null,
  authorityVersion?: number | null,
): 'v1' | 'v2'
/** Validated screening rules from the claims of a verified rules token. */
export declare function screeningRules(claims: ValueInput): {
  rules_version: string
  rules: { rule_id: string; category: string; phrases: string[] }[]
}
/** The safety flags of a tool result (rules: the rules claims, or null for the local patterns only). */
export declare function screen(
  rules: ValueInput | null,
  result: ValueInput,
): { category: string; rules_version: string; rule_id?: string }[]
/** A text as screening compares it: NFKC, then full case folding. */
export declare function screeningFold(text: string): string
/** The call context of a network-signed receipt (§9.5.1); times in seconds since the epoch. */
export interface SignedReceiptCall {
  execution_id: string
  provider_agent_id: string
  requester_agent_id: string
  capability_id: string
  input_fingerprint: string
  own_agent_id: string
  network_issuer: string
  sent_at: number
  received_at: number
}
/** Verifies a receipt's compact JWS (ES256, typ ekl-receipt+jwt) against the call. */
export declare function verifyReceiptJws(token: string, jwks: ValueInput, call: SignedReceiptCall | JsonText): Verdict
/** Verifies a network-signed receipt object: its signature, its JWS and that they agree. */
export declare function verifySignedReceipt(receipt: ValueInput, jwks: ValueInput, call: SignedReceiptCall | JsonText): Verdict
