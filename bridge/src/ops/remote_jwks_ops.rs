//! The registry's rows of one domain: the cache policy of a network's key set fetched over
//! HTTP(S) (PROTOCOL §3, §9.5.1; `ekl_core::remote_jwks`) as the handle `RemoteJwksPolicy`
//! (docs/decisions/handles.md): its constructor and its methods, each a row whose first parameter
//! is `self`. The state and the last good set stay in the handle; the hosts' `RemoteJwks` ask it,
//! do the I/O it names and report.

use ekl_core::remote_jwks::{self, Decision, Failure, Hop, KidStatus, State, UrlParts};

use super::*;
use crate::handle::{Handle as MachineHandle, Machine};

const CLASS: &str = "RemoteJwksPolicy";
const SELF: Param = req("self", Handle(CLASS), "the policy");
const NOW: Param = req(
    "now",
    Number,
    "the host's monotonic clock, seconds (any finite number)",
);
const TOKEN: Param = opt(
    "token",
    Str,
    "the compact JWS whose kid is looked up in the set held",
);
const DECISION: Returns = Returns::Value("RemoteJwksDecision");

/// The parameters of the constructor: the URL, its parts as the host's URL parser read it, and
/// the options (each defaulted and bounded by the core: the manifest's `remote_jwks` constant).
const NEW_PARAMS: &[Param] = &[
    req(
        "url",
        Str,
        "the key set's URL, as given (https in production)",
    ),
    opt(
        "scheme",
        Str,
        "the URL's scheme as the host's URL parser read it, without ':' (absent: it could not)",
    ),
    opt(
        "host",
        Str,
        "the host the request connects to (lowercase; an international name in ASCII)",
    ),
    opt("port", Int, "the port written in the URL, if any"),
    opt(
        "credentials",
        Bool,
        "whether the URL holds a user name or a password",
    ),
    opt(
        "timeout",
        Number,
        "the deadline of a whole fetch, seconds, in (0, 600] (default 5)",
    ),
    opt(
        "timeout_ms",
        Number,
        "the same in milliseconds, in (0, 600000] (give timeout or timeout_ms)",
    ),
    opt(
        "max_bytes",
        Number,
        "the largest body, an integer in [1, 64 MiB] (default 1 MiB)",
    ),
    opt(
        "cooldown",
        Number,
        "seconds between unknown-kid refetches and after a failure, and the least time a set is \
         cached, in [0, 86400] (default 30)",
    ),
    opt(
        "default_max_age",
        Number,
        "seconds a set is fresh without Cache-Control max-age, in [0, 86400] (default 300)",
    ),
    opt(
        "max_stale",
        Number,
        "seconds past its freshness the last good set serves while refetches fail, in [0, \
         31536000] (default 86400)",
    ),
];

/// This domain's operations, in manifest order.
pub(super) const OPS: &[Op] = &[
    Op {
        name: "remote_jwks_policy",
        class: Some(CLASS),
        section: "§3",
        doc: "A fetched key set's cache policy (the machine under RemoteJwks): freshness from \
              Cache-Control, cooldown, staleness, unknown-kid refetch, redirects, the body \
              through the strict reader. INVALID_ARGUMENT for a URL that is not http(s) with a \
              host, one with a user name or password, or an option out of its bounds.",
        params: NEW_PARAMS,
        returns: Returns::Handle(CLASS),
        refine: None,
        run: new,
    },
    Op {
        name: "remote_jwks_policy_need",
        class: None,
        section: "§3",
        doc: "A caller wants the set at now: serve the set held, fetch it (within timeout and \
              max_bytes), or fail (within the cooldown after a failure, when no set may serve).",
        params: &[SELF, NOW],
        returns: DECISION,
        refine: None,
        run: |a| with(a, |s| Ok(decided(s.need(now(a)?)))),
    },
    Op {
        name: "remote_jwks_policy_need_failed",
        class: None,
        section: "§3",
        doc: "The fetch a caller waited for failed (reported with `failed`): serve the last good \
              set while it is not too stale, else fail.",
        params: &[SELF, NOW],
        returns: DECISION,
        refine: None,
        run: |a| {
            with(a, |s| {
                let e = s.last_error();
                Ok(decided(s.need_failed(now(a)?, &e)))
            })
        },
    },
    Op {
        name: "remote_jwks_policy_kid",
        class: None,
        section: "§9.5.1",
        doc: "A caller wants the set to verify token with, at now: serve the set held when it \
              has the token's kid (or the token has none), else refetch once per cooldown, else \
              fail with UNKNOWN_KID saying when the next refetch may happen.",
        params: &[SELF, NOW, TOKEN],
        returns: DECISION,
        refine: None,
        run: |a| {
            with(a, |s| {
                let status = kid_status(s, a.opt_str("token")?);
                Ok(decided(s.kid(now(a)?, &status)))
            })
        },
    },
    Op {
        name: "remote_jwks_policy_kid_fetched",
        class: None,
        section: "§9.5.1",
        doc: "The refetch for an unknown kid gave a set: serve it, or fail with UNKNOWN_KID \
              when the kid is still unknown.",
        params: &[SELF, TOKEN],
        returns: DECISION,
        refine: None,
        run: |a| {
            with(a, |s| {
                let status = kid_status(s, a.opt_str("token")?);
                Ok(decided(s.kid_fetched(&status)))
            })
        },
    },
    Op {
        name: "remote_jwks_policy_kid_failed",
        class: None,
        section: "§9.5.1",
        doc: "The refetch for an unknown kid failed (reported with `failed`): the UNKNOWN_KID \
              refusal its caller gets.",
        params: &[SELF],
        returns: DECISION,
        refine: None,
        run: |a| {
            with(a, |s| {
                Ok(decided(Decision::Fail(s.kid_failed(&s.last_error()))))
            })
        },
    },
    Op {
        name: "remote_jwks_policy_response",
        class: None,
        section: "§3",
        doc: "One HTTP response of a fetch: follow the redirect (same origin only, never https \
              to http, at most 5), read the body (at most max_bytes), or fail.",
        params: &[
            SELF,
            req("status", Int, "the response's status"),
            req("hops", Int, "the redirects already followed in this fetch"),
            opt("location", Str, "its Location header, if any"),
            opt(
                "scheme",
                Str,
                "the redirect's target (Location resolved against the URL requested) as the \
                 host's URL parser read it: its scheme (absent: it could not)",
            ),
            opt("host", Str, "the target's host"),
            opt("port", Int, "the target's port, if written"),
            opt(
                "credentials",
                Bool,
                "whether the target holds a user name or a password",
            ),
            opt(
                "opaque",
                Bool,
                "the runtime hides where the redirect goes (a browser's opaqueredirect)",
            ),
        ],
        returns: DECISION,
        refine: None,
        run: response,
    },
    Op {
        name: "remote_jwks_policy_body",
        class: None,
        section: "§3",
        doc: "The body of a 2xx response, as read at now (longer: the host stopped reading past \
              max_bytes), with the response's Cache-Control: the key set, read once by the \
              strict reader, kept and returned; or JWKS_UNAVAILABLE saying why it is not usable, \
              recorded as the fetch's failure.",
        params: &[
            SELF,
            NOW,
            req("body", Bytes, "the body as read"),
            opt("longer", Bool, "the body was longer than max_bytes"),
            opt(
                "cache_control",
                Str,
                "the response's Cache-Control header, if any",
            ),
        ],
        returns: Returns::Jwks,
        refine: None,
        run: body,
    },
    Op {
        name: "remote_jwks_policy_failed",
        class: None,
        section: "§3",
        doc: "A fetch failed at now: timeout (the deadline passed), network (the host's HTTP \
              client failed), refused (a response the policy refused: its message). Recorded \
              (no new attempt within the cooldown); the refusal its callers get.",
        params: &[
            SELF,
            NOW,
            req("cause", Str, "timeout, network or refused").refine("RemoteJwksCause"),
            opt(
                "message",
                Str,
                "the refusal's message (cause refused: the `fail` of response)",
            ),
        ],
        returns: DECISION,
        refine: None,
        run: failed,
    },
];

/// The `now` argument: a finite number of seconds.
fn now(a: &Args<'_>) -> Result<f64> {
    let x = a.number("now")?;
    if x.is_finite() {
        Ok(x)
    } else {
        Err(invalid("now must be a finite number of seconds"))
    }
}

/// Runs `f` on the policy of the `self` argument, under its lock.
fn with(a: &Args<'_>, f: impl FnOnce(&mut State) -> Result<Out>) -> Result<Out> {
    let handle = a.handle("self")?;
    let mut machine = handle.lock();
    match &mut *machine {
        Machine::RemoteJwksPolicy(state) => f(state),
    }
}

/// A number option as the core's option reader takes it (a non-finite one by its name, which
/// it refuses with the option's bounds).
fn option_value(x: f64) -> ekl_core::Value<'static> {
    if x.is_finite() {
        ekl_core::Value::Number(x)
    } else {
        ekl_core::Value::from("NaN")
    }
}

/// The URL parts of the arguments `scheme`, `host`, `port`, `credentials` (`None` without a
/// scheme: the host's URL parser could not read the URL).
fn parts(a: &Args<'_>) -> Result<Option<UrlParts>> {
    let Some(scheme) = a.opt_str("scheme")? else {
        return Ok(None);
    };
    let port = match a.opt_int("port")? {
        None => None,
        Some(p) => {
            Some(u16::try_from(p).map_err(|_| invalid("port must be an integer in [0, 65535]"))?)
        }
    };
    Ok(Some(UrlParts {
        scheme: scheme.to_owned(),
        host: a.opt_str("host")?.unwrap_or("").to_owned(),
        port,
        credentials: a.opt_bool("credentials")?.unwrap_or(false),
    }))
}

fn new(a: &Args<'_>) -> Result<Out> {
    let mut options = Vec::new();
    for p in NEW_PARAMS.iter().filter(|p| p.kind == Number) {
        if let Some(x) = a.opt_number(p.name)? {
            options.push((p.name.into(), option_value(x)));
        }
    }
    let state = State::new(
        a.str("url")?,
        parts(a)?.as_ref(),
        &ekl_core::Value::Object(options),
    )?;
    Ok(Out::Handle(MachineHandle::new(Machine::RemoteJwksPolicy(
        state,
    ))))
}

fn kid_status(state: &State, token: Option<&str>) -> KidStatus {
    match (token, state.set()) {
        (Some(token), Some(set)) => remote_jwks::kid_status(token, set),
        _ => KidStatus::NoKid,
    }
}

/// `{code, message}`.
fn error_json(e: &Error) -> ekl_core::Value<'static> {
    ekl_core::Value::Object(vec![
        ("code".into(), ekl_core::Value::from(e.code().as_str())),
        (
            "message".into(),
            ekl_core::Value::from(e.message().to_owned()),
        ),
    ])
}

/// `{action, …}`.
fn action(name: &str, more: Vec<(&'static str, ekl_core::Value<'static>)>) -> Out {
    let mut members = vec![("action".into(), ekl_core::Value::from(name.to_owned()))];
    members.extend(more.into_iter().map(|(k, v)| (k.into(), v)));
    Out::Value(ekl_core::Value::Object(members))
}

fn decided(d: Decision) -> Out {
    match d {
        Decision::Serve => action("serve", vec![]),
        Decision::Fetch { timeout, max_bytes } => action(
            "fetch",
            vec![
                ("max_bytes", ekl_core::Value::Number(max_bytes as f64)),
                ("timeout", ekl_core::Value::Number(timeout)),
            ],
        ),
        Decision::Fail(e) => action("fail", vec![("error", error_json(&e))]),
    }
}

fn response(a: &Args<'_>) -> Result<Out> {
    let status = u16::try_from(a.int("status")?)
        .ok()
        .filter(|s| *s <= 999)
        .ok_or_else(|| invalid("status must be an integer in [0, 999]"))?;
    let hops = u32::try_from(a.int("hops")?)
        .map_err(|_| invalid("hops must be an integer in [0, 2^32)"))?;
    let next = parts(a)?;
    let (location, opaque) = (a.opt_str("location")?, a.opt_bool("opaque")?);
    with(a, |s| {
        Ok(
            match s.response(
                status,
                location,
                next.as_ref(),
                hops,
                opaque.unwrap_or(false),
            ) {
                Hop::Follow => action("follow", vec![]),
                Hop::Read { max_bytes } => action(
                    "read",
                    vec![("max_bytes", ekl_core::Value::Number(max_bytes as f64))],
                ),
                Hop::Fail(e) => action("fail", vec![("error", error_json(&e))]),
            },
        )
    })
}

fn body(a: &Args<'_>) -> Result<Out> {
    let (now, bytes) = (now(a)?, a.bytes("body")?);
    let (longer, cache_control) = (a.opt_bool("longer")?, a.opt_str("cache_control")?);
    with(a, |s| match s.body(bytes, longer.unwrap_or(false)) {
        Ok(set) => {
            s.fetched(now, cache_control, set.clone());
            Ok(Out::Jwks(set))
        }
        Err(e) => Err(s.failed(now, Failure::Refused(e))),
    })
}

fn failed(a: &Args<'_>) -> Result<Out> {
    let now = now(a)?;
    let failure = match a.str("cause")? {
        "timeout" => Failure::Timeout,
        "network" => Failure::Network,
        "refused" => Failure::Refused(Error::new(
            ErrorCode::JwksUnavailable,
            a.opt_str("message")?
                .unwrap_or("the key set could not be fetched"),
        )),
        _ => return Err(invalid("cause must be timeout, network or refused")),
    };
    with(a, |s| Ok(decided(Decision::Fail(s.failed(now, failure)))))
}

#[cfg(test)]
mod tests {
    use crate::{call_named, Arg, Out};
    use ekl_core::ErrorCode;

    const SET: &str = r#"{"keys":[{"kty":"EC","crv":"P-256","kid":"k1","x":"IBPaEMdAdqp6YxXlh70zMSKLxblldoQmMNdSuUfZ6ow","y":"I9B6U2c_y7Iwzk1NQNbXCWZzGpmBvc1Tbvs_CYkL8Ik"}]}"#;

    fn action(out: Out) -> String {
        match out {
            Out::Value(v) => v
                .get("action")
                .and_then(ekl_core::Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            other => panic!("{other:?}"),
        }
    }

    /// The state lives in the handle: a body kept is served without being passed back, a
    /// refused body is recorded as the failure, and a forged state cannot be given at all.
    #[test]
    fn the_policy_keeps_its_state_and_its_set() {
        let made = call_named(
            "remote_jwks_policy",
            &[
                ("url", Arg::Str("https://net.example/j")),
                ("scheme", Arg::Str("https")),
                ("host", Arg::Str("net.example")),
                ("cooldown", Arg::Number(10.0)),
            ],
        );
        let Ok(Out::Handle(h)) = made else {
            panic!("{made:?}")
        };
        let need = |now: f64| {
            action(
                call_named(
                    "remote_jwks_policy_need",
                    &[("self", Arg::Handle(&h)), ("now", Arg::Number(now))],
                )
                .unwrap(),
            )
        };
        assert_eq!(need(0.0), "fetch");
        let body = |text: &'static str, now: f64| {
            call_named(
                "remote_jwks_policy_body",
                &[
                    ("self", Arg::Handle(&h)),
                    ("now", Arg::Number(now)),
                    ("body", Arg::Bytes(text.as_bytes())),
                    ("cache_control", Arg::Str("max-age=60")),
                ],
            )
        };
        let Ok(Out::Jwks(set)) = body(SET, 0.0) else {
            panic!("a set")
        };
        assert_eq!(set.keys().len(), 1);
        assert_eq!(need(59.0), "serve");
        assert_eq!(need(60.0), "fetch");
        let e = body("<html>", 60.0).unwrap_err();
        assert_eq!(e.code(), ErrorCode::JwksUnavailable);
        // within the cooldown after that failure, the last good set serves (not too stale)
        assert_eq!(need(61.0), "serve");
        let nan = call_named(
            "remote_jwks_policy_need",
            &[("self", Arg::Handle(&h)), ("now", Arg::Number(f64::NAN))],
        );
        assert_eq!(nan.unwrap_err().code(), ErrorCode::InvalidArgument);
        let cause = call_named(
            "remote_jwks_policy_failed",
            &[
                ("self", Arg::Handle(&h)),
                ("now", Arg::Number(62.0)),
                ("cause", Arg::Str("tick")),
            ],
        );
        assert_eq!(cause.unwrap_err().code(), ErrorCode::InvalidArgument);
    }
}
