//! The registry's rows read their arguments by parameter name and kind (`a.str("token")`), never
//! by position. These tests find a row that reads a name it does not declare, or a declared name
//! as another kind: such a read is refused as `INTERNAL`, which no call may ever answer.

use ekl_bridge::{call, Arg, Kind, OPERATIONS};
use ekl_core::jwk::jwks_from_seed;
use ekl_core::{ErrorCode, Value};

const SALT: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// Every operation, called with every parameter given (a value of its declared kind), then with
/// the required ones only: whatever it answers, it is never `INTERNAL`.
#[test]
fn every_operation_runs_on_its_declared_kinds() {
    let (jwks, keys) = jwks_from_seed(&[7u8; 32], &["k1"]).unwrap();
    let made = ekl_bridge::call_named(
        "remote_jwks_policy",
        &[
            ("url", Arg::Str("https://net.example/jwks.json")),
            ("scheme", Arg::Str("https")),
            ("host", Arg::Str("net.example")),
        ],
    );
    let Ok(ekl_bridge::Out::Handle(handle)) = made else {
        panic!("no handle: {made:?}");
    };
    let mut calls = 0;
    for op in OPERATIONS {
        for all in [true, false] {
            let args: Vec<Arg<'_>> = op
                .params
                .iter()
                .map(|p| {
                    if !all && !p.required {
                        return Arg::Absent;
                    }
                    match p.kind {
                        Kind::Value => Arg::Value(Value::Object(Vec::new())),
                        Kind::Text => Arg::Text(b"{}"),
                        Kind::Str => Arg::Str("x"),
                        Kind::Salt => Arg::Str(SALT),
                        Kind::Bytes => Arg::Bytes(b"x"),
                        Kind::Int => Arg::Int(1),
                        Kind::Now => Arg::Int(1_800_000_000),
                        Kind::Bool => Arg::Bool(false),
                        Kind::StrList => Arg::StrList(vec!["x"]),
                        Kind::Jwks => Arg::Jwks(&jwks),
                        Kind::Key => Arg::Key(&keys[0]),
                        Kind::Number => Arg::Number(1.0),
                        Kind::Handle(_) => Arg::Handle(&handle),
                    }
                })
                .collect();
            calls += 1;
            if let Err(e) = call(op, &args) {
                assert_ne!(e.code(), ErrorCode::Internal, "{}: {e}", op.name);
            }
        }
    }
    assert_eq!(calls, 2 * OPERATIONS.len());
}

/// Every name a row reads (`a.str("token")`, `salt(a, "salt")` …) in `src/ops/`, found in the
/// source: it is a parameter of that row. This reaches the reads that the call above does not
/// (after an early refusal of a placeholder value).
#[test]
fn every_name_a_row_reads_is_one_of_its_parameters() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ops");
    let mut src = String::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        src.push_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap());
    }
    let rows = src.split("\n    Op {\n").count() - 1;
    assert_eq!(rows, OPERATIONS.len(), "a row the scan does not find");
    let mut checked = 0;
    for block in src.split("\n    Op {\n").skip(1) {
        let name = block
            .split("name: \"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .expect("every row has a name");
        let op = OPERATIONS
            .iter()
            .find(|op| op.name == name)
            .expect("a row of the table");
        let body = block.split("\n];").next().unwrap_or(block);
        for (at, _) in body.match_indices("(\"") {
            let read = body[at + 2..].split('"').next().unwrap_or("");
            let before = &body[..at];
            // A read through the arguments: `a.<accessor>("…")` (helpers below).
            let callee = before
                .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
                .next()
                .unwrap_or("");
            let through_args = callee.starts_with("a.") || callee.starts_with("args.");
            if !through_args {
                continue;
            }
            assert!(
                op.params.iter().any(|p| p.name == read),
                "{name} reads {read:?}, which it does not declare"
            );
            checked += 1;
        }
        for (at, _) in body.match_indices("(a, \"") {
            let read = body[at + 5..].split('"').next().unwrap_or("");
            assert!(
                op.params.iter().any(|p| p.name == read),
                "{name} reads {read:?}, which it does not declare"
            );
            checked += 1;
        }
    }
    assert!(
        checked > 100,
        "only {checked} reads found: the scan is broken"
    );
}
