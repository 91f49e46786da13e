//! The `ekl` command-line tool: outputs, exit statuses and error codes on refusal.

mod common;
use common::{ekl, TestDir};

const SALT: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

#[test]
fn canon_from_stdin() {
    let (code, out, _) = ekl(&["canon"], br#"{"b":1.0,"a":"\u00e9"}"#);
    assert_eq!(code, 0);
    assert_eq!(out, r#"{"a":"é","b":1}"#.as_bytes());
}

#[test]
fn canon_from_file_and_dash() {
    let dir = TestDir::new("cli");
    let f = dir.join("in.json");
    std::fs::write(&f, b"[1e21, -0.0]").expect("write input");
    let (code, out, _) = ekl(&["canon", f.to_str().expect("utf-8 path")], b"");
    assert_eq!((code, out.as_slice()), (0, &b"[1e+21,0]"[..]));
    let (code, out, _) = ekl(&["canon", "-"], b"[1e-7]");
    assert_eq!((code, out.as_slice()), (0, &b"[1e-7]"[..]));
    // A file that cannot be read: a refusal with the OS's reason, never the path.
    let missing = dir.join("missing-file-name");
    let (code, _, err) = ekl(&["canon", missing.to_str().expect("path")], b"");
    assert_eq!(code, 2, "{err}");
    assert_eq!(
        err,
        "ekl: INVALID_ARGUMENT: cannot read the input file: No such file or directory\n"
    );
    let (code, _, err2) = ekl(&["canon", dir.path().to_str().expect("path")], b"");
    assert_eq!(
        (code, err2.as_str()),
        (
            2,
            "ekl: INVALID_ARGUMENT: cannot read the input file: Is a directory\n"
        ),
    );
}

#[test]
fn refusals_exit_2_with_the_code() {
    for (input, code) in [
        (&br#"{"a":1,"\u0061":2}"#[..], "DUPLICATE_KEY"),
        (b"[NaN]", "NON_FINITE_NUMBER"),
        (b"[9007199254740993]", "INTEGER_OUT_OF_RANGE"),
        (br#"["\ud800"]"#, "LONE_SURROGATE"),
        (b"[\xff]", "INVALID_UTF8"),
        (b"[1,]", "INVALID_JSON"),
    ] {
        let (status, out, err) = ekl(&["canon"], input);
        assert_eq!(status, 2);
        assert!(out.is_empty());
        assert!(err.starts_with(&format!("ekl: {code}: ")), "{err}");
    }
    let deep = "[".repeat(100_000);
    let (status, _, err) = ekl(&["digest"], deep.as_bytes());
    assert_eq!(status, 2);
    assert!(err.starts_with("ekl: INPUT_TOO_DEEP: "), "{err}");
}

#[test]
fn size_limit_is_an_option() {
    let big = format!("[\"{}\"]", "x".repeat(300_000));
    assert_eq!(ekl(&["canon"], big.as_bytes()).0, 0);
    let (status, _, err) = ekl(&["canon", "--capability-input"], big.as_bytes());
    assert_eq!(status, 2);
    assert!(err.starts_with("ekl: BODY_TOO_LARGE: "), "{err}");
    assert_eq!(ekl(&["canon", "--max-bytes", "4"], b"[1]").0, 0);
    assert_eq!(ekl(&["canon", "--max-bytes", "2"], b"[1]").0, 2);
}

#[test]
fn digests_and_fingerprints() {
    let value = br#"{"min_beds":3,"area_ref":"loc:ca:dublin"}"#;
    let (code, out, _) = ekl(&["fingerprint", "--salt", SALT], value);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        b"46839dcf7511e1b9789e56ccbce9a4e7a562adc9aa9b1088337802fec1018a3c\n"
    );
    let (code, out, _) = ekl(&["digest"], b"{\"a\":1}");
    assert_eq!(code, 0);
    // sha256 of the canonical text {"a":1}
    assert_eq!(
        out,
        b"015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862\n"
    );
    let (code, _, err) = ekl(&["fingerprint", "--salt", &SALT.to_uppercase()], value);
    assert_eq!(code, 2);
    assert!(err.starts_with("ekl: INVALID_SALT: "), "{err}");
    let (code, _, _) = ekl(&["fingerprint"], value);
    assert_eq!(code, 64);
}

#[test]
fn commit_and_terms_hash() {
    let (code, out, _) = ekl(&["commit"], b"{\"a\":1}");
    assert_eq!(code, 0);
    assert_eq!(
        String::from_utf8(out).expect("utf-8"),
        "{\"alg\":\"sha-256\",\"canon\":\"ekl-json-1\",\"digest\":\"015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862\"}\n"
    );
    // The terms hash ignores the terms' own `hash` member.
    let (_, with, _) = ekl(&["terms-hash"], br#"{"a":1,"hash":"x"}"#);
    let (_, without, _) = ekl(&["digest"], br#"{"a":1}"#);
    assert_eq!(with, without);
}

#[test]
fn upstream_and_output_fingerprints() {
    let tools = br#"{"tools":[{"name":"b","x":1},{"name":"a"}]}"#;
    let projected = br#"[{"annotations":null,"description":null,"inputSchema":null,"name":"a","outputSchema":null},{"annotations":null,"description":null,"inputSchema":null,"name":"b","outputSchema":null}]"#;
    let (_, want, _) = ekl(&["digest"], projected);
    let (code, got, _) = ekl(&["upstream-fingerprint"], tools);
    assert_eq!((code, got), (0, want));
    let result = br#"{"content":[{"type":"text","text":"No homes match."}],"isError":false}"#;
    let (code, out, _) = ekl(&["output-fingerprint", "--salt", SALT], result);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        b"9e0ff412a7b964ff6f0208b744dc2428b7ef00daab4f83170f95c7b7f9fd09fe\n"
    );
}

#[test]
fn error_codes_lists_every_code() {
    let (code, out, _) = ekl(&["error-codes"], b"");
    assert_eq!(code, 0);
    let text = String::from_utf8(out).expect("utf-8");
    assert!(text.lines().any(|l| l == "INPUT_TOO_DEEP"));
    assert!(text.lines().any(|l| l == "BODY_TOO_LARGE"));
    assert_eq!(text.lines().count(), ekl_core::ErrorCode::ALL.len());
}
