// --- Declarations of the operations wrapped by wasm/js/extra.js (not yet in node/index.d.ts) ---

/** The call a network-signed receipt must answer, with the consumer's clock window (seconds). */
export interface SignedReceiptCall {
  executionId: string
  providerAgentId: string
  requesterAgentId: string
  capabilityId: string
  inputFingerprint: string
  ownAgentId: string
  networkIssuer: string
  sentAt: number
  receivedAt: number
}
/** Verifies a receipt's compact JWS (ES256, typ ekl-receipt+jwt, §9.5.1) against the call. */
export declare function verifyReceiptJws(token: string, jwks: ValueInput, call: SignedReceiptCall): Verdict
/** Verifies a network-signed receipt object: its signature, its JWS and that they agree. */
export declare function verifySignedReceipt(receipt: ValueInput, jwks: ValueInput, call: SignedReceiptCall): Verdict
/** Verifies a screening rules token (ES256, typ ekl-screening-rules+jwt, §15.5) at `now` (seconds, no skew on exp). */
export declare function verifyScreeningRules(token: string, jwks: ValueInput, options: { issuer: string; now: number }): {
  iss: string
  iat: number
  exp: number
  rules_version: string
  rules: { rule_id: string; category: string; phrases: string[] }[]
}
