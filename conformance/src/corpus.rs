//! The request stream of the conformance runner: the legacy operations' requests of each vector
//! file of `vectors/` (read in place by calls.rs, which adds the file's `call`s) and a seeded
//! generated corpus (valid documents and one family of mutations per refusal rule).

use std::borrow::Cow;

use ekl_core::canonical;
use ekl_core::jwk::{jwks_from_seed, SigningKey};
use ekl_core::jws::{self, Typ};
use ekl_core::{hex, receipt, Value};

/// One request of the stream (without its `id`), with the rule it checks.
pub(super) struct Case {
    /// `op/source/rule`, e.g. `canonicalize/gen/refuse/duplicate_key`.
    pub rule: String,
    /// The case's name (a vector case's `name`, or the generator's index).
    pub label: String,
    /// The request members other than `id`.
    pub fields: Vec<(String, Value<'static>)>,
    /// Where vector files hold this request's expected values (vectors/calls.jsonl: a line each).
    pub golden: Vec<Golden>,
    /// Request members written in another form in vectors/calls.jsonl (a long generated input as
    /// its `{"$generated": {...}}` description).
    pub compact: Vec<(String, Value<'static>)>,
}

/// The value of a vector file a `call` request must give: the member at JSON pointer `pointer` of
/// `file` (a name in vectors/) equals `take` applied to the request's outcome (the parsed answer,
/// or `{"error": CODE}`). `take`'s steps: a JSON pointer (`/member`), `length` (UTF-8 bytes of a
/// string), `sha256` (hex SHA-256 of a string's UTF-8), `code` (a refusal's `{"error": CODE}` as
/// CODE); `text` first: the answer's own text instead of its parsed value. vectors/README.md#calls.
/// Read only by the tests that write and run vectors/calls.jsonl (calls.rs).
#[derive(Clone)]
#[cfg_attr(not(test), allow(dead_code))]
pub(super) struct Golden {
    /// The vector file, e.g. `fingerprints.json`.
    pub file: String,
    /// The JSON pointer (RFC 6901) of the expected value inside it.
    pub pointer: String,
    /// The steps from the outcome to the value compared.
    pub take: Vec<String>,
    /// The expected value is the file's whole text (`"as": "text"`, pointer empty), not a value
    /// inside it: RFC 8785's output files, compared byte for byte.
    pub whole_text: bool,
}

impl Case {
    fn new(op: &str, rule: &str, label: impl Into<String>) -> Case {
        Case {
            rule: format!("{op}/{rule}"),
            label: label.into(),
            fields: vec![("op".into(), Value::String(Cow::Owned(op.into())))],
            golden: Vec::new(),
            compact: Vec::new(),
        }
    }
    /// A `call` request of operation `op` (rule `call/OP/SOURCE`).
    pub(super) fn call(
        op: &str,
        source: &str,
        label: impl Into<String>,
        args: Value<'static>,
    ) -> Case {
        Case {
            rule: format!("call/{op}/{source}"),
            label: label.into(),
            fields: vec![
                ("op".into(), Value::String(Cow::Borrowed("call"))),
                ("name".into(), Value::String(Cow::Owned(op.into()))),
                ("args".into(), args),
            ],
            golden: Vec::new(),
            compact: Vec::new(),
        }
    }
    /// A `host` request of helper `name` (rule `host/NAME/SOURCE`).
    pub(super) fn host(
        name: &str,
        source: &str,
        label: impl Into<String>,
        args: Value<'static>,
    ) -> Case {
        Case {
            rule: format!("host/{name}/{source}"),
            label: label.into(),
            fields: vec![
                ("op".into(), Value::String(Cow::Borrowed("host"))),
                ("name".into(), Value::String(Cow::Owned(name.into()))),
                ("args".into(), args),
            ],
            golden: Vec::new(),
            compact: Vec::new(),
        }
    }
    /// The operation name and arguments of a `call` request.
    pub(super) fn call_parts(&self) -> Option<(String, Value<'static>)> {
        let field = |n: &str| self.fields.iter().find(|(k, _)| k == n).map(|(_, v)| v);
        if field("op")?.as_str()? != "call" {
            return None;
        }
        Some((field("name")?.as_str()?.to_owned(), field("args")?.clone()))
    }
    /// This `call` request with other `args` (rule `call/NAME/SOURCE/FORM`).
    pub(super) fn twin(&self, source: &str, form: &str, args: Value<'static>) -> Case {
        let name = self.call_parts().map(|(n, _)| n).unwrap_or_default();
        Case::call(&name, &format!("{source}/{form}"), self.label.clone(), args)
    }
    /// This `call` request through the host's async variant (rule `call/NAME/SOURCE/async`).
    pub(super) fn twin_async(&self, source: &str) -> Case {
        let (name, args) = self
            .call_parts()
            .unwrap_or_else(|| (String::new(), Value::Null));
        let mut twin = Case::call(&name, &format!("{source}/async"), self.label.clone(), args);
        twin.fields.push(("async".into(), Value::Bool(true)));
        twin
    }
    /// Pins this request to the value at `pointer` of vector file `file` (see [`Golden`]).
    fn pin(mut self, file: &str, pointer: String, take: &[&str]) -> Case {
        self.golden.push(Golden {
            file: file.to_owned(),
            pointer,
            take: take.iter().map(|x| x.to_string()).collect(),
            whole_text: false,
        });
        self
    }

    fn s(mut self, name: &str, value: impl Into<String>) -> Case {
        self.fields
            .push((name.into(), Value::String(Cow::Owned(value.into()))));
        self
    }
    fn v(mut self, name: &str, value: Value<'static>) -> Case {
        self.fields.push((name.into(), value));
        self
    }
    /// JSON text given as bytes: `input` when UTF-8, else `input_hex`.
    fn json(self, name: &str, bytes: &[u8]) -> Case {
        match std::str::from_utf8(bytes) {
            Ok(s) => self.s(name, s),
            Err(_) => self.s(&format!("{name}_hex"), hex::encode(bytes)),
        }
    }
    fn int(self, name: &str, n: i64) -> Case {
        self.v(name, Value::Number(n as f64))
    }
    /// The request as a JSON object value (with `id`).
    pub(super) fn request(&self, id: u64) -> Value<'static> {
        let mut members: Vec<(Cow<'static, str>, Value<'static>)> =
            vec![("id".into(), Value::Number(id as f64))];
        members.extend(
            self.fields
                .iter()
                .map(|(k, v)| (Cow::Owned(k.clone()), v.clone())),
        );
        Value::Object(members)
    }
}

/// The marker that stands for an integer literal beyond ±2^53 while a vector file is parsed
/// (the core's parser refuses such literals; a case may hold one to show it refused).
const BIG: &str = "\\u0000num:";

/// Replaces integer literals beyond ±2^53 (outside strings) with the string `"\u0000num:DIGITS"`.
pub(super) fn protect_big_integers(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let (mut i, mut in_string) = (0, false);
    while i < bytes.len() {
        let c = bytes[i];
        if in_string {
            out.push(c);
            if c == b'\\' && i + 1 < bytes.len() {
                out.push(bytes[i + 1]);
                i += 1;
            } else if c == b'"' {
                in_string = false;
            }
            i += 1;
            continue;
        }
        if c == b'"' {
            in_string = true;
        }
        if c == b'-' || c.is_ascii_digit() {
            let start = i;
            while i < bytes.len()
                && matches!(bytes[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
            {
                i += 1;
            }
            let token = &bytes[start..i];
            let digits = token.strip_prefix(b"-").unwrap_or(token);
            let big = digits.iter().all(u8::is_ascii_digit)
                && std::str::from_utf8(digits)
                    .ok()
                    .and_then(|d| d.parse::<u128>().ok())
                    .is_none_or(|n| n > 1u128 << 53);
            if big {
                out.extend_from_slice(b"\"");
                out.extend_from_slice(BIG.as_bytes());
                out.extend_from_slice(token);
                out.push(b'"');
            } else {
                out.extend_from_slice(token);
            }
            continue;
        }
        out.push(c);
        i += 1;
    }
    out
}

pub(super) fn canon_text(v: &Value<'_>) -> String {
    let text = String::from_utf8(canonical::canonicalize_value(v).unwrap_or_default())
        .expect("canonical text is utf-8");
    let marker = format!("\"{BIG}");
    if !text.contains(&marker) {
        return text;
    }
    let mut out = String::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find(&marker) {
        out.push_str(&rest[..at]);
        let after = &rest[at + marker.len()..];
        let end = after.find('"').unwrap_or(after.len());
        out.push_str(&after[..end]);
        rest = after.get(end + 1..).unwrap_or("");
    }
    out.push_str(rest);
    out
}

fn str_of<'v>(v: &'v Value<'_>, name: &str) -> &'v str {
    v.get(name).and_then(Value::as_str).unwrap_or("")
}

fn items<'v, 'a>(v: &'v Value<'a>, name: &str) -> &'v [Value<'a>] {
    v.get(name).and_then(Value::as_array).unwrap_or(&[])
}

fn name_of(v: &Value<'_>) -> String {
    str_of(v, "name").to_owned()
}

/// The legacy operations' requests of one vector file (their rules name the file's sections);
/// calls.rs reads the file and adds its `call`s.
pub(super) fn legacy_requests(file: &str, d: &Value<'_>, out: &mut Vec<Case>) {
    let src = |section: &str| format!("vectors/{file}:{section}");
    let src: &dyn Fn(&str) -> String = &src;
    match file {
        "ekl-json-1.json" => ekl_json(d, out, src),
        "fingerprints.json" => fingerprints(d, out, src),
        "upstream-fingerprint.json" => upstream_fingerprints(d, out, src),
        "duplicate-keys.json" => duplicate_keys(d, out, src),
        "endpoint-proof-v2.json" => endpoint_proofs(d, out, src),
        "call-receipt.json" => call_receipts(d, out, src),
        "receipt-jws.json" => receipt_jws(d, out, src),
        "screening-rules-jws.json" => screening_rules_jws(d, out, src),
        "credentials-jws.json" => credentials_jws(d, out, src),
        "screening-scan.json" => screening_scan(d, out, src),
        _ => {}
    }
}

/// vectors/ekl-json-1.json: its requests.
fn ekl_json(d: &Value<'_>, out: &mut Vec<Case>, src: &dyn Fn(&str) -> String) {
    const F: &str = "ekl-json-1.json";
    for (i, c) in items(d, "valid").iter().enumerate() {
        let input = str_of(c, "input");
        let case = Case::new("canonicalize", &src("valid"), name_of(c)).s("input", input);
        out.push(pinned(case, c, &format!("/valid/{i}")));
        let digest = Case::new("digest", &src("valid"), name_of(c)).s("input", input);
        out.push(digest.pin(F, format!("/valid/{i}/sha256"), &["text"]));
        // The value path: the input parsed, given as the host's own value (canonicalize_host).
        if let Ok(value) = canonical::parse(input.as_bytes()) {
            let host = Case::new("canonicalize_host", &src("valid"), name_of(c))
                .v("value", describe(&value));
            out.push(host.pin(F, format!("/valid/{i}/canonical"), &["text"]));
        }
    }
    for (i, c) in items(d, "invalid").iter().enumerate() {
        let case =
            Case::new("canonicalize", &src("invalid"), name_of(c)).s("input", str_of(c, "input"));
        out.push(pinned(case, c, &format!("/invalid/{i}")));
    }
    for (i, c) in items(d, "depth").iter().enumerate() {
        let case = with_generated_input(Case::new("canonicalize", &src("depth"), name_of(c)), c);
        out.push(pinned(case, c, &format!("/depth/{i}")));
    }
    for (i, c) in items(d, "invalid_utf8").iter().enumerate() {
        let case = Case::new("canonicalize", &src("invalid_utf8"), name_of(c))
            .s("input_hex", str_of(c, "input_hex"));
        out.push(pinned(case, c, &format!("/invalid_utf8/{i}")));
    }
    for (i, c) in items(d, "size").iter().enumerate() {
        let mut case = with_generated_input(Case::new("canonicalize", &src("size"), name_of(c)), c);
        if let Some(Value::Number(m)) = c.get("max_bytes") {
            case = case.int("max_bytes", *m as i64);
        }
        out.push(pinned(case, c, &format!("/size/{i}")));
    }
}

/// `case` with the `input` of ekl-json-1.json case `c` written out: prefix + repeat × count +
/// inner + close × count + suffix. Megabytes at times: vectors/calls.jsonl holds the description
/// (`{"$generated": {...}}`), which each runner writes out.
fn with_generated_input(case: Case, c: &Value<'_>) -> Case {
    const PARTS: [&str; 6] = ["prefix", "repeat", "count", "inner", "close", "suffix"];
    let n = c.get("count").and_then(Value::as_f64).unwrap_or(0.0) as usize;
    let text = [
        str_of(c, "prefix").to_owned(),
        str_of(c, "repeat").repeat(n),
        str_of(c, "inner").to_owned(),
        str_of(c, "close").repeat(n),
        str_of(c, "suffix").to_owned(),
    ]
    .concat();
    let parts = PARTS
        .iter()
        .filter_map(|k| Some((Cow::Borrowed(*k), c.get(k)?.clone().into_owned())))
        .collect();
    let mut case = case.s("input", text);
    let description = Value::Object(vec![("$generated".into(), Value::Object(parts))]);
    case.compact.push(("input".into(), description));
    case
}

/// A parsed JSON value as a host-value description of `canonicalize_host`
/// (docs/conformance-protocol.md#canonicalize_host): numbers as `$num` (their shortest text),
/// objects as `$obj` pairs in the order given; depth bounded by the parser's limit.
fn describe(v: &Value<'_>) -> Value<'static> {
    match v {
        Value::Number(_) => tagged("$num", Value::String(Cow::Owned(canon_text(v)))),
        Value::Array(items) => Value::Array(items.iter().map(describe).collect()),
        Value::Object(members) => tagged(
            "$obj",
            Value::Array(
                members
                    .iter()
                    .map(|(k, x)| {
                        Value::Array(vec![Value::String(Cow::Owned(k.to_string())), describe(x)])
                    })
                    .collect(),
            ),
        ),
        other => other.clone().into_owned(),
    }
}

/// A `canonicalize` request of ekl-json-1.json case `c` (at `at`), pinned to each expected value
/// the case has: `canonical`, `sha256`, `canonical_length` of the answer's text, or the `code`.
fn pinned(mut case: Case, c: &Value<'_>, at: &str) -> Case {
    const F: &str = "ekl-json-1.json";
    for (member, take) in [
        ("canonical", &["text"][..]),
        ("sha256", &["text", "sha256"][..]),
        ("canonical_length", &["text", "length"][..]),
        ("code", &["/error"][..]),
    ] {
        if c.get(member).is_some() {
            case = case.pin(F, format!("{at}/{member}"), take);
        }
    }
    case
}

/// vectors/fingerprints.json: its requests.
fn fingerprints(d: &Value<'_>, out: &mut Vec<Case>, src: &dyn Fn(&str) -> String) {
    for c in items(d, "cases") {
        let value = c.get("value").map(canon_text).unwrap_or_default();
        out.push(
            Case::new("fingerprint", &src("cases"), name_of(c))
                .s("salt", str_of(c, "salt"))
                .s("input", value.clone()),
        );
        out.push(Case::new("canonicalize", &src("cases"), name_of(c)).s("input", value));
    }
    if let Some(sel) = d.get("result_selection") {
        // The published file gives no salt here: the first case's salt serves.
        let salt = items(d, "cases")
            .first()
            .map(|c| str_of(c, "salt"))
            .unwrap_or("");
        let result = sel.get("result").map(canon_text).unwrap_or_default();
        out.push(
            Case::new("output_fingerprint", &src("result_selection"), "result")
                .s("salt", salt)
                .s("input", result),
        );
    }
    if let Some(ch) = d.get("challenge") {
        out.push(
            Case::new("challenge_proof_v1", &src("challenge"), "challenge")
                .s("credential", str_of(ch, "provider_credential"))
                .s("challenge", str_of(ch, "challenge"))
                .s("endpoint", str_of(ch, "endpoint")),
        );
    }
}

/// vectors/upstream-fingerprint.json: its requests.
fn upstream_fingerprints(d: &Value<'_>, out: &mut Vec<Case>, src: &dyn Fn(&str) -> String) {
    for section in ["cases", "invalid"] {
        for c in items(d, section) {
            let tools = c.get("tools").map(canon_text).unwrap_or_default();
            let offered = c
                .get("offered")
                .cloned()
                .unwrap_or(Value::Null)
                .into_owned();
            out.push(
                Case::new("upstream_fingerprint", &src(section), name_of(c))
                    .s("input", tools)
                    .v("offered", offered),
            );
        }
    }
}

/// vectors/duplicate-keys.json: its requests.
fn duplicate_keys(d: &Value<'_>, out: &mut Vec<Case>, src: &dyn Fn(&str) -> String) {
    // The operations the runner offers, on the case's JSON text as written (duplicates
    // included).
    let (salt, secret) = (str_of(d, "salt"), str_of(d, "secret"));
    for c in items(d, "cases") {
        let input = str_of(c, "input");
        let case = match str_of(c, "operation") {
            "upstream_fingerprint" => Case::new("upstream_fingerprint", &src("cases"), name_of(c))
                .v(
                    "offered",
                    c.get("offered")
                        .cloned()
                        .unwrap_or(Value::Null)
                        .into_owned(),
                ),
            op @ ("fingerprint" | "output_fingerprint") => {
                Case::new(op, &src("cases"), name_of(c)).s("salt", salt)
            }
            "receipt_digest" => Case::new("receipt_digest", &src("cases"), name_of(c)),
            "auth_tag" => {
                Case::new("receipt_auth_tag", &src("cases"), name_of(c)).s("secret", secret)
            }
            _ => continue,
        };
        out.push(case.s("input", input));
    }
}

/// vectors/endpoint-proof-v2.json: its requests.
fn endpoint_proofs(d: &Value<'_>, out: &mut Vec<Case>, src: &dyn Fn(&str) -> String) {
    let key = str_of(d, "agent_key");
    out.push(Case::new("proof_key", &src("agent_key"), "agent_key").s("agent_key", key));
    for c in items(d, "challenges") {
        for op in ["challenge_proof_v1", "challenge_proof_v2"] {
            let case = Case::new(op, &src("challenges"), name_of(c));
            let case = if op == "challenge_proof_v1" {
                case.s("credential", key)
            } else {
                case.s("agent_key", key)
            };
            out.push(
                case.s("challenge", str_of(c, "challenge"))
                    .s("endpoint", str_of(c, "endpoint")),
            );
        }
    }
    for c in items(d, "enroll") {
        for op in ["enroll_authority_v1", "enroll_authority_v2"] {
            out.push(
                Case::new(op, &src("enroll"), name_of(c))
                    .s("agent_key", key)
                    .s("enrollment_id", str_of(c, "enrollment_id"))
                    .s("nonce", str_of(c, "nonce"))
                    .s("endpoint", str_of(c, "endpoint")),
            );
        }
    }
    let ch = items(d, "challenges").first();
    let proof_key = str_of(d, "proof_key");
    let hash = str_of(d, "agent_key_sha256");
    for c in d
        .get("downgrade")
        .map(|g| items(g, "network"))
        .unwrap_or(&[])
    {
        let holds = str_of(c, "holds");
        let mut case = Case::new(
            "verify_challenge_proof",
            &src("downgrade.network"),
            name_of(c),
        )
        .s(
            "challenge",
            ch.map(|x| str_of(x, "challenge")).unwrap_or(""),
        )
        .s("endpoint", ch.map(|x| str_of(x, "endpoint")).unwrap_or(""));
        case = if holds == "proof_key" {
            case.s("proof_key", proof_key)
        } else {
            case.s("credential_hash", hash)
        };
        for m in ["proof", "proof_v2"] {
            if let Some(Value::String(p)) = c.get(m) {
                case = case.s(m, p.to_string());
            }
        }
        out.push(case);
    }
    for c in items(d, "verify_signature") {
        out.push(
            Case::new("verify_signature", &src("verify_signature"), name_of(c))
                .s("secret", str_of(c, "registration_secret"))
                .s("agent_id", str_of(c, "agent_id"))
                .s("enrollment_id", str_of(c, "enrollment_id"))
                .s("challenge", str_of(c, "challenge")),
        );
    }
}

/// vectors/call-receipt.json: its requests.
fn call_receipts(d: &Value<'_>, out: &mut Vec<Case>, src: &dyn Fn(&str) -> String) {
    let secret = str_of(d, "receipt_secret");
    let mut receipts: Vec<(String, String)> = Vec::new();
    if let Some(r) = d.get("receipt") {
        receipts.push(("receipt".into(), canon_text(r)));
    }
    for section in ["key_ring", "mismatch", "issue"] {
        if let Some(s) = d.get(section) {
            for c in items(s, "cases") {
                if let Some(r) = c.get("receipt").or_else(|| c.get("expected")) {
                    receipts.push((format!("{section}: {}", name_of(c)), canon_text(r)));
                }
            }
        }
    }
    for (label, text) in receipts {
        out.push(
            Case::new("receipt_auth_tag", &src("receipts"), label.clone())
                .s("secret", secret)
                .s("input", text.clone()),
        );
        out.push(Case::new("receipt_digest", &src("receipts"), label).s("input", text));
    }
}

/// vectors/receipt-jws.json: its requests.
fn receipt_jws(d: &Value<'_>, out: &mut Vec<Case>, src: &dyn Fn(&str) -> String) {
    let jwks = d.get("jwks").map(canon_text).unwrap_or_default();
    let call = d.get("call");
    let now = call
        .and_then(|c| c.get("received_at"))
        .and_then(Value::as_f64)
        .unwrap_or(0.0) as i64;
    let iss = call.map(|c| str_of(c, "network_issuer")).unwrap_or("");
    for c in items(d, "cases") {
        let token = str_of(c, "receipt_jws");
        if token.is_empty() {
            continue;
        }
        out.push(
            Case::new("jws_verify", &src("cases"), name_of(c))
                .s("token", token)
                .s("typ", Typ::Receipt.as_str())
                .s("jwks", jwks.clone())
                .int("now", now)
                .s("iss", iss)
                .v("require_exp", Value::Bool(false)),
        );
    }
}

/// vectors/screening-rules-jws.json: its requests.
fn screening_rules_jws(d: &Value<'_>, out: &mut Vec<Case>, src: &dyn Fn(&str) -> String) {
    let jwks = d.get("jwks").map(canon_text).unwrap_or_default();
    let iss = str_of(d, "network_issuer");
    for c in items(d, "cases") {
        let now = c.get("now").and_then(Value::as_f64).unwrap_or(0.0).floor() as i64;
        out.push(
            Case::new("jws_verify", &src("cases"), name_of(c))
                .s("token", str_of(c, "token"))
                .s("typ", Typ::ScreeningRules.as_str())
                .s("jwks", jwks.clone())
                .int("now", now)
                .s("iss", iss),
        );
    }
}

/// vectors/credentials-jws.json: its requests.
fn credentials_jws(d: &Value<'_>, out: &mut Vec<Case>, src: &dyn Fn(&str) -> String) {
    // The generic verifier with each type's typ, issuer and audience (the per-type rules
    // run as `call` cases of the four operations: calls.rs).
    let jwks = d.get("jwks").map(canon_text).unwrap_or_default();
    let iss = str_of(d, "network_issuer");
    for c in items(d, "cases") {
        let args = c.get("args");
        let arg = |k: &str| args.map(|a| str_of(a, k)).unwrap_or("");
        let (typ, aud) = match str_of(c, "op") {
            "verify_relationship_assertion" => {
                (Typ::Relationship, Some(arg("token_endpoint").to_owned()))
            }
            "verify_platform_call" => (
                Typ::PlatformCall,
                args.and_then(|a| a.get("audience"))
                    .and_then(Value::as_str)
                    .map(str::to_owned),
            ),
            "verify_revocation_feed" => (
                Typ::RevocationFeed,
                Some(arg("provider_agent_id").to_owned()),
            ),
            _ => (
                Typ::Access,
                Some(ekl_core::credential::agent_audience(arg("provider_id"))),
            ),
        };
        let now = c.get("now").and_then(Value::as_f64).unwrap_or(0.0).floor() as i64;
        let mut case = Case::new("jws_verify", &src("cases"), name_of(c))
            .s("token", str_of(c, "token"))
            .s("typ", typ.as_str())
            .s("jwks", jwks.clone())
            .int("now", now)
            .s("iss", iss);
        if let Some(aud) = aud {
            case = case.s("aud", aud);
        }
        if typ == Typ::RevocationFeed {
            case = case.v("require_exp", Value::Bool(false));
        }
        out.push(case);
    }
}

/// vectors/screening-scan.json: its requests.
fn screening_scan(d: &Value<'_>, out: &mut Vec<Case>, src: &dyn Fn(&str) -> String) {
    let sets = d.get("rules_sets");
    for c in items(d, "cases") {
        let rules = sets.and_then(|s| s.get(str_of(c, "rules"))).map(canon_text);
        let mut case = Case::new("screen", &src("cases"), name_of(c))
            .s("input", c.get("result").map(canon_text).unwrap_or_default());
        if let Some(r) = rules {
            case = case.s("rules", r);
        }
        out.push(case);
    }
    for c in items(d, "invalid_rules") {
        out.push(
            Case::new("screen", &src("invalid_rules"), name_of(c))
                .s("rules", c.get("claims").map(canon_text).unwrap_or_default())
                .s("input", r#"{"content":[]}"#),
        );
    }
}

// --- the generated corpus ---------------------------------------------------------------------

/// The corpus's generator: the project's one SplitMix64 (`ekl_core::test_rng`) from a seed, so
/// the corpus is a function of the seed.
pub(super) struct Rng(ekl_core::test_rng::SplitMix64);

impl Rng {
    /// A generator from a seed.
    pub(super) fn new(seed: u64) -> Rng {
        Rng(ekl_core::test_rng::SplitMix64(seed ^ 0x6a09_e667_f3bc_c908))
    }
    /// The next 64 random bits.
    pub(super) fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
    /// A number in `0..n` (n > 0).
    pub(super) fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
    fn hex(&mut self, bytes: usize) -> String {
        let b: Vec<u8> = (0..bytes).map(|_| self.next() as u8).collect();
        hex::encode(&b)
    }
}

/// The shortest text of `x` as a JSON number that ekl-json-1 accepts: an integral value beyond
/// ±2^53 is written with an exponent (its plain integer literal is refused).
fn shortest(x: f64) -> String {
    let s = canonical::number_to_string(x).unwrap_or_else(|| "0".into());
    if x.abs() > 9007199254740992.0 && !s.contains(['.', 'e']) {
        format!("{x:e}")
    } else {
        s
    }
}

/// A random double as JSON number text, in one of several spellings.
pub(super) fn number_text(rng: &mut Rng) -> String {
    match rng.below(12) {
        0 => format!("{}", rng.below(1000) as i64 - 500),
        1 => {
            let edge = 9007199254740992i64 - rng.below(4) as i64;
            format!("{}{edge}", if rng.chance(50) { "-" } else { "" })
        }
        2 => (rng.pick(&[
            "0",
            "-0",
            "0.0",
            "-0.0",
            "0e0",
            "1E+2",
            "1e-7",
            "0.000001",
            "1e21",
            "1e+21",
            "123456789012345680000.0",
            "5e-324",
            "1.7976931348623157e308",
            "2.2250738585072014e-308",
            "4.9406564584124654e-324",
        ]))
        .to_owned(),
        3 => format!("{}.{}", rng.below(100000), rng.below(100000)),
        4 => format!("{}e{}", rng.below(10000), rng.below(600) as i64 - 300),
        _ => loop {
            let x = f64::from_bits(rng.next());
            if !x.is_finite() {
                continue;
            }
            break match rng.below(3) {
                0 => format!("{x:e}"),
                1 => format!("{x:E}"),
                _ => shortest(x),
            };
        },
    }
}

const CHARS: &[&str] = &[
    "a",
    "b",
    "z",
    "A",
    "_",
    "0",
    " ",
    "é",
    "ß",
    "Ω",
    "中",
    "文",
    "\u{2028}",
    "\u{2029}",
    "\u{7f}",
    "\u{80}",
    "\u{ff61}",
    "\u{fffd}",
    "\u{ffff}",
    "\u{e000}",
    "😀",
    "𝄞",
    "\u{10ffff}",
    "\u{1f1e6}",
    "\\n",
    "\\t",
    "\\r",
    "\\b",
    "\\f",
    "\\/",
    "\\\\",
    "\\\"",
    "\\u0000",
    "\\u001f",
    "\\u007F",
    "\\u00e9",
    "\\u2028",
    "\\uFFFF",
    "\\ud83d\\ude00",
    "\\uD834\\uDD1E",
    "\\udbff\\udfff",
    "\\ud800\\udc00",
    "\\u0041",
];

/// A JSON string literal (quotes included) of random characters and escapes.
fn string_text(rng: &mut Rng, max: usize) -> String {
    let n = rng.below(max + 1);
    let mut s = String::from("\"");
    for _ in 0..n {
        s.push_str(rng.pick(CHARS));
    }
    s.push('"');
    s
}

fn ws(rng: &mut Rng) -> &'static str {
    if rng.chance(80) {
        ""
    } else {
        rng.pick(&[" ", "\n", "\t", "\r\n  ", "  "])
    }
}

/// A random valid JSON text of at most `depth` nesting levels (keys unique by construction).
pub(super) fn doc_text(rng: &mut Rng, depth: usize) -> String {
    let mut out = String::new();
    value_text(rng, depth, &mut out);
    out
}

fn value_text(rng: &mut Rng, depth: usize, out: &mut String) {
    let kind = if depth == 0 {
        rng.below(5)
    } else {
        rng.below(8)
    };
    match kind {
        0 => out.push_str(rng.pick(&["null", "true", "false"])),
        1 | 2 => out.push_str(&number_text(rng)),
        3 | 4 => out.push_str(&string_text(rng, 6)),
        5 | 6 => {
            out.push('{');
            let n = rng.below(5);
            let mut keys: Vec<String> = Vec::new();
            for i in 0..n {
                let key = loop {
                    let k = string_text(rng, 3);
                    let decoded = canonical::parse(k.as_bytes())
                        .ok()
                        .and_then(|v| v.as_str().map(str::to_owned));
                    if let Some(d) = decoded {
                        if !keys.contains(&d) {
                            keys.push(d);
                            break k;
                        }
                    }
                };
                if i > 0 {
                    out.push(',');
                }
                out.push_str(ws(rng));
                out.push_str(&key);
                out.push_str(ws(rng));
                out.push(':');
                out.push_str(ws(rng));
                value_text(rng, depth - 1, out);
            }
            out.push_str(ws(rng));
            out.push('}');
        }
        _ => {
            out.push('[');
            for i in 0..rng.below(5) {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(ws(rng));
                value_text(rng, depth - 1, out);
            }
            out.push(']');
        }
    }
}

/// A valid document nested exactly `levels` deep around a random leaf (objects and arrays mixed).
fn deep_text(rng: &mut Rng, levels: usize) -> String {
    let mut open = String::new();
    let mut close = String::new();
    for _ in 0..levels {
        if rng.chance(50) {
            open.push('[');
            close.insert(0, ']');
        } else {
            open.push_str("{\"k\":");
            close.insert(0, '}');
        }
    }
    let leaf = doc_text(rng, 0);
    format!("{open}{leaf}{close}")
}

/// The mutation families: each makes a text one ekl-json-1 rule refuses.
pub(super) const MUTATIONS: &[&str] = &[
    "duplicate_key",
    "duplicate_key_escaped",
    "lone_surrogate",
    "integer_beyond_2^53",
    "number_overflow",
    "depth_65",
    "invalid_utf8",
    "bom",
    "trailing_content",
    "raw_control_char",
    "bad_escape",
    "bad_number",
    "trailing_comma",
    "literal",
    "truncated",
    "size_limit",
];

/// A text refused by rule `m` (most embed a random valid document), and the `max_bytes` it needs.
fn mutate(rng: &mut Rng, m: &str) -> (Vec<u8>, Option<i64>) {
    let doc = doc_text(rng, 3);
    let t = match m {
        "duplicate_key" => format!("{{\"x\":{doc},\"y\":1,\"x\":2}}"),
        "duplicate_key_escaped" => format!("[{{\"é\":{doc},\"\\u00e9\":0}}]"),
        "lone_surrogate" => {
            let s = rng.pick(&[
                "\\ud800",
                "\\udfff",
                "\\ud83d x",
                "\\ude00\\ud83d",
                "\\uDBFF\\u0041",
            ]);
            format!("[{doc},\"a{s}\"]")
        }
        "integer_beyond_2^53" => {
            let n = 9007199254740993u64 + rng.below(1_000_000) as u64;
            let big = if rng.chance(20) {
                format!("{n}000000000000")
            } else {
                n.to_string()
            };
            format!(
                "{{\"n\":[{doc},{}{big}]}}",
                if rng.chance(50) { "-" } else { "" }
            )
        }
        "number_overflow" => format!(
            "[{doc},{}]",
            rng.pick(&["1e400", "-1e309", "1.8e308", "123456789e999"])
        ),
        "depth_65" => deep_text(rng, 65),
        "invalid_utf8" => {
            let mut b = format!("[{doc},\"ab").into_bytes();
            let bad: &[&[u8]] = &[
                b"\x80",
                b"\xc3",
                b"\xed\xa0\x80",
                b"\xf4\x90\x80\x80",
                b"\xc0\xaf",
                b"\xff",
                b"\xe2\x82",
            ];
            b.extend_from_slice(rng.pick(bad));
            b.extend_from_slice(b"\"]");
            return (b, None);
        }
        "bom" => {
            let mut b = b"\xef\xbb\xbf".to_vec();
            b.extend_from_slice(doc.as_bytes());
            return (b, None);
        }
        "trailing_content" => format!("{doc}{}", rng.pick(&[" x", " 1", "]", "}", ",", " {}"])),
        "raw_control_char" => format!(
            "[{doc},\"a{}b\"]",
            rng.pick(&["\u{0}", "\u{1}", "\n", "\t", "\u{1f}"])
        ),
        "bad_escape" => format!(
            "[{doc},\"{}\"]",
            rng.pick(&["\\x41", "\\u12", "\\u12G4", "\\U0041", "\\'", "\\"])
        ),
        "bad_number" => format!(
            "[{doc},{}]",
            rng.pick(&["01", "-", "1.", ".5", "+1", "1e", "1e+", "0x10", "-01", "1.e5", "--1"])
        ),
        "trailing_comma" => {
            if rng.chance(50) {
                format!("[{doc},]")
            } else {
                format!("{{\"a\":{doc},}}")
            }
        }
        "literal" => format!(
            "[{doc},{}]",
            rng.pick(&[
                "NaN",
                "Infinity",
                "-Infinity",
                "undefined",
                "True",
                "nul",
                "'a'"
            ])
        ),
        "truncated" => {
            let full = format!("{{\"a\":[{doc},\"end\"]}}");
            let cut = rng.below(full.len().saturating_sub(1)).max(1);
            let mut b = full.into_bytes();
            b.truncate(cut);
            return (b, None);
        }
        "size_limit" => {
            let canon = canonical::canonicalize(doc.as_bytes()).unwrap_or_default();
            let len = canon.len() as i64;
            return (doc.into_bytes(), Some((len - 1).max(0)));
        }
        _ => doc,
    };
    (t.into_bytes(), None)
}

const TOOL_NAMES: &[&str] = &["search", "get_quote", "list", "é_tool", "b", "a"];

fn tools_text(rng: &mut Rng) -> (String, Value<'static>) {
    let n = rng.below(4);
    let mut tools = Vec::new();
    for _ in 0..n {
        let mut t = format!("{{\"name\":\"{}\"", rng.pick(TOOL_NAMES));
        if rng.chance(70) {
            t.push_str(&format!(",\"description\":{}", string_text(rng, 5)));
        }
        if rng.chance(70) {
            t.push_str(&format!(
                ",\"inputSchema\":{{\"type\":\"object\",\"properties\":{{\"q\":{}}}}}",
                doc_text(rng, 1)
            ));
        }
        if rng.chance(20) {
            t.push_str(&format!(",\"annotations\":{}", doc_text(rng, 2)));
        }
        if rng.chance(10) {
            t.push_str(&format!(",\"extra\":{}", doc_text(rng, 1)));
        }
        t.push('}');
        tools.push(t);
    }
    let text = if rng.chance(80) {
        format!("{{\"tools\":[{}]}}", tools.join(","))
    } else {
        format!("[{}]", tools.join(","))
    };
    let offered = if rng.chance(50) {
        Value::Null
    } else {
        Value::Array(
            (0..rng.below(3))
                .map(|_| Value::String(Cow::Owned((rng.pick(TOOL_NAMES)).to_owned())))
                .collect(),
        )
    };
    (text, offered)
}

fn random_id(rng: &mut Rng) -> String {
    let mut s = String::new();
    for _ in 0..rng.below(12) + 1 {
        s.push_str(rng.pick(&[
            "a", "Z", "0", "_", "-", "é", "|", ":", "😀", " ", "\u{2028}",
        ]));
    }
    s
}

/// The receipt of `vectors/call-receipt.json`'s shape with random field values.
fn receipt_text(rng: &mut Rng) -> String {
    format!(
        "{{\"receipt_version\":\"1.1\",\"receipt_id\":\"rcpt_{}\",\"execution_id\":\"{}\",\"status\":\"succeeded\",\"rel_ver_at_admission\":{},\"issued_at\":\"2026-11-29T18:40:05.250Z\",\"key_id\":\"{}\",\"output_commitment\":{{\"alg\":\"sha-256\",\"canon\":\"ekl-json-1\",\"digest\":\"{}\"}},\"extra\":{}}}",
        rng.hex(6),
        rng.hex(4),
        number_text(rng),
        rng.pick(&["rk-1", "rk-2", "é", ""]),
        rng.hex(32),
        doc_text(rng, 2)
    )
}

/// Changes one hex digit of `s`.
fn tamper_hex(rng: &mut Rng, s: &str) -> String {
    let mut b = s.as_bytes().to_vec();
    if b.is_empty() {
        return "0".into();
    }
    let i = rng.below(b.len());
    b[i] = if b[i] == b'0' { b'1' } else { b'0' };
    String::from_utf8(b).expect("ascii")
}

/// Flips one character of `s` at a random position to a different base64url character.
fn tamper(rng: &mut Rng, s: &str) -> String {
    let mut b = s.as_bytes().to_vec();
    if b.is_empty() {
        return "x".into();
    }
    let i = rng.below(b.len());
    let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.";
    loop {
        let c = rng.pick(alphabet);
        if c != b[i] {
            b[i] = c;
            break;
        }
    }
    String::from_utf8(b).expect("ascii")
}

/// The generated corpus: `n` JSON texts through canonicalize (about a third of them refused by one
/// rule each), and a share of `n` for each other operation.
pub(super) fn generated(seed: u64, n: usize) -> Vec<Case> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let src = "gen";
    for i in 0..n {
        let label = format!("seed {seed} #{i}");
        gen_texts(&mut rng, &mut out, i, &label, src);
        if i % 20 == 0 {
            gen_tool_lists(&mut rng, &mut out, &label, src);
        }
        if i % 20 == 5 {
            gen_proofs(&mut rng, &mut out, &label, src);
        }
        if i % 20 == 7 {
            gen_proof_checks(&mut rng, &mut out, &label, src);
        }
        if i % 20 == 10 {
            gen_receipts(&mut rng, &mut out, &label, src);
        }
        if i % 20 == 15 {
            gen_tokens(&mut rng, &mut out, seed, i, &label);
        }
        if i % 50 == 25 {
            gen_raw_bytes(&mut rng, &mut out, &label, src);
        }
        if i % 40 == 3 {
            gen_screening(&mut rng, &mut out, &label, src);
        }
    }
    out
}

/// One round of [`generated`]: the generated texts: canonicalisation, digests, commitments and fingerprints, mutations included.
fn gen_texts(rng: &mut Rng, out: &mut Vec<Case>, i: usize, label: &str, src: &str) {
    match i % 3 {
        0 | 1 => {
            let depth = if rng.chance(3) { 64 } else { 4 };
            let text = if depth == 64 {
                {
                    let levels = 63 + rng.below(2);
                    deep_text(rng, levels)
                }
            } else {
                doc_text(rng, depth)
            };
            let rule = if depth == 64 { "valid/deep" } else { "valid" };
            out.push(
                Case::new("canonicalize", &format!("{src}/{rule}"), label).s("input", text.clone()),
            );
            if i.is_multiple_of(9) {
                out.push(
                    Case::new("digest", &format!("{src}/valid"), label).s("input", text.clone()),
                );
            }
            if i % 9 == 1 {
                let mut case = Case::new("commitment", &format!("{src}/valid"), label)
                    .s("input", text.clone());
                if rng.chance(50) {
                    case = case.s("salt", rng.hex(32));
                    if rng.chance(50) {
                        case = case.s("salt_id", random_id(rng));
                    }
                }
                out.push(case);
            }
            if i % 9 == 4 {
                let salt = if rng.chance(90) {
                    rng.hex(32)
                } else {
                    rng.pick(&["", "00", "AA".repeat(32).as_str(), &"0g".repeat(32)])
                        .to_string()
                };
                out.push(
                    Case::new("fingerprint", &format!("{src}/valid"), label)
                        .s("salt", salt)
                        .s("input", text.clone()),
                );
            }
            if i % 9 == 7 {
                let body = rng.pick(&[
                    "structuredContent",
                    "content",
                    "both",
                    "null_structured",
                    "neither",
                ]);
                let result = match body {
                    "structuredContent" => {
                        format!("{{\"structuredContent\":{text},\"isError\":false}}")
                    }
                    "content" => format!("{{\"content\":{text}}}"),
                    "both" => format!("{{\"content\":[],\"structuredContent\":{text}}}"),
                    "null_structured" => {
                        format!("{{\"structuredContent\":null,\"content\":{text}}}")
                    }
                    _ => format!("{{\"other\":{text}}}"),
                };
                out.push(
                    Case::new("output_fingerprint", &format!("{src}/{body}"), label)
                        .s("salt", rng.hex(32))
                        .s("input", result),
                );
            }
        }
        _ => {
            let m = MUTATIONS[(i / 3) % MUTATIONS.len()];
            let (bytes, max) = mutate(rng, m);
            let mut case = Case::new("canonicalize", &format!("{src}/refuse/{m}"), label)
                .json("input", &bytes);
            if let Some(max) = max {
                case = case.int("max_bytes", max);
            }
            out.push(case);
            if i % 12 == 2 && max.is_none() {
                out.push(
                    Case::new("digest", &format!("{src}/refuse/{m}"), label).json("input", &bytes),
                );
            }
        }
    }
}

/// One round of [`generated`]: a generated tool list and its upstream fingerprint.
fn gen_tool_lists(rng: &mut Rng, out: &mut Vec<Case>, label: &str, src: &str) {
    let (tools, offered) = tools_text(rng);
    out.push(
        Case::new("upstream_fingerprint", &format!("{src}/tools"), label)
            .s("input", tools)
            .v("offered", offered),
    );
}

/// One round of [`generated`]: proof keys, challenge proofs and enrolment authorities (v1 and v2), and `ekl_verify` signatures.
fn gen_proofs(rng: &mut Rng, out: &mut Vec<Case>, label: &str, src: &str) {
    let (a, c, e) = (
        random_id(rng),
        rng.hex(32),
        format!("https://{}.example/mcp", rng.hex(3)),
    );
    let op = rng.pick(&[
        "challenge_proof_v1",
        "challenge_proof_v2",
        "enroll_authority_v1",
        "enroll_authority_v2",
        "verify_signature",
        "proof_key",
    ]);
    let case = Case::new(op, &format!("{src}/random"), label);
    out.push(match op {
        "challenge_proof_v1" => case.s("credential", a).s("challenge", c).s("endpoint", e),
        "challenge_proof_v2" => case.s("agent_key", a).s("challenge", c).s("endpoint", e),
        "proof_key" => case.s("agent_key", a),
        "verify_signature" => case
            .s("secret", a)
            .s("agent_id", random_id(rng))
            .s("enrollment_id", random_id(rng))
            .s("challenge", c),
        _ => case
            .s("agent_key", a)
            .s("enrollment_id", random_id(rng))
            .s("nonce", rng.hex(6))
            .s("endpoint", e),
    });
}

/// One round of [`generated`]: the no-downgrade verification of challenge proofs.
fn gen_proof_checks(rng: &mut Rng, out: &mut Vec<Case>, label: &str, src: &str) {
    let agent_key = random_id(rng);
    let (challenge, endpoint) = (rng.hex(32), format!("https://{}.example/mcp", rng.hex(2)));
    let key = ekl_core::proof::ProofKey::derive(&agent_key);
    let v1 = ekl_core::proof::challenge_proof_v1(&agent_key, &challenge, &endpoint);
    let v2 = ekl_core::proof::challenge_proof_v2(&key, &challenge, &endpoint);
    let alter = |p: &str, rng: &mut Rng| -> Option<String> {
        match rng.below(6) {
            0 => None,
            1 => Some(p.to_uppercase()),
            2 => Some(tamper_hex(rng, p)),
            3 => Some(p[..62].to_owned()),
            _ => Some(p.to_owned()),
        }
    };
    let (p1, p2) = (alter(&v1, rng), alter(&v2, rng));
    let (p1, p2) = if rng.chance(10) { (p2, p1) } else { (p1, p2) };
    let mut case = Case::new("verify_challenge_proof", &format!("{src}/proofs"), label)
        .s("challenge", challenge)
        .s("endpoint", endpoint);
    case = if rng.chance(50) {
        case.s("proof_key", key.to_hex())
    } else {
        case.s(
            "credential_hash",
            ekl_core::digest::sha256_hex(agent_key.as_bytes()),
        )
    };
    if let Some(p) = p1 {
        case = case.s("proof", p);
    }
    if let Some(p) = p2 {
        case = case.s("proof_v2", p);
    }
    out.push(case);
}

/// One round of [`generated`]: a generated receipt: its tag and digest.
fn gen_receipts(rng: &mut Rng, out: &mut Vec<Case>, label: &str, src: &str) {
    let r = receipt_text(rng);
    let (rule, text) = match rng.below(4) {
        0 => (
            "refuse/duplicate_key",
            r.replacen(
                "{\"receipt_version\":\"1.1\"",
                "{\"receipt_version\":\"1.1\",\"status\":\"x\"",
                1,
            ),
        ),
        1 => ("refuse/no_key_id", r.replacen("\"key_id\"", "\"kid\"", 1)),
        _ => ("valid", r),
    };
    let signed = receipt::auth_tag(
        &canonical::parse(text.as_bytes()).unwrap_or(Value::Null),
        "s",
    )
    .map(|tag| format!("{},\"auth_tag\":\"{tag}\"}}", &text[..text.len() - 1]))
    .unwrap_or(text.clone());
    out.push(
        Case::new("receipt_auth_tag", &format!("{src}/{rule}"), label)
            .s("secret", random_id(rng))
            .s("input", text),
    );
    out.push(Case::new("receipt_digest", &format!("{src}/{rule}"), label).s("input", signed));
}

/// One round of [`generated`]: a generated token for `jws_verify`.
fn gen_tokens(rng: &mut Rng, out: &mut Vec<Case>, seed: u64, i: usize, label: &str) {
    out.push(token_case(rng, seed, i, label));
}

/// One round of [`generated`]: SHA-256 of random bytes.
fn gen_raw_bytes(rng: &mut Rng, out: &mut Vec<Case>, label: &str, src: &str) {
    let len = rng.below(40);
    let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
    out.push(Case::new("sha256", &format!("{src}/bytes"), label).json("input", &bytes));
}

/// One round of [`generated`]: screening with a generated rules token.
fn gen_screening(rng: &mut Rng, out: &mut Vec<Case>, label: &str, src: &str) {
    let rules = format!(
        "{{\"rules_version\":\"v{}\",\"rules\":[{{\"rule_id\":\"r1\",\"category\":\"{}\",\"phrases\":[\"{}\"]}}]}}",
        rng.below(9),
        rng.pick(&["weapons", "credential_leak", "x"]),
        rng.pick(&["pipe bomb", "ﬁxture", "ÉCOLE", ""])
    );
    let result = format!(
        "{{\"content\":[{{\"type\":\"text\",\"text\":\"{} {}\"}}]}}",
        rng.pick(&[
            "a pipe  bomb",
            "fixture",
            "école",
            "-----BEGIN OPENSSH PRIVATE KEY-----",
            "AKIA0123456789ABCDEF"
        ]),
        string_text(rng, 3).trim_matches('"')
    );
    out.push(
        Case::new("screen", &format!("{src}/scan"), label)
            .s("rules", rules)
            .s("input", result),
    );
}

/// `n` random doubles (every bit pattern of a finite double, in several spellings) as arrays of
/// up to 1000 number texts, one `canonicalize` request per array.
pub(super) fn doubles(seed: u64, n: usize) -> Vec<Case> {
    let mut rng = Rng::new(seed ^ 0xd0b1e5);
    let mut out = Vec::new();
    let mut left = n;
    while left > 0 {
        let k = left.min(1000);
        let mut text = String::from("[");
        for j in 0..k {
            if j > 0 {
                text.push(',');
            }
            let x = loop {
                let x = f64::from_bits(rng.next());
                if x.is_finite() {
                    break x;
                }
            };
            match rng.below(4) {
                0 => text.push_str(&format!("{x:e}")),
                1 => text.push_str(&number_text(&mut rng)),
                _ => text.push_str(&shortest(x)),
            }
        }
        text.push(']');
        out.push(
            Case::new(
                "canonicalize",
                "gen/doubles",
                format!("seed {seed} doubles {}", n - left),
            )
            .s("input", text),
        );
        left -= k;
    }
    out
}

fn tagged(tag: &str, v: Value<'static>) -> Value<'static> {
    Value::Object(vec![(Cow::Owned(tag.to_owned()), v)])
}

/// A random string as UTF-16 code units (BMP, astral pairs, U+2028, ...), without lone surrogates.
fn units(rng: &mut Rng) -> Vec<u16> {
    let mut out = Vec::new();
    for _ in 0..rng.below(5) {
        let c = rng.pick(&[
            'a',
            'Z',
            '0',
            '"',
            '\\',
            '\u{0}',
            '\u{1f}',
            '\u{7f}',
            'é',
            '\u{2028}',
            '\u{ff61}',
            '\u{ffff}',
            '😀',
            '𝄞',
            '\u{10ffff}',
            '\u{e000}',
        ]);
        let mut buf = [0u16; 2];
        out.extend_from_slice(c.encode_utf16(&mut buf));
    }
    out
}

fn units_value(u: &[u16]) -> Value<'static> {
    Value::Array(u.iter().map(|&c| Value::Number(f64::from(c))).collect())
}

/// A host-value description (see `canonicalize_host`); `poison` puts exactly one refusal at a
/// random leaf when it is `Some` (and sets it to `None` once placed).
fn host_desc(rng: &mut Rng, depth: usize, poison: &mut Option<&'static str>) -> Value<'static> {
    let leaf = depth == 0 || rng.chance(40);
    if leaf {
        if let Some(p) = *poison {
            if rng.chance(30) || depth == 0 {
                *poison = None;
                return match p {
                    "non_finite" => tagged(
                        "$num",
                        Value::String(Cow::Borrowed(rng.pick(&["NaN", "Infinity", "-Infinity"]))),
                    ),
                    "integer_beyond_2^53" => {
                        let n = 9007199254740993u128 + rng.below(1 << 20) as u128;
                        let n = if rng.chance(20) {
                            n * 1_000_000_000_000
                        } else {
                            n
                        };
                        let sign = if rng.chance(50) { "-" } else { "" };
                        tagged("$int", Value::String(Cow::Owned(format!("{sign}{n}"))))
                    }
                    _ => {
                        let mut u = units(rng);
                        let at = rng.below(u.len() + 1);
                        u.insert(at, rng.pick(&[0xd800u16, 0xdbff, 0xdc00, 0xdfff]));
                        if rng.chance(50) {
                            tagged("$str", units_value(&u))
                        } else {
                            tagged(
                                "$obj",
                                Value::Array(vec![Value::Array(vec![
                                    tagged("$str", units_value(&u)),
                                    Value::Null,
                                ])]),
                            )
                        }
                    }
                };
            }
        }
        return match rng.below(7) {
            0 => Value::Null,
            1 => Value::Bool(rng.chance(50)),
            2 => Value::String(Cow::Owned(String::from_utf16_lossy(&units(rng)))),
            3 => tagged("$str", units_value(&units(rng))),
            4 => {
                let n = rng.next() % (1 << 54);
                let n = n as i128 - (1 << 53);
                tagged("$int", Value::String(Cow::Owned(n.to_string())))
            }
            _ => {
                // Any finite double, integral ones beyond 2^53 included (a host double, not an integer).
                let x = loop {
                    let x = match rng.below(3) {
                        0 => f64::from_bits(rng.next()),
                        1 => (rng.below(2000) as f64 - 1000.0) / 8.0,
                        _ => rng.pick(&[
                            0.0,
                            -0.0,
                            5e-324,
                            1e21,
                            1e20,
                            1e-7,
                            0.1,
                            9007199254740992.0,
                            9007199254740994.0,
                        ]),
                    };
                    if x.is_finite() {
                        break x;
                    }
                };
                tagged("$num", Value::String(Cow::Owned(format!("{x:e}"))))
            }
        };
    }
    if rng.chance(50) {
        Value::Array(
            (0..rng.below(4) + usize::from(poison.is_some()))
                .map(|_| host_desc(rng, depth - 1, poison))
                .collect(),
        )
    } else {
        let mut keys: Vec<String> = Vec::new();
        let mut members = Vec::new();
        for _ in 0..rng.below(4) + usize::from(poison.is_some()) {
            let u = units(rng);
            let k = String::from_utf16_lossy(&u);
            if keys.contains(&k) || k == "__proto__" {
                continue;
            }
            keys.push(k.clone());
            let key = if rng.chance(50) {
                Value::String(Cow::Owned(k))
            } else {
                tagged("$str", units_value(&u))
            };
            members.push(Value::Array(vec![key, host_desc(rng, depth - 1, poison)]));
        }
        tagged("$obj", Value::Array(members))
    }
}

/// `n` host values (Python dicts and lists, JS objects and arrays built from a description by the
/// adapter), about a third of them with exactly one value that must be refused.
pub(super) fn host(seed: u64, n: usize) -> Vec<Case> {
    let mut rng = Rng::new(seed ^ 0x4057);
    (0..n)
        .map(|i| {
            let mut poison = match i % 6 {
                1 => Some("non_finite"),
                3 => Some("integer_beyond_2^53"),
                5 => Some("lone_surrogate"),
                _ => None,
            };
            let rule = poison.map_or("valid".to_owned(), |p| format!("refuse/{p}"));
            let mut desc = host_desc(&mut rng, 4, &mut poison);
            if poison.is_some() {
                // Not placed by the walk: wrap the value with the refusal beside it.
                let extra = host_desc(&mut rng, 0, &mut poison);
                desc = Value::Array(vec![desc, extra]);
            }
            Case::new(
                "canonicalize_host",
                &format!("gen/host/{rule}"),
                format!("seed {seed} host #{i}"),
            )
            .v("value", desc)
        })
        .collect()
}

fn token_case(rng: &mut Rng, seed: u64, i: usize, label: &str) -> Case {
    let seed_bytes: [u8; 32] = {
        let mut s = [0u8; 32];
        s[..8].copy_from_slice(&seed.to_le_bytes());
        s[8] = (i % 7) as u8;
        s
    };
    let (jwks, keys) = jwks_from_seed(&seed_bytes, &["k1", "k2"]).expect("seeded keys");
    let key: &SigningKey = &keys[rng.below(keys.len())];
    let typ = rng.pick(&Typ::ALL);
    let now = 1_780_000_000i64;
    let iat = now - rng.below(200) as i64;
    let exp = iat + rng.below(400) as i64;
    let claims_text = format!(
        "{{\"iss\":\"https://net.example\",\"aud\":\"ekl:agent:p1\",\"iat\":{iat},\"exp\":{exp},\"x\":{}}}",
        doc_text(rng, 2)
    );
    let claims = canonical::parse(claims_text.as_bytes()).unwrap_or(Value::Null);
    let token = jws::sign(typ, &claims, key).unwrap_or_default();
    let (rule, token, expect_typ) = match rng.below(6) {
        0 => ("tampered", tamper(rng, &token), typ),
        1 => ("other_typ", token, rng.pick(&Typ::ALL)),
        _ => ("valid", token, typ),
    };
    let mut case = Case::new("jws_verify", &format!("gen/token/{rule}"), label)
        .s("token", token)
        .s("typ", expect_typ.as_str())
        .s("jwks", jwks.to_json())
        .int("now", now + rng.below(120) as i64 - 60);
    if rng.chance(50) {
        case = case.s(
            "iss",
            rng.pick(&["https://net.example", "https://other.example"]),
        );
    }
    if rng.chance(50) {
        case = case.s("aud", rng.pick(&["ekl:agent:p1", "ekl:agent:p2"]));
    }
    case
}
