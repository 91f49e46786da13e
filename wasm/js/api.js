'use strict';
// The package's public API over the raw wasm-bindgen exports: camelCase names of
// docs/operations.json, JSON values through the shared strict conversion (js-shared/convert.js),
// refusals as EklError (js-shared/errors.js). Written once as CommonJS; the build writes the ES
// module copy used by browsers (wasm/scripts/esm.mjs).

const { EklError, isEklError, fromNative } = require('./errors.js');
const { toJsonText, jsonTextOf, JsonText, isWellFormed } = require('./convert.js');

const encoder = new TextEncoder();

/** UTF-8 bytes of JSON text (string or bytes) for the raw exports. */
const bytesOf = (text) => (typeof text === 'string' ? encoder.encode(text) : text);
/** JSON text argument (string, Uint8Array, JsonText) as UTF-8 bytes. */
const textBytes = (input, what) => bytesOf(jsonTextOf(input, what));
/** JSON value argument (a JS value, or a JsonText) as UTF-8 bytes. */
const valueBytes = (input) => bytesOf(toJsonText(input));

/** A string argument, refused when it is not a string or holds a lone surrogate. */
function str(s, what) {
  if (typeof s !== 'string') throw new EklError('INVALID_ARGUMENT', `${what} must be a string`);
  if (!isWellFormed(s)) {
    throw new EklError('LONE_SURROGATE', `${what} holds a lone UTF-16 surrogate, which has no UTF-8 form`);
  }
  return s;
}

function makeApi(raw) {
  const errorCodes = Object.freeze(raw.errorCodes().split('\n').filter(Boolean));
  const codeSet = new Set(errorCodes);
  const call = (f) => {
    try {
      return f();
    } catch (e) {
      throw fromNative(e, codeSet);
    }
  };
  const optionsOf = (options) => {
    if (options === undefined || options === null) return {};
    if (typeof options !== 'object') throw new EklError('INVALID_ARGUMENT', 'options must be an object');
    return options;
  };
  const maxBytesOf = (options) => {
    const o = optionsOf(options);
    if (o.maxBytes !== undefined && o.maxBytes !== null) {
      if (!Number.isSafeInteger(o.maxBytes) || o.maxBytes < 0 || o.maxBytes > 0xffffffff) {
        throw new EklError('INVALID_ARGUMENT', 'maxBytes must be an integer from 0 to 2^32-1');
      }
      if (o.capabilityInput) return Math.min(o.maxBytes, 262144);
      return o.maxBytes;
    }
    return o.capabilityInput ? 262144 : undefined;
  };
  const saltOf = (o) => (o.salt === undefined || o.salt === null ? undefined : str(o.salt, 'salt'));
  const saltIdOf = (o) => (o.saltId === undefined || o.saltId === null ? undefined : str(o.saltId, 'saltId'));
  const commit = (value, options, capabilityInput) => {
    const o = optionsOf(options);
    const bytes = valueBytes(value);
    return JSON.parse(call(() => raw.commitment(bytes, saltOf(o), saltIdOf(o), capabilityInput)));
  };

  return {
    EklError,
    isEklError,
    errorCodes,
    JsonText,
    toJsonText,
    canonicalize(json, options) {
      const bytes = textBytes(json, 'json');
      const max = maxBytesOf(options);
      return call(() => raw.canonicalize(bytes, max));
    },
    canonicalizeValue(value, options) {
      const bytes = valueBytes(value);
      const max = maxBytesOf(options);
      return call(() => raw.canonicalize(bytes, max));
    },
    sha256Hex(data) {
      if (typeof data === 'string') return raw.sha256Hex(encoder.encode(str(data, 'data')));
      if (data instanceof Uint8Array) return raw.sha256Hex(data);
      throw new EklError('INVALID_ARGUMENT', 'data must be a string or a Uint8Array');
    },
    commitment(value, options) {
      return commit(value, options, false);
    },
    inputCommitment(value, options) {
      return commit(value, options, true);
    },
    termsHash(terms) {
      const bytes = valueBytes(terms);
      return call(() => raw.termsHash(bytes));
    },
    fingerprint(salt, value) {
      const bytes = valueBytes(value);
      return call(() => raw.fingerprint(str(salt, 'salt'), bytes));
    },
    outputFingerprint(salt, result) {
      const bytes = valueBytes(result);
      return call(() => raw.outputFingerprint(str(salt, 'salt'), bytes));
    },
    selectResultBody(result) {
      const bytes = valueBytes(result);
      return JSON.parse(call(() => raw.selectResultBody(bytes)));
    },
    upstreamFingerprint(tools, offered) {
      const bytes = valueBytes(tools);
      let names;
      if (offered !== undefined && offered !== null) {
        if (!Array.isArray(offered)) throw new EklError('INVALID_ARGUMENT', 'offered must be an array of names');
        names = offered.map((n) => str(n, 'an offered name'));
      }
      return call(() => raw.upstreamFingerprint(bytes, names));
    },
    proofKey(agentKey) {
      return raw.proofKey(str(agentKey, 'agentKey'));
    },
    challengeProofV1(credential, challenge, endpoint) {
      return raw.challengeProofV1(str(credential, 'credential'), str(challenge, 'challenge'),
        str(endpoint, 'endpoint'));
    },
    challengeProofV2(proofKey, challenge, endpoint) {
      const args = [str(proofKey, 'proofKey'), str(challenge, 'challenge'), str(endpoint, 'endpoint')];
      return call(() => raw.challengeProofV2(...args));
    },
    enrollAuthorityV1(agentKey, enrollmentId, nonce, endpoint) {
      return raw.enrollAuthorityV1(str(agentKey, 'agentKey'), str(enrollmentId, 'enrollmentId'),
        str(nonce, 'nonce'), str(endpoint, 'endpoint'));
    },
    enrollAuthorityV2(proofKey, enrollmentId, nonce, endpoint) {
      const args = [str(proofKey, 'proofKey'), str(enrollmentId, 'enrollmentId'), str(nonce, 'nonce'),
        str(endpoint, 'endpoint')];
      return call(() => raw.enrollAuthorityV2(...args));
    },
    verifySignature(secret, agentId, enrollmentId, challenge) {
      return raw.verifySignature(str(secret, 'secret'), str(agentId, 'agentId'),
        str(enrollmentId, 'enrollmentId'), str(challenge, 'challenge'));
    },
    checkVerifySignature(secret, agentId, enrollmentId, challenge, signature) {
      return raw.checkVerifySignature(str(secret, 'secret'), str(agentId, 'agentId'),
        str(enrollmentId, 'enrollmentId'), str(challenge, 'challenge'), str(signature, 'signature'));
    },
  };
}

module.exports = { makeApi };
