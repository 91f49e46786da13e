// ES module entry for browsers and workers (plain ESM, no bundler needed): fetches the module next
// to this file with top-level await, then exposes the shared API layer.
import init, * as raw from './web/ekl_wasm.js';
import { makeApi } from './esm/api.mjs';

await init({ module_or_path: new URL('./web/ekl_wasm_bg.wasm', import.meta.url) });
const api = makeApi(raw);

export const {
  EklError, isEklError, errorCodes, JsonText, toJsonText,
  canonicalize, canonicalizeValue, sha256Hex, commitment, inputCommitment, termsHash,
  fingerprint, outputFingerprint, selectResultBody, upstreamFingerprint, proofKey,
  challengeProofV1, challengeProofV2, enrollAuthorityV1, enrollAuthorityV2, verifySignature,
  checkVerifySignature,
} = api;
export default api;
