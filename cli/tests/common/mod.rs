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

/// A folder of one test's own under the temporary folder, removed when dropped: unique across
/// processes (the pid) and within one (a counter), so no two tests that may run at once share a
/// file (issue 36: a shared `ring.json` rewritten by one test while another's `ekl` read it).
pub(crate) struct TestDir(std::path::PathBuf);

impl TestDir {
    /// A new empty folder whose name starts with `tag`.
    pub(crate) fn new(tag: &str) -> Self {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("ekl-{tag}-{}-{n}", std::process::id()));
        // A folder left by a crashed process whose pid came round again.
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        TestDir(dir)
    }

    /// The folder.
    pub(crate) fn path(&self) -> &std::path::Path {
        &self.0
    }

    /// `name` in the folder.
    pub(crate) fn join(&self, name: &str) -> std::path::PathBuf {
        self.0.join(name)
    }

    /// Writes `bytes` to `name` in the folder: its path, as a string.
    pub(crate) fn write(&self, name: &str, bytes: impl AsRef<[u8]>) -> String {
        let path = self.0.join(name);
        std::fs::write(&path, bytes).expect("a file in the temporary folder");
        path.to_str().expect("a UTF-8 temporary path").to_owned()
    }
}

impl Drop for TestDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
