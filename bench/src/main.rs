//! The canonicalisation benchmark of issue 2: ekl-core against the Rust JCS peers and a
//! serde_json parse+print baseline, on one deterministic corpus, in one run.
//!
//! Usage: `ekl-bench [--rounds N] [--count N] [--big-mb N] [--worker NAME=PATH]... [--write-corpus DIR] [--only NAME]...`
//! (`./run bench` builds and runs it with the vr-jcs worker.)
//!
//! Every implementation runs once per round on the whole small-document corpus and once on the big
//! document (each sample at least 200 ms: a fast implementation repeats the pass, see
//! `worker::pass`), in an order that rotates from round to round, so that load from other jobs on
//! the shared machine spreads over all of them; the figure is the median over the rounds, after
//! one warm-up round. Before timing, every output is compared with ekl-core's.

mod corpus;
mod worker;

use std::hint::black_box;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use worker::Canon;

const SMALL_SEED: u64 = 0x5eed_0001;
const BIG_SEED: u64 = 0x5eed_0002;

fn ours(d: &[u8]) -> Result<Vec<u8>, String> {
    ekl_core::canonical::canonicalize(d).map_err(|e| e.to_string())
}

fn serde_json_baseline(d: &[u8]) -> Result<Vec<u8>, String> {
    let v: serde_json::Value = serde_json::from_slice(d).map_err(|e| e.to_string())?;
    serde_json::to_vec(&v).map_err(|e| e.to_string())
}

/// "The limit" (issue 15): a SIMD JSON parser, parse only, into its flat tape (on a copy of
/// the input: simd-json parses in place). Nothing is written back, nothing is canonical.
fn simd_json_parse_only(d: &[u8]) -> Result<Vec<u8>, String> {
    let mut copy = d.to_vec();
    let tape = simd_json::to_tape(&mut copy).map_err(|e| e.to_string())?;
    black_box(&tape);
    Ok(Vec::new())
}

fn json_canon(d: &[u8]) -> Result<Vec<u8>, String> {
    let v: serde_json::Value = serde_json::from_slice(d).map_err(|e| e.to_string())?;
    json_canon::to_vec(&v).map_err(|e| e.to_string())
}

fn serde_jcs(d: &[u8]) -> Result<Vec<u8>, String> {
    let v: serde_json::Value = serde_json::from_slice(d).map_err(|e| e.to_string())?;
    serde_jcs::to_vec(&v).map_err(|e| e.to_string())
}

fn serde_json_canonicalizer(d: &[u8]) -> Result<Vec<u8>, String> {
    let v: serde_json::Value = serde_json::from_slice(d).map_err(|e| e.to_string())?;
    serde_json_canonicalizer::to_vec(&v).map_err(|e| e.to_string())
}

fn jcs_admit(d: &[u8]) -> Result<Vec<u8>, String> {
    jcs_admit::admit(d).map_err(|e| e.to_string())
}

/// A peer hosted in its own process (see `worker.rs`).
struct Remote {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Remote {
    fn ask(&mut self, command: &str) -> String {
        writeln!(self.stdin, "{command}").expect("worker stdin");
        self.stdin.flush().expect("worker stdin");
        let mut line = String::new();
        self.stdout.read_line(&mut line).expect("worker stdout");
        line.trim().to_string()
    }
}

enum Runner {
    Local(Canon),
    Remote(Remote),
}

struct Imp {
    name: String,
    /// A JCS implementation (compared with ours and counted as a peer); false for the baseline.
    peer: bool,
    runner: Runner,
    small_ns: Vec<u128>,
    big_ns: Vec<u128>,
    note: String,
}

impl Imp {
    fn run_small(&mut self, docs: &[Vec<u8>]) -> u128 {
        match &mut self.runner {
            Runner::Local(f) => worker::pass(*f, docs),
            Runner::Remote(r) => r.ask("small").parse().expect("worker answers nanoseconds"),
        }
    }
    fn run_big(&mut self, big: &[Vec<u8>]) -> u128 {
        match &mut self.runner {
            Runner::Local(f) => worker::pass(*f, big),
            Runner::Remote(r) => r.ask("big").parse().expect("worker answers nanoseconds"),
        }
    }
    fn outputs(&mut self, docs: &[Vec<u8>], big: &[u8]) -> Vec<Result<Vec<u8>, String>> {
        let mut buf = Vec::new();
        match &mut self.runner {
            Runner::Local(f) => worker::dump(*f, docs, big, &mut buf).expect("in memory"),
            Runner::Remote(r) => {
                let path = std::env::temp_dir().join(format!("ekl-bench-{}.dump", r.child.id()));
                let answer = r.ask(&format!("dump {}", path.display()));
                assert_eq!(answer, "ok", "worker dump");
                std::fs::File::open(&path)
                    .and_then(|mut f| f.read_to_end(&mut buf))
                    .expect("dump readable");
                let _ = std::fs::remove_file(&path);
            }
        }
        let mut out = Vec::new();
        let mut at = 0;
        while at < buf.len() {
            let status = buf[at];
            let len = u32::from_le_bytes(buf[at + 1..at + 5].try_into().expect("4 bytes")) as usize;
            let bytes = buf[at + 5..at + 5 + len].to_vec();
            at += 5 + len;
            out.push(if status == 0 {
                Ok(bytes)
            } else {
                Err(String::from_utf8_lossy(&bytes).into_owned())
            });
        }
        out
    }
}

fn median(v: &[u128]) -> f64 {
    let mut s = v.to_vec();
    s.sort_unstable();
    let n = s.len();
    if n % 2 == 1 {
        s[n / 2] as f64
    } else {
        (s[n / 2 - 1] + s[n / 2]) as f64 / 2.0
    }
}

fn spread(v: &[u128]) -> f64 {
    let lo = *v.iter().min().expect("rounds") as f64;
    let hi = *v.iter().max().expect("rounds") as f64;
    (hi - lo) / median(v) * 100.0
}

/// Where two outputs first differ, as a short excerpt of each.
fn excerpt(a: &[u8], b: &[u8]) -> String {
    let i = a
        .iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    let from = i.saturating_sub(24);
    let show = |s: &[u8]| {
        String::from_utf8_lossy(&s[from.min(s.len())..(i + 24).min(s.len())]).into_owned()
    };
    format!("byte {i}: ours …{:?}… theirs …{:?}…", show(a), show(b))
}

fn main() {
    let mut rounds = 11usize;
    let mut count = 5000usize;
    let mut big_mb = 5usize;
    let mut workers: Vec<(String, String)> = Vec::new();
    let mut write_corpus: Option<String> = None;
    let mut only: Vec<String> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().expect("option value");
        match a.as_str() {
            "--rounds" => rounds = value().parse().expect("--rounds N"),
            "--count" => count = value().parse().expect("--count N"),
            "--big-mb" => big_mb = value().parse().expect("--big-mb N"),
            "--write-corpus" => write_corpus = Some(value()),
            "--only" => only.push(value()),
            "--worker" => {
                let v = value();
                let (name, path) = v.split_once('=').expect("--worker NAME=PATH");
                workers.push((name.to_string(), path.to_string()));
            }
            _ => {
                eprintln!("usage: ekl-bench [--rounds N] [--count N] [--big-mb N] [--worker NAME=PATH]... [--write-corpus DIR] [--only NAME]...");
                std::process::exit(2);
            }
        }
    }
    let rounds = rounds.max(1);

    let docs = corpus::small_docs(SMALL_SEED, count);
    let big = corpus::big_doc(BIG_SEED, big_mb * 1_000_000);
    if let Some(dir) = write_corpus {
        // The corpus as files, for inspection or other benchmarks: small/NNNNN.json and big.json.
        std::fs::create_dir_all(format!("{dir}/small")).expect("corpus dir");
        for (i, d) in docs.iter().enumerate() {
            std::fs::write(format!("{dir}/small/{i:05}.json"), d).expect("corpus file");
        }
        std::fs::write(format!("{dir}/big.json"), &big).expect("corpus file");
        println!("corpus written to {dir}");
        return;
    }
    let small_bytes: usize = docs.iter().map(Vec::len).sum();
    println!(
        "corpus: {count} documents, {small_bytes} bytes (min {} / mean {} / max {} bytes); big document {} bytes",
        docs.iter().map(Vec::len).min().unwrap_or(0),
        small_bytes / count.max(1),
        docs.iter().map(Vec::len).max().unwrap_or(0),
        big.len()
    );

    let local = |name: &str, peer: bool, f: Canon| Imp {
        name: name.to_string(),
        peer,
        runner: Runner::Local(f),
        small_ns: Vec::new(),
        big_ns: Vec::new(),
        note: String::new(),
    };
    let mut imps = vec![
        local("ekl-core", false, ours),
        local("serde_json parse+print", false, serde_json_baseline),
        local("simd-json 0.14 parse only", false, simd_json_parse_only),
        local("json-canon 0.1.3", true, json_canon),
        local("serde_jcs 0.2.0", true, serde_jcs),
        local(
            "serde_json_canonicalizer 0.4.1",
            true,
            serde_json_canonicalizer,
        ),
        local("jcs-admit 0.1.3", true, jcs_admit),
    ];
    if !only.is_empty() {
        // Keep ekl-core (the reference for the agreement check) and the named implementations.
        let keep =
            |name: &str| name == "ekl-core" || only.iter().any(|o| name.starts_with(o.as_str()));
        imps.retain(|i| keep(&i.name));
        workers.retain(|(name, _)| keep(name));
    }
    for (name, path) in workers {
        let mut child = match Command::new(&path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
        {
            Ok(c) => c,
            Err(e) => {
                println!("worker {name} ({path}) not started: {e}; left out");
                continue;
            }
        };
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        let mut remote = Remote {
            child,
            stdin,
            stdout,
        };
        let answer = remote.ask(&format!(
            "init {count} {SMALL_SEED} {} {BIG_SEED}",
            big_mb * 1_000_000
        ));
        let expected = format!("ok {}", corpus::fingerprint(&docs, &big));
        if answer != expected {
            println!("worker {name} generated another corpus ({answer}, expected {expected}): rebuild it; left out");
            let _ = remote.child.kill();
            let _ = remote.child.wait();
            continue;
        }
        imps.push(Imp {
            name,
            peer: true,
            runner: Runner::Remote(remote),
            small_ns: Vec::new(),
            big_ns: Vec::new(),
            note: String::new(),
        });
    }

    // Agreement with ours, document by document (the big document is the last one).
    let reference = imps[0].outputs(&docs, &big);
    if let Some((i, Err(e))) = reference.iter().enumerate().find(|(_, r)| r.is_err()) {
        eprintln!("ekl-core refused corpus document {i}: {e}");
        std::process::exit(1);
    }
    println!(
        "\nagreement with ekl-core ({} documents incl. the big one):",
        reference.len()
    );
    for imp in imps.iter_mut().skip(1) {
        if !imp.peer {
            imp.note = if imp.name.starts_with("simd-json") {
                "the limit: parse only, nothing written".into()
            } else {
                "baseline (not canonical)".into()
            };
            continue;
        }
        let theirs = imp.outputs(&docs, &big);
        let mut differ = 0;
        let mut errors = 0;
        let mut first: Option<String> = None;
        for (i, (a, b)) in reference.iter().zip(&theirs).enumerate() {
            let a = a.as_ref().expect("checked above");
            match b {
                Ok(b) if a == b => {}
                Ok(b) => {
                    differ += 1;
                    first.get_or_insert_with(|| format!("doc {i}, {}", excerpt(a, b)));
                }
                Err(e) => {
                    errors += 1;
                    first.get_or_insert_with(|| format!("doc {i}, refused: {e}"));
                }
            }
        }
        imp.note = if differ + errors == 0 {
            "identical".into()
        } else {
            format!("{differ} differ, {errors} refused")
        };
        println!("  {:<32} {}", imp.name, imp.note);
        if let Some(f) = first {
            println!("      first: {f}");
        }
    }

    // Timing: one warm-up round, then `rounds` rounds, rotating the order.
    println!("\ntiming: 1 warm-up round + {rounds} rounds, median; order rotates every round; samples of at least 200 ms (fast ones repeat the pass)");
    let n = imps.len();
    for round in 0..=rounds {
        for k in 0..n {
            let imp = &mut imps[(k + round) % n];
            let s = imp.run_small(&docs);
            let b = imp.run_big(std::slice::from_ref(&big));
            if round > 0 {
                imp.small_ns.push(s);
                imp.big_ns.push(b);
            }
        }
        black_box(round);
    }

    let mb = |bytes: usize, ns: f64| bytes as f64 / ns * 1000.0;
    println!(
        "\n{:<32} {:>10} {:>9} {:>7} | {:>10} {:>9} {:>7} | {}",
        "implementation",
        "small MB/s",
        "µs/doc",
        "spread",
        "5MB MB/s",
        "ms/doc",
        "spread",
        "output"
    );
    for imp in &imps {
        let s = median(&imp.small_ns);
        let b = median(&imp.big_ns);
        println!(
            "{:<32} {:>10.1} {:>9.2} {:>6.0}% | {:>10.1} {:>9.2} {:>6.0}% | {}",
            imp.name,
            mb(small_bytes, s),
            s / count as f64 / 1000.0,
            spread(&imp.small_ns),
            mb(big.len(), b),
            b / 1e6,
            spread(&imp.big_ns),
            if imp.note.is_empty() {
                "reference"
            } else {
                &imp.note
            }
        );
    }
    let ours_s = median(&imps[0].small_ns);
    let ours_b = median(&imps[0].big_ns);
    let fastest = |pick: fn(&Imp) -> &Vec<u128>| {
        imps.iter()
            .filter(|i| i.peer)
            .map(|i| (median(pick(i)), i.name.as_str()))
            .min_by(|a, b| a.0.total_cmp(&b.0))
    };
    let base = imps.iter().find(|i| i.name.starts_with("serde_json parse"));
    let base_s = base.map_or(f64::NAN, |b| median(&b.small_ns));
    let base_b = base.map_or(f64::NAN, |b| median(&b.big_ns));
    let limit = imps.iter().find(|i| i.name.starts_with("simd-json"));
    let limit_s = limit.map_or(f64::NAN, |b| median(&b.small_ns));
    let limit_b = limit.map_or(f64::NAN, |b| median(&b.big_ns));
    println!();
    // EKL_BENCH_JSON=FILE: the figures as JSON lines for the common report (scripts/bench/report.py).
    let mut report = String::new();
    for (label, o, f, sj, lim, bytes) in [
        (
            "small docs",
            ours_s,
            fastest(|i| &i.small_ns),
            base_s,
            limit_s,
            small_bytes,
        ),
        (
            "5 MB doc",
            ours_b,
            fastest(|i| &i.big_ns),
            base_b,
            limit_b,
            big.len(),
        ),
    ] {
        let (vs_peer, peer_name) = match f {
            Some((p, name)) => (p / o, name),
            None => (f64::NAN, "none"),
        };
        let vs_sj = sj / o;
        let op = if label == "small docs" {
            "canonicalize text small docs"
        } else {
            "canonicalize text big doc"
        };
        for (operation, peer, peer_ns) in [
            (op.to_string(), peer_name, f.map_or(f64::NAN, |x| x.0)),
            (format!("{op} vs serde_json"), "serde_json parse+print", sj),
            (
                format!("{op} vs simd-json parse only (the limit)"),
                "simd-json 0.14 parse only",
                lim,
            ),
        ] {
            if peer_ns.is_nan() {
                continue;
            }
            report.push_str(
                &serde_json::json!({
                    "step": "rust-canon", "surface": "rust", "operation": operation, "unit": "MB/s",
                    "ours_name": imps[0].name, "ours": mb(bytes, o), "peer": peer,
                    "peer_value": mb(bytes, peer_ns), "ratio": peer_ns / o,
                })
                .to_string(),
            );
            report.push('\n');
        }
        println!(
            "{label:<10}: ours is {vs_peer:.2}x the fastest peer ({peer_name}) [target 5x: {}], {vs_sj:.2}x serde_json parse+print [target 2x: {}], {:.2}x the time of simd-json's parse alone",
            if vs_peer >= 5.0 { "met" } else { "NOT met" },
            if vs_sj >= 2.0 { "met" } else { "NOT met" },
            o / lim,
        );
    }
    if let Ok(path) = std::env::var("EKL_BENCH_JSON") {
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .expect("EKL_BENCH_JSON file");
        f.write_all(report.as_bytes())
            .expect("EKL_BENCH_JSON write");
    }
    for imp in &mut imps {
        if let Runner::Remote(r) = &mut imp.runner {
            let _ = writeln!(r.stdin, "quit");
            let _ = r.child.wait();
        }
    }
}
