'use strict';
// The one strict conversion of JS values to JSON text, shared by the Node (napi) and wasm packages
// (issue 5). A JS value is accepted exactly when it is a JSON value, and it becomes the text that
// `JSON.stringify` would write for it; that text then follows the ekl-json-1 text path in the core.
// So "value path = text path" holds by construction, and every refusal has the core's code:
//
//   null, true, false                  as written
//   number                             finite only (NaN, ±Infinity: NON_FINITE_NUMBER); -0 → 0;
//                                      written as Number.prototype.toString writes it, so an integer
//                                      beyond ±2^53 below 1e21 is INTEGER_OUT_OF_RANGE, as its text is,
//                                      and 1e21 and beyond (exponent form) are plain doubles
//   bigint                             within ±2^53 its digits; beyond: INTEGER_OUT_OF_RANGE
//   string (value or key)              a lone surrogate: LONE_SURROGATE (same as "\ud800" in text)
//   array                              every index (a hole is undefined: UNSUPPORTED_TYPE)
//   plain object (prototype Object.prototype of any realm, or null)
//                                      own enumerable string keys in Object.keys order;
//                                      an own symbol key: NON_STRING_KEY
//   undefined, function, symbol, Map, Set, Date, RegExp, typed arrays, boxed primitives,
//   class instances (anything else)    UNSUPPORTED_TYPE (never dropped, never toJSON'd)
//   a container that contains itself   CYCLIC_VALUE
//   more than 64 nested containers     INPUT_TOO_DEEP
//
// Refusals are reported in document order (the first offending member in Object.keys order), as the
// text path does. CommonJS source: the wasm build writes an ES module copy for browsers.

const { EklError } = require('./errors.js');

const MAX_DEPTH = 64;
const BOUND = 9007199254740992; // 2^53
const BIG_BOUND = 9007199254740992n;
const hasWellFormed = typeof String.prototype.isWellFormed === 'function';
const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True when the string has no lone UTF-16 surrogate (so it has a UTF-8 form). */
function isWellFormed(s) {
  return hasWellFormed ? s.isWellFormed() : !LONE.test(s);
}

/** Throws LONE_SURROGATE when a string argument has no UTF-8 form (never replaced silently). */
function checkString(s, what) {
  if (typeof s !== 'string') {
    throw new EklError('INVALID_ARGUMENT', `${what} must be a string`);
  }
  if (!isWellFormed(s)) {
    throw new EklError('LONE_SURROGATE', `${what} holds a lone surrogate`);
  }
  return s;
}

function describe(v) {
  if (v === undefined) return 'undefined';
  if (typeof v === 'function') return 'a function';
  if (typeof v === 'symbol') return 'a symbol';
  const tag = Object.prototype.toString.call(v).slice(8, -1);
  return tag === 'Object' ? 'a class instance' : `a ${tag}`;
}

function isPlainObject(v) {
  const proto = Object.getPrototypeOf(v);
  return proto === null || (Object.getPrototypeOf(proto) === null
    && Object.prototype.toString.call(v) === '[object Object]');
}

function writeNumber(n, path) {
  if (!Number.isFinite(n)) {
    throw new EklError('NON_FINITE_NUMBER', `NaN or Infinity at ${path}`);
  }
  if (n === 0) return '0';
  if (Number.isInteger(n) && Math.abs(n) > BOUND && Math.abs(n) < 1e21) {
    throw new EklError('INTEGER_OUT_OF_RANGE', `integer beyond ±2^53 at ${path}`);
  }
  return String(n);
}

function writeString(s, path) {
  if (!isWellFormed(s)) throw new EklError('LONE_SURROGATE', `lone surrogate at ${path}`);
  return JSON.stringify(s);
}

// Recursion is bounded: a container deeper than MAX_DEPTH is refused before going further.
function write(v, depth, open, path) {
  switch (typeof v) {
    case 'string': return writeString(v, path);
    case 'number': return writeNumber(v, path);
    case 'boolean': return v ? 'true' : 'false';
    case 'bigint':
      if (v > BIG_BOUND || v < -BIG_BOUND) {
        throw new EklError('INTEGER_OUT_OF_RANGE', `integer beyond ±2^53 at ${path}`);
      }
      return v.toString();
    case 'object':
      if (v === null) return 'null';
      break;
    default:
      throw new EklError('UNSUPPORTED_TYPE', `${describe(v)} has no JSON form (at ${path})`);
  }
  const isArray = Array.isArray(v);
  if (!isArray && !isPlainObject(v)) {
    throw new EklError('UNSUPPORTED_TYPE', `${describe(v)} has no JSON form (at ${path})`);
  }
  if (open.has(v)) throw new EklError('CYCLIC_VALUE', `a value contains itself (at ${path})`);
  if (depth >= MAX_DEPTH) {
    throw new EklError('INPUT_TOO_DEEP', `nesting deeper than ${MAX_DEPTH} levels`);
  }
  open.add(v);
  let out;
  if (isArray) {
    const parts = new Array(v.length);
    for (let i = 0; i < v.length; i++) parts[i] = write(v[i], depth + 1, open, `${path}[${i}]`);
    out = `[${parts.join(',')}]`;
  } else {
    const keys = Object.keys(v);
    const parts = new Array(keys.length);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      // Paths name members by position, never by key: keys can be payload.
      const where = `${path}.#${i}`;
      const key = writeString(k, `${where} (its key)`);
      parts[i] = `${key}:${write(v[k], depth + 1, open, where)}`;
    }
    if (Object.getOwnPropertySymbols(v).some((s) => Object.prototype.propertyIsEnumerable.call(v, s))) {
      throw new EklError('NON_STRING_KEY', `an object has a symbol key (at ${path})`);
    }
    out = `{${parts.join(',')}}`;
  }
  open.delete(v);
  return out;
}

/** The JSON text of a JS value under the strict rules above (throws EklError). */
function toJsonText(value) {
  return write(value, 0, new Set(), '$');
}

const encoder = new TextEncoder();

/**
 * JSON text as UTF-8 bytes from what a caller passes as text: a string (checked for lone
 * surrogates: LONE_SURROGATE) or bytes (Uint8Array, Buffer, ArrayBuffer; UTF-8 is checked by the core).
 */
function textBytes(input, what) {
  if (typeof input === 'string') return encoder.encode(checkString(input, what));
  if (input instanceof Uint8Array) return input;
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  throw new EklError('INVALID_ARGUMENT', `${what} must be JSON text (a string or bytes)`);
}

/**
 * A JSON value argument as UTF-8 JSON bytes: bytes (Uint8Array, Buffer, ArrayBuffer) are taken as
 * JSON text; any other JS value goes through the strict conversion.
 */
function valueBytes(input) {
  if (input instanceof Uint8Array) return input;
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  return encoder.encode(toJsonText(input));
}

module.exports = { toJsonText, textBytes, valueBytes, checkString, isWellFormed, MAX_DEPTH };
