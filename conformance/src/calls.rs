//! The requests built from the vector files, one builder per file ([`FILES`], each file read
//! once): the legacy operations' requests (corpus.rs), `call` requests for every operation of the
//! bridge's registry (docs/operations.json), which each surface's adapter dispatches generically
//! through its public API, so a divergence between two surfaces on any operation fails the
//! cross-surface run; and the pins of vectors/calls.jsonl, the test data every surface runs
//! against the vector files' own expected values (vectors/README.md#calls). Unit tests prove
//! that every registry entry has cases and that every expected value of a file is pinned.

use std::borrow::Cow;
use std::path::Path;

use ekl_core::{canonical, digest, Value};

use super::corpus::{canon_text, protect_big_integers, Case, Golden};

fn load(dir: &Path, file: &str) -> Option<Value<'static>> {
    let bytes = std::fs::read(dir.join(file)).ok()?;
    let bytes = protect_big_integers(&bytes);
    canonical::parse(&bytes).ok().map(Value::into_owned)
}

fn get<'v>(v: &'v Value<'static>, path: &[&str]) -> &'v Value<'static> {
    static NULL: Value<'static> = Value::Null;
    let mut at = v;
    for p in path {
        at = at.get(p).unwrap_or(&NULL);
    }
    at
}

fn list<'v>(v: &'v Value<'static>, path: &[&str]) -> &'v [Value<'static>] {
    get(v, path).as_array().unwrap_or(&[])
}

fn st(v: &Value<'static>, path: &[&str]) -> String {
    get(v, path).as_str().unwrap_or("").to_owned()
}

/// An argument: a string.
fn s(x: impl Into<String>) -> Value<'static> {
    Value::String(Cow::Owned(x.into()))
}

/// An argument of kind value/text/jwks: the canonical text of `v` as a string.
fn t(v: &Value<'static>) -> Value<'static> {
    s(canon_text(v))
}

/// An argument of kind value: `v` as JSON text in the file's member order, with spaces (not
/// canonical, so that canonicalising it is a real check).
fn g(v: &Value<'static>) -> Value<'static> {
    fn text(v: &Value<'_>, out: &mut String) {
        match v {
            Value::Object(members) => {
                out.push_str("{ ");
                for (i, (k, x)) in members.iter().enumerate() {
                    out.push_str(if i == 0 { "" } else { ", " });
                    out.push_str(&canon_text(&Value::String(k.clone())));
                    out.push_str(": ");
                    text(x, out);
                }
                out.push_str(" }");
            }
            Value::Array(items) => {
                out.push_str("[ ");
                for (i, x) in items.iter().enumerate() {
                    out.push_str(if i == 0 { "" } else { ", " });
                    text(x, out);
                }
                out.push_str(" ]");
            }
            other => out.push_str(&canon_text(other)),
        }
    }
    let mut out = String::new();
    text(v, &mut out);
    s(out)
}

fn n(x: i64) -> Value<'static> {
    Value::Number(x as f64)
}

fn strs(items: &[&str]) -> Value<'static> {
    Value::Array(items.iter().map(|x| s(*x)).collect())
}

fn key(seed: &str, kid: &str) -> Value<'static> {
    Value::Object(vec![("seed".into(), s(seed)), ("kid".into(), s(kid))])
}

/// Adds (or replaces) member `name` of a JSON object value.
fn with(v: &Value<'static>, name: &str, x: Value<'static>) -> Value<'static> {
    let mut members = v.as_object().map(<[_]>::to_vec).unwrap_or_default();
    members.retain(|(k, _)| k != name);
    members.push((Cow::Owned(name.to_owned()), x));
    Value::Object(members)
}

struct Calls {
    out: Vec<Case>,
}

impl Calls {
    fn add(
        &mut self,
        op: &str,
        source: &str,
        label: impl Into<String>,
        args: Vec<(&str, Value<'static>)>,
    ) {
        let args = Value::Object(
            args.into_iter()
                .map(|(k, v)| (Cow::Owned(k.to_owned()), v))
                .collect(),
        );
        self.out.push(Case::call(op, source, label, args));
    }

    /// Pins the last request to the value at `pointer` of its vector file (the `source` it was
    /// added with): `take` of its outcome must equal it (vectors/calls.jsonl).
    fn pin(&mut self, pointer: impl Into<String>, take: &[&str]) {
        if let Some(case) = self.out.last_mut() {
            if let Some((_, file)) = case.rule.split_once("/vectors/") {
                let file = file.to_owned();
                case.golden.push(Golden {
                    file,
                    pointer: pointer.into(),
                    take: take.iter().map(|x| x.to_string()).collect(),
                    whole_text: false,
                });
            }
        }
    }
}

/// vectors/calls.jsonl: the requests pinned to a vector file's value (the legacy operations' and
/// the `call` ones), a line per pin, each a canonical JSON object `{"file", "pointer", "request",
/// "take"}` (vectors/README.md#calls). Each surface runs them with one generic runner; the
/// expected values stay in the vector files. Written and run by this module's tests
/// (`EKL_BLESS=1` rewrites the file).
#[cfg(test)]
pub(super) fn vector_calls(dir: &Path) -> String {
    let mut out = String::new();
    for case in &call_cases(dir) {
        let request = Value::Object(
            case.fields
                .iter()
                .map(|(k, v)| {
                    let compact = case.compact.iter().find(|(c, _)| c == k);
                    (Cow::Owned(k.clone()), compact.map_or(v, |(_, c)| c).clone())
                })
                .collect(),
        );
        for g in &case.golden {
            let mut members = Vec::new();
            if g.whole_text {
                members.push(("as".into(), s("text")));
            }
            let line = Value::Object(
                [
                    members,
                    vec![
                        ("file".into(), s(&g.file)),
                        ("pointer".into(), s(&g.pointer)),
                        ("request".into(), request.clone()),
                        ("take".into(), Value::Array(g.take.iter().map(s).collect())),
                    ],
                ]
                .concat(),
            );
            out.push_str(&canon_text(&line));
            out.push('\n');
        }
    }
    out
}

/// The salt of the cases that need one and do not take it from their vector file.
const SALT: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

/// The operations over a receipt archive (the same items and options).
const ARCHIVE_OPS: [&str; 3] = [
    "verify_receipt_lines",
    "summarize_receipt_lines",
    "verify_archive",
];

/// The builder of one vector file's requests: its `call`s and the pins of vectors/calls.jsonl
/// (its legacy operations' requests come from corpus.rs, called first).
type Builder = fn(&mut Calls, &Value<'static>, &str);

/// Every vector file of vectors/ and its builder: a new file without one is an error.
const FILES: [(&str, Builder); 11] = [
    ("call-receipt.json", call_receipts),
    ("credentials-jws.json", credentials_jws),
    ("duplicate-keys.json", duplicate_keys),
    ("empty-values.json", empty_values),
    ("ekl-json-1.json", ekl_json),
    ("endpoint-proof-v2.json", endpoint_proofs),
    ("fingerprints.json", fingerprints),
    ("receipt-jws.json", receipt_jws),
    ("screening-rules-jws.json", screening_rules_jws),
    ("screening-scan.json", screening_scan),
    ("upstream-fingerprint.json", upstream_fingerprints),
];

/// The bytes of a vector file, at most the core's bound on JSON text (64 MiB,
/// `limits::MAX_INPUT_BYTES`): a longer file is refused after reading one byte past it.
fn read_capped(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let limit = ekl_core::limits::MAX_INPUT_BYTES as u64;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(limit + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(std::io::Error::other("longer than the bound"));
    }
    Ok(bytes)
}

/// Every request built from the vector files of `dir`, each file read once: its legacy
/// operations' requests, its `call`s (with their handle and async twins) and its pins; then the
/// times and keys, and RFC 8785's input files. Also the names of the files read. A `*.json` file
/// of `dir` without a builder, or one that cannot be read or parsed, is an error (a new file
/// cannot be skipped silently).
pub(super) fn vector_requests(dir: &Path) -> Result<(Vec<Case>, Vec<String>), String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    let mut c = Calls { out: Vec::new() };
    for name in &names {
        let Some((_, build)) = FILES.iter().find(|(f, _)| f == name) else {
            return Err(format!(
                "vectors/{name}: no case of this file is known to the runner"
            ));
        };
        let path = dir.join(name);
        let bytes = read_capped(&path).map_err(|_| {
            format!(
                "{}: cannot read it (or it holds more than 64 MiB)",
                path.display()
            )
        })?;
        let doc = canonical::parse(&protect_big_integers(&bytes))
            .map_err(|e| format!("{}: {e}", path.display()))?
            .into_owned();
        super::corpus::legacy_requests(name, &doc, &mut c.out);
        build(&mut c, &doc, &format!("vectors/{name}"));
    }
    times_and_keys(&mut c, dir);
    replay_guard(&mut c);
    remote_jwks_steps(&mut c);
    rfc8785_testdata(&mut c, dir);
    let mut out = c.out;
    let twins = handle_twins(&out);
    out.extend(twins);
    Ok((out, names))
}

/// [`vector_requests`] of the repository's vectors (the tests), none when they cannot be read.
#[cfg(test)]
fn call_cases(dir: &Path) -> Vec<Case> {
    vector_requests(dir)
        .map(|(cases, _)| cases)
        .unwrap_or_default()
}

/// vectors/ekl-json-1.json: canonicalisation, digests, commitments and fingerprints of every case.
fn ekl_json(c: &mut Calls, d: &Value<'static>, src: &str) {
    for (i, case) in list(d, &["valid"])
        .iter()
        .chain(list(d, &["invalid"]).iter().take(40))
        .enumerate()
    {
        let input = s(st(case, &["input"]));
        let label = st(case, &["name"]);
        c.add("canonicalize", src, &label, vec![("text", input.clone())]);
        c.add(
            "canonicalize_value",
            src,
            &label,
            vec![("value", input.clone())],
        );
        if i % 4 == 0 {
            c.add(
                "canonicalize",
                src,
                &label,
                vec![("text", input.clone()), ("max_bytes", n(16))],
            );
            c.add("sha256_hex", src, &label, vec![("data", input.clone())]);
            c.add(
                "input_commitment",
                src,
                &label,
                vec![("input", input.clone())],
            );
        }
        if i % 4 == 1 {
            c.add(
                "commitment",
                src,
                &label,
                vec![
                    ("value", input.clone()),
                    ("salt", s(SALT)),
                    ("salt_id", s("s-1")),
                ],
            );
            c.add("value_digest", src, &label, vec![("value", input.clone())]);
        }
        if i % 4 == 2 {
            c.add("commitment", src, &label, vec![("value", input.clone())]);
            c.add(
                "value_digest",
                src,
                &label,
                vec![("value", input.clone()), ("salt", s(SALT))],
            );
            c.add(
                "fingerprint",
                src,
                &label,
                vec![("salt", s(SALT)), ("value", input.clone())],
            );
        }
    }
    c.add(
        "commitment",
        src,
        "bad salt",
        vec![("value", s("{}")), ("salt", s("00"))],
    );
}

/// vectors/fingerprints.json: fingerprints, result selection, screening and challenge proofs.
fn fingerprints(c: &mut Calls, d: &Value<'static>, src: &str) {
    for (i, case) in list(d, &["cases"]).iter().enumerate() {
        let label = st(case, &["name"]);
        let value = g(get(case, &["value"]));
        c.add(
            "canonicalize_value",
            src,
            &label,
            vec![("value", value.clone())],
        );
        c.pin(format!("/cases/{i}/jcs"), &[]);
        let salt = s(st(case, &["salt"]));
        c.add(
            "fingerprint",
            src,
            &label,
            vec![("salt", salt), ("value", value)],
        );
        c.pin(format!("/cases/{i}/fingerprint"), &[]);
    }
    // The result selection has no salt of its own: it uses the first case's.
    let first = list(d, &["cases"]).first();
    let salt = s(first.map(|c| st(c, &["salt"])).unwrap_or_default());
    let result = g(get(d, &["result_selection", "result"]));
    c.add(
        "output_fingerprint",
        src,
        "result_selection",
        vec![("salt", salt), ("result", result.clone())],
    );
    c.pin("/result_selection/fingerprint", &[]);
    c.add(
        "select_result_body",
        src,
        "result_selection",
        vec![("result", result.clone())],
    );
    c.pin("/result_selection/fingerprinted", &["/member"]);
    c.add("screen", src, "result_selection", vec![("result", result)]);
    let ch = get(d, &["challenge"]);
    c.add(
        "challenge_proof_v1",
        src,
        "challenge",
        vec![
            ("credential", s(st(ch, &["provider_credential"]))),
            ("challenge", s(st(ch, &["challenge"]))),
            ("endpoint", s(st(ch, &["endpoint"]))),
        ],
    );
    c.pin("/challenge/proof", &[]);
    c.add(
        "sha256_hex",
        src,
        "credential",
        vec![("data", s(st(ch, &["provider_credential"])))],
    );
    c.pin("/challenge/credential_sha256", &[]);
}

/// vectors/endpoint-proof-v2.json: proof keys and endpoint proofs, v1 and v2.
fn endpoint_proofs(c: &mut Calls, d: &Value<'static>, src: &str) {
    endpoint_proof_challenges(c, d, src);
    endpoint_proof_enrolment(c, d, src);
    endpoint_proof_signatures(c, d, src);
    endpoint_proof_values(c, d, src);
}

/// vectors/endpoint-proof-v2.json: each expected value, pinned (vectors/calls.jsonl).
fn endpoint_proof_values(c: &mut Calls, d: &Value<'static>, src: &str) {
    let (key, proof_key) = (s(st(d, &["agent_key"])), s(st(d, &["proof_key"])));
    c.add(
        "proof_key",
        src,
        "agent_key",
        vec![("agent_key", key.clone())],
    );
    c.pin("/proof_key", &[]);
    c.add("sha256_hex", src, "agent_key", vec![("data", key.clone())]);
    c.pin("/agent_key_sha256", &[]);
    for (i, ch) in list(d, &["challenges"]).iter().enumerate() {
        let (label, at) = (st(ch, &["name"]), ["challenge", "endpoint"]);
        let place: Vec<_> = at.iter().map(|k| (*k, s(st(ch, &[k])))).collect();
        let v1 = [vec![("credential", key.clone())], place.clone()].concat();
        c.add("challenge_proof_v1", src, &label, v1);
        c.pin(format!("/challenges/{i}/proof"), &[]);
        let v2 = [vec![("proof_key", proof_key.clone())], place].concat();
        c.add("challenge_proof_v2", src, &label, v2);
        c.pin(format!("/challenges/{i}/proof_v2"), &[]);
    }
    for (i, e) in list(d, &["enroll"]).iter().enumerate() {
        let label = st(e, &["name"]);
        let rest: Vec<_> = ["enrollment_id", "nonce", "endpoint"]
            .iter()
            .map(|k| (*k, s(st(e, &[k]))))
            .collect();
        c.add(
            "enroll_authority_v1",
            src,
            &label,
            [vec![("agent_key", key.clone())], rest.clone()].concat(),
        );
        c.pin(format!("/enroll/{i}/authority_v1"), &[]);
        c.add(
            "enroll_authority_v2",
            src,
            &label,
            [vec![("proof_key", proof_key.clone())], rest].concat(),
        );
        c.pin(format!("/enroll/{i}/authority_v2"), &[]);
    }
    for (i, v) in list(d, &["verify_signature"]).iter().enumerate() {
        let args = [
            "registration_secret",
            "agent_id",
            "enrollment_id",
            "challenge",
        ]
        .iter()
        .map(|k| (*k, s(st(v, &[k]))))
        .collect();
        c.add("verify_signature", src, st(v, &["name"]), args);
        c.pin(format!("/verify_signature/{i}/signature"), &[]);
    }
    let ch = list(d, &["challenges"])
        .first()
        .cloned()
        .unwrap_or(Value::Null);
    for (i, n) in list(d, &["downgrade", "network"]).iter().enumerate() {
        let mut args = vec![
            ("challenge", s(st(&ch, &["challenge"]))),
            ("endpoint", s(st(&ch, &["endpoint"]))),
        ];
        args.push(match st(n, &["holds"]).as_str() {
            "proof_key" => ("proof_key", proof_key.clone()),
            _ => ("credential_hash", s(st(d, &["agent_key_sha256"]))),
        });
        for m in ["proof", "proof_v2"] {
            if let Some(p) = get(n, &[m]).as_str() {
                args.push((m, s(p)));
            }
        }
        c.add("verify_challenge_proof", src, st(n, &["name"]), args);
        c.pin(format!("/downgrade/network/{i}/expected"), &["code"]);
    }
    let en = list(d, &["enroll"]).first().cloned().unwrap_or(Value::Null);
    for (i, a) in list(d, &["downgrade", "agent"]).iter().enumerate() {
        let mut args = vec![
            ("announced", s(st(a, &["announced"]))),
            ("agent_key", key.clone()),
        ];
        args.extend(
            ["enrollment_id", "nonce", "endpoint"]
                .iter()
                .map(|k| (*k, s(st(&en, &[k])))),
        );
        if let Some(x) = get(a, &["authority"]).as_str() {
            args.push(("authority", s(x)));
        }
        if !matches!(get(a, &["authority_version"]), Value::Null) {
            args.push(("authority_version", get(a, &["authority_version"]).clone()));
        }
        c.add("verify_enroll_authority", src, st(a, &["name"]), args);
        c.pin(format!("/downgrade/agent/{i}/expected"), &["code"]);
    }
}

/// vectors/endpoint-proof-v2.json: the proof key and the challenge proofs.
fn endpoint_proof_challenges(c: &mut Calls, d: &Value<'static>, src: &str) {
    let agent_key = st(d, &["agent_key"]);
    let proof_key = st(d, &["proof_key"]);
    c.add(
        "proof_key",
        src,
        "agent_key",
        vec![("agent_key", s(&agent_key))],
    );
    c.add("proof_key", src, "empty", vec![("agent_key", s(""))]);
    for ch in list(d, &["challenges"]) {
        let label = st(ch, &["name"]);
        let (challenge, endpoint) = (s(st(ch, &["challenge"])), s(st(ch, &["endpoint"])));
        c.add(
            "challenge_proof_v2",
            src,
            &label,
            vec![
                ("proof_key", s(&proof_key)),
                ("challenge", challenge.clone()),
                ("endpoint", endpoint.clone()),
            ],
        );
        c.add(
            "verify_challenge_proof",
            src,
            &label,
            vec![
                ("challenge", challenge.clone()),
                ("endpoint", endpoint.clone()),
                ("proof", get(ch, &["proof"]).clone()),
                ("proof_v2", get(ch, &["proof_v2"]).clone()),
                ("proof_key", s(&proof_key)),
            ],
        );
        c.add(
            "verify_challenge_proof",
            src,
            format!("{label}, v1 only"),
            vec![
                ("challenge", challenge.clone()),
                ("endpoint", endpoint.clone()),
                ("proof", get(ch, &["proof"]).clone()),
                ("proof_key", s(&proof_key)),
            ],
        );
        c.add(
            "verify_challenge_proof",
            src,
            format!("{label}, credential hash"),
            vec![
                ("challenge", challenge.clone()),
                ("endpoint", endpoint),
                ("proof", get(ch, &["proof"]).clone()),
                (
                    "credential_hash",
                    s(digest::sha256_hex(agent_key.as_bytes())),
                ),
            ],
        );
        c.add(
            "verify_challenge_proof",
            src,
            format!("{label}, both held"),
            vec![
                ("challenge", challenge),
                ("endpoint", s("x")),
                ("proof_key", s(&proof_key)),
                ("credential_hash", s(&proof_key)),
            ],
        );
    }
}

/// vectors/endpoint-proof-v2.json: enrolment proofs.
fn endpoint_proof_enrolment(c: &mut Calls, d: &Value<'static>, src: &str) {
    let agent_key = st(d, &["agent_key"]);
    let proof_key = st(d, &["proof_key"]);
    for e in list(d, &["enroll"]) {
        let label = st(e, &["name"]);
        let (id, nonce, ep) = (
            s(st(e, &["enrollment_id"])),
            s(st(e, &["nonce"])),
            s(st(e, &["endpoint"])),
        );
        c.add(
            "enroll_authority_v1",
            src,
            &label,
            vec![
                ("agent_key", s(&agent_key)),
                ("enrollment_id", id.clone()),
                ("nonce", nonce.clone()),
                ("endpoint", ep.clone()),
            ],
        );
        c.add(
            "enroll_authority_v2",
            src,
            &label,
            vec![
                ("proof_key", s(&proof_key)),
                ("enrollment_id", id.clone()),
                ("nonce", nonce.clone()),
                ("endpoint", ep.clone()),
            ],
        );
        for (announced, version, authority) in [
            ("v2", Some(2), st(e, &["authority_v2"])),
            ("v2", Some(1), st(e, &["authority_v1"])),
            ("v1", Some(1), st(e, &["authority_v1"])),
            ("v1", Some(3), st(e, &["authority_v1"])),
            ("v1", None, st(e, &["authority_v1"])),
            ("v3", Some(2), st(e, &["authority_v2"])),
        ] {
            let mut args = vec![
                ("announced", s(announced)),
                ("agent_key", s(&agent_key)),
                ("enrollment_id", id.clone()),
                ("nonce", nonce.clone()),
                ("endpoint", ep.clone()),
                ("authority", s(authority)),
            ];
            if let Some(v) = version {
                args.push(("authority_version", n(v)));
            }
            c.add(
                "verify_enroll_authority",
                src,
                format!("{label} {announced} {version:?}"),
                args,
            );
        }
    }
}

/// vectors/endpoint-proof-v2.json: signature verification of endpoint proofs.
fn endpoint_proof_signatures(c: &mut Calls, d: &Value<'static>, src: &str) {
    for v in list(d, &["verify_signature"]) {
        let label = st(v, &["name"]);
        let base = vec![
            ("registration_secret", s(st(v, &["registration_secret"]))),
            ("agent_id", s(st(v, &["agent_id"]))),
            ("enrollment_id", s(st(v, &["enrollment_id"]))),
            ("challenge", s(st(v, &["challenge"]))),
        ];
        c.add("verify_signature", src, &label, base.clone());
        let mut good = base.clone();
        good.push(("signature", s(st(v, &["signature"]))));
        c.add("check_verify_signature", src, &label, good);
        let mut bad = base;
        bad.push(("signature", s("00")));
        c.add(
            "check_verify_signature",
            src,
            format!("{label}, wrong"),
            bad,
        );
    }
}

/// The fetched key set's cache policy as a handle (`RemoteJwksPolicy`, ekl_core::remote_jwks;
/// docs/decisions/handles.md): its constructor, and each method called on a handle brought to a
/// state by earlier methods (the `self` argument describes them), so every surface's answers to
/// the same transitions are compared (tools/remote-jwks/scenarios.json plays them over HTTP).
fn remote_jwks_steps(c: &mut Calls) {
    const SRC: &str = "core/src/remote_jwks.rs";
    const KEY: &str = RJ_KEY;
    let set = format!(r#"{{"keys":[{KEY}]}}"#);
    let parse = |text: &str| {
        canonical::parse(text.as_bytes())
            .map(Value::into_owned)
            .unwrap_or(Value::Null)
    };
    let url = "https://net.example/.well-known/jwks.json";
    let parts = r#""url":"https://net.example/.well-known/jwks.json","scheme":"https","host":"net.example""#;
    for (label, args) in [
        ("new", format!("{{{parts}}}")),
        (
            "new, every option at its bound",
            format!(
                r#"{{{parts},"timeout_ms":600000,"max_bytes":67108864,"cooldown":0,"default_max_age":86400,"max_stale":31536000}}"#
            ),
        ),
        (
            "new, cooldown below 0",
            format!(r#"{{{parts},"cooldown":-1}}"#),
        ),
        ("new, timeout 0", format!(r#"{{{parts},"timeout":0}}"#)),
        (
            "new, timeout and timeout_ms",
            format!(r#"{{{parts},"timeout":1,"timeout_ms":1000}}"#),
        ),
        (
            "new, max_bytes 1.5",
            format!(r#"{{{parts},"max_bytes":1.5}}"#),
        ),
        (
            "new, a user name",
            format!(
                r#"{{"url":"{url}","scheme":"https","host":"net.example","credentials":true}}"#
            ),
        ),
        (
            "new, not http",
            format!(r#"{{"url":"{url}","scheme":"ftp","host":"net.example"}}"#),
        ),
        ("new, unparsed", format!(r#"{{"url":"{url}"}}"#)),
    ] {
        let args = parse(&args);
        let members = args.as_object().unwrap_or(&[]);
        let args = members.iter().map(|(k, v)| (&**k, v.clone())).collect();
        c.add("remote_jwks_policy", SRC, label, args);
    }
    let new = format!("{{{parts}}}");
    let handle = |then: &str| parse(&format!(r#"{{"new":{new},"then":[{then}]}}"#));
    let fetched = rj_body(&set, "max-age=60");
    let refused = r#"["failed",{"now":1061,"cause":"refused","message":"the key set's server answered 500"}]"#;
    let failed = format!("{fetched},{refused}");
    let token = "eyJhbGciOiJFUzI1NiIsImtpZCI6Ims5In0.e30.c2ln"; // {"alg":"ES256","kid":"k9"}
    let no_store = format!(
        "{},{}",
        rj_body(&set, "no-store"),
        r#"["need",{"now":1029}]"#
    );
    let kid_fetch = format!(r#"{fetched},["kid",{{"now":1010,"token":"{token}"}}]"#);
    let kid_timeout = format!(r#"{kid_fetch},["failed",{{"now":1011,"cause":"timeout"}}]"#);
    let v = RjInputs {
        set: set.clone(),
        new: new.clone(),
        fetched,
        refused,
        failed,
        cold: r#"["failed",{"now":1000,"cause":"timeout"}]"#,
        token,
        known: "eyJhbGciOiJFUzI1NiIsImtpZCI6ImsxIn0.e30.c2ln", // {"alg":"ES256","kid":"k1"}
        dup: "eyJraWQiOiJrOSIsImtpZCI6ImsxIn0.e30.c2ln",       // {"kid":"k9","kid":"k1"}
        no_store,
        kid_fetch,
        kid_timeout,
    };
    let steps = [
        rj_steps_1(&v),
        rj_steps_2(&v),
        rj_steps_3(&v),
        rj_steps_4(&v),
    ]
    .concat();
    for (label, method, then, more) in steps {
        let mut args = vec![("self", handle(&then))];
        args.extend(more);
        let name = format!("remote_jwks_policy_{method}");
        c.add(&name, SRC, label, args);
    }
    c.add(
        "remote_jwks_policy_need",
        SRC,
        "a handle of no class's method",
        vec![
            ("self", parse(r#"{"new":{"url":"https://x.example/","scheme":"https","host":"x.example"},"then":[["tick",{}]]}"#)),
            ("now", Value::Number(1.0)),
        ],
    );
}

/// The key of the `RemoteJwksPolicy` conformance steps' key set.
const RJ_KEY: &str = r#"{"alg":"ES256","crv":"P-256","kid":"k1","kty":"EC","use":"sig","x":"IBPaEMdAdqp6YxXlh70zMSKLxblldoQmMNdSuUfZ6ow","y":"I9B6U2c_y7Iwzk1NQNbXCWZzGpmBvc1Tbvs_CYkL8Ik"}"#;

/// The states and inputs the `RemoteJwksPolicy` conformance steps share ([`remote_jwks_steps`]).
struct RjInputs {
    set: String,
    new: String,
    fetched: String,
    refused: &'static str,
    failed: String,
    cold: &'static str,
    token: &'static str,
    known: &'static str,
    dup: &'static str,
    no_store: String,
    kid_fetch: String,
    kid_timeout: String,
}

impl RjInputs {
    /// A `body` step: the key set fetched with `cache_control`.
    fn body(&self, cc: &str) -> String {
        rj_body(&self.set, cc)
    }
}

/// A `body` step of the key set `set` fetched with `cache_control` `cc`.
fn rj_body(set: &str, cc: &str) -> String {
    format!(
        r#"["body",{{"now":1000,"body":{},"cache_control":"{cc}"}}]"#,
        String::from_utf8(canonical::canonicalize_value(&s(set.to_owned())).unwrap_or_default())
            .unwrap_or_default()
    )
}

/// One `RemoteJwksPolicy` method call: its label, method, the earlier steps (`then`) and the
/// method's other arguments.
type RjStep<'s> = (&'s str, &'s str, String, Vec<(&'s str, Value<'static>)>);

/// `RemoteJwksPolicy` conformance steps, part 1 of 4 ([`remote_jwks_steps`]).
#[allow(unused_variables, dead_code)] // one header of shared inputs for every part
fn rj_steps_1(v: &RjInputs) -> Vec<RjStep<'_>> {
    const KEY: &str = RJ_KEY;
    let (set, new, fetched, failed) = (
        v.set.clone(),
        v.new.clone(),
        v.fetched.clone(),
        v.failed.clone(),
    );
    let (no_store, kid_fetch, kid_timeout) = (
        v.no_store.clone(),
        v.kid_fetch.clone(),
        v.kid_timeout.clone(),
    );
    let (refused, cold, token, known, dup) = (v.refused, v.cold, v.token, v.known, v.dup);
    let body = |cc: &str| v.body(cc);
    let n = |x: f64| Value::Number(x);
    vec![
        (
            "need, no set",
            "need",
            String::new(),
            vec![("now", n(1000.0))],
        ),
        (
            "body, max-age",
            "body",
            String::new(),
            vec![
                ("now", n(1000.0)),
                ("body", s(set.clone())),
                ("cache_control", s("public, max-age=60")),
            ],
        ),
        (
            "need, no-store under the cooldown floor",
            "need",
            no_store.clone(),
            vec![("now", n(1029.0))],
        ),
        (
            "need, no-store, past the floor",
            "need",
            no_store,
            vec![("now", n(1030.0))],
        ),
        (
            "need, fresh",
            "need",
            fetched.clone(),
            vec![("now", n(1059.5))],
        ),
        (
            "need, expired",
            "need",
            fetched.clone(),
            vec![("now", n(1060.0))],
        ),
        (
            "failed, refused",
            "failed",
            fetched.clone(),
            vec![
                ("now", n(1061.0)),
                ("cause", s("refused")),
                ("message", s("the key set's server answered 500")),
            ],
        ),
        (
            "failed, timeout",
            "failed",
            String::new(),
            vec![("now", n(1000.0)), ("cause", s("timeout"))],
        ),
        (
            "failed, network",
            "failed",
            String::new(),
            vec![("now", n(1000.0)), ("cause", s("network"))],
        ),
        (
            "failed, an unknown cause",
            "failed",
            String::new(),
            vec![("now", n(1000.0)), ("cause", s("tick"))],
        ),
        (
            "need, cooling, stale set serves",
            "need",
            failed.clone(),
            vec![("now", n(1070.0))],
        ),
        (
            "need, cooling, no set",
            "need",
            cold.into(),
            vec![("now", n(1001.0))],
        ),
        (
            "need, long after a failure",
            "need",
            failed.clone(),
            vec![("now", n(87500.0))],
        ),
        (
            "need_failed, stale set serves",
            "need_failed",
            failed.clone(),
            vec![("now", n(1061.0))],
        ),
        (
            "need_failed, too stale",
            "need_failed",
            failed.clone(),
            vec![("now", n(87500.0))],
        ),
    ]
}

/// `RemoteJwksPolicy` conformance steps, part 2 of 4 ([`remote_jwks_steps`]).
#[allow(unused_variables, dead_code)] // one header of shared inputs for every part
fn rj_steps_2(v: &RjInputs) -> Vec<RjStep<'_>> {
    const KEY: &str = RJ_KEY;
    let (set, new, fetched, failed) = (
        v.set.clone(),
        v.new.clone(),
        v.fetched.clone(),
        v.failed.clone(),
    );
    let (no_store, kid_fetch, kid_timeout) = (
        v.no_store.clone(),
        v.kid_fetch.clone(),
        v.kid_timeout.clone(),
    );
    let (refused, cold, token, known, dup) = (v.refused, v.cold, v.token, v.known, v.dup);
    let body = |cc: &str| v.body(cc);
    let n = |x: f64| Value::Number(x);
    vec![
        (
            "need_failed, no set",
            "need_failed",
            cold.into(),
            vec![("now", n(1000.0))],
        ),
        (
            "kid, unknown: refetch",
            "kid",
            fetched.clone(),
            vec![("now", n(1010.0)), ("token", s(token))],
        ),
        (
            "kid, known",
            "kid",
            fetched.clone(),
            vec![("now", n(1010.0)), ("token", s(known))],
        ),
        (
            "kid, no token",
            "kid",
            fetched.clone(),
            vec![("now", n(1010.0))],
        ),
        (
            "kid, a header with a duplicate member: no kid",
            "kid",
            fetched.clone(),
            vec![("now", n(1010.0)), ("token", s(dup))],
        ),
        (
            "kid, unknown after a failure",
            "kid",
            failed.clone(),
            vec![("now", n(1066.0)), ("token", s(token))],
        ),
        (
            "kid, unknown, refetched 12 s ago",
            "kid",
            kid_fetch.clone(),
            vec![("now", n(1022.0)), ("token", s(token))],
        ),
        (
            "kid_fetched, still unknown",
            "kid_fetched",
            kid_fetch.clone(),
            vec![("token", s(token))],
        ),
        (
            "kid_fetched, known",
            "kid_fetched",
            kid_fetch,
            vec![("token", s(known))],
        ),
        ("kid_failed", "kid_failed", kid_timeout, vec![]),
        (
            "response, 200",
            "response",
            String::new(),
            vec![("status", n(200.0)), ("hops", n(0.0))],
        ),
        (
            "response, 500",
            "response",
            String::new(),
            vec![("status", n(500.0)), ("hops", n(0.0))],
        ),
        (
            "response, same-origin redirect",
            "response",
            String::new(),
            vec![
                ("status", n(302.0)),
                ("hops", n(0.0)),
                ("location", s("/moved")),
                ("scheme", s("https")),
                ("host", s("net.example")),
                ("port", n(443.0)),
            ],
        ),
        (
            "response, redirect to another origin",
            "response",
            String::new(),
            vec![
                ("status", n(301.0)),
                ("hops", n(0.0)),
                ("location", s("https://other.example/")),
                ("scheme", s("https")),
                ("host", s("other.example")),
            ],
        ),
        (
            "response, https to http",
            "response",
            String::new(),
            vec![
                ("status", n(307.0)),
                ("hops", n(0.0)),
                ("location", s("http://net.example/")),
                ("scheme", s("http")),
                ("host", s("net.example")),
            ],
        ),
    ]
}

/// `RemoteJwksPolicy` conformance steps, part 3 of 4 ([`remote_jwks_steps`]).
#[allow(unused_variables, dead_code)] // one header of shared inputs for every part
fn rj_steps_3(v: &RjInputs) -> Vec<RjStep<'_>> {
    const KEY: &str = RJ_KEY;
    let (set, new, fetched, failed) = (
        v.set.clone(),
        v.new.clone(),
        v.fetched.clone(),
        v.failed.clone(),
    );
    let (no_store, kid_fetch, kid_timeout) = (
        v.no_store.clone(),
        v.kid_fetch.clone(),
        v.kid_timeout.clone(),
    );
    let (refused, cold, token, known, dup) = (v.refused, v.cold, v.token, v.known, v.dup);
    let body = |cc: &str| v.body(cc);
    let n = |x: f64| Value::Number(x);
    vec![
        (
            "response, redirect without a Location",
            "response",
            String::new(),
            vec![("status", n(308.0)), ("hops", n(0.0))],
        ),
        (
            "response, redirect to an unparsed URL",
            "response",
            String::new(),
            vec![
                ("status", n(302.0)),
                ("hops", n(0.0)),
                ("location", s("http://[x")),
            ],
        ),
        (
            "response, the sixth redirect",
            "response",
            String::new(),
            vec![
                ("status", n(302.0)),
                ("hops", n(5.0)),
                ("location", s("/moved")),
                ("scheme", s("https")),
                ("host", s("net.example")),
            ],
        ),
        (
            "response, opaque",
            "response",
            String::new(),
            vec![
                ("status", n(0.0)),
                ("hops", n(0.0)),
                ("opaque", Value::Bool(true)),
            ],
        ),
        (
            "response, status 1000",
            "response",
            String::new(),
            vec![("status", n(1000.0)), ("hops", n(0.0))],
        ),
        (
            "body, a byte-order mark",
            "body",
            String::new(),
            vec![("now", n(1000.0)), ("body", s(format!("\u{feff}{set}")))],
        ),
        (
            "body, a duplicate member",
            "body",
            String::new(),
            vec![
                ("now", n(1000.0)),
                ("body", s(format!(r#"{{"keys":[],"keys":[{KEY}]}}"#))),
            ],
        ),
        (
            "body, a duplicate member in a key",
            "body",
            String::new(),
            vec![
                ("now", n(1000.0)),
                (
                    "body",
                    s(format!(r#"{{"keys":[{{"kid":"k0",{}]}}"#, &KEY[1..])),
                ),
            ],
        ),
        (
            "body, not JSON",
            "body",
            String::new(),
            vec![("now", n(1000.0)), ("body", s("<html>"))],
        ),
        (
            "body, NaN",
            "body",
            String::new(),
            vec![("now", n(1000.0)), ("body", s(r#"{"keys":NaN}"#))],
        ),
        (
            "body, only RSA",
            "body",
            String::new(),
            vec![
                ("now", n(1000.0)),
                (
                    "body",
                    s(r#"{"keys":[{"kty":"RSA","kid":"r","n":"AQAB","e":"AQAB"}]}"#),
                ),
            ],
        ),
        (
            "body, longer than max_bytes",
            "body",
            String::new(),
            vec![
                ("now", n(1000.0)),
                ("body", s(set.clone())),
                ("longer", Value::Bool(true)),
            ],
        ),
    ]
}

/// `RemoteJwksPolicy` conformance steps, part 4 of 4 ([`remote_jwks_steps`]).
#[allow(unused_variables, dead_code)] // one header of shared inputs for every part
fn rj_steps_4(v: &RjInputs) -> Vec<RjStep<'_>> {
    const KEY: &str = RJ_KEY;
    let (set, new, fetched, failed) = (
        v.set.clone(),
        v.new.clone(),
        v.fetched.clone(),
        v.failed.clone(),
    );
    let (no_store, kid_fetch, kid_timeout) = (
        v.no_store.clone(),
        v.kid_fetch.clone(),
        v.kid_timeout.clone(),
    );
    let (refused, cold, token, known, dup) = (v.refused, v.cold, v.token, v.known, v.dup);
    let body = |cc: &str| v.body(cc);
    let n = |x: f64| Value::Number(x);
    vec![(
        "need, after a refused body",
        "need",
        r#"["body",{"now":1000,"body":"<html>"}]"#.into(),
        vec![("now", n(1001.0))],
    )]
}

fn times_and_keys(c: &mut Calls, dir: &Path) {
    // Times (format_timestamp) and keys from PEM and JWK files made by node:crypto (OpenSSL).
    for (label, secs) in [
        ("epoch", 0),
        ("2026", 1_795_978_933),
        ("year 9999", 253_402_300_799),
        ("year 10000", 253_402_300_800),
        ("before 0000", -62_167_219_201),
    ] {
        c.add(
            "format_timestamp",
            "core/tests/data",
            label,
            vec![("time", n(secs))],
        );
    }
    // Read beside the vectors (the repository's layout), not compiled in: the published crate
    // carries no test data (docs/decisions.md#rust-registry).
    if let Some(keys) = load(dir, "../core/tests/data/keys.json") {
        for (i, k) in list(&keys, &["p256"]).iter().enumerate() {
            c.add(
                "signing_key_from_pem",
                "core/tests/data/keys.json",
                format!("pkcs8 {i}"),
                vec![("pem", s(st(k, &["pkcs8"]))), ("kid", s("k"))],
            );
            c.add(
                "signing_key_from_pem",
                "core/tests/data/keys.json",
                format!("sec1 {i}"),
                vec![("pem", s(st(k, &["sec1"]))), ("kid", s("k"))],
            );
            let jwk = get(k, &["jwk"]);
            let bare = Value::Object(vec![
                ("kty".into(), s("EC")),
                ("crv".into(), s("P-256")),
                ("kid".into(), s("k")),
                ("d".into(), get(jwk, &["d"]).clone()),
            ]);
            c.add(
                "signing_key_from_jwk",
                "core/tests/data/keys.json",
                format!("d alone {i}"),
                vec![("jwk", t(&bare))],
            );
            c.add(
                "signing_key_from_jwk",
                "core/tests/data/keys.json",
                format!("d, x, y {i}"),
                vec![(
                    "jwk",
                    t(&with(
                        &with(&with(jwk, "kid", s("k")), "use", s("sig")),
                        "alg",
                        s("ES256"),
                    )),
                )],
            );
            c.add(
                "signing_key_from_jwk",
                "core/tests/data/keys.json",
                format!("x alone {i}"),
                vec![("jwk", t(&with(&bare, "x", get(jwk, &["x"]).clone())))],
            );
            c.add(
                "public_jwk",
                "core/tests/data/keys.json",
                format!("{i}"),
                vec![("key", key(&"11".repeat(32), &format!("k{i}")))],
            );
        }
        for (name, pem) in get(&keys, &["refused"]).as_object().unwrap_or(&[]) {
            c.add(
                "signing_key_from_pem",
                "core/tests/data/keys.json",
                name.as_ref(),
                vec![("pem", pem.clone()), ("kid", s("k"))],
            );
        }
    }
}

/// The replay guard's machine (ekl_core::replay; the transitions tools/replay/scenarios.json
/// drives through each host's stores): keys, admissions and their refusals, the store's answers,
/// restores.
fn replay_guard(c: &mut Calls) {
    const SRC: &str = "tools/replay";
    const T: i64 = 1_800_000_000;
    let (iss, aud) = (
        "https://network.example",
        "https://provider.example/oauth/token",
    );
    for (kind, jti) in [
        ("relationship_assertion", "j1"),
        ("platform_call", "j1"),
        ("relationship_assertion", "\"],[\"j"),
        ("relationship_assertion", "j\u{e9}\u{4e2d}\u{1f600}\u{0}"),
        ("access_token", "j1"),
        ("platform_call", ""),
    ] {
        c.add(
            "replay_key",
            SRC,
            format!("{kind} {jti:?}"),
            vec![
                ("kind", s(kind)),
                ("issuer", s(iss)),
                ("audience", s(aud)),
                ("jti", s(jti)),
            ],
        );
    }
    /// (label, kind, iat, exp, now_ms, skew)
    type Admit = (&'static str, &'static str, i64, i64, i64, Option<i64>);
    let admits: [Admit; 14] = [
        (
            "fresh",
            "relationship_assertion",
            T,
            T + 120,
            T * 1000,
            None,
        ),
        (
            "last ms",
            "relationship_assertion",
            T,
            T + 120,
            (T + 180) * 1000 - 1,
            None,
        ),
        (
            "expired",
            "relationship_assertion",
            T,
            T + 120,
            (T + 180) * 1000,
            None,
        ),
        (
            "iat at now + skew",
            "relationship_assertion",
            T + 60,
            T + 180,
            T * 1000,
            None,
        ),
        (
            "not yet valid",
            "relationship_assertion",
            T + 61,
            T + 181,
            T * 1000,
            None,
        ),
        (
            "too long",
            "relationship_assertion",
            T,
            T + 121,
            T * 1000,
            None,
        ),
        (
            "platform call too long",
            "platform_call",
            T,
            T + 61,
            T * 1000,
            None,
        ),
        ("exp before iat", "platform_call", T, T - 1, T * 1000, None),
        ("negative now", "relationship_assertion", 0, 120, -1, None),
        (
            "milliseconds as seconds",
            "relationship_assertion",
            T,
            T + 120,
            T * 1_000_000,
            None,
        ),
        (
            "skew 0",
            "platform_call",
            T,
            T + 60,
            T * 1000 + 500,
            Some(0),
        ),
        ("skew 301", "platform_call", T, T + 60, T * 1000, Some(301)),
        (
            "negative iat",
            "relationship_assertion",
            -1,
            100,
            T * 1000,
            None,
        ),
        ("epoch", "platform_call", 0, 60, 0, Some(300)),
    ];
    for (label, kind, iat, exp, now_ms, skew) in admits {
        let mut args = vec![
            ("kind", s(kind)),
            ("issuer", s(iss)),
            ("audience", s(aud)),
            ("jti", s("j1")),
            ("iat", n(iat)),
            ("exp", n(exp)),
            ("now_ms", n(now_ms)),
        ];
        args.extend(skew.map(|k| ("skew", n(k))));
        c.add("replay_admit", SRC, label, args);
    }
    replay_answers_and_restores(c, SRC, T, (iss, aud));
}

/// The second half of [`replay_guard`]: the store's answers to admissions, and restores.
fn replay_answers_and_restores(c: &mut Calls, src: &str, t0: i64, (iss, aud): (&str, &str)) {
    let credential = |kind, iat| ekl_core::replay::Credential {
        kind,
        issuer: iss,
        audience: aud,
        jti: "j1",
        iat,
        exp: iat + 60,
    };
    use ekl_core::replay::{admit, Kind};
    for (label, kind, iat, restore, added) in [
        ("no restore", Kind::RelationshipAssertion, t0, None, None),
        ("added", Kind::PlatformCall, t0, None, Some(true)),
        ("reuse", Kind::RelationshipAssertion, t0, None, Some(false)),
        (
            "reuse of a platform call",
            Kind::PlatformCall,
            t0,
            None,
            Some(false),
        ),
        (
            "issued before a restore",
            Kind::RelationshipAssertion,
            t0,
            Some(t0 * 1000 - 59_999),
            None,
        ),
        (
            "issued at the restore + skew",
            Kind::PlatformCall,
            t0,
            Some(t0 * 1000 - 60_000),
            None,
        ),
        (
            "a restore out of its window",
            Kind::RelationshipAssertion,
            t0,
            Some(t0 * 1000 - 240_000),
            None,
        ),
    ] {
        let Ok(a) = admit(&credential(kind, iat), t0 * 1000, 60) else {
            continue;
        };
        let mut args = vec![("admission", t(&a.to_value()))];
        args.extend(restore.map(|m| ("restore_moment", n(m))));
        args.extend(added.map(|b| ("added", Value::Bool(b))));
        c.add("replay_answer", src, label, args);
    }
    c.add(
        "replay_answer",
        src,
        "not an admission",
        vec![("admission", t(&Value::Object(vec![("key".into(), s("k"))])))],
    );
    for (label, now_ms, skew) in [
        ("default skew", t0 * 1000 + 250, None),
        ("skew 0", t0 * 1000, Some(0)),
        ("skew 300", 0, Some(300)),
        ("negative now", -5_000, None),
        ("milliseconds as seconds", t0 * 1_000_000, None),
        ("skew -1", t0 * 1000, Some(-1)),
    ] {
        let mut args = vec![("now_ms", n(now_ms))];
        args.extend(skew.map(|k| ("skew", n(k))));
        c.add("replay_restore", src, label, args);
    }
}

/// vectors/call-receipt.json: MAC receipts, their digests, tags, issuing and verification.
fn call_receipts(c: &mut Calls, d: &Value<'static>, src: &str) {
    call_receipt_basics(c, d, src);
    call_receipt_values(c, d, src);
    call_receipt_issuing(c, d, src);
    call_receipt_key_ring(c, d, src);
    call_receipt_mismatches(c, d, src);
}

/// vectors/call-receipt.json: each expected value, pinned (vectors/calls.jsonl).
fn call_receipt_values(c: &mut Calls, d: &Value<'static>, src: &str) {
    let secret = s(st(d, &["receipt_secret"]));
    let receipt = get(d, &["receipt"]);
    let key_id = s(st(receipt, &["key_id"]));
    c.add(
        "receipt_key",
        src,
        "receipt",
        vec![("secret", secret.clone()), ("key_id", key_id)],
    );
    c.pin("/receipt_key", &[]);
    c.add(
        "auth_tag",
        src,
        "receipt",
        vec![("receipt", g(receipt)), ("secret", secret.clone())],
    );
    c.pin("/auth_tag", &[]);
    let signed = with(receipt, "auth_tag", get(d, &["auth_tag"]).clone());
    c.add(
        "receipt_digest",
        src,
        "receipt",
        vec![("receipt", g(&signed))],
    );
    c.pin("/receipt_digest", &[]);
    for (value, at) in [
        ("input", "input_commitment"),
        ("result", "output_commitment"),
    ] {
        c.add(
            "commitment",
            src,
            value,
            vec![("value", g(get(d, &[value])))],
        );
        c.pin(format!("/receipt/{at}/digest"), &["/digest"]);
    }
    c.add(
        "terms_hash",
        src,
        "terms",
        vec![("terms", g(get(d, &["terms"])))],
    );
    c.pin("/receipt/terms_hash", &[]);
    // A verdict in the file's shape: the checks that did not pass, and the named details.
    let verdict = |c: &mut Calls, at: String, case: &Value<'static>, args| {
        c.add("verify_receipt", src, st(case, &["name"]), args);
        c.pin(format!("{at}/expected/not_pass"), &["not_pass"]);
        for (name, _) in get(case, &["expected", "details"])
            .as_object()
            .unwrap_or(&[])
        {
            let detail = format!("/{}/detail", token_of(name));
            c.pin(
                format!("{at}/expected/details/{}", token_of(name)),
                &["checks", &detail],
            );
        }
    };
    let ring = t(get(d, &["key_ring", "keys"]));
    for (i, case) in list(d, &["key_ring", "cases"]).iter().enumerate() {
        let call = get(case, &["call"])
            .as_object()
            .map_or(get(d, &["key_ring", "call"]), |_| get(case, &["call"]));
        let args = vec![
            ("receipt", g(get(case, &["receipt"]))),
            ("keys", ring.clone()),
            ("call", t(call)),
        ];
        verdict(c, format!("/key_ring/cases/{i}"), case, args);
    }
    for (i, case) in list(d, &["mismatch", "cases"]).iter().enumerate() {
        let call = get(case, &["call"])
            .as_object()
            .map_or(get(d, &["call"]), |_| get(case, &["call"]));
        let salt = case
            .get("own_salt")
            .and_then(Value::as_str)
            .and_then(|x| digest::Salt::from_hex(x).ok());
        let own = |value: &str| {
            digest::commitment(get(case, &[value]), salt.as_ref(), None)
                .map(|c| t(&c.to_value()))
                .unwrap_or_else(|_| s(""))
        };
        let args = vec![
            ("receipt", g(get(case, &["receipt"]))),
            ("keys", t(&secret)),
            ("call", t(call)),
            ("input_commitment", own("own_input")),
            ("output_commitment", own("own_result")),
        ];
        verdict(c, format!("/mismatch/cases/{i}"), case, args);
    }
}

/// vectors/rfc8785-testdata/: each input file canonicalises to its output file, byte for byte.
/// (The ECMAScript number file's hashes, a generated stream, stay with each surface's runner.)
fn rfc8785_testdata(c: &mut Calls, dir: &Path) {
    let folder = dir.join("rfc8785-testdata");
    let Ok(entries) = std::fs::read_dir(folder.join("input")) else {
        return;
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    names.sort();
    for name in names {
        let Ok(text) = std::fs::read_to_string(folder.join("input").join(&name)) else {
            continue;
        };
        c.add(
            "canonicalize",
            "vectors/rfc8785-testdata",
            &name,
            vec![("text", s(text))],
        );
        if let Some(case) = c.out.last_mut() {
            case.golden.push(Golden {
                file: format!("rfc8785-testdata/output/{name}"),
                pointer: String::new(),
                take: Vec::new(),
                whole_text: true,
            });
        }
    }
}

/// A member name as a JSON pointer token (RFC 6901: `~` as `~0`, `/` as `~1`).
fn token_of(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

/// vectors/call-receipt.json: the receipt's key, digest, tag, signing and verification, and their refusals.
fn call_receipt_basics(c: &mut Calls, d: &Value<'static>, src: &str) {
    let secret = st(d, &["receipt_secret"]);
    let receipt = get(d, &["receipt"]).clone();
    let signed = with(&receipt, "auth_tag", get(d, &["auth_tag"]).clone());
    let call = get(d, &["call"]).clone();
    c.add(
        "receipt_key",
        src,
        "receipt",
        vec![("secret", s(&secret)), ("key_id", s("rk-1"))],
    );
    c.add(
        "auth_tag",
        src,
        "receipt",
        vec![("receipt", t(&receipt)), ("secret", s(&secret))],
    );
    c.add(
        "receipt_digest",
        src,
        "receipt",
        vec![("receipt", t(&signed))],
    );
    c.add(
        "sign_receipt",
        src,
        "receipt",
        vec![("receipt", t(&receipt)), ("secret", s(&secret))],
    );
    c.add(
        "sign_receipt",
        src,
        "issued_at +00:00",
        vec![
            (
                "receipt",
                t(&with(&receipt, "issued_at", s("2026-11-29T19:02:13+00:00"))),
            ),
            ("secret", s(&secret)),
        ],
    );
    c.add(
        "sign_receipt",
        src,
        "status bogus",
        vec![
            ("receipt", t(&with(&receipt, "status", s("bogus")))),
            ("secret", s(&secret)),
        ],
    );
    c.add(
        "sign_receipt",
        src,
        "empty key_id",
        vec![
            ("receipt", t(&with(&receipt, "key_id", s("")))),
            ("secret", s(&secret)),
        ],
    );
    c.add(
        "terms_hash",
        src,
        "terms",
        vec![("terms", t(get(d, &["terms"])))],
    );
    c.add(
        "input_commitment",
        src,
        "input",
        vec![
            ("input", t(get(d, &["input"]))),
            ("salt", s(SALT)),
            ("salt_id", s("in-1")),
        ],
    );
    c.add(
        "commitment",
        src,
        "result",
        vec![("value", t(get(d, &["result"])))],
    );
    let own_in = Value::Object(vec![
        ("alg".into(), s("sha-256")),
        ("canon".into(), s("ekl-json-1")),
        ("digest".into(), s("00")),
    ]);
    c.add(
        "verify_receipt",
        src,
        "published",
        vec![
            ("receipt", t(&signed)),
            ("keys", t(&s(&secret))),
            ("call", t(&call)),
        ],
    );
    c.add(
        "verify_receipt",
        src,
        "own input differs",
        vec![
            ("receipt", t(&signed)),
            ("keys", t(&s(&secret))),
            ("call", t(&call)),
            ("input_commitment", t(&own_in)),
        ],
    );
    c.add(
        "verify_receipt",
        src,
        "own commitment unknown member",
        vec![
            ("receipt", t(&signed)),
            ("keys", t(&s(&secret))),
            ("call", t(&call)),
            ("output_commitment", t(&with(&own_in, "Digest", s("x")))),
        ],
    );
    c.add(
        "verify_receipt",
        src,
        "call in camelCase",
        vec![
            ("receipt", t(&signed)),
            ("keys", t(&s(&secret))),
            ("call", t(&with(&call, "executionId", s("x")))),
        ],
    );
    c.add(
        "verify_receipt",
        src,
        "call missing an id",
        vec![
            ("receipt", t(&signed)),
            ("keys", t(&s(&secret))),
            ("call", t(&with(&call, "execution_id", Value::Null))),
        ],
    );
    c.add(
        "verify_receipt",
        src,
        "empty key ring",
        vec![
            ("receipt", t(&signed)),
            ("keys", s("[]")),
            ("call", t(&call)),
        ],
    );
}

/// vectors/call-receipt.json: receipts issued from the call answered (explicit salts and time).
fn call_receipt_issuing(c: &mut Calls, d: &Value<'static>, src: &str) {
    // Receipts issued from the call answered: explicit salts and time, so every surface
    // gives the same bytes (a salt or time left out would be each host's own).
    for (i, case) in list(d, &["issue", "cases"]).iter().enumerate() {
        let label = st(case, &["name"]);
        let mut args = vec![
            ("call", t(get(case, &["call"]))),
            ("input", t(get(case, &["input"]))),
            ("output", t(get(case, &["output"]))),
            ("status", get(case, &["status"]).clone()),
            (
                "rel_ver_at_admission",
                get(case, &["rel_ver_at_admission"]).clone(),
            ),
            ("dsc_ver", get(case, &["dsc_ver"]).clone()),
            ("secret", get(case, &["secret"]).clone()),
            ("issued_at", get(case, &["issued_at"]).clone()),
            ("input_salt", get(case, &["input_salt"]).clone()),
            ("output_salt", get(case, &["output_salt"]).clone()),
        ];
        for name in ["key_id", "receipt_id"] {
            if case.get(name).is_some() {
                args.push((name, get(case, &[name]).clone()));
            }
        }
        let base = args.clone();
        c.add("issue_mac_receipt", src, &label, args);
        let at = format!("/issue/cases/{i}");
        match case.get("error") {
            Some(_) => c.pin(format!("{at}/error"), &["/error"]),
            None => c.pin(format!("{at}/expected"), &[]),
        }
        if label != "customer call" {
            continue;
        }
        // Refusals of the arguments themselves, on the first case.
        let mut variant = |what: &str, name: &str, x: Value<'static>| {
            let mut args = base.clone();
            for a in args.iter_mut().filter(|(k, _)| *k == name) {
                a.1 = x.clone();
            }
            c.add("issue_mac_receipt", src, format!("{label}, {what}"), args);
        };
        variant("input not JSON", "input", s("{\"q\": "));
        variant(
            "output with a duplicate key",
            "output",
            s("{\"a\":1,\"a\":2}"),
        );
        variant(
            "call in camelCase",
            "call",
            t(&with(get(case, &["call"]), "executionId", s("x"))),
        );
        variant(
            "issued_at in milliseconds",
            "issued_at",
            n(1_795_977_605_000),
        );
        variant(
            "issued_at with a fraction",
            "issued_at",
            Value::Number(1_795_977_605.75),
        );
        variant("short salt", "output_salt", s("e0e0"));
        variant("key id rk-2", "key_id", s("rk-2"));
        // The issued receipt verifies for its call, with the consumer's own commitments.
        if let Some(receipt) = case.get("expected") {
            let own = |value: &[&str], salt: &[&str]| {
                let salt = digest::Salt::from_hex(&st(case, salt)).ok();
                digest::commitment(get(case, value), salt.as_ref(), None)
                    .map(|c| t(&c.to_value()))
                    .unwrap_or_else(|_| s(""))
            };
            c.add(
                "verify_receipt",
                src,
                format!("issue: {label}"),
                vec![
                    ("receipt", t(receipt)),
                    ("keys", t(get(case, &["secret"]))),
                    ("call", t(get(case, &["call"]))),
                    ("input_commitment", own(&["input"], &["input_salt"])),
                    ("output_commitment", own(&["output"], &["output_salt"])),
                ],
            );
        }
    }
}

/// vectors/call-receipt.json: verification against a key ring, one receipt and an archive of them.
fn call_receipt_key_ring(c: &mut Calls, d: &Value<'static>, src: &str) {
    let receipt = get(d, &["receipt"]).clone();
    let signed = with(&receipt, "auth_tag", get(d, &["auth_tag"]).clone());
    let call = get(d, &["call"]).clone();
    let ring = get(d, &["key_ring", "keys"]).clone();
    let ring_call = t(get(d, &["key_ring", "call"]));
    let mut items = Vec::new();
    for case in list(d, &["key_ring", "cases"]) {
        let label = st(case, &["name"]);
        c.add(
            "verify_receipt",
            src,
            &label,
            vec![
                ("receipt", t(get(case, &["receipt"]))),
                ("keys", t(&ring)),
                ("call", ring_call.clone()),
            ],
        );
        items.push(Value::Object(vec![
            ("receipt".into(), get(case, &["receipt"]).clone()),
            ("call".into(), get(d, &["key_ring", "call"]).clone()),
        ]));
    }
    if let Some(first) = ring.as_array().and_then(|l| l.first()) {
        let bad_ring = Value::Array(vec![with(first, "keyId", s("x"))]);
        c.add(
            "verify_receipt",
            src,
            "key with an unknown member",
            vec![
                ("receipt", t(&signed)),
                ("keys", t(&bad_ring)),
                ("call", t(&call)),
            ],
        );
    }
    items.push(Value::Object(vec![
        ("receipt".into(), Value::Array(vec![])),
        ("call".into(), call.clone()),
    ]));
    items.push(Value::Object(vec![
        ("receipt".into(), signed.clone()),
        ("call".into(), call.clone()),
        ("extra".into(), n(1)),
    ]));
    c.add(
        "verify_receipts",
        src,
        "key ring cases",
        vec![
            ("items", t(&Value::Array(items.clone()))),
            ("keys", t(&ring)),
        ],
    );
    let archive: String = items.iter().map(|i| canon_text(i) + "\n").collect();
    for op in ARCHIVE_OPS {
        c.add(
            op,
            src,
            "key ring cases as an archive",
            vec![
                ("lines", s(archive.clone())),
                ("keys", t(&ring)),
                ("jobs", n(2)),
            ],
        );
    }
    c.add(
        "verify_archive",
        src,
        "key ring cases, the failures alone",
        vec![
            ("lines", s(archive.clone())),
            ("keys", t(&ring)),
            ("failures_only", Value::Bool(true)),
            ("first_line", n(101)),
        ],
    );
    c.add(
        "verify_receipt_lines",
        src,
        "MAC receipts without a key ring",
        vec![("lines", s(archive))],
    );
    c.add(
        "verify_receipts",
        src,
        "key ring cases on 2 threads",
        vec![
            ("items", t(&Value::Array(items.clone()))),
            ("keys", t(&ring)),
            ("jobs", n(2)),
        ],
    );
    c.add(
        "verify_receipts",
        src,
        "jobs 0",
        vec![("items", s("[]")), ("keys", t(&ring)), ("jobs", n(0))],
    );
    c.add(
        "verify_receipts",
        src,
        "not a list",
        vec![("items", s("{}")), ("keys", t(&ring))],
    );
}

/// vectors/call-receipt.json: receipts that do not match their call.
fn call_receipt_mismatches(c: &mut Calls, d: &Value<'static>, src: &str) {
    let secret = st(d, &["receipt_secret"]);
    let call = get(d, &["call"]).clone();
    for case in list(d, &["mismatch", "cases"]) {
        let label = st(case, &["name"]);
        let mut args = vec![
            ("receipt", t(get(case, &["receipt"]))),
            ("keys", t(&s(&secret))),
        ];
        let case_call = get(case, &["call"]);
        args.push((
            "call",
            t(if case_call.as_object().is_some() {
                case_call
            } else {
                &call
            }),
        ));
        c.add("verify_receipt", src, &label, args);
    }
}

/// vectors/duplicate-keys.json: the refusal of duplicate member names.
fn duplicate_keys(c: &mut Calls, d: &Value<'static>, src: &str) {
    let (salt, secret) = (st(d, &["salt"]), st(d, &["secret"]));
    for (i, case) in list(d, &["cases"]).iter().enumerate() {
        let label = st(case, &["name"]);
        let op = st(case, &["operation"]);
        let Some(reg) = ekl_bridge::find(&op) else {
            continue;
        };
        let mut args = Vec::new();
        for p in reg.params.iter().filter(|p| p.required) {
            let v = match (p.name, p.kind) {
                ("salt", _) => s(&salt),
                ("secret", _) => s(&secret),
                (_, ekl_bridge::Kind::Value) => s(st(case, &["input"])),
                _ => continue,
            };
            args.push((p.name, v));
        }
        if reg.param_index("offered").is_some() && get(case, &["offered"]).as_array().is_some() {
            args.push(("offered", get(case, &["offered"]).clone()));
        }
        c.add(&op, src, &label, args);
        if get(case, &["code"]).as_str().is_some() {
            c.pin(format!("/cases/{i}/code"), &["/error"]);
        } else if op == "select_result_body" {
            c.pin(format!("/cases/{i}/expected"), &["/member"]);
        } else {
            c.pin(format!("/cases/{i}/expected"), &[]);
        }
    }
}

/// vectors/empty-values.json: an empty secret or identifier, refused with its code (each case's
/// `args` in the call form: a value argument as its JSON text, the others as they are).
fn empty_values(c: &mut Calls, d: &Value<'static>, src: &str) {
    for (i, case) in list(d, &["cases"]).iter().enumerate() {
        let label = st(case, &["name"]);
        let op = st(case, &["operation"]);
        let Some(reg) = ekl_bridge::find(&op) else {
            continue;
        };
        let mut args = Vec::new();
        for p in reg.params {
            let Some(v) = get(case, &["args"]).get(p.name) else {
                continue;
            };
            let v = match p.kind {
                ekl_bridge::Kind::Value => t(v),
                _ => v.clone(),
            };
            args.push((p.name, v));
        }
        c.add(&op, src, &label, args);
        c.pin(format!("/cases/{i}/code"), &["/error"]);
    }
}

/// vectors/upstream-fingerprint.json: upstream (tool list) fingerprints.
fn upstream_fingerprints(c: &mut Calls, d: &Value<'static>, src: &str) {
    for section in ["cases", "invalid"] {
        for (i, case) in list(d, &[section]).iter().enumerate() {
            let label = st(case, &["name"]);
            let mut args = vec![("tools", g(get(case, &["tools"])))];
            if get(case, &["offered"]).as_array().is_some() {
                args.push(("offered", get(case, &["offered"]).clone()));
            }
            let at = format!("/{section}/{i}");
            c.add("upstream_fingerprint", src, &label, args.clone());
            match section {
                "cases" => c.pin(format!("{at}/fingerprint"), &[]),
                _ => c.pin(format!("{at}/code"), &["/error"]),
            }
            c.add("upstream_projection", src, &label, args);
            if section == "cases" {
                c.pin(format!("{at}/projection"), &["text"]);
            }
        }
    }
    mcp_wire_cases(c, src);
}

/// The MCP wire machine (`mcp_window`, `mcp_listing_page`; docs/decisions/mcp.md): a call's
/// request and answer, the decoys next to it, the end of a call without an answer, and the pages
/// of a listing with a repeated cursor.
fn mcp_wire_cases(c: &mut Calls, src: &str) {
    let parse = |text: &str| {
        canonical::parse(text.as_bytes())
            .map(Value::into_owned)
            .unwrap_or(Value::Null)
    };
    let new = parse(r#"{"method":"tools/call","match":{"name":"echo"}}"#);
    let waiting = parse(
        r#"{"method":"tools/call","match":{"name":"echo"},"awaited":5,"answered":false,"received":0}"#,
    );
    let answered = parse(
        r#"{"method":"tools/call","match":{"name":"echo"},"awaited":5,"answered":true,"received":90}"#,
    );
    let call =
        r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{}}}"#;
    let answer = r#"{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"real"}]}}"#;
    let cases: [(&str, &Value<'static>, &str, Option<&str>); 9] = [
        ("the call's request", &new, "sent", Some(call)),
        ("the answer", &waiting, "received", Some(answer)),
        (
            "a notification, dropped",
            &waiting,
            "received",
            Some(r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}"#),
        ),
        (
            "a request of the server",
            &waiting,
            "received",
            Some(r#"{"jsonrpc":"2.0","id":5,"method":"ping"}"#),
        ),
        (
            "decoy: jsonrpc 1.0",
            &waiting,
            "received",
            Some(r#"{"jsonrpc":"1.0","id":5,"result":{"content":[]}}"#),
        ),
        (
            "decoy: a batch",
            &waiting,
            "received",
            Some(r#"[{"jsonrpc":"2.0","id":5,"result":{"content":[]}}]"#),
        ),
        (
            "decoy: the id as a string",
            &waiting,
            "received",
            Some(r#"{"jsonrpc":"2.0","id":"5","result":{"content":[]}}"#),
        ),
        (
            "decoy: a second answer",
            &answered,
            "received",
            Some(answer),
        ),
        ("the end without an answer", &waiting, "end", None),
    ];
    for (label, window, event, message) in cases {
        let mut args = vec![("window", t(window)), ("event", s(event))];
        if let Some(m) = message {
            args.push(("message", s(m)));
        }
        c.add("mcp_window", src, label, args);
    }
    c.add("mcp_listing_page", src, "the first page's window", vec![]);
    let page = |text: &str| t(&parse(text));
    c.add(
        "mcp_listing_page",
        src,
        "a page and its next cursor",
        vec![
            (
                "result",
                page(r#"{"tools":[{"name":"a"}],"nextCursor":"p2"}"#),
            ),
            ("bytes", n(60)),
        ],
    );
    c.add(
        "mcp_listing_page",
        src,
        "a repeated cursor",
        vec![
            (
                "listing",
                page(r#"{"pages":1,"tools":1,"bytes":60,"cursors":["p2"]}"#),
            ),
            ("result", page(r#"{"tools":[],"nextCursor":"p2"}"#)),
            ("bytes", n(40)),
        ],
    );
}

/// vectors/screening-scan.json: the screening scan.
fn screening_scan(c: &mut Calls, d: &Value<'static>, src: &str) {
    for (i, case) in list(d, &["cases"]).iter().enumerate() {
        let label = st(case, &["name"]);
        let rules = get(d, &["rules_sets", &st(case, &["rules"])]);
        let mut args = vec![("result", g(get(case, &["result"])))];
        if rules.as_object().is_some() {
            args.push(("rules", t(rules)));
        }
        c.add("screen", src, &label, args);
        c.pin(format!("/cases/{i}/expected"), &[]);
        if let Some(text) = get(case, &["result", "content"])
            .as_array()
            .and_then(|l| l.first())
            .and_then(|x| x.get("text"))
            .and_then(Value::as_str)
        {
            c.add("screening_fold", src, &label, vec![("text", s(text))]);
        }
    }
    for (name, rules) in get(d, &["rules_sets"]).as_object().unwrap_or(&[]) {
        c.add(
            "screening_rules",
            src,
            name.as_ref(),
            vec![("claims", t(rules))],
        );
    }
    for (i, case) in list(d, &["invalid_rules"]).iter().enumerate() {
        c.add(
            "screening_rules",
            src,
            st(case, &["name"]),
            vec![("claims", t(get(case, &["claims"])))],
        );
        c.pin(format!("/invalid_rules/{i}/error"), &["/error"]);
    }
}

/// vectors/receipt-jws.json: network-signed receipts and JWS verification.
fn receipt_jws(c: &mut Calls, d: &Value<'static>, src: &str) {
    receipt_jws_cases(c, d, src);
    receipt_jws_archive(c, d, src);
    receipt_jws_issuing(c, d, src);
}

/// vectors/receipt-jws.json: the key set, the token cases and their verification.
fn receipt_jws_cases(c: &mut Calls, d: &Value<'static>, src: &str) {
    let jwks = t(get(d, &["jwks"]));
    let call = get(d, &["call"]).clone();
    let seed = st(d, &["key_seed_hex"]);
    c.add("parse_jwks", src, "jwks", vec![("jwks", jwks.clone())]);
    c.add(
        "parse_jwks",
        src,
        "empty",
        vec![("jwks", s("{\"keys\":[]}"))],
    );
    c.add(
        "signing_key",
        src,
        "net-2026-05",
        vec![("seed", s(&seed)), ("kid", s("net-2026-05"))],
    );
    c.add(
        "signing_key",
        src,
        "short seed",
        vec![("seed", s("00")), ("kid", s("k"))],
    );
    c.add(
        "jwks_from_seed",
        src,
        "two kids",
        vec![
            ("seed", s(&seed)),
            ("kids", strs(&["net-2026-05", "net-2026-06"])),
        ],
    );
    c.add(
        "jwks_from_seed",
        src,
        "equal kids",
        vec![("seed", s(&seed)), ("kids", strs(&["a", "a"]))],
    );
    for (i, case) in list(d, &["cases"]).iter().enumerate() {
        let label = st(case, &["name"]);
        // The token cases, and the object cases (a whole network-signed receipt object).
        let (op, first) = match (get(case, &["receipt_jws"]), get(case, &["receipt"])) {
            (Value::String(_), _) => (
                "verify_receipt_jws",
                ("token", get(case, &["receipt_jws"]).clone()),
            ),
            (_, object @ Value::Object(_)) => ("verify_signed_receipt", ("receipt", t(object))),
            _ => continue,
        };
        // The case's own call members over the file's.
        let mut own = call.clone();
        for (k, v) in get(case, &["call"]).as_object().unwrap_or(&[]) {
            own = with(&own, k, v.clone());
        }
        c.add(
            op,
            src,
            &label,
            vec![first, ("jwks", jwks.clone()), ("call", t(&own))],
        );
        c.pin(format!("/cases/{i}/expected"), &["verdict"]);
    }
}

/// vectors/receipt-jws.json: the same cases as one receipt archive, with and without options.
fn receipt_jws_archive(c: &mut Calls, d: &Value<'static>, src: &str) {
    let jwks = t(get(d, &["jwks"]));
    let call = get(d, &["call"]).clone();
    // The same cases as one receipt archive (JSON lines), with a blank line and two items
    // that cannot be verified; then with own_agent_id and network_issuer as options.
    let mut archive = String::new();
    let mut short = String::new();
    let short_call = Value::Object(
        call.as_object()
            .unwrap_or(&[])
            .iter()
            .filter(|(k, _)| k != "own_agent_id" && k != "network_issuer")
            .cloned()
            .collect(),
    );
    for case in list(d, &["cases"]) {
        let item = match (get(case, &["receipt_jws"]), get(case, &["receipt"])) {
            (token @ Value::String(_), _) => ("receipt_jws", token.clone()),
            (_, object @ Value::Object(_)) => ("receipt", object.clone()),
            _ => continue,
        };
        let line = |call: &Value<'static>| {
            canon_text(&Value::Object(vec![
                (item.0.into(), item.1.clone()),
                ("call".into(), call.clone()),
            ]))
        };
        archive.push_str(&line(&call));
        archive.push('\n');
        short.push_str(&line(&short_call));
        short.push('\n');
    }
    archive.push_str("\n{\"call\":{}}\nnot json\n");
    // The calls of `archive` hold own_agent_id and network_issuer: as options too, they agree.
    let options = [
        ("own_agent_id", s(st(&call, &["own_agent_id"]))),
        ("network_issuer", s(st(&call, &["network_issuer"]))),
    ];
    for op in ARCHIVE_OPS {
        c.add(
            op,
            src,
            "the receipt-jws cases as an archive",
            vec![
                ("lines", s(archive.clone())),
                ("jwks", jwks.clone()),
                ("jobs", n(2)),
            ],
        );
        let mut args = vec![("lines", s(archive.clone())), ("jwks", jwks.clone())];
        args.extend(options.iter().cloned());
        c.add(
            op,
            src,
            "the archive with its own agent and issuer as options",
            args,
        );
    }
    c.add(
        "verify_receipt_lines",
        src,
        "own_agent_id and network_issuer as options",
        vec![
            ("lines", s(short.clone())),
            ("jwks", jwks.clone()),
            ("own_agent_id", s(st(&call, &["own_agent_id"]))),
            ("network_issuer", s(st(&call, &["network_issuer"]))),
        ],
    );
    c.add(
        "verify_receipt_lines",
        src,
        "no JWKS",
        vec![("lines", s(short))],
    );
    c.add(
        "verify_receipt_jws",
        src,
        "call in camelCase",
        vec![
            ("token", s("x.y.z")),
            ("jwks", jwks.clone()),
            ("call", t(&with(&call, "sentAt", n(1)))),
        ],
    );
}

/// vectors/receipt-jws.json: receipts issued with the file's key, then verified as objects.
fn receipt_jws_issuing(c: &mut Calls, d: &Value<'static>, src: &str) {
    let jwks = t(get(d, &["jwks"]));
    let call = get(d, &["call"]).clone();
    let seed = st(d, &["key_seed_hex"]);
    // Issued receipts (deterministic: RFC 6979 nonces), then verified as objects.
    let sent_at = get(&call, &["sent_at"]).as_f64().unwrap_or(0.0) as i64;
    let fields = Value::Object(
        [
            "execution_id",
            "provider_agent_id",
            "requester_agent_id",
            "capability_id",
            "input_fingerprint",
        ]
        .iter()
        .map(|k| (Cow::Owned((*k).to_owned()), get(&call, &[k]).clone()))
        .chain([
            ("status".into(), s("succeeded")),
            (
                "issued_at".into(),
                s(ekl_core::timestamp::Timestamp::from_unix(sent_at + 1, 0)
                    .and_then(|t| t.format())
                    .unwrap_or_default()),
            ),
        ])
        .collect(),
    );
    let (iss, aud) = (st(&call, &["network_issuer"]), st(&call, &["own_agent_id"]));
    let issue = |fields: &Value<'static>| -> Vec<(&'static str, Value<'static>)> {
        vec![
            ("fields", t(fields)),
            ("key", key(&seed, "net-2026-05")),
            ("issuer", s(&iss)),
            ("audience", s(&aud)),
        ]
    };
    c.add("issue_receipt", src, "fields of the call", issue(&fields));
    c.add(
        "issue_receipt",
        src,
        "issued_at +00:00",
        issue(&with(&fields, "issued_at", s("2026-11-29T19:02:13+00:00"))),
    );
    c.add(
        "issue_receipt",
        src,
        "status bogus",
        issue(&with(&fields, "status", s("bogus"))),
    );
    // A claim the issuer adds, in the fields: the caller's mistake (INVALID_ARGUMENT) everywhere.
    c.add(
        "issue_receipt",
        src,
        "fields holding iat",
        issue(&with(&fields, "iat", n(1_780_000_000))),
    );
    if let Some(signing) = ekl_core::jwk::jwks_from_seed(
        &ekl_core::hex::decode_fixed::<32>(&seed, ekl_core::ErrorCode::InvalidKey, "seed")
            .unwrap_or([0; 32]),
        &["net-2026-05"],
    )
    .ok()
    .and_then(|(_, keys)| keys.into_iter().next())
    {
        if let Ok(issued) = ekl_core::receipt_sig::issue_receipt(&fields, &signing, &iss, &aud) {
            c.add(
                "verify_signed_receipt",
                src,
                "issued",
                vec![
                    ("receipt", t(&issued)),
                    ("jwks", jwks.clone()),
                    ("call", t(&call)),
                ],
            );
            let tampered = with(&issued, "status", s("failed"));
            c.add(
                "verify_signed_receipt",
                src,
                "status changed",
                vec![
                    ("receipt", t(&tampered)),
                    ("jwks", jwks.clone()),
                    ("call", t(&call)),
                ],
            );
            let other = with(&call, "execution_id", s("ex-other"));
            c.add(
                "verify_signed_receipt",
                src,
                "another call",
                vec![
                    ("receipt", t(&issued)),
                    ("jwks", jwks.clone()),
                    ("call", t(&other)),
                ],
            );
        }
    }
}

/// vectors/screening-rules-jws.json: the screening rules token.
fn screening_rules_jws(c: &mut Calls, d: &Value<'static>, src: &str) {
    screening_rules_cases(c, d, src);
    screening_rules_key_sets(c, d, src);
    execution_grants(c, d, src);
}

/// vectors/screening-rules-jws.json: the token cases.
fn screening_rules_cases(c: &mut Calls, d: &Value<'static>, src: &str) {
    let jwks = t(get(d, &["jwks"]));
    let issuer = st(d, &["network_issuer"]);
    for (i, case) in list(d, &["cases"]).iter().enumerate() {
        let label = st(case, &["name"]);
        let (token, now) = (get(case, &["token"]).clone(), get(case, &["now"]).clone());
        c.add(
            "verify_screening_rules",
            src,
            &label,
            vec![
                ("token", token.clone()),
                ("jwks", jwks.clone()),
                ("issuer", s(&issuer)),
                ("now", now.clone()),
            ],
        );
        c.pin(format!("/cases/{i}/expected"), &[]);
        c.add(
            "verify_jws",
            src,
            &label,
            vec![
                ("token", token),
                ("typ", s("ekl-screening-rules+jwt")),
                ("jwks", jwks.clone()),
                ("now", now),
                ("issuer", s(&issuer)),
                ("max_lifetime", n(86400 * 7)),
            ],
        );
    }
}

/// vectors/screening-rules-jws.json: a negative max_lifetime, and key sets as found in the wild.
fn screening_rules_key_sets(c: &mut Calls, d: &Value<'static>, src: &str) {
    let jwks = t(get(d, &["jwks"]));
    let issuer = st(d, &["network_issuer"]);
    // A negative max_lifetime is the caller's mistake (INVALID_ARGUMENT), not a token's.
    if let Some(valid) = list(d, &["cases"]).first() {
        for max in [-1, 0] {
            c.add(
                "verify_jws",
                src,
                format!("max_lifetime {max}"),
                vec![
                    ("token", get(valid, &["token"]).clone()),
                    ("typ", s("ekl-screening-rules+jwt")),
                    ("jwks", jwks.clone()),
                    ("now", get(valid, &["now"]).clone()),
                    ("max_lifetime", n(max)),
                ],
            );
        }
    }
    // Key sets as found in the wild (docs/decisions.md#jwks-wild): other kinds of keys are
    // skipped; a token naming one is UNSUPPORTED_KEY; a malformed P-256 key refuses the set.
    let net_keys = list(d, &["jwks", "keys"]).to_vec();
    let rsa = |kid: &str| {
        Value::Object(vec![
            ("kty".into(), s("RSA")),
            ("kid".into(), s(kid)),
            ("n".into(), s("AQAB")),
            ("e".into(), s("AQAB")),
        ])
    };
    let set =
        |keys: Vec<Value<'static>>| t(&Value::Object(vec![("keys".into(), Value::Array(keys))]));
    let mut mixed = vec![rsa("rsa-1")];
    mixed.extend(net_keys.iter().cloned());
    if let Some(first) = net_keys.first() {
        mixed.push(with(&with(first, "kid", s("enc-1")), "use", s("enc")));
        mixed.push(with(first, "crv", s("P-384")));
    }
    let only_rsa_for_05: Vec<Value<'static>> = net_keys
        .iter()
        .filter(|k| get(k, &["kid"]).as_str() != Some("net-2026-05"))
        .cloned()
        .chain([rsa("net-2026-05")])
        .collect();
    let broken: Vec<Value<'static>> = net_keys
        .iter()
        .cloned()
        .chain(
            net_keys
                .first()
                .map(|k| with(&with(k, "kid", s("broken")), "x", s("AAAA"))),
        )
        .collect();
    c.add(
        "parse_jwks",
        src,
        "mixed set",
        vec![("jwks", set(mixed.clone()))],
    );
    c.add(
        "parse_jwks",
        src,
        "only other kinds",
        vec![("jwks", set(vec![rsa("a")]))],
    );
    c.add(
        "parse_jwks",
        src,
        "a malformed P-256 key",
        vec![("jwks", set(broken))],
    );
    for case in list(d, &["cases"]).iter().take(3) {
        let label = st(case, &["name"]);
        let (token, now) = (get(case, &["token"]).clone(), get(case, &["now"]).clone());
        for (which, keys) in [
            ("mixed set", &mixed),
            ("its kid an RSA key", &only_rsa_for_05),
        ] {
            c.add(
                "verify_screening_rules",
                src,
                format!("{label}, {which}"),
                vec![
                    ("token", token.clone()),
                    ("jwks", set(keys.clone())),
                    ("issuer", s(&issuer)),
                    ("now", now.clone()),
                ],
            );
        }
    }
}

/// vectors/screening-rules-jws.json: execution grants (§9.3.2) signed with the file's key.
fn execution_grants(c: &mut Calls, d: &Value<'static>, src: &str) {
    let jwks = t(get(d, &["jwks"]));
    let issuer = st(d, &["network_issuer"]);
    let seed = st(d, &["key_seed_hex"]);
    // Execution grants (§9.3.2), signed here with the vector file's key (RFC 6979: the same
    // bytes every run): in time, expired, too long, another provider, another issuer.
    if let Ok((_, keys)) = ekl_core::jwk::jwks_from_seed(
        &ekl_core::hex::decode_fixed::<32>(&seed, ekl_core::ErrorCode::InvalidKey, "seed")
            .unwrap_or([0; 32]),
        &["net-2026-05"],
    ) {
        let now = 1_780_000_000i64;
        for (label, iat, exp, aud, provider) in [
            ("in time", now - 10, now + 50, "ekl:agent:agt_p", "agt_p"),
            ("expired", now - 700, now - 100, "ekl:agent:agt_p", "agt_p"),
            (
                "lifetime over 600 s",
                now - 10,
                now + 900,
                "ekl:agent:agt_p",
                "agt_p",
            ),
            (
                "another provider",
                now - 10,
                now + 50,
                "ekl:agent:agt_p",
                "agt_other",
            ),
        ] {
            let claims = Value::Object(vec![
                ("iss".into(), s(&issuer)),
                ("aud".into(), s(aud)),
                ("iat".into(), n(iat)),
                ("exp".into(), n(exp)),
                ("grant_id".into(), s("gr_1")),
            ]);
            if let Some(token) = keys.first().and_then(|k| {
                ekl_core::jws::sign(ekl_core::jws::Typ::ExecutionGrant, &claims, k).ok()
            }) {
                c.add(
                    "verify_execution_grant",
                    src,
                    label,
                    vec![
                        ("token", s(token)),
                        ("jwks", jwks.clone()),
                        ("issuer", s(&issuer)),
                        ("provider_id", s(provider)),
                        ("now", n(now)),
                    ],
                );
            }
        }
    }
    if let Some(valid) = list(d, &["cases"]).first() {
        let claims = t(get(valid, &["expected"]));
        c.add(
            "sign_jws",
            src,
            "valid claims",
            vec![
                ("typ", s("ekl-screening-rules+jwt")),
                ("claims", claims.clone()),
                ("key", key(&seed, "net-2026-05")),
            ],
        );
        c.add(
            "sign_jws",
            src,
            "unknown typ",
            vec![
                ("typ", s("jwt")),
                ("claims", claims),
                ("key", key(&seed, "net-2026-05")),
            ],
        );
        c.add(
            "sign_jws",
            src,
            "claims not an object",
            vec![
                ("typ", s("ekl-screening-rules+jwt")),
                ("claims", s("[]")),
                ("key", key(&seed, "net-2026-05")),
            ],
        );
    }
}

/// vectors/credentials-jws.json: the per-type issuer of a verifier's case (`issue_*` for
/// `verify_*`), on the claims of the case's token with the file's key: a token the verifier
/// accepts is issued byte for byte (RFC 6979 signatures are deterministic), and one it refuses
/// for its claims alone (missing, invalid, too long a lifetime) is refused with the same code.
fn credential_issue(
    c: &mut Calls,
    d: &Value<'static>,
    src: &str,
    i: usize,
    case: &Value<'static>,
    op: &str,
) {
    let Some(issuer) = op.strip_prefix("verify_").map(|t| format!("issue_{t}")) else {
        return;
    };
    let expected = get(case, &["expected"]);
    let code = expected.get("error").and_then(Value::as_str);
    // A refusal for the claims alone: not one that depends on the verifier's arguments (an
    // audience the tool names that the token lacks).
    let audience_given = get(case, &["args"]).get("audience").is_some();
    if !matches!(
        code,
        None | Some("CLAIM_MISSING" | "CLAIM_INVALID" | "LIFETIME_TOO_LONG")
    ) || (code.is_some() && audience_given)
    {
        return;
    }
    let token = st(case, &["token"]);
    let mut parts = token.split('.');
    let (Some(header), Some(payload)) = (parts.next(), parts.next()) else {
        return;
    };
    let decode = |part: &str| {
        ekl_core::base64url::decode(part)
            .ok()
            .and_then(|b| canonical::parse(&b).ok().map(|v| v.into_owned()))
    };
    let (Some(header), Some(claims)) = (decode(header), decode(payload)) else {
        return;
    };
    // Only tokens signed by the file's key under the plain header (alg, kid, typ): the others
    // test the verifier's reading of the header, not the claims.
    let kid = header.get("kid").and_then(Value::as_str).unwrap_or("");
    if header.as_object().map(<[_]>::len) != Some(3) || kid.is_empty() {
        return;
    }
    if code.is_none()
        && canon_text(&header)
            != format!(
                "{{\"alg\":\"ES256\",\"kid\":{},\"typ\":{}}}",
                canon_text(&s(kid)),
                canon_text(header.get("typ").unwrap_or(&Value::Null))
            )
    {
        return;
    }
    let seed = st(d, &["key_seed_hex"]);
    c.add(
        &issuer,
        src,
        format!("{} (issued)", st(case, &["name"])),
        vec![("claims", t(&claims)), ("key", key(&seed, kid))],
    );
    match code {
        None => c.pin(format!("/cases/{i}/token"), &[]),
        Some(_) => c.pin(format!("/cases/{i}/expected"), &[]),
    }
}

/// vectors/credentials-jws.json: the per-type credential verifiers.
fn credentials_jws(c: &mut Calls, d: &Value<'static>, src: &str) {
    // The per-type credential verifiers (§3, §4, §9.1, §9.3.1, §15.1): every case, accepted
    // and refused, with the arguments the file names.
    let jwks = t(get(d, &["jwks"]));
    let issuer = st(d, &["network_issuer"]);
    for (i, case) in list(d, &["cases"]).iter().enumerate() {
        let op = st(case, &["op"]);
        let mut args = vec![
            ("token", get(case, &["token"]).clone()),
            ("jwks", jwks.clone()),
            ("issuer", s(&issuer)),
            ("now", get(case, &["now"]).clone()),
        ];
        if let Some(members) = get(case, &["args"]).as_object() {
            for (k, v) in members {
                let name = match k.as_ref() {
                    "token_endpoint" => "token_endpoint",
                    "purpose" => "purpose",
                    "audience" => "audience",
                    "provider_agent_id" => "provider_agent_id",
                    "provider_id" => "provider_id",
                    _ => continue,
                };
                args.push((name, v.clone()));
            }
        }
        c.add(&op, src, st(case, &["name"]), args);
        c.pin(format!("/cases/{i}/expected"), &[]);
        credential_issue(c, d, src, i, case, &op);
    }
    // The execution grant has no verifier case in the file: the first accepted access token's
    // claims issued as a grant (its lifetime is within 600 s), and with 601 s (refused).
    let seed = st(d, &["key_seed_hex"]);
    if let Some(access) = list(d, &["cases"]).iter().find(|c| {
        st(c, &["op"]) == "verify_access_token" && get(c, &["expected"]).get("error").is_none()
    }) {
        let claims = get(access, &["expected", "claims"]).clone();
        let iat = get(&claims, &["iat"]).as_f64().unwrap_or(0.0) as i64;
        for (label, lifetime) in [("execution grant", 600), ("execution grant of 601 s", 601)] {
            c.add(
                "issue_execution_grant",
                src,
                label,
                vec![
                    ("claims", t(&with(&claims, "exp", n(iat + lifetime)))),
                    ("key", key(&seed, "net-2026-05")),
                ],
            );
        }
        // Issue 41: times in milliseconds, which no verifier's `now` reaches, are refused by the
        // issuers (TOKEN_NOT_YET_VALID for iat, CLAIM_INVALID for exp).
        let in_ms = with(
            &with(&claims, "iat", n(iat * 1000)),
            "exp",
            n(iat * 1000 + 600_000),
        );
        c.add(
            "issue_execution_grant",
            src,
            "execution grant with iat and exp in milliseconds",
            vec![("claims", t(&in_ms)), ("key", key(&seed, "net-2026-05"))],
        );
        c.add(
            "issue_access_token",
            src,
            "access token with exp in milliseconds",
            vec![
                ("claims", t(&with(&claims, "exp", n(iat * 1000 + 600_000)))),
                ("key", key(&seed, "net-2026-05")),
            ],
        );
    }
    // The key set as a Jwks handle comes from handle_twins; here a `now` in milliseconds
    // (INVALID_ARGUMENT).
    if let Some(first) = list(d, &["cases"]).first() {
        c.add(
            "verify_revocation_feed",
            src,
            "now in milliseconds",
            vec![
                ("token", get(first, &["token"]).clone()),
                ("jwks", jwks.clone()),
                ("issuer", s(&issuer)),
                ("provider_agent_id", s("agt_provider_19c2")),
                ("now", n(1_780_000_000_000)),
            ],
        );
    }
}

/// The operations with an async variant in a host (JS: `canonicalizeAsync`,
/// `canonicalizeValueAsync`, `verifyReceiptsAsync`): a `call` with `"async": true` runs it.
pub(super) const ASYNC_OPS: [&str; 3] = ["canonicalize", "canonicalize_value", "verify_receipts"];

/// The requests that move handles and host-only helpers inside the cross-surface proof
/// (docs/host-apis.json), from the `call` cases already built: each `jwks` argument again as a
/// `Jwks` handle built from the text and from the host's value of it; each `key` again as a key
/// read from its private JWK and from its PEM file (PKCS#8 and SEC1); the operations with an
/// async variant again through it; and the `host` helpers on every key set, key and text seen.
fn handle_twins(cases: &[Case]) -> Vec<Case> {
    let mut out = Vec::new();
    let mut jwks_seen: Vec<String> = Vec::new();
    let mut keys_seen: Vec<Value<'static>> = Vec::new();
    let mut texts: Vec<Value<'static>> = Vec::new();
    for case in cases {
        let Some((name, args)) = case.call_parts() else {
            continue;
        };
        let Some(op) = ekl_bridge::find(&name) else {
            continue;
        };
        let source = case.rule.splitn(3, '/').nth(2).unwrap_or("").to_owned();
        for p in op.params {
            let Some(v) = args.get(p.name) else {
                continue;
            };
            match (p.kind, v) {
                (ekl_bridge::Kind::Jwks, Value::String(text)) => {
                    let text = text.to_string();
                    let mut forms = vec![("jwks-handle", "$jwks")];
                    // The host's value of the text (JSON.parse, json.loads) only where it is the
                    // text's value: valid ekl-json-1 (no duplicate, no long integer).
                    if canonical::parse(text.as_bytes()).is_ok() {
                        forms.push(("jwks-handle-value", "$jwks_value"));
                    }
                    for (rule, form) in forms {
                        let handle = Value::Object(vec![(Cow::Borrowed(form), s(text.clone()))]);
                        out.push(case.twin(&source, rule, with(&args, p.name, handle)));
                    }
                    if !jwks_seen.contains(&text) {
                        jwks_seen.push(text);
                    }
                }
                (ekl_bridge::Kind::Key, Value::Object(_)) => {
                    let (seed, kid) = (st(v, &["seed"]), st(v, &["kid"]));
                    for (rule, form) in key_forms(&seed, &kid) {
                        out.push(case.twin(&source, rule, with(&args, p.name, form)));
                    }
                    if !keys_seen.contains(v) {
                        keys_seen.push(v.clone());
                    }
                }
                (ekl_bridge::Kind::Text, Value::String(_))
                    if name == "canonicalize" && args.get("max_bytes").is_none() =>
                {
                    texts.push(v.clone());
                }
                _ => {}
            }
        }
        if ASYNC_OPS.contains(&name.as_str()) {
            out.push(case.twin_async(&source));
        }
    }
    let host = |name: &str, source: &str, label: String, args: Vec<(&str, Value<'static>)>| {
        let args = args
            .into_iter()
            .map(|(k, v)| (Cow::Owned(k.to_owned()), v))
            .collect();
        Case::host(name, source, label, Value::Object(args))
    };
    for (i, text) in jwks_seen.iter().enumerate() {
        let forms = [
            s(text.clone()),
            Value::Object(vec![("$jwks".into(), s(text.clone()))]),
            Value::Object(vec![("$jwks_value".into(), s(text.clone()))]),
        ];
        for (form, jwks) in ["text", "handle", "handle-value"].iter().zip(forms) {
            if *form == "handle-value" && canonical::parse(text.as_bytes()).is_err() {
                continue;
            }
            out.push(host(
                "jwks_kids",
                form,
                format!("set {i}"),
                vec![("jwks", jwks)],
            ));
        }
    }
    for key in &keys_seen {
        let (seed, kid) = (st(key, &["seed"]), st(key, &["kid"]));
        let forms = std::iter::once(("key-seed", key.clone())).chain(key_forms(&seed, &kid));
        for (form, k) in forms {
            for name in ["signing_key_kid", "signing_key_public_jwks"] {
                out.push(host(name, form, kid.clone(), vec![("key", k.clone())]));
            }
        }
    }
    for (i, chunk) in texts.chunks(5).enumerate() {
        let list = Value::Array(chunk.to_vec());
        out.push(host(
            "canonicalize_many",
            "vectors",
            format!("texts {i}"),
            vec![("texts", list.clone())],
        ));
        if i % 4 == 0 {
            out.push(host(
                "canonicalize_many",
                "vectors",
                format!("texts {i}, max_bytes 16"),
                vec![("texts", list), ("max_bytes", n(16))],
            ));
        }
    }
    out.push(host("error_codes", "core", "all".into(), vec![]));
    out.push(host("core_version", "core", "version".into(), vec![]));
    out
}

/// A seed key written as its private JWK and as PEM files (PKCS#8, SEC1): the `key` forms of a
/// `call` request that a host reads with `signing_key_from_jwk` (Python: `SigningKey.from_jwk`)
/// and `signing_key_from_pem`.
fn key_forms(seed: &str, kid: &str) -> Vec<(&'static str, Value<'static>)> {
    let Ok(bytes) =
        ekl_core::hex::decode_fixed::<32>(seed, ekl_core::ErrorCode::InvalidKey, "seed")
    else {
        return Vec::new();
    };
    let Ok(key) = ekl_core::jwk::SigningKey::from_seed(&bytes, kid) else {
        return Vec::new();
    };
    let jwk = key.to_private_jwk_json();
    let Ok(value) = canonical::parse(jwk.as_bytes()) else {
        return Vec::new();
    };
    let part = |name: &str| {
        ekl_core::base64url::decode(value.get(name).and_then(Value::as_str).unwrap_or(""))
            .unwrap_or_default()
    };
    let (d, x, y) = (part("d"), part("x"), part("y"));
    if d.len() != 32 || x.len() != 32 || y.len() != 32 {
        return Vec::new();
    }
    const P256: [u8; 10] = [0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07];
    let mut point = vec![0x03, 0x42, 0x00, 0x04];
    point.extend_from_slice(&x);
    point.extend_from_slice(&y);
    // SEC1 ECPrivateKey: version 1, d, [0] the curve, [1] the public point.
    let mut sec1 = vec![0x30, 0x77, 0x02, 0x01, 0x01, 0x04, 0x20];
    sec1.extend_from_slice(&d);
    sec1.extend_from_slice(&[0xa0, 0x0a]);
    sec1.extend_from_slice(&P256);
    sec1.extend_from_slice(&[0xa1, 0x44]);
    sec1.extend_from_slice(&point);
    // PKCS#8 PrivateKeyInfo: version 0, id-ecPublicKey with the curve, the ECPrivateKey without
    // its curve (RFC 5915 inside RFC 5208).
    let mut pkcs8 = vec![0x30, 0x81, 0x87, 0x02, 0x01, 0x00, 0x30, 0x13, 0x06, 0x07];
    pkcs8.extend_from_slice(&[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01]);
    pkcs8.extend_from_slice(&P256);
    pkcs8.extend_from_slice(&[0x04, 0x6d, 0x30, 0x6b, 0x02, 0x01, 0x01, 0x04, 0x20]);
    pkcs8.extend_from_slice(&d);
    pkcs8.extend_from_slice(&[0xa1, 0x44]);
    pkcs8.extend_from_slice(&point);
    let pem = |label: &str, der: &[u8]| {
        let b64 = base64_std(der);
        let lines: Vec<&str> = b64
            .as_bytes()
            .chunks(64)
            .map(|c| std::str::from_utf8(c).unwrap_or(""))
            .collect();
        format!(
            "-----BEGIN {label}-----\n{}\n-----END {label}-----\n",
            lines.join("\n")
        )
    };
    let pem_form =
        |text: String| Value::Object(vec![("pem".into(), s(text)), ("kid".into(), s(kid))]);
    vec![
        ("key-jwk", Value::Object(vec![("jwk".into(), s(jwk))])),
        ("key-pem-pkcs8", pem_form(pem("PRIVATE KEY", &pkcs8))),
        ("key-pem-sec1", pem_form(pem("EC PRIVATE KEY", &sec1))),
    ]
}

/// Standard base64 with padding (RFC 4648 §4), for the PEM forms.
fn base64_std(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for c in bytes.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= c.len() {
                out.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::ops;
    use super::*;

    #[test]
    fn every_call_gives_every_required_argument() {
        let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../vectors"));
        for case in call_cases(dir)
            .into_iter()
            .filter(|c| c.rule.starts_with("call/"))
        {
            let req = case.request(1);
            let name = req.get("name").and_then(Value::as_str).unwrap_or_default();
            let op = ekl_bridge::find(name).expect("a registry operation");
            // A `now` or `salt` left out is each host's own clock or CSPRNG: always given.
            let host_filled = |p: &ekl_bridge::Param| {
                matches!(p.kind, ekl_bridge::Kind::Now | ekl_bridge::Kind::Salt)
            };
            for p in op.params.iter().filter(|p| p.required || host_filled(p)) {
                let given = req.get("args").and_then(|a| a.get(p.name));
                assert!(
                    !matches!(given, None | Some(Value::Null)),
                    "{} ({}): {} missing",
                    case.rule,
                    case.label,
                    p.name
                );
            }
        }
    }

    /// The result shapes declared in the bridge (bridge/src/shapes.rs, the one declaration the
    /// Python TypedDicts and the TS interfaces are generated from) are true: every result of the
    /// call requests, real results of every operation, has the members its shape declares (the
    /// required ones present, no undeclared one unless the shape is open) with values of the
    /// declared types; and every operation gives at least one.
    #[test]
    fn every_result_has_its_declared_shape() {
        use ekl_bridge::Returns;
        let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../vectors"));
        let mut checked = std::collections::BTreeMap::<&str, usize>::new();
        for case in call_cases(dir)
            .into_iter()
            .filter(|c| c.rule.starts_with("call/"))
        {
            let req = case.request(1);
            let name = req.get("name").and_then(Value::as_str).unwrap_or_default();
            let op = ekl_bridge::find(name).expect("a registry operation");
            let Ok(text) = ops::answer(&req) else {
                continue;
            };
            let value = canonical::parse(text.as_bytes()).expect("an answer is JSON");
            // Handles are answered as their JSON: a key as its public JWK, a key set as its JWKS.
            let ty = match op.returns {
                Returns::Bytes => "str",
                Returns::Jwks | Returns::KeySet => "object",
                Returns::Key => "Jwk",
                // A new machine's handle is answered as its class name.
                Returns::Handle(_) => "str",
                other => other.as_str(),
            };
            if let Err(e) = ekl_bridge::shapes::check(ty, &value, "$") {
                panic!("{} ({}): {e}", case.rule, case.label);
            }
            *checked.entry(op.name).or_default() += 1;
        }
        for op in ekl_bridge::OPERATIONS {
            assert!(
                checked.contains_key(op.name),
                "no result of {} checked",
                op.name
            );
        }
    }

    #[test]
    fn every_host_helper_has_requests_and_every_twin_answers_as_its_original() {
        let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../vectors"));
        let cases = call_cases(dir);
        for name in ops::HOST_HELPERS {
            let rule = format!("host/{name}/");
            assert!(
                cases.iter().any(|c| c.rule.starts_with(&rule)),
                "no host request for {name}"
            );
        }
        // The forms a twin gives its argument in are read by the reference as the original:
        // a twin that answers otherwise is a broken form (a PEM file that does not parse, say).
        let mut twins = 0;
        for original in cases.iter().filter(|c| c.rule.starts_with("call/")) {
            for twin in handle_twins(std::slice::from_ref(original)) {
                if !twin.rule.starts_with("call/") {
                    continue;
                }
                let (a, b) = (twin.request(1), original.request(1));
                assert_eq!(
                    ops::answer(&a),
                    ops::answer(&b),
                    "{} {}",
                    twin.rule,
                    twin.label
                );
                twins += 1;
            }
        }
        assert!(twins > 100, "{twins} twins");
        for form in [
            "jwks-handle",
            "jwks-handle-value",
            "key-jwk",
            "key-pem-pkcs8",
            "key-pem-sec1",
            "async",
        ] {
            assert!(
                cases.iter().any(|c| c.rule.ends_with(&format!("/{form}"))),
                "{form}"
            );
        }
    }

    /// The reference answers the credential cases as the vector file expects: the conformance
    /// run compares every surface with this reference, so every surface is held to the file.
    #[test]
    fn credential_calls_answer_the_files_expected_values() {
        let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../vectors"));
        let doc = load(dir, "credentials-jws.json").expect("vectors/credentials-jws.json");
        let expected: Vec<(String, Value<'static>)> = list(&doc, &["cases"])
            .iter()
            .map(|c| (st(c, &["name"]), get(c, &["expected"]).clone()))
            .collect();
        let cases: Vec<Case> = call_cases(dir)
            .into_iter()
            .filter(|c| {
                c.rule.starts_with("call/verify_")
                    && c.rule.ends_with("/vectors/credentials-jws.json")
            })
            .collect();
        let mut seen = 0;
        for (name, want) in &expected {
            let case = cases
                .iter()
                .find(|c| &c.label == name)
                .unwrap_or_else(|| panic!("no call case {name}"));
            let got = ops::answer(&case.request(1));
            let want = match want.get("error").and_then(Value::as_str) {
                Some(code) => Err(code.to_owned()),
                None => Ok(canon_text(want)),
            };
            assert_eq!(got, want, "{name}");
            seen += 1;
        }
        assert!(seen >= 90, "{seen} cases");
        let ms = cases
            .iter()
            .find(|c| c.label == "now in milliseconds")
            .expect("the milliseconds case");
        assert_eq!(
            ops::answer(&ms.request(1)),
            Err("INVALID_ARGUMENT".to_owned())
        );
    }

    fn vectors() -> &'static Path {
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../vectors"))
    }

    /// vectors/calls.jsonl is generated from the vector files (`vector_calls`):
    /// `EKL_BLESS=1 cargo test --release -p ekl-conformance --lib vector_calls` rewrites it.
    #[test]
    fn vector_calls_file_is_current() {
        let want = vector_calls(vectors());
        let path = vectors().join("calls.jsonl");
        if std::env::var_os("EKL_BLESS").is_some() {
            std::fs::write(&path, &want).expect("write vectors/calls.jsonl");
        }
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            have == want,
            "vectors/calls.jsonl is stale: run \
             `EKL_BLESS=1 cargo test --release -p ekl-conformance --lib vector_calls`"
        );
    }

    /// `take` (vectors/README.md#calls) of an answer: the outcome (the parsed answer, or
    /// `{"error": CODE}`), then each step; `None` where a step finds nothing.
    fn taken(
        answer: &Result<String, String>,
        take: &[serde_json::Value],
    ) -> Option<serde_json::Value> {
        use serde_json::Value as J;
        let (first, rest) = match take.split_first() {
            Some((f, rest)) if f == "text" => (J::from(answer.clone().ok()?), rest),
            _ => match answer {
                Ok(text) => (serde_json::from_str(text).ok()?, take),
                Err(code) => (serde_json::json!({ "error": code }), take),
            },
        };
        let mut v = first;
        for step in rest {
            v = match step.as_str()? {
                "length" => J::from(v.as_str()?.len()),
                "sha256" => J::from(digest::sha256_hex(v.as_str()?.as_bytes())),
                "checks" | "not_pass" | "outcomes" | "verdict" => verdict_step(step.as_str()?, &v)?,
                "code" => v
                    .get("error")
                    .filter(|_| v.as_object().is_some_and(|o| o.len() == 1))
                    .cloned()
                    .unwrap_or(v),
                pointer => v.pointer(pointer)?.clone(),
            };
        }
        Some(v)
    }

    /// The request with each `{"$generated": {prefix, repeat, count, inner, close, suffix}}`
    /// member written out: prefix + repeat × count + inner + close × count + suffix.
    fn expand(req: &Value<'_>) -> Value<'static> {
        let members = req.as_object().unwrap_or(&[]).iter().map(|(k, v)| {
            let v = match v.get("$generated") {
                Some(g) => {
                    let part = |name: &str| g.get(name).and_then(Value::as_str).unwrap_or("");
                    let n = g.get("count").and_then(Value::as_f64).unwrap_or(0.0) as usize;
                    let text = [
                        part("prefix").to_owned(),
                        part("repeat").repeat(n),
                        part("inner").to_owned(),
                        part("close").repeat(n),
                        part("suffix").to_owned(),
                    ];
                    s(text.concat())
                }
                None => v.clone().into_owned(),
            };
            (Cow::Owned(k.to_string()), v)
        });
        Value::Object(members.collect())
    }

    /// The verdict steps (vectors/README.md#calls): `checks` `{name: check}`, `not_pass`
    /// `{name: outcome}` of the checks that did not pass, `outcomes` `{name: outcome}`, `verdict`
    /// `{accepted, checks: outcomes, receipt_digest}` (the digest only when not null; a refusal's
    /// outcome passes through).
    fn verdict_step(step: &str, v: &serde_json::Value) -> Option<serde_json::Value> {
        use serde_json::{Map, Value as J};
        if step == "verdict" && v.get("error").is_some() {
            return Some(v.clone());
        }
        let checks = v.get("checks")?.as_array()?;
        let mut out = Map::new();
        for c in checks {
            let (name, outcome) = (c.get("name")?.as_str()?.to_owned(), c.get("outcome")?);
            match step {
                "checks" => drop(out.insert(name, c.clone())),
                "not_pass" if outcome == "pass" => {}
                _ => drop(out.insert(name, outcome.clone())),
            }
        }
        if step != "verdict" {
            return Some(J::Object(out));
        }
        let mut verdict = Map::new();
        verdict.insert("accepted".into(), v.get("accepted")?.clone());
        verdict.insert("checks".into(), J::Object(out));
        if let Some(d) = v.get("receipt_digest").filter(|d| !d.is_null()) {
            verdict.insert("receipt_digest".into(), d.clone());
        }
        Some(J::Object(verdict))
    }

    /// Another value of the same type (the meta-test's change).
    fn tamper(v: &serde_json::Value) -> serde_json::Value {
        use serde_json::Value as J;
        match v {
            J::String(s) => {
                let mut t = s.clone();
                let last = t.pop();
                t.push(if last == Some('0') { '1' } else { '0' });
                J::from(t)
            }
            J::Number(n) => J::from(n.as_f64().unwrap_or(0.0) + 1.0),
            J::Bool(b) => J::from(!b),
            J::Null => J::from(0),
            other => serde_json::json!({ "tampered": other }),
        }
    }

    /// Runs the lines of `text` (vectors/calls.jsonl) against the vector files of `dir`: each
    /// request, answered by the reference (the bridge's registry), must give the value its file
    /// holds at its pointer, and that value changed must not pass. Returns the lines that fail.
    fn run_lines(dir: &Path, text: &str) -> Vec<String> {
        // Each vector file's text and parsed value, read once.
        let mut files = std::collections::BTreeMap::<String, (String, serde_json::Value)>::new();
        let mut failed = Vec::new();
        for line in text.lines() {
            let l: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            let (file, pointer) = (
                l["file"].as_str().unwrap_or(""),
                l["pointer"].as_str().unwrap_or(""),
            );
            let (text, doc) = files.entry(file.to_owned()).or_insert_with(|| {
                let text = std::fs::read_to_string(dir.join(file)).expect("the vector file");
                // A file compared only as text (`"as": "text"`) need not parse: null then.
                let doc = serde_json::from_str(&text).unwrap_or(serde_json::Value::Null);
                (text, doc)
            });
            // The whole file's text (`"as": "text"`), or the value at the pointer.
            let want = if l["as"] == "text" {
                Some(serde_json::Value::from(text.clone()))
            } else {
                doc.pointer(pointer).cloned()
            };
            let line_value = canonical::parse(line.as_bytes()).expect("a line parses");
            let req = expand(line_value.get("request").expect("a request"));
            let take = l["take"].as_array().cloned().unwrap_or_default();
            let got = taken(&ops::answer(&req), &take);
            if want.is_none() || got != want {
                failed.push(format!("{file}#{pointer}: got {got:?}, want {want:?}"));
            } else if got == want.as_ref().map(tamper) {
                failed.push(format!("{file}#{pointer}: a changed value passes"));
            }
        }
        failed
    }

    /// The Rust runner of vectors/calls.jsonl: every line passes ([`run_lines`]).
    #[test]
    fn every_vector_call_gives_its_files_value() {
        let text =
            std::fs::read_to_string(vectors().join("calls.jsonl")).expect("vectors/calls.jsonl");
        assert!(
            text.lines().count() > 0,
            "vectors/calls.jsonl holds no line"
        );
        let failed = run_lines(vectors(), &text);
        assert!(failed.is_empty(), "{failed:#?}");
    }

    /// The meta-test on a copy: fingerprints.json with the first line's expected value changed,
    /// in a temporary folder, fails that line (and the unchanged file passes it).
    #[test]
    fn a_changed_copy_of_a_vector_file_fails() {
        let text =
            std::fs::read_to_string(vectors().join("calls.jsonl")).expect("vectors/calls.jsonl");
        let line = text
            .lines()
            .find(|l| l.contains(r#""file":"fingerprints.json""#))
            .expect("a fingerprints.json line");
        let l: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let file = std::fs::read_to_string(vectors().join("fingerprints.json")).expect("the file");
        let mut doc: serde_json::Value = serde_json::from_str(&file).expect("JSON");
        let at = doc
            .pointer_mut(l["pointer"].as_str().unwrap_or(""))
            .expect("the pinned value");
        *at = tamper(at);
        let dir = std::env::temp_dir().join(format!("ekl-vector-calls-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        std::fs::write(dir.join("fingerprints.json"), doc.to_string()).expect("the copy");
        let failed = run_lines(&dir, line);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(failed.len(), 1, "{failed:?}");
        assert!(run_lines(vectors(), line).is_empty());
    }

    /// The members of a vector file that hold an expected value (not an input).
    const EXPECTED: [&str; 23] = [
        "receipt_key",
        "auth_tag",
        "receipt_digest",
        "terms_hash",
        "digest",
        "agent_key_sha256",
        "proof_key",
        "proof_v2",
        "authority_v1",
        "authority_v2",
        "signature",
        "canonical",
        "sha256",
        "canonical_length",
        "jcs",
        "fingerprint",
        "fingerprinted",
        "proof",
        "credential_sha256",
        "projection",
        "code",
        "expected",
        "error",
    ];

    /// Whether the value `v` at `at` is pinned: a line's pointer is `at` or holds it, or (an
    /// object) each of its members is pinned.
    fn covered(pointers: &[String], at: &str, v: &serde_json::Value) -> bool {
        if pointers
            .iter()
            .any(|p| at == p || at.starts_with(&format!("{p}/")))
        {
            return true;
        }
        match v {
            serde_json::Value::Object(m) => m
                .iter()
                .all(|(k, x)| covered(pointers, &format!("{at}/{}", token_of(k)), x)),
            _ => false,
        }
    }

    /// A vector file with lines in vectors/calls.jsonl has every expected value pinned: each member
    /// named in `EXPECTED` (within four levels of the top: `/key_ring/cases/3/expected`) is
    /// pinned ([`covered`]); inputs that may hold such names (a `call`, `tools`, ...) are not
    /// searched. A case added to the file without a pinned call fails here.
    #[test]
    fn every_expected_value_of_a_pinned_file_is_pinned() {
        let text = vector_calls(vectors());
        let mut pinned = std::collections::BTreeMap::<String, Vec<String>>::new();
        for line in text.split('\n').filter(|l| !l.is_empty()) {
            let l: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            let (file, pointer) = (
                l["file"].as_str().unwrap_or(""),
                l["pointer"].as_str().unwrap_or(""),
            );
            if l["as"] == "text" {
                continue; // a whole file (RFC 8785's outputs): nothing inside to pin
            }
            pinned
                .entry(file.to_owned())
                .or_default()
                .push(pointer.to_owned());
        }
        for (file, pointers) in &pinned {
            let t = std::fs::read_to_string(vectors().join(file)).expect("the vector file");
            let doc: serde_json::Value = serde_json::from_str(&t).expect("JSON");
            let mut stack = vec![(String::new(), &doc, 0usize)];
            let mut expected = 0;
            while let Some((at, v, depth)) = stack.pop() {
                let children: Vec<(String, &serde_json::Value)> = match v {
                    serde_json::Value::Object(m) => {
                        m.iter().map(|(k, x)| (token_of(k), x)).collect()
                    }
                    serde_json::Value::Array(a) => a
                        .iter()
                        .enumerate()
                        .map(|(i, x)| (i.to_string(), x))
                        .collect(),
                    _ => continue,
                };
                for (k, x) in children {
                    let here = format!("{at}/{k}");
                    // Four levels down only `expected` and `error` (`/key_ring/cases/3/expected`).
                    let deep = depth == 3 && !["expected", "error"].contains(&k.as_str());
                    if EXPECTED.contains(&k.as_str()) && !deep {
                        expected += 1;
                        assert!(
                            covered(pointers, &here, x),
                            "{file}#{here}: an expected value no line of vectors/calls.jsonl checks"
                        );
                    } else if depth < 3
                        && !["call", "jwks", "tools", "value", "result", "claims"]
                            .contains(&k.as_str())
                    {
                        stack.push((here, x, depth + 1));
                    }
                }
            }
            assert!(expected > 0, "{file}: no expected value found");
        }
        assert!(pinned.len() >= 6, "{} files pinned", pinned.len());
    }

    #[test]
    fn every_registry_operation_has_cases() {
        let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../vectors"));
        let cases = call_cases(dir);
        for op in ekl_bridge::OPERATIONS {
            let rule = format!("call/{}/", op.name);
            assert!(
                cases.iter().any(|c| c.rule.starts_with(&rule)),
                "no call case for {}",
                op.name
            );
        }
    }
}
