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

const encoder = new TextEncoder();
const asBuffer = typeof Buffer === 'function'
  ? (u8) => Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength) // Node: the same type as the addon
  : (u8) => u8;

/** The message of INTERNAL_ERROR: fixed, whatever the trap said. */
const INTERNAL = 'INTERNAL_ERROR: internal error in ekl-core (a bug, never an answer to input: please report it); the module was restarted';

/** The concatenation of the byte arguments of one call (one copy into the module's memory). */
function concat(parts) {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

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

  /** A machine's handle (docs/decisions/handles.md), refused like a key after a restart. */
  function liveHandle(handle) {
    if (keyGeneration.get(handle) !== generation) {
      throw new Error('INVALID_ARGUMENT: the handle was dropped when the module restarted after an internal error; make it again');
    }
    return handle;
  }

  const codes = call((m) => m.errorCodes()).split('\n').filter(Boolean);
  const version = call((m) => m.coreVersion());
  const manifest = call((m) => m.operations());
  /** A result of the module: bytes as a Buffer in Node, keys tracked, a key set as an object. */
  const result = (r) => {
    if (r instanceof Uint8Array) return asBuffer(r);
    if (Array.isArray(r)) return { jwks: r[0], keys: r.slice(1).map(track) };
    if (r !== null && typeof r === 'object') return track(r);
    return r;
  };
  return {
    operations: () => manifest,
    errorCodes: () => codes.slice(),
    coreVersion: () => version,
    canonicalize: (json, maxBytes) =>
      asBuffer(call((m) => m.canonicalize(json, maxBytes === null || maxBytes > 0xffffffff ? undefined : maxBytes))),
    /**
     * One operation of the registry: JSON text and bytes go into one buffer (their slots hold
     * their lengths), a string list as JSON text, a signing key or a machine's handle (a
     * method's `self`) as the separate last argument.
     */
    call(index, args) {
      const parts = [];
      let key = null;
      let handle = null;
      const slots = args.map((a) => {
        if (Array.isArray(a)) a = encoder.encode(JSON.stringify(a));
        if (a instanceof Uint8Array) {
          parts.push(a);
          return a.length;
        }
        if (a !== null && typeof a === 'object') {
          if (typeof a.className === 'function') handle = liveHandle(a);
          else key = live(a);
          return null;
        }
        return a;
      });
      const data = parts.length ? concat(parts) : new Uint8Array(0);
      return result(call((m) => (handle ? m.callWithHandle(index, slots, data, handle)
        : key ? m.callWithKey(index, slots, data, key) : m.call(index, slots, data))));
    },
    /** Test hook (hidden): a panic in the module, which traps; see wasm/test/hardening.test.mjs. */
    testPanic: () => call((m) => m.__testPanic()),
  };
}

module.exports = { wasmBinding };
