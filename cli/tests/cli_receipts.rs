//! The `ekl receipt`, `ekl proof` and `ekl screen` commands, checked against the vector files read in
//! place (expected values come from the files, which Python's stdlib computed).

mod common;
use common::ekl_text as ekl;
use common::TestDir;

use std::path::PathBuf;

use serde_json::Value as J;

fn vector(name: &str) -> J {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../vectors")
        .join(name);
    serde_json::from_slice(&std::fs::read(path).expect("vector file")).expect("json")
}

/// `v` written to `name` in the test's own folder: its path.
fn tmp(dir: &TestDir, name: &str, v: &J) -> String {
    dir.write(name, serde_json::to_vec(v).expect("json"))
}

fn st<'a>(v: &'a J, k: &str) -> &'a str {
    v[k].as_str().expect("string member")
}

#[test]
fn receipt_sign_digest_verify() {
    let dir = TestDir::new("cli-receipts");
    let d = vector("call-receipt.json");
    let secret = st(&d, "receipt_secret");
    let receipt = serde_json::to_vec(&d["receipt"]).expect("json");
    let (code, signed, err) = ekl(&["receipt", "sign", "--secret", secret], &receipt);
    assert_eq!(code, 0, "{err}");
    let signed_v: J = serde_json::from_str(&signed).expect("signed json");
    assert_eq!(signed_v["auth_tag"], d["auth_tag"]);
    let (code, digest, _) = ekl(&["receipt", "digest"], signed.as_bytes());
    assert_eq!((code, digest.trim()), (0, st(&d, "receipt_digest")));

    // Signing a signed receipt is refused.
    let (code, _, err) = ekl(&["receipt", "sign", "--secret", secret], signed.as_bytes());
    assert_eq!(code, 2);
    assert!(err.starts_with("ekl: INVALID_RECEIPT: "), "{err}");

    let call = tmp(&dir, "call.json", &d["call"]);
    let input = tmp(&dir, "in.json", &d["input"]);
    let result = tmp(&dir, "out.json", &d["result"]);
    let (code, out, err) = ekl(
        &[
            "receipt",
            "verify",
            "--secret",
            secret,
            "--call",
            &call,
            "--own-input",
            &input,
            "--own-result",
            &result,
        ],
        signed.as_bytes(),
    );
    assert_eq!(code, 0, "{err}");
    let v: J = serde_json::from_str(&out).expect("verdict json");
    assert_eq!(v["accepted"], J::Bool(true));
    assert_eq!(v["receipt_digest"], d["receipt_digest"]);

    // The consumer received another result: exit 1, a mismatch named.
    let mut other = d["result"].clone();
    other["total"] = J::from(41.5);
    let other = tmp(&dir, "other.json", &other);
    let (code, out, _) = ekl(
        &[
            "receipt",
            "verify",
            "--secret",
            secret,
            "--call",
            &call,
            "--own-result",
            &other,
        ],
        signed.as_bytes(),
    );
    assert_eq!(code, 1);
    let v: J = serde_json::from_str(&out).expect("verdict json");
    let bad: Vec<(&str, &str)> = v["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .filter(|c| c["outcome"] != "pass")
        .map(|c| (st(c, "name"), st(c, "outcome")))
        .collect();
    assert_eq!(bad, [("output_commitment", "mismatch")]);

    // With the rotation ring, rk-1's receipt issued before the rotation verifies.
    let keys = tmp(&dir, "keys.json", &d["key_ring"]["keys"]);
    let (code, _, err) = ekl(
        &["receipt", "verify", "--key-ring", &keys, "--call", &call],
        signed.as_bytes(),
    );
    assert_eq!(code, 0, "{err}");

    // Not a receipt at all: a refusal.
    let (code, _, err) = ekl(
        &["receipt", "verify", "--secret", secret, "--call", &call],
        b"[1]",
    );
    assert_eq!(code, 2);
    assert!(err.starts_with("ekl: INVALID_RECEIPT: "), "{err}");
    let (code, _, err) = ekl(&["receipt", "digest"], br#"{"a":1,"a":2}"#);
    assert_eq!(code, 2);
    assert!(err.starts_with("ekl: DUPLICATE_KEY: "), "{err}");
    // No secret ever appears in an error.
    assert!(!err.contains(secret));
}

#[test]
fn proof_commands_match_the_vectors() {
    let d = vector("endpoint-proof-v2.json");
    let ak = st(&d, "agent_key");
    let (code, out, _) = ekl(&["proof", "key", "--agent-key", ak], b"");
    assert_eq!((code, out.trim()), (0, st(&d, "proof_key")));
    let (code, out, _) = ekl(&["proof", "key"], format!("{ak}\n").as_bytes());
    assert_eq!((code, out.trim()), (0, st(&d, "proof_key")));

    for c in d["challenges"].as_array().expect("challenges") {
        let (ch, ep) = (st(c, "challenge"), st(c, "endpoint"));
        let (_, out, _) = ekl(
            &[
                "proof",
                "challenge",
                "--challenge",
                ch,
                "--endpoint",
                ep,
                "--proof-key",
                st(&d, "proof_key"),
            ],
            b"",
        );
        assert_eq!(out.trim(), st(c, "proof_v2"));
        let (_, out, _) = ekl(
            &[
                "proof",
                "challenge",
                "--challenge",
                ch,
                "--endpoint",
                ep,
                "--agent-key",
                ak,
                "--v1",
            ],
            b"",
        );
        assert_eq!(out.trim(), st(c, "proof"));
    }
    let e = &d["enroll"][0];
    let base = [
        "proof",
        "enroll",
        "--enrollment-id",
        st(e, "enrollment_id"),
        "--nonce",
        st(e, "nonce"),
        "--endpoint",
        st(e, "endpoint"),
        "--agent-key",
        ak,
    ];
    let (_, out, _) = ekl(&base, b"");
    assert_eq!(out.trim(), st(e, "authority_v2"));
    let mut v1 = base.to_vec();
    v1.push("--v1");
    let (_, out, _) = ekl(&v1, b"");
    assert_eq!(out.trim(), st(e, "authority_v1"));

    let s = &d["verify_signature"][0];
    let args = [
        "proof",
        "verify-signature",
        "--secret",
        st(s, "registration_secret"),
        "--agent-id",
        st(s, "agent_id"),
        "--enrollment-id",
        st(s, "enrollment_id"),
        "--challenge",
        st(s, "challenge"),
    ];
    let (_, out, _) = ekl(&args, b"");
    assert_eq!(out.trim(), st(s, "signature"));
    let mut check = args.to_vec();
    check.extend(["--signature", st(s, "signature")]);
    assert_eq!(ekl(&check, b"").0, 0);
    check.pop();
    let wrong = "0".repeat(64);
    check.push(&wrong);
    assert_eq!(ekl(&check, b"").0, 1);
}

#[test]
fn proof_verifiers_refuse_downgrades() {
    let d = vector("endpoint-proof-v2.json");
    let c = &d["challenges"][0];
    let common = [
        "proof",
        "verify-challenge",
        "--challenge",
        st(c, "challenge"),
        "--endpoint",
        st(c, "endpoint"),
    ];
    let with = |extra: &[&str]| {
        let mut a = common.to_vec();
        a.extend_from_slice(extra);
        ekl(&a, b"")
    };
    let pk = st(&d, "proof_key");
    let (code, _, err) = with(&["--proof-key", pk, "--proof", st(c, "proof")]);
    assert_eq!(code, 2);
    assert!(err.starts_with("ekl: PROOF_DOWNGRADE: "), "{err}");
    let (code, out, _) = with(&["--proof-key", pk, "--proof-v2", st(c, "proof_v2")]);
    assert_eq!((code, out.trim()), (0, "v2"));
    let hash = st(&d, "agent_key_sha256");
    let (code, out, _) = with(&["--credential-sha256", hash, "--proof", st(c, "proof")]);
    assert_eq!((code, out.trim()), (0, "v1"));
    let (code, _, err) = with(&["--credential-sha256", hash]);
    assert_eq!(code, 2);
    assert!(err.starts_with("ekl: PROOF_INVALID: "), "{err}");

    let e = &d["enroll"][0];
    let enroll = |announced: &str, authority: &str, version: Option<&str>| {
        let mut a = vec![
            "proof",
            "verify-enroll",
            "--announced",
            announced,
            "--agent-key",
            st(&d, "agent_key"),
            "--enrollment-id",
            st(e, "enrollment_id"),
            "--nonce",
            st(e, "nonce"),
            "--endpoint",
            st(e, "endpoint"),
            "--authority",
            authority,
        ];
        if let Some(v) = version {
            a.extend(["--authority-version", v]);
        }
        ekl(&a, b"")
    };
    let (code, _, err) = enroll("v2", st(e, "authority_v1"), None);
    assert_eq!(code, 2);
    assert!(err.starts_with("ekl: PROOF_DOWNGRADE: "), "{err}");
    assert_eq!(enroll("v1", st(e, "authority_v1"), None).1.trim(), "v1");
    assert_eq!(
        enroll("v2", st(e, "authority_v2"), Some("2")).1.trim(),
        "v2"
    );
}

#[test]
fn screen_reports_flags_without_the_text() {
    let dir = TestDir::new("cli-receipts");
    let d = vector("screening-scan.json");
    let rules = tmp(&dir, "rules.json", &d["rules_sets"]["rules"]);
    for case in d["cases"].as_array().expect("cases") {
        let result = serde_json::to_vec(&case["result"]).expect("json");
        let mut args = vec!["screen"];
        if case["rules"].is_string() {
            args.extend(["--rules", rules.as_str()]);
        }
        let (code, out, err) = ekl(&args, &result);
        assert_eq!(code, 0, "{err}");
        let got: J = serde_json::from_str(&out).expect("flags json");
        assert_eq!(got, case["expected"], "{}", st(case, "name"));
    }
    let bad = tmp(&dir, "bad.json", &d["invalid_rules"][0]["claims"]);
    let (code, _, err) = ekl(&["screen", "--rules", &bad], b"{}");
    assert_eq!(code, 2);
    assert!(err.starts_with("ekl: INVALID_SHAPE: "), "{err}");
}

/// `receipt issue`: the issued receipt verifies for its call; salts left out are fresh (two
/// issues differ), given ones give the vector's bytes; the clock is the default time; refusals
/// name the verifier's check.
#[test]
fn receipt_issue_from_the_call() {
    let dir = TestDir::new("cli-receipts");
    let d = vector("call-receipt.json");
    let case = &d["issue"]["cases"][0];
    let secret = st(case, "secret");
    let call = tmp(&dir, "issue-call.json", &case["call"]);
    let input = tmp(&dir, "issue-in.json", &case["input"]);
    let output = tmp(&dir, "issue-out.json", &case["output"]);
    let base = [
        "receipt",
        "issue",
        "--call",
        &call,
        "--input",
        &input,
        "--output",
        &output,
        "--status",
        "succeeded",
        "--rel-ver-at-admission",
        "4",
        "--dsc-ver",
        "12",
        "--secret-env",
        "EKL_TEST_RECEIPT_SECRET",
    ];
    let env = [("EKL_TEST_RECEIPT_SECRET", secret)];
    let issue = |extra: &[&str]| {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        common::ekl_text_env(&args, b"", &env)
    };
    let before = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_secs();
    let (c1, one, e1) = issue(&[]);
    let (c2, two, e2) = issue(&[]);
    assert_eq!((c1, c2), (0, 0), "{e1}{e2}");
    let (one, two): (J, J) = (
        serde_json::from_str(&one).expect("json"),
        serde_json::from_str(&two).expect("json"),
    );
    for side in ["input_commitment", "output_commitment"] {
        assert_ne!(
            one[side]["salt"], two[side]["salt"],
            "{side}: a fresh salt each time"
        );
        assert_eq!(one[side]["salt"].as_str().map(str::len), Some(64));
    }
    assert_ne!(
        one["input_commitment"]["salt"],
        one["output_commitment"]["salt"]
    );
    assert_ne!(one["receipt_id"], two["receipt_id"]);
    // issued_at is the clock's (whole seconds, the protocol's form).
    let (code, stamp, _) = ekl(
        &[
            "call",
            "format_timestamp",
            "--arg",
            &format!("time={before}"),
        ],
        b"",
    );
    assert_eq!(code, 0);
    let stamp: String = serde_json::from_str(&stamp).expect("a JSON string");
    let issued = st(&one, "issued_at");
    assert!(
        issued.len() == 20 && issued >= stamp.as_str(),
        "{issued} {stamp}"
    );
    // Each verifies for the call, with the consumer's own commitments under the receipt's salts.
    for r in [&one, &two] {
        let receipt = tmp(&dir, "issued.json", r);
        let own = |value: &J, salt: &J| {
            let salt = salt.as_str().expect("salt");
            let (code, c, e) = ekl(
                &[
                    "call",
                    "commitment",
                    "--arg",
                    &format!("value={value}"),
                    "--arg",
                    &format!("salt={salt}"),
                ],
                b"",
            );
            assert_eq!(code, 0, "{e}");
            c.trim().to_owned()
        };
        let own_in = own(&case["input"], &r["input_commitment"]["salt"]);
        let own_out = own(&case["output"], &r["output_commitment"]["salt"]);
        let (code, out, err) = ekl(
            &[
                "call",
                "verify_receipt",
                "--arg-file",
                &format!("receipt={receipt}"),
                "--arg",
                &format!("keys={}", J::from(secret)),
                "--arg-file",
                &format!("call={call}"),
                "--arg",
                &format!("input_commitment={own_in}"),
                "--arg",
                &format!("output_commitment={own_out}"),
            ],
            b"",
        );
        assert_eq!(code, 0, "{out}{err}");
        assert!(out.contains("\"accepted\":true"), "{out}");
        // The named command, as the README shows it: each own commitment takes the salt of the
        // receipt's commitment on its side (two salts; one --salt could not match both).
        let named = |own_input: &str| {
            common::ekl_text_env(
                &[
                    "receipt",
                    "verify",
                    "--secret-env",
                    "EKL_TEST_RECEIPT_SECRET",
                    "--call",
                    &call,
                    "--own-input",
                    own_input,
                    "--own-result",
                    &output,
                    &receipt,
                ],
                b"",
                &env,
            )
        };
        let (code, out, err) = named(&input);
        assert_eq!(code, 0, "{out}{err}");
        assert!(out.contains("\"accepted\":true"), "{out}");
        let other = tmp(
            &dir,
            "issue-other-in.json",
            &serde_json::json!({"currency": "USD"}),
        );
        let (code, out, _) = named(&other);
        assert_eq!(code, 1, "another input is a dispute: {out}");
        assert!(out.contains("\"accepted\":false"), "{out}");
    }
    // Given salts and time (--now is --issued-at): the vector's bytes.
    let (code, given, err) = issue(&[
        "--now",
        "1795977605",
        "--input-salt",
        st(case, "input_salt"),
        "--output-salt",
        st(case, "output_salt"),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        serde_json::from_str::<J>(&given).expect("json"),
        case["expected"]
    );
    // Refusals: exit 2, the verifier's check named; a missing flag is a usage error.
    for (extra, want) in [
        (
            &["--status", "done"][..],
            "ekl: INVALID_RECEIPT: status: not an execution status",
        ),
        (&["--key-id", ""][..], "ekl: INVALID_RECEIPT: key_id: empty"),
        (&["--input-salt", "AB"][..], "ekl: INVALID_SALT: "),
        (
            &["--now", "1795977605000"][..],
            "ekl: INVALID_ARGUMENT: issue_mac_receipt: issued_at must be seconds",
        ),
    ] {
        let args: Vec<&str> = base
            .iter()
            .filter(|a| **a != "succeeded" && **a != "--status")
            .chain(extra)
            .copied()
            .collect();
        let args: Vec<&str> = if extra[0] == "--status" {
            args
        } else {
            args.into_iter().chain(["--status", "succeeded"]).collect()
        };
        let (code, out, err) = common::ekl_text_env(&args, b"", &env);
        assert_eq!((code, out.as_str()), (2, ""), "{err}");
        assert!(err.starts_with(want), "{err}");
        assert!(!err.contains(secret));
    }
    let mut trial_call = case["call"].clone();
    trial_call["execution_kind"] = J::from("trial");
    let trial_call = tmp(&dir, "issue-trial-call.json", &trial_call);
    let args: Vec<&str> = base
        .iter()
        .map(|a| if *a == call { trial_call.as_str() } else { a })
        .collect();
    let (code, _, err) = common::ekl_text_env(&args, b"", &env);
    assert_eq!(code, 2);
    assert!(err.starts_with("ekl: INVALID_RECEIPT: kind_fields: a trial or validation receipt must not carry reservation_id, grant_id, admission_id"), "{err}");
    let (code, _, err) = ekl(&base[..base.len() - 2], b"");
    assert_eq!(code, 64, "{err}");
}
