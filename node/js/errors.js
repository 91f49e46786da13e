'use strict'
// The error identity of the ekl-core JS packages (Node native and wasm share this file).
//
// Every refusal is an `EklError`: a real `Error` subclass whose `name` is 'EklError' and whose
// `code` is the core's stable SCREAMING_SNAKE string (ekl_core::ErrorCode). The message starts
// with the code ("DUPLICATE_KEY: duplicate key in an object"), as the core's Display and the CLI
// write it. This file must not use Node-only APIs: the wasm package runs it in browsers.

const ERROR_NAME = 'EklError'

class EklError extends Error {
  /**
   * @param {string} code the stable code (one of `errorCodes()`)
   * @param {string} detail a short lower-case description, without secrets or payloads
   * @param {{cause?: unknown}} [options]
   */
  constructor(code, detail, options) {
    super(`${code}: ${detail}`, options)
    /** @type {string} */
    this.code = code
  }
}
Object.defineProperty(EklError.prototype, 'name', {
  value: ERROR_NAME,
  writable: true,
  configurable: true,
  enumerable: false,
})

/**
 * True for an error thrown by ekl-core, from this package or another copy of it (the wasm
 * package, a second install): checked by `name` and a string `code`, not only by `instanceof`.
 * @param {unknown} e
 * @returns {e is EklError}
 */
function isEklError(e) {
  return (
    e instanceof EklError ||
    (e instanceof Error && e.name === ERROR_NAME && typeof (/** @type {{code?: unknown}} */ (e)).code === 'string')
  )
}

const CODE_AND_MESSAGE = /^([A-Z][A-Z0-9_]*): ([\s\S]*)$/

/** The message of INTERNAL_ERROR: fixed, never the text of what went wrong (it may quote input). */
const INTERNAL_MESSAGE = 'internal error in ekl-core (a bug, never an answer to input: please report it)'

/**
 * Turns what the native layer threw into an `EklError`: a refusal of the core is either an error
 * whose `code` is a core code (napi sync calls) or one whose message is "CODE: message" (async
 * rejections, wasm). Anything else is a bug below the API (a napi conversion failure, a wasm trap
 * the binding did not catch, ...): it becomes INTERNAL_ERROR with a fixed message, and its own
 * text, which may quote input, is dropped.
 * @param {unknown} e
 * @param {Set<string>} codes the core's codes
 * @returns {EklError}
 */
function fromNative(e, codes) {
  if (isEklError(e)) return e
  if (e instanceof Error) {
    const code = /** @type {any} */ (e).code
    if (typeof code === 'string' && codes.has(code)) {
      return new EklError(code, e.message)
    }
    const m = CODE_AND_MESSAGE.exec(e.message)
    if (m !== null && codes.has(m[1])) return new EklError(m[1], m[2])
  }
  return new EklError('INTERNAL_ERROR', INTERNAL_MESSAGE)
}

module.exports = { EklError, isEklError, fromNative, ERROR_NAME, INTERNAL_MESSAGE }
