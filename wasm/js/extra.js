'use strict';
// Operations of the core that the shared API layer (node/js/api.js) does not wrap yet — today the
// network-signed receipts (§9.5.1) — wrapped here in its style (strict conversion, EklError,
// camelCase options, verdicts as {accepted, checks, receiptDigest}) over the wasm binding. A name the
// shared layer has is never replaced, so this file shrinks to nothing as node/js/api.js grows.
// Written as CommonJS; the build writes the ES module copy.

const { EklError, fromNative } = require('./errors.js');
const { toJsonText, isWellFormed } = require('./convert.js');

function str(x, what) {
  if (typeof x !== 'string') throw new EklError('INVALID_ARGUMENT', `${what} must be a string`);
  if (!isWellFormed(x)) throw new EklError('LONE_SURROGATE', `${what} holds a lone UTF-16 surrogate`);
  return x;
}

const CONTEXT_STRINGS = ['executionId', 'providerAgentId', 'requesterAgentId', 'capabilityId', 'inputFingerprint',
  'ownAgentId', 'networkIssuer'];
const CONTEXT_TIMES = ['sentAt', 'receivedAt'];

/** The call context of a network-signed receipt as the core's snake_case JSON text. */
function contextText(call) {
  if (!call || typeof call !== 'object' || Array.isArray(call)) {
    throw new EklError('INVALID_ARGUMENT', 'call must be an object');
  }
  for (const k of Object.keys(call)) {
    if (!CONTEXT_STRINGS.includes(k) && !CONTEXT_TIMES.includes(k)) {
      throw new EklError('INVALID_ARGUMENT', `call: unknown member ${JSON.stringify(k)}`);
    }
  }
  const out = {};
  for (const k of CONTEXT_STRINGS) out[k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] = str(call[k], `call.${k}`);
  for (const k of CONTEXT_TIMES) {
    if (!Number.isSafeInteger(call[k])) throw new EklError('INVALID_ARGUMENT', `call.${k} must be an integer (seconds)`);
    out[k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] = call[k];
  }
  return JSON.stringify(out);
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
  const verdict = (v) => {
    const out = { accepted: v.accepted, checks: v.checks };
    if (v.receipt_digest !== null && v.receipt_digest !== undefined) out.receiptDigest = v.receipt_digest;
    return out;
  };
  const extra = {};
  if (binding.verifyReceiptJws) {
    Object.assign(extra, {
      verifyReceiptJws(token, jwks, call) {
        const a = [str(token, 'token'), toJsonText(jwks), contextText(call)];
        return verdict(JSON.parse(guard(() => binding.verifyReceiptJws(a[0], a[1], a[2]))));
      },
      verifyScreeningRules(token, jwks, options) {
        const o = options && typeof options === 'object' ? options : {};
        const a = [str(token, 'token'), toJsonText(jwks), str(o.issuer, 'issuer')];
        if (!Number.isSafeInteger(o.now)) throw new EklError('INVALID_ARGUMENT', 'now must be an integer (seconds)');
        return JSON.parse(guard(() => binding.verifyScreeningRules(a[0], a[1], a[2], o.now)));
      },
      verifySignedReceipt(receipt, jwks, call) {
        const a = [toJsonText(receipt), toJsonText(jwks), contextText(call)];
        return verdict(JSON.parse(guard(() => binding.verifySignedReceipt(a[0], a[1], a[2]))));
      },
    });
  }
  const out = { ...api };
  for (const [k, f] of Object.entries(extra)) if (!(k in out)) out[k] = f;
  return Object.freeze(out);
}

module.exports = { extendApi };
