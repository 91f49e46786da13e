//! The registry's rows of one domain: the cache policy of a network's key set fetched over
//! HTTP(S) (PROTOCOL §3, §9.5.1; `ekl_core::remote_jwks`), one step of its state machine per
//! call, the state passed as a value. The hosts' `RemoteJwks` drive it and only do the I/O.

use ekl_core::remote_jwks::{self, Decision, Failure, Hop, KidStatus, State, UrlParts};

use super::*;

/// This domain's operations, in manifest order.
pub(super) const OPS: &[Op] = &[
    // One step per call; the state passed as a value.
    Op {
        name: "remote_jwks_step",
        class: None,
        section: "§3",
        doc: "One step of a fetched key set's cache policy (the state machine under RemoteJwks: \
              freshness from Cache-Control, cooldown, staleness, unknown-kid refetch, \
              redirects, the body through the strict reader). `event.on` names the event: new \
              {url, parts, options}, need {now}, need_failed {now, error}, kid {now} (with token \
              and jwks), kid_fetched (token, jwks), kid_failed {error}, response {status, \
              location, next, hops, opaque}, body {longer} (with body), fetched {now, \
              cache_control}, failed {now, cause, error}. Returns {state, action, error?, \
              timeout?, max_bytes?, set?}.",
        params: &[
            req("event", Value, "the event: {on, now?, …}"),
            opt(
                "state",
                Value,
                "the state the last step returned (absent for `new`)",
            ),
            opt("body", Bytes, "the fetched body (event `body`)"),
            opt(
                "jwks",
                Jwks,
                "the set the host holds (events `kid`, `kid_fetched`)",
            ),
            opt(
                "token",
                Str,
                "the compact JWS whose kid is looked up (events `kid`, `kid_fetched`)",
            ),
        ],
        returns: Returns::Value("RemoteJwksStep"),
        refine: None,
        run: step,
    },
];

fn now(event: &ekl_core::Value<'_>) -> Result<f64> {
    match event.get("now") {
        Some(ekl_core::Value::Number(x)) if x.is_finite() => Ok(*x),
        _ => Err(invalid("event.now must be a finite number of seconds")),
    }
}

/// An error a host passes back (`{code, message}` of an earlier step's refusal): the policy's
/// own refusals are `JWKS_UNAVAILABLE`; any other is a fetch that could not be done.
fn error_of(event: &ekl_core::Value<'_>) -> Result<Error> {
    let e = event
        .get("error")
        .ok_or_else(|| invalid("event.error is required"))?;
    let (code, message) = match (
        e.get("code").and_then(ekl_core::Value::as_str),
        e.get("message").and_then(ekl_core::Value::as_str),
    ) {
        (Some(code), Some(message)) => (code, message),
        _ => return Err(invalid("event.error must be {code, message}")),
    };
    Ok(if code == ErrorCode::JwksUnavailable.as_str() {
        Error::new(ErrorCode::JwksUnavailable, message)
    } else {
        Error::new(
            ErrorCode::JwksUnavailable,
            "the key set could not be fetched",
        )
    })
}

fn opt_str<'v>(event: &'v ekl_core::Value<'_>, name: &str) -> Result<Option<&'v str>> {
    match event.get(name) {
        None | Some(ekl_core::Value::Null) => Ok(None),
        Some(ekl_core::Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(invalid(format!("event.{name} must be a string or null"))),
    }
}

fn parts_of(event: &ekl_core::Value<'_>, name: &str) -> Result<Option<UrlParts>> {
    match event.get(name) {
        None | Some(ekl_core::Value::Null) => Ok(None),
        Some(v) => UrlParts::from_value(v).map(Some),
    }
}

fn flag(event: &ekl_core::Value<'_>, name: &str) -> Result<bool> {
    match event.get(name) {
        None | Some(ekl_core::Value::Null) => Ok(false),
        Some(ekl_core::Value::Bool(b)) => Ok(*b),
        Some(_) => Err(invalid(format!("event.{name} must be a boolean"))),
    }
}

fn whole(event: &ekl_core::Value<'_>, name: &str, max: f64) -> Result<f64> {
    match event.get(name) {
        None | Some(ekl_core::Value::Null) => Ok(0.0),
        Some(ekl_core::Value::Number(x)) if x.fract() == 0.0 && (0.0..=max).contains(x) => Ok(*x),
        Some(_) => Err(invalid(format!(
            "event.{name} must be an integer in [0, {}]",
            max as i64
        ))),
    }
}

fn kid_status(a: &Args<'_>) -> Result<KidStatus> {
    let jwks = a.jwks("jwks")?;
    Ok(match a.opt_str("token")? {
        None => KidStatus::NoKid,
        Some(token) => remote_jwks::kid_status(token, &jwks),
    })
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

/// The result: the action, its members (given in name order: the object is written as given)
/// and the state.
fn answer(state: &State, action: &str, more: Vec<(&str, ekl_core::Value<'static>)>) -> Out {
    let mut members: Vec<(std::borrow::Cow<'static, str>, ekl_core::Value<'static>)> =
        vec![("action".into(), ekl_core::Value::from(action.to_owned()))];
    let (before, after): (Vec<_>, Vec<_>) = more.into_iter().partition(|(k, _)| *k < "state");
    members.extend(before.into_iter().map(|(k, v)| (k.to_owned().into(), v)));
    members.push(("state".into(), state.to_value()));
    members.extend(after.into_iter().map(|(k, v)| (k.to_owned().into(), v)));
    Out::Value(ekl_core::Value::Object(members))
}

fn decided(state: &State, d: Decision) -> Out {
    match d {
        Decision::Serve => answer(state, "serve", vec![]),
        Decision::Fetch { timeout, max_bytes } => answer(
            state,
            "fetch",
            vec![
                ("timeout", ekl_core::Value::Number(timeout)),
                ("max_bytes", ekl_core::Value::Number(max_bytes as f64)),
            ],
        ),
        Decision::Fail(e) => answer(state, "fail", vec![("error", error_json(&e))]),
    }
}

fn step(a: &Args<'_>) -> Result<Out> {
    let event = a.value("event")?;
    let event = &*event;
    shape::members(
        event,
        "event",
        &[
            "on",
            "now",
            "url",
            "parts",
            "options",
            "error",
            "status",
            "location",
            "next",
            "hops",
            "opaque",
            "longer",
            "cache_control",
            "cause",
        ],
    )?;
    let on = event
        .get("on")
        .and_then(ekl_core::Value::as_str)
        .ok_or_else(|| invalid("event.on must name the event"))?;
    if on == "new" {
        let url = opt_str(event, "url")?.ok_or_else(|| invalid("event.url is required"))?;
        let empty = ekl_core::Value::Object(vec![]);
        let options = event.get("options").unwrap_or(&empty);
        let state = State::new(url, parts_of(event, "parts")?.as_ref(), options)?;
        return Ok(answer(&state, "done", vec![]));
    }
    let mut state = match a.opt_value("state")? {
        Some(v) => State::from_value(&v)?,
        None => return Err(invalid("state is required (the last step's)")),
    };
    Ok(match on {
        "need" => {
            let d = state.need(now(event)?);
            decided(&state, d)
        }
        "need_failed" => {
            let d = state.need_failed(now(event)?, &error_of(event)?);
            decided(&state, d)
        }
        "kid" => {
            let status = kid_status(a)?;
            let d = state.kid(now(event)?, &status);
            decided(&state, d)
        }
        "kid_fetched" => {
            let d = state.kid_fetched(&kid_status(a)?);
            decided(&state, d)
        }
        "kid_failed" => {
            let e = state.kid_failed(&error_of(event)?);
            decided(&state, Decision::Fail(e))
        }
        "response" => {
            let status = whole(event, "status", 999.0)? as u16;
            let hop = state.response(
                status,
                opt_str(event, "location")?,
                parts_of(event, "next")?.as_ref(),
                whole(event, "hops", 1e6)? as u32,
                flag(event, "opaque")?,
            );
            match hop {
                Hop::Follow => answer(&state, "follow", vec![]),
                Hop::Read { max_bytes } => answer(
                    &state,
                    "read",
                    vec![("max_bytes", ekl_core::Value::Number(max_bytes as f64))],
                ),
                Hop::Fail(e) => answer(&state, "fail", vec![("error", error_json(&e))]),
            }
        }
        "body" => {
            let body = if a.is_absent("body")? {
                &[][..]
            } else {
                a.bytes("body")?
            };
            match state.body(body, flag(event, "longer")?) {
                Ok(set) => answer(&state, "done", vec![("set", set)]),
                Err(e) => answer(&state, "fail", vec![("error", error_json(&e))]),
            }
        }
        "fetched" => {
            state.fetched(now(event)?, opt_str(event, "cache_control")?);
            answer(&state, "done", vec![])
        }
        "failed" => {
            let failure = match opt_str(event, "cause")? {
                Some("timeout") => Failure::Timeout,
                Some("network") => Failure::Network,
                Some("refused") => Failure::Refused(error_of(event)?),
                _ => return Err(invalid("event.cause must be timeout, network or refused")),
            };
            let e = state.failed(now(event)?, failure);
            answer(&state, "fail", vec![("error", error_json(&e))])
        }
        _ => return Err(invalid("event.on is not an event of the key set's policy")),
    })
}
