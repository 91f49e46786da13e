// ES module entry for Node (`import ... from 'ekl-wasm'`): the same instance as the CommonJS entry.
import api from './index.cjs';

export const {
  EklError, isEklError, errorCodes, JsonText, toJsonText,
  canonicalize, canonicalizeValue, sha256Hex, commitment, inputCommitment, termsHash,
  fingerprint, outputFingerprint, selectResultBody, upstreamFingerprint, proofKey,
  challengeProofV1, challengeProofV2, enrollAuthorityV1, enrollAuthorityV2, verifySignature,
  checkVerifySignature,
} = api;
export default api;
