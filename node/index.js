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
const { markAsUntransferable } = require('node:worker_threads')

/** Adapts the napi addon to the binding interface of js/api.js. */
function nodeBinding(native) {
  // Canonical bytes are written into a slab, result after result, and handed out as Buffer views
  // of it (as Node's own Buffer pool does, with larger slabs): a napi Buffer per call costs more
  // than canonicalising a small document, and so do a copy and Node's 8 KB pool refills. A new
  // slab is taken when less than ROOM is left (a result that does not fit the rest comes back
  // through takeResult); a result keeps its slab alive, at most SLAB bytes, like a pooled Buffer.
  // Slabs are untransferable, as Node's pool is: posting a result's `buffer` in a transfer list
  // copies it instead of detaching the slab under later results.
  const SLAB = 64 * 1024
  const ROOM = 16 * 1024
  const newSlab = () => {
    const ab = new ArrayBuffer(SLAB)
    markAsUntransferable(ab)
    return ab
  }
  let slab = newSlab()
  let output = new Uint8Array(slab)
  let at = 0
  const room = () => {
    if (SLAB - at < ROOM) {
      slab = newSlab()
      output = new Uint8Array(slab)
      at = 0
    }
  }
  const take = (n) => {
    const b = Buffer.from(slab, at, n)
    at = (at + n + 7) & ~7
    return b
  }
  return {
    operations: native.operations,
    errorCodes: native.errorCodes,
    coreVersion: native.coreVersion,
    call: native.call,
    callAsync: native.callAsync,
    canonicalize(json, maxBytes) {
      room()
      const n = native.canonicalizeInto(json, maxBytes, output, at)
      return n < 0 ? native.takeResult() : take(n)
    },
    // The UTF-8 form of a string, its first `len` bytes of `utf8` (see js/api.js): null when it
    // holds U+FFFD.
    canonicalizeString(utf8, len) {
      room()
      const n = native.canonicalizeStringInto(utf8, len, output, at)
      if (n === -2) return null
      return n < 0 ? native.takeResult() : take(n)
    },
    testPanic: () => native.__testPanic(),
  }
}

/** The napi-rs platform name of this process ('linux-x64-gnu', 'darwin-arm64', ...). */
function platformName() {
  const { platform, arch } = process
  if (platform === 'win32') return `win32-${arch}-msvc`
  if (platform !== 'linux') return `${platform}-${arch}`
  let glibc
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
