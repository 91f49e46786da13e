//! What the CLI's integration tests share.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs the `ekl` binary with `args` and `stdin`: its exit status, stdout and stderr.
pub fn ekl(args: &[&str], stdin: &[u8]) -> (i32, Vec<u8>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ekl"))
        .args(args)
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
