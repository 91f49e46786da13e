'use strict';
// The low-level binding of the wasm module, in the interface that the shared API layer
// node/js/api.js builds on (documented at its top; the Node package adapts its napi addon to the
// same interface). Written once as CommonJS; the build writes the ES module copy for browsers.
//
// `wasmBinding(first, reload)`: `first` is the wasm-bindgen module (--target nodejs or --target
// web, initialised); `reload()` returns a fresh one, initialised, with a new instance and its own
// glue state (Node: the glue required again; browsers: a new glue from the factory the build
// writes). A trap (a panic aborts the instance: `RuntimeError: unreachable`; a stack overflow is
// a `RangeError`) can leave the instance's state half-updated, so after one the binding throws
// INTERNAL_ERROR with a fixed message and replaces the instance before the next call: the library
// keeps serving. Signing keys of the replaced instance are dropped (their scalars wiped) and
// refused from then on (INVALID_KEY: make them again).

// In dist/ (the build puts this file next to node/js/convert.js, as .cjs and .mjs): one constant.
const { MAX_INPUT_BYTES } = require('./convert.js');

const encoder = new TextEncoder();
const asBuffer = typeof Buffer === 'function'
  ? (u8) => Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength) // Node: the same type as the addon
  : (u8) => u8;

/** The message of INTERNAL_ERROR: fixed, whatever the trap said. */
const INTERNAL = 'INTERNAL_ERROR: internal error in ekl-core (a bug, never an answer to input: please report it); the module was restarted';

/**
 * UTF-8 bytes of JSON text or of a string argument (strings are already checked by api.js,
 * which refuses more than MAX_INPUT_BYTES code units; three bytes a unit can pass it): refused
 * past MAX_INPUT_BYTES before anything is copied into the module's memory.
 */
const bytes = (text) => {
  if (typeof text !== 'string') return text;
  const b = encoder.encode(text);
  if (b.length > MAX_INPUT_BYTES) throw new Error(`BODY_TOO_LARGE: the text is longer than ${MAX_INPUT_BYTES} bytes as UTF-8`);
  return b;
};
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

/** The handle of a key set: its canonical JSON text (public). */
const jwksHandle = (text) => ({ bytes: encoder.encode(text), kids: () => JSON.parse(text).keys.map((k) => k.kid), toJson: () => text });

/** Whether `e` is a trap of the instance (or a stack overflow inside it), not a refusal. */
const isTrap = (e) => (typeof WebAssembly === 'object' && e instanceof WebAssembly.RuntimeError) || e instanceof RangeError;

function wasmBinding(first, reload) {
  let raw = first;
  let generation = 0;
  /** The generation of each signing key handle (the instance it lives in). */
  const keyGeneration = new WeakMap();
  /** The signing keys of the current instance, so a restart can drop them (WeakRefs). */
  let liveKeys = new Set();
  const collected = typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry((ref) => liveKeys.delete(ref)) : null;

  /** Replaces the instance after a trap; its signing keys are dropped first (scalars wiped). */
  function restart() {
    generation++;
    const keys = liveKeys;
    liveKeys = new Set();
    for (const ref of keys) {
      const h = ref.deref();
      // free() runs the Rust drop (wipes the scalar) in the old instance; a second trap there
      // only means that instance is past saving.
      try { if (h) h.free(); } catch { /* the old instance is gone with it */ }
    }
    raw = null;
    if (typeof reload === 'function') raw = reload();
  }

  /** Runs `f(raw)`; a trap becomes INTERNAL_ERROR and a fresh instance. */
  function call(f) {
    if (raw === null) {
      try {
        restart();
      } catch {
        raw = null;
      }
      if (raw === null) throw new Error(INTERNAL);
    }
    try {
      return f(raw);
    } catch (e) {
      if (!isTrap(e)) throw e;
      try {
        restart();
      } catch {
        raw = null; // tried again at the next call
      }
      throw new Error(INTERNAL);
    }
  }

  /** A signing key made in the current instance (the wasm-bindgen object: a pointer only). */
  function track(h) {
    keyGeneration.set(h, generation);
    if (collected !== null && typeof WeakRef === 'function') {
      const ref = new WeakRef(h);
      liveKeys.add(ref);
      collected.register(h, ref);
    }
    return h;
  }

  /** The key, refused when it belongs to an instance replaced since (it was dropped then). */
  function live(key) {
    if (keyGeneration.get(key) !== generation) {
      throw new Error('INVALID_KEY: the signing key was dropped when the module restarted after an internal error; make it again');
    }
    return key;
  }

  const codes = call((m) => m.errorCodes()).split('\n').filter(Boolean);
  const version = call((m) => m.coreVersion());
  const binding = {
    errorCodes: () => codes.slice(),
    coreVersion: () => version,
    canonicalize: (json, maxBytes) => { const b = bytes(json); return asBuffer(call((m) => m.canonicalize(b, opt(maxBytes)))); },
    sha256Hex: (data) => { const b = bytes(data); return call((m) => m.sha256Hex(b)); },
    commitment: (json, salt, saltId) => { const b = bytes(json); return JSON.parse(call((m) => m.commitment(b, opt(salt), opt(saltId), false))); },
    inputCommitment: (json, salt, saltId) => { const b = bytes(json); return JSON.parse(call((m) => m.commitment(b, opt(salt), opt(saltId), true))); },
    termsHash: (json) => { const b = bytes(json); return call((m) => m.termsHash(b)); },
    valueDigest: (json, salt) => { const b = bytes(json); return call((m) => m.valueDigest(b, opt(salt))); },
    fingerprint: (salt, json) => { const b = bytes(json); return call((m) => m.fingerprint(salt, b)); },
    outputFingerprint: (salt, json) => { const b = bytes(json); return call((m) => m.outputFingerprint(salt, b)); },
    selectResultBody: (json) => {
      const b = bytes(json);
      const r = call((m) => m.selectResultBody(b));
      const nl = r.indexOf('\n');
      return { member: r.slice(0, nl), canonical: r.slice(nl + 1) };
    },
    upstreamFingerprint: (json, offered) => { const b = bytes(json); return call((m) => m.upstreamFingerprint(b, opt(offered))); },
    upstreamProjection: (json, offered) => { const b = bytes(json); return call((m) => m.upstreamProjection(b, opt(offered))); },
    proofKey: (agentKey) => call((m) => m.proofKey(agentKey)),
    challengeProofV1: (credential, challenge, endpoint) => call((m) => m.challengeProofV1(credential, challenge, endpoint)),
    challengeProofV2: (key, challenge, endpoint) => call((m) => m.challengeProofV2(key, challenge, endpoint)),
    enrollAuthorityV1: (agentKey, id, nonce, endpoint) => call((m) => m.enrollAuthorityV1(agentKey, id, nonce, endpoint)),
    enrollAuthorityV2: (key, id, nonce, endpoint) => call((m) => m.enrollAuthorityV2(key, id, nonce, endpoint)),
    verifySignature: (secret, agentId, id, challenge) => call((m) => m.verifySignature(secret, agentId, id, challenge)),
    checkVerifySignature: (secret, agentId, id, challenge, signature) =>
      call((m) => m.checkVerifySignature(secret, agentId, id, challenge, signature)),
    // Endpoint proof verifiers (§3.1, §4), MAC receipts (§9.5) and screening (§15.5), in the
    // shapes of the binding interface of node/js/api.js.
    verifyChallengeProof: (holds, held, challenge, endpoint, proof, proofV2) =>
      call((m) => m.verifyChallengeProof(HOLDS[holds] || holds, held, challenge, endpoint, opt(proof), opt(proofV2))),
    verifyEnrollAuthority: (announced, agentKey, id, nonce, endpoint, authority, version) =>
      call((m) => m.verifyEnrollAuthority(announced, agentKey, id, nonce, endpoint, opt(authority), opt(version))),
    receiptKey: (secret, keyId) => call((m) => m.receiptKey(secret, keyId)),
    authTag: (receipt, secret) => { const b = bytes(receipt); return call((m) => m.authTag(b, secret)); },
    receiptDigest: (receipt) => { const b = bytes(receipt); return call((m) => m.receiptDigest(b)); },
    signReceipt: (receipt, secret) => { const b = bytes(receipt); return call((m) => m.signReceipt(b, secret)); },
    verifyReceipt: (receipt, secret, keys, spec, ci, co) => {
      const b = bytes(receipt);
      const ring = ringText(secret, keys);
      const c = encoder.encode(JSON.stringify(snake(spec)));
      const i = ci === null ? undefined : encoder.encode(JSON.stringify(ci));
      const o = co === null ? undefined : encoder.encode(JSON.stringify(co));
      return verdict(JSON.parse(call((m) => m.verifyReceipt(b, ring, c, i, o))));
    },
    verifyReceipts: (receipts, specs, secret, keys) => {
      const ring = ringText(secret, keys);
      return receipts.map((receipt, i) => {
        const s = specs[i];
        try {
          const b = bytes(receipt);
          const c = encoder.encode(JSON.stringify(snake(s.call)));
          const ci = s.inputCommitment ? encoder.encode(JSON.stringify(s.inputCommitment)) : undefined;
          const co = s.outputCommitment ? encoder.encode(JSON.stringify(s.outputCommitment)) : undefined;
          return verdict(JSON.parse(call((m) => m.verifyReceipt(b, ring, c, ci, co))));
        } catch (e) {
          // A refusal (or INTERNAL_ERROR after a trap: the next item runs on a fresh instance)
          // belongs to this item only.
          const m = /^([A-Z][A-Z0-9_]*): ([\s\S]*)$/.exec(e && e.message);
          if (!m) throw e;
          return { code: m[1], message: m[2] };
        }
      });
    },
    screeningRules: (claims) => { const b = bytes(claims); return call((m) => m.screeningRules(b)); },
    screen: (rules, result) => {
      const r = rules === null ? undefined : bytes(rules);
      const b = bytes(result);
      return call((m) => m.screen(r, b));
    },
    screeningFold: (text) => call((m) => m.screeningFold(text)),
    // JWKS, JWS, network-signed receipts, screening-rules tokens, signing (§3, §9.5.1, §15.5).
    // Handles: a key set keeps its canonical JSON (the module keeps the last one parsed, with its
    // precomputed tables, while the same text comes back); a signing key is the module's own
    // SigningKeyHandle object, which holds a pointer into the module's memory and nothing else.
    jwksParse: (json) => { const b = bytes(json); return jwksHandle(call((m) => m.jwksParse(b))); },
    verifyJws: (token, typ, jwks, now, issuer, audience, skew, maxLifetime, requireExp, requireIat) => {
      const r = JSON.parse(call((m) => m.verifyJws(token, typ, jwks.bytes, now, opt(issuer), opt(audience), opt(skew),
        opt(maxLifetime), opt(requireExp), opt(requireIat))));
      return { header: JSON.stringify(r.header), claims: JSON.stringify(r.claims), kid: r.kid, typ: r.typ, tokenSha256: r.token_sha256 };
    },
    verifyReceiptJws: (token, jwks, spec) => {
      const c = encoder.encode(JSON.stringify(snake(spec)));
      return verdict(JSON.parse(call((m) => m.verifyReceiptJws(token, jwks.bytes, c))));
    },
    verifySignedReceipt: (receipt, jwks, spec) => {
      const b = bytes(receipt);
      const c = encoder.encode(JSON.stringify(snake(spec)));
      return verdict(JSON.parse(call((m) => m.verifySignedReceipt(b, jwks.bytes, c))));
    },
    verifyScreeningRules: (token, jwks, issuer, now) => call((m) => m.verifyScreeningRules(token, jwks.bytes, issuer, now)),
    signingKey: (seedHex, kid) => track(call((m) => new m.SigningKeyHandle(seedHex, kid))),
    jwksFromSeed: (seedHex, kids) => call((m) => {
      const jwks = jwksHandle(m.jwksFromSeed(seedHex, kids));
      return { jwks, keys: kids.map((kid) => track(new m.SigningKeyHandle(seedHex, kid))) };
    }),
    signJws: (typ, claims, key) => { const b = bytes(claims); return call((m) => m.signJws(typ, b, live(key))); },
    issueReceipt: (fields, key, issuer, audience) => {
      const b = bytes(fields);
      return call((m) => m.issueReceipt(b, live(key), issuer, audience));
    },
    /** Test hook (hidden): a panic in the module, which traps; see wasm/test/hardening.test.mjs. */
    testPanic: () => call((m) => m.__testPanic()),
  };
  return binding;
}

module.exports = { wasmBinding };
