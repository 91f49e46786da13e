'use strict'
// ekl-evidence/replay: single use of signed credentials (PROTOCOL §9.2, §3, §4), for Node only
// (a provider's token endpoint, an agent's server; not part of the browser build). The same rules
// and codes as the Python package's ekl_evidence.replay: one scenario file,
// tools/replay/scenarios.json, runs against both (docs/decisions.md#replay-guard).
//
// A relationship assertion is single use: the provider "consumes jti atomically in shared durable
// state keyed (issuer, token_endpoint, jti) and kept through exp + skew, across restarts and
// replicas; a reuse is ASSERTION_REPLAY" (§9.2). The platform call credential is single use too.
// A ReplayGuard, called after the credential verified:
// * keys a credential by SHA-256 of the canonical JSON array ["ekl-replay-1", kind, issuer,
//   audience, jti] (replayKey): unambiguous, fixed length, the same key as the Python package's;
// * keeps it until exp + skew (60 s): the verifier refuses the token from then on;
// * rejects a reuse with ASSERTION_REPLAY (relationship assertion) or CREDENTIAL_REPLAY (platform
//   call credential); rejects, without consuming, a credential already expired (TOKEN_EXPIRED),
//   issued in the future (TOKEN_NOT_YET_VALID) or living longer than its type allows
//   (LIFETIME_TOO_LONG: 120 s, 60 s), so no entry is kept longer than 120 s + 2 × skew;
// * after recordRestore() (a restore from an older backup was detected), for 240 s rejects every
//   credential whose iat is earlier than that moment plus the skew; the moment is kept in the
//   store, so the rule holds across restarts and on every replica sharing it;
// * fails closed: a store that cannot answer is REPLAY_STORE_UNAVAILABLE (the error as `cause`),
//   a full MemoryStore is REPLAY_STORE_FULL.
// Stores: MemoryStore (one process, bounded), SqliteStore (durable across restarts: a database
// handle of better-sqlite3 or node:sqlite, or a path opened with better-sqlite3), RedisStore
// (shared by replicas: one SET key 1 NX PX ttl, over the `redis` or `ioredis` client). A store
// is any object with add, restoreMoment and recordRestore (sync or returning promises).

const { EklError, canonicalizeValue, sha256Hex } = require('./index.js')
const { ownOptions } = require('./js/convert.js')

/** The clock skew EKP allows (§9.2), seconds: an entry is kept until exp + this. */
const SKEW = 60
/** The longest a relationship assertion may live (exp - iat, §9.1), seconds. */
const ASSERTION_MAX_LIFETIME = 120
/** The longest a platform call credential may live (§3), seconds. */
const PLATFORM_CALL_MAX_LIFETIME = 60
/** Seconds after a detected restore during which old credentials are refused (default skew). */
const RESTORE_WINDOW = ASSERTION_MAX_LIFETIME + 2 * SKEW

const KINDS = {
  relationship_assertion: [ASSERTION_MAX_LIFETIME, 'ASSERTION_REPLAY'],
  platform_call: [PLATFORM_CALL_MAX_LIFETIME, 'CREDENTIAL_REPLAY'],
}
const MAX_TIME = 2 ** 53

const invalid = (why) => new EklError('INVALID_ARGUMENT', why)

function text(name, v) {
  if (typeof v !== 'string') throw invalid(`${name} must be a string`)
  if (v === '') throw invalid(`${name} must not be empty`)
  return v
}

function time(name, v) {
  if (typeof v !== 'number' || !Number.isInteger(v)) throw invalid(`${name} must be an integer (seconds since the epoch)`)
  if (Math.abs(v) > MAX_TIME) throw invalid(`${name} must be within ±2^53`)
  return v
}

/**
 * `now` in seconds since the epoch (a Date's time), fraction kept: the guard keeps milliseconds.
 * Milliseconds given as seconds are refused, as on every surface (10^11 s is the year 5138).
 */
function seconds(v) {
  if (v instanceof Date) v = v.getTime() / 1000
  if (typeof v !== 'number' || !Number.isFinite(v) || Math.abs(v) > MAX_TIME) {
    throw invalid('now must be a finite number of seconds within ±2^53 (or a Date)')
  }
  if (Math.abs(v) >= 1e11) throw invalid('now must be seconds since the epoch, not milliseconds (Date.now() / 1000)')
  return v
}

/**
 * The store key of a credential: lowercase hex SHA-256 of the ekl-json-1 array
 * ["ekl-replay-1", kind, issuer, audience, jti]; kind is relationship_assertion or platform_call.
 */
function replayKey(kind, issuer, audience, jti) {
  if (!Object.hasOwn(KINDS, kind)) throw invalid('kind must be relationship_assertion or platform_call')
  const parts = [text('issuer', issuer), text('audience', audience), text('jti', jti)]
  return sha256Hex(canonicalizeValue(['ekl-replay-1', kind, ...parts]))
}

class ReplayGuard {
  #store
  #skew
  #clock

  /**
   * @param store where consumed jti are kept (MemoryStore, SqliteStore, RedisStore or your own)
   * @param options skew: an integer in [0, 300] seconds (default 60; every replica sharing a store
   *   uses the same); clock: seconds since the epoch (default Date.now() / 1000)
   */
  constructor(store, options) {
    for (const m of ['add', 'restoreMoment', 'recordRestore']) {
      if (store === null || typeof store !== 'object' || typeof store[m] !== 'function') throw invalid(`ReplayGuard: store must have a method ${m}()`)
    }
    const o = ownOptions('ReplayGuard', options, ['skew', 'clock'])
    const skew = 'skew' in o ? o.skew : SKEW
    if (typeof skew !== 'number' || !Number.isInteger(skew) || skew < 0 || skew > 300) throw invalid('ReplayGuard: skew must be an integer in [0, 300] seconds')
    if ('clock' in o && typeof o.clock !== 'function') throw invalid('ReplayGuard: clock must be a function')
    this.#store = store
    this.#skew = skew
    this.#clock = o.clock ?? (() => Date.now() / 1000)
  }

  /** Seconds after a detected restore during which old credentials are refused: 120 + 2 × skew. */
  get restoreWindow() {
    return ASSERTION_MAX_LIFETIME + 2 * this.#skew
  }

  /**
   * Consumes a verified relationship assertion (§9.2), keyed (issuer, tokenEndpoint, jti).
   * Rejects with ASSERTION_REPLAY for a reuse or for an assertion issued before a recorded restore
   * (within the window); TOKEN_EXPIRED, TOKEN_NOT_YET_VALID, LIFETIME_TOO_LONG (over 120 s),
   * INVALID_ARGUMENT, LONE_SURROGATE; REPLAY_STORE_FULL, REPLAY_STORE_UNAVAILABLE.
   */
  async consumeAssertion(issuer, tokenEndpoint, jti, times) {
    return this.#consume('relationship_assertion', 'consumeAssertion', issuer, tokenEndpoint, jti, times)
  }

  /**
   * Consumes a verified platform call credential (§3, §4), keyed (issuer, audience, jti): the
   * aud you checked, or your agent's own endpoint. CREDENTIAL_REPLAY for a reuse; otherwise as
   * consumeAssertion (LIFETIME_TOO_LONG over 60 s).
   */
  async consumePlatformCall(issuer, audience, jti, times) {
    return this.#consume('platform_call', 'consumePlatformCall', issuer, audience, jti, times)
  }

  /**
   * Records that the state was restored from an older backup, detected at `now` (default: the
   * clock): for restoreWindow seconds every credential whose iat is earlier than now + skew is
   * refused, on every guard sharing the store, across restarts.
   */
  async recordRestore(options) {
    const o = ownOptions('recordRestore', options, ['now'])
    const at = Math.floor(seconds('now' in o ? o.now : this.#clock()) * 1000)
    await this.#call(() => this.#store.recordRestore(at, at + this.restoreWindow * 1000, at))
  }

  async #call(f) {
    try {
      return await f()
    } catch (e) {
      if (e instanceof EklError) throw e
      const name = e instanceof Error ? e.constructor.name : typeof e
      throw new EklError('REPLAY_STORE_UNAVAILABLE', `the replay store failed (${name})`, { cause: e })
    }
  }

  async #consume(kind, fn, issuer, audience, jti, times) {
    const [maxLifetime, replay] = KINDS[kind]
    const key = replayKey(kind, issuer, audience, jti)
    const o = ownOptions(fn, times, ['iat', 'exp', 'now'])
    const iat = time('iat', o.iat)
    const exp = time('exp', o.exp)
    const t = seconds('now' in o ? o.now : this.#clock())
    const skew = this.#skew
    if (exp < iat) throw invalid('exp must not be before iat')
    if (t >= exp + skew) throw new EklError('TOKEN_EXPIRED', 'the token expired: nothing to consume')
    if (iat > t + skew) throw new EklError('TOKEN_NOT_YET_VALID', 'iat is in the future beyond the skew')
    if (exp - iat > maxLifetime) throw new EklError('LIFETIME_TOO_LONG', `exp - iat exceeds ${maxLifetime} s`)
    const nowMs = Math.floor(t * 1000)
    const restored = await this.#call(() => this.#store.restoreMoment(nowMs))
    if (restored !== null && restored !== undefined && nowMs < restored + this.restoreWindow * 1000 && iat * 1000 < restored + skew * 1000) {
      throw new EklError(replay, 'issued before a restore from backup: refused for the window after it')
    }
    if (!(await this.#call(() => this.#store.add(key, (exp + skew) * 1000, nowMs)))) {
      throw new EklError(replay, 'this jti was already used')
    }
  }
}

/** A binary min-heap of [expiresAt, key]. */
class Expiries {
  constructor() {
    this.a = []
  }
  get size() {
    return this.a.length
  }
  peek() {
    return this.a[0]
  }
  push(item) {
    const a = this.a
    a.push(item)
    for (let i = a.length - 1; i > 0;) {
      const p = (i - 1) >> 1
      if (a[p][0] <= a[i][0]) break
      ;[a[p], a[i]] = [a[i], a[p]]
      i = p
    }
  }
  pop() {
    const a = this.a
    const top = a[0]
    const last = a.pop()
    if (a.length > 0) {
      a[0] = last
      for (let i = 0; ;) {
        const l = 2 * i + 1
        const r = l + 1
        let m = i
        if (l < a.length && a[l][0] < a[m][0]) m = l
        if (r < a.length && a[r][0] < a[m][0]) m = r
        if (m === i) break
        ;[a[m], a[i]] = [a[i], a[m]]
        i = m
      }
    }
    return top
  }
}

/**
 * Consumed jti in this process's memory: for one process, lost at exit. At most maxEntries
 * unexpired entries (default 100 000, about 25 MB: each key is 64 hex characters whatever the
 * token). Expired entries are purged on every add; when maxEntries unexpired entries remain, a new
 * credential is rejected with REPLAY_STORE_FULL and not consumed (fail closed: an unexpired jti is
 * never forgotten, which would allow a replay).
 */
class MemoryStore {
  #entries = new Map()
  #expiries = new Expiries()
  #restore = null

  /** @param options maxEntries: an integer in [1, 100000000] (default 100000) */
  constructor(options) {
    const o = ownOptions('MemoryStore', options, ['maxEntries'])
    const max = 'maxEntries' in o ? o.maxEntries : 100_000
    if (typeof max !== 'number' || !Number.isInteger(max) || max < 1 || max > 100_000_000) throw invalid('MemoryStore: maxEntries must be an integer in [1, 100000000]')
    this.maxEntries = max
  }

  /** The entries held (expired ones not yet purged included). */
  get size() {
    return this.#entries.size
  }

  add(key, expiresAt, now) {
    while (this.#expiries.size > 0 && this.#expiries.peek()[0] <= now) {
      const [expires, k] = this.#expiries.pop()
      if (this.#entries.get(k) === expires) this.#entries.delete(k)
    }
    if (this.#entries.has(key)) return false // unexpired: the purge removed every expired entry
    if (this.#entries.size >= this.maxEntries) {
      throw new EklError('REPLAY_STORE_FULL', `the memory store holds ${this.maxEntries} unexpired entries (maxEntries)`)
    }
    this.#entries.set(key, expiresAt)
    this.#expiries.push([expiresAt, key])
    return true
  }

  restoreMoment(now) {
    const r = this.#restore
    return r !== null && r[1] > now ? r[0] : null
  }

  recordRestore(at, until, now) {
    const r = this.#restore
    this.#restore = r === null || r[1] <= now ? [at, until] : [Math.max(r[0], at), Math.max(r[1], until)]
  }
}

const SCHEMA = [
  'CREATE TABLE IF NOT EXISTS ekl_replay (key TEXT PRIMARY KEY, expires_at INTEGER NOT NULL) WITHOUT ROWID',
  'CREATE INDEX IF NOT EXISTS ekl_replay_expires ON ekl_replay (expires_at)',
  'CREATE TABLE IF NOT EXISTS ekl_replay_restore (id INTEGER PRIMARY KEY CHECK (id = 1), at INTEGER NOT NULL, until INTEGER NOT NULL)',
]
const ADD =
  'INSERT INTO ekl_replay (key, expires_at) VALUES (?, ?) ON CONFLICT (key) DO UPDATE ' +
  'SET expires_at = excluded.expires_at WHERE ekl_replay.expires_at <= ?'
const RECORD =
  'INSERT INTO ekl_replay_restore (id, at, until) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE ' +
  'SET at = CASE WHEN ekl_replay_restore.until <= ? THEN excluded.at ELSE max(ekl_replay_restore.at, excluded.at) END, ' +
  'until = CASE WHEN ekl_replay_restore.until <= ? THEN excluded.until ELSE max(ekl_replay_restore.until, excluded.until) END'

/**
 * Consumed jti in an SQLite database: durable across restarts, shared by the processes of one
 * host that open the same file. The same table and statements as the Python package's SqliteStore
 * (a Python and a Node process may share the file): add is one atomic statement (INSERT … ON
 * CONFLICT(key) DO UPDATE … WHERE expires_at <= now). WAL journal, synchronous=FULL, busy_timeout.
 * Expired rows are purged at most once a minute.
 */
class SqliteStore {
  #db
  #owned
  #add
  #purge
  #read
  #record
  #purgedAt = null

  /**
   * @param database an open database (better-sqlite3's Database, node:sqlite's DatabaseSync:
   *   anything with exec() and prepare().run()/get()), or a file path opened with better-sqlite3
   *   (an optional dependency: npm install better-sqlite3@12)
   * @param options timeoutMs: the busy timeout, an integer in [0, 600000] (default 5000)
   */
  constructor(database, options) {
    const o = ownOptions('SqliteStore', options, ['timeoutMs'])
    const timeoutMs = 'timeoutMs' in o ? o.timeoutMs : 5000
    if (typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs) || timeoutMs < 0 || timeoutMs > 600_000) throw invalid('SqliteStore: timeoutMs must be an integer in [0, 600000]')
    let db = database
    this.#owned = typeof database === 'string'
    if (this.#owned) {
      let Database
      try {
        Database = require('better-sqlite3')
      } catch {
        throw invalid('SqliteStore: a path needs the optional dependency better-sqlite3 (npm install better-sqlite3@12), or pass an open database')
      }
      try {
        db = new Database(database, { timeout: timeoutMs })
      } catch (e) {
        throw new EklError('REPLAY_STORE_UNAVAILABLE', 'cannot open the SQLite replay store', { cause: e })
      }
    } else if (db === null || typeof db !== 'object' || typeof db.exec !== 'function' || typeof db.prepare !== 'function') {
      throw invalid('SqliteStore: database must be a path or an open database (better-sqlite3, node:sqlite)')
    }
    try {
      db.exec(`PRAGMA busy_timeout = ${timeoutMs}`)
      db.exec('PRAGMA journal_mode = WAL')
      db.exec('PRAGMA synchronous = FULL')
      for (const s of SCHEMA) db.exec(s)
      this.#add = db.prepare(ADD)
      this.#purge = db.prepare('DELETE FROM ekl_replay WHERE expires_at <= ?')
      this.#read = db.prepare('SELECT at, until FROM ekl_replay_restore WHERE id = 1')
      this.#record = db.prepare(RECORD)
    } catch (e) {
      if (this.#owned) db.close()
      throw new EklError('REPLAY_STORE_UNAVAILABLE', 'cannot prepare the SQLite replay store', { cause: e })
    }
    this.#db = db
  }

  add(key, expiresAt, now) {
    if (this.#purgedAt === null || now - this.#purgedAt >= 60_000 || now < this.#purgedAt) {
      this.#purge.run(now)
      this.#purgedAt = now
    }
    return Number(this.#add.run(key, expiresAt, now).changes) === 1
  }

  restoreMoment(now) {
    const row = this.#read.get()
    return row !== undefined && row !== null && Number(row.until) > now ? Number(row.at) : null
  }

  recordRestore(at, until, now) {
    this.#record.run(at, until, now, now)
  }

  /** Closes the database when this store opened it from a path. */
  close() {
    if (this.#owned && this.#db.open !== false) this.#db.close()
  }
}

/**
 * Consumed jti in Redis: shared by every replica that uses the same server. add is one command,
 * SET prefix+key 1 NX PX ttl (set if absent, with its expiry, in one step: Redis drops the key at
 * exp + skew). The restore moment is the key prefix + 'restore'. For durability across a Redis
 * restart, run Redis with appendonly yes and appendfsync always.
 */
class RedisStore {
  #send
  #timeoutMs

  /**
   * @param client a client of the `redis` package (node-redis: sendCommand), of `ioredis` (call),
   *   or a function taking a command as an array of strings and returning a promise of its reply
   * @param options prefix: the key prefix (default 'ekl:replay:'); timeoutMs: how long one command
   *   may take before REPLAY_STORE_UNAVAILABLE, an integer in [1, 600000] (default 5000)
   */
  constructor(client, options) {
    const o = ownOptions('RedisStore', options, ['prefix', 'timeoutMs'])
    if (typeof client === 'function') this.#send = (args) => client(args)
    else if (client !== null && typeof client === 'object' && typeof client.call === 'function') this.#send = (args) => client.call(...args)
    else if (client !== null && typeof client === 'object' && typeof client.sendCommand === 'function') this.#send = (args) => client.sendCommand(args)
    else throw invalid('RedisStore: client must be a redis (node-redis) or ioredis client, or a function sending a command')
    const prefix = 'prefix' in o ? o.prefix : 'ekl:replay:'
    if (typeof prefix !== 'string') throw invalid('RedisStore: prefix must be a string')
    const timeoutMs = 'timeoutMs' in o ? o.timeoutMs : 5000
    if (typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 600_000) throw invalid('RedisStore: timeoutMs must be an integer in [1, 600000]')
    this.prefix = prefix
    this.#timeoutMs = timeoutMs
  }

  async #command(args) {
    let timer
    const late = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new EklError('REPLAY_STORE_UNAVAILABLE', `the replay store did not answer within ${this.#timeoutMs} ms`)), this.#timeoutMs)
    })
    try {
      return await Promise.race([Promise.resolve().then(() => this.#send(args)), late])
    } finally {
      clearTimeout(timer)
    }
  }

  async add(key, expiresAt, now) {
    const ttl = expiresAt - now
    if (ttl <= 0) return true // already expired: nothing to keep (the guard never asks this)
    const reply = await this.#command(['SET', this.prefix + key, '1', 'NX', 'PX', String(ttl)])
    return reply !== null && reply !== undefined && String(reply) === 'OK'
  }

  async restoreMoment(_now) {
    const value = await this.#command(['GET', this.prefix + 'restore'])
    return value === null || value === undefined ? null : Number(String(value))
  }

  async recordRestore(at, until, now) {
    const current = await this.restoreMoment(now)
    if (current !== null && current >= at) return
    const ttl = until - now
    if (ttl > 0) await this.#command(['SET', this.prefix + 'restore', String(at), 'PX', String(ttl)])
  }
}

module.exports = {
  ReplayGuard,
  MemoryStore,
  SqliteStore,
  RedisStore,
  replayKey,
  SKEW,
  ASSERTION_MAX_LIFETIME,
  PLATFORM_CALL_MAX_LIFETIME,
  RESTORE_WINDOW,
}
