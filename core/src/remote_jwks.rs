//! The cache policy of a network's key set fetched over HTTP(S), as a sans-I/O state machine
//! (PROTOCOL §3: "verified against {network}/.well-known/jwks.json"; §9.5.1: "fetched again for
//! an unknown kid"; docs/decisions.md#remote-jwks).
//!
//! The hosts' `RemoteJwks` (Python's `http.client`, JS `fetch`) only do the I/O: the request,
//! the deadline, the reading of the body, threads or promises. Every rule is here, written once:
//! the options' bounds, the URL rules (http(s) only, no user name or password), the freshness of
//! a fetched set (`Cache-Control: max-age`, `no-store`/`no-cache`, clamped to [cooldown, 1 day]),
//! the cooldown after a failure, the staleness bound, the refetch for an unknown `kid` (at most
//! once per cooldown), the redirect rules (same origin only, never https to http, at most
//! [`MAX_REDIRECTS`]), the body's bound and its reading by the core's strict JSON reader (strict
//! UTF-8, one leading byte-order mark skipped, a duplicate member `DUPLICATE_KEY`, depth and size
//! bounded), and every message a caller sees.
//!
//! No clock, no I/O: time is an argument (the host's monotonic clock, in seconds, any finite
//! number), events go in ([`State::need`], [`State::kid`], [`State::response`], [`State::body`],
//! [`State::fetched`], [`State::failed`], …) and decisions come out ([`Decision`], [`Hop`]).
//! The state, the last good key set with it, lives in one object that the hosts hold as a handle
//! (the registry's `RemoteJwksPolicy`, docs/decisions/handles.md): it never crosses the boundary
//! as a value, so nothing here re-reads a state a caller could have forged.

use crate::jwk::Jwks;
use crate::{canonical, jws, Error, ErrorCode, Result, Value};

/// One day in seconds: the longest a fetched set is fresh, the bound of `cooldown` and
/// `default_max_age`.
pub const ONE_DAY: f64 = 86_400.0;
/// The most same-origin redirects followed in one fetch.
pub const MAX_REDIRECTS: u32 = 5;
/// The statuses followed as redirects (with a `Location`).
pub const REDIRECT_STATUSES: [u16; 5] = [301, 302, 303, 307, 308];
/// The largest `max_bytes` (64 MiB, the core's bound on JSON text).
pub const MAX_BODY_BYTES: u64 = crate::limits::MAX_INPUT_BYTES as u64;

/// An option's default and bounds: (wire name, default, low, high, low excluded).
const TIMEOUT: (&str, f64, f64, f64, bool) = ("timeout", 5.0, 0.0, 600.0, true);
const TIMEOUT_MS: (&str, f64, f64, f64, bool) = ("timeout_ms", 5000.0, 0.0, 600_000.0, true);
const COOLDOWN: (&str, f64, f64, f64, bool) = ("cooldown", 30.0, 0.0, ONE_DAY, false);
const DEFAULT_MAX_AGE: (&str, f64, f64, f64, bool) =
    ("default_max_age", 300.0, 0.0, ONE_DAY, false);
const MAX_STALE: (&str, f64, f64, f64, bool) = ("max_stale", ONE_DAY, 0.0, 365.0 * ONE_DAY, false);
/// `max_bytes` by default: 1 MiB.
pub const DEFAULT_MAX_BYTES: u64 = 1 << 20;

fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorCode::InvalidArgument, message)
}

fn unavailable(message: impl Into<String>) -> Error {
    Error::new(ErrorCode::JwksUnavailable, message)
}

fn unknown_kid(message: impl Into<String>) -> Error {
    Error::new(ErrorCode::UnknownKid, message)
}

/// A URL as the host's URL parser read it (WHATWG `URL` in JS, `urllib.parse` in Python): the
/// scheme without `:`, the host as the request connects to it (lowercase, an international name
/// in its ASCII form), the port when one is written, and whether it holds a user name or password.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UrlParts {
    /// `http` or `https` (any other is refused), compared without case.
    pub scheme: String,
    /// The host; empty is refused.
    pub host: String,
    /// The port written in the URL, if any (else the scheme's).
    pub port: Option<u16>,
    /// Whether the URL holds a user name or a password.
    pub credentials: bool,
}

/// scheme, host and port (the port defaulted by the scheme).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Origin {
    https: bool,
    host: String,
    port: u16,
}

impl UrlParts {
    /// The origin of an http(s) URL with a host, or `None`.
    fn origin(&self) -> Option<Origin> {
        let https = match self.scheme.to_ascii_lowercase().as_str() {
            "https" => true,
            "http" => false,
            _ => return None,
        };
        if self.host.is_empty() {
            return None;
        }
        Some(Origin {
            https,
            host: self.host.to_ascii_lowercase(),
            port: self.port.unwrap_or(if https { 443 } else { 80 }),
        })
    }
}

/// A number option as the host gave it: a number, or a non-finite one that JSON cannot write
/// (the strings `NaN`, `Infinity`, `-Infinity`, which the hosts write for them).
fn number(v: &Value<'_>, spec: (&str, f64, f64, f64, bool)) -> Result<f64> {
    let (name, _, low, high, low_open) = spec;
    let x = match v {
        Value::Number(x) => *x,
        Value::String(s) if matches!(&**s, "NaN" | "Infinity" | "-Infinity") => f64::NAN,
        _ => return Err(invalid(format!("RemoteJwks: {name} must be a number"))),
    };
    if !x.is_finite() || x > high || x < low || (low_open && x == low) {
        let open = if low_open { "(" } else { "[" };
        // the bounds are whole numbers: written as integers (no float formatting in the module)
        let (low, high) = (low as i64, high as i64);
        return Err(invalid(format!(
            "RemoteJwks: {name} must be a finite number in {open}{low}, {high}]"
        )));
    }
    Ok(x)
}

fn option(options: &Value<'_>, spec: (&str, f64, f64, f64, bool)) -> Result<f64> {
    match options.get(spec.0) {
        None => Ok(spec.1),
        Some(v) => number(v, spec),
    }
}

/// Why a fetch failed, as the host saw it.
#[derive(Clone, Debug)]
pub enum Failure {
    /// The deadline passed (the host aborted the download).
    Timeout,
    /// A network or protocol error of the host's HTTP client.
    Network,
    /// A refusal this machine decided ([`State::response`], [`State::body`]).
    Refused(Error),
}

/// What a caller of `jwks()` / `jwks_for(token)` gets now.
#[derive(Clone, Debug, PartialEq)]
pub enum Decision {
    /// The host serves the set it holds.
    Serve,
    /// The host fetches the set (or joins the fetch in progress), within `timeout` seconds and
    /// `max_bytes`, then reports the outcome.
    Fetch {
        /// The deadline of the whole fetch, seconds.
        timeout: f64,
        /// The largest body.
        max_bytes: u64,
    },
    /// The call fails with this error.
    Fail(Error),
}

/// What the host does with one HTTP response of a fetch.
#[derive(Clone, Debug, PartialEq)]
pub enum Hop {
    /// Request the redirect's target (already resolved by the host's URL parser).
    Follow,
    /// Read the body, at most `max_bytes` (one byte more says it is longer), and hand it to
    /// [`State::body`].
    Read {
        /// The largest body.
        max_bytes: u64,
    },
    /// The fetch failed: report [`Failure::Refused`] with this error.
    Fail(Error),
}

/// Whether a token's `kid` is in a set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KidStatus {
    /// No readable `kid` (the verifier refuses the token: serve the set).
    NoKid,
    /// A usable key of the set.
    Known,
    /// A key of the set that was skipped (another kind): the verifier says `UNSUPPORTED_KEY`.
    Skipped,
    /// Not in the set.
    Unknown,
}

/// The `kid` of a compact JWS's header as the verifier reads it (the core's strict reader:
/// a duplicate member, invalid UTF-8 or bad base64url is no kid), against `jwks`.
pub fn kid_status(token: &str, jwks: &Jwks) -> KidStatus {
    let Ok(parts) = jws::decode(token) else {
        return KidStatus::NoKid;
    };
    match parts.header.get("kid").and_then(Value::as_str) {
        None => KidStatus::NoKid,
        Some(kid) if jwks.get(kid).is_some() => KidStatus::Known,
        Some(kid) if jwks.is_skipped(kid) => KidStatus::Skipped,
        Some(_) => KidStatus::Unknown,
    }
}

/// The freshness a response grants before the cooldown floor, in seconds: 0 for `no-store` /
/// `no-cache`, `max-age` up to one day, `default` without either. Directives are split at
/// commas, names compared without case, whitespace around them ignored; `max-age` takes ASCII
/// digits, optionally quoted.
pub fn max_age(cache_control: Option<&str>, default: f64) -> f64 {
    let Some(cc) = cache_control.filter(|c| !c.is_empty()) else {
        return default;
    };
    let starts = |t: &str, name: &str| {
        t.len() >= name.len()
            && t.is_char_boundary(name.len())
            && t[..name.len()].eq_ignore_ascii_case(name)
    };
    for d in cc.split(',') {
        let t = d.trim_start();
        for name in ["no-store", "no-cache"] {
            if starts(t, name) {
                let rest = t[name.len()..].trim_start();
                if rest.is_empty() || rest.starts_with('=') {
                    return 0.0;
                }
            }
        }
    }
    for d in cc.split(',') {
        let t = d.trim_start();
        if !starts(t, "max-age") {
            continue;
        }
        let Some(rest) = t["max-age".len()..].trim_start().strip_prefix('=') else {
            continue;
        };
        let rest = rest.trim_start();
        let rest = rest.strip_prefix('"').unwrap_or(rest);
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            continue;
        }
        let tail = &rest[digits..];
        let tail = tail.strip_prefix('"').unwrap_or(tail);
        if !tail.trim().is_empty() {
            continue;
        }
        let seconds = rest[..digits].bytes().fold(0f64, |n, b| {
            (n * 10.0 + f64::from(b - b'0')).min(2.0 * ONE_DAY)
        });
        return seconds.min(ONE_DAY);
    }
    default
}

/// Whole seconds for a message: `ceil` of a wait, `floor` of an age (as both hosts wrote them).
fn whole(x: f64) -> i64 {
    if x.is_finite() {
        x.clamp(-9.0e15, 9.0e15) as i64
    } else {
        0
    }
}

/// The policy's state: its options, the URL's origin, what it knows of the last fetches, and the
/// last good key set (read once, by [`State::body`]).
#[derive(Clone, Debug)]
pub struct State {
    timeout: f64,
    max_bytes: u64,
    cooldown: f64,
    default_max_age: f64,
    max_stale: f64,
    origin: Origin,
    set: Option<Jwks>,
    fresh_until: Option<f64>,
    last_failure: Option<f64>,
    last_error: Option<String>,
    last_kid_refetch: Option<f64>,
}

const URL_NOT_HTTP: &str = "url must be an http(s) URL (https in production)";

impl State {
    /// A policy for `url` (as given, and as the host's URL parser read it: `None` when it could
    /// not) with `options`, an object of `timeout` (seconds) or `timeout_ms`, `max_bytes`,
    /// `cooldown`, `default_max_age`, `max_stale` (each optional). `INVALID_ARGUMENT` for a URL
    /// that is not http(s) with a host, a URL with a user name or password, an unknown option or
    /// a value out of range (each option's bounds are in its message).
    pub fn new(url: &str, parts: Option<&UrlParts>, options: &Value<'_>) -> Result<State> {
        if !(url.starts_with("https://") || url.starts_with("http://")) {
            return Err(invalid(URL_NOT_HTTP));
        }
        let parts = parts.ok_or_else(|| invalid(URL_NOT_HTTP))?;
        let origin = parts.origin().ok_or_else(|| invalid(URL_NOT_HTTP))?;
        if parts.credentials {
            return Err(invalid("url must not hold a user name or password"));
        }
        crate::shape::members(
            options,
            "RemoteJwks options",
            &[
                "timeout",
                "timeout_ms",
                "max_bytes",
                "cooldown",
                "default_max_age",
                "max_stale",
            ],
        )?;
        let timeout = match (options.get("timeout"), options.get("timeout_ms")) {
            (Some(_), Some(_)) => return Err(invalid("RemoteJwks: give timeout or timeout_ms")),
            (_, Some(ms)) => number(ms, TIMEOUT_MS)? / 1000.0,
            _ => option(options, TIMEOUT)?,
        };
        let in_range = || {
            invalid(format!(
                "RemoteJwks: max_bytes must be an integer in [1, {MAX_BODY_BYTES}]"
            ))
        };
        let max_bytes = match options.get("max_bytes") {
            None => DEFAULT_MAX_BYTES,
            Some(Value::Number(x))
                if x.fract() == 0.0 && (1.0..=MAX_BODY_BYTES as f64).contains(x) =>
            {
                *x as u64
            }
            Some(Value::Number(_)) => return Err(in_range()),
            Some(Value::String(s)) if matches!(&**s, "NaN" | "Infinity" | "-Infinity") => {
                return Err(in_range())
            }
            Some(_) => return Err(invalid("RemoteJwks: max_bytes must be an integer")),
        };
        Ok(State {
            timeout,
            max_bytes,
            cooldown: option(options, COOLDOWN)?,
            default_max_age: option(options, DEFAULT_MAX_AGE)?,
            max_stale: option(options, MAX_STALE)?,
            origin,
            set: None,
            fresh_until: None,
            last_failure: None,
            last_error: None,
            last_kid_refetch: None,
        })
    }

    fn fetch(&self) -> Decision {
        Decision::Fetch {
            timeout: self.timeout,
            max_bytes: self.max_bytes,
        }
    }

    /// Whether `now` is within the cooldown after the last failed fetch.
    fn cooling(&self, now: f64) -> Option<f64> {
        self.last_failure.filter(|t| now - t < self.cooldown)
    }

    /// Whether the last good set may serve at `now` (at most `max_stale` past its freshness).
    fn usable(&self, now: f64) -> bool {
        self.set.is_some() && self.fresh_until.is_some_and(|f| now - f <= self.max_stale)
    }

    fn stale_note(&self) -> &'static str {
        if self.set.is_some() {
            " (the last good set is older than max_stale)"
        } else {
            ""
        }
    }

    /// A caller wants the set (`jwks()`): the fresh set, a fetch, or, within the cooldown after
    /// a failure, the last good set while it is not too stale, else `JWKS_UNAVAILABLE` saying
    /// when the next attempt may happen.
    pub fn need(&self, now: f64) -> Decision {
        if self.set.is_some() && self.fresh_until.is_some_and(|f| now < f) {
            return Decision::Serve;
        }
        if let Some(failed) = self.cooling(now) {
            if self.usable(now) {
                return Decision::Serve;
            }
            let base = self
                .last_error
                .as_deref()
                .unwrap_or("the key set could not be fetched");
            let wait = whole((failed + self.cooldown - now).ceil());
            return Decision::Fail(unavailable(format!(
                "{base}{}; the next attempt may happen in {wait} s",
                self.stale_note()
            )));
        }
        self.fetch()
    }

    /// The fetch a `jwks()` caller waited for failed with `error` ([`State::failed`] has
    /// recorded it): the last good set while it is not too stale, else the error.
    pub fn need_failed(&self, now: f64, error: &Error) -> Decision {
        if self.usable(now) {
            Decision::Serve
        } else if self.set.is_some() {
            Decision::Fail(unavailable(format!(
                "{}{}",
                error.message(),
                self.stale_note()
            )))
        } else {
            Decision::Fail(error.clone())
        }
    }

    /// A `jwks_for(token)` caller holds a set in which the token's kid has `status`: serve it,
    /// or refetch once (at most once per cooldown, and not within the cooldown after a failure),
    /// else `UNKNOWN_KID` saying when the next refetch may happen. A refetch is recorded.
    pub fn kid(&mut self, now: f64, status: &KidStatus) -> Decision {
        if *status != KidStatus::Unknown {
            return Decision::Serve;
        }
        if let Some(failed) = self.cooling(now) {
            return Decision::Fail(unknown_kid(format!(
                "kid is not in the key set, and the last fetch failed {} s ago; the next refetch may happen in {} s",
                whole((now - failed).floor()),
                whole((failed + self.cooldown - now).ceil())
            )));
        }
        if let Some(last) = self.last_kid_refetch.filter(|t| now - t < self.cooldown) {
            return Decision::Fail(unknown_kid(format!(
                "kid is not in the key set, refetched for an unknown kid {} s ago; the next refetch may happen in {} s",
                whole((now - last).floor()),
                whole((last + self.cooldown - now).ceil())
            )));
        }
        self.last_kid_refetch = Some(now);
        self.fetch()
    }

    /// The refetch for an unknown kid gave a set in which the kid has `status`.
    pub fn kid_fetched(&self, status: &KidStatus) -> Decision {
        if *status == KidStatus::Unknown {
            Decision::Fail(unknown_kid(format!(
                "kid is not in the key set, refetched just now; the next refetch may happen in {} s",
                whole(self.cooldown.ceil())
            )))
        } else {
            Decision::Serve
        }
    }

    /// The refetch for an unknown kid failed with `error`.
    pub fn kid_failed(&self, error: &Error) -> Error {
        unknown_kid(format!(
            "kid is not in the key set, and refetching it failed ({}); the next refetch may happen in {} s",
            error.message(),
            whole(self.cooldown.ceil())
        ))
    }

    /// One HTTP response of a fetch: its `status`, its `Location` header when it has one, the
    /// redirect's target as the host's URL parser resolved it against the URL requested
    /// (`None` when it could not), `hops` the redirects already followed in this fetch, and
    /// `opaque` when the runtime hides where a redirect goes (a browser's `opaqueredirect`).
    pub fn response(
        &self,
        status: u16,
        location: Option<&str>,
        next: Option<&UrlParts>,
        hops: u32,
        opaque: bool,
    ) -> Hop {
        let refuse = |m: String| Hop::Fail(unavailable(m));
        if opaque {
            return refuse(
                "the key set's server redirected (this runtime hides where: use the final URL)"
                    .into(),
            );
        }
        if REDIRECT_STATUSES.contains(&status) {
            if location.is_none_or(str::is_empty) {
                return refuse(format!(
                    "the key set's server answered {status} without a Location"
                ));
            }
            let next_raw = next;
            let Some(next) = next.and_then(UrlParts::origin) else {
                return refuse(
                    "the key set's server redirected to a URL that is not http(s)".into(),
                );
            };
            if next_raw.is_some_and(|p| p.credentials) {
                return refuse(
                    "the key set's server redirected to a URL with a user name or password (refused)"
                        .into(),
                );
            }
            if self.origin.https && !next.https {
                return refuse(
                    "the key set's server redirected from https to http (refused)".into(),
                );
            }
            if next != self.origin {
                return refuse(
                    "the key set's server redirected to another origin (refused)".into(),
                );
            }
            if hops >= MAX_REDIRECTS {
                return refuse(format!(
                    "the key set's server redirected more than {MAX_REDIRECTS} times"
                ));
            }
            return Hop::Follow;
        }
        if !(200..=299).contains(&status) {
            return refuse(format!("the key set's server answered {status}"));
        }
        Hop::Read {
            max_bytes: self.max_bytes,
        }
    }

    /// The body of a 2xx response, as read (`longer`: the host stopped reading past
    /// `max_bytes`): the key set, read once by the core's strict reader (one leading byte-order
    /// mark skipped), or `JWKS_UNAVAILABLE` saying why it is not usable (a duplicate member is
    /// "not usable (DUPLICATE_KEY)", as `Jwks` refuses it when given directly).
    pub fn body(&self, body: &[u8], longer: bool) -> Result<Jwks> {
        if longer || body.len() as u64 > self.max_bytes {
            return Err(unavailable(format!(
                "the key set is larger than {} bytes",
                self.max_bytes
            )));
        }
        let text = body.strip_prefix(b"\xef\xbb\xbf").unwrap_or(body);
        let value = canonical::parse(text).map_err(|e| match e.code() {
            ErrorCode::InvalidJson | ErrorCode::InvalidUtf8 | ErrorCode::NonFiniteNumber => {
                unavailable("the fetched key set is not JSON")
            }
            code => unavailable(format!(
                "the fetched key set is not usable ({})",
                code.as_str()
            )),
        })?;
        Jwks::from_value(&value).map_err(|e| {
            unavailable(format!(
                "the fetched key set is not usable ({})",
                e.code().as_str()
            ))
        })
    }

    /// A fetch gave the usable `set` at `now`, with this `Cache-Control`: it is kept, fresh for
    /// its max-age, clamped to [cooldown, 1 day]; the failure is forgotten.
    pub fn fetched(&mut self, now: f64, cache_control: Option<&str>, set: Jwks) {
        let age = max_age(cache_control, self.default_max_age).max(self.cooldown);
        self.set = Some(set);
        self.fresh_until = Some(now + age);
        self.last_failure = None;
        self.last_error = None;
    }

    /// The last good key set, if a fetch gave one.
    pub fn set(&self) -> Option<&Jwks> {
        self.set.as_ref()
    }

    /// The error of the last failed fetch (`JWKS_UNAVAILABLE`), while no fetch has succeeded
    /// since; else `JWKS_UNAVAILABLE` "the key set could not be fetched".
    pub fn last_error(&self) -> Error {
        unavailable(
            self.last_error
                .as_deref()
                .unwrap_or("the key set could not be fetched"),
        )
    }

    /// A fetch failed at `now`: recorded (no new attempt within the cooldown); the error its
    /// callers get.
    pub fn failed(&mut self, now: f64, failure: Failure) -> Error {
        let error = match failure {
            Failure::Timeout => unavailable("the key set timed out"),
            Failure::Network => unavailable("the key set could not be fetched"),
            Failure::Refused(e) if e.code() == ErrorCode::JwksUnavailable => e,
            Failure::Refused(_) => unavailable("the key set could not be fetched"),
        };
        self.last_failure = Some(now);
        self.last_error = Some(error.message().to_owned());
        error
    }
}

/// The options' defaults and bounds, and the protocol's bounds of a fetch, as the manifest's
/// `remote_jwks` constant (the hosts' `RemoteJwks` documents and passes nothing of its own).
pub fn constants() -> Value<'static> {
    let option = |spec: (&str, f64, f64, f64, bool)| {
        let (name, default, low, high, low_open) = spec;
        (
            std::borrow::Cow::Owned(name.to_owned()),
            Value::Object(vec![
                ("default".into(), Value::Number(default)),
                ("high".into(), Value::Number(high)),
                ("low".into(), Value::Number(low)),
                ("low_open".into(), Value::Bool(low_open)),
            ]),
        )
    };
    Value::Object(vec![
        (
            "max_bytes".into(),
            Value::Object(vec![
                ("default".into(), Value::Number(DEFAULT_MAX_BYTES as f64)),
                ("high".into(), Value::Number(MAX_BODY_BYTES as f64)),
                ("low".into(), Value::Number(1.0)),
                ("low_open".into(), Value::Bool(false)),
            ]),
        ),
        (
            "max_redirects".into(),
            Value::Number(f64::from(MAX_REDIRECTS)),
        ),
        option(COOLDOWN),
        option(DEFAULT_MAX_AGE),
        option(MAX_STALE),
        option(TIMEOUT),
        option(TIMEOUT_MS),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(url: &str) -> UrlParts {
        let (scheme, rest) = url.split_once("://").unwrap();
        let host = rest.split('/').next().unwrap();
        let (host, port) = match host.rsplit_once(':') {
            Some((h, p)) => (h, Some(p.parse().unwrap())),
            None => (host, None),
        };
        UrlParts {
            scheme: scheme.into(),
            host: host.into(),
            port,
            credentials: false,
        }
    }

    fn state(options: &str) -> State {
        let o = canonical::parse(options.as_bytes()).unwrap();
        let url = "https://net.example/jwks.json";
        State::new(url, Some(&parts(url)), &o).unwrap()
    }

    fn fail(d: Decision) -> String {
        match d {
            Decision::Fail(e) => format!("{}: {}", e.code().as_str(), e.message()),
            other => panic!("{other:?}"),
        }
    }

    fn jwks() -> Jwks {
        Jwks::parse(SET).unwrap()
    }

    const SET: &[u8] = br#"{"keys":[{"kty":"EC","crv":"P-256","kid":"k1","x":"IBPaEMdAdqp6YxXlh70zMSKLxblldoQmMNdSuUfZ6ow","y":"I9B6U2c_y7Iwzk1NQNbXCWZzGpmBvc1Tbvs_CYkL8Ik"}]}"#;

    #[test]
    fn cache_control_is_read_as_the_hosts_read_it() {
        assert_eq!(max_age(None, 300.0), 300.0);
        assert_eq!(max_age(Some("public, max-age=120"), 300.0), 120.0);
        assert_eq!(max_age(Some("max-age=99999999"), 300.0), ONE_DAY);
        assert_eq!(max_age(Some("no-store"), 300.0), 0.0);
        assert_eq!(max_age(Some("max-age=0, no-cache"), 300.0), 0.0);
        assert_eq!(max_age(Some("MAX-AGE = \"60\" "), 300.0), 60.0);
        assert_eq!(max_age(Some("private"), 300.0), 300.0);
        assert_eq!(max_age(Some("s-maxage=5"), 300.0), 300.0);
        assert_eq!(max_age(Some("max-age=5x"), 300.0), 300.0);
        assert_eq!(max_age(Some("no-cache=\"set-cookie\""), 300.0), 0.0);
        assert_eq!(max_age(Some("no-cachex"), 300.0), 300.0);
        assert_eq!(max_age(Some("é, max-age=7"), 300.0), 7.0);
    }

    #[test]
    fn the_cache_follows_max_age_with_the_cooldown_as_floor() {
        let mut s = state("{}");
        assert!(matches!(s.need(1000.0), Decision::Fetch { .. }));
        s.fetched(1000.0, Some("no-store"), jwks());
        assert_eq!(s.need(1029.0), Decision::Serve);
        assert!(matches!(s.need(1030.0), Decision::Fetch { .. }));
        s.fetched(1030.0, Some("max-age=60"), jwks());
        assert_eq!(s.need(1089.0), Decision::Serve);
        assert!(matches!(s.need(1090.0), Decision::Fetch { .. }));
    }

    #[test]
    fn failures_cool_down_and_the_last_good_set_serves_until_max_stale() {
        let mut s = state(r#"{"cooldown":10,"max_stale":100}"#);
        s.fetched(1000.0, Some("max-age=60"), jwks());
        let e = s.failed(
            1061.0,
            Failure::Refused(unavailable("the key set's server answered 500")),
        );
        assert_eq!(s.need_failed(1061.0, &e), Decision::Serve);
        assert_eq!(s.need(1065.0), Decision::Serve);
        assert!(matches!(s.need(1071.0), Decision::Fetch { .. }));
        let e = s.failed(1161.0, Failure::Refused(e));
        assert_eq!(
            fail(s.need_failed(1161.0, &e)),
            "JWKS_UNAVAILABLE: the key set's server answered 500 (the last good set is older than max_stale)"
        );
        assert_eq!(
            fail(s.need(1162.0)),
            "JWKS_UNAVAILABLE: the key set's server answered 500 (the last good set is older than max_stale); the next attempt may happen in 9 s"
        );
    }

    #[test]
    fn an_unknown_kid_is_refetched_once_per_cooldown() {
        let mut s = state("{}");
        s.fetched(1000.0, None, jwks());
        assert_eq!(s.kid(1000.0, &KidStatus::Known), Decision::Serve);
        assert!(matches!(
            s.kid(1000.0, &KidStatus::Unknown),
            Decision::Fetch { .. }
        ));
        assert_eq!(
            fail(s.kid_fetched(&KidStatus::Unknown)),
            "UNKNOWN_KID: kid is not in the key set, refetched just now; the next refetch may happen in 30 s"
        );
        assert_eq!(
            fail(s.kid(1012.0, &KidStatus::Unknown)),
            "UNKNOWN_KID: kid is not in the key set, refetched for an unknown kid 12 s ago; the next refetch may happen in 18 s"
        );
        assert!(matches!(
            s.kid(1030.0, &KidStatus::Unknown),
            Decision::Fetch { .. }
        ));
        s.failed(1030.0, Failure::Network);
        assert_eq!(
            fail(s.kid(1035.0, &KidStatus::Unknown)),
            "UNKNOWN_KID: kid is not in the key set, and the last fetch failed 5 s ago; the next refetch may happen in 25 s"
        );
    }

    #[test]
    fn redirects_stay_on_the_origin() {
        let s = state("{}");
        let same = parts("https://NET.example:443/moved");
        assert_eq!(
            s.response(302, Some("/moved"), Some(&same), 0, false),
            Hop::Follow
        );
        let other = parts("https://other.example/moved");
        let http = parts("http://net.example/moved");
        let msg = |h: Hop| match h {
            Hop::Fail(e) => e.message().to_owned(),
            h => panic!("{h:?}"),
        };
        assert!(msg(s.response(302, Some("x"), Some(&other), 0, false)).contains("another origin"));
        assert!(msg(s.response(301, Some("x"), Some(&http), 0, false)).contains("https to http"));
        assert!(msg(s.response(307, None, None, 0, false)).contains("without a Location"));
        assert!(msg(s.response(308, Some("x"), None, 0, false)).contains("not http(s)"));
        assert!(msg(s.response(302, Some("/m"), Some(&same), 5, false)).contains("more than 5"));
        // same origin, with a user name or password (issue 41): refused, whatever the host's
        // HTTP client would do with it (Python's followed it, fetch refused it)
        let userinfo = UrlParts {
            credentials: true,
            ..same.clone()
        };
        assert_eq!(
            msg(s.response(302, Some("//u:p@net.example/m"), Some(&userinfo), 0, false)),
            "the key set's server redirected to a URL with a user name or password (refused)"
        );
        assert_eq!(
            msg(s.response(500, None, None, 0, false)),
            "the key set's server answered 500"
        );
        assert_eq!(
            s.response(204, None, None, 0, false),
            Hop::Read { max_bytes: 1 << 20 }
        );
    }

    #[test]
    fn the_body_goes_through_the_strict_reader() {
        let s = state(r#"{"max_bytes":4096}"#);
        assert!(s.body(SET, false).is_ok());
        let mut bom = b"\xef\xbb\xbf".to_vec();
        bom.extend_from_slice(SET);
        assert!(s.body(&bom, false).is_ok());
        let dup = br#"{"keys":[],"keys":[{"kty":"EC","crv":"P-256","kid":"k1","x":"IBPaEMdAdqp6YxXlh70zMSKLxblldoQmMNdSuUfZ6ow","y":"I9B6U2c_y7Iwzk1NQNbXCWZzGpmBvc1Tbvs_CYkL8Ik"}]}"#;
        let e = s.body(dup, false).unwrap_err();
        assert_eq!(e.code(), ErrorCode::JwksUnavailable);
        assert_eq!(
            e.message(),
            "the fetched key set is not usable (DUPLICATE_KEY)"
        );
        assert_eq!(
            s.body(b"<html>", false).unwrap_err().message(),
            "the fetched key set is not JSON"
        );
        assert_eq!(
            s.body(b"\xff\xfe{", false).unwrap_err().message(),
            "the fetched key set is not JSON"
        );
        assert!(s
            .body(SET, true)
            .unwrap_err()
            .message()
            .contains("larger than 4096"));
        let deep = [vec![b'['; 100_000], vec![b']'; 100_000]].concat();
        let big = state("{}");
        assert_eq!(
            big.body(&deep, false).unwrap_err().message(),
            "the fetched key set is not usable (INPUT_TOO_DEEP)"
        );
    }

    #[test]
    fn options_and_urls_are_checked() {
        let o = |t: &str| canonical::parse(t.as_bytes()).unwrap().into_owned();
        let url = "https://net.example/j";
        let p = parts(url);
        for bad in [
            r#"{"cooldown":-1}"#,
            r#"{"cooldown":"30"}"#,
            r#"{"cooldown":"NaN"}"#,
            r#"{"cooldown":null}"#,
            r#"{"cooldown":true}"#,
            r#"{"timeout_ms":0}"#,
            r#"{"timeout":600.5}"#,
            r#"{"max_bytes":1.5}"#,
            r#"{"max_bytes":"Infinity"}"#,
            r#"{"max_bytes":67108865}"#,
            r#"{"max_stale":31536001}"#,
            r#"{"bogus":1}"#,
        ] {
            let e = State::new(url, Some(&p), &o(bad)).unwrap_err();
            assert_eq!(e.code(), ErrorCode::InvalidArgument, "{bad}");
        }
        assert!(State::new("file:///x", Some(&p), &o("{}")).is_err());
        assert!(State::new(url, None, &o("{}")).is_err());
        let with_user = UrlParts {
            credentials: true,
            ..p.clone()
        };
        let e = State::new(url, Some(&with_user), &o("{}")).unwrap_err();
        assert!(e.message().contains("user name or password"));
        let ok = r#"{"timeout_ms":600000,"max_bytes":67108864,"cooldown":0,"default_max_age":86400,"max_stale":31536000}"#;
        let s = State::new(url, Some(&p), &o(ok)).unwrap();
        assert_eq!(
            s.need(0.0),
            Decision::Fetch {
                timeout: 600.0,
                max_bytes: 1 << 26
            }
        );
    }
}
