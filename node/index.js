'use strict'
// ekl-evidence for Node.js (CommonJS entry; index.mjs re-exports it for ESM).
//
// Loads the native addon (ekl-evidence.<platform>.node through the napi-rs loader native.js) and
// builds the public API (js/api.js, shared with the wasm package) over it.
//
// Fallback hook (issue 6): when the native addon cannot be loaded (no prebuilt binary for this
// platform, a glibc too old, ...), the loader tries `./wasm/binding.js`, which the wasm package's
// build may place into this package: a module exporting the same low-level binding interface as
// `nodeBinding()` below (documented at the top of js/api.js). EKL_CORE_BACKEND=native|wasm forces
// one. Without that folder the native load error is thrown unchanged.

const { makeApi } = require('./js/api.js')

/** Adapts the napi addon to the binding interface of js/api.js. */
function nodeBinding(native) {
  // Canonical bytes come back through a reusable output buffer, then are copied into a pooled
  // Buffer: a napi Buffer per call costs more than canonicalising a small document.
  const output = new Uint8Array(64 * 1024)
  return {
    operations: native.operations,
    errorCodes: native.errorCodes,
    coreVersion: native.coreVersion,
    call: native.call,
    callAsync: native.callAsync,
    canonicalize(json, maxBytes) {
      const n = native.canonicalizeInto(json, maxBytes, output)
      if (n < 0) return native.takeResult()
      const b = Buffer.allocUnsafe(n)
      b.set(output.subarray(0, n))
      return b
    },
    testPanic: () => native.__testPanic(),
  }
}

function load() {
  const forced = process.env.EKL_CORE_BACKEND
  let nativeError = null
  if (forced !== 'wasm') {
    try {
      return makeApi(nodeBinding(require('./native.js')), { backend: 'native' })
    } catch (e) {
      if (forced === 'native') throw e
      nativeError = e
    }
  }
  try {
    return makeApi(require('./wasm/binding.js'), { backend: 'wasm' })
  } catch (e) {
    if (e && e.code === 'MODULE_NOT_FOUND' && nativeError !== null) throw nativeError
    throw e
  }
}

module.exports = load()
