//! The line protocol between the bench binary and a worker process that hosts a peer whose
//! dependency features would change the other peers if linked into the same binary (vr-jcs turns
//! on serde_json's `arbitrary_precision` and `preserve_order`).
//!
//! Commands, one per line on stdin; one answer line on stdout each:
//! * `init COUNT SEED BIGBYTES BIGSEED` → `ok FINGERPRINT`: generate the corpus (same generator as
//!   the bench; the fingerprint proves it).
//! * `small` → nanoseconds of one pass over the small documents ([`pass`]).
//! * `big` → nanoseconds of one canonicalisation of the big document ([`pass`]).
//! * `dump PATH` → `ok`: write every output (small documents, then the big one) to PATH as
//!   records `status u8 (0 ok, 1 error) | len u32 le | bytes` (the error text when status is 1).
//! * `quit`.

use std::hint::black_box;
use std::io::{BufRead, Write};
use std::time::Instant;

use crate::corpus;

/// A canonicaliser under test: JSON bytes in, canonical bytes or an error text out.
pub type Canon = fn(&[u8]) -> Result<Vec<u8>, String>;

/// The shortest sample: an implementation fast enough to pass over `docs` in less is timed over
/// as many passes as reach it, and the time of one pass is their mean. Samples of every
/// implementation then last about as long, so a burst of load on the shared machine (a few
/// milliseconds) weighs alike on all of them instead of most on the fastest.
const MIN_SAMPLE_NS: u128 = 200_000_000;

/// The time of one pass over `docs`, in nanoseconds (see [`MIN_SAMPLE_NS`]).
pub fn pass(f: Canon, docs: &[Vec<u8>]) -> u128 {
    let t = Instant::now();
    let mut passes = 0u128;
    loop {
        let mut n = 0usize;
        for d in docs {
            let r = f(black_box(d));
            n += match &r {
                Ok(v) => v.len(),
                Err(_) => 1,
            };
            let _ = black_box(r);
        }
        black_box(n);
        passes += 1;
        let elapsed = t.elapsed().as_nanos();
        if elapsed >= MIN_SAMPLE_NS {
            return elapsed / passes;
        }
    }
}

/// Writes the outputs of `f` in the dump format.
pub fn dump(f: Canon, docs: &[Vec<u8>], big: &[u8], out: &mut impl Write) -> std::io::Result<()> {
    for d in docs
        .iter()
        .map(|d| d.as_slice())
        .chain(std::iter::once(big))
    {
        let (status, bytes) = match f(d) {
            Ok(v) => (0u8, v),
            Err(e) => (1u8, e.into_bytes()),
        };
        out.write_all(&[status])?;
        out.write_all(&(bytes.len() as u32).to_le_bytes())?;
        out.write_all(&bytes)?;
    }
    Ok(())
}

/// Serves the protocol on stdin/stdout for `f`.
#[allow(dead_code)] // used by the worker binaries only
pub fn serve(f: Canon) {
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout();
    let mut docs: Vec<Vec<u8>> = Vec::new();
    let mut big: Vec<u8> = Vec::new();
    for line in stdin.lock().lines() {
        let line = line.expect("stdin is readable");
        let words: Vec<&str> = line.split_whitespace().collect();
        let answer = match words.as_slice() {
            ["init", count, seed, bytes, bigseed] => {
                docs =
                    corpus::small_docs(seed.parse().expect("seed"), count.parse().expect("count"));
                big = corpus::big_doc(
                    bigseed.parse().expect("big seed"),
                    bytes.parse().expect("big bytes"),
                );
                format!("ok {}", corpus::fingerprint(&docs, &big))
            }
            ["small"] => pass(f, &docs).to_string(),
            ["big"] => pass(f, std::slice::from_ref(&big)).to_string(),
            ["dump", path] => {
                let mut file =
                    std::io::BufWriter::new(std::fs::File::create(path).expect("dump file"));
                dump(f, &docs, &big, &mut file).expect("dump written");
                file.flush().expect("dump flushed");
                "ok".to_string()
            }
            ["quit"] => return,
            _ => format!("error unknown command {line:?}"),
        };
        writeln!(stdout, "{answer}").expect("stdout is writable");
        stdout.flush().expect("stdout is writable");
    }
}
