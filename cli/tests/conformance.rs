//! `ekl conformance`: the runner scores our own `--serve` at 100%, and a deliberately wrong toy
//! implementation (Python's `json.dumps(sort_keys=True)`), a crashing one and a hanging one below.

use std::path::PathBuf;
use std::process::Command;

mod common;
use common::TestDir;

fn ekl() -> &'static str {
    env!("CARGO_BIN_EXE_ekl")
}

fn vectors() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../vectors"))
}

/// `text` written to `name` in the test's own folder: its path.
fn script(dir: &TestDir, name: &str, text: &str) -> PathBuf {
    PathBuf::from(dir.write(name, text))
}

fn run(args: &[&str], command: &[&str]) -> (i32, String) {
    let out = Command::new(ekl())
        .arg("conformance")
        .arg("--vectors")
        .arg(vectors())
        .args(args)
        .arg("--")
        .args(command)
        .output()
        .expect("run ekl conformance");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn rule_line<'a>(report: &'a str, rule: &str) -> &'a str {
    report
        .lines()
        .find(|l| l.split_whitespace().next() == Some(rule))
        .unwrap_or_else(|| panic!("no line for {rule} in:\n{report}"))
}

#[test]
fn our_own_serve_mode_scores_100_percent() {
    let (code, report) = run(
        &["--corpus", "600", "--seed", "7"],
        &[ekl(), "conformance", "--serve"],
    );
    assert_eq!(code, 0, "{report}");
    assert!(report.contains("(100.00%), 0 of"), "{report}");
    assert!(!report.contains("FAIL"), "{report}");
}

const TOY: &str = r#"
import json, sys, hashlib
for line in sys.stdin:
    req = json.loads(line)
    out = {"id": req["id"]}
    try:
        if req["op"] == "canonicalize":
            out["ok"] = json.dumps(json.loads(req["input"]), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        elif req["op"] == "digest":
            text = json.dumps(json.loads(req["input"]), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
            out["ok"] = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        else:
            out["error"] = "UNSUPPORTED_OP"
    except Exception:
        out["error"] = "INVALID_JSON"
    print(json.dumps(out), flush=True)
"#;

#[test]
fn a_sort_keys_toy_scores_below_100_percent_and_names_the_rules() {
    let dir = TestDir::new("conformance-test");
    let toy = script(&dir, "toy.py", TOY);
    let (code, report) = run(
        &[
            "--corpus",
            "600",
            "--only",
            "canonicalize",
            "--only",
            "digest",
        ],
        &["python3", toy.to_str().expect("utf-8 path")],
    );
    assert_eq!(code, 1, "{report}");
    assert!(!report.contains("(100.00%)"), "{report}");
    // json.loads keeps the last of duplicate members, accepts NaN and big integers, and
    // json.dumps neither sorts by UTF-16 nor writes numbers the ECMAScript way.
    for rule in [
        "canonicalize/gen/refuse/duplicate_key",
        "canonicalize/gen/refuse/integer_beyond_2^53",
        "canonicalize/gen/refuse/literal",
        "canonicalize/vectors/ekl-json-1.json:valid",
        "canonicalize/gen/valid",
    ] {
        assert!(
            rule_line(&report, rule).ends_with("FAIL"),
            "{rule}:\n{report}"
        );
    }
    // Rules it gets right stay ok (a runner that failed everything would not show this).
    assert!(
        rule_line(&report, "canonicalize/gen/refuse/trailing_comma").ends_with("ok"),
        "{report}"
    );
    // The first differing cases are printed in full.
    assert!(
        report.contains("[canonicalize/gen/refuse/duplicate_key] seed 1 #"),
        "{report}"
    );
    assert!(
        report.contains("  expected: {\"error\":\"DUPLICATE_KEY\"}"),
        "{report}"
    );
}

#[test]
fn a_crashing_and_a_hanging_implementation_are_reported() {
    let dir = TestDir::new("conformance-test");
    let crash = script(
        &dir,
        "crash.py",
        "import sys, json\nfor i, line in enumerate(sys.stdin):\n    if i == 2: sys.exit(3)\n    print(json.dumps({'id': json.loads(line)['id'], 'error': 'X'}), flush=True)\n",
    );
    let (code, report) = run(
        &["--no-vectors", "--corpus", "30", "--only", "canonicalize"],
        &["python3", crash.to_str().expect("utf-8 path")],
    );
    assert_eq!(code, 1, "{report}");
    assert!(
        report.contains("CRASH: the implementation exited"),
        "{report}"
    );
    assert!(report.contains("crashed or timed out"), "{report}");

    let hang = script(
        &dir,
        "hang.py",
        "import sys, time\nfor line in sys.stdin:\n    time.sleep(60)\n",
    );
    let started = std::time::Instant::now();
    let (code, report) = run(
        &[
            "--no-vectors",
            "--corpus",
            "3",
            "--only",
            "canonicalize",
            "--timeout",
            "300",
        ],
        &["python3", hang.to_str().expect("utf-8 path")],
    );
    assert_eq!(code, 1, "{report}");
    assert!(
        report.contains("TIMEOUT: no answer within 300 ms"),
        "{report}"
    );
    assert!(
        started.elapsed().as_secs() < 30,
        "the runner waited for the hanging process"
    );
}

/// The run's sizes are bounded (its requests are held in memory: `--corpus 2000000` took 2.4 GB
/// before anything was written): past a bound, a usage error at once, nothing on stdout.
#[test]
fn the_runs_sizes_and_deadline_are_bounded() {
    for args in [
        &["--emit", "--no-vectors", "--corpus", "200001"][..],
        &["--emit", "--no-vectors", "--doubles", "1000001"],
        &["--emit", "--no-vectors", "--timeout", "0"],
        &["--emit", "--no-vectors", "--timeout", "3600001"],
        &["--emit", "--no-vectors", "--window", "0"],
    ] {
        let t0 = std::time::Instant::now();
        let out = Command::new(ekl())
            .arg("conformance")
            .args(args)
            .output()
            .expect("run ekl conformance");
        assert_eq!(out.status.code(), Some(64), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("ekl: usage: --"), "{args:?}: {err}");
        assert!(t0.elapsed().as_secs() < 5, "{args:?}: refused at once");
    }
    // at the bounds: accepted (a small corpus, so the test stays quick)
    let out = Command::new(ekl())
        .args([
            "conformance",
            "--emit",
            "--no-vectors",
            "--corpus",
            "10",
            "--timeout",
            "3600000",
        ])
        .output()
        .expect("run ekl conformance");
    assert_eq!(out.status.code(), Some(0));
    assert!(!out.stdout.is_empty());
}
