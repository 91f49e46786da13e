'use strict'
// ekl-evidence/replay: single use of signed credentials (PROTOCOL §9.2, §3, §4), for Node only
// (not part of the browser build). A relationship assertion is single use (§9.2: a reuse is
// ASSERTION_REPLAY), and so is the platform call credential (CREDENTIAL_REPLAY). The rules are the
// core's, the same on every surface (ekl_core::replay through the registry's replayAdmit,
// replayAnswer, replayRestore, replayKey; the SQL and Redis commands are the manifest's constant
// `replay`). This module only drives them: the clock and the stores (docs/decisions.md#replay-guard).
// Call a ReplayGuard after the credential verified; a refused credential that is not a reuse is
// not consumed; a store that cannot answer within its deadline is REPLAY_STORE_UNAVAILABLE.
// Stores: MemoryStore (one process, bounded), SqliteStore (durable: node:sqlite or better-sqlite3),
// RedisStore (shared by replicas: the `redis` or `ioredis` client), or any object with add,
// restoreMoment and recordRestore (sync or returning promises). The API is documented in
// replay.d.ts.

const ekl = require('./index.js')
const { ownOptions } = require('./js/convert.js')

const { EklError, replayAdmit, replayAnswer, replayKey, replayRestore } = ekl
/** The manifest's constant `replay` (ekl_core::replay::constants): bounds, SQL, Redis commands. */
const C = ekl[Symbol.for('ekl-core.constants')].replay

/** The clock skew EKP allows (§9.2), seconds: an entry is kept until exp + this. */
const SKEW = C.skew
/** The longest a relationship assertion may live (exp - iat, §9.1), seconds. */
const ASSERTION_MAX_LIFETIME = C.assertion_max_lifetime
/** The longest a platform call credential may live (§3), seconds. */
const PLATFORM_CALL_MAX_LIFETIME = C.platform_call_max_lifetime
/** Seconds after a detected restore during which old credentials are refused (default skew). */
const RESTORE_WINDOW = C.restore_window

const invalid = (why) => new EklError('INVALID_ARGUMENT', why)
const integerIn = (v, lo, hi) => typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi

/**
 * `now` (seconds since the epoch, or a Date) as the core's integer milliseconds. The rules on it
 * (not negative, not milliseconds) are the core's; NaN and ±Infinity have no integer form.
 */
function ms(v) {
  if (v instanceof Date) v = v.getTime() / 1000
  if (typeof v !== 'number' || !Number.isFinite(v)) throw invalid('now must be a finite number of seconds since the epoch (or a Date)')
  return Math.floor(v * 1000)
}

class ReplayGuard {
  #store
  #skew
  #clock
  #window

  constructor(store, options) {
    for (const m of ['add', 'restoreMoment', 'recordRestore']) {
      if (store === null || typeof store !== 'object' || typeof store[m] !== 'function') throw invalid(`ReplayGuard: store must have a method ${m}()`)
    }
    const o = ownOptions('ReplayGuard', options, ['skew', 'clock'])
    if ('clock' in o && typeof o.clock !== 'function') throw invalid('ReplayGuard: clock must be a function')
    this.#skew = 'skew' in o ? o.skew : SKEW
    this.#window = replayRestore(0, { skew: this.#skew }).window // the core checks the skew
    this.#store = store
    this.#clock = o.clock ?? (() => Date.now() / 1000)
  }

  get restoreWindow() {
    return this.#window
  }

  async consumeAssertion(issuer, tokenEndpoint, jti, times) {
    return this.#consume('relationship_assertion', 'consumeAssertion', issuer, tokenEndpoint, jti, times)
  }

  async consumePlatformCall(issuer, audience, jti, times) {
    return this.#consume('platform_call', 'consumePlatformCall', issuer, audience, jti, times)
  }

  async recordRestore(options) {
    const o = ownOptions('recordRestore', options, ['now'])
    const r = replayRestore(ms('now' in o ? o.now : this.#clock()), { skew: this.#skew })
    await this.#call(() => this.#store.recordRestore(r.at_ms, r.until_ms, r.now_ms))
  }

  async resetMark(options) {
    const o = ownOptions('resetMark', options, ['now'])
    if (typeof this.#store.resetMark !== 'function') throw invalid('resetMark: the store has no method resetMark()')
    const r = replayRestore(ms('now' in o ? o.now : this.#clock()), { skew: this.#skew })
    await this.#call(() => this.#store.resetMark(r.now_ms))
    await this.#call(() => this.#store.recordRestore(r.at_ms, r.until_ms, r.now_ms))
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

  // The core's machine: admitted (or refused), the store's restore moment, its add; each judged.
  async #consume(kind, fn, issuer, audience, jti, times) {
    const o = ownOptions(fn, times, ['iat', 'exp', 'now'])
    const a = replayAdmit(kind, issuer, audience, jti, o.iat, o.exp, ms('now' in o ? o.now : this.#clock()), { skew: this.#skew })
    replayAnswer(a, { restoreMoment: (await this.#call(() => this.#store.restoreMoment(a.now_ms))) ?? undefined })
    replayAnswer(a, { added: Boolean(await this.#call(() => this.#store.add(a.key, a.expires_at_ms, a.now_ms))) })
  }
}

/** A binary min-heap of [expiresAt, key]. */
class Expiries {
  a = []
  push(item) {
    const a = this.a
    a.push(item)
    for (let i = a.length - 1, p; i > 0 && a[(p = (i - 1) >> 1)][0] > a[i][0]; i = p) [a[p], a[i]] = [a[i], a[p]]
  }
  pop() {
    const a = this.a
    const top = a[0]
    const last = a.pop()
    if (a.length === 0) return top
    a[0] = last
    for (let i = 0; ;) {
      let m = i
      for (const c of [2 * i + 1, 2 * i + 2]) if (c < a.length && a[c][0] < a[m][0]) m = c
      if (m === i) return top
      ;[a[m], a[i]] = [a[i], a[m]]
      i = m
    }
  }
}

/**
 * Consumed jti in this process's memory (lost at exit), at most maxEntries unexpired ones (default
 * 100 000, about 25 MB): past it a new credential is REPLAY_STORE_FULL and not consumed (an
 * unexpired jti is never evicted). Entries expired at the high-water mark (the latest `now` seen, one
 * `now` moving it at most mark_step_ms past the previous one: the core's rule) are purged on every add.
 */
class MemoryStore {
  #entries = new Map()
  #expiries = new Expiries()
  #seen = null // the high-water mark (ekl_core::replay::raise_mark)
  #last = null // the previous now given to add
  #restore = null

  constructor(options) {
    const o = ownOptions('MemoryStore', options, ['maxEntries'])
    const max = 'maxEntries' in o ? o.maxEntries : C.memory_max_entries
    if (!integerIn(max, 1, C.memory_max_entries_limit)) throw invalid(`MemoryStore: maxEntries must be an integer in [1, ${C.memory_max_entries_limit}]`)
    this.maxEntries = max
  }

  get size() {
    return this.#entries.size
  }

  add(key, expiresAt, now) {
    const seen = this.#seen === null || this.#last === null ? now : Math.max(this.#seen, Math.min(now, this.#last + C.mark_step_ms))
    this.#seen = seen
    this.#last = now
    while (this.#expiries.a.length > 0 && this.#expiries.a[0][0] <= seen) {
      const [expires, k] = this.#expiries.pop()
      if (this.#entries.get(k) === expires) this.#entries.delete(k)
    }
    if (this.#entries.has(key) || expiresAt <= seen) return false
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

  resetMark(now) {
    this.#seen = this.#last = now
  }
}

/**
 * Consumed jti in an SQLite database: durable, shared by the processes (Node or Python) that open
 * the file. The core's schema and statements (the manifest's replay.sqlite: WAL, synchronous=FULL,
 * one atomic statement per add); the busy timeout is each call's deadline.
 */
class SqliteStore {
  #db
  #owned
  #closed = false
  #statements = {}
  #purgedAt = null

  constructor(database, options) {
    const o = ownOptions('SqliteStore', options, ['timeoutMs'])
    const timeoutMs = 'timeoutMs' in o ? o.timeoutMs : C.timeout_ms
    if (!integerIn(timeoutMs, 0, C.timeout_ms_limit)) throw invalid(`SqliteStore: timeoutMs must be an integer in [0, ${C.timeout_ms_limit}]`)
    let db = database
    this.#owned = typeof database === 'string'
    if (this.#owned) {
      const open = sqliteOpener()
      if (open === null) {
        throw invalid('SqliteStore: a path needs node:sqlite (Node >= 22.5; 22.5 to 22.12 with --experimental-sqlite) or the optional dependency better-sqlite3 (npm install better-sqlite3@12), or pass an open database')
      }
      try {
        db = open(database, timeoutMs)
      } catch (e) {
        throw new EklError('REPLAY_STORE_UNAVAILABLE', 'cannot open the SQLite replay store', { cause: e })
      }
    } else if (db === null || typeof db !== 'object' || typeof db.exec !== 'function' || typeof db.prepare !== 'function') {
      throw invalid('SqliteStore: database must be a path or an open database (better-sqlite3, node:sqlite)')
    }
    try {
      for (const s of [`PRAGMA busy_timeout = ${timeoutMs}`, ...C.sqlite.pragmas, ...C.sqlite.schema]) db.exec(s)
      for (const name of ['see', 'last', 'add', 'purge', 'restore_read', 'restore_record', 'reset_mark', 'reset_last']) {
        const { sql, params } = C.sqlite[name]
        const statement = db.prepare(sql)
        this.#statements[name] = (how, values) => statement[how](...params.map((p) => values[p]))
      }
    } catch (e) {
      if (this.#owned) db.close()
      throw new EklError('REPLAY_STORE_UNAVAILABLE', 'cannot prepare the SQLite replay store', { cause: e })
    }
    this.#db = db
  }

  add(key, expiresAt, now) {
    const s = this.#statements
    s.see('run', { now })
    s.last('run', { now })
    if (this.#purgedAt === null || !(now - this.#purgedAt >= 0 && now - this.#purgedAt < C.purge_every_ms)) {
      s.purge('run', {})
      this.#purgedAt = now
    }
    return Number(s.add('run', { key, expires_at: expiresAt, now }).changes) === 1
  }

  restoreMoment(now) {
    const row = this.#statements.restore_read('get', { now })
    return row === undefined || row === null ? null : Number(row.at)
  }

  recordRestore(at, until, now) {
    this.#statements.restore_record('run', { at, until, now })
  }

  resetMark(now) {
    this.#statements.reset_mark('run', { now })
    this.#statements.reset_last('run', { now })
  }

  close() {
    if (this.#owned && !this.#closed) {
      this.#closed = true
      this.#db.close()
    }
  }
}

/**
 * How SqliteStore opens a path: Node's own node:sqlite when this Node has it (>= 22.5, or 22.5 to
 * 22.12 with --experimental-sqlite: no install, no native build), else the optional dependency
 * better-sqlite3; null when neither loads (docs/decisions/node.md#sqlite-path). The busy timeout
 * is set by the store's PRAGMA on either.
 * @returns {((path: string, timeoutMs: number) => any) | null}
 */
function sqliteOpener() {
  try {
    const { DatabaseSync } = require('node:sqlite')
    if (typeof DatabaseSync === 'function') return (file) => new DatabaseSync(file)
  } catch {
    // not in this Node (ERR_UNKNOWN_BUILTIN_MODULE): better-sqlite3
  }
  try {
    const Database = require('better-sqlite3')
    return (file, timeoutMs) => new Database(file, { timeout: timeoutMs })
  } catch {
    return null
  }
}

/**
 * Consumed jti in Redis, shared by replicas: the core's commands (the manifest's replay.redis: one
 * script per add, EVAL, keeping the entries in the sorted set prefix+"entries" and the high-water
 * mark in the hash prefix+"clock", so that no clock shortens an entry; a Redis Cluster needs a hash
 * tag in the prefix), each within timeoutMs. Only the status reply OK counts as added. Durable
 * across a crash with appendonly yes and appendfsync always.
 */
class RedisStore {
  #send
  #timeoutMs

  constructor(client, options) {
    const o = ownOptions('RedisStore', options, ['prefix', 'timeoutMs'])
    if (typeof client === 'function') this.#send = (args) => client(args)
    else if (client !== null && typeof client === 'object' && typeof client.call === 'function') this.#send = (args) => client.call(...args)
    else if (client !== null && typeof client === 'object' && typeof client.sendCommand === 'function') this.#send = (args) => client.sendCommand(args)
    else throw invalid('RedisStore: client must be a redis (node-redis) or ioredis client, or a function sending a command')
    const prefix = 'prefix' in o ? o.prefix : 'ekl:replay:'
    if (typeof prefix !== 'string') throw invalid('RedisStore: prefix must be a string')
    const timeoutMs = 'timeoutMs' in o ? o.timeoutMs : C.timeout_ms
    if (!integerIn(timeoutMs, 1, C.timeout_ms_limit)) throw invalid(`RedisStore: timeoutMs must be an integer in [1, ${C.timeout_ms_limit}]`)
    this.prefix = prefix
    this.#timeoutMs = timeoutMs
  }

  async #command(command, values) {
    const args = command.map((part) => (part.startsWith('{') ? String(values[part.slice(1, -1)]) : part))
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
    const reply = await this.#command(C.redis.add, {
      entries: this.prefix + C.redis.entries_key,
      clock: this.prefix + C.redis.clock_key,
      key,
      expires_at: expiresAt,
      now,
    })
    // Exactly the status OK (a string, or the bytes of one): not an array or anything else.
    return reply === 'OK' || (Buffer.isBuffer(reply) && reply.toString('latin1') === 'OK')
  }

  async resetMark(now) {
    await this.#command(C.redis.reset, { clock: this.prefix + C.redis.clock_key, now })
  }

  async restoreMoment(_now) {
    const value = await this.#command(C.redis.restore_read, { key: this.prefix + C.redis.restore_key })
    return value === null || value === undefined ? null : Number(String(value))
  }

  async recordRestore(at, until, now) {
    const current = await this.restoreMoment(now)
    if ((current === null || current < at) && until > now) {
      await this.#command(C.redis.restore_record, { key: this.prefix + C.redis.restore_key, at, ttl_ms: until - now })
    }
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
