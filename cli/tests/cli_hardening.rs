//! The hardened command line (issues 10.7, 14.6, 14.10): help on every command, `--version`,
//! one-line usage errors with suggestions, exit statuses, capped inputs (`/dev/zero`), no token,
//! secret or path repeated in a message, secrets from a file, the environment or stdin, `--now`
//! defaulting to the clock, and a token whose claims reach the depth limit.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

mod common;
use common::TestDir;

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Out {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ekl"));
    cmd.args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env_remove("EKL_TEST_SECRET");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd
        .stdin(Stdio::piped())
        .spawn()
        .expect("the ekl binary runs");
    // A command that does not read stdin may exit first: a broken pipe is expected then.
    let _ = child.stdin.take().expect("stdin is piped").write_all(stdin);
    let out = child.wait_with_output().expect("ekl finishes");
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn ekl(args: &[&str], stdin: &[u8]) -> Out {
    run(args, stdin, &[])
}

/// `bytes` written to `name` in the test's own folder: its path.
fn temp(dir: &TestDir, name: &str, bytes: &[u8]) -> String {
    dir.write(name, bytes)
}

const SEED: &str = "656b6c2d636f7265206a777320766563746f72732073656564203230323621ff";
const SECRET: &str = "s3cr3t-Receipt-Key-0123456789abcdef";

/// Every leaf command, as written in `ekl --help`.
const COMMANDS: &[&str] = &[
    "canon",
    "digest",
    "commit",
    "terms-hash",
    "fingerprint",
    "output-fingerprint",
    "upstream-fingerprint",
    "jws verify",
    "jws sign",
    "jwks from-seed",
    "jwks new-seed",
    "receipt issue",
    "receipt sign",
    "receipt digest",
    "receipt verify",
    "receipt verify-jws",
    "receipt verify-signed",
    "receipt verify-archive",
    "proof key",
    "proof challenge",
    "proof enroll",
    "proof verify-signature",
    "proof verify-challenge",
    "proof verify-enroll",
    "screen",
    "mcp",
    "conformance",
    "error-codes",
    "call",
];

#[test]
fn every_command_has_help_and_the_top_help_lists_them() {
    let top = ekl(&["--help"], b"");
    assert_eq!(top.code, 0, "{}", top.stderr);
    assert_eq!(ekl(&["help"], b"").stdout, top.stdout);
    assert_eq!(ekl(&["-h"], b"").code, 0);
    for section in ["Exit status:", "Secrets", "Inputs:", "64 MiB", "--now SECS"] {
        assert!(top.stdout.contains(section), "--help misses {section}");
    }
    // The commands listed by --help are exactly these (a new command must be added to both).
    let listed: Vec<String> = top
        .stdout
        .split("Commands")
        .nth(1)
        .expect("a command list")
        .lines()
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .map(|l| l.trim().split("  ").next().unwrap_or_default().to_owned())
        .filter(|c| c != "help")
        .collect();
    assert_eq!(listed, COMMANDS);
    for c in COMMANDS {
        let words: Vec<&str> = c.split(' ').collect();
        let mut args = words.clone();
        args.push("--help");
        let out = ekl(&args, b"");
        assert_eq!(out.code, 0, "{c} --help: {}", out.stderr);
        assert!(
            out.stdout.contains(&format!("Usage: ekl {c}")),
            "{c} --help:\n{}",
            out.stdout
        );
        let mut via_help = vec!["help"];
        via_help.extend(&words);
        assert_eq!(ekl(&via_help, b"").stdout, out.stdout, "ekl help {c}");
    }
    // The groups have help of their own too.
    for g in ["jws", "jwks", "receipt", "proof"] {
        let out = ekl(&[g, "--help"], b"");
        assert_eq!(out.code, 0);
        assert!(out.stdout.contains(&format!("Usage: ekl {g}")));
    }
}

#[test]
fn version() {
    let out = ekl(&["--version"], b"");
    assert_eq!(out.code, 0);
    assert_eq!(
        out.stdout,
        format!("ekl {}\n", env!("CARGO_PKG_VERSION")),
        "{}",
        out.stderr
    );
    assert_eq!(ekl(&["-V"], b"").stdout, out.stdout);
}

/// A usage error: exit 64 and exactly one line on stderr, nothing on stdout.
fn usage_line(args: &[&str]) -> String {
    let out = ekl(args, b"");
    assert_eq!(out.code, 64, "{args:?}: {}", out.stderr);
    assert!(out.stdout.is_empty(), "{args:?}");
    assert!(out.stderr.starts_with("ekl: usage: "), "{}", out.stderr);
    assert_eq!(out.stderr.lines().count(), 1, "{args:?}: {}", out.stderr);
    out.stderr
}

#[test]
fn usage_errors_are_one_line_with_a_suggestion() {
    let e = usage_line(&["digets"]);
    assert!(e.contains("did you mean 'digest'?"), "{e}");
    assert!(e.contains("see 'ekl --help'"), "{e}");
    let e = usage_line(&["fingerprint", "--salty", "00"]);
    assert!(e.contains("unknown option '--salty'"), "{e}");
    assert!(e.contains("did you mean '--salt'?"), "{e}");
    assert!(e.contains("see 'ekl fingerprint --help'"), "{e}");
    // The closest suggestion first (clap lists its best guess last).
    let e = usage_line(&["receipt", "verfy"]);
    assert!(e.contains("did you mean 'verify', "), "{e}");
    assert!(e.contains("see 'ekl receipt --help'"), "{e}");
    let e = usage_line(&["jws", "verify", "--typ", "ekl-access+jwt"]);
    assert!(e.contains("--jwks"), "{e}");
    let e = usage_line(&["fingerprint", "--salt", "00", "--salt", "11"]);
    assert!(
        e.contains("'--salt <HEX>' cannot be given more than once"),
        "{e}"
    );
    usage_line(&[]);
    usage_line(&["receipt"]);
    usage_line(&["fingerprint"]);
    usage_line(&["canon", "a.json", "b.json"]);
    usage_line(&["receipt", "sign", "--secret", "a", "--secret-env", "B"]);
    usage_line(&["conformance"]);
    let e = usage_line(&["mcp"]);
    assert!(e.contains("-- COMMAND ARGS... (stdio) or --url URL"), "{e}");
    assert!(e.contains("see 'ekl mcp --help'"), "{e}");
    let e = usage_line(&["mcp", "--url", "ftp://example.org/mcp"]);
    assert!(e.contains("an http:// or https:// URL is needed"), "{e}");
    let e = usage_line(&[
        "mcp",
        "--url",
        "https://example.org/mcp",
        "--ca",
        "/nonexistent/ca.pem",
    ]);
    assert!(
        e.contains("--ca: /nonexistent/ca.pem cannot be read"),
        "{e}"
    );
    let e = usage_line(&["mcp", "--ca", "ca.pem", "--", "true"]);
    assert!(
        e.contains("--ca is for an https:// server given with --url"),
        "{e}"
    );
    let e = usage_line(&["mcp", "--expect", "ABC", "--", "true"]);
    assert!(e.contains("invalid value for '--expect <FP>'"), "{e}");
    assert!(!e.contains("ABC"), "{e}");
    let e = usage_line(&["mcp", "--url", "http://127.0.0.1:1/", "--", "true"]);
    assert!(e.contains("cannot be used with"), "{e}");
    usage_line(&["mcp", "--timeout", "0", "--", "true"]);
}

#[test]
fn exit_statuses() {
    assert_eq!(ekl(&["digest"], b"{}").code, 0);
    let refused = ekl(&["digest"], b"{\"a\":1,\"a\":2}");
    assert_eq!(refused.code, 2);
    assert_eq!(refused.stderr.lines().count(), 1);
    assert!(refused.stderr.starts_with("ekl: DUPLICATE_KEY: "));
    let check = |sig: &str| {
        ekl(
            &[
                "proof",
                "verify-signature",
                "--secret",
                SECRET,
                "--agent-id",
                "a",
                "--enrollment-id",
                "e",
                "--challenge",
                "c",
                "--signature",
                sig,
            ],
            b"",
        )
    };
    let good = ekl(
        &[
            "proof",
            "verify-signature",
            "--secret",
            SECRET,
            "--agent-id",
            "a",
            "--enrollment-id",
            "e",
            "--challenge",
            "c",
        ],
        b"",
    );
    assert_eq!(good.code, 0);
    assert_eq!(check(good.stdout.trim()).code, 0);
    assert_eq!(check(&"0".repeat(64)).code, 1, "a check that fails exits 1");
    assert_eq!(ekl(&["nope"], b"").code, 64);
}

/// Runs `args` under a virtual memory limit of 1 GiB (`ulimit -v`): a reader without a cap would
/// run out of memory on `/dev/zero` and abort instead of refusing. A watchdog kills a hang.
fn capped(args: &[&str], stdin_file: Option<&str>) -> Out {
    let mut script = String::from("ulimit -v 1048576; exec \"$0\"");
    for i in 1..=args.len() {
        script.push_str(&format!(" \"${i}\""));
    }
    if let Some(f) = stdin_file {
        script.push_str(&format!(" < {f}"));
    }
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_ekl"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh runs");
    let deadline = Instant::now() + Duration::from_secs(120);
    while child.try_wait().expect("wait").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("ekl {args:?} did not stop reading");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("output");
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[test]
fn endless_inputs_are_refused_at_the_cap() {
    let dir = TestDir::new("cli-hardening");
    if !std::path::Path::new("/dev/zero").exists() {
        return;
    }
    let jwks = ekl(&["jwks", "from-seed", "--seed", SEED, "--kid", "n1"], b"").stdout;
    let jwks = temp(&dir, "cap-jwks.json", jwks.as_bytes());
    let cases: Vec<(Vec<&str>, Option<&str>, &str)> = vec![
        (vec!["canon", "/dev/zero"], None, "the input file"),
        (vec!["digest"], Some("/dev/zero"), "the input"),
        (vec!["digest", "-"], Some("/dev/zero"), "the input"),
        (
            vec!["receipt", "sign", "--secret-file", "/dev/zero"],
            None,
            "the secret file",
        ),
        (
            vec!["receipt", "sign", "--secret-stdin", "x.json"],
            Some("/dev/zero"),
            "the secret",
        ),
        (
            vec![
                "jws",
                "sign",
                "--typ",
                "ekl-access+jwt",
                "--kid",
                "k",
                "--seed-file",
                "/dev/zero",
            ],
            None,
            "the seed file",
        ),
        (
            vec![
                "jws",
                "verify",
                "--typ",
                "ekl-access+jwt",
                "--jwks",
                "/dev/zero",
                "--token",
                "a.b.c",
            ],
            None,
            "the --jwks file",
        ),
        (
            vec![
                "jws",
                "verify",
                "--typ",
                "ekl-access+jwt",
                "--jwks",
                &jwks,
                "--token-file",
                "/dev/zero",
            ],
            None,
            "the --token-file file",
        ),
        (
            vec!["jws", "verify", "--typ", "ekl-access+jwt", "--jwks", &jwks],
            Some("/dev/zero"),
            "the token",
        ),
        (
            vec!["proof", "key", "/dev/zero"],
            None,
            "the agent key file",
        ),
    ];
    for (args, stdin, what) in cases {
        let out = capped(&args, stdin);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(
            out.stderr
                .starts_with(&format!("ekl: BODY_TOO_LARGE: {what} holds more than ")),
            "{args:?}: {}",
            out.stderr
        );
        assert!(out.stdout.is_empty());
    }
    // Just under and just over the documented secret cap (64 KiB).
    let at = temp(&dir, "secret-at-cap", &vec![b'k'; 65536]);
    let over = temp(&dir, "secret-over-cap", &vec![b'k'; 65537]);
    assert_eq!(ekl(&["proof", "key", "--agent-key-file", &at], b"").code, 0);
    let out = ekl(&["proof", "key", "--agent-key-file", &over], b"");
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("BODY_TOO_LARGE"), "{}", out.stderr);
}

#[test]
fn messages_never_repeat_a_token_a_secret_or_a_path() {
    let dir = TestDir::new("cli-hardening");
    let token =
        "eyJhbGciOiJFUzI1NiIsImtpZCI6Im4xIn0.eyJzZWNyZXQiOiJ0b2tlbiJ9.c2lnbmF0dXJlLXNlY3JldA";
    let jwks = ekl(&["jwks", "from-seed", "--seed", SEED, "--kid", "n1"], b"").stdout;
    let jwks = temp(&dir, "echo-jwks.json", jwks.as_bytes());
    let secret_path = "/nonexistent/dir/private-name-of-a-file";
    let secret_option = format!("--secret={SECRET}");
    let mut cases: Vec<Vec<&str>> = vec![
        // The old habit: a token where FILE goes. It is a file name now, and the refusal says so
        // without repeating it.
        vec![
            "jws",
            "verify",
            "--typ",
            "ekl-access+jwt",
            "--jwks",
            &jwks,
            token,
        ],
        vec![
            "jws",
            "verify",
            "--typ",
            "ekl-access+jwt",
            "--jwks",
            &jwks,
            "--token",
            token,
        ],
        vec![
            "jws",
            "verify",
            "--typ",
            "ekl-receipt+jwt",
            "--jwks",
            &jwks,
            "--token",
            token,
        ],
        vec![
            "jws",
            "verify",
            "--typ",
            "ekl-access+jwt",
            "--jwks",
            token,
            "--token",
            token,
        ],
        // A secret where no positional argument is taken, or as a value of an unknown option.
        vec![
            "proof",
            "challenge",
            "--challenge",
            "c",
            "--endpoint",
            "e",
            SECRET,
        ],
        vec!["digest", "--secret", SECRET],
        vec!["digest", &secret_option],
        vec!["receipt", "sign", "--secret", SECRET, "--nonce", SECRET],
        // Secrets from sources that cannot be read.
        vec!["receipt", "sign", "--secret-file", secret_path],
        vec!["receipt", "sign", "--secret-env", SECRET],
        vec![
            "receipt",
            "verify",
            "--key-ring",
            secret_path,
            "--call",
            secret_path,
        ],
        vec!["jwks", "from-seed", "--seed", SECRET, "--kid", "k"],
        vec![
            "proof",
            "challenge",
            "--challenge",
            "c",
            "--endpoint",
            "e",
            "--proof-key",
            SECRET,
        ],
        vec!["receipt", "sign", "--secret", SECRET, secret_path],
    ];
    let signed = format!("{{\"auth_tag\":\"{SECRET}\"}}");
    cases.push(vec![
        "receipt",
        "verify",
        "--secret",
        SECRET,
        "--call",
        secret_path,
    ]);
    for args in &cases {
        let out = ekl(args, signed.as_bytes());
        assert_ne!(out.code, 0, "{args:?}");
        assert_eq!(out.stderr.lines().count(), 1, "{args:?}: {}", out.stderr);
        for needle in [token, SECRET, secret_path, "private-name", "eyJ"] {
            assert!(
                !out.stderr.contains(needle),
                "{args:?} repeats {needle}: {}",
                out.stderr
            );
        }
    }
    // The token-shaped FILE gets a hint towards --token.
    let out = ekl(&cases[0], b"");
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("--token"), "{}", out.stderr);
    // Missing, a directory: the same refusal, with the OS's reason (never the path).
    let a = ekl(&["digest", "/nonexistent/x.json"], b"");
    let b = ekl(&["digest", dir.path().to_str().expect("utf-8")], b"");
    assert_eq!((a.code, b.code), (2, 2));
    assert_eq!(
        a.stderr,
        "ekl: INVALID_ARGUMENT: cannot read the input file: No such file or directory\n"
    );
    assert_eq!(
        b.stderr,
        "ekl: INVALID_ARGUMENT: cannot read the input file: Is a directory\n"
    );
}

fn receipt_vector() -> (serde_json::Value, String) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../vectors/call-receipt.json");
    let d: serde_json::Value =
        serde_json::from_slice(&std::fs::read(path).expect("vector")).expect("json");
    let receipt = serde_json::to_string(&d["receipt"]).expect("json");
    (d, receipt)
}

#[test]
fn secrets_from_a_file_the_environment_or_stdin() {
    let dir = TestDir::new("cli-hardening");
    let (d, receipt) = receipt_vector();
    let secret = d["receipt_secret"].as_str().expect("secret").to_owned();
    let input = temp(&dir, "receipt.json", receipt.as_bytes());
    let want = ekl(
        &["receipt", "sign", "--secret", &secret],
        receipt.as_bytes(),
    );
    assert_eq!(want.code, 0, "{}", want.stderr);
    assert!(want.stdout.contains(d["auth_tag"].as_str().expect("tag")));
    let lf = temp(&dir, "secret-lf", format!("{secret}\n").as_bytes());
    let crlf = temp(&dir, "secret-crlf", format!("{secret}\r\n").as_bytes());
    let bare = temp(&dir, "secret-bare", secret.as_bytes());
    for f in [&lf, &crlf, &bare] {
        let out = ekl(&["receipt", "sign", "--secret-file", f], receipt.as_bytes());
        assert_eq!(out.stdout, want.stdout, "{}", out.stderr);
    }
    let out = run(
        &["receipt", "sign", "--secret-env", "EKL_TEST_SECRET"],
        receipt.as_bytes(),
        &[("EKL_TEST_SECRET", &secret)],
    );
    assert_eq!(out.stdout, want.stdout, "{}", out.stderr);
    let out = ekl(
        &["receipt", "sign", "--secret-stdin", &input],
        format!("{secret}\n").as_bytes(),
    );
    assert_eq!(out.stdout, want.stdout, "{}", out.stderr);
    let out = ekl(
        &["receipt", "sign", "--secret-file", "-", &input],
        secret.as_bytes(),
    );
    assert_eq!(out.stdout, want.stdout, "{}", out.stderr);
    // A second line is part of the secret: another tag.
    let two = temp(&dir, "secret-two-lines", format!("{secret}\n\n").as_bytes());
    let out = ekl(
        &["receipt", "sign", "--secret-file", &two],
        receipt.as_bytes(),
    );
    assert_eq!(out.code, 0);
    assert_ne!(out.stdout, want.stdout);
    // Stdin can serve one input only.
    let out = ekl(&["receipt", "sign", "--secret-stdin"], b"s3cret\n");
    assert_eq!(out.code, 64, "{}", out.stderr);
    assert!(
        out.stderr.starts_with("ekl: usage: ") && out.stderr.contains("stdin"),
        "{}",
        out.stderr
    );
    // An empty secret (a failed `vault ... |` upstream) from a file, a variable or stdin is refused.
    let empty = temp(&dir, "secret-empty", b"\n");
    for (args, stdin) in [
        (vec!["receipt", "sign", "--secret-stdin", &input], &b""[..]),
        (
            vec!["receipt", "sign", "--secret-file", &empty, &input],
            &b""[..],
        ),
        (vec!["proof", "key"], &b""[..]),
    ] {
        let out = ekl(&args, stdin);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(
            out.stderr.starts_with("ekl: INVALID_ARGUMENT: the ")
                && out.stderr.contains("is empty"),
            "{}",
            out.stderr
        );
    }
    // An environment variable that is not set.
    let out = ekl(
        &["receipt", "sign", "--secret-env", "EKL_TEST_SECRET", &input],
        b"",
    );
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.starts_with("ekl: INVALID_ARGUMENT: "),
        "{}",
        out.stderr
    );
    // No secret at all.
    let e = usage_line(&["receipt", "sign", &input]);
    assert!(e.contains("--secret-file"), "{e}");

    // The key ring from a file, the environment and stdin.
    let signed = temp(&dir, "signed.json", want.stdout.as_bytes());
    let call = temp(&dir, "call.json", d["call"].to_string().as_bytes());
    let ring = d["key_ring"]["keys"].to_string();
    let ring_file = temp(&dir, "ring.json", ring.as_bytes());
    let base = ["receipt", "verify", "--call", call.as_str()];
    let with = |extra: &[&str], stdin: &[u8], env: &[(&str, &str)]| {
        let mut a = base.to_vec();
        a.extend_from_slice(extra);
        run(&a, stdin, env)
    };
    let by_file = with(&["--key-ring", &ring_file, &signed], b"", &[]);
    assert_eq!(by_file.code, 0, "{}", by_file.stderr);
    let by_env = with(
        &["--key-ring-env", "EKL_TEST_SECRET", &signed],
        b"",
        &[("EKL_TEST_SECRET", &ring)],
    );
    assert_eq!(by_env.stdout, by_file.stdout, "{}", by_env.stderr);
    let by_stdin = with(&["--key-ring-stdin", &signed], ring.as_bytes(), &[]);
    assert_eq!(by_stdin.stdout, by_file.stdout, "{}", by_stdin.stderr);
    let by_secret_env = with(
        &["--secret-env", "EKL_TEST_SECRET", &signed],
        b"",
        &[("EKL_TEST_SECRET", &secret)],
    );
    assert_eq!(by_secret_env.code, 0, "{}", by_secret_env.stderr);
    // A wrong secret from the environment: the verdict is not accepted (exit 1).
    let wrong = with(
        &["--secret-env", "EKL_TEST_SECRET", &signed],
        b"",
        &[("EKL_TEST_SECRET", "another secret")],
    );
    assert_eq!(wrong.code, 1, "{}", wrong.stderr);
    let mut both = base.to_vec();
    both.extend(["--secret", "x", "--key-ring", &ring_file, &signed]);
    usage_line(&both);

    // Seeds and agent keys.
    let jwks = ekl(&["jwks", "from-seed", "--seed", SEED, "--kid", "k"], b"").stdout;
    let seed_file = temp(&dir, "seed", format!("{SEED}\n").as_bytes());
    let out = ekl(
        &["jwks", "from-seed", "--seed-file", &seed_file, "--kid", "k"],
        b"",
    );
    assert_eq!(out.stdout, jwks);
    let out = ekl(
        &["jwks", "from-seed", "--seed-stdin", "--kid", "k"],
        SEED.as_bytes(),
    );
    assert_eq!(out.stdout, jwks);
    let out = run(
        &[
            "jwks",
            "from-seed",
            "--seed-env",
            "EKL_TEST_SECRET",
            "--kid",
            "k",
        ],
        b"",
        &[("EKL_TEST_SECRET", SEED)],
    );
    assert_eq!(out.stdout, jwks);
    let key = ekl(&["proof", "key", "--agent-key", "ak_test_agent_key"], b"").stdout;
    let ak = temp(&dir, "agent-key", b"ak_test_agent_key\n");
    assert_eq!(ekl(&["proof", "key", &ak], b"").stdout, key);
    assert_eq!(
        ekl(&["proof", "key", "--agent-key-file", &ak], b"").stdout,
        key
    );
    assert_eq!(ekl(&["proof", "key"], b"ak_test_agent_key\n").stdout, key);
    let pk = key.trim();
    let challenge = |extra: &[&str], stdin: &[u8]| {
        let mut a = vec![
            "proof",
            "challenge",
            "--challenge",
            "c",
            "--endpoint",
            "https://e",
        ];
        a.extend_from_slice(extra);
        ekl(&a, stdin).stdout
    };
    let want = challenge(&["--agent-key", "ak_test_agent_key"], b"");
    assert!(want.trim().len() >= 32, "{want}");
    assert_eq!(challenge(&["--proof-key", pk], b""), want);
    assert_eq!(challenge(&["--proof-key-stdin"], key.as_bytes()), want);
    assert_eq!(
        challenge(&["--agent-key-stdin"], b"ak_test_agent_key"),
        want
    );
}

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_secs() as i64
}

fn sign(claims: &str) -> Out {
    ekl(
        &[
            "jws",
            "sign",
            "--typ",
            "ekl-access+jwt",
            "--seed",
            SEED,
            "--kid",
            "n1",
        ],
        claims.as_bytes(),
    )
}

#[test]
fn now_defaults_to_the_clock() {
    let dir = TestDir::new("cli-hardening");
    let jwks = ekl(&["jwks", "from-seed", "--seed", SEED, "--kid", "n1"], b"").stdout;
    let jwks = temp(&dir, "now-jwks.json", jwks.as_bytes());
    let verify = |token: &str, extra: &[&str]| {
        let mut a = vec![
            "jws",
            "verify",
            "--typ",
            "ekl-access+jwt",
            "--jwks",
            jwks.as_str(),
        ];
        a.extend_from_slice(extra);
        a.extend(["--token", token]);
        ekl(&a, b"")
    };
    let t = now();
    let fresh = sign(&format!(
        r#"{{"iss":"https://n","aud":"ekl:agent:p","iat":{},"exp":{}}}"#,
        t - 5,
        t + 55
    ));
    assert_eq!(fresh.code, 0, "{}", fresh.stderr);
    let fresh = fresh.stdout.trim().to_owned();
    assert_eq!(
        verify(&fresh, &[]).code,
        0,
        "{}",
        verify(&fresh, &[]).stderr
    );
    // The same token at a given time long past: not valid yet.
    let past = verify(&fresh, &["--now", "1000"]);
    assert_eq!(past.code, 2);
    assert!(
        past.stderr.starts_with("ekl: TOKEN_NOT_YET_VALID"),
        "{}",
        past.stderr
    );
    // A token of 1970 is valid at --now 1030 and expired by default.
    let old = sign(r#"{"iss":"https://n","aud":"ekl:agent:p","iat":1000,"exp":1060}"#);
    let old = old.stdout.trim().to_owned();
    assert_eq!(verify(&old, &["--now", "1030"]).code, 0);
    let out = verify(&old, &[]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.starts_with("ekl: TOKEN_EXPIRED"),
        "{}",
        out.stderr
    );
    // A fraction is floored (the rule of every surface): 1030.5 is 1030, -0.5 is -1.
    let at_1030 = verify(&old, &["--now", "1030"]);
    let fraction = verify(&old, &["--now", "1030.5"]);
    assert_eq!(
        (fraction.code, &fraction.stdout),
        (0, &at_1030.stdout),
        "{}",
        fraction.stderr
    );
    let negative = verify(&old, &["--now", "-0.5"]);
    assert_eq!(negative.code, 2);
    assert!(
        negative
            .stderr
            .starts_with("ekl: INVALID_ARGUMENT: now must lie in [0"),
        "{}",
        negative.stderr
    );
    // Not a number: the operation's refusal (as `ekl call verify_jws --arg now=soon`), the value
    // not repeated.
    let soon = verify(&old, &["--now", "soon"]);
    assert_eq!(soon.code, 2);
    assert_eq!(
        soon.stderr,
        "ekl: INVALID_ARGUMENT: argument now must be a number of seconds since the epoch\n"
    );
}

/// `{"iss":..,"aud":..,"iat":..,"exp":..,"deep":[[..["x"]..]]}` nested `depth` levels in all.
fn deep_claims(depth: usize) -> String {
    let inner = depth - 1;
    format!(
        r#"{{"aud":"ekl:agent:p","deep":{}"x"{},"exp":1060,"iat":1000,"iss":"https://n"}}"#,
        "[".repeat(inner),
        "]".repeat(inner)
    )
}

#[test]
fn claims_at_the_depth_limit_verify_like_on_every_surface() {
    let dir = TestDir::new("cli-hardening");
    // The limit itself, as the core applies it to any document.
    assert_eq!(ekl(&["canon"], deep_claims(64).as_bytes()).code, 0);
    let too_deep = ekl(&["canon"], deep_claims(65).as_bytes());
    assert!(
        too_deep.stderr.starts_with("ekl: INPUT_TOO_DEEP"),
        "{}",
        too_deep.stderr
    );
    assert!(sign(&deep_claims(65))
        .stderr
        .starts_with("ekl: INPUT_TOO_DEEP"));

    let jwks = ekl(&["jwks", "from-seed", "--seed", SEED, "--kid", "n1"], b"").stdout;
    let jwks = temp(&dir, "deep-jwks.json", jwks.as_bytes());
    let token = sign(&deep_claims(64));
    assert_eq!(token.code, 0, "{}", token.stderr);
    let token_file = temp(&dir, "deep.jwt", token.stdout.as_bytes());
    let out = ekl(
        &[
            "jws",
            "verify",
            "--typ",
            "ekl-access+jwt",
            "--jwks",
            &jwks,
            "--now",
            "1030",
            "--token-file",
            &token_file,
        ],
        b"",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).expect("json output");
    let claims: serde_json::Value = serde_json::from_str(&deep_claims(64)).expect("json");
    assert_eq!(v["claims"], claims);
    assert_eq!(v["kid"], "n1");
    assert_eq!(v["header"]["typ"], "ekl-access+jwt");
    assert_eq!(v["token_sha256"].as_str().map(str::len), Some(64));
    // The output is canonical JSON itself (keys in order, one line).
    let shallow = sign(r#"{"iss":"https://n","aud":"ekl:agent:p","iat":1000,"exp":1060}"#);
    let out = ekl(
        &[
            "jws",
            "verify",
            "--typ",
            "ekl-access+jwt",
            "--jwks",
            &jwks,
            "--now",
            "1030",
            "-",
        ],
        shallow.stdout.as_bytes(),
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let canon = ekl(&["canon"], out.stdout.as_bytes());
    assert_eq!(format!("{}\n", canon.stdout), out.stdout);
}

/// One way to pass a key ring: the extra arguments, stdin and the environment.
type Source<'a> = (Vec<&'a str>, &'a [u8], Vec<(&'a str, &'a str)>);

/// A key ring holding an empty secret is refused wherever it comes from (a file, a variable,
/// stdin, the command line), and so is an empty registration secret given as the ring
/// (docs/decisions/edges.md#empty): a receipt MAC'd under the empty key is one anyone can make.
#[test]
fn a_key_ring_with_an_empty_secret_is_refused_from_every_source() {
    let dir = TestDir::new("cli-empty-ring");
    let (d, _) = receipt_vector();
    let call = temp(
        &dir,
        "empty-ring-call.json",
        d["call"].to_string().as_bytes(),
    );
    let receipt = temp(&dir, "empty-ring-receipt.json", b"{}");
    let ring = r#"[{"key_id":"rk-1","secret":"","valid_from":"2026-01-01T00:00:00Z"}]"#;
    let ring_file = temp(&dir, "empty-ring.json", ring.as_bytes());
    let empty_string = temp(&dir, "empty-ring-string.json", br#""""#);
    let base = ["receipt", "verify", "--call", call.as_str()];
    let cases: Vec<Source<'_>> = vec![
        (vec!["--key-ring", &ring_file], b"", vec![]),
        (vec!["--key-ring", &empty_string], b"", vec![]),
        (
            vec!["--key-ring-env", "EKL_TEST_SECRET"],
            b"",
            vec![("EKL_TEST_SECRET", ring)],
        ),
        (vec!["--key-ring-stdin"], ring.as_bytes(), vec![]),
    ];
    for (extra, stdin, env) in cases {
        let mut args = base.to_vec();
        args.extend_from_slice(&extra);
        args.push(&receipt);
        let out = run(&args, stdin, &env);
        assert!(
            out.code != 0 && out.code != 1 && out.stderr.contains("INVALID_ARGUMENT"),
            "{extra:?}: exit {} {}",
            out.code,
            out.stderr
        );
        assert!(out.stderr.contains("empty"), "{extra:?}: {}", out.stderr);
    }
    // Issuing with an empty secret given on the command line is refused too.
    let out = run(
        &[
            "call",
            "receipt_key",
            "--arg",
            "secret=",
            "--arg",
            "key_id=rk-1",
        ],
        b"",
        &[],
    );
    assert!(
        out.stdout.is_empty() && out.stderr.contains("INVALID_ARGUMENT"),
        "{}",
        out.stderr
    );
}
