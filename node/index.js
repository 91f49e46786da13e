'use strict'
// ekl-evidence for Node.js (CommonJS entry; index.mjs re-exports it for ESM).
//
// Two backends under one API (js/api.js, shared with the browser build):
//   native  the napi-rs addon: ekl-evidence.<platform>.node next to this file, or the optional
//           package ekl-evidence-<platform> npm installed for this platform (through native.js,
//           the loader napi-rs generates);
//   wasm    the WebAssembly build that ships inside this package (./wasm/, the same module the
//           browser entry uses), loaded when no native addon fits this platform or it fails to
//           load: no environment variable needed.
// EKL_CORE_BACKEND=native|wasm forces one (native: a load failure is thrown, not replaced).
// `backend` says which one is in use. When neither loads, one honest line says why (instead of
// napi-rs's generic "npm has a bug related to optional dependencies" message).

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
    // The UTF-8 form of a string (see js/api.js): null when it holds U+FFFD.
    canonicalizeString(json) {
      const n = native.canonicalizeStringInto(json, output)
      if (n === -2) return null
      if (n < 0) return native.takeResult()
      const b = Buffer.allocUnsafe(n)
      b.set(output.subarray(0, n))
      return b
    },
    testPanic: () => native.__testPanic(),
  }
}

/** The napi-rs platform name of this process ('linux-x64-gnu', 'darwin-arm64', ...). */
function platformName() {
  const { platform, arch } = process
  if (platform === 'win32') return `win32-${arch}-msvc`
  if (platform !== 'linux') return `${platform}-${arch}`
  let glibc = false
  try {
    glibc = Boolean(process.report && process.report.getReport().header.glibcVersionRuntime)
  } catch {
    glibc = false
  }
  return `linux-${arch}-${glibc ? 'gnu' : 'musl'}`
}

/** The platforms an addon is published for (package.json "napi.targets", as platform names). */
const PUBLISHED = ['linux-x64-gnu', 'linux-arm64-gnu', 'linux-x64-musl', 'linux-arm64-musl', 'darwin-x64', 'darwin-arm64', 'win32-x64-msvc']

/** Every message of an error and its causes, first lines only (napi-rs chains one per attempt). */
function messages(e) {
  const out = []
  for (let x = e, i = 0; x && i < 32; x = x.cause, i++) out.push(typeof x.message === 'string' ? x.message.split('\n')[0] : String(x))
  return out
}

/** Why no native addon: what an adopter can act on, in one clause. */
function nativeMissing(e) {
  const name = platformName()
  if (!PUBLISHED.includes(name)) return `no native addon is published for ${name}`
  const pkg = `ekl-evidence-${name}`
  // The attempt that matters is the platform package's (not the in-folder file, not napi's WASI one).
  const own = messages(e).filter((m) => m.includes(pkg) || !/Cannot find (module|native binding)|wasm32-wasi/.test(m))
  if (own.length === 0 || own.every((m) => m.startsWith(`Cannot find module '${pkg}`))) {
    return `the native addon ${pkg} is not installed (an install with --omit=optional or --no-optional leaves it out)`
  }
  return `the native addon ${pkg} did not load (${own.find((m) => !m.startsWith(`Cannot find module '${pkg}`))})`
}

/** The error of the attempt that matters, without napi-rs's generic wrapper ("npm has a bug ..."). */
function nativeCause(e) {
  for (let x = e, i = 0; x && i < 32; x = x.cause, i++) {
    const m = typeof x.message === 'string' ? x.message : ''
    if (!/^Cannot find native binding|wasm32-wasi/.test(m)) return x
  }
  return undefined
}

function loadError(message, cause) {
  const e = new Error(`ekl-evidence: ${message}`)
  e.code = 'EKL_LOAD_FAILED'
  if (cause !== undefined) e.cause = cause
  return e
}

function load() {
  const forced = process.env.EKL_CORE_BACKEND || ''
  if (forced !== '' && forced !== 'native' && forced !== 'wasm') {
    throw loadError(`EKL_CORE_BACKEND must be 'native' or 'wasm' (or unset), not ${JSON.stringify(forced)}`)
  }
  let nativeError = null
  if (forced !== 'wasm') {
    try {
      return makeApi(nodeBinding(require('./native.js')), { backend: 'native' })
    } catch (e) {
      nativeError = e
      if (forced === 'native') throw loadError(`EKL_CORE_BACKEND=native but ${nativeMissing(e)}`, nativeCause(e))
    }
  }
  try {
    return makeApi(require('./wasm/binding.cjs'), { backend: 'wasm' })
  } catch (e) {
    const why = nativeError === null ? 'EKL_CORE_BACKEND=wasm' : nativeMissing(nativeError)
    throw loadError(`cannot load on ${platformName()} (Node ${process.version}): ${why}, and the bundled WebAssembly build failed too (${messages(e)[0]})`, e)
  }
}

module.exports = load()
