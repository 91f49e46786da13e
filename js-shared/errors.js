'use strict';
// The error identity shared by the Node (napi) and wasm packages: every refusal is a real `Error`
// whose `name` is 'EklError' and whose `code` is the core's stable SCREAMING_SNAKE string
// (core/src/error.rs). CommonJS source: the Node package requires it as is; the wasm build writes an
// ES module copy (wasm/scripts/esm.mjs) for browsers.

class EklError extends Error {
  /**
   * @param {string} code the stable code, e.g. 'DUPLICATE_KEY'
   * @param {string} message a short lower-case message (never a key, secret or payload)
   */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}
Object.defineProperty(EklError.prototype, 'name', {
  value: 'EklError', writable: true, enumerable: false, configurable: true,
});

/** True for a refusal of the library, from either package (checks the name and code, not the class). */
function isEklError(e) {
  return e instanceof Error && e.name === 'EklError' && typeof e.code === 'string';
}

/**
 * The error for a refusal reported by a binding as the text `CODE: message` (what the wasm module
 * throws and what Display of the Rust error gives). Anything else is returned unchanged.
 */
function fromCoreError(e) {
  const text = typeof e === 'string' ? e : null;
  if (text !== null) {
    const m = /^([A-Z][A-Z0-9_]*): ([\s\S]*)$/.exec(text);
    if (m) return new EklError(m[1], m[2]);
  }
  return e;
}

module.exports = { EklError, isEklError, fromCoreError };
