'use strict'
// A network's key set fetched with `fetch` and cached (docs/decisions.md#remote-jwks): the same
// rules as the Python package's RemoteJwks (one scenario file, tools/remote-jwks/scenarios.json,
// runs against both). No Node-only API: it runs in browsers too.
//
// * fetched on first use, cached for the response's `Cache-Control: max-age` (no-store/no-cache
//   mean 0; without one, `defaultMaxAge` seconds), clamped to [`cooldown`, 1 day]: the cooldown is
//   the floor, so a server saying no-store cannot make every verification a fetch;
// * a token whose `kid` the cached set does not hold triggers one refetch, at most once per
//   `cooldown` seconds; when the kid is still unknown, or the refetch is declined, `jwksFor`
//   rejects with UNKNOWN_KID saying when the set was refetched and when the next refetch may happen;
// * one fetch is bounded by `timeoutMs` in all (connect, headers, redirects, body) and `maxBytes`;
//   a larger body, a non-2xx status, a redirect to another origin (https to http included), a
//   network error or a body that is not a usable JWKS is a failed fetch; same-origin redirects are
//   followed (at most 5; `redirect: 'manual'`, each hop checked; a runtime that hides where a
//   redirect goes, a browser's opaque redirect, is a failed fetch);
// * after a failed fetch no new attempt is made within `cooldown`; the last good set keeps serving
//   for at most `maxStale` seconds past its freshness (default 1 day); then, as with no good set,
//   JWKS_UNAVAILABLE (messages name neither the URL nor the body);
// * options are read as own enumerable properties only; unknown ones, wrong types and values out
//   of range, and a URL holding a user name or password, are INVALID_ARGUMENT at construction;
// * concurrent callers share the one fetch in progress; a caller with a fresh set never waits; the
//   deadline holds even for a `fetch` option that ignores its abort signal.
// The state is private (`#`): the public surface is `jwks()`, `jwksFor(token)` and `fetches`.

const { ownOptions } = require('./convert.js')

/** @typedef {{readonly kids: string[]}} JwksLike what RemoteJwks needs of the API's Jwks */

const ONE_DAY = 86400
const MAX_REDIRECTS = 5
const REDIRECTS = [301, 302, 303, 307, 308]

/**
 * The response's max-age in seconds (before the floor): 0 for no-store/no-cache, at most 1 day.
 * @param {string | null | undefined} cacheControl the Cache-Control header
 * @param {number} fallback the max-age without one
 * @returns {number}
 */
function maxAgeOf(cacheControl, fallback) {
  if (!cacheControl) return fallback
  if (/(?:^|,)\s*(?:no-store|no-cache)\s*(?:,|=|$)/i.test(cacheControl)) return 0
  const m = /(?:^|,)\s*max-age\s*=\s*"?(\d+)"?\s*(?:,|$)/i.exec(cacheControl)
  return m ? Math.min(Number(m[1]), ONE_DAY) : fallback
}

/**
 * The `kid` of a compact JWS header, or null when it cannot be read (the verifier refuses).
 * @param {unknown} token
 * @returns {string | null}
 */
function tokenKid(token) {
  if (typeof token !== 'string') return null
  const head = token.split('.', 1)[0]
  if (head.length > 8192 || !/^[A-Za-z0-9_-]*$/.test(head)) return null
  try {
    const b64 = head.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (head.length % 4)) % 4)
    const text = typeof atob === 'function' ? atob(b64) : Buffer.from(b64, 'base64').toString('latin1')
    const bytes = Uint8Array.from(text, (c) => c.charCodeAt(0))
    const header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
    return header && typeof header.kid === 'string' ? header.kid : null
  } catch {
    return null
  }
}

/**
 * Reads at most `max` bytes of a response body; null when it is longer.
 * @param {Response} response
 * @param {number} max
 * @returns {Promise<Uint8Array | null>}
 */
async function readCapped(response, max) {
  /** @type {any} a web stream, a Node stream (a `fetch` option such as node-fetch), or none */
  const body = response.body
  if (!body) {
    const buf = new Uint8Array(await response.arrayBuffer()) // no stream: the fetch holds it whole
    return buf.length > max ? null : buf
  }
  /** @type {Uint8Array[]} */
  const parts = []
  let total = 0
  if (typeof body.getReader === 'function') {
    const reader = body.getReader()
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      total += value.length
      if (total > max) {
        try { await reader.cancel() } catch { /* already closed */ }
        return null
      }
      parts.push(value)
    }
  } else if (typeof body[Symbol.asyncIterator] === 'function') {
    for await (const chunk of body) {
      const value = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : new Uint8Array(chunk)
      total += value.length
      if (total > max) {
        try { body.destroy?.() } catch { /* already closed */ }
        return null
      }
      parts.push(value)
    }
  } else {
    const buf = new Uint8Array(await response.arrayBuffer()) // a body of another kind: read whole
    return buf.length > max ? null : buf
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
 * scheme, host and port of a URL (the port defaulted by the scheme).
 * @param {URL} u
 */
function originOf(u) {
  return `${u.protocol}//${u.hostname.toLowerCase()}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`
}

/**
 * An http(s) URL object, or null.
 * @param {string} text
 * @param {URL} [base]
 * @returns {URL | null}
 */
function httpUrl(text, base) {
  try {
    const u = new URL(text, base)
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname ? u : null
  } catch {
    return null
  }
}

const OPTIONS = ['timeoutMs', 'maxBytes', 'cooldown', 'defaultMaxAge', 'maxStale', 'clock', 'fetch']

/**
 * The RemoteJwks class over an API's `Jwks` and `EklError`.
 * @param {{Jwks: new (jwks: unknown) => JwksLike, EklError: typeof import('./errors.js').EklError}} api
 */
function makeRemoteJwks({ Jwks, EklError }) {
  /** @param {string} why */
  const unavailable = (why) => new EklError('JWKS_UNAVAILABLE', why)
  /** @param {string} why */
  const invalid = (why) => new EklError('INVALID_ARGUMENT', `RemoteJwks: ${why}`)
  /**
   * An EklError's reason without its "CODE: " prefix.
   * @param {any} e what a fetch failed with (an EklError: fetchNow rejects with nothing else)
   * @returns {string}
   */
  const detail = (e) => (String(e.message).startsWith(`${e.code}: `) ? String(e.message).slice(e.code.length + 2) : String(e.message))

  /**
   * A finite number in [low, high] (or (low, high]); other types refused.
   * @param {string} name
   * @param {unknown} v
   * @param {number} low
   * @param {number} high
   * @returns {number}
   */
  function number(name, v, low, high, lowOpen = false) {
    if (typeof v !== 'number') throw invalid(`${name} must be a number`)
    if (!Number.isFinite(v) || v > high || v < low || (lowOpen && v === low)) {
      throw invalid(`${name} must be a finite number in ${lowOpen ? '(' : '['}${low}, ${high}]`)
    }
    return v
  }

  class RemoteJwks {
    #url
    #timeoutMs
    #maxBytes
    #cooldown
    #defaultMaxAge
    #maxStale
    /** @type {() => number} */
    #clock
    /** @type {typeof fetch} */
    #fetch
    /** @type {JwksLike | null} the last good set */
    #current = null
    /** @type {Set<string>} every kid of its body, skipped keys too */
    #allKids = new Set()
    #freshUntil = -Infinity
    #lastFailure = -Infinity
    /** @type {unknown} */
    #lastError = null
    #lastKidRefetch = -Infinity
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
      const parsed = typeof url === 'string' && /^https?:\/\//.test(url) ? httpUrl(url) : null
      if (parsed === null) throw new EklError('INVALID_ARGUMENT', 'url must be an http(s) URL (https in production)')
      if (parsed.username !== '' || parsed.password !== '') throw new EklError('INVALID_ARGUMENT', 'url must not hold a user name or password')
      const o = ownOptions('RemoteJwks', options, OPTIONS)
      this.#url = url
      this.#timeoutMs = 'timeoutMs' in o ? number('timeoutMs', o.timeoutMs, 0, 600000, true) : 5000
      if ('maxBytes' in o) {
        if (typeof o.maxBytes !== 'number') throw invalid('maxBytes must be an integer')
        if (!Number.isInteger(o.maxBytes) || o.maxBytes < 1 || o.maxBytes > 2 ** 26) throw invalid('maxBytes must be an integer in [1, 67108864]')
      }
      this.#maxBytes = 'maxBytes' in o ? /** @type {number} */ (o.maxBytes) : 1 << 20
      this.#cooldown = 'cooldown' in o ? number('cooldown', o.cooldown, 0, ONE_DAY) : 30
      this.#defaultMaxAge = 'defaultMaxAge' in o ? number('defaultMaxAge', o.defaultMaxAge, 0, ONE_DAY) : 300
      this.#maxStale = 'maxStale' in o ? number('maxStale', o.maxStale, 0, 365 * ONE_DAY) : ONE_DAY
      if ('clock' in o && typeof o.clock !== 'function') throw invalid('clock must be a function')
      if ('fetch' in o && typeof o.fetch !== 'function') throw invalid('fetch must be a function')
      this.#clock = /** @type {(() => number) | undefined} */ (o.clock) ?? (() => performance.now() / 1000)
      this.#fetch = /** @type {typeof fetch | undefined} */ (o.fetch) ?? ((...a) => fetch(...a))
      /** Fetches attempted (tests, metrics). */
      this.fetches = 0
    }

    /**
     * The body and Cache-Control of the key set, redirects checked; within `signal`.
     * @param {AbortSignal} signal
     */
    async #download(signal) {
      // an http(s) URL: the constructor checked it
      let url = /** @type {URL} */ (httpUrl(this.#url))
      const first = originOf(url)
      for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
        const response = await this.#fetch(url.href, { headers: { accept: 'application/json' }, signal, redirect: 'manual' })
        if (response.type === 'opaqueredirect') throw unavailable("the key set's server redirected (this runtime hides where: use the final URL)")
        if (REDIRECTS.includes(response.status)) {
          try { await response.body?.cancel() } catch { /* closed */ }
          const location = response.headers.get('location')
          if (!location) throw unavailable(`the key set's server answered ${response.status} without a Location`)
          const next = httpUrl(location.trim(), url)
          if (next === null) throw unavailable("the key set's server redirected to a URL that is not http(s)")
          if (first.startsWith('https:') && next.protocol === 'http:') throw unavailable("the key set's server redirected from https to http (refused)")
          if (originOf(next) !== first) throw unavailable("the key set's server redirected to another origin (refused)")
          url = next
          continue
        }
        if (response.status < 200 || response.status > 299) {
          try { await response.body?.cancel() } catch { /* closed */ }
          throw unavailable(`the key set's server answered ${response.status}`)
        }
        const cacheControl = response.headers.get('cache-control')
        const body = await readCapped(response, this.#maxBytes)
        if (body === null) throw unavailable(`the key set is larger than ${this.#maxBytes} bytes`)
        return { body, cacheControl }
      }
      throw unavailable(`the key set's server redirected more than ${MAX_REDIRECTS} times`)
    }

    /**
     * The download within the deadline: the signal aborts it, and the deadline ends the wait even
     * when the fetch does not heed the signal.
     * @returns {Promise<{body: Uint8Array, cacheControl: string | null}>}
     */
    async #downloadInTime() {
      const abort = new AbortController()
      /** @type {ReturnType<typeof setTimeout> | undefined} */
      let timer
      const deadline = new Promise((_resolve, reject) => {
        timer = setTimeout(() => {
          abort.abort()
          reject(unavailable('the key set timed out'))
        }, this.#timeoutMs)
      })
      const download = this.#download(abort.signal)
      download.catch(() => { /* settled after the deadline: nobody waits for it */ })
      try {
        return await Promise.race([download, deadline])
      } catch (e) {
        if (e instanceof EklError && !abort.signal.aborted) throw e
        throw unavailable(abort.signal.aborted ? 'the key set timed out' : 'the key set could not be fetched')
      } finally {
        clearTimeout(timer)
      }
    }

    /** The fetch in progress, or a new one: its set, or a rejection with JWKS_UNAVAILABLE. */
    #fetchNow() {
      if (this.#inFlight) return this.#inFlight
      this.fetches++
      this.#inFlight = (async () => {
        try {
          const got = await this.#downloadInTime()
          let value, jwks
          try {
            value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(got.body))
          } catch {
            throw unavailable('the fetched key set is not JSON')
          }
          try {
            jwks = new Jwks(value)
          } catch (e) {
            throw unavailable(e instanceof EklError ? `the fetched key set is not usable (${e.code})` : 'the fetched key set is not usable')
          }
          /** @type {any[]} the key set's keys as parsed (JSON: anything) */
          const keys = value !== null && typeof value === 'object' && Array.isArray(value.keys) ? value.keys : []
          const every = new Set(keys.filter((k) => k !== null && typeof k === 'object' && typeof k.kid === 'string').map((k) => k.kid))
          this.#current = jwks
          this.#allKids = every
          this.#freshUntil = this.#clock() + Math.max(this.#cooldown, maxAgeOf(got.cacheControl, this.#defaultMaxAge))
          this.#lastFailure = -Infinity
          this.#lastError = null
          return jwks
        } catch (e) {
          this.#lastFailure = this.#clock()
          this.#lastError = e
          throw e
        } finally {
          this.#inFlight = null
        }
      })()
      return this.#inFlight
    }

    /**
     * Whether the last good set may still serve at `now` (within `maxStale` past its freshness).
     * @param {number} now
     * @returns {boolean}
     */
    #usable(now) {
      return this.#current !== null && now - this.#freshUntil <= this.#maxStale
    }

    /** The key set: cached while fresh, else fetched again; the last good set serves after a
     *  failure for up to `maxStale` past its freshness; else JWKS_UNAVAILABLE.
     * @returns {Promise<JwksLike>}
     */
    async jwks() {
      const now = this.#clock()
      if (this.#current && now < this.#freshUntil) return this.#current
      if (now - this.#lastFailure < this.#cooldown) { // no new attempt within the cooldown
        if (this.#current && this.#usable(now)) return this.#current
        const base = this.#lastError ? detail(this.#lastError) : 'the key set could not be fetched'
        const stale = this.#current ? ' (the last good set is older than max_stale)' : ''
        throw unavailable(`${base}${stale}; the next attempt may happen in ${Math.ceil(this.#lastFailure + this.#cooldown - now)} s`)
      }
      try {
        return await this.#fetchNow()
      } catch (e) {
        if (this.#current && this.#usable(this.#clock())) return this.#current
        if (this.#current) throw unavailable(`${detail(e)} (the last good set is older than max_stale)`)
        throw e
      }
    }

    /** The key set to verify `token` with; fetched again once (per cooldown) for an unknown kid,
     *  else UNKNOWN_KID saying when the set was refetched and when the next refetch may happen.
     * @param {unknown} token a compact JWS
     * @returns {Promise<JwksLike>}
     */
    async jwksFor(token) {
      let jwks = await this.jwks()
      const kid = tokenKid(token)
      if (kid === null || jwks.kids.includes(kid)) return jwks
      if (this.#allKids.has(kid)) return jwks // a key of another kind: the verifier says UNSUPPORTED_KEY
      const now = this.#clock()
      const failed = this.#lastFailure
      if (now - failed < this.#cooldown) { // no new attempt within the cooldown after a failure
        throw new EklError('UNKNOWN_KID', `kid is not in the key set, and the last fetch failed ${Math.floor(now - failed)} s ago; the next refetch may happen in ${Math.ceil(failed + this.#cooldown - now)} s`)
      }
      const last = this.#lastKidRefetch
      if (now - last < this.#cooldown) {
        throw new EklError('UNKNOWN_KID', `kid is not in the key set, refetched for an unknown kid ${Math.floor(now - last)} s ago; the next refetch may happen in ${Math.ceil(last + this.#cooldown - now)} s`)
      }
      this.#lastKidRefetch = now
      try {
        jwks = await this.#fetchNow()
      } catch (e) {
        throw new EklError('UNKNOWN_KID', `kid is not in the key set, and refetching it failed (${detail(e)}); the next refetch may happen in ${Math.ceil(this.#cooldown)} s`)
      }
      if (jwks.kids.includes(kid) || this.#allKids.has(kid)) return jwks
      throw new EklError('UNKNOWN_KID', `kid is not in the key set, refetched just now; the next refetch may happen in ${Math.ceil(this.#cooldown)} s`)
    }
  }
  return RemoteJwks
}

module.exports = { makeRemoteJwks, maxAgeOf, tokenKid }
