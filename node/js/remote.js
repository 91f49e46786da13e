'use strict'
// A network's key set fetched with `fetch` and cached (docs/decisions.md#remote-jwks). No
// Node-only API: it runs in browsers too (the wasm package shares this file).
//
// The cache policy is the core's: the registry's `remote_jwks_step` (ekl_core::remote_jwks), a
// sans-I/O state machine the Python package drives too (tools/remote-jwks/scenarios.json runs
// against both). It holds every rule: the options' bounds, the URL rules, freshness from
// Cache-Control, the cooldown after a failure, `maxStale`, the refetch for an unknown kid, the
// redirect rules, the body's bound and its reading by the core's strict JSON reader (a duplicate
// member is DUPLICATE_KEY), and every message. This file only does the I/O: `fetch` with
// `redirect: 'manual'` (each hop handed to the core), one AbortController and a timer for the
// deadline of the whole fetch (it holds even for a `fetch` option that ignores its signal), the
// body read within the core's bound, the URL parsed by WHATWG `URL`, and the single flight:
// concurrent callers share the one fetch in progress; a caller with a fresh set never waits.
// Options are read as own enumerable properties only (ownOptions); the state is private (`#`).

const { ownOptions, isWellFormed } = require('./convert.js')

/** @typedef {{readonly kids: string[]}} JwksLike what RemoteJwks needs of the API's Jwks */
/** @typedef {{action: string, state: object, error?: {code: string, message: string}, timeout?: number, max_bytes?: number, set?: object}} Step */
/** @typedef {(event: object, options?: {state?: object, body?: Uint8Array, jwks?: JwksLike, token?: string | undefined}) => Step} StepFn */

/**
 * Reads at most `max` bytes of a response body; null when it is longer.
 * @param {Response} response
 * @param {number} max
 * @returns {Promise<Uint8Array | null>}
 */
async function readCapped(response, max) {
  /** @type {any} a web stream, a Node stream (a `fetch` option such as node-fetch), or none */
  const body = response.body
  if (!body || (typeof body.getReader !== 'function' && typeof body[Symbol.asyncIterator] !== 'function')) {
    const buf = new Uint8Array(await response.arrayBuffer()) // no stream: the fetch holds it whole
    return buf.length > max ? null : buf
  }
  /** @type {Uint8Array[]} */
  const parts = []
  let total = 0
  /** @param {Uint8Array} value */
  const take = (value) => {
    total += value.length
    parts.push(value)
    return total > max
  }
  if (typeof body.getReader === 'function') {
    const reader = body.getReader()
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      if (take(value)) {
        try { await reader.cancel() } catch { /* already closed */ }
        return null
      }
    }
  } else {
    for await (const chunk of body) {
      if (take(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : new Uint8Array(chunk))) {
        try { body.destroy?.() } catch { /* already closed */ }
        return null
      }
    }
  }
  const out = new Uint8Array(total)
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

/**
 * A URL as WHATWG `URL` reads it (resolved against `base`), with its parts for the core's URL
 * rules; null when it cannot be read.
 * @param {string} text
 * @param {URL} [base]
 */
function parse(text, base) {
  try {
    const url = new URL(text, base)
    const parts = { scheme: url.protocol.slice(0, -1), host: url.hostname, port: url.port === '' ? null : Number(url.port), credentials: url.username !== '' || url.password !== '' }
    return { url, parts }
  } catch {
    return null
  }
}

/**
 * An option as JSON holds it: a non-finite number as its name, another type by its name (the
 * core refuses both with the option's bounds).
 * @param {unknown} v
 */
const option = (v) => (typeof v === 'number' ? (Number.isFinite(v) ? v : String(v)) : v === null || typeof v === 'boolean' || typeof v === 'string' ? v : typeof v)

const OPTIONS = ['timeoutMs', 'maxBytes', 'cooldown', 'defaultMaxAge', 'maxStale', 'clock', 'fetch']

/**
 * The RemoteJwks class over an API's `Jwks`, `EklError` and `remoteJwksStep`.
 * @param {{Jwks: new (jwks: unknown) => JwksLike, EklError: typeof import('./errors.js').EklError, step: StepFn}} api
 */
function makeRemoteJwks({ Jwks, EklError, step }) {
  /** @param {Step} s */
  const error = (s) => new EklError(/** @type {any} */ (s.error).code, /** @type {any} */ (s.error).message)
  /**
   * An EklError as the core's event holds it: its code and its reason (without "CODE: ").
   * @param {any} e
   */
  const plain = (e) => ({ code: e.code, message: String(e.message).startsWith(`${e.code}: `) ? String(e.message).slice(e.code.length + 2) : String(e.message) })
  /** Thrown inside a download at its deadline. */
  const TIMEOUT = Symbol('timeout')

  class RemoteJwks {
    #url
    /** @type {object} the core's state */
    #state
    /** @type {() => number} */
    #clock
    /** @type {typeof fetch} */
    #fetch
    /** @type {JwksLike | null} the last good set */
    #current = null
    /** @type {Promise<JwksLike> | null} */
    #inFlight = null

    /**
     * @param {string} url the key set's URL (https in production)
     * @param {{timeoutMs?: number, maxBytes?: number, cooldown?: number, defaultMaxAge?: number,
     *          maxStale?: number, clock?: () => number, fetch?: typeof fetch}} [options]
     *   timeoutMs in (0, 600000] (default 5000); maxBytes an integer in [1, 64 MiB] (default 1 MiB);
     *   cooldown, defaultMaxAge in [0, 86400] seconds (30, 300); maxStale in [0, 31536000] seconds
     *   (86400); clock in seconds (default: a monotonic clock)
     */
    constructor(url, options) {
      const given = typeof url === 'string' ? url : ''
      const o = ownOptions('RemoteJwks', options, OPTIONS)
      /** @type {Record<string, unknown>} */
      const numbers = {}
      for (const [js, wire] of [['timeoutMs', 'timeout_ms'], ['maxBytes', 'max_bytes'], ['cooldown', 'cooldown'], ['defaultMaxAge', 'default_max_age'], ['maxStale', 'max_stale']]) {
        if (js in o) numbers[wire] = option(o[js])
      }
      this.#state = step({ on: 'new', url: given, parts: parse(given)?.parts ?? null, options: numbers }).state
      if ('clock' in o && typeof o.clock !== 'function') throw new EklError('INVALID_ARGUMENT', 'RemoteJwks: clock must be a function')
      if ('fetch' in o && typeof o.fetch !== 'function') throw new EklError('INVALID_ARGUMENT', 'RemoteJwks: fetch must be a function')
      this.#url = given
      this.#clock = /** @type {(() => number) | undefined} */ (o.clock) ?? (() => performance.now() / 1000)
      this.#fetch = /** @type {typeof fetch | undefined} */ (o.fetch) ?? ((...a) => fetch(...a))
      /** Fetches attempted (tests, metrics). */
      this.fetches = 0
    }

    /**
     * The set as the core read it and the Cache-Control header, each hop checked by the core;
     * within `signal`.
     * @param {AbortSignal} signal
     * @param {object} state
     */
    async #download(signal, state) {
      let url = /** @type {URL} */ (parse(this.#url)?.url) // the core checked it
      for (let hops = 0; ; hops++) {
        const response = await this.#fetch(url.href, { headers: { accept: 'application/json' }, signal, redirect: 'manual' })
        const location = response.headers.get('location')
        const next = location ? parse(location.trim(), url) : null
        const hop = step({ on: 'response', status: response.status, location, next: next?.parts ?? null, hops, opaque: response.type === 'opaqueredirect' }, { state })
        if (hop.action !== 'read') {
          try { await response.body?.cancel() } catch { /* closed */ }
          if (hop.action === 'fail') throw error(hop)
          url = /** @type {{url: URL}} */ (next).url
          continue
        }
        const body = await readCapped(response, /** @type {number} */ (hop.max_bytes))
        const got = step({ on: 'body', longer: body === null }, { state, body: body ?? new Uint8Array(0) })
        if (got.action === 'fail') throw error(got)
        return { set: got.set, cacheControl: response.headers.get('cache-control') }
      }
    }

    /**
     * The download within the deadline: the signal aborts it, and the deadline ends the wait even
     * when the fetch does not heed the signal.
     * @param {number} timeout seconds
     * @returns {Promise<{set: unknown, cacheControl: string | null}>}
     */
    async #downloadInTime(timeout) {
      const abort = new AbortController()
      /** @type {ReturnType<typeof setTimeout> | undefined} */
      let timer
      const deadline = new Promise((_resolve, reject) => {
        timer = setTimeout(() => {
          abort.abort()
          reject(TIMEOUT)
        }, timeout * 1000)
      })
      const download = this.#download(abort.signal, this.#state)
      download.catch(() => { /* settled after the deadline: nobody waits for it */ })
      try {
        return await Promise.race([download, deadline])
      } catch (e) {
        throw abort.signal.aborted ? TIMEOUT : e
      } finally {
        clearTimeout(timer)
      }
    }

    /**
     * The fetch in progress, or a new one: its set, or a rejection with JWKS_UNAVAILABLE.
     * @param {number} timeout seconds
     */
    #fetchNow(timeout) {
      if (this.#inFlight) return this.#inFlight
      this.fetches++
      this.#inFlight = (async () => {
        try {
          const got = await this.#downloadInTime(timeout)
          const jwks = new Jwks(got.set) // the set as the core read it
          this.#state = step({ on: 'fetched', now: this.#clock(), cache_control: got.cacheControl }, { state: this.#state }).state
          this.#current = jwks
          return jwks
        } catch (e) {
          const cause = e === TIMEOUT ? { cause: 'timeout' } : e instanceof EklError ? { cause: 'refused', error: plain(e) } : { cause: 'network' }
          const s = step({ on: 'failed', now: this.#clock(), ...cause }, { state: this.#state })
          this.#state = s.state
          throw error(s)
        } finally {
          this.#inFlight = null
        }
      })()
      return this.#inFlight
    }

    /** The key set: cached while fresh, else fetched again; the last good set serves after a
     *  failure for up to `maxStale` past its freshness; else JWKS_UNAVAILABLE.
     * @returns {Promise<JwksLike>}
     */
    async jwks() {
      let s = step({ on: 'need', now: this.#clock() }, { state: this.#state })
      if (s.action === 'serve') return /** @type {JwksLike} */ (this.#current)
      if (s.action === 'fail') throw error(s)
      try {
        return await this.#fetchNow(/** @type {number} */ (s.timeout))
      } catch (e) {
        s = step({ on: 'need_failed', now: this.#clock(), error: plain(e) }, { state: this.#state })
        if (s.action === 'serve') return /** @type {JwksLike} */ (this.#current)
        throw error(s)
      }
    }

    /** The key set to verify `token` with; fetched again once (per cooldown) for an unknown kid,
     *  else UNKNOWN_KID saying when the set was refetched and when the next refetch may happen.
     * @param {unknown} token a compact JWS
     * @returns {Promise<JwksLike>}
     */
    async jwksFor(token) {
      let jwks = await this.jwks()
      const tok = typeof token === 'string' && isWellFormed(token) ? token : undefined
      let s = step({ on: 'kid', now: this.#clock() }, { state: this.#state, jwks, token: tok })
      this.#state = s.state
      if (s.action === 'serve') return jwks
      if (s.action === 'fail') throw error(s)
      try {
        jwks = await this.#fetchNow(/** @type {number} */ (s.timeout))
      } catch (e) {
        throw error(step({ on: 'kid_failed', error: plain(e) }, { state: this.#state }))
      }
      s = step({ on: 'kid_fetched' }, { state: this.#state, jwks, token: tok })
      if (s.action === 'serve') return jwks
      throw error(s)
    }
  }
  return RemoteJwks
}

module.exports = { makeRemoteJwks }
