//! Loaders for `vectors/call-receipt.json`, `vectors/endpoint-proof-v2.json` and
//! `vectors/screening-scan.json`, used by `tests/vectors.rs` (one named test per case, meta-tests
//! there). The files are read with ekl-core's own parser; every check goes through the Rust API.

use std::path::Path;
use std::sync::Arc;

use ekl_core::canonical;
use ekl_core::digest::{self, Commitment, Salt};
use ekl_core::proof::{self, NetworkHolds, ProofKey, ProofVersion};
use ekl_core::receipt::{self, CallExpectation, KeyRing};
use ekl_core::verdict::Outcome;
use ekl_core::Value;

type Doc = Value<'static>;
type R = Result<(), String>;

/// A named check of one vector case.
pub(crate) type NamedCheck = (String, Box<dyn FnOnce() -> R + Send>);

/// Reads a vector file with ekl-core's parser and refuses a top level without a description or
/// with a section this runner does not know (so nothing is skipped silently).
fn load(path: &Path, known: &[&str]) -> Result<Arc<Doc>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let doc = canonical::parse(&bytes)
        .map_err(|e| format!("{} is not ekl-json-1: {e}", path.display()))?
        .into_owned();
    let members = doc.as_object().ok_or("the file is not a JSON object")?;
    if let Some((k, _)) = members.iter().find(|(k, _)| !known.contains(&k.as_ref())) {
        return Err(format!("unknown section {k:?}: add a check for it"));
    }
    match doc.get("description").and_then(Value::as_str) {
        Some(d) if !d.is_empty() => Ok(Arc::new(doc)),
        _ => Err("the file has no description".into()),
    }
}

/// A value of the file that must be there (a malformed file is a failing case, not a panic).
fn need<'v>(v: &'v Value<'static>, key: &str) -> Result<&'v Value<'static>, String> {
    v.get(key).ok_or_else(|| format!("missing member {key:?}"))
}

fn need_arr<'v>(v: &'v Value<'static>, key: &str) -> Result<&'v [Value<'static>], String> {
    need(v, key)?
        .as_array()
        .ok_or_else(|| format!("member {key:?} is not an array"))
}

fn name_of(v: &Value<'static>) -> Result<String, String> {
    need(v, "name")?
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| "case name is not a string".into())
}

fn get<'v>(v: &'v Value<'static>, key: &str) -> &'v Value<'static> {
    v.get(key)
        .unwrap_or_else(|| panic!("vector member {key} missing"))
}

fn s<'v>(v: &'v Value<'static>, key: &str) -> &'v str {
    get(v, key)
        .as_str()
        .unwrap_or_else(|| panic!("vector member {key} not a string"))
}

fn opt_s<'v>(v: &'v Value<'static>, key: &str) -> Option<&'v str> {
    v.get(key).and_then(Value::as_str)
}

fn arr<'v>(v: &'v Value<'static>, key: &str) -> &'v [Value<'static>] {
    get(v, key)
        .as_array()
        .unwrap_or_else(|| panic!("vector member {key} not an array"))
}

fn eq(what: &str, got: impl PartialEq<String> + std::fmt::Debug, want: &str) -> R {
    if got == want.to_owned() {
        Ok(())
    } else {
        Err(format!("{what}: got {got:?}, want {want:?}"))
    }
}

fn flip_hex(s: &str) -> String {
    let first = if s.starts_with('0') { '1' } else { '0' };
    format!("{first}{}", &s[1..])
}

// ------------------------------------------------------------------ call-receipt.json

fn call_of(v: &Value<'static>) -> CallExpectation {
    let o = |k: &str| opt_s(v, k).map(str::to_owned);
    CallExpectation {
        execution_id: s(v, "execution_id").to_owned(),
        collaboration_id: s(v, "collaboration_id").to_owned(),
        capability_id: s(v, "capability_id").to_owned(),
        requester_agent_id: s(v, "requester_agent_id").to_owned(),
        provider_agent_id: s(v, "provider_agent_id").to_owned(),
        capability_version: o("capability_version"),
        connection_id: o("connection_id"),
        terms_hash: o("terms_hash"),
        execution_kind: o("execution_kind"),
        reservation_id: o("reservation_id"),
        grant_id: o("grant_id"),
        admission_id: o("admission_id"),
        receipt_digest: o("receipt_digest"),
    }
}

fn own(value: &Value<'static>, salt: Option<&str>) -> Commitment {
    let salt = salt.map(|h| Salt::from_hex(h).expect("vector salt"));
    digest::commitment(value, salt.as_ref(), None).expect("own commitment")
}

fn ring_of(keys: &[Value<'static>]) -> KeyRing {
    let mut ring = KeyRing::new();
    for k in keys {
        ring.add(
            s(k, "key_id"),
            s(k, "secret"),
            s(k, "valid_from"),
            opt_s(k, "valid_until"),
        )
        .expect("vector key");
    }
    ring
}

/// Verifies one receipt and compares the verdict with `expected` {not_pass, details}.
fn expect_verdict(
    receipt_v: &Value<'static>,
    ring: &KeyRing,
    call: &CallExpectation,
    own_in: &Commitment,
    own_out: &Commitment,
    expected: &Value<'static>,
) -> R {
    let verdict = receipt::verify_receipt(receipt_v, ring, call, Some(own_in), Some(own_out))
        .map_err(|e| format!("verify_receipt refused: {e}"))?;
    let want = get(expected, "not_pass")
        .as_object()
        .expect("not_pass object");
    let got: Vec<(&str, &str)> = verdict
        .checks
        .iter()
        .filter(|c| c.outcome != Outcome::Pass)
        .map(|c| (c.name, c.outcome.as_str()))
        .collect();
    let mut got_sorted = got.clone();
    got_sorted.sort();
    let mut want_sorted: Vec<(&str, &str)> = want
        .iter()
        .map(|(k, v)| (k.as_ref(), v.as_str().expect("outcome name")))
        .collect();
    want_sorted.sort();
    if got_sorted != want_sorted {
        return Err(format!(
            "checks not passing: got {got_sorted:?}, want {want_sorted:?}"
        ));
    }
    if verdict.accepted != want.is_empty() {
        return Err(format!("accepted is {}", verdict.accepted));
    }
    let dispute = !want.is_empty() && want.iter().all(|(_, v)| v.as_str() == Some("mismatch"));
    if verdict.is_dispute() != dispute {
        return Err(format!("is_dispute is {}", verdict.is_dispute()));
    }
    for (name, why) in get(expected, "details").as_object().expect("details") {
        let detail = verdict.check(name).and_then(|c| c.detail.clone());
        eq(
            &format!("detail of {name}"),
            detail.unwrap_or_default(),
            why.as_str().expect("detail string"),
        )?;
    }
    let digest = receipt::receipt_digest(receipt_v).map_err(|e| e.to_string())?;
    if verdict.receipt_digest.as_deref() != Some(digest.as_str()) {
        return Err("verdict digest differs from receipt_digest()".into());
    }
    Ok(())
}

fn check_published(doc: &Doc) -> R {
    let secret = s(doc, "receipt_secret");
    let r = get(doc, "receipt");
    eq(
        "receipt_key",
        ekl_core::hex::encode(&receipt::receipt_key(secret, s(r, "key_id"))),
        s(doc, "receipt_key"),
    )?;
    eq(
        "auth_tag",
        receipt::auth_tag(r, secret).map_err(|e| e.to_string())?,
        s(doc, "auth_tag"),
    )?;
    let signed = receipt::sign_receipt(r, secret).map_err(|e| e.to_string())?;
    eq(
        "signed auth_tag",
        s(&signed, "auth_tag").to_owned(),
        s(doc, "auth_tag"),
    )?;
    eq(
        "receipt_digest",
        receipt::receipt_digest(&signed).map_err(|e| e.to_string())?,
        s(doc, "receipt_digest"),
    )?;
    eq(
        "input_commitment",
        own(get(doc, "input"), None).to_canonical_json(),
        &String::from_utf8(canonical::canonicalize_value(get(r, "input_commitment")).expect("c"))
            .expect("utf8"),
    )?;
    eq(
        "terms_hash",
        digest::terms_hash(get(doc, "terms")).map_err(|e| e.to_string())?,
        s(r, "terms_hash"),
    )?;
    let ring = KeyRing::baseline(secret);
    let mut call = call_of(get(doc, "call"));
    call.receipt_digest = Some(s(doc, "receipt_digest").to_owned());
    let v = receipt::verify_receipt(
        &signed,
        &ring,
        &call,
        Some(&own(get(doc, "input"), None)),
        Some(&own(get(doc, "result"), None)),
    )
    .map_err(|e| e.to_string())?;
    if !v.accepted || v.checks.len() < 20 {
        return Err(format!("published receipt not accepted: {:?}", v.checks));
    }
    Ok(())
}

fn check_ring_case(doc: &Doc, case: &Value<'static>) -> R {
    let ring_doc = get(doc, "key_ring");
    expect_verdict(
        get(case, "receipt"),
        &ring_of(arr(ring_doc, "keys")),
        &call_of(get(ring_doc, "call")),
        &own(get(doc, "input"), None),
        &own(get(doc, "result"), None),
        get(case, "expected"),
    )
}

fn check_mismatch_case(doc: &Doc, case: &Value<'static>) -> R {
    let salt = opt_s(case, "own_salt");
    let call = call_of(case.get("call").unwrap_or_else(|| get(doc, "call")));
    expect_verdict(
        get(case, "receipt"),
        &KeyRing::baseline(s(doc, "receipt_secret")),
        &call,
        &own(get(case, "own_input"), salt),
        &own(get(case, "own_result"), salt),
        get(case, "expected"),
    )
}

/// An `issue` case: `issue_mac_receipt` gives the expected receipt's bytes, or the error's code.
fn check_issue_case(_doc: &Doc, case: &Value<'static>) -> R {
    let call = CallExpectation::from_value(get(case, "call")).map_err(|e| e.to_string())?;
    let int = |k: &str| match get(case, k) {
        Value::Number(x) => Ok(*x as i64),
        _ => Err(format!("{k} is not a number")),
    };
    let got = (|| {
        let (input_salt, output_salt) = (
            Salt::from_hex(s(case, "input_salt"))?,
            Salt::from_hex(s(case, "output_salt"))?,
        );
        let answered = receipt::CallAnswered {
            call: &call,
            input: get(case, "input"),
            output: get(case, "output"),
            status: s(case, "status"),
            rel_ver_at_admission: int("rel_ver_at_admission").unwrap_or(-1),
            dsc_ver: int("dsc_ver").unwrap_or(-1),
            key_id: opt_s(case, "key_id").unwrap_or(receipt::BASELINE_KEY_ID),
            receipt_id: opt_s(case, "receipt_id"),
            issued_at: int("issued_at").unwrap_or(0),
            input_salt: &input_salt,
            output_salt: &output_salt,
        };
        receipt::issue_mac_receipt(&answered, s(case, "secret"))
    })();
    match (got, case.get("expected")) {
        (Ok(r), Some(want)) => {
            let (got, want) = (
                canonical::canonicalize_value(&r).map_err(|e| e.to_string())?,
                canonical::canonicalize_value(want).map_err(|e| e.to_string())?,
            );
            if got == want {
                Ok(())
            } else {
                Err(format!(
                    "receipt {} differs from {}",
                    String::from_utf8_lossy(&got),
                    String::from_utf8_lossy(&want)
                ))
            }
        }
        (Ok(_), None) => Err(format!("issued, expected {}", s(case, "error"))),
        (Err(e), _) => eq("code", e.code().as_str().to_owned(), s(case, "error")),
    }
}

// ------------------------------------------------------------------ endpoint-proof-v2.json

fn version_name(r: ekl_core::Result<ProofVersion>) -> String {
    match r {
        Ok(v) => v.as_str().to_owned(),
        Err(e) => e.code().as_str().to_owned(),
    }
}

fn check_proof_basics(doc: &Doc) -> R {
    let ak = s(doc, "agent_key");
    eq(
        "agent_key_sha256",
        digest::sha256_hex(ak.as_bytes()),
        s(doc, "agent_key_sha256"),
    )?;
    let pk = ProofKey::derive(ak);
    eq("proof_key", pk.to_hex(), s(doc, "proof_key"))?;
    if ProofKey::from_hex(s(doc, "proof_key")).map_err(|e| e.to_string())? != pk {
        return Err("proof_key does not round-trip".into());
    }
    Ok(())
}

fn check_challenge(doc: &Doc, c: &Value<'static>) -> R {
    let pk = ProofKey::derive(s(doc, "agent_key"));
    let (ch, ep) = (s(c, "challenge"), s(c, "endpoint"));
    eq(
        "proof",
        proof::challenge_proof_v1(s(doc, "agent_key"), ch, ep),
        s(c, "proof"),
    )?;
    eq(
        "proof_v2",
        proof::challenge_proof_v2(&pk, ch, ep),
        s(c, "proof_v2"),
    )?;
    // And both verify under the state that accepts them.
    let hash =
        NetworkHolds::credential_hash_hex(s(doc, "agent_key_sha256")).map_err(|e| e.to_string())?;
    eq(
        "verify v1",
        version_name(proof::verify_challenge_proof(
            &hash,
            ch,
            ep,
            Some(s(c, "proof")),
            None,
        )),
        "v1",
    )?;
    eq(
        "verify v2",
        version_name(proof::verify_challenge_proof(
            &NetworkHolds::ProofKey(pk),
            ch,
            ep,
            None,
            Some(s(c, "proof_v2")),
        )),
        "v2",
    )
}

fn check_enroll(doc: &Doc, e: &Value<'static>) -> R {
    let ak = s(doc, "agent_key");
    let pk = ProofKey::derive(ak);
    let (id, nonce, ep) = (s(e, "enrollment_id"), s(e, "nonce"), s(e, "endpoint"));
    eq(
        "authority_v1",
        proof::enroll_authority_v1(ak, id, nonce, ep),
        s(e, "authority_v1"),
    )?;
    eq(
        "authority_v2",
        proof::enroll_authority_v2(&pk, id, nonce, ep),
        s(e, "authority_v2"),
    )
}

fn check_verify_sig(c: &Value<'static>) -> R {
    let args = [
        s(c, "registration_secret"),
        s(c, "agent_id"),
        s(c, "enrollment_id"),
        s(c, "challenge"),
    ];
    eq(
        "signature",
        proof::verify_signature(args[0], args[1], args[2], args[3]),
        s(c, "signature"),
    )?;
    if !proof::check_verify_signature(args[0], args[1], args[2], args[3], s(c, "signature")) {
        return Err("check_verify_signature refused the vector".into());
    }
    if proof::check_verify_signature(
        args[0],
        args[1],
        args[2],
        args[3],
        &flip_hex(s(c, "signature")),
    ) {
        return Err("check_verify_signature accepted a changed signature".into());
    }
    Ok(())
}

fn check_network_downgrade(doc: &Doc, case: &Value<'static>) -> R {
    let c0 = &arr(doc, "challenges")[0];
    let holds = match s(case, "holds") {
        "proof_key" => NetworkHolds::ProofKey(ProofKey::derive(s(doc, "agent_key"))),
        "credential_hash" => NetworkHolds::credential_hash_hex(s(doc, "agent_key_sha256"))
            .map_err(|e| e.to_string())?,
        other => return Err(format!("unknown holds {other}")),
    };
    eq(
        "outcome",
        version_name(proof::verify_challenge_proof(
            &holds,
            s(c0, "challenge"),
            s(c0, "endpoint"),
            opt_s(case, "proof"),
            opt_s(case, "proof_v2"),
        )),
        s(case, "expected"),
    )
}

fn check_agent_downgrade(doc: &Doc, case: &Value<'static>) -> R {
    let e0 = &arr(doc, "enroll")[0];
    let announced = ProofVersion::from_name(s(case, "announced")).map_err(|e| e.to_string())?;
    let version = get(case, "authority_version").as_f64().map(|x| x as u32);
    eq(
        "outcome",
        version_name(proof::verify_enroll_authority(
            announced,
            s(doc, "agent_key"),
            s(e0, "enrollment_id"),
            s(e0, "nonce"),
            s(e0, "endpoint"),
            opt_s(case, "authority"),
            version,
        )),
        s(case, "expected"),
    )
}

// ------------------------------------------------------------------ loaders

/// One check per case of a list: `f(doc, index)`.
fn per_case(
    doc: &Arc<Doc>,
    list: &[Value<'static>],
    prefix: &str,
    f: fn(&Doc, &Value<'static>) -> R,
    pick: fn(&Doc) -> &[Value<'static>],
) -> Result<Vec<NamedCheck>, String> {
    let mut out: Vec<NamedCheck> = Vec::new();
    for (i, case) in list.iter().enumerate() {
        let doc = Arc::clone(doc);
        out.push((
            format!("{prefix}::{}", name_of(case)?),
            Box::new(move || f(&doc, &pick(&doc)[i])),
        ));
    }
    Ok(out)
}

/// `vectors/call-receipt.json`: the published receipt, the key ring, the mismatch and issue cases.
pub(crate) fn call_receipt(path: &Path) -> Result<Vec<NamedCheck>, String> {
    let doc = load(
        path,
        &[
            "description",
            "receipt_secret",
            "receipt",
            "auth_tag",
            "receipt_digest",
            "receipt_key",
            "input",
            "result",
            "terms",
            "call",
            "key_ring",
            "mismatch",
            "issue",
        ],
    )?;
    let mut out: Vec<NamedCheck> = Vec::new();
    let d = Arc::clone(&doc);
    out.push(("published".into(), Box::new(move || check_published(&d))));
    out.extend(per_case(
        &doc,
        need_arr(need(&doc, "key_ring")?, "cases")?,
        "key_ring",
        check_ring_case,
        |d| arr(get(d, "key_ring"), "cases"),
    )?);
    out.extend(per_case(
        &doc,
        need_arr(need(&doc, "mismatch")?, "cases")?,
        "mismatch",
        check_mismatch_case,
        |d| arr(get(d, "mismatch"), "cases"),
    )?);
    out.extend(per_case(
        &doc,
        need_arr(need(&doc, "issue")?, "cases")?,
        "issue",
        check_issue_case,
        |d| arr(get(d, "issue"), "cases"),
    )?);
    Ok(out)
}

/// `vectors/endpoint-proof-v2.json`: keys, challenges, enrollment, `ekl_verify`, downgrades.
pub(crate) fn endpoint_proof_v2(path: &Path) -> Result<Vec<NamedCheck>, String> {
    let doc = load(
        path,
        &[
            "description",
            "agent_key",
            "agent_key_sha256",
            "proof_key",
            "challenges",
            "enroll",
            "verify_signature",
            "downgrade",
        ],
    )?;
    let mut out: Vec<NamedCheck> = Vec::new();
    let d = Arc::clone(&doc);
    out.push(("keys".into(), Box::new(move || check_proof_basics(&d))));
    out.extend(per_case(
        &doc,
        need_arr(&doc, "challenges")?,
        "challenges",
        check_challenge,
        |d| arr(d, "challenges"),
    )?);
    out.extend(per_case(
        &doc,
        need_arr(&doc, "enroll")?,
        "enroll",
        check_enroll,
        |d| arr(d, "enroll"),
    )?);
    out.extend(per_case(
        &doc,
        need_arr(&doc, "verify_signature")?,
        "verify_signature",
        |_, c| check_verify_sig(c),
        |d| arr(d, "verify_signature"),
    )?);
    let downgrade = need(&doc, "downgrade")?;
    out.extend(per_case(
        &doc,
        need_arr(downgrade, "network")?,
        "downgrade::network",
        check_network_downgrade,
        |d| arr(get(d, "downgrade"), "network"),
    )?);
    out.extend(per_case(
        &doc,
        need_arr(downgrade, "agent")?,
        "downgrade::agent",
        check_agent_downgrade,
        |d| arr(get(d, "downgrade"), "agent"),
    )?);
    Ok(out)
}
