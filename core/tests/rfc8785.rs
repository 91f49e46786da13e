//! RFC 8785 test data (vectors/rfc8785-testdata, from the RFC author's repository), read in place:
//! every input canonicalises to its output byte for byte (SPEC §1: plain RFC 8785 input must be
//! accepted with the same bytes), and the ECMAScript number file `es6testfile100m.txt` is
//! regenerated with our number writer and checked against the published SHA-256 of its first N
//! lines (N = 10^3 … 10^6 here; `EKL_ES6_LINES=100000000` or scripts/es6-numbers.sh for more).
//! The line generator itself is first checked with V8's `String(x)` (node) against the hashes.

mod support;

use std::fs;
use std::path::{Path, PathBuf};

use ekl_core::canonical::{canonicalize, write_number};
use sha2::{Digest, Sha256};

fn testdata() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../vectors/rfc8785-testdata")
}

/// Canonicalises every `input/*` of `dir` and compares with `output/*`; the names of the files
/// checked, or a description of every difference.
fn run_testdata(dir: &Path) -> Result<Vec<String>, String> {
    let mut names: Vec<String> = fs::read_dir(dir.join("input"))
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .map(|e| {
            e.expect("dir entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    let mut failures = Vec::new();
    for name in &names {
        let input = fs::read(dir.join("input").join(name)).expect("read input");
        let expected = match fs::read(dir.join("output").join(name)) {
            Ok(bytes) => bytes,
            Err(e) => {
                failures.push(format!("{name}: no output file ({e})"));
                continue;
            }
        };
        match canonicalize(&input) {
            Ok(out) if out == expected => {}
            Ok(out) => failures.push(format!(
                "{name}: got {} expected {}",
                String::from_utf8_lossy(&out),
                String::from_utf8_lossy(&expected)
            )),
            Err(e) => failures.push(format!("{name}: refused {e:?}")),
        }
    }
    if failures.is_empty() {
        Ok(names)
    } else {
        Err(failures.join("\n"))
    }
}

#[test]
fn rfc8785_testdata_all_files() {
    let names = run_testdata(&testdata()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        names,
        [
            "arrays",
            "french",
            "structures",
            "unicode",
            "values",
            "weird"
        ]
        .map(|n| format!("{n}.json"))
    );
}

macro_rules! rfc8785_case {
    ($($test:ident => $file:literal),* $(,)?) => {$(
        #[test]
        fn $test() {
            let dir = testdata();
            let input = fs::read(dir.join("input").join($file)).expect("input");
            let output = fs::read(dir.join("output").join($file)).expect("output");
            assert_eq!(
                String::from_utf8(canonicalize(&input).expect("accepted")).expect("utf-8"),
                String::from_utf8(output).expect("utf-8")
            );
        }
    )*};
}

rfc8785_case! {
    rfc8785_arrays => "arrays.json",
    rfc8785_french => "french.json",
    rfc8785_structures => "structures.json",
    rfc8785_unicode => "unicode.json",
    rfc8785_values => "values.json",
    rfc8785_weird => "weird.json",
}

/// A scratch copy of the test data (no tempfile crate: a unique folder under the temp dir).
fn scratch_copy(tag: &str) -> PathBuf {
    let dst = std::env::temp_dir().join(format!("ekl-rfc8785-{tag}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dst);
    for sub in ["input", "output"] {
        fs::create_dir_all(dst.join(sub)).expect("mkdir");
        for e in fs::read_dir(testdata().join(sub)).expect("read dir") {
            let e = e.expect("entry");
            fs::copy(e.path(), dst.join(sub).join(e.file_name())).expect("copy");
        }
    }
    for file in ["es6-hashes.tsv", "numgen-static.txt"] {
        fs::copy(testdata().join(file), dst.join(file)).expect("copy");
    }
    dst
}

/// Meta-test: the runner fails when one expected output changes.
#[test]
fn meta_rfc8785_runner_detects_a_changed_output() {
    let dir = scratch_copy("meta");
    let path = dir.join("output/values.json");
    let text = fs::read_to_string(&path).expect("read");
    assert!(text.contains("4.5"));
    fs::write(&path, text.replacen("4.5", "4.50", 1)).expect("write");
    let result = run_testdata(&dir);
    let _ = fs::remove_dir_all(&dir);
    let err = result.expect_err("a changed output must fail the runner");
    assert!(err.contains("values.json"), "{err}");
}

// ---------------------------------------------------------------------------------------------
// es6testfile100m.txt
// ---------------------------------------------------------------------------------------------

/// The bit patterns of es6testfile100m.txt, in order (README of the test data).
struct Es6Doubles {
    fixed: Vec<u64>,
    next_fixed: usize,
    block: [u8; 32],
    pending: Vec<u64>,
}

impl Es6Doubles {
    fn new(dir: &Path) -> Es6Doubles {
        let text = fs::read_to_string(dir.join("numgen-static.txt")).expect("numgen-static.txt");
        let mut fixed: Vec<u64> = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| u64::from_str_radix(l.trim(), 16).expect("hex bit pattern"))
            .collect();
        fixed.extend((0..2000u64).map(|i| 0x0010_0000_0000_0000 + i));
        Es6Doubles {
            fixed,
            next_fixed: 0,
            block: [0; 32],
            pending: Vec::with_capacity(4),
        }
    }
}

impl Iterator for Es6Doubles {
    type Item = u64;
    fn next(&mut self) -> Option<u64> {
        if let Some(&b) = self.fixed.get(self.next_fixed) {
            self.next_fixed += 1;
            return Some(b);
        }
        while self.pending.is_empty() {
            self.block = Sha256::digest(self.block).into();
            for chunk in self.block.chunks_exact(8).rev() {
                let bits = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
                let x = f64::from_bits(bits);
                if x != 0.0 && x.is_finite() {
                    self.pending.push(bits);
                }
            }
        }
        self.pending.pop()
    }
}

/// The published hashes: (lines, sha256 hex).
fn es6_hashes(dir: &Path) -> Vec<(u64, String)> {
    fs::read_to_string(dir.join("es6-hashes.tsv"))
        .expect("es6-hashes.tsv")
        .lines()
        .filter_map(|l| {
            let (n, h) = l.split_once('\t')?;
            Some((n.trim().parse().expect("count"), h.trim().to_owned()))
        })
        .collect()
}

fn hex(digest: &[u8]) -> String {
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Hashes the first lines of the file made by `text_of` and checks every published hash up to
/// `max_lines`; the list of (lines, ours, published) that differ, and the hashes checked.
fn check_es6(
    dir: &Path,
    max_lines: u64,
    mut text_of: impl FnMut(u64, &mut Vec<u8>),
) -> (Vec<(u64, String, String)>, Vec<u64>) {
    let targets: Vec<(u64, String)> = es6_hashes(dir)
        .into_iter()
        .filter(|(n, _)| *n <= max_lines)
        .collect();
    let last = targets.last().map_or(0, |t| t.0);
    let mut hasher = Sha256::new();
    let mut line = Vec::with_capacity(64);
    let mut bad = Vec::new();
    let mut checked = Vec::new();
    let mut next_target = targets.iter().peekable();
    for (i, bits) in Es6Doubles::new(dir).take(last as usize).enumerate() {
        line.clear();
        line.extend_from_slice(format!("{bits:x},").as_bytes());
        text_of(bits, &mut line);
        line.push(b'\n');
        hasher.update(&line);
        if let Some((n, want)) = next_target.peek() {
            if i as u64 + 1 == *n {
                let got = hex(&hasher.clone().finalize());
                if &got != want {
                    bad.push((*n, got, want.clone()));
                }
                checked.push(*n);
                next_target.next();
            }
        }
    }
    (bad, checked)
}

fn ours(bits: u64, line: &mut Vec<u8>) {
    write_number(f64::from_bits(bits), line).expect("finite");
}

/// The generator is right: with V8's own String(x) its lines reproduce the published hashes.
#[test]
fn es6_generator_reproduces_published_hashes_with_v8() {
    let dir = testdata();
    let n = 10_000u64;
    let mut v8 = Vec::with_capacity(n as usize);
    support::with_v8_strings(
        {
            let dir = dir.clone();
            move |send| Es6Doubles::new(&dir).take(n as usize).for_each(send)
        },
        |_, text| v8.push(text.to_owned()),
    );
    assert_eq!(v8.len() as u64, n);
    let mut texts = v8.into_iter();
    let (bad, checked) = check_es6(&dir, n, |_, line| {
        line.extend_from_slice(texts.next().expect("one text a line").as_bytes())
    });
    assert_eq!(checked, [1_000, 10_000]);
    assert!(
        bad.is_empty(),
        "generator differs from the published file: {bad:?}"
    );
}

/// Our number writer reproduces the published file: 10^3 … 10^6 lines (more with EKL_ES6_LINES).
#[test]
fn es6_number_file_hashes_match() {
    let max: u64 = std::env::var("EKL_ES6_LINES")
        .ok()
        .map(|s| {
            s.replace('_', "")
                .parse()
                .expect("EKL_ES6_LINES is a count")
        })
        .unwrap_or(1_000_000);
    let t0 = std::time::Instant::now();
    let (bad, checked) = check_es6(&testdata(), max, ours);
    eprintln!(
        "es6testfile: hashes of {checked:?} lines checked in {:.1} s",
        t0.elapsed().as_secs_f64()
    );
    assert!(checked.len() >= 4, "checked only {checked:?}");
    assert!(
        bad.is_empty(),
        "number text differs from es6testfile: {bad:?}"
    );
}

/// Meta-test: a changed published hash fails the check.
#[test]
fn meta_es6_check_detects_a_changed_hash() {
    let dir = scratch_copy("es6");
    let tsv = fs::read_to_string(dir.join("es6-hashes.tsv")).expect("read");
    let first = tsv.lines().next().expect("a line").to_owned();
    let (n, h) = first.split_once('\t').expect("tab");
    let flipped = format!(
        "{n}\t{}{}",
        if h.starts_with('0') { "1" } else { "0" },
        &h[1..]
    );
    fs::write(
        dir.join("es6-hashes.tsv"),
        tsv.replacen(&first, &flipped, 1),
    )
    .expect("write");
    let (bad, checked) = check_es6(&dir, 1_000, ours);
    let _ = fs::remove_dir_all(&dir);
    assert_eq!(checked, [1_000]);
    assert_eq!(bad.len(), 1, "a changed hash must be reported");
}
