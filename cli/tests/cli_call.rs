//! `ekl call NAME`: any operation of the registry (cli/src/call.rs), with the same results as the
//! dedicated commands.

mod common;
use common::{ekl_text as ekl, ekl_text_env as ekl_env};

const SALT: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

#[test]
fn call_gives_what_the_dedicated_command_gives() {
    let doc = br#"{"b":[1.0,2e3],"a":"x"}"#;
    let (code, commit, _) = ekl(&["commit", "--salt", SALT], doc);
    assert_eq!(code, 0);
    let value = format!("value={}", String::from_utf8_lossy(doc));
    let salt = format!("salt={SALT}");
    let (code, called, err) = ekl(
        &["call", "commitment", "--arg", &value, "--arg", &salt],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(called.trim_end(), commit.trim_end());
    let (code, canon, _) = ekl(&["call", "canonicalize", "--arg-file", "text=-"], doc);
    assert_eq!(
        (code, canon.as_str()),
        (0, "{\"a\":\"x\",\"b\":[1,2000]}\n")
    );
}

#[test]
fn call_refusals_and_usage() {
    let (code, _, err) = ekl(&["call", "no_such_op"], b"");
    assert_eq!(code, 64, "{err}");
    let (code, _, err) = ekl(&["call", "commitment", "--arg", "valu={}"], b"");
    assert_eq!(code, 64, "{err}");
    assert!(err.contains("allowed: value, salt, salt_id"), "{err}");
    let (code, _, err) = ekl(&["call", "commitment"], b"");
    assert_eq!(code, 2);
    assert!(
        err.starts_with("ekl: INVALID_ARGUMENT: commitment: value is required"),
        "{err}"
    );
    let (code, _, err) = ekl(
        &["call", "commitment", "--arg", r#"value={"a":1,"a":2}"#],
        b"",
    );
    assert_eq!(code, 2);
    assert!(err.starts_with("ekl: DUPLICATE_KEY: "), "{err}");
}

#[test]
fn call_verdicts_exit_one_when_not_accepted_and_secrets_come_from_the_environment() {
    // The published receipt of vectors/call-receipt.json (its members, without auth_tag).
    let file = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../vectors/call-receipt.json"
    ))
    .expect("vectors/call-receipt.json");
    let doc: serde_json::Value = serde_json::from_str(&file).expect("JSON");
    let receipt = doc["receipt"].to_string();
    let call = format!("call={}", doc["call"]);
    let (code, signed, err) = ekl_env(
        &[
            "call",
            "sign_receipt",
            "--arg",
            &format!("receipt={receipt}"),
            "--arg-env",
            "secret=EKL_T_SECRET",
        ],
        b"",
        &[("EKL_T_SECRET", "s3cr3t")],
    );
    assert_eq!(code, 0, "{err}");
    assert!(!signed.contains("s3cr3t"));
    let call = call.as_str();
    let keys = r#"keys="s3cr3t""#;
    let r = format!("receipt={}", signed.trim_end());
    let (code, verdict, _) = ekl(
        &[
            "call",
            "verify_receipt",
            "--arg",
            &r,
            "--arg",
            keys,
            "--arg",
            call,
        ],
        b"",
    );
    assert_eq!(code, 0, "{verdict}");
    assert!(verdict.starts_with("{\"accepted\":true"), "{verdict}");
    let (code, verdict, _) = ekl(
        &[
            "call",
            "verify_receipt",
            "--arg",
            &r,
            "--arg",
            r#"keys="other""#,
            "--arg",
            call,
        ],
        b"",
    );
    assert_eq!(code, 1);
    assert!(verdict.starts_with("{\"accepted\":false"), "{verdict}");
}

#[test]
fn call_list_is_the_checked_in_manifest() {
    let (code, out, _) = ekl(&["call", "--list"], b"");
    assert_eq!(code, 0);
    let file = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../docs/operations.json"
    ))
    .expect("docs/operations.json");
    assert_eq!(out, file);
}
