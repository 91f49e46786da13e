//! docs/errors.md is generated: the core's error table (`ekl_bridge::manifest::errors_md`) with,
//! for each code, the operations whose conformance requests expect it (`ekl conformance --emit`).
//! `EKL_BLESS=1 cargo test --release -p ekl-cli --test errors` rewrites it.

use std::path::PathBuf;
use std::process::Command;

use ekl_bridge::manifest::{errors_md, RaisedBy};

fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// Code → (registry operations, host helpers) from the conformance stream of the vector files.
fn raised_by() -> RaisedBy {
    let out = Command::new(env!("CARGO_BIN_EXE_ekl"))
        .args(["conformance", "--emit", "--corpus", "0", "--vectors"])
        .arg(root().join("vectors"))
        .output()
        .expect("run ekl conformance --emit");
    assert!(out.status.success(), "ekl conformance --emit failed");
    let text = String::from_utf8(out.stdout).expect("UTF-8 stream");
    let mut raised = RaisedBy::new();
    for line in text.lines() {
        let case: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let Some(code) = case["expect"]["error"].as_str() else {
            continue;
        };
        let request = &case["request"];
        let op = request["op"].as_str().unwrap_or_default();
        let name = request["name"].as_str().unwrap_or_default();
        let entry = raised.entry(code.to_string()).or_default();
        match op {
            "call" => {
                entry.0.insert(name.to_string());
            }
            "host" => {
                entry.1.insert(name.to_string());
            }
            // The legacy operations of the protocol: counted when they are registry names.
            legacy if ekl_bridge::find(legacy).is_some() => {
                entry.0.insert(legacy.to_string());
            }
            _ => {}
        }
    }
    raised.retain(|_, (ops, helpers)| !ops.is_empty() || !helpers.is_empty());
    raised
}

#[test]
fn errors_md_is_fresh() {
    let raised = raised_by();
    // The stream reaches the codes it must: a sanity check that the parse above found them.
    for code in [
        "INVALID_JSON",
        "DUPLICATE_KEY",
        "SIGNATURE_INVALID",
        "PROOF_DOWNGRADE",
    ] {
        assert!(raised.contains_key(code), "no request expects {code}");
    }
    assert!(raised["INPUT_TOO_DEEP"].0.contains("canonicalize"));
    for code in raised.keys() {
        assert!(
            ekl_core::ErrorCode::from_str_code(code).is_some(),
            "the stream expects {code}, not a code of the core"
        );
    }
    let want = errors_md(&raised);
    let path = root().join("docs").join("errors.md");
    if std::env::var_os("EKL_BLESS").is_some() {
        std::fs::write(&path, &want).expect("write docs/errors.md");
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/errors.md is stale: run `EKL_BLESS=1 cargo test --release -p ekl-cli --test errors`"
    );
    for code in ekl_core::ErrorCode::ALL {
        assert!(have.contains(&format!("| `{}` |", code.as_str())));
    }
}
