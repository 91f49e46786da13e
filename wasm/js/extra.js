'use strict';
// Operations of docs/operations.json that the shared API layer (node/js/api.js) does not wrap yet,
// wrapped here in the same style (strict conversion, EklError) over the wasm binding. A name that
// the shared layer has is never replaced, so this file shrinks to nothing as node/js/api.js grows.
// Written as CommonJS; the build writes the ES module copy.

const { EklError, fromNative } = require('./errors.js');
const { toJsonText, isWellFormed } = require('./convert.js');

function str(x, what) {
  if (typeof x !== 'string') throw new EklError('INVALID_ARGUMENT', `${what} must be a string`);
  if (!isWellFormed(x)) throw new EklError('LONE_SURROGATE', `${what} holds a lone UTF-16 surrogate`);
  return x;
}

function extendApi(api, binding) {
  const codes = new Set(binding.errorCodes());
  const guard = (f) => {
    try {
      return f();
    } catch (e) {
      throw fromNative(e, codes);
    }
  };
  const optValue = (v) => (v === undefined || v === null ? null : toJsonText(v));
  const extra = {};
  if (binding.verifyReceipt) {
    Object.assign(extra, {
      receiptKey(secret, keyId) {
        const a = [str(secret, 'secret'), str(keyId, 'keyId')];
        return guard(() => binding.receiptKey(a[0], a[1]));
      },
      authTag(receipt, secret) {
        const t = toJsonText(receipt);
        const s = str(secret, 'secret');
        return guard(() => binding.authTag(t, s));
      },
      receiptDigest(receipt) {
        const t = toJsonText(receipt);
        return guard(() => binding.receiptDigest(t));
      },
      signReceipt(receipt, secret) {
        const t = toJsonText(receipt);
        const s = str(secret, 'secret');
        return JSON.parse(guard(() => binding.signReceipt(t, s)));
      },
      verifyReceipt(receipt, keyRing, call, ownInputCommitment, ownOutputCommitment) {
        const a = [toJsonText(receipt), toJsonText(keyRing), toJsonText(call),
          optValue(ownInputCommitment), optValue(ownOutputCommitment)];
        return JSON.parse(guard(() => binding.verifyReceipt(a[0], a[1], a[2], a[3], a[4])));
      },
      verifyReceipts(keyRing, items) {
        const a = [toJsonText(keyRing), toJsonText(items)];
        return JSON.parse(guard(() => binding.verifyReceipts(a[0], a[1])));
      },
    });
  }
  if (binding.verifyChallengeProof) {
    const optStr = (x, what) => (x === undefined || x === null ? null : str(x, what));
    Object.assign(extra, {
      verifyChallengeProof(holds, challenge, endpoint, proof, proofV2) {
        if (!holds || typeof holds !== 'object') {
          throw new EklError('INVALID_ARGUMENT', 'holds must be {proofKey} or {credentialHash}');
        }
        const kind = holds.proofKey !== undefined ? 'proof_key' : 'credential_hash';
        const held = str(kind === 'proof_key' ? holds.proofKey : holds.credentialHash, 'holds');
        const a = [str(challenge, 'challenge'), str(endpoint, 'endpoint'), optStr(proof, 'proof'), optStr(proofV2, 'proofV2')];
        return guard(() => binding.verifyChallengeProof(kind, held, a[0], a[1], a[2], a[3]));
      },
      verifyEnrollAuthority(announced, agentKey, enrollmentId, nonce, endpoint, authority, authorityVersion) {
        const a = [str(announced, 'announced'), str(agentKey, 'agentKey'), str(enrollmentId, 'enrollmentId'),
          str(nonce, 'nonce'), str(endpoint, 'endpoint'), optStr(authority, 'authority')];
        let v = null;
        if (authorityVersion !== undefined && authorityVersion !== null) {
          if (!Number.isInteger(authorityVersion) || authorityVersion < 0 || authorityVersion > 0xffffffff) {
            throw new EklError('INVALID_ARGUMENT', 'authorityVersion must be an integer');
          }
          v = authorityVersion;
        }
        return guard(() => binding.verifyEnrollAuthority(a[0], a[1], a[2], a[3], a[4], a[5], v));
      },
      screeningRules(claims) {
        const t = toJsonText(claims);
        return JSON.parse(guard(() => binding.screeningRules(t)));
      },
      screen(rules, result) {
        const r = optValue(rules);
        const t = toJsonText(result);
        return JSON.parse(guard(() => binding.screen(r, t)));
      },
      screeningFold(text) {
        const t = str(text, 'text');
        return guard(() => binding.screeningFold(t));
      },
    });
  }
  if (binding.verifyReceiptJws) {
    Object.assign(extra, {
      verifyReceiptJws(token, jwks, call) {
        const a = [str(token, 'token'), toJsonText(jwks), toJsonText(call)];
        return JSON.parse(guard(() => binding.verifyReceiptJws(a[0], a[1], a[2])));
      },
      verifySignedReceipt(receipt, jwks, call) {
        const a = [toJsonText(receipt), toJsonText(jwks), toJsonText(call)];
        return JSON.parse(guard(() => binding.verifySignedReceipt(a[0], a[1], a[2])));
      },
    });
  }
  const out = { ...api };
  for (const [k, f] of Object.entries(extra)) if (!(k in out)) out[k] = f;
  return Object.freeze(out);
}

module.exports = { extendApi };
