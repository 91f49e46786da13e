// ekl-core for Node.js, ESM entry: the same module instance as the CommonJS entry.
import { createRequire } from 'node:module'

const api = createRequire(import.meta.url)('./index.js')

export const {
  canonicalize,
  canonicalizeValue,
  canonicalizeAsync,
  canonicalizeValueAsync,
  sha256Hex,
  commitment,
  inputCommitment,
  termsHash,
  fingerprint,
  outputFingerprint,
  selectResultBody,
  upstreamFingerprint,
  proofKey,
  challengeProofV1,
  challengeProofV2,
  enrollAuthorityV1,
  enrollAuthorityV2,
  verifySignature,
  checkVerifySignature,
  verifyChallengeProof,
  verifyEnrollAuthority,
  receiptKey,
  authTag,
  receiptDigest,
  signReceipt,
  verifyReceipt,
  verifyReceipts,
  verifyReceiptsAsync,
  screeningRules,
  screen,
  screeningFold,
  errorCodes,
  coreVersion,
  backend,
  EklError,
  isEklError,
  JsonText,
  MAX_DEPTH,
  CAPABILITY_INPUT_MAX_BYTES,
} = api

export default api
