//! Runs every vector file of `vectors/` in place, one named test per case (libtest-mimic harness).
//!
//! Each file has one loader (`fn(&Path) -> Result<Vec<Case>, String>`) listed in [`FILES`]; a loader
//! refuses a file with a section it does not know, so nothing is skipped silently. To add a vector
//! file, write its loader and add a line to [`FILES`]. A file of `vectors/` without a loader shows
//! up as an ignored test named `<file>::no runner in tests/vectors.rs`, unless vectors/calls.jsonl
//! checks it: the one test-data format the files move to (vectors/README.md#calls), run through the
//! bridge by the CLI's tests and by one generic runner on every other surface.
//!
//! The meta-tests (`meta::…`) copy a file to a temporary folder, change one expected value, run the
//! same loader and checks on the copy and require exactly the changed case to fail.
//!
//! Run: `cargo test --release -p ekl-core --test vectors` (add a name filter as with any test).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use ekl_core::canonical::{self, Options};
use ekl_core::digest::sha256_hex;
use ekl_core::ErrorCode;
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::value::RawValue;
use serde_json::Value as Json;

/// One check of one vector case.
type Check = Box<dyn FnOnce() -> Result<(), String> + Send>;

/// A named vector case.
struct Case {
    name: String,
    check: Check,
}

type Loader = fn(&Path) -> Result<Vec<Case>, String>;

/// Every vector file with its loader, run in this order.
const FILES: &[(&str, Loader)] = &[
    ("ekl-json-1.json", ekl_json_1),
    ("call-receipt.json", call_receipt),
    ("endpoint-proof-v2.json", endpoint_proof_v2),
];

// The receipt, endpoint-proof and screening files: their checks live in `receipts_vectors/`.
mod receipts_vectors;

fn adapt(checks: Result<Vec<receipts_vectors::NamedCheck>, String>) -> Result<Vec<Case>, String> {
    Ok(checks?
        .into_iter()
        .map(|(name, check)| Case { name, check })
        .collect())
}

fn call_receipt(path: &Path) -> Result<Vec<Case>, String> {
    adapt(receipts_vectors::call_receipt(path))
}

fn endpoint_proof_v2(path: &Path) -> Result<Vec<Case>, String> {
    adapt(receipts_vectors::endpoint_proof_v2(path))
}

/// The vector files named by vectors/calls.jsonl (vectors/README.md#calls).
fn pinned_files(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("calls.jsonl")).unwrap_or_default();
    let mut files: Vec<String> = text
        .split('\n')
        .filter_map(|l| serde_json::from_str::<Json>(l).ok())
        .filter_map(|l| l.get("file")?.as_str().map(str::to_owned))
        .collect();
    files.dedup();
    files
}

fn vectors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../vectors")
}

fn main() {
    let args = Arguments::from_args();
    let dir = vectors_dir();
    let mut trials = Vec::new();
    for &(file, loader) in FILES {
        match loader(&dir.join(file)) {
            Ok(cases) => trials.extend(cases.into_iter().map(|case| {
                let check = case.check;
                Trial::test(format!("{file}::{}", case.name), move || {
                    check().map_err(Failed::from)
                })
            })),
            Err(e) => trials.push(Trial::test(format!("{file}::load"), move || {
                Err(Failed::from(e))
            })),
        }
    }
    // The files checked through vectors/calls.jsonl (the CLI's generic runner, on every surface)
    // have no loader here; a file in both is an error.
    let pinned = pinned_files(&dir);
    for (file, _) in FILES.iter().filter(|(f, _)| pinned.iter().any(|p| p == f)) {
        trials.push(Trial::test(format!("{file}::also in calls.jsonl"), || {
            Err(Failed::from(
                "a file is checked by a loader here or through calls.jsonl, not both",
            ))
        }));
    }
    if let Ok(entries) = std::fs::read_dir(&dir) {
        let mut names: Vec<String> = entries
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.ends_with(".json") && !FILES.iter().any(|(f, _)| f == n))
            .filter(|n| !pinned.contains(n))
            .collect();
        names.sort();
        for name in names {
            trials.push(
                Trial::test(format!("{name}::no runner in tests/vectors.rs"), || Ok(()))
                    .with_ignored_flag(true),
            );
        }
    }
    trials.extend(meta_trials());
    libtest_mimic::run(&args, trials).exit();
}

// ---------------------------------------------------------------------------------------------
// Reading the files
// ---------------------------------------------------------------------------------------------

fn read_json(path: &Path) -> Result<(String, Json), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let json =
        serde_json::from_str(&text).map_err(|e| format!("{} is not JSON: {e}", path.display()))?;
    Ok((text, json))
}

/// The byte range of the value at a JSON pointer, in the file's own text (so numbers and strings
/// reach the core exactly as written: serde_json would round an integer beyond u64 to a double).
fn span_of(text: &str, pointer: &str) -> Option<std::ops::Range<usize>> {
    let mut cur: &str = text.trim();
    for seg in pointer.split('/').skip(1) {
        let seg = seg.replace("~1", "/").replace("~0", "~");
        let next: &RawValue = if cur.starts_with('[') {
            let items: Vec<&RawValue> = serde_json::from_str(cur).ok()?;
            items.get(seg.parse::<usize>().ok()?).copied()?
        } else {
            let members: HashMap<String, &RawValue> = serde_json::from_str(cur).ok()?;
            members.get(&seg).copied()?
        };
        cur = next.get();
    }
    let start = cur.as_ptr() as usize - text.as_ptr() as usize;
    Some(start..start + cur.len())
}

/// The top-level object, after checking that it has a description and only known sections.
fn top<'j>(doc: &'j Json, known: &[&str]) -> Result<&'j serde_json::Map<String, Json>, String> {
    let obj = doc.as_object().ok_or("the file is not a JSON object")?;
    if let Some(extra) = obj.keys().find(|k| !known.contains(&k.as_str())) {
        return Err(format!("unknown section {extra:?}: add a check for it"));
    }
    match obj.get("description").and_then(Json::as_str) {
        Some(d) if !d.is_empty() => Ok(obj),
        _ => Err("the file has no description".into()),
    }
}

fn field<'j>(v: &'j Json, key: &str) -> Result<&'j Json, String> {
    v.get(key).ok_or_else(|| format!("missing member {key:?}"))
}

fn text(v: &Json, key: &str) -> Result<String, String> {
    field(v, key)?
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| format!("member {key:?} is not a string"))
}

fn opt_text(v: &Json, key: &str) -> Result<String, String> {
    match v.get(key) {
        None => Ok(String::new()),
        Some(_) => text(v, key),
    }
}

fn count(v: &Json, key: &str) -> Result<usize, String> {
    field(v, key)?
        .as_u64()
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| format!("member {key:?} is not a count"))
}

fn list<'j>(doc: &'j serde_json::Map<String, Json>, key: &str) -> Result<&'j [Json], String> {
    match doc.get(key) {
        None => Ok(&[]),
        Some(Json::Array(items)) => Ok(items),
        Some(_) => Err(format!("section {key:?} is not an array")),
    }
}

/// A known error code string, as stored in a vector.
fn code(v: &Json) -> Result<&'static str, String> {
    let c = text(v, "code")?;
    ErrorCode::from_str_code(&c)
        .map(ErrorCode::as_str)
        .ok_or_else(|| format!("unknown error code {c:?}"))
}

fn hex_bytes(text: &str) -> Result<Vec<u8>, String> {
    if !text.len().is_multiple_of(2) {
        return Err("odd hex length".into());
    }
    (0..text.len())
        .step_by(2)
        .map(|i| {
            u8::from_str_radix(text.get(i..i + 2).ok_or("bad hex")?, 16)
                .map_err(|e| format!("bad hex: {e}"))
        })
        .collect()
}

fn expect_eq(what: &str, got: &str, expected: &str) -> Result<(), String> {
    if got == expected {
        Ok(())
    } else {
        Err(format!(
            "{what}:\n  expected {expected:?}\n  got      {got:?}"
        ))
    }
}

fn utf8(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).expect("canonical output is UTF-8")
}

/// Canonicalises `input` and compares it (and its SHA-256) with the expectation; also checks that
/// canonical output is a fixed point and that the stored digest belongs to the stored text.
fn check_valid(
    input: &[u8],
    options: Options,
    canonical: Option<&str>,
    length: Option<usize>,
    sha256: &str,
) -> Result<(), String> {
    let out = canonical::canonicalize_with(input, options)
        .map_err(|e| format!("refused with {e}, expected acceptance"))?;
    let out = utf8(out);
    if let Some(c) = canonical {
        expect_eq("canonical", &out, c)?;
        expect_eq(
            "sha256 of the stored canonical",
            &sha256_hex(c.as_bytes()),
            sha256,
        )?;
    }
    if let Some(n) = length {
        expect_eq("canonical length", &out.len().to_string(), &n.to_string())?;
    }
    expect_eq("sha256", &sha256_hex(out.as_bytes()), sha256)?;
    // Canonical output is a fixed point, with one exception the rules imply: an integer-valued
    // double beyond 2^53 and below 1e21 is written as an integer literal, which ekl-json-1 refuses
    // as input (docs/decisions.md#vectors, "canonical output read back").
    match canonical::canonicalize(out.as_bytes()) {
        Ok(again) => expect_eq("canonical of canonical", &utf8(again), &out)?,
        Err(e) if e.code() == ErrorCode::IntegerOutOfRange => {}
        Err(e) => return Err(format!("canonical output refused: {e}")),
    }
    let value = canonical::parse(input).map_err(|e| format!("parse refused: {e}"))?;
    let from_value = canonical::canonicalize_value_with(&value, options)
        .map_err(|e| format!("value path refused: {e}"))?;
    expect_eq("value path", &utf8(from_value), &out)
}

fn check_refused(input: &[u8], options: Options, expected: &str) -> Result<(), String> {
    match canonical::canonicalize_with(input, options) {
        Ok(out) => Err(format!(
            "accepted as {:?}, expected {expected}",
            String::from_utf8_lossy(&out[..out.len().min(200)])
        )),
        Err(e) => expect_eq("error code", e.code().as_str(), expected),
    }
}

fn case(name: String, check: impl FnOnce() -> Result<(), String> + Send + 'static) -> Case {
    Case {
        name,
        check: Box::new(check),
    }
}

// ---------------------------------------------------------------------------------------------
// vectors/ekl-json-1.json
// ---------------------------------------------------------------------------------------------

fn ekl_json_1(path: &Path) -> Result<Vec<Case>, String> {
    let (_, doc) = read_json(path)?;
    let doc = top(
        &doc,
        &[
            "description",
            "valid",
            "invalid",
            "depth",
            "invalid_utf8",
            "size",
        ],
    )?;
    let mut cases = Vec::new();
    for v in list(doc, "valid")? {
        let (input, canon, sha) = (text(v, "input")?, text(v, "canonical")?, text(v, "sha256")?);
        cases.push(case(format!("valid::{}", text(v, "name")?), move || {
            check_valid(
                input.as_bytes(),
                Options::default(),
                Some(&canon),
                None,
                &sha,
            )
        }));
    }
    for v in list(doc, "invalid")? {
        let (input, code) = (text(v, "input")?, code(v)?);
        cases.push(case(format!("invalid::{}", text(v, "name")?), move || {
            check_refused(input.as_bytes(), Options::default(), code)
        }));
    }
    for v in list(doc, "depth")? {
        let input = generated(v)?;
        cases.push(expectation(
            format!("depth::{}", text(v, "name")?),
            v,
            input,
            Options::default(),
        )?);
    }
    for v in list(doc, "invalid_utf8")? {
        let input = hex_bytes(&text(v, "input_hex")?)?;
        if std::str::from_utf8(&input).is_ok() {
            return Err(format!(
                "invalid_utf8 case {:?} is valid UTF-8",
                text(v, "name")?
            ));
        }
        cases.push(expectation(
            format!("invalid_utf8::{}", text(v, "name")?),
            v,
            move || input,
            Options::default(),
        )?);
    }
    for v in list(doc, "size")? {
        let input = generated(v)?;
        let max_bytes = match field(v, "max_bytes")? {
            Json::Null => None,
            _ => Some(count(v, "max_bytes")?),
        };
        cases.push(expectation(
            format!("size::{}", text(v, "name")?),
            v,
            input,
            Options { max_bytes },
        )?);
    }
    Ok(cases)
}

/// A generated case: refused with `code`, or accepted with `sha256` (and `canonical` and/or
/// `canonical_length` when given).
/// The input is built when the case runs, so loading a file stays cheap.
fn expectation(
    name: String,
    v: &Json,
    input: impl FnOnce() -> Vec<u8> + Send + 'static,
    options: Options,
) -> Result<Case, String> {
    if v.get("code").is_some() {
        let code = code(v)?;
        return Ok(case(name, move || check_refused(&input(), options, code)));
    }
    let sha = text(v, "sha256")?;
    let canon = v
        .get("canonical")
        .map(|_| text(v, "canonical"))
        .transpose()?;
    let length = v
        .get("canonical_length")
        .map(|_| count(v, "canonical_length"))
        .transpose()?;
    if canon.is_none() && length.is_none() {
        return Err(format!("{name}: neither canonical nor canonical_length"));
    }
    Ok(case(name, move || {
        check_valid(&input(), options, canon.as_deref(), length, &sha)
    }))
}

/// A generated input: prefix + repeat × count + inner + close × count + suffix (a missing part is
/// empty), built when the case runs.
fn generated(v: &Json) -> Result<impl FnOnce() -> Vec<u8> + Send + 'static, String> {
    let n = count(v, "count")?;
    let repeat = text(v, "repeat")?;
    let (prefix, inner) = (opt_text(v, "prefix")?, opt_text(v, "inner")?);
    let (close, suffix) = (opt_text(v, "close")?, opt_text(v, "suffix")?);
    Ok(move || {
        let mut input = String::with_capacity(
            prefix.len() + n * (repeat.len() + close.len()) + inner.len() + suffix.len(),
        );
        input.push_str(&prefix);
        (0..n).for_each(|_| input.push_str(&repeat));
        input.push_str(&inner);
        (0..n).for_each(|_| input.push_str(&close));
        input.push_str(&suffix);
        input.into_bytes()
    })
}

// ---------------------------------------------------------------------------------------------
// Meta-tests: a changed expectation must make exactly that case fail.
// ---------------------------------------------------------------------------------------------

/// (file, JSON pointer of the value to change, new value, the case that must then fail).
const MUTATIONS: &[(&str, &str, &str, &str)] = &[
    (
        "call-receipt.json",
        "/auth_tag",
        r#""0000000000000000000000000000000000000000000000000000000000000000""#,
        "published",
    ),
    (
        "call-receipt.json",
        "/key_ring/cases/7/expected/details/key_id",
        r#""key not valid at issued_at""#,
        "key_ring::unknown key id",
    ),
    (
        "call-receipt.json",
        "/key_ring/keys/0/valid_until",
        r#""2026-12-01T00:00:00.000000001Z""#,
        "key_ring::rk-1 exactly at T",
    ),
    (
        "call-receipt.json",
        "/mismatch/cases/1/expected/not_pass",
        "{}",
        "mismatch::output differs",
    ),
    (
        "call-receipt.json",
        "/issue/cases/0/expected/dsc_ver",
        "13",
        "issue::customer call",
    ),
    (
        "call-receipt.json",
        "/issue/cases/4/error",
        r#""INVALID_ARGUMENT""#,
        "issue::call without execution_kind",
    ),
    (
        "call-receipt.json",
        "/mismatch/cases/0/receipt/status",
        r#""failed_before_effect""#,
        "mismatch::all checks pass",
    ),
    (
        "endpoint-proof-v2.json",
        "/challenges/3/proof_v2",
        r#""0000000000000000000000000000000000000000000000000000000000000000""#,
        "challenges::non-ASCII path, UTF-8 bytes",
    ),
    (
        "endpoint-proof-v2.json",
        "/downgrade/network/2/expected",
        r#""v1""#,
        "downgrade::network::proof key held, valid v1 only",
    ),
    (
        "endpoint-proof-v2.json",
        "/downgrade/agent/1/expected",
        r#""PROOF_INVALID""#,
        "downgrade::agent::announced v2, v1 authority without version",
    ),
    (
        "ekl-json-1.json",
        "/valid/0/sha256",
        r#""0000000000000000000000000000000000000000000000000000000000000000""#,
        "valid::numbers",
    ),
    (
        "ekl-json-1.json",
        "/valid/1/canonical",
        r#""{\"a\":7}""#,
        "valid::key order by UTF-16 code units",
    ),
    (
        "ekl-json-1.json",
        "/invalid/0/code",
        r#""INVALID_JSON""#,
        "invalid::duplicate keys",
    ),
    (
        "ekl-json-1.json",
        "/invalid/5/input",
        r#""[\"\\ud83d\\ude00\"]""#,
        "invalid::lone surrogate",
    ),
    (
        "ekl-json-1.json",
        "/depth/1/code",
        r#""INVALID_JSON""#,
        "depth::65 nested arrays refused",
    ),
    (
        "ekl-json-1.json",
        "/invalid_utf8/0/code",
        r#""INVALID_JSON""#,
        "invalid_utf8::lone continuation byte",
    ),
    (
        "ekl-json-1.json",
        "/size/1/max_bytes",
        "262145",
        "size::canonical form of 262,145 bytes refused",
    ),
    ("ekl-json-1.json", "/extra", "[]", "load"),
];

fn meta_trials() -> Vec<Trial> {
    MUTATIONS
        .iter()
        .enumerate()
        .map(|(i, &(file, pointer, new, must_fail))| {
            Trial::test(format!("meta::{file}::{pointer} changed"), move || {
                meta_check(i, file, pointer, new, must_fail).map_err(Failed::from)
            })
        })
        .collect()
}

fn meta_check(
    i: usize,
    file: &str,
    pointer: &str,
    new: &str,
    must_fail: &str,
) -> Result<(), String> {
    let loader = FILES
        .iter()
        .find(|(f, _)| *f == file)
        .map(|&(_, l)| l)
        .ok_or("no loader for the file")?;
    // The change is spliced into the file's own text, so every other byte stays as it was.
    let (original, _) = read_json(&vectors_dir().join(file))?;
    serde_json::from_str::<Json>(new).map_err(|e| format!("the new value is not JSON: {e}"))?;
    let changed = match span_of(&original, pointer) {
        Some(range) => {
            if original[range.clone()] == *new {
                return Err("the mutation does not change the value".into());
            }
            format!(
                "{}{new}{}",
                &original[..range.start],
                &original[range.end..]
            )
        }
        None => {
            // A new member of the top-level object (e.g. an unknown section).
            let key = pointer.strip_prefix('/').filter(|k| !k.contains('/'));
            let key = key.ok_or("only a top-level member can be added")?;
            let end = original.rfind('}').ok_or("the file is not an object")?;
            format!("{},\n  {key:?}: {new}\n}}\n", original[..end].trim_end())
        }
    };
    let tmp = std::env::temp_dir().join(format!("ekl-vectors-meta-{}-{i}", std::process::id()));
    std::fs::create_dir_all(&tmp).map_err(|e| e.to_string())?;
    let copy = tmp.join(file);
    std::fs::write(&copy, changed).map_err(|e| e.to_string())?;
    let failing = run_all(loader, &copy);
    let _ = std::fs::remove_dir_all(&tmp);
    // The unchanged file passes (checked by the ordinary trials); the copy must fail exactly there.
    if failing == [must_fail] {
        Ok(())
    } else {
        Err(format!(
            "expected only {must_fail:?} to fail, failing: {failing:?}"
        ))
    }
}

/// Runs every case of a file; returns the names of the failing ones (`load` if it does not load).
fn run_all(loader: Loader, path: &Path) -> Vec<String> {
    match loader(path) {
        Err(_) => vec!["load".into()],
        Ok(cases) => cases
            .into_iter()
            .filter_map(|c| (c.check)().err().map(|_| c.name))
            .collect(),
    }
}
