//! Fuzz target: the key set's cache policy (`ekl_core::remote_jwks`, docs/decisions.md#remote-jwks)
//! driven by arbitrary events, times and bodies, and arbitrary JSON as options.
//!
//! Invariants: no panic; a set is
//! served without a fetch while fresh, and freshness is at least the cooldown; no fetch within the
//! cooldown after a failure, nor a second unknown-kid refetch within the cooldown; a redirect is
//! followed only on the origin and at most `MAX_REDIRECTS` times; an accepted body is within
//! `max_bytes`, has no duplicate member (the strict reader) and is a usable key set.
#![no_main]

use ekl_core::canonical;
use ekl_core::jwk::Jwks;
use ekl_core::remote_jwks::{Decision, Failure, Hop, KidStatus, State, UrlParts, MAX_REDIRECTS};
use ekl_core::{Error, ErrorCode, Value};
use libfuzzer_sys::fuzz_target;

fn parts(https: bool, host: &str, port: Option<u16>) -> UrlParts {
    UrlParts {
        scheme: if https { "https" } else { "http" }.into(),
        host: host.into(),
        port,
        credentials: false,
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    if mode & 1 == 0 {
        // Arbitrary JSON as options: refused or read, never a panic (the state lives in the
        // handle since issue 42: no state value to read back).
        if let Ok(v) = canonical::parse(rest) {
            let url = "https://net.example/jwks.json";
            if let Ok(s) = State::new(url, Some(&parts(true, "net.example", None)), &v) {
                let _ = s.need(0.0);
            }
        }
        return;
    }
    // Options from the first bytes, then one event per 3 bytes; a body from the tail.
    let (head, tail) = rest.split_at(rest.len().min(96));
    let opt = |i: usize| f64::from(*head.get(i).unwrap_or(&0));
    let options = Value::Object(vec![
        ("cooldown".into(), Value::Number(opt(0))),
        ("default_max_age".into(), Value::Number(opt(1) * 3.0)),
        ("max_stale".into(), Value::Number(opt(2) * 7.0)),
        ("max_bytes".into(), Value::Number(1.0 + opt(3) * 16.0)),
    ]);
    let https = mode & 2 != 0;
    let url = if https {
        "https://net.example/j"
    } else {
        "http://net.example/j"
    };
    let Ok(mut s) = State::new(url, Some(&parts(https, "net.example", None)), &options) else {
        return;
    };
    let cooldown = opt(0);
    let mut now = 1000.0;
    let mut fresh_until: Option<f64> = None;
    let mut failed_at: Option<f64> = None;
    let mut kid_at: Option<f64> = None;
    for ev in head.get(4..).unwrap_or(&[]).chunks(3) {
        let (kind, a, b) = (ev[0], *ev.get(1).unwrap_or(&0), *ev.get(2).unwrap_or(&0));
        now += f64::from(a) / 4.0;
        match kind % 8 {
            0 => {
                let d = s.need(now);
                if fresh_until.is_some_and(|f| now < f) {
                    assert_eq!(d, Decision::Serve);
                }
                if failed_at.is_some_and(|t| now - t < cooldown) {
                    assert!(!matches!(d, Decision::Fetch { .. }));
                }
            }
            1 => {
                let cc = ["max-age=5", "no-store", "max-age=\"999999\"", "private", ""]
                    [usize::from(b % 5)];
                let set = Jwks::parse(SET).expect("the set");
                s.fetched(now, Some(cc), set);
                fresh_until = Some(now + cooldown.max(0.0));
                failed_at = None;
                assert!(s.need(now + cooldown * 0.99) == Decision::Serve || cooldown == 0.0);
            }
            2 => {
                let e = Error::new(ErrorCode::JwksUnavailable, "x");
                let f = [Failure::Timeout, Failure::Network, Failure::Refused(e)];
                let e = s.failed(now, f[usize::from(b % 3)].clone());
                assert_eq!(e.code(), ErrorCode::JwksUnavailable);
                failed_at = Some(now);
                let _ = s.need_failed(now, &e);
            }
            3 | 4 => {
                let status = [
                    KidStatus::NoKid,
                    KidStatus::Known,
                    KidStatus::Skipped,
                    KidStatus::Unknown,
                ][usize::from(b % 4)];
                let d = s.kid(now, &status);
                if matches!(d, Decision::Fetch { .. }) {
                    assert_eq!(status, KidStatus::Unknown);
                    assert!(kid_at.is_none_or(|t| now - t >= cooldown));
                    assert!(failed_at.is_none_or(|t| now - t >= cooldown));
                    kid_at = Some(now);
                }
                let _ = s.kid_fetched(&status);
            }
            5 => {
                let status =
                    [200u16, 204, 301, 302, 303, 307, 308, 404, 500, 0][usize::from(b % 10)];
                let next = match a % 4 {
                    0 => None,
                    1 => Some(parts(https, "net.example", None)),
                    2 => Some(parts(!https, "net.example", None)),
                    _ => Some(parts(https, "other.example", Some(8443))),
                };
                let hops = u32::from(a % 8);
                let hop = s.response(
                    status,
                    (a & 16 != 0).then_some("/x"),
                    next.as_ref(),
                    hops,
                    a & 32 != 0,
                );
                if hop == Hop::Follow {
                    assert!(hops < MAX_REDIRECTS);
                    assert_eq!(next, Some(parts(https, "net.example", None)));
                }
            }
            _ => {
                let cut = usize::from(b).min(tail.len());
                if let Ok(set) = s.body(&tail[cut..], a & 1 != 0) {
                    assert!(a & 1 == 0);
                    assert!(tail[cut..].len() as f64 <= 1.0 + opt(3) * 16.0);
                    assert!(!set.keys().is_empty(), "a usable set");
                    canonical::parse(set.to_json().as_bytes()).expect("no duplicate member");
                }
            }
        }
    }
});

/// A usable key set (one P-256 key).
const SET: &[u8] = br#"{"keys":[{"kty":"EC","crv":"P-256","kid":"k1","x":"IBPaEMdAdqp6YxXlh70zMSKLxblldoQmMNdSuUfZ6ow","y":"I9B6U2c_y7Iwzk1NQNbXCWZzGpmBvc1Tbvs_CYkL8Ik"}]}"#;
