'use strict'
// A network's key set fetched with `fetch` and cached (docs/decisions.md#remote-jwks). No
// Node-only API: it runs in browsers too (the wasm package shares this file).
//
// The cache policy is the core's: the registry's handle `RemoteJwksPolicy` (ekl_core::remote_jwks;
// docs/decisions/handles.md), which the Python package drives too (tools/remote-jwks/scenarios.json
// runs against both). It holds every rule and its state: the options' defaults and bounds, the URL
// rules, freshness from Cache-Control, the cooldown after a failure, `maxStale`, the refetch for an
// unknown kid, the redirect rules, the body's bound and its reading by the core's strict JSON
// reader (a duplicate member is DUPLICATE_KEY), the last good set, and every message. This file
// only asks the policy (`need`, `kid`), does the I/O it names and reports (`response`, `body`,
// `failed`): `fetch` with `redirect: 'manual'` (each hop handed to the policy), one
// AbortController and a timer for the deadline of the whole fetch (it holds even for a `fetch`
// option that ignores its signal), the body read within the policy's bound, the URL parsed by
// WHATWG `URL`, and the single flight: concurrent callers share the one fetch in progress; a
// caller with a fresh set never waits. Options are read as own enumerable properties only
// (ownOptions).

const { ownOptions, isWellFormed } = require('./convert.js')

/** @typedef {{readonly kids: string[]}} JwksLike what RemoteJwks needs of the API's Jwks */
/** @typedef {{action: string, error?: {code: string, message: string}, timeout?: number, max_bytes?: number}} Decision */

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
 * A URL as WHATWG `URL` reads it (resolved against `base`), with its parts as the policy's URL
 * arguments; null when it cannot be read.
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

const OPTIONS = ['timeoutMs', 'maxBytes', 'cooldown', 'defaultMaxAge', 'maxStale', 'clock', 'fetch']

/**
 * The RemoteJwks class over an API's `RemoteJwksPolicy` (the core's machine) and `EklError`.
 * @param {{EklError: typeof import('./errors.js').EklError, Policy: new (url: string, options?: object) => any}} api
 */
function makeRemoteJwks({ EklError, Policy }) {
  /** @param {Decision} d */
  const error = (d) => new EklError(/** @type {any} */ (d.error).code, /** @type {any} */ (d.error).message)
  /** Thrown inside a download at its deadline. */
  const TIMEOUT = Symbol('timeout')
  /** A response the policy refused (its `fail`), with the refusal's message. */
  class Refused {
    /** @param {string} message */
    constructor(message) {
      this.message = message
    }
  }

  class RemoteJwks {
    #url
    /** @type {any} the core's policy (its state and the last good set) */
    #policy
    /** @type {() => number} */
    #clock
    /** @type {typeof fetch} */
    #fetch
    /** @type {JwksLike | null} the set the policy holds, as its last body() gave it */
    #current = null
    /** @type {Promise<JwksLike> | null} */
    #inFlight = null

    /**
     * @param {string} url the key set's URL (https in production)
     * @param {{timeoutMs?: number, maxBytes?: number, cooldown?: number, defaultMaxAge?: number,
     *          maxStale?: number, clock?: () => number, fetch?: typeof fetch}} [options]
     *   null or left out: the default (the core's: the manifest's `remote_jwks` constant);
     *   timeoutMs in (0, 600000] (default 5000); maxBytes an integer in [1, 64 MiB] (default 1 MiB);
     *   cooldown, defaultMaxAge in [0, 86400] seconds (30, 300); maxStale in [0, 31536000] seconds
     *   (86400); clock in seconds (default: a monotonic clock)
     */
    constructor(url, options) {
      const given = typeof url === 'string' ? url : ''
      const o = ownOptions('RemoteJwks', options, OPTIONS)
      const { clock, fetch: fetcher, ...numbers } = o
      this.#policy = new Policy(given, { ...parse(given)?.parts, ...numbers })
      if ('clock' in o && typeof clock !== 'function') throw new EklError('INVALID_ARGUMENT', 'RemoteJwks: clock must be a function')
      if ('fetch' in o && typeof fetcher !== 'function') throw new EklError('INVALID_ARGUMENT', 'RemoteJwks: fetch must be a function')
      this.#url = given
      this.#clock = /** @type {(() => number) | undefined} */ (clock) ?? (() => performance.now() / 1000)
      this.#fetch = /** @type {typeof fetch | undefined} */ (fetcher) ?? ((...a) => fetch(...a))
      /** Fetches attempted (tests, metrics). */
      this.fetches = 0
    }

    /**
     * The body as read (null: longer than the policy reads) and the Cache-Control header, each
     * response handed to the policy; within `signal`.
     * @param {AbortSignal} signal
     * @returns {Promise<{body: Uint8Array | null, cacheControl: string | null}>}
     */
    async #download(signal) {
      let url = /** @type {URL} */ (parse(this.#url)?.url) // the core checked it
      for (let hops = 0; ; hops++) {
        const response = await this.#fetch(url.href, { headers: { accept: 'application/json' }, signal, redirect: 'manual' })
        const location = response.headers.get('location')
        const next = location ? parse(location.trim(), url) : null
        /** @type {Decision} */
        const hop = this.#policy.response(response.status, hops, { location, ...next?.parts, opaque: response.type === 'opaqueredirect' })
        if (hop.action !== 'read') {
          try { await response.body?.cancel() } catch { /* closed */ }
          if (hop.action === 'fail') throw new Refused(/** @type {any} */ (hop.error).message)
          url = /** @type {{url: URL}} */ (next).url
          continue
        }
        const body = await readCapped(response, /** @type {number} */ (hop.max_bytes))
        return { body, cacheControl: response.headers.get('cache-control') }
      }
    }

    /**
     * The download within the deadline: the signal aborts it, and the deadline ends the wait even
     * when the fetch does not heed the signal.
     * @param {number} timeout seconds
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
      const download = this.#download(abort.signal)
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
     * The fetch in progress, or a new one: its set, or a rejection with JWKS_UNAVAILABLE. The
     * outcome is reported to the policy: the body (read once by the core, kept and returned as a
     * Jwks, or recorded as the failure) or the failure.
     * @param {number} timeout seconds
     */
    #fetchNow(timeout) {
      if (this.#inFlight) return this.#inFlight
      this.fetches++
      this.#inFlight = (async () => {
        try {
          let got
          try {
            got = await this.#downloadInTime(timeout)
          } catch (e) {
            const [cause, message] = e === TIMEOUT ? ['timeout', undefined] : e instanceof Refused ? ['refused', e.message] : ['network', undefined]
            throw error(this.#policy.failed(this.#clock(), cause, { message }))
          }
          // Read once by the core: the set kept and returned, or the refusal recorded and thrown.
          const jwks = this.#policy.body(this.#clock(), got.body ?? new Uint8Array(0), { longer: got.body === null, cacheControl: got.cacheControl })
          this.#current = jwks
          return jwks
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
      /** @type {Decision} */
      let d = this.#policy.need(this.#clock())
      if (d.action === 'serve') return /** @type {JwksLike} */ (this.#current)
      if (d.action === 'fail') throw error(d)
      try {
        return await this.#fetchNow(/** @type {number} */ (d.timeout))
      } catch {
        d = this.#policy.needFailed(this.#clock())
        if (d.action === 'serve') return /** @type {JwksLike} */ (this.#current)
        throw error(d)
      }
    }

    /** The key set to verify `token` with; fetched again once (per cooldown) for an unknown kid,
     *  else UNKNOWN_KID saying when the set was refetched and when the next refetch may happen.
     * @param {unknown} token a compact JWS
     * @returns {Promise<JwksLike>}
     */
    async jwksFor(token) {
      await this.jwks()
      const tok = typeof token === 'string' && isWellFormed(token) ? token : undefined
      /** @type {Decision} */
      let d = this.#policy.kid(this.#clock(), { token: tok })
      if (d.action === 'serve') return /** @type {JwksLike} */ (this.#current)
      if (d.action === 'fail') throw error(d)
      let jwks
      try {
        jwks = await this.#fetchNow(/** @type {number} */ (d.timeout))
      } catch {
        throw error(this.#policy.kidFailed())
      }
      d = this.#policy.kidFetched({ token: tok })
      if (d.action === 'serve') return jwks
      throw error(d)
    }
  }
  return RemoteJwks
}

module.exports = { makeRemoteJwks }
