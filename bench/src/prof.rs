//! A profiling harness: one implementation over the corpus, for callgrind or perf.
//!
//! `ekl-prof IMPL [COUNT] [BIG_MB] [PASSES]` with IMPL one of `ours`, `ours-value` (the documents
//! parsed first, then `canonicalize_value`: the write of every binding's host values), `serde_json`,
//! `json-canon`, `simd-json`. Only `run` does the measured work, so
//! `valgrind --tool=callgrind --toggle-collect=ekl_prof::run target/bench/release/ekl-prof ours 1000`
//! counts the instructions of the implementation alone (corpus generation excluded).

#[allow(dead_code)]
mod corpus;

use std::hint::black_box;

#[inline(never)]
fn run(f: fn(&[u8]) -> usize, docs: &[Vec<u8>], passes: usize) -> usize {
    let mut n = 0;
    for _ in 0..passes {
        for d in docs {
            n += f(black_box(d));
        }
    }
    n
}

fn ours(d: &[u8]) -> usize {
    ekl_core::canonical::canonicalize(d).expect("valid").len()
}

fn serde(d: &[u8]) -> usize {
    let v: serde_json::Value = serde_json::from_slice(d).expect("valid");
    serde_json::to_vec(&v).expect("prints").len()
}

fn json_canon(d: &[u8]) -> usize {
    let v: serde_json::Value = serde_json::from_slice(d).expect("valid");
    json_canon::to_vec(&v).expect("prints").len()
}

fn simd(d: &[u8]) -> usize {
    let mut copy = d.to_vec();
    simd_json::to_tape(&mut copy).expect("valid").0.len()
}

/// The value path alone: the documents parsed to `Value`s first (not counted), then written.
#[inline(never)]
fn run_values(values: &[ekl_core::Value<'_>], passes: usize) -> usize {
    let mut n = 0;
    for _ in 0..passes {
        for v in values {
            n += ekl_core::canonical::canonicalize_value(black_box(v))
                .expect("valid")
                .len();
        }
    }
    n
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let imp = args.get(1).map(String::as_str).unwrap_or("ours");
    let count: usize = args.get(2).map_or(1000, |s| s.parse().expect("COUNT"));
    let big_mb: usize = args.get(3).map_or(0, |s| s.parse().expect("BIG_MB"));
    let passes: usize = args.get(4).map_or(1, |s| s.parse().expect("PASSES"));
    let mut docs = corpus::small_docs(0x5eed_0001, count);
    if big_mb > 0 {
        docs.push(corpus::big_doc(0x5eed_0002, big_mb * 1_000_000));
    }
    // The measured work alone (the corpus and its parse excluded), and how long it took.
    let (n, elapsed) = if imp == "ours-value" {
        let values: Vec<_> = docs
            .iter()
            .map(|d| ekl_core::canonical::parse(d).expect("valid"))
            .collect();
        let t = std::time::Instant::now();
        (run_values(&values, passes), t.elapsed())
    } else {
        let f: fn(&[u8]) -> usize = match imp {
            "ours" => ours,
            "serde_json" => serde,
            "json-canon" => json_canon,
            "simd-json" => simd,
            _ => panic!("IMPL: ours, ours-value, serde_json, json-canon, simd-json"),
        };
        let t = std::time::Instant::now();
        (run(f, &docs, passes), t.elapsed())
    };
    let bytes: usize = docs.iter().map(Vec::len).sum::<usize>() * passes;
    eprintln!(
        "{imp}: {bytes} bytes in {elapsed:?} ({:.1} MB/s), {n} bytes out",
        bytes as f64 / elapsed.as_secs_f64() / 1e6
    );
}
