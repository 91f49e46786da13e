//! `ekl call NAME`: any operation of the registry (conformance/src/call.rs), with the same results as the
//! dedicated commands.

mod common;
use common::{ekl_text as ekl, ekl_text_env as ekl_env, TestDir};

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
    let (code, out, _) = ekl(&["call", "--list", "--json"], b"");
    assert_eq!(code, 0);
    let file = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../docs/operations.json"
    ))
    .expect("docs/operations.json");
    assert_eq!(out, file);
}

#[test]
fn call_list_is_one_line_per_operation_for_people() {
    let (code, out, _) = ekl(&["call", "--list"], b"");
    assert_eq!(code, 0);
    let manifest = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../docs/operations.json"
    ))
    .expect("docs/operations.json");
    let names: Vec<&str> = manifest
        .lines()
        .filter(|l| l.contains("\"python\": "))
        .filter_map(|l| l.trim_start().strip_prefix("{\"name\": \""))
        .filter_map(|l| l.split('"').next())
        .collect();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), names.len() + 1, "{out}");
    for (line, name) in lines.iter().zip(&names) {
        assert!(line.starts_with(&format!("{name} ")), "{line}");
        assert!(line.contains(": "), "{line}");
    }
    assert!(
        out.contains("verify_jws  token typ jwks [now]") || out.contains("verify_jws "),
        "{out}"
    );
}

/// An argument given twice, by any two of --arg, --arg-file, --arg-env and --args, is a usage
/// error (exit 64) naming the argument and the two sources, never a value; it is found before
/// any value is read (a file that does not exist is not opened).
#[test]
fn a_repeated_argument_is_a_usage_error() {
    let dir = TestDir::new("cli-call");
    let args = dir.join("args.json");
    std::fs::write(&args, br#"{"now": 100000000000, "typ": "ekl-access+jwt"}"#).expect("write");
    let args = args.to_str().expect("utf-8 path");
    let missing = dir.join("missing");
    let missing = format!("secret={}", missing.to_str().expect("utf-8 path"));
    let receipt = r#"receipt={"a":1}"#;
    for (argv, env, name, sources) in [
        (
            vec![
                "call",
                "verify_jws",
                "--arg",
                "now=100000000000",
                "--arg",
                "now=1",
            ],
            vec![],
            "now",
            "--arg and --arg",
        ),
        (
            vec![
                "call",
                "sign_receipt",
                "--arg",
                receipt,
                "--arg-env",
                "secret=EKL_T_S",
                "--arg",
                "secret=x",
            ],
            vec![("EKL_T_S", "s3cr3t")],
            "secret",
            "--arg and --arg-env",
        ),
        (
            vec!["call", "verify_jws", "--args", args, "--arg", "now=1"],
            vec![],
            "now",
            "--args and --arg",
        ),
        (
            vec![
                "call",
                "verify_jws",
                "--args",
                args,
                "--arg-env",
                "typ=EKL_T_S",
            ],
            vec![("EKL_T_S", "ekl-receipt+jwt")],
            "typ",
            "--args and --arg-env",
        ),
        (
            vec![
                "call",
                "sign_receipt",
                "--arg",
                receipt,
                "--arg-file",
                &missing,
                "--arg",
                "secret=x",
            ],
            vec![],
            "secret",
            "--arg and --arg-file",
        ),
        (
            vec![
                "call",
                "sign_receipt",
                "--arg",
                receipt,
                "--arg-env",
                "secret=A",
                "--arg-env",
                "secret=B",
            ],
            vec![("A", "s3cr3t"), ("B", "other")],
            "secret",
            "--arg-env and --arg-env",
        ),
    ] {
        let (code, out, err) = ekl_env(&argv, b"", &env);
        assert_eq!((code, out.as_str()), (64, ""), "{argv:?}: {err}");
        let op = argv[1];
        assert_eq!(
            err,
            format!(
                "ekl: usage: {op}: argument {name} is given more than once ({sources}) \
                 (see 'ekl call --help')\n"
            ),
            "{argv:?}"
        );
        for secret in [
            "s3cr3t",
            "other",
            "100000000000",
            "ekl-receipt+jwt",
            "missing",
        ] {
            assert!(!err.contains(secret), "{err}");
        }
    }
    // The --args object itself may not repeat a member: its JSON is refused as any document.
    let dup = dir.join("dup.json");
    std::fs::write(&dup, br#"{"now": 1, "now": 2}"#).expect("write");
    let (code, _, err) = ekl(
        &[
            "call",
            "verify_jws",
            "--args",
            dup.to_str().expect("utf-8 path"),
        ],
        b"",
    );
    assert_eq!(
        (code, err.starts_with("ekl: DUPLICATE_KEY: ")),
        (2, true),
        "{err}"
    );
    // Given once each, the same arguments run.
    let (code, out, err) = ekl(
        &["call", "format_timestamp", "--arg", "time=1800000119.5"],
        b"",
    );
    assert_eq!(
        (code, out.as_str()),
        (0, "\"2027-01-15T08:01:59Z\"\n"),
        "{err}"
    );
}

/// A fractional `now` is floored (toward −∞) before the milliseconds check, from --arg text and
/// from --args JSON alike; NaN, infinities and non-numbers are INVALID_ARGUMENT.
#[test]
fn a_fractional_now_is_floored() {
    let dir = TestDir::new("cli-call-now");
    let time = |text: &str| {
        ekl(
            &["call", "format_timestamp", "--arg", &format!("time={text}")],
            b"",
        )
    };
    let json = |text: &str| {
        let p = dir.join("args.json");
        std::fs::write(&p, format!("{{\"time\": {text}}}")).expect("write");
        ekl(
            &[
                "call",
                "format_timestamp",
                "--args",
                p.to_str().expect("path"),
            ],
            b"",
        )
    };
    for (text, want) in [
        ("1800000119.5", "\"2027-01-15T08:01:59Z\"\n"),
        ("1800000119.999", "\"2027-01-15T08:01:59Z\"\n"),
        ("1800000119", "\"2027-01-15T08:01:59Z\"\n"),
        ("1.8000001195e9", "\"2027-01-15T08:01:59Z\"\n"),
        ("0.5", "\"1970-01-01T00:00:00Z\"\n"),
        ("99999999999.5", "\"5138-11-16T09:46:39Z\"\n"),
    ] {
        assert_eq!(time(text), (0, want.to_owned(), String::new()), "{text}");
        assert_eq!(json(text), (0, want.to_owned(), String::new()), "{text}");
    }
    // -99999999999.5 floors to -10^11: milliseconds; -0.5 to -1, a second before 1970.
    let ms = "ekl: INVALID_ARGUMENT: format_timestamp: time must be seconds since the epoch, not milliseconds\n";
    for text in [
        "100000000000",
        "100000000000.5",
        "-99999999999.5",
        "1e11",
        "1e15",
    ] {
        assert_eq!(time(text), (2, String::new(), ms.to_owned()), "{text}");
        assert_eq!(json(text), (2, String::new(), ms.to_owned()), "{text}");
    }
    let before = (0, "\"1969-12-31T23:59:59Z\"\n".to_owned(), String::new());
    assert_eq!(time("-0.5"), before);
    assert_eq!(json("-0.5"), before);
    // Beyond 2^53 no number is a time (ekl_bridge::seconds_of): not read as one.
    let (code, _, err) = json("1e300");
    assert_eq!(
        (code, err.as_str()),
        (
            2,
            "ekl: INVALID_ARGUMENT: argument time must be given as a number of seconds (a fraction is floored)\n"
        )
    );
    for text in [
        "1e300",
        "-1e17",
        "NaN",
        "inf",
        "-infinity",
        "soon",
        "",
        "0x10",
        "1.5.5",
        "1,5",
    ] {
        let (code, _, err) = time(text);
        assert_eq!(code, 2, "{text}");
        assert_eq!(
            err,
            "ekl: INVALID_ARGUMENT: argument time must be a number of seconds since the epoch\n",
            "{text}"
        );
    }
    // An int that is not a time keeps its rule: a fraction is refused.
    let (code, _, err) = ekl(
        &[
            "call",
            "canonicalize",
            "--arg",
            "text=[1]",
            "--arg",
            "max_bytes=2.5",
        ],
        b"",
    );
    assert_eq!(
        (code, err.as_str()),
        (
            2,
            "ekl: INVALID_ARGUMENT: argument max_bytes must be an integer\n"
        )
    );
}
