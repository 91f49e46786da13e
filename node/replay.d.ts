// Declarations of ekl-evidence/replay (replay.js): single use of signed credentials (PROTOCOL §9.2,
// §3, §4), Node only. docs/decisions.md#replay-guard.

/** The clock skew EKP allows (§9.2), seconds: an entry is kept until exp + this. */
export declare const SKEW: 60
/** The longest a relationship assertion may live (exp - iat, §9.1), seconds. */
export declare const ASSERTION_MAX_LIFETIME: 120
/** The longest a platform call credential may live (§3), seconds. */
export declare const PLATFORM_CALL_MAX_LIFETIME: 60
/** Seconds after a detected restore during which old credentials are refused (default skew). */
export declare const RESTORE_WINDOW: 240

/** The kinds of single-use credential. */
export type ReplayKind = 'relationship_assertion' | 'platform_call'

/**
 * What a store does for a ReplayGuard (times are integer milliseconds; the contract of
 * ekl_core::replay). `add` must be atomic: of concurrent calls for one key, at most one returns
 * true while an earlier entry is unexpired; an entry expires against the latest `now` the store
 * was given (not one call's), and one already expired then is not added.
 */
export interface ReplayStore {
  /** Records `key` until `expiresAt` (exclusive) and returns true, unless it is recorded and unexpired or `expiresAt` is not after the latest `now` seen (then false). */
  add(key: string, expiresAt: number, now: number): boolean | Promise<boolean>
  /** The latest restore moment recorded and still kept at `now`, or null. */
  restoreMoment(now: number): number | null | Promise<number | null>
  /** Records a restore detected at `at`, kept until `until`; a later moment already recorded stays. */
  recordRestore(at: number, until: number, now: number): void | Promise<void>
  /** Sets the high-water mark (and the previous `now`) to `now`: for ReplayGuard.resetMark only (optional). */
  resetMark?(now: number): void | Promise<void>
}

/** The times of a credential, seconds since the epoch (its verified `iat` and `exp` claims). */
export interface CredentialTimes {
  /** `iat`, an integer */
  iat: number
  /** `exp`, an integer */
  exp: number
  /** the time to check against: seconds, not negative, finite (milliseconds refused), or a Date (default: the guard's clock) */
  now?: number | Date
}

/**
 * The store key of a credential: lowercase hex SHA-256 of the ekl-json-1 array
 * ["ekl-replay-1", kind, issuer, audience, jti] (the same key as the Python package's).
 */
export declare function replayKey(kind: ReplayKind, issuer: string, audience: string, jti: string): string

/**
 * Consumes single-use credentials in a store, after they verified. A reuse rejects with
 * `ASSERTION_REPLAY` (relationship assertion) or `CREDENTIAL_REPLAY` (platform call credential);
 * a credential already expired, issued in the future or living longer than its type allows is
 * rejected (`TOKEN_EXPIRED`, `TOKEN_NOT_YET_VALID`, `LIFETIME_TOO_LONG`) and not consumed; a store
 * that cannot answer is `REPLAY_STORE_UNAVAILABLE`, a full MemoryStore `REPLAY_STORE_FULL`.
 */
export declare class ReplayGuard {
  constructor(store: ReplayStore, options?: {
    /** the clock skew, an integer in [0, 300] seconds (default 60); the same on every replica */
    skew?: number
    /** seconds since the epoch (default Date.now() / 1000) */
    clock?: () => number
  })
  /** Seconds after a detected restore during which old credentials are refused: 120 + 2 × skew. */
  readonly restoreWindow: number
  /** Consumes a verified relationship assertion (§9.2), keyed (issuer, tokenEndpoint, jti). */
  consumeAssertion(issuer: string, tokenEndpoint: string, jti: string, times: CredentialTimes): Promise<void>
  /** Consumes a verified platform call credential (§3, §4), keyed (issuer, audience, jti). */
  consumePlatformCall(issuer: string, audience: string, jti: string, times: CredentialTimes): Promise<void>
  /**
   * Records a restore from an older backup detected at `now`: for `restoreWindow` seconds every
   * credential whose iat is earlier than now + skew is refused, on every guard sharing the store.
   */
  recordRestore(options?: { now?: number | Date }): Promise<void>
  /**
   * Resets the store's high-water mark to `now` after a wrong clock moved it ahead, and records a
   * restore at `now` (the entries the wrong mark purged are lost): for `restoreWindow` seconds
   * every credential issued before now + skew is refused. `INVALID_ARGUMENT` when the store has
   * no resetMark.
   */
  resetMark(options?: { now?: number | Date }): Promise<void>
}

/**
 * Consumed jti in this process's memory, at most `maxEntries` unexpired ones (default 100000);
 * entries expired at the high-water mark (the latest `now` seen, one `now` moving it at most 60 s
 * past the previous one) are purged on every add; past the bound a new
 * credential is `REPLAY_STORE_FULL`.
 */
export declare class MemoryStore implements ReplayStore {
  constructor(options?: {
    /** the most unexpired entries held, an integer in [1, 100000000] (default 100000) */
    maxEntries?: number
  })
  readonly maxEntries: number
  /** The entries held (expired ones not yet purged included). */
  readonly size: number
  add(key: string, expiresAt: number, now: number): boolean
  restoreMoment(now: number): number | null
  recordRestore(at: number, until: number, now: number): void
  resetMark(now: number): void
}

/** The part of a synchronous SQLite handle the store uses (better-sqlite3, node:sqlite). */
export interface SqliteDatabase {
  exec(sql: string): unknown
  prepare(sql: string): {
    run(...params: Array<string | number>): { changes: number | bigint }
    get(...params: Array<string | number>): unknown
  }
  close(): unknown
}

/** Consumed jti in an SQLite database: durable across restarts (the same table as the Python package's). */
export declare class SqliteStore implements ReplayStore {
  /**
   * @param database an open database (better-sqlite3, node:sqlite), or a path opened with
   *   node:sqlite where this Node has it (>= 22.5), else with the optional dependency better-sqlite3
   */
  constructor(database: string | SqliteDatabase, options?: {
    /** the busy timeout, an integer in [0, 600000] ms (default 5000) */
    timeoutMs?: number
  })
  add(key: string, expiresAt: number, now: number): boolean
  restoreMoment(now: number): number | null
  recordRestore(at: number, until: number, now: number): void
  resetMark(now: number): void
  /** Closes the database when this store opened it from a path. */
  close(): void
}

/** A Redis client the store can send commands with. */
export type RedisCommandSender =
  | { sendCommand(args: string[]): Promise<unknown> }
  | { call(command: string, ...args: string[]): Promise<unknown> }
  | ((args: string[]) => Promise<unknown>)

/**
 * Consumed jti in Redis, shared by replicas: one script per credential (EVAL) keeping the entries
 * and the high-water mark in Redis, so that no clock shortens an entry; only the reply OK is an add.
 */
export declare class RedisStore implements ReplayStore {
  /** @param client a `redis` (node-redis) or `ioredis` client, or a function sending a command */
  constructor(client: RedisCommandSender, options?: {
    /** the key prefix (default 'ekl:replay:') */
    prefix?: string
    /** how long one command may take, an integer in [1, 600000] ms (default 5000) */
    timeoutMs?: number
  })
  readonly prefix: string
  add(key: string, expiresAt: number, now: number): Promise<boolean>
  restoreMoment(now: number): Promise<number | null>
  recordRestore(at: number, until: number, now: number): Promise<void>
  resetMark(now: number): Promise<void>
}
