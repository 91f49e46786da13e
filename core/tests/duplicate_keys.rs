//! Duplicate member names (PROTOCOL §9.5 "no duplicate keys"; issue 10.5): every operation that
//! reads JSON text refuses a duplicate anywhere in it with `DUPLICATE_KEY`, after every parse-time
//! refusal of the text; operations on in-memory values refuse duplicates in the objects they look
//! members up in. Checked on generated documents (a duplicate at a random place, at any depth,
//! escaped or not) and on each operation.

mod support;

use std::borrow::Cow;

use ekl_core::canonical::{self, canonicalize, parse};
use ekl_core::digest::{self, Salt};
use ekl_core::jwk::{Jwks, SigningKey};
use ekl_core::jws::{self, ClaimChecks, Typ};
use ekl_core::{fingerprint, receipt, receipt_sig, screening, ErrorCode, Value};
use support::SplitMix64;

fn code<T: std::fmt::Debug>(r: ekl_core::Result<T>) -> &'static str {
    r.expect_err("refused").code().as_str()
}

/// A random document: nested arrays and objects (distinct keys), with `dup` set, one object at a
/// random place gets a second member with the name of one of its members (maybe escaped).
fn document(rng: &mut SplitMix64, dup: bool) -> String {
    // Build a tree of containers first, then write it; the duplicate goes to object number `at`.
    let mut out = String::new();
    let n_objects = std::cell::Cell::new(0usize);
    let target = if dup {
        Some(rng.below(6) as usize)
    } else {
        None
    };
    let mut injected = false;
    write(rng, 0, &mut out, &n_objects, target, &mut injected);
    if dup && !injected {
        // Fewer objects than the target: wrap the document in one that has the duplicate.
        out = format!(r#"{{"w":{out},"\u0077":0}}"#);
    }
    out
}

fn write(
    rng: &mut SplitMix64,
    depth: usize,
    out: &mut String,
    n_objects: &std::cell::Cell<usize>,
    target: Option<usize>,
    injected: &mut bool,
) {
    let pick = if depth >= 6 { 3 } else { rng.below(5) };
    match pick {
        0 | 1 => {
            let index = n_objects.get();
            n_objects.set(index + 1);
            let n = 1 + rng.below(5) as usize;
            out.push('{');
            for k in 0..n {
                if k > 0 {
                    out.push(',');
                }
                out.push_str(&format!("\"k{k}\":"));
                write(rng, depth + 1, out, n_objects, target, injected);
            }
            if target == Some(index) {
                let k = rng.below(n as u64);
                // The same name again, escaped half of the time ("k" is U+006B).
                let name = if rng.below(2) == 0 {
                    format!("k{k}")
                } else {
                    format!("\\u006b{k}")
                };
                out.push_str(&format!(",\"{name}\":null"));
                *injected = true;
            }
            out.push('}');
        }
        2 => {
            out.push('[');
            for k in 0..rng.below(4) {
                if k > 0 {
                    out.push(',');
                }
                write(rng, depth + 1, out, n_objects, target, injected);
            }
            out.push(']');
        }
        _ => out.push_str(["1", "\"s\"", "null", "2.5e3", "true"][rng.below(5) as usize]),
    }
}

#[test]
fn parse_refuses_a_duplicate_anywhere_and_the_paths_agree() {
    let mut rng = SplitMix64(0x6475_706c_6963_6174);
    for _ in 0..5_000 {
        let with = document(&mut rng, true);
        assert_eq!(code(parse(with.as_bytes())), "DUPLICATE_KEY", "{with}");
        assert_eq!(
            code(canonicalize(with.as_bytes())),
            "DUPLICATE_KEY",
            "{with}"
        );
        let without = document(&mut rng, false);
        let v = parse(without.as_bytes()).expect(&without);
        assert_eq!(
            canonical::canonicalize_value(&v).expect("canonical"),
            canonicalize(without.as_bytes()).expect("canonical"),
        );
        // Precedence: a later parse-time refusal comes first.
        for (tail, want) in [
            (",]", "INVALID_JSON"),
            (",\"\\ud800\"]", "LONE_SURROGATE"),
            (",NaN]", "NON_FINITE_NUMBER"),
            (",9007199254740993]", "INTEGER_OUT_OF_RANGE"),
            (",1]", "DUPLICATE_KEY"),
        ] {
            let text = format!("[{with}{tail}");
            assert_eq!(code(parse(text.as_bytes())), want, "{text}");
            assert_eq!(code(canonicalize(text.as_bytes())), want, "{text}");
        }
    }
}

#[test]
fn wide_objects() {
    let members: Vec<String> = (0..10_000).map(|i| format!("\"m{i}\":{i}")).collect();
    let distinct = format!("{{{}}}", members.join(","));
    assert!(parse(distinct.as_bytes()).is_ok());
    for extra in ["\"m0\":1", "\"m9999\":1", "\"m5000\":{}"] {
        let text = format!("{{{},{extra}}}", members.join(","));
        assert_eq!(code(parse(text.as_bytes())), "DUPLICATE_KEY", "{extra}");
    }
    // Names made to collide in the duplicate check's hash (same length, first and last 8
    // bytes), in descending order: still linearithmic (a quadratic check would not finish).
    let colliding: Vec<String> = (0..100_000)
        .rev()
        .map(|i| format!("\"abcdefgh{i:06}ijklmnop\":0"))
        .collect();
    let text = format!("{{{}}}", colliding.join(","));
    assert!(parse(text.as_bytes()).is_ok());
    let text = format!("{{{},\"abcdefgh050000ijklmnop\":1}}", colliding.join(","));
    assert_eq!(code(parse(text.as_bytes())), "DUPLICATE_KEY");
    // Already in order (canonical input) and reversed.
    let mut sorted = members.clone();
    sorted.sort();
    let text = format!("{{{}}}", sorted.join(","));
    assert!(parse(text.as_bytes()).is_ok());
    sorted.reverse();
    sorted.push("\"m1\":0".into());
    let text = format!("{{{}}}", sorted.join(","));
    assert_eq!(code(parse(text.as_bytes())), "DUPLICATE_KEY");
}

fn obj(members: Vec<(&'static str, Value<'static>)>) -> Value<'static> {
    Value::Object(
        members
            .into_iter()
            .map(|(k, v)| (Cow::Borrowed(k), v))
            .collect(),
    )
}

/// Values built in memory (not parsed) with duplicates in the objects an operation looks in.
#[test]
fn value_operations_refuse_duplicates_they_would_otherwise_read_first_wins() {
    let salt = Salt::from_hex(&"00".repeat(32)).expect("salt");
    let tool = obj(vec![("name", "a".into()), ("name", "b".into())]);
    let tools = obj(vec![("tools", Value::Array(vec![tool]))]);
    assert_eq!(
        code(fingerprint::upstream_fingerprint(&tools, Some(&["a"]))),
        "DUPLICATE_KEY"
    );
    let one = || Value::Number(1.0);
    let ignored = obj(vec![("name", "b".into()), ("x", one()), ("x", one())]);
    let tools = Value::Array(vec![obj(vec![("name", "a".into())]), ignored]);
    assert_eq!(
        code(fingerprint::upstream_fingerprint(&tools, Some(&["a"]))),
        "DUPLICATE_KEY"
    );
    let two_lists = obj(vec![
        ("tools", Value::Array(vec![])),
        ("tools", Value::Array(vec![])),
    ]);
    assert_eq!(
        code(fingerprint::upstream_projection(&two_lists, None)),
        "DUPLICATE_KEY"
    );
    let content = |t: &'static str| {
        Value::Array(vec![obj(vec![("type", "text".into()), ("text", t.into())])])
    };
    let result = obj(vec![("content", content("a")), ("content", content("b"))]);
    assert_eq!(
        code(fingerprint::output_fingerprint(&salt, &result)),
        "DUPLICATE_KEY"
    );
    assert_eq!(
        code(fingerprint::select_result_body(&result)),
        "DUPLICATE_KEY"
    );
    let terms = obj(vec![
        ("p", one()),
        ("hash", "x".into()),
        ("hash", "y".into()),
    ]);
    assert_eq!(code(digest::terms_hash(&terms)), "DUPLICATE_KEY");
    // The same shapes without duplicates are accepted.
    let result = obj(vec![("content", content("a"))]);
    assert!(fingerprint::output_fingerprint(&salt, &result).is_ok());
    let terms = obj(vec![("p", one()), ("hash", "x".into())]);
    assert_eq!(
        digest::terms_hash(&terms).expect("hash"),
        digest::value_digest(&obj(vec![("p", one())]), None).expect("digest")
    );
    // Network-signed receipts: two signatures are refused, not both dropped.
    let twice = obj(vec![
        ("execution_id", "e".into()),
        ("signature", "x".into()),
        ("signature", "y".into()),
    ]);
    assert_eq!(
        code(receipt_sig::receipt_signing_bytes(&twice)),
        "DUPLICATE_KEY"
    );
}

/// Every other reader of text in the core: key sets, private keys, JWS headers and payloads,
/// screening rules, receipts.
#[test]
fn every_text_reader_refuses_duplicates() {
    let key = SigningKey::from_seed(&[3u8; 32], "k").expect("key");
    let jwk = key.public_jwk().to_value();
    let jwk_text =
        String::from_utf8(canonical::canonicalize_value(&jwk).expect("jwk")).expect("utf8");
    let set = format!(r#"{{"keys":[{jwk_text}]}}"#);
    assert!(Jwks::parse(set.as_bytes()).is_ok());
    // A duplicate in a member the key set ignores.
    let set_dup = format!(r#"{{"keys":[{jwk_text}],"x":{{"y":1,"y":2}}}}"#);
    assert_eq!(code(Jwks::parse(set_dup.as_bytes())), "DUPLICATE_KEY");
    let private = key.to_private_jwk_json();
    let private_dup = format!(r#"{},"kid":"k"}}"#, private.trim_end_matches('}'));
    assert_eq!(
        code(SigningKey::from_jwk(private_dup.as_bytes())),
        "DUPLICATE_KEY"
    );
    // JWS: a payload with a duplicate in a claim nobody checks.
    let jwks = Jwks::parse(set.as_bytes()).expect("jwks");
    let header = br#"{"alg":"ES256","kid":"k","typ":"ekl-access+jwt"}"#;
    let token = jws::sign_bytes(header, br#"{"iat":1,"exp":2,"x":{"a":1,"a":1}}"#, &key);
    assert_eq!(
        code(jws::verify(&token, Typ::Access, &jwks, &ClaimChecks::at(1))),
        "DUPLICATE_KEY"
    );
    let token = jws::sign_bytes(
        br#"{"alg":"ES256","kid":"k","typ":"ekl-access+jwt","x":1,"x":1}"#,
        br#"{"iat":1,"exp":2}"#,
        &key,
    );
    assert_eq!(code(jws::decode(&token)), "DUPLICATE_KEY");
    // Screening rules and receipts read from text.
    let rules = br#"{"rules_version":"v1","rules":[{"rule_id":"r","category":"c","phrases":["x"],"phrases":["y"]}]}"#;
    assert_eq!(
        code(parse(rules).and_then(|v| screening::ScreeningRules::from_claims(&v))),
        "DUPLICATE_KEY"
    );
    let receipt_text = br#"{"key_id":"rk-1","status":"succeeded","status":"failed_before_effect"}"#;
    assert_eq!(
        code(parse(receipt_text).and_then(|v| receipt::auth_tag(&v, "s"))),
        "DUPLICATE_KEY"
    );
    // The error never echoes the key or the document.
    let e = parse(br#"{"secret-name":1,"secret-name":2}"#).expect_err("refused");
    assert!(!e.message().contains("secret"), "{}", e.message());
    assert_eq!(e.code(), ErrorCode::DuplicateKey);
}
