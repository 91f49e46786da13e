//! Helpers shared by the integration tests: V8 (`node`) as the reference for number text and for
//! number literals, and a deterministic PRNG (splitmix64) so every run checks the same inputs.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The project's one SplitMix64 (not every test file that includes this module uses it).
#[allow(unused_imports)]
pub(crate) use ekl_core::test_rng::SplitMix64;

fn script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/support/v8_numbers.js")
}

/// Streams the lines produced by `produce` (each without a newline) through the node script
/// `tests/support/{script_name}` and hands each answer line to `check` with its index. The same
/// contract as [`with_v8_strings`]: `produce` runs once on a writer thread, in the order the
/// caller expects the answers. Returns the number of answers.
pub(crate) fn with_node_lines<P, C>(script_name: &str, produce: P, check: C) -> u64
where
    P: FnOnce(&mut dyn FnMut(&str)) + Send + 'static,
    C: FnMut(u64, &str),
{
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/support")
        .join(script_name);
    run_node(
        path,
        move |w| {
            let mut failed = None;
            produce(&mut |line| {
                if failed.is_none() {
                    if let Err(e) = w
                        .write_all(line.as_bytes())
                        .and_then(|()| w.write_all(b"\n"))
                    {
                        failed = Some(e);
                    }
                }
            });
            match failed {
                Some(e) => Err(e),
                None => Ok(()),
            }
        },
        check,
    )
}

/// Streams the bit patterns produced by `produce` through V8's `String(x)` and hands each V8 text
/// to `check` together with its index. `produce` runs on a writer thread and is called once; it
/// must send its doubles in the same order the caller expects them back. Panics (failing the
/// test) when node is missing: node is required on the test machine.
pub(crate) fn with_v8_strings<P, C>(produce: P, check: C) -> u64
where
    P: FnOnce(&mut dyn FnMut(u64)) + Send + 'static,
    C: FnMut(u64, &str),
{
    run_node(
        script(),
        move |w| {
            let mut failed = None;
            produce(&mut |bits| {
                if failed.is_none() {
                    if let Err(e) = writeln!(w, "{bits:x}") {
                        failed = Some(e);
                    }
                }
            });
            match failed {
                Some(e) => Err(e),
                None => Ok(()),
            }
        },
        check,
    )
}

/// Runs `node script`, feeding its stdin from `feed` on a writer thread and handing every line of
/// its stdout to `check`. Panics (failing the test) when node is missing or fails.
fn run_node<F, C>(script: PathBuf, feed: F, mut check: C) -> u64
where
    F: FnOnce(&mut BufWriter<std::process::ChildStdin>) -> std::io::Result<()> + Send + 'static,
    C: FnMut(u64, &str),
{
    let mut child = Command::new("node")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "node (Node.js) is required for the V8 cross-checks and was not found \
                 on PATH ({e}); install Node.js 18 or later"
            )
        });
    let stdin = child.stdin.take().expect("piped stdin");
    let writer = std::thread::spawn(move || {
        let mut w = BufWriter::with_capacity(1 << 16, stdin);
        feed(&mut w)?;
        w.flush()
    });
    let stdout = child.stdout.take().expect("piped stdout");
    let mut n = 0u64;
    let mut line = String::new();
    let mut reader = BufReader::with_capacity(1 << 16, stdout);
    loop {
        line.clear();
        if reader.read_line(&mut line).expect("read node output") == 0 {
            break;
        }
        check(n, line.trim_end_matches('\n'));
        n += 1;
    }
    writer
        .join()
        .expect("writer thread")
        .expect("write to node");
    let status = child.wait().expect("wait for node");
    assert!(status.success(), "node exited with {status}");
    n
}
