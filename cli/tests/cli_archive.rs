//! `ekl receipt verify-archive`: the dashboard's sample archive gives the verdicts the sample
//! expects (sample/expected.json), and `--jobs 1`, `--jobs 2` and `--jobs 8` print the same bytes.

use std::path::PathBuf;

use serde_json::Value as J;

mod common;
use common::{ekl, TestDir};

fn sample(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/dashboard/sample")
        .join(name)
}

/// The test's own folder, the key ring file in it (settings.json's receipt_secrets), and the
/// sample's agent id and issuer.
fn context() -> (TestDir, String, String, String) {
    let settings: J =
        serde_json::from_slice(&std::fs::read(sample("settings.json")).unwrap()).unwrap();
    let dir = TestDir::new("cli-archive");
    let ring = dir.write("ring.json", settings["receipt_secrets"].to_string());
    (
        dir,
        ring,
        settings["agent_id"].as_str().unwrap().to_owned(),
        settings["issuer"].as_str().unwrap().to_owned(),
    )
}

fn archive_args<'a>(ring: &'a str, agent: &'a str, issuer: &'a str, jwks: &'a str) -> Vec<&'a str> {
    vec![
        "receipt",
        "verify-archive",
        "--key-ring",
        ring,
        "--jwks",
        jwks,
        "--agent-id",
        agent,
        "--issuer",
        issuer,
    ]
}

#[test]
fn the_dashboard_sample_gives_its_expected_verdicts() {
    let (_dir, ring, agent, issuer) = context();
    let jwks = sample("jwks.json");
    let file = sample("receipts.jsonl");
    let mut args = archive_args(&ring, &agent, &issuer, jwks.to_str().unwrap());
    args.push(file.to_str().unwrap());
    let (code, out, err) = ekl(&args, b"");
    assert_eq!(code, 1, "{err}");
    let expected: J =
        serde_json::from_slice(&std::fs::read(sample("expected.json")).unwrap()).unwrap();
    let expected = expected.as_array().unwrap();
    let lines: Vec<J> = out
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), expected.len());
    for (i, (got, want)) in lines.iter().zip(expected).enumerate() {
        assert_eq!(got["line"], J::from(i + 1));
        let label = &want["label"];
        match want.get("error").and_then(J::as_str) {
            Some(code) => assert_eq!(got["error"]["code"], J::from(code), "{label}"),
            None => {
                let v = &got["verdict"];
                assert_eq!(v["accepted"], want["accepted"], "{label}: {got}");
                let failing: Vec<&J> = v["checks"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|c| c["outcome"] != "pass")
                    .map(|c| &c["name"])
                    .collect();
                let want_failing: Vec<&J> = want["failing"].as_array().unwrap().iter().collect();
                assert_eq!(failing, want_failing, "{label}");
            }
        }
    }
    // The summary on stderr, no progress bar (stderr is not a terminal), nothing secret.
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("ekl: 21 items: 5 accepted, 14 not accepted, 2 refused; "),
        "{err}"
    );
    assert!(!err.contains("rs_sample") && !err.contains('\r'));
}

#[test]
fn any_number_of_jobs_prints_the_same_bytes() {
    let (dir, ring, agent, issuer) = context();
    let jwks = sample("jwks.json");
    let one = std::fs::read(sample("receipts.jsonl")).unwrap();
    // 50 copies, a blank line between some, a line that is not JSON, no final line end.
    let mut big = Vec::new();
    for k in 0..50 {
        big.extend_from_slice(&one);
        if k % 7 == 0 {
            big.extend_from_slice(b"\n   \nnot json\n");
        }
    }
    big.extend_from_slice(br#"{"call":{}}"#);
    let file = dir.join("big.jsonl");
    std::fs::write(&file, &big).unwrap();
    let run = |jobs: &str, from_stdin: bool| {
        let mut args = archive_args(&ring, &agent, &issuer, jwks.to_str().unwrap());
        args.extend(["--jobs", jobs]);
        if !from_stdin {
            args.push(file.to_str().unwrap());
        }
        let (code, out, err) = ekl(&args, if from_stdin { &big } else { b"" });
        assert_eq!(code, 1, "{err}");
        assert!(err.contains(&format!("on {jobs} thread")), "{err}");
        out
    };
    let sequential = run("1", false);
    assert_eq!(
        sequential.iter().filter(|&&b| b == b'\n').count(),
        50 * 21 + 8 + 1
    );
    assert_eq!(run("2", false), sequential);
    assert_eq!(run("8", true), sequential);
    // --jobs 0 is a usage error.
    let mut args = archive_args(&ring, &agent, &issuer, jwks.to_str().unwrap());
    args.extend(["--jobs", "0"]);
    assert_eq!(ekl(&args, b"").0, 64);
}

#[test]
fn an_archive_of_accepted_receipts_exits_0_and_a_bad_key_ring_is_refused() {
    let (dir, ring, agent, issuer) = context();
    let jwks = sample("jwks.json");
    let good: Vec<u8> = std::fs::read(sample("receipts.jsonl"))
        .unwrap()
        .split(|&b| b == b'\n')
        .take(1)
        .flat_map(|l| l.iter().copied().chain([b'\n']))
        .collect();
    let (code, out, err) = ekl(
        &archive_args(&ring, &agent, &issuer, jwks.to_str().unwrap()),
        &good,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with(br#"{"line":1,"verdict":{"accepted":true,"#));
    let bad = dir.join("bad-ring.json");
    std::fs::write(&bad, "[]").unwrap();
    let (code, _, err) = ekl(
        &archive_args(
            bad.to_str().unwrap(),
            &agent,
            &issuer,
            jwks.to_str().unwrap(),
        ),
        &good,
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.starts_with("ekl: INVALID_ARGUMENT: "), "{err}");
}

#[test]
fn failures_only_keeps_the_items_not_accepted_with_their_failing_checks() {
    let (_dir, ring, agent, issuer) = context();
    let jwks = sample("jwks.json");
    let file = sample("receipts.jsonl");
    let mut args = archive_args(&ring, &agent, &issuer, jwks.to_str().unwrap());
    args.push(file.to_str().unwrap());
    let (_, full, _) = ekl(&args, b"");
    args.push("--failures-only");
    let (code, out, err) = ekl(&args, b"");
    assert_eq!(code, 1, "{err}");
    let parse = |bytes: &[u8]| -> Vec<J> {
        bytes
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| serde_json::from_slice(l).expect("a JSON line"))
            .collect()
    };
    // Every line of the full output that is not accepted, with only its non-passing checks.
    let want: Vec<J> = parse(&full)
        .into_iter()
        .filter(|l| l["verdict"]["accepted"] != J::Bool(true))
        .map(|mut l| {
            if let Some(checks) = l
                .get_mut("verdict")
                .and_then(|v| v.get_mut("checks"))
                .and_then(J::as_array_mut)
            {
                checks.retain(|c| c["outcome"] != "pass");
            }
            l
        })
        .collect();
    let got = parse(&out);
    assert_eq!(got.len(), 16, "14 not accepted and 2 refused");
    assert_eq!(got, want);
    assert!(got.iter().all(|l| l["verdict"]["checks"]
        .as_array()
        .is_none_or(|c| !c.is_empty())));
    assert!(
        err.starts_with("ekl: 21 items: 5 accepted, 14 not accepted, 2 refused; "),
        "{err}"
    );
}
