//! The replay guard's rules (PROTOCOL §9.2, §3, §4), once, without I/O (docs/decisions.md#replay-guard).
//!
//! A relationship assertion is single use: the provider "consumes `jti` atomically in shared
//! durable state keyed (issuer, token_endpoint, jti) and kept through `exp` + skew, across
//! restarts and replicas; a reuse is `ASSERTION_REPLAY`" (§9.2); the platform call credential is
//! single use too (§3). The core keeps no state and reads no clock: this module decides, and a
//! host's store (a map in memory, an SQLite file, a Redis server) does what it says. A consumption
//! is three steps, the same on every surface:
//!
//! 1. [`admit`]: the credential and the host's clock (`now_ms`, integer milliseconds) in; the
//!    times checked (`TOKEN_EXPIRED`, `TOKEN_NOT_YET_VALID`, `LIFETIME_TOO_LONG`,
//!    `INVALID_ARGUMENT`) and an [`Admission`] out: the store key ([`key`]), until when the store
//!    keeps it, the `now` the store is given, and the latest restore moment that still lets it in;
//! 2. the host reads the store's restore moment at `now_ms` and hands it to [`answer`] (a moment
//!    later than [`Admission::restored_after_ms`] refuses with the kind's replay code, before
//!    anything is consumed);
//! 3. the host asks the store to add the key and hands the answer to [`answer`] (`false`: the
//!    kind's replay code).
//!
//! What a store must do (the memory store of each host, [`SQLITE_ADD`] and its statements,
//! [`REDIS_ADD`]): add a key atomically unless it holds it unexpired; forget an entry by its own
//! expiry against the **latest** time the store has seen (a high-water mark kept in the store),
//! never by one call's clock, and refuse to add an entry already expired at that mark. So a call
//! with a far-future `now`, or a clock stepped forward and back, cannot revive a consumed `jti`:
//! an entry the store forgot is one that expired at a time the store saw, and a credential that
//! expired at that time is refused too (fail closed until the clock catches up). One `now` moves
//! the mark at most [`MARK_STEP_MS`] past the previous call's `now` ([`raise_mark`]), so a single
//! far-future `now` cannot lock a store. The way back from a mark a wrong clock moved is a reset
//! (the guard's `reset_mark` / `resetMark`; [`SQLITE_RESET_MARK`], [`REDIS_RESET`]): the mark and
//! the previous `now` set to the caller's `now`, then a restore recorded at that `now`
//! ([`restore`]): the entries the wrong mark purged are lost state, as after a restore from an
//! older backup, and the restore rule refuses every credential that may have been among them.
//! Redis (issue 41) keeps
//! the same mark and entries in one script ([`REDIS_ADD_SCRIPT`]): no clock, neither a caller's
//! nor the server's, shortens an entry, so replicas whose clocks differ never accept a `jti` twice.
//!
//! [`constants`] is everything a host needs besides (bounds, defaults, the SQL and the Redis
//! commands), written into the registry's manifest so that no host restates it.

use crate::canonical;
use crate::digest::sha256_hex;
use crate::error::{Error, ErrorCode, Result};
use crate::jws::MAX_TIME;
use crate::value::Value;

/// The clock skew EKP allows (§9.2), seconds, the default of a guard: an entry is kept until
/// `exp` + skew.
pub const DEFAULT_SKEW: i64 = 60;
/// The largest skew a guard takes, seconds.
pub const MAX_SKEW: i64 = 300;
/// The longest a relationship assertion may live (`exp - iat`, §9.1), seconds.
pub const ASSERTION_MAX_LIFETIME: i64 = 120;
/// The longest a platform call credential may live (§3), seconds.
pub const PLATFORM_CALL_MAX_LIFETIME: i64 = 60;
/// The version tag that opens every key's array.
pub const KEY_VERSION: &str = "ekl-replay-1";
/// A `now` of this many seconds or more is milliseconds given as seconds (10^11 s is the year
/// 5138): refused, as on every surface.
pub use crate::limits::MILLISECONDS_FROM;
/// How often, at most, a store deletes its expired entries in bulk (SQLite), milliseconds.
pub const PURGE_EVERY_MS: i64 = 60_000;
/// The default bound on a memory store's unexpired entries.
pub const MEMORY_MAX_ENTRIES: i64 = 100_000;
/// The largest bound a memory store takes.
pub const MEMORY_MAX_ENTRIES_LIMIT: i64 = 100_000_000;
/// How far past the previous call's `now` one `now` may move a store's high-water mark,
/// milliseconds (the default skew: replicas whose clocks agree within it never reach the bound).
/// A `now` further ahead is time that passed without a consumption (the mark catches up at the
/// next call) or a clock beyond the skew: either way the mark lags, which only keeps entries
/// longer and refuses less ([`raise_mark`]).
pub const MARK_STEP_MS: i64 = 60_000;
/// The default deadline of one store call (SQLite's busy timeout, one Redis command), ms.
pub const STORE_TIMEOUT_MS: i64 = 5_000;
/// The longest deadline a store takes, milliseconds.
pub const STORE_TIMEOUT_MS_LIMIT: i64 = 600_000;

/// The SQLite schema, run at each open (idempotent): the consumed keys, the restore moment and
/// the latest time seen (the high-water mark entries expire against).
pub const SQLITE_SCHEMA: [&str; 5] = [
    "CREATE TABLE IF NOT EXISTS ekl_replay (key TEXT PRIMARY KEY, expires_at INTEGER NOT NULL) WITHOUT ROWID",
    "CREATE INDEX IF NOT EXISTS ekl_replay_expires ON ekl_replay (expires_at)",
    "CREATE TABLE IF NOT EXISTS ekl_replay_restore (id INTEGER PRIMARY KEY CHECK (id = 1), at INTEGER NOT NULL, until INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS ekl_replay_seen (id INTEGER PRIMARY KEY CHECK (id = 1), at INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS ekl_replay_last (id INTEGER PRIMARY KEY CHECK (id = 1), at INTEGER NOT NULL)",
];
/// The SQLite settings run at each open: a consumed `jti` survives a crash once `add` returned.
pub const SQLITE_PRAGMAS: [&str; 2] = ["PRAGMA journal_mode = WAL", "PRAGMA synchronous = FULL"];
/// Raises the high-water mark as [`raise_mark`] does (parameters: `now`), first in every `add`:
/// to `now` on a fresh file, else to at most [`MARK_STEP_MS`] past the previous `now`
/// ([`SQLITE_LAST`]; the mark itself when a file written before issue 41 has none).
pub const SQLITE_SEE: &str = "INSERT INTO ekl_replay_seen (id, at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET at = max(ekl_replay_seen.at, min(excluded.at, coalesce((SELECT at FROM ekl_replay_last WHERE id = 1), ekl_replay_seen.at) + 60000))";
/// Records the call's `now` as the previous `now` of the next call (parameters: `now`), right
/// after [`SQLITE_SEE`].
pub const SQLITE_LAST: &str = "INSERT INTO ekl_replay_last (id, at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET at = excluded.at";
/// Sets the high-water mark to `now` (parameters: `now`): the store half of a reset
/// (module documentation); [`SQLITE_RESET_LAST`] follows.
pub const SQLITE_RESET_MARK: &str = "INSERT INTO ekl_replay_seen (id, at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET at = excluded.at";
/// Sets the previous `now` to `now` (parameters: `now`), with [`SQLITE_RESET_MARK`].
pub const SQLITE_RESET_LAST: &str = SQLITE_LAST;
/// One atomic statement (parameters: `key`, `expires_at`, `expires_at`, `now`, `now`): inserts
/// the key, or takes over its entry expired at the high-water mark, or changes nothing (a reuse,
/// or an entry already expired at the mark): one change means consumed.
pub const SQLITE_ADD: &str = "INSERT INTO ekl_replay (key, expires_at) SELECT ?, ? WHERE ? > coalesce((SELECT at FROM ekl_replay_seen WHERE id = 1), ?) ON CONFLICT (key) DO UPDATE SET expires_at = excluded.expires_at WHERE ekl_replay.expires_at <= coalesce((SELECT at FROM ekl_replay_seen WHERE id = 1), ?)";
/// Deletes the entries expired at the high-water mark (no parameter), at most every
/// [`PURGE_EVERY_MS`] of the mark.
pub const SQLITE_PURGE: &str =
    "DELETE FROM ekl_replay WHERE expires_at <= (SELECT at FROM ekl_replay_seen WHERE id = 1)";
/// The restore moment kept at `now` (parameters: `now`): one row with `at`, or none.
pub const SQLITE_RESTORE_READ: &str =
    "SELECT at FROM ekl_replay_restore WHERE id = 1 AND until > ?";
/// Records a restore (parameters: `at`, `until`, `now`, `now`): the latest moment wins while
/// one is kept; an expired one is replaced.
pub const SQLITE_RESTORE_RECORD: &str = "INSERT INTO ekl_replay_restore (id, at, until) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET at = CASE WHEN ekl_replay_restore.until <= ? THEN excluded.at ELSE max(ekl_replay_restore.at, excluded.at) END, until = CASE WHEN ekl_replay_restore.until <= ? THEN excluded.until ELSE max(ekl_replay_restore.until, excluded.until) END";
/// The script of a Redis `add`, run atomically by the server (`EVAL`): `KEYS[1]` the sorted set
/// of entries (member the key, score `expires_at`), `KEYS[2]` the hash of the high-water mark
/// (`mark`, `last`), `ARGV` the key, `expires_at`, `now` and [`MARK_STEP_MS`]. It raises the mark
/// as [`raise_mark`] does, drops the entries expired at the mark, and adds the key unless it is
/// held or `expires_at` is not after the mark: the reply is the status `OK` (consumed) or nil.
/// Entries leave only by the mark, never by a TTL, so neither a replica's clock (which shortened
/// `PX` before issue 41) nor the server's decides how long a `jti` is kept.
pub const REDIS_ADD_SCRIPT: &str = "local mark = tonumber(redis.call('HGET', KEYS[2], 'mark')) \
local last = tonumber(redis.call('HGET', KEYS[2], 'last')) \
local expires, now = tonumber(ARGV[2]), tonumber(ARGV[3]) \
if mark == nil then mark = now else mark = math.max(mark, math.min(now, (last or mark) + tonumber(ARGV[4]))) end \
redis.call('HSET', KEYS[2], 'mark', string.format('%d', mark), 'last', string.format('%d', now)) \
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', string.format('%d', mark)) \
if expires <= mark or redis.call('ZSCORE', KEYS[1], ARGV[1]) then return false end \
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1]) \
return redis.status_reply('OK')";
/// The Redis command of `add` (`{entries}` and `{clock}` the store's prefix and
/// [`REDIS_ENTRIES_KEY`], [`REDIS_CLOCK_KEY`]; `{key}`, `{expires_at}`, `{now}`): the script
/// [`REDIS_ADD_SCRIPT`]; only the status reply `OK` means consumed.
pub const REDIS_ADD: [&str; 9] = [
    "EVAL",
    REDIS_ADD_SCRIPT,
    "2",
    "{entries}",
    "{clock}",
    "{key}",
    "{expires_at}",
    "{now}",
    "60000",
];
/// The Redis command of a reset (module documentation): the mark and the previous `now` set to `{now}`.
pub const REDIS_RESET: [&str; 6] = ["HSET", "{clock}", "mark", "{now}", "last", "{now}"];
/// The sorted set of entries after the store's prefix (a Redis Cluster needs the prefix to hold
/// a hash tag, `{…}`, so that it and [`REDIS_CLOCK_KEY`] share a slot).
pub const REDIS_ENTRIES_KEY: &str = "entries";
/// The hash of the high-water mark after the store's prefix.
pub const REDIS_CLOCK_KEY: &str = "clock";
/// The Redis command reading the restore moment (`{key}` the prefix and [`REDIS_RESTORE_KEY`]).
pub const REDIS_RESTORE_READ: [&str; 2] = ["GET", "{key}"];
/// The Redis command recording a restore moment `{at}` for `{ttl_ms}` (`until - now`), when no
/// later moment is kept.
pub const REDIS_RESTORE_RECORD: [&str; 5] = ["SET", "{key}", "{at}", "PX", "{ttl_ms}"];
/// The key of the restore moment after the store's prefix (not 64 hex: no replay key is it).
pub const REDIS_RESTORE_KEY: &str = "restore";

/// The rule of a store's high-water mark (issue 41): the mark a store keeps after a call at
/// `now_ms`, given its `mark` and the previous call's `now` (`last`), both `None` on a fresh
/// store. A fresh store takes `now`; after that the mark never goes down and one `now` moves it
/// at most [`MARK_STEP_MS`] past the previous `now`: a single far-future `now` (a wrong clock,
/// up to the year 5138) lags the mark by at most the step instead of locking every later
/// credential, and the next call with the real clock is bounded by that clock. Two consecutive
/// far-future calls still move it (a clock that stays wrong): the guard's `reset_mark` sets the
/// mark back (module documentation). Any mark that
/// never goes down keeps single use (an entry is forgotten only once the mark passed its expiry,
/// and a credential expired at the mark is refused): a lagging mark only keeps entries longer.
pub fn raise_mark(mark: Option<i64>, last: Option<i64>, now_ms: i64) -> i64 {
    match mark {
        None => now_ms,
        Some(m) => m.max(now_ms.min(last.unwrap_or(m).saturating_add(MARK_STEP_MS))),
    }
}

/// A kind of single-use credential.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// The relationship assertion (§9.1, §9.2), keyed (issuer, token endpoint, jti).
    RelationshipAssertion,
    /// The platform call credential (§3, §4), keyed (issuer, audience, jti).
    PlatformCall,
}

impl Kind {
    /// Both kinds.
    pub const ALL: [Kind; 2] = [Kind::RelationshipAssertion, Kind::PlatformCall];

    /// The kind of its name, `relationship_assertion` or `platform_call` (else `INVALID_ARGUMENT`).
    pub fn from_name(name: &str) -> Result<Kind> {
        Kind::ALL
            .into_iter()
            .find(|k| k.as_str() == name)
            .ok_or_else(|| invalid("kind must be relationship_assertion or platform_call"))
    }

    /// Its name in the key.
    pub const fn as_str(self) -> &'static str {
        match self {
            Kind::RelationshipAssertion => "relationship_assertion",
            Kind::PlatformCall => "platform_call",
        }
    }

    /// The longest `exp - iat` of this kind, seconds.
    pub const fn max_lifetime(self) -> i64 {
        match self {
            Kind::RelationshipAssertion => ASSERTION_MAX_LIFETIME,
            Kind::PlatformCall => PLATFORM_CALL_MAX_LIFETIME,
        }
    }

    /// The code of a reuse: `ASSERTION_REPLAY` (§9.2) or `CREDENTIAL_REPLAY`.
    pub const fn replay_code(self) -> ErrorCode {
        match self {
            Kind::RelationshipAssertion => ErrorCode::AssertionReplay,
            Kind::PlatformCall => ErrorCode::CredentialReplay,
        }
    }
}

fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorCode::InvalidArgument, message.into())
}

/// The skew, seconds, when it is in [0, [`MAX_SKEW`]] (else `INVALID_ARGUMENT`).
pub fn check_skew(skew: i64) -> Result<i64> {
    if (0..=MAX_SKEW).contains(&skew) {
        Ok(skew)
    } else {
        Err(invalid(format!("skew must be in [0, {MAX_SKEW}] seconds")))
    }
}

/// Seconds after a detected restore during which old credentials are refused: the assertion's
/// lifetime plus twice the skew (240 with the default skew).
pub fn restore_window(skew: i64) -> Result<i64> {
    Ok(ASSERTION_MAX_LIFETIME + 2 * check_skew(skew)?)
}

/// `now` in milliseconds when it is a time a verifier takes: not negative, and less than
/// [`MILLISECONDS_FROM`] seconds (milliseconds given as seconds). Else `INVALID_ARGUMENT`.
pub fn check_now_ms(now_ms: i64) -> Result<i64> {
    if now_ms < 0 {
        return Err(invalid(
            "now must not be negative (seconds since the epoch)",
        ));
    }
    if now_ms / 1000 >= MILLISECONDS_FROM {
        return Err(invalid(
            "now must be seconds since the epoch, not milliseconds",
        ));
    }
    Ok(now_ms)
}

fn text<'a>(name: &str, value: &'a str) -> Result<&'a str> {
    if value.is_empty() {
        return Err(invalid(format!("{name} must not be empty")));
    }
    Ok(value)
}

/// The store key of a credential: lowercase hex SHA-256 of the ekl-json-1 array
/// `["ekl-replay-1", kind, issuer, audience, jti]` (no separator a value can hold; 64 characters
/// whatever the token). Empty strings are `INVALID_ARGUMENT`.
pub fn key(kind: Kind, issuer: &str, audience: &str, jti: &str) -> Result<String> {
    let parts = [
        KEY_VERSION,
        kind.as_str(),
        text("issuer", issuer)?,
        text("audience", audience)?,
        text("jti", jti)?,
    ];
    let array = Value::Array(parts.iter().map(|p| Value::from(*p)).collect());
    Ok(sha256_hex(&canonical::canonicalize_value(&array)?))
}

/// A verified credential to consume: its kind, key parts and times (whole seconds).
#[derive(Clone, Copy, Debug)]
pub struct Credential<'a> {
    /// Its kind.
    pub kind: Kind,
    /// `iss`.
    pub issuer: &'a str,
    /// The token endpoint (assertion) or the audience (platform call).
    pub audience: &'a str,
    /// `jti`.
    pub jti: &'a str,
    /// `iat`, seconds.
    pub iat: i64,
    /// `exp`, seconds.
    pub exp: i64,
}

/// What the store is asked for one admitted credential.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Admission {
    /// The credential's kind (its replay code).
    pub kind: Kind,
    /// The store key ([`key`]).
    pub key: String,
    /// The `now` the store is given, milliseconds.
    pub now_ms: i64,
    /// Until when the store keeps the key (exclusive): `(exp + skew) × 1000`.
    pub expires_at_ms: i64,
    /// A recorded restore moment (ms) later than this refuses the credential (it was issued
    /// before the restore plus the skew, within the window after it).
    pub restored_after_ms: i64,
}

fn time(name: &str, value: i64) -> Result<i64> {
    if (0..=MAX_TIME).contains(&value) {
        Ok(value)
    } else {
        Err(invalid(format!("{name} must be an integer in [0, 2^53]")))
    }
}

/// Admits a verified credential at `now_ms` (the host's clock, integer milliseconds) with `skew`
/// seconds, or refuses it before the store is touched (so it is not consumed): the key's parts
/// ([`key`]), `iat`/`exp` in [0, 2^53], `now` ([`check_now_ms`]) and the skew
/// ([`check_skew`]) are `INVALID_ARGUMENT`, as is `exp` before `iat`; then `TOKEN_EXPIRED` from
/// `now ≥ exp + skew`, `TOKEN_NOT_YET_VALID` for `iat > now + skew`, `LIFETIME_TOO_LONG` for
/// `exp − iat` over the kind's bound. So no entry is kept longer than 120 s + 2 × skew.
pub fn admit(c: &Credential<'_>, now_ms: i64, skew: i64) -> Result<Admission> {
    let key = key(c.kind, c.issuer, c.audience, c.jti)?;
    let iat = time("iat", c.iat)?;
    let exp = time("exp", c.exp)?;
    let now_ms = check_now_ms(now_ms)?;
    let window = restore_window(skew)?;
    if exp < iat {
        return Err(invalid("exp must not be before iat"));
    }
    // Integers in milliseconds: now_ms is the floor of the host's fractional now, and against
    // whole-second claims each comparison answers as the real time would.
    let expires_at_ms = (exp + skew) * 1000;
    if now_ms >= expires_at_ms {
        return Err(Error::new(
            ErrorCode::TokenExpired,
            "the token expired: nothing to consume",
        ));
    }
    if iat * 1000 > now_ms + skew * 1000 {
        return Err(Error::new(
            ErrorCode::TokenNotYetValid,
            "iat is in the future beyond the skew",
        ));
    }
    let max = c.kind.max_lifetime();
    if exp - iat > max {
        return Err(Error::new(
            ErrorCode::LifetimeTooLong,
            format!("exp - iat exceeds {max} s"),
        ));
    }
    Ok(Admission {
        kind: c.kind,
        key,
        now_ms,
        expires_at_ms,
        restored_after_ms: (now_ms - window * 1000).max((iat - skew) * 1000),
    })
}

/// The store's answers for an [`Admission`]: the restore moment it keeps at `now_ms` (read
/// before the add; `None` when none is kept or not asked yet) and whether it added the key
/// (`None` when not asked yet). A moment later than [`Admission::restored_after_ms`] refuses
/// with the kind's replay code (the credential was issued before the restore plus the skew, and
/// the window is still open); so does an add that changed nothing (a reuse, or an entry that had
/// expired at the latest time the store saw).
pub fn answer(a: &Admission, restore_moment: Option<i64>, added: Option<bool>) -> Result<()> {
    if restore_moment.is_some_and(|m| m > a.restored_after_ms) {
        return Err(Error::new(
            a.kind.replay_code(),
            "issued before a restore from backup: refused for the window after it",
        ));
    }
    if added == Some(false) {
        return Err(Error::new(
            a.kind.replay_code(),
            "this jti was already used (or expired at the latest time the store has seen)",
        ));
    }
    Ok(())
}

/// A restore to record in the store: detected at `at_ms`, kept until `until_ms`, the store's
/// `now_ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Restore {
    /// The moment of detection, milliseconds.
    pub at_ms: i64,
    /// Until when the store keeps it (the window's end), milliseconds.
    pub until_ms: i64,
    /// The `now` the store is given, milliseconds.
    pub now_ms: i64,
    /// The window, seconds ([`restore_window`]).
    pub window: i64,
}

/// The restore detected at `now_ms` (§9.2): for the window after it every credential whose
/// `iat` is earlier than the moment plus the skew is refused, on every replica sharing the store.
/// `now` and the skew are checked as in [`admit`].
pub fn restore(now_ms: i64, skew: i64) -> Result<Restore> {
    let now_ms = check_now_ms(now_ms)?;
    let window = restore_window(skew)?;
    Ok(Restore {
        at_ms: now_ms,
        until_ms: now_ms + window * 1000,
        now_ms,
        window,
    })
}

impl Admission {
    /// The admission as the registry returns it (`ReplayAdmission`).
    pub fn to_value(&self) -> Value<'static> {
        Value::Object(vec![
            ("kind".into(), Value::from(self.kind.as_str())),
            ("key".into(), Value::from(self.key.clone())),
            ("now_ms".into(), Value::Number(self.now_ms as f64)),
            (
                "expires_at_ms".into(),
                Value::Number(self.expires_at_ms as f64),
            ),
            (
                "restored_after_ms".into(),
                Value::Number(self.restored_after_ms as f64),
            ),
        ])
    }

    /// An admission a host hands back (`INVALID_ARGUMENT` for another shape): its members as
    /// [`Admission::to_value`] writes them.
    pub fn from_value(v: &Value<'_>) -> Result<Admission> {
        crate::shape::members(
            v,
            "admission",
            &[
                "kind",
                "key",
                "now_ms",
                "expires_at_ms",
                "restored_after_ms",
            ],
        )?;
        let s = |name: &str| {
            v.get(name)
                .and_then(Value::as_str)
                .ok_or_else(|| invalid(format!("admission.{name} must be a string")))
        };
        let n = |name: &str| {
            v.get(name)
                .and_then(|x| match x {
                    Value::Number(f) if f.fract() == 0.0 && f.abs() <= MAX_TIME as f64 => {
                        Some(*f as i64)
                    }
                    _ => None,
                })
                .ok_or_else(|| invalid(format!("admission.{name} must be an integer")))
        };
        Ok(Admission {
            kind: Kind::from_name(s("kind")?)?,
            key: s("key")?.to_owned(),
            now_ms: n("now_ms")?,
            expires_at_ms: n("expires_at_ms")?,
            restored_after_ms: n("restored_after_ms")?,
        })
    }
}

impl Restore {
    /// The restore as the registry returns it (`ReplayRestore`).
    pub fn to_value(&self) -> Value<'static> {
        Value::Object(vec![
            ("at_ms".into(), Value::Number(self.at_ms as f64)),
            ("until_ms".into(), Value::Number(self.until_ms as f64)),
            ("now_ms".into(), Value::Number(self.now_ms as f64)),
            ("window".into(), Value::Number(self.window as f64)),
        ])
    }
}

fn strs(items: &[&'static str]) -> Value<'static> {
    Value::Array(items.iter().map(|s| Value::from(*s)).collect())
}

fn statement(sql: &'static str, params: &[&'static str]) -> Value<'static> {
    Value::Object(vec![
        ("sql".into(), Value::from(sql)),
        ("params".into(), strs(params)),
    ])
}

/// Everything a host's replay module needs besides the operations, as one JSON object (the
/// manifest's constant `replay`): the defaults and bounds (seconds unless named `_ms`), the
/// SQLite schema and statements with their parameters' names, and the Redis commands.
pub fn constants() -> Value<'static> {
    let n = |x: i64| Value::Number(x as f64);
    let window = ASSERTION_MAX_LIFETIME + 2 * DEFAULT_SKEW;
    Value::Object(vec![
        ("skew".into(), n(DEFAULT_SKEW)),
        ("max_skew".into(), n(MAX_SKEW)),
        ("assertion_max_lifetime".into(), n(ASSERTION_MAX_LIFETIME)),
        (
            "platform_call_max_lifetime".into(),
            n(PLATFORM_CALL_MAX_LIFETIME),
        ),
        ("restore_window".into(), n(window)),
        ("milliseconds_from".into(), n(MILLISECONDS_FROM)),
        ("memory_max_entries".into(), n(MEMORY_MAX_ENTRIES)),
        (
            "memory_max_entries_limit".into(),
            n(MEMORY_MAX_ENTRIES_LIMIT),
        ),
        ("timeout_ms".into(), n(STORE_TIMEOUT_MS)),
        ("timeout_ms_limit".into(), n(STORE_TIMEOUT_MS_LIMIT)),
        ("purge_every_ms".into(), n(PURGE_EVERY_MS)),
        ("mark_step_ms".into(), n(MARK_STEP_MS)),
        (
            "sqlite".into(),
            Value::Object(vec![
                ("schema".into(), strs(&SQLITE_SCHEMA)),
                ("pragmas".into(), strs(&SQLITE_PRAGMAS)),
                ("see".into(), statement(SQLITE_SEE, &["now"])),
                ("last".into(), statement(SQLITE_LAST, &["now"])),
                ("reset_mark".into(), statement(SQLITE_RESET_MARK, &["now"])),
                ("reset_last".into(), statement(SQLITE_RESET_LAST, &["now"])),
                (
                    "add".into(),
                    statement(
                        SQLITE_ADD,
                        &["key", "expires_at", "expires_at", "now", "now"],
                    ),
                ),
                ("purge".into(), statement(SQLITE_PURGE, &[])),
                (
                    "restore_read".into(),
                    statement(SQLITE_RESTORE_READ, &["now"]),
                ),
                (
                    "restore_record".into(),
                    statement(SQLITE_RESTORE_RECORD, &["at", "until", "now", "now"]),
                ),
            ]),
        ),
        (
            "redis".into(),
            Value::Object(vec![
                ("add".into(), strs(&REDIS_ADD)),
                ("reset".into(), strs(&REDIS_RESET)),
                ("entries_key".into(), Value::from(REDIS_ENTRIES_KEY)),
                ("clock_key".into(), Value::from(REDIS_CLOCK_KEY)),
                ("restore_read".into(), strs(&REDIS_RESTORE_READ)),
                ("restore_record".into(), strs(&REDIS_RESTORE_RECORD)),
                ("restore_key".into(), Value::from(REDIS_RESTORE_KEY)),
            ]),
        ),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: i64 = 1_800_000_000;

    fn cred(kind: Kind, jti: &str, iat: i64, exp: i64) -> Credential<'_> {
        Credential {
            kind,
            issuer: "https://network.example",
            audience: "https://provider.example/oauth/token",
            jti,
            iat,
            exp,
        }
    }

    fn code<T>(r: Result<T>) -> Option<ErrorCode> {
        r.err().map(|e| e.code())
    }

    #[test]
    fn the_key_is_the_scenario_files() {
        let k = key(
            Kind::RelationshipAssertion,
            "https://network.example",
            "https://provider.example/oauth/token",
            "j1",
        );
        assert_eq!(
            k.ok().as_deref(),
            Some("ed858f15d92e2804d594635148ee01bf65bb6755011773c09054526d760b4469")
        );
        assert_eq!(
            code(key(Kind::PlatformCall, "", "a", "j")),
            Some(ErrorCode::InvalidArgument)
        );
        assert_eq!(
            code(Kind::from_name("access_token")),
            Some(ErrorCode::InvalidArgument)
        );
    }

    #[test]
    fn admission_refusals() {
        let a = |iat, exp, now_ms, skew| {
            code(admit(
                &cred(Kind::RelationshipAssertion, "j", iat, exp),
                now_ms,
                skew,
            ))
        };
        assert_eq!(a(T, T + 120, T * 1000, 60), None);
        assert_eq!(
            a(T, T + 120, (T + 180) * 1000, 60),
            Some(ErrorCode::TokenExpired)
        );
        assert_eq!(a(T, T + 120, (T + 180) * 1000 - 1, 60), None);
        assert_eq!(
            a(T + 61, T + 181, T * 1000, 60),
            Some(ErrorCode::TokenNotYetValid)
        );
        assert_eq!(a(T + 60, T + 180, T * 1000, 60), None);
        assert_eq!(
            a(T, T + 121, T * 1000, 60),
            Some(ErrorCode::LifetimeTooLong)
        );
        assert_eq!(a(T, T - 1, T * 1000, 60), Some(ErrorCode::InvalidArgument));
        assert_eq!(a(T, T + 120, -1, 60), Some(ErrorCode::InvalidArgument));
        assert_eq!(
            a(T, T + 120, T * 1_000_000, 60),
            Some(ErrorCode::InvalidArgument)
        );
        assert_eq!(
            a(T, T + 120, T * 1000, 301),
            Some(ErrorCode::InvalidArgument)
        );
        assert_eq!(
            a(T, T + 120, T * 1000, -1),
            Some(ErrorCode::InvalidArgument)
        );
        assert_eq!(a(-1, T, T * 1000, 60), Some(ErrorCode::InvalidArgument));
        assert_eq!(
            a(0, MAX_TIME + 1, T * 1000, 60),
            Some(ErrorCode::InvalidArgument)
        );
        let p = admit(&cred(Kind::PlatformCall, "j", T, T + 61), T * 1000, 60);
        assert_eq!(code(p), Some(ErrorCode::LifetimeTooLong));
    }

    #[test]
    fn the_restore_rule() {
        let r = restore(30_000 + T * 1000, 60).expect("a restore");
        assert_eq!((r.until_ms - r.at_ms, r.window), (240_000, 240));
        let at = |iat: i64, now: i64| {
            let a = admit(
                &cred(Kind::RelationshipAssertion, "j", iat, iat + 120),
                now,
                60,
            )
            .expect("admitted");
            code(answer(&a, Some(r.at_ms), None))
        };
        // iat before the moment + skew, within the window: refused
        assert_eq!(
            at(T + 89, (T + 89) * 1000),
            Some(ErrorCode::AssertionReplay)
        );
        assert_eq!(
            at(T + 89, (T + 268) * 1000 + 500),
            Some(ErrorCode::AssertionReplay)
        );
        assert_eq!(at(T + 90, (T + 90) * 1000), None);
        assert_eq!(code(restore(-1, 60)), Some(ErrorCode::InvalidArgument));
    }

    /// A store as the hosts' memory stores are (entries expire against the latest `now` seen;
    /// one expired then is not added), driven with clocks that jump forward, back and far: the
    /// same credential is never accepted twice (fuzz/fuzz_targets/replay.rs does this with
    /// arbitrary inputs).
    #[test]
    fn no_clock_revives_a_credential() {
        use std::collections::{HashMap, HashSet};
        let mut rng = crate::test_rng::SplitMix64(37);
        for _ in 0..200 {
            let mut entries = HashMap::<String, i64>::new();
            let (mut mark, mut last) = (None, None);
            let mut accepted = HashSet::new();
            for _ in 0..60 {
                let jti = ["a", "b", "c"][rng.below(3) as usize];
                let iat = T + rng.below(400) as i64;
                let now_ms = match rng.below(10) {
                    0 => (T + 50_000_000) * 1000,
                    1 => (T - 1000) * 1000,
                    _ => (T + rng.below(500) as i64) * 1000 + rng.below(1000) as i64,
                };
                let c = cred(Kind::RelationshipAssertion, jti, iat, iat + 120);
                let Ok(a) = admit(&c, now_ms, 60) else {
                    continue;
                };
                let seen = raise_mark(mark, last, a.now_ms);
                (mark, last) = (Some(seen), Some(a.now_ms));
                entries.retain(|_, e| *e > seen);
                let added = !entries.contains_key(&a.key) && a.expires_at_ms > seen;
                if added {
                    entries.insert(a.key.clone(), a.expires_at_ms);
                }
                if answer(&a, None, Some(added)).is_ok() {
                    assert!(
                        accepted.insert((a.key.clone(), a.expires_at_ms)),
                        "accepted twice"
                    );
                }
            }
        }
    }

    #[test]
    fn one_now_moves_the_mark_at_most_the_step() {
        let t = T * 1000;
        assert_eq!(raise_mark(None, None, t), t);
        // far ahead of the previous now: the step only; then the real clock takes it back to
        // its own bound (the mark never goes down)
        let far = (MILLISECONDS_FROM - 1) * 1000;
        let m = raise_mark(Some(t), Some(t), far);
        assert_eq!(m, t + MARK_STEP_MS);
        assert_eq!(raise_mark(Some(m), Some(far), t + 1000), t + MARK_STEP_MS);
        // within the step of the previous now: the mark follows now; back in time: unchanged
        assert_eq!(raise_mark(Some(t), Some(t), t + 59_000), t + 59_000);
        assert_eq!(raise_mark(Some(t), Some(t + 59_000), t - 5), t);
        // two consecutive far calls move it (a clock that stays wrong: reset_mark)
        assert_eq!(raise_mark(Some(m), Some(far), far), far);
        // the step is the one the SQL and the Redis command carry
        assert!(SQLITE_SEE.contains(&format!("+ {MARK_STEP_MS})")));
        assert_eq!(REDIS_ADD[8], MARK_STEP_MS.to_string());
        assert!(
            !REDIS_ADD_SCRIPT.contains('\n')
                && REDIS_ADD_SCRIPT.contains("return redis.status_reply('OK')")
        );
    }

    #[test]
    fn an_admission_round_trips_and_a_false_add_is_a_replay() {
        let a = admit(&cred(Kind::PlatformCall, "j", T, T + 60), T * 1000, 60).expect("ok");
        let back = Admission::from_value(&a.to_value()).expect("back");
        assert_eq!(back, a);
        assert_eq!(
            code(answer(&a, None, Some(false))),
            Some(ErrorCode::CredentialReplay)
        );
        assert_eq!(code(answer(&a, None, Some(true))), None);
        let mut v = a.to_value();
        if let Value::Object(m) = &mut v {
            m.push(("extra".into(), Value::Null));
        }
        assert_eq!(
            code(Admission::from_value(&v)),
            Some(ErrorCode::InvalidArgument)
        );
    }
}
