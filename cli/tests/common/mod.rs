//! What the CLI's integration tests share: one way to run the `ekl` binary.
// Each test crate uses some of these.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs the `ekl` binary with `args`, `stdin` and extra environment variables: its exit status,
/// stdout and stderr.
pub(crate) fn ekl_env(args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> (i32, Vec<u8>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ekl"))
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the ekl binary runs");
    // A usage error exits before reading stdin: a broken pipe here is expected then.
    let _ = child.stdin.take().expect("stdin is piped").write_all(stdin);
    let out = child.wait_with_output().expect("ekl finishes");
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs the `ekl` binary with `args` and `stdin`: its exit status, stdout and stderr.
pub(crate) fn ekl(args: &[&str], stdin: &[u8]) -> (i32, Vec<u8>, String) {
    ekl_env(args, stdin, &[])
}

/// [`ekl_env`] for commands that print text: stdout must be UTF-8.
pub(crate) fn ekl_text_env(
    args: &[&str],
    stdin: &[u8],
    env: &[(&str, &str)],
) -> (i32, String, String) {
    let (code, out, err) = ekl_env(args, stdin, env);
    (code, String::from_utf8(out).expect("utf-8 output"), err)
}

/// [`ekl`] for commands that print text: stdout must be UTF-8.
pub(crate) fn ekl_text(args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    ekl_text_env(args, stdin, &[])
}
