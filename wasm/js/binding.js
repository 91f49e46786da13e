'use strict';
// The low-level binding of the wasm module, in the interface that the shared API layer
// node/js/api.js builds on (documented at its top; the Node package adapts its napi addon to the
// same interface). Written once as CommonJS; the build writes the ES module copy for browsers.
// `raw` is the wasm-bindgen module (--target nodejs or --target web, initialised).

const encoder = new TextEncoder();
const asBuffer = typeof Buffer === 'function'
  ? (u8) => Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength) // Node: the same type as the addon
  : (u8) => u8;

/** UTF-8 bytes of JSON text or of a string argument (strings are already checked by api.js). */
const bytes = (text) => (typeof text === 'string' ? encoder.encode(text) : text);
const opt = (x) => (x === null ? undefined : x);

/** The holds kinds of node/js/api.js as the wasm module names them. */
const HOLDS = { proofKey: 'proof_key', credentialHash: 'credential_hash' };
/** camelCase members of the API layer's call spec as the core's snake_case JSON. */
const snake = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), v]));
/** A key ring as JSON text: the registration secret, or the keys ({keyId, secret, validFrom, validUntil?}). */
const ringText = (secret, keys) => encoder.encode(JSON.stringify(secret !== null && secret !== undefined ? secret
  : keys.map((k) => ({ key_id: k.keyId, secret: k.secret, valid_from: k.validFrom, valid_until: k.validUntil ?? null }))));
/** A verdict of the module ({accepted, checks, receipt_digest}) in the API layer's shape. */
const verdict = (v) => ({ accepted: v.accepted, checks: v.checks, receiptDigest: v.receipt_digest });

/** The handle of a key set: its canonical JSON text. */
const jwksHandle = (text) => ({ bytes: encoder.encode(text), kids: () => JSON.parse(text).keys.map((k) => k.kid), toJson: () => text });
/** The handle of a signing key: its seed and kid (checked by the module). */
const keyHandle = (seedHex, kid) => ({ seedHex, kidValue: kid, kid: () => kid });

function wasmBinding(raw) {
  const codes = raw.errorCodes().split('\n').filter(Boolean);
  const version = raw.coreVersion();
  return {
    errorCodes: () => codes.slice(),
    coreVersion: () => version,
    canonicalize: (json, maxBytes) => asBuffer(raw.canonicalize(bytes(json), opt(maxBytes))),
    sha256Hex: (data) => raw.sha256Hex(bytes(data)),
    commitment: (json, salt, saltId) => JSON.parse(raw.commitment(bytes(json), opt(salt), opt(saltId), false)),
    inputCommitment: (json, salt, saltId) => JSON.parse(raw.commitment(bytes(json), opt(salt), opt(saltId), true)),
    termsHash: (json) => raw.termsHash(bytes(json)),
    valueDigest: (json, salt) => raw.valueDigest(bytes(json), opt(salt)),
    fingerprint: (salt, json) => raw.fingerprint(salt, bytes(json)),
    outputFingerprint: (salt, json) => raw.outputFingerprint(salt, bytes(json)),
    selectResultBody: (json) => {
      const r = raw.selectResultBody(bytes(json));
      const nl = r.indexOf('\n');
      return { member: r.slice(0, nl), canonical: r.slice(nl + 1) };
    },
    upstreamFingerprint: (json, offered) => raw.upstreamFingerprint(bytes(json), opt(offered)),
    upstreamProjection: (json, offered) => raw.upstreamProjection(bytes(json), opt(offered)),
    proofKey: (agentKey) => raw.proofKey(agentKey),
    challengeProofV1: (credential, challenge, endpoint) => raw.challengeProofV1(credential, challenge, endpoint),
    challengeProofV2: (key, challenge, endpoint) => raw.challengeProofV2(key, challenge, endpoint),
    enrollAuthorityV1: (agentKey, id, nonce, endpoint) => raw.enrollAuthorityV1(agentKey, id, nonce, endpoint),
    enrollAuthorityV2: (key, id, nonce, endpoint) => raw.enrollAuthorityV2(key, id, nonce, endpoint),
    verifySignature: (secret, agentId, id, challenge) => raw.verifySignature(secret, agentId, id, challenge),
    checkVerifySignature: (secret, agentId, id, challenge, signature) =>
      raw.checkVerifySignature(secret, agentId, id, challenge, signature),
    // Endpoint proof verifiers (§3.1, §4), MAC receipts (§9.5) and screening (§15.5), in the
    // shapes of the binding interface of node/js/api.js.
    ...(raw.verifyReceipt ? {
      verifyChallengeProof: (holds, held, challenge, endpoint, proof, proofV2) =>
        raw.verifyChallengeProof(HOLDS[holds] || holds, held, challenge, endpoint, opt(proof), opt(proofV2)),
      verifyEnrollAuthority: (announced, agentKey, id, nonce, endpoint, authority, version) =>
        raw.verifyEnrollAuthority(announced, agentKey, id, nonce, endpoint, opt(authority), opt(version)),
      receiptKey: (secret, keyId) => raw.receiptKey(secret, keyId),
      authTag: (receipt, secret) => raw.authTag(bytes(receipt), secret),
      receiptDigest: (receipt) => raw.receiptDigest(bytes(receipt)),
      signReceipt: (receipt, secret) => raw.signReceipt(bytes(receipt), secret),
      verifyReceipt: (receipt, secret, keys, call, ci, co) => verdict(JSON.parse(raw.verifyReceipt(
        bytes(receipt), ringText(secret, keys), encoder.encode(JSON.stringify(snake(call))),
        ci === null ? undefined : encoder.encode(JSON.stringify(ci)),
        co === null ? undefined : encoder.encode(JSON.stringify(co))))),
      verifyReceipts: (receipts, specs, secret, keys) => {
        const ring = ringText(secret, keys);
        return receipts.map((receipt, i) => {
          const s = specs[i];
          try {
            return verdict(JSON.parse(raw.verifyReceipt(bytes(receipt), ring, encoder.encode(JSON.stringify(snake(s.call))),
              s.inputCommitment ? encoder.encode(JSON.stringify(s.inputCommitment)) : undefined,
              s.outputCommitment ? encoder.encode(JSON.stringify(s.outputCommitment)) : undefined)));
          } catch (e) {
            const m = /^([A-Z][A-Z0-9_]*): ([\s\S]*)$/.exec(e && e.message);
            if (!m) throw e;
            return { code: m[1], message: m[2] };
          }
        });
      },
      screeningRules: (claims) => raw.screeningRules(bytes(claims)),
      screen: (rules, result) => raw.screen(rules === null ? undefined : bytes(rules), bytes(result)),
      screeningFold: (text) => raw.screeningFold(text),
    } : {}),
    // JWKS, JWS, network-signed receipts, screening-rules tokens, signing (§3, §9.5.1, §15.5).
    // Handles: a key set keeps its canonical JSON (the module keeps the last one parsed, with its
    // precomputed tables, while the same text comes back); a signing key keeps its seed and kid.
    ...(raw.verifyReceiptJws ? {
      jwksParse: (json) => jwksHandle(raw.jwksParse(bytes(json))),
      verifyJws: (token, typ, jwks, now, issuer, audience, skew, maxLifetime, requireExp, requireIat) => {
        const r = JSON.parse(raw.verifyJws(token, typ, jwks.bytes, now, opt(issuer), opt(audience), opt(skew),
          opt(maxLifetime), opt(requireExp), opt(requireIat)));
        return { header: JSON.stringify(r.header), claims: JSON.stringify(r.claims), kid: r.kid, typ: r.typ, tokenSha256: r.token_sha256 };
      },
      verifyReceiptJws: (token, jwks, call) =>
        verdict(JSON.parse(raw.verifyReceiptJws(token, jwks.bytes, encoder.encode(JSON.stringify(snake(call)))))),
      verifySignedReceipt: (receipt, jwks, call) =>
        verdict(JSON.parse(raw.verifySignedReceipt(bytes(receipt), jwks.bytes, encoder.encode(JSON.stringify(snake(call)))))),
      verifyScreeningRules: (token, jwks, issuer, now) => raw.verifyScreeningRules(token, jwks.bytes, issuer, now),
      signingKey: (seedHex, kid) => keyHandle(seedHex, raw.signingKeyCheck(seedHex, kid)),
      jwksFromSeed: (seedHex, kids) => ({
        jwks: jwksHandle(raw.jwksFromSeed(seedHex, kids)),
        keys: kids.map((kid) => keyHandle(seedHex, kid)),
      }),
      signJws: (typ, claims, key) => raw.signJws(typ, bytes(claims), key.seedHex, key.kidValue),
      issueReceipt: (fields, key, issuer, audience) => raw.issueReceipt(bytes(fields), key.seedHex, key.kidValue, issuer, audience),
    } : {}),
  };
}

module.exports = { wasmBinding };
