'use strict'
// A network's key set fetched with `fetch` and cached (docs/decisions.md#remote-jwks): the same
// rules as the Python package's RemoteJwks. No Node-only API: it runs in browsers too.
//
// * fetched on first use, cached for the response's `Cache-Control: max-age` (clamped to
//   [0, 1 day]; no-store/no-cache mean 0; without one, `defaultMaxAge` seconds);
// * a token whose `kid` the cached set does not hold triggers one refetch, at most once per
//   `cooldown` seconds;
// * a response is read up to `maxBytes` (default 1 MiB) within `timeoutMs`; a larger body, a
//   non-2xx status, a timeout, a network error or a body that is not a usable JWKS is a failed
//   fetch; after one the last good set keeps serving, and with none the call rejects with an
//   EklError JWKS_UNAVAILABLE (the message names neither the URL nor the body);
// * concurrent callers share the one fetch in progress.

const ONE_DAY = 86400

function maxAgeOf(cacheControl, fallback) {
  if (!cacheControl) return fallback
  if (/(?:^|,)\s*(?:no-store|no-cache)\s*(?:,|=|$)/i.test(cacheControl)) return 0
  const m = /(?:^|,)\s*max-age\s*=\s*"?(\d+)"?\s*(?:,|$)/i.exec(cacheControl)
  return m ? Math.min(Number(m[1]), ONE_DAY) : fallback
}

/** The `kid` of a compact JWS header, or null when it cannot be read (the verifier refuses). */
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

/** Reads at most `max` bytes of a response body; null when it is longer. */
async function readCapped(response, max) {
  if (!response.body || typeof response.body.getReader !== 'function') {
    const buf = new Uint8Array(await response.arrayBuffer())
    return buf.length > max ? null : buf
  }
  const reader = response.body.getReader()
  const parts = []
  let total = 0
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
  const out = new Uint8Array(total)
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

/** The RemoteJwks class over an API's `Jwks` and `EklError`. */
function makeRemoteJwks({ Jwks, EklError }) {
  const unavailable = (why) => new EklError('JWKS_UNAVAILABLE', why)

  class RemoteJwks {
    /**
     * @param {string} url the key set's URL (https in production)
     * @param {{timeoutMs?: number, maxBytes?: number, cooldown?: number, defaultMaxAge?: number,
     *          clock?: () => number, fetch?: typeof fetch}} [options] cooldown and defaultMaxAge in
     *   seconds; clock in seconds (default: a monotonic clock)
     */
    constructor(url, options = {}) {
      if (typeof url !== 'string' || !/^https?:\/\//.test(url)) {
        throw new EklError('INVALID_ARGUMENT', 'url must be an http(s) URL (https in production)')
      }
      const allowed = ['timeoutMs', 'maxBytes', 'cooldown', 'defaultMaxAge', 'clock', 'fetch']
      for (const k of Object.keys(options ?? {})) {
        if (!allowed.includes(k)) throw new EklError('INVALID_ARGUMENT', `RemoteJwks: unknown option ${JSON.stringify(k)} (allowed: ${allowed.join(', ')})`)
      }
      this.url = url
      this.timeoutMs = options.timeoutMs ?? 5000
      this.maxBytes = options.maxBytes ?? 1 << 20
      this.cooldown = options.cooldown ?? 30
      this.defaultMaxAge = options.defaultMaxAge ?? 300
      this.clock = options.clock ?? (() => performance.now() / 1000)
      this.fetchImpl = options.fetch ?? ((...a) => fetch(...a))
      this.current = null
      this.freshUntil = -Infinity
      this.lastFailure = -Infinity
      this.lastKidRefetch = -Infinity
      this.inFlight = null
      /** Fetches attempted (tests, metrics). */
      this.fetches = 0
    }

    /** One fetch; replaces the cache on success, rejects with JWKS_UNAVAILABLE otherwise. */
    fetchNow() {
      if (this.inFlight) return this.inFlight
      this.inFlight = (async () => {
        this.fetches++
        const abort = new AbortController()
        const timer = setTimeout(() => abort.abort(), this.timeoutMs)
        let body, cacheControl
        try {
          const response = await this.fetchImpl(this.url, { headers: { accept: 'application/json' }, signal: abort.signal, redirect: 'follow' })
          if (!response.ok) throw unavailable(`the key set's server answered ${response.status}`)
          cacheControl = response.headers.get('cache-control')
          body = await readCapped(response, this.maxBytes)
          if (body === null) throw unavailable(`the key set is larger than ${this.maxBytes} bytes`)
        } catch (e) {
          if (e instanceof EklError) throw e
          throw unavailable(abort.signal.aborted ? 'the key set timed out' : 'the key set could not be fetched')
        } finally {
          clearTimeout(timer)
        }
        let jwks
        try {
          jwks = new Jwks(JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body)))
        } catch (e) {
          throw unavailable(e instanceof EklError ? `the fetched key set is not usable (${e.code})` : 'the fetched key set is not JSON')
        }
        this.current = jwks
        this.freshUntil = this.clock() + maxAgeOf(cacheControl, this.defaultMaxAge)
        return jwks
      })()
      const done = () => { this.inFlight = null }
      this.inFlight.then(done, () => {
        this.lastFailure = this.clock()
        done()
      })
      return this.inFlight
    }

    /** The key set: cached while fresh, else fetched again (the last good set serves on failure). */
    async jwks() {
      const now = this.clock()
      if (this.current && now < this.freshUntil) return this.current
      // A stale set whose refetch failed: retried at most once per cooldown.
      if (this.current && now - this.lastFailure < this.cooldown) return this.current
      try {
        return await this.fetchNow()
      } catch (e) {
        if (this.current) return this.current
        throw e
      }
    }

    /** The key set to verify `token` with; fetched again once (per cooldown) for an unknown kid. */
    async jwksFor(token) {
      const jwks = await this.jwks()
      const kid = tokenKid(token)
      if (kid === null || jwks.kids.includes(kid)) return jwks
      const now = this.clock()
      if (now - this.lastKidRefetch < this.cooldown) return this.current
      this.lastKidRefetch = now
      try {
        return await this.fetchNow()
      } catch {
        return this.current // the verifier then says UNKNOWN_KID
      }
    }
  }
  return RemoteJwks
}

module.exports = { makeRemoteJwks, maxAgeOf, tokenKid }
