//! Output for people (issue 26, part 4; docs/decisions.md#first-minutes): a verdict or a verified
//! token is printed for people on a terminal (forced here with `--format human`, as the tests run
//! the binary piped), the failing checks first with their plain words; piped, or with
//! `--format json`, it is the JSON, byte for byte. Long runs draw no progress when stderr is not
//! a terminal, and `receipt verify-archive` holds bounded memory whatever the archive's length.

use std::path::PathBuf;

use serde_json::Value as J;

mod common;
use common::{ekl, TestDir};

fn vector(name: &str) -> J {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../vectors")
        .join(name);
    serde_json::from_slice(&std::fs::read(p).expect("vector")).expect("json")
}

fn text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).expect("utf-8")
}

/// A signed MAC receipt, its secret file, a call that names another execution id and another
/// result than the one committed to: two checks fail (execution_id fail, output_commitment
/// mismatch).
fn receipt_case(dir: &TestDir) -> (String, String, String, String) {
    let d = vector("call-receipt.json");
    let mut receipt = d["receipt"].clone();
    receipt["auth_tag"] = d["auth_tag"].clone();
    let mut call = d["call"].clone();
    call["execution_id"] = J::from("ex_other");
    let mut other = d["result"].clone();
    other["total"] = J::from(41.5);
    (
        dir.write("receipt.json", receipt.to_string()),
        dir.write("secret", d["receipt_secret"].as_str().expect("secret")),
        dir.write("call.json", call.to_string()),
        dir.write("other.json", other.to_string()),
    )
}

#[test]
fn a_verdict_for_people_shows_the_failing_checks_first_in_plain_words() {
    let dir = TestDir::new("cli-human");
    let (receipt, secret, call, other) = receipt_case(&dir);
    let args = [
        "receipt",
        "verify",
        "--secret-file",
        &secret,
        "--call",
        &call,
        "--own-result",
        &other,
        &receipt,
    ];
    let mut human = args.to_vec();
    human.extend(["--format", "human"]);
    let (code, out, err) = ekl(&human, b"");
    assert_eq!(code, 1, "{err}");
    let out = text(out);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0], "NOT ACCEPTED: 2 of 18 checks did not pass",
        "{out}"
    );
    // The failing checks, each with its plain words, why, what was expected and found ...
    assert!(
        lines[1].starts_with("  FAIL      execution_id        execution id of your call"),
        "{out}"
    );
    assert_eq!(lines[2].trim(), "why: differs from the call");
    assert_eq!(lines[3].trim(), "expected: \"ex_other\"");
    assert!(lines[4].trim().starts_with("received: \""), "{out}");
    assert!(
        lines[5]
            .starts_with("  MISMATCH  output_commitment   commitment to the result you received"),
        "{out}"
    );
    // ... then the rest, one a line, and the digest.
    let first_pass = lines
        .iter()
        .position(|l| l.starts_with("  pass"))
        .expect("passes");
    assert_eq!(first_pass, 9, "{out}");
    assert!(lines[first_pass..lines.len() - 1]
        .iter()
        .all(|l| l.starts_with("  pass ")));
    assert_eq!(lines.len(), 9 + 16 + 1, "{out}");
    assert!(lines[lines.len() - 1].starts_with("receipt digest: "));
    assert!(
        !out.contains("rs_") && !err.contains("rs_"),
        "no secret shown"
    );

    // Piped, the JSON as ever: the same bytes as --format json, one canonical line.
    let (pcode, piped, _) = ekl(&args, b"");
    let mut json = args.to_vec();
    json.extend(["--format", "json"]);
    let (jcode, forced, _) = ekl(&json, b"");
    assert_eq!((pcode, jcode), (1, 1));
    assert_eq!(piped, forced);
    let v: J = serde_json::from_slice(&piped).expect("JSON");
    assert_eq!(v["accepted"], J::Bool(false));
    assert!(piped.ends_with(b"}\n") && piped.iter().filter(|&&b| b == b'\n').count() == 1);
    // And the same JSON as the registry operation gives (the verdict, not the presentation).
    let (_, call_out, _) = ekl(
        &[
            "call",
            "verify_receipt",
            "--arg-file",
            &format!("receipt={receipt}"),
            "--arg-file",
            &format!("call={call}"),
            "--arg",
            &format!(
                "keys={}",
                J::from(std::fs::read_to_string(&secret).unwrap())
            ),
            "--format",
            "json",
        ],
        b"",
    );
    let cv: J = serde_json::from_slice(&call_out).expect("JSON");
    assert_eq!(cv["checks"][9]["name"], "execution_id");

    // An accepted verdict: ACCEPTED first, exit 0 as with JSON.
    let d = vector("call-receipt.json");
    let good_call = dir.write("good-call.json", d["call"].to_string());
    let (code, out, _) = ekl(
        &[
            "receipt",
            "verify",
            "--secret-file",
            &secret,
            "--call",
            &good_call,
            &receipt,
            "--format",
            "human",
        ],
        b"",
    );
    assert_eq!(code, 0);
    assert!(text(out).starts_with("ACCEPTED: all 17 checks passed\n  pass  key_id  "));
}

#[test]
fn a_verified_token_and_a_list_of_verdicts_for_people() {
    let dir = TestDir::new("cli-human");
    let seed = "656b6c2d636f7265206a777320766563746f72732073656564203230323621ff";
    let (_, jwks, _) = ekl(&["jwks", "from-seed", "--seed", seed, "--kid", "n1"], b"");
    let jwks = dir.write("jwks.json", text(jwks));
    let claims = br#"{"iss":"https://n","aud":"ekl:agent:p","iat":1000,"exp":1060}"#;
    let (_, token, _) = ekl(
        &[
            "jws",
            "sign",
            "--typ",
            "ekl-access+jwt",
            "--seed",
            seed,
            "--kid",
            "n1",
        ],
        claims,
    );
    let token = text(token).trim().to_owned();
    let args = [
        "jws",
        "verify",
        "--typ",
        "ekl-access+jwt",
        "--jwks",
        &jwks,
        "--iss",
        "https://n",
        "--aud",
        "ekl:agent:p",
        "--now",
        "1030",
        "--token",
        &token,
    ];
    let mut human = args.to_vec();
    human.extend(["--format", "human"]);
    let (code, out, err) = ekl(&human, b"");
    assert_eq!(code, 0, "{err}");
    let out = text(out);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0], "VERIFIED: ekl-access+jwt, signed by key n1",
        "{out}"
    );
    assert!(lines[1].starts_with("  token_sha256  "), "{out}");
    assert_eq!(
        &lines[2..],
        [
            "claims:",
            "  aud  ekl:agent:p",
            "  exp  1060 (1970-01-01T00:17:40Z)",
            "  iat  1000 (1970-01-01T00:16:40Z)",
            "  iss  https://n",
        ]
    );
    let (_, piped, _) = ekl(&args, b"");
    let parsed: J = serde_json::from_slice(&piped).expect("JSON piped");
    assert_eq!(parsed["typ"], "ekl-access+jwt");

    // verify_receipt_lines: a count, then one line an item with its failing checks' words.
    let d = vector("call-receipt.json");
    let secret = d["receipt_secret"].as_str().expect("secret");
    let mut receipt = d["receipt"].clone();
    receipt["auth_tag"] = d["auth_tag"].clone();
    let mut tampered = receipt.clone();
    tampered["execution_id"] = J::from("ex_other");
    let lines = [
        serde_json::json!({"receipt": receipt, "call": d["call"]}).to_string(),
        serde_json::json!({"receipt": tampered, "call": d["call"]}).to_string(),
        "[1,]".to_owned(),
    ]
    .join("\n");
    let archive = dir.write("lines.jsonl", &lines);
    let (code, out, err) = ekl(
        &[
            "call",
            "verify_receipt_lines",
            "--arg-file",
            &format!("lines={archive}"),
            "--arg",
            &format!("keys={}", J::from(secret)),
            "--format",
            "human",
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    let out = text(out);
    let got: Vec<&str> = out.lines().collect();
    assert_eq!(got[0], "3 items: 1 accepted, 1 not accepted, 1 refused");
    assert_eq!(got[1], "item 1: ACCEPTED");
    assert!(
        got[2].starts_with("item 2: NOT ACCEPTED: auth_tag (MAC tag over the receipt)"),
        "{out}"
    );
    assert!(
        got[3].starts_with("item 3: REFUSED: INVALID_JSON: "),
        "{out}"
    );
    // Results that are no verdict are printed as they are, in either form.
    let (_, a, _) = ekl(&["digest", "--format", "human"], b"{\"b\":1}");
    let (_, b, _) = ekl(&["digest"], b"{\"b\":1}");
    assert_eq!(a, b);
    assert_eq!(ekl(&["digest", "--format", "yaml"], b"{}").0, 64);
}

fn sample(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/dashboard/sample")
        .join(name)
        .to_str()
        .expect("utf-8")
        .to_owned()
}

/// `receipt verify-archive` on the dashboard's sample: the key ring, agent id, issuer and JWKS.
fn archive_args(dir: &TestDir) -> Vec<String> {
    let settings: J =
        serde_json::from_slice(&std::fs::read(sample("settings.json")).unwrap()).expect("settings");
    let ring = dir.write("ring.json", settings["receipt_secrets"].to_string());
    [
        "receipt",
        "verify-archive",
        "--key-ring",
        &ring,
        "--jwks",
        &sample("jwks.json"),
        "--agent-id",
        settings["agent_id"].as_str().unwrap(),
        "--issuer",
        settings["issuer"].as_str().unwrap(),
    ]
    .map(str::to_owned)
    .to_vec()
}

#[test]
fn an_archive_for_people_is_one_line_an_item_then_the_failing_checks_counted() {
    let dir = TestDir::new("cli-human");
    let mut args = archive_args(&dir);
    args.extend([sample("receipts.jsonl"), "--format".into(), "human".into()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = ekl(&args, b"");
    assert_eq!(code, 1, "{err}");
    let out = text(out);
    let lines: Vec<&str> = out.lines().collect();
    // Every item is named by its label (issue 44.6); one that did not pass by its ids too.
    assert_eq!(
        lines[0],
        r#"line 1, label "valid customer receipt (rk-2)": ACCEPTED"#
    );
    let item4: J = serde_json::from_str(
        std::fs::read_to_string(sample("receipts.jsonl"))
            .unwrap()
            .lines()
            .nth(3)
            .unwrap(),
    )
    .unwrap();
    let ids = format!(
        "line 4, label \"tampered: status changed after signing\", receipt {}, execution {}: NOT ACCEPTED: auth_tag (MAC tag over the receipt)",
        item4["receipt"]["receipt_id"].as_str().unwrap(),
        item4["receipt"]["execution_id"].as_str().unwrap()
    );
    assert!(lines[3].starts_with(&ids), "{out}");
    assert!(lines[20].starts_with("line 21"), "{out}");
    assert!(lines[20].contains(": REFUSED: DUPLICATE_KEY: "), "{out}");
    assert_eq!(lines[21], "checks that did not pass, by count:");
    assert!(lines[22].trim_start().starts_with("4  auth_tag "), "{out}");
    // The summary on stderr is the same in both forms.
    assert!(err.starts_with("ekl: 21 items: 5 accepted, 14 not accepted, 2 refused; "));
    // --failures-only for people: the 16 items not accepted, then the count.
    let mut failures = args.clone();
    failures.push("--failures-only");
    let (_, out, _) = ekl(&failures, b"");
    let out = text(out);
    assert_eq!(out.lines().filter(|l| l.starts_with("line ")).count(), 16);
    assert!(!out.contains(": ACCEPTED"));
}

#[test]
fn no_progress_when_stderr_is_not_a_terminal() {
    // Enough items (from a file: its size known) that a progress line would be drawn.
    let one = std::fs::read(sample("receipts.jsonl")).unwrap();
    let big: Vec<u8> = (0..300).flat_map(|_| one.iter().copied()).collect();
    let dir = TestDir::new("cli-human");
    let file = dir.join("progress.jsonl");
    std::fs::write(&file, &big).unwrap();
    let mut args = archive_args(&dir);
    args.extend(["--jobs".into(), "1".into()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut from_file = args.clone();
    from_file.push(file.to_str().unwrap());
    // The file named, and stdin redirected from it (its size known too).
    let redirected = || {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_ekl"))
            .args(&args)
            .stdin(std::fs::File::open(&file).expect("file"))
            .output()
            .expect("ekl runs");
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        (out.status.code().unwrap_or(-1), out.stdout, err)
    };
    for (code, out, err) in [ekl(&from_file, b""), redirected()] {
        assert_eq!(code, 1, "{err}");
        assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), 300 * 21);
        assert_eq!(err.lines().count(), 1, "the summary alone: {err}");
        assert!(err.starts_with("ekl: 6300 items: "), "{err}");
        assert!(!err.contains('\r') && !err.contains('\x1b'), "{err:?}");
    }
}

/// Peak resident memory (kB) of a running process, from /proc.
#[cfg(target_os = "linux")]
fn peak_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("VmHWM")
}

/// Streams `lines` copies of the sample's lines through `verify-archive` on a pipe and returns the
/// peak resident memory once nearly all are answered (stdin kept open, so the process is alive
/// to be measured; 2 blocks of 4096 lines may still be in flight).
#[cfg(target_os = "linux")]
fn archive_peak_kb(items: usize) -> u64 {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    let one = std::fs::read(sample("receipts.jsonl")).unwrap();
    let sample_lines: Vec<&[u8]> = one
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    let dir = TestDir::new("cli-human");
    let mut args = archive_args(&dir);
    args.extend(["--jobs".into(), "2".into()]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_ekl"))
        .args(&args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("ekl runs");
    let pid = child.id();
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let answered = Arc::new(AtomicUsize::new(0));
    let counter = answered.clone();
    let reader = std::thread::spawn(move || {
        let mut r = BufReader::new(stdout);
        let mut line = Vec::new();
        while r
            .read_until(b'\n', &mut line)
            .map(|n| n > 0)
            .unwrap_or(false)
        {
            line.clear();
            counter.fetch_add(1, Ordering::Relaxed);
        }
    });
    let lines = sample_lines.clone();
    let owned: Vec<Vec<u8>> = lines.iter().map(|l| l.to_vec()).collect();
    let writer = std::thread::spawn(move || {
        let mut buf = Vec::with_capacity(1 << 20);
        for i in 0..items {
            buf.extend_from_slice(&owned[i % owned.len()]);
            buf.push(b'\n');
            if buf.len() >= 1 << 20 {
                stdin.write_all(&buf).expect("write");
                buf.clear();
            }
        }
        stdin.write_all(&buf).expect("write");
        stdin
    });
    let stdin = writer.join().expect("writer");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while answered.load(Ordering::Relaxed) + 2 * 4096 < items {
        assert!(
            std::time::Instant::now() < deadline,
            "verify-archive stalled"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let peak = peak_kb(pid);
    drop(stdin);
    let status = child.wait().expect("ekl ends");
    reader.join().expect("reader");
    assert_eq!(status.code(), Some(1));
    assert_eq!(answered.load(Ordering::Relaxed), items);
    peak
}

/// Bounded memory (issue 26, part 3): the peak resident memory of `verify-archive` over a pipe
/// does not grow with the archive. 6× the items (about 9 MB against 56 MB of input, as much
/// again of output) leave the peak within 16 MB of the small run's, and under 96 MB in all;
/// holding the input or the output would add 50 MB or more.
#[cfg(target_os = "linux")]
#[test]
fn verify_archive_memory_does_not_grow_with_the_archive() {
    let small = archive_peak_kb(6 * 1024);
    let large = archive_peak_kb(36 * 1024);
    eprintln!("verify-archive peak RSS: {small} kB at 6144 items, {large} kB at 36864 items");
    assert!(large < small + 16 * 1024, "{small} kB then {large} kB");
    assert!(large < 96 * 1024, "{large} kB");
}
