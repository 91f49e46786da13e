//! Call receipts with a MAC, profile ekl-evidence-mac-1.1 (PROTOCOL §9.5; service-tools page
//! "Receipts"; implementers' guide §3; SPEC §6).
//!
//! * Receipt key = HMAC-SHA256(key = receipt secret as UTF-8, `"ekl-receipt-1.1"` ‖ 0x00 ‖ key_id)
//!   ([`receipt_key`]). The baseline secret is the registration secret with key_id `rk-1`.
//! * `auth_tag` = lowercase hex HMAC-SHA256(receipt key, ekl-json-1 of every other member)
//!   ([`auth_tag`], [`sign_receipt`]).
//! * `receipt_digest` = SHA-256 hex of ekl-json-1 of the whole receipt, tag included
//!   ([`receipt_digest`]).
//! * Verification ([`verify_receipt`]) chooses the key by `key_id` and `issued_at` from a
//!   [`KeyRing`] (a key is valid from `valid_from` inclusive to `valid_until` exclusive, and keeps
//!   verifying receipts issued inside that window after it was retired), compares the tag in
//!   constant time, checks the required members per `execution_kind`, every reference against the
//!   call the consumer made, and the consumer's own input/output commitments against the receipt's.
//!   It returns a [`Verdict`] naming each check; only input that cannot be a receipt at all (not an
//!   object, duplicate keys, values outside ekl-json-1) is an error.
//!
//! Check names, in the order they appear in a verdict: `key_id`, `auth_tag`, `receipt_version`,
//! `auth_profile`, `execution_kind`, `required_fields`, `kind_fields`, `status`, `issued_at`; the
//! references `execution_id`, `collaboration_id`, `capability_id`, `requester_agent_id`,
//! `provider_agent_id` (always), then `capability_version`, `connection_id`, `terms_hash`,
//! `reservation_id`, `grant_id`, `admission_id` (each only when the call names a value for it);
//! then `input_commitment`, `output_commitment` (only when the consumer passes its own) and
//! `receipt_digest` (only when the caller passes an expected digest).
//!
//! ```
//! use ekl_core::{canonical, digest, receipt::{self, CallExpectation, KeyRing}, verdict::Outcome};
//! let input = canonical::parse(br#"{"q": "ping"}"#).unwrap();
//! let result = canonical::parse(br#"{"a": "pong"}"#).unwrap();
//! let (ci, co) = (digest::commitment(&input, None, None).unwrap(),
//!                 digest::commitment(&result, None, None).unwrap());
//! let text = format!(r#"{{"receipt_version":"1.1","receipt_id":"r1","execution_kind":"customer",
//!   "requester_agent_id":"agt_c","provider_agent_id":"agt_p","collaboration_id":"col_1",
//!   "connection_id":"con_1","execution_id":"ex_1","capability_id":"cap_x","capability_version":"1.0.0",
//!   "rel_ver_at_admission":1,"dsc_ver":1,"terms_hash":"t","reservation_id":"rsv","grant_id":"grt",
//!   "admission_id":"adm","input_commitment":{},"output_commitment":{},"status":"succeeded",
//!   "issued_at":"2026-11-29T18:40:05Z","key_id":"rk-1","auth_profile":"ekl-evidence-mac-1.1"}}"#,
//!   ci.to_canonical_json(), co.to_canonical_json());
//! // The provider signs with its registration secret (key id rk-1) ...
//! let signed = receipt::sign_receipt(&canonical::parse(text.as_bytes()).unwrap(), "secret").unwrap();
//! // ... and the consumer checks it against the call it made and what it sent and received.
//! let call = CallExpectation {
//!     execution_id: "ex_1".into(), collaboration_id: "col_1".into(), capability_id: "cap_x".into(),
//!     requester_agent_id: "agt_c".into(), provider_agent_id: "agt_p".into(),
//!     ..CallExpectation::default()
//! };
//! let ring = KeyRing::baseline("secret").unwrap();
//! let verdict = receipt::verify_receipt(&signed, &ring, &call, Some(&ci), Some(&co)).unwrap();
//! assert!(verdict.accepted);
//! // Another result than the one committed to is a dispute, not an error.
//! let other = digest::commitment(&canonical::parse(b"{}").unwrap(), None, None).unwrap();
//! let verdict = receipt::verify_receipt(&signed, &ring, &call, Some(&ci), Some(&other)).unwrap();
//! assert_eq!(verdict.outcome("output_commitment"), Some(Outcome::Mismatch));
//! assert!(verdict.is_dispute());
//! ```

use std::borrow::Cow;

use crate::canonical;
#[cfg(feature = "signing")]
use crate::digest::Salt;
use crate::digest::{sha256_hex, Commitment};
use crate::error::{Error, ErrorCode, Result};
use crate::hex;
use crate::mac::{ct_eq, hex_mac_matches, hmac_sha256};
use crate::timestamp::Timestamp;
use crate::value::{Value, MAX_SAFE_INTEGER_BOUND};
use crate::verdict::{json_shown, str_shown, utc_of_seconds, Check, Outcome, Verdict};
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

/// The receipt format this module implements (`receipt_version`).
pub const RECEIPT_VERSION: &str = "1.1";

/// The evidence profile a MAC receipt names in `auth_profile` (PROTOCOL §0, §9.5).
pub const AUTH_PROFILE: &str = "ekl-evidence-mac-1.1";

/// The context string of the receipt key: it names the receipt format, not the protocol version
/// (guide §3), so it stays `ekl-receipt-1.1` in EKP 1.2.
pub const KEY_CONTEXT: &str = "ekl-receipt-1.1";

/// The baseline key id (the registration secret as receipt secret, §9.5).
pub const BASELINE_KEY_ID: &str = "rk-1";

/// The execution kinds of §9.5.
pub const EXECUTION_KINDS: [&str; 3] = ["customer", "trial", "validation"];

/// The members a customer receipt must carry and a trial or validation receipt must not (§9.5).
pub const CUSTOMER_FIELDS: [&str; 3] = ["reservation_id", "grant_id", "admission_id"];

/// The execution statuses a receipt may report (§4, capability result `status`).
pub const STATUSES: [&str; 6] = [
    "accepted",
    "running",
    "succeeded",
    "failed_before_effect",
    "cancelled",
    "outcome_unknown",
];

/// Members every receipt carries as strings (§9.5), whatever its kind.
const STRING_FIELDS: [&str; 16] = [
    "receipt_version",
    "receipt_id",
    "execution_kind",
    "requester_agent_id",
    "provider_agent_id",
    "collaboration_id",
    "connection_id",
    "execution_id",
    "capability_id",
    "capability_version",
    "terms_hash",
    "status",
    "issued_at",
    "key_id",
    "auth_profile",
    "auth_tag",
];

/// Members every receipt carries as non-negative integers (§2.4: relationships and descriptors carry
/// integer versions).
const INTEGER_FIELDS: [&str; 2] = ["rel_ver_at_admission", "dsc_ver"];

/// Members every receipt carries as commitment objects.
const COMMITMENT_FIELDS: [&str; 2] = ["input_commitment", "output_commitment"];

/// The receipt key: HMAC-SHA256(secret as UTF-8, `"ekl-receipt-1.1"` ‖ 0x00 ‖ key_id).
///
/// An empty secret or key id is `INVALID_ARGUMENT`: a receipt MAC'd under the empty secret is
/// one anyone can make, and no key ring holds an empty key id (docs/decisions/edges.md#empty).
pub fn receipt_key(secret: &str, key_id: &str) -> Result<[u8; 32]> {
    crate::shape::non_empty(secret, "the receipt secret")?;
    crate::shape::non_empty(key_id, "key_id")?;
    Ok(hmac_sha256(
        secret.as_bytes(),
        &[KEY_CONTEXT.as_bytes(), &[0u8], key_id.as_bytes()],
    ))
}

fn invalid_receipt(message: &str) -> Error {
    Error::new(ErrorCode::InvalidReceipt, message)
}

fn members<'v, 'a>(receipt: &'v Value<'a>) -> Result<&'v [(Cow<'a, str>, Value<'a>)]> {
    receipt
        .as_object()
        .ok_or_else(|| invalid_receipt("a receipt must be a JSON object"))
}

/// The ekl-json-1 bytes of the receipt without its `auth_tag` member. Refuses a receipt that is not
/// an object (`INVALID_RECEIPT`), that holds `auth_tag` twice or any other duplicate
/// (`DUPLICATE_KEY`), or values outside ekl-json-1.
fn tagged_bytes(receipt: &Value<'_>) -> Result<Vec<u8>> {
    let m = members(receipt)?;
    if m.iter().filter(|(k, _)| k == "auth_tag").count() > 1 {
        return Err(Error::new(
            ErrorCode::DuplicateKey,
            "duplicate key auth_tag",
        ));
    }
    let without: Vec<(Cow<'_, str>, Value<'_>)> = m
        .iter()
        .filter(|(k, _)| k != "auth_tag")
        .map(|(k, v)| (Cow::Borrowed(k.as_ref()), v.clone()))
        .collect();
    canonical::canonicalize_value(&Value::Object(without))
}

fn tag_with_key(receipt: &Value<'_>, key: &[u8; 32]) -> Result<[u8; 32]> {
    Ok(hmac_sha256(key, &[&tagged_bytes(receipt)?]))
}

fn key_id_of<'v>(receipt: &'v Value<'_>) -> Result<&'v str> {
    receipt
        .get("key_id")
        .and_then(Value::as_str)
        .ok_or_else(|| invalid_receipt("a receipt needs key_id as a string"))
}

/// The `auth_tag` of a receipt: lowercase hex HMAC-SHA256(receipt key, ekl-json-1 of every member
/// other than `auth_tag`). The key id is read from the receipt's `key_id`; an `auth_tag` member, if
/// present, is left out, so this is also the tag a signed receipt should carry.
///
/// Refused: not an object or no string `key_id` (`INVALID_RECEIPT`), duplicate keys, values
/// outside ekl-json-1.
pub fn auth_tag(receipt: &Value<'_>, secret: &str) -> Result<String> {
    let key_id = key_id_of(receipt)?;
    if key_id.is_empty() {
        return Err(invalid_receipt("key_id: empty"));
    }
    let key = Zeroizing::new(receipt_key(secret, key_id)?);
    Ok(hex::encode(&tag_with_key(receipt, &key)?))
}

/// The receipt digest: SHA-256 hex of ekl-json-1 of the whole receipt, `auth_tag` included
/// (what `collaboration_report` and `abuse_report` carry as `receipt_digest`).
pub fn receipt_digest(receipt: &Value<'_>) -> Result<String> {
    members(receipt)?;
    Ok(sha256_hex(&canonical::canonicalize_value(receipt)?))
}

/// Signs a receipt: returns a copy with `auth_tag` appended. A receipt that already has an
/// `auth_tag` is refused (`INVALID_RECEIPT`) rather than re-tagged, so a provider never silently
/// replaces a tag it already issued; otherwise the refusals of [`auth_tag`], then every check of
/// the receipt's own form that [`verify_receipt`] makes (version, profile, kind, required and
/// per-kind members, status, `issued_at`, the commitments' form): `INVALID_RECEIPT` naming the
/// check, `INVALID_TIMESTAMP` for an `issued_at` that is not RFC 3339 UTC. A receipt whose
/// ekl-json-1 text does not read back (an integer-valued number beyond 2^53 and below 10^21) is
/// refused with the parser's code, `INTEGER_OUT_OF_RANGE`. A receipt this
/// function signs is accepted by [`verify_receipt`] with a key ring holding the secret under its
/// `key_id` at `issued_at`, the call it names and the commitments it carries.
#[cfg(feature = "signing")]
pub fn sign_receipt(receipt: &Value<'_>, secret: &str) -> Result<Value<'static>> {
    let m = members(receipt)?;
    if m.iter().any(|(k, _)| k == "auth_tag") {
        return Err(invalid_receipt("the receipt already has an auth_tag"));
    }
    let tag = auth_tag(receipt, secret)?;
    let mut out: Vec<(Cow<'static, str>, Value<'static>)> = m
        .iter()
        .map(|(k, v)| (Cow::Owned(k.to_string()), v.clone().into_owned()))
        .collect();
    out.push((Cow::Borrowed("auth_tag"), Value::from(tag)));
    let signed = Value::Object(out);
    // What is handed out must read back as ekl-json-1 text (the form receipts travel in: an
    // integer-valued number beyond 2^53 is written as an integer literal that is then refused),
    // and pass the verifier's own form checks.
    canonical::parse(&canonical::canonicalize_value(&signed)?)?;
    check_form(&signed)?;
    Ok(signed)
}

/// One key of a [`KeyRing`]: its id, the receipt key derived from its secret, and its validity
/// window `[valid_from, valid_until)`. The receipt key is wiped when the entry is dropped.
#[derive(Clone)]
pub struct KeyEntry {
    key_id: String,
    key: [u8; 32],
    valid_from: Timestamp,
    valid_until: Option<Timestamp>,
}

impl Drop for KeyEntry {
    fn drop(&mut self) {
        self.key.zeroize();
    }
}

impl ZeroizeOnDrop for KeyEntry {}

impl KeyEntry {
    /// The key id.
    pub fn key_id(&self) -> &str {
        &self.key_id
    }

    /// The first instant the key is valid (inclusive).
    pub fn valid_from(&self) -> Timestamp {
        self.valid_from
    }

    /// The first instant the key is no longer valid (exclusive), if it was retired.
    pub fn valid_until(&self) -> Option<Timestamp> {
        self.valid_until
    }

    /// Whether a receipt issued at `t` may be verified with this key.
    pub fn valid_at(&self, t: Timestamp) -> bool {
        self.valid_from <= t && self.valid_until.is_none_or(|u| t < u)
    }
}

impl core::fmt::Debug for KeyEntry {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("KeyEntry")
            .field("key_id", &self.key_id)
            .field("key", &"..")
            .field("valid_from", &self.valid_from)
            .field("valid_until", &self.valid_until)
            .finish()
    }
}

/// Which key verifies a receipt: chosen by `key_id`, then checked against `issued_at`.
#[derive(Clone, Copy, Debug)]
pub enum KeySelection<'r> {
    /// The key with that id, valid at `issued_at`.
    Found(&'r KeyEntry),
    /// No key with that id: fetch or configure it.
    UnknownKeyId,
    /// A key with that id exists but was not valid at `issued_at`.
    NotValidAt,
}

/// The receipt keys a verifier holds: key_id → secret with its validity window (§9.5: "rotation
/// adds a key and retires the old one, which keeps verifying receipts issued while it was valid").
/// Key ids are unique. Only the derived receipt keys are stored, never the secrets.
#[derive(Clone, Debug, Default)]
pub struct KeyRing {
    entries: Vec<KeyEntry>,
}

impl KeyRing {
    /// An empty key ring.
    pub fn new() -> KeyRing {
        KeyRing::default()
    }

    /// The baseline ring: the registration secret as `rk-1`, valid from 0000-01-01T00:00:00Z on.
    /// An empty secret is `INVALID_ARGUMENT` (as in [`receipt_key`]).
    pub fn baseline(registration_secret: &str) -> Result<KeyRing> {
        let mut ring = KeyRing::new();
        ring.entries.push(KeyEntry {
            key_id: BASELINE_KEY_ID.to_owned(),
            key: receipt_key(registration_secret, BASELINE_KEY_ID)?,
            valid_from: Timestamp::parse("0000-01-01T00:00:00Z")?,
            valid_until: None,
        });
        Ok(ring)
    }

    /// Adds a key valid from `valid_from` (inclusive) until `valid_until` (exclusive; `None` while
    /// it is current). Timestamps are RFC 3339 UTC (`INVALID_TIMESTAMP`); an empty or repeated key
    /// id, an empty secret, or a window that ends before it starts, is `INVALID_ARGUMENT`.
    pub fn add(
        &mut self,
        key_id: &str,
        secret: &str,
        valid_from: &str,
        valid_until: Option<&str>,
    ) -> Result<()> {
        if key_id.is_empty() {
            return Err(Error::new(ErrorCode::InvalidArgument, "empty key_id"));
        }
        let key = receipt_key(secret, key_id)?;
        if self.entries.iter().any(|e| e.key_id == key_id) {
            return Err(Error::new(
                ErrorCode::InvalidArgument,
                "key_id already in the key ring",
            ));
        }
        let from = Timestamp::parse(valid_from)?;
        let until = valid_until.map(Timestamp::parse).transpose()?;
        if until.is_some_and(|u| u <= from) {
            return Err(Error::new(
                ErrorCode::InvalidArgument,
                "valid_until must be after valid_from",
            ));
        }
        self.entries.push(KeyEntry {
            key_id: key_id.to_owned(),
            key,
            valid_from: from,
            valid_until: until,
        });
        Ok(())
    }

    /// A key ring from its JSON form (docs/decisions.md#shapes): a string is the registration
    /// secret (the baseline ring, [`KeyRing::baseline`]); otherwise a non-empty array of keys
    /// `{"key_id", "secret", "valid_from", "valid_until"?}` (unknown members refused).
    pub fn from_value(v: &Value<'_>) -> Result<KeyRing> {
        use crate::shape::{invalid, members, opt_str, req_str};
        if let Some(secret) = v.as_str() {
            return KeyRing::baseline(secret);
        }
        let list = v.as_array().filter(|l| !l.is_empty()).ok_or_else(|| {
            invalid(
                "the key ring must be the registration secret (a string) or a non-empty list of \
                 keys {key_id, secret, valid_from, valid_until?}"
                    .into(),
            )
        })?;
        let mut ring = KeyRing::new();
        for k in list {
            members(k, "key", &["key_id", "secret", "valid_from", "valid_until"])?;
            ring.add(
                req_str(k, "key_id", "key")?,
                req_str(k, "secret", "key")?,
                req_str(k, "valid_from", "key")?,
                opt_str(k, "valid_until", "key")?,
            )?;
        }
        Ok(ring)
    }

    /// The keys, in the order they were added.
    pub fn entries(&self) -> &[KeyEntry] {
        &self.entries
    }

    /// The key for a receipt with `key_id` issued at `issued_at`.
    pub fn select(&self, key_id: &str, issued_at: Timestamp) -> KeySelection<'_> {
        match self.entries.iter().find(|e| e.key_id == key_id) {
            None => KeySelection::UnknownKeyId,
            Some(e) if e.valid_at(issued_at) => KeySelection::Found(e),
            Some(_) => KeySelection::NotValidAt,
        }
    }
}

/// What the consumer knows about the call a receipt must belong to. The first six members are
/// always compared; each optional one only when it is `Some`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CallExpectation {
    /// The `execution_id` the consumer sent.
    pub execution_id: String,
    /// The collaboration the call belongs to.
    pub collaboration_id: String,
    /// The capability called.
    pub capability_id: String,
    /// The requester: the consumer's own agent id.
    pub requester_agent_id: String,
    /// The provider called.
    pub provider_agent_id: String,
    /// The capability version, when the consumer pins it.
    pub capability_version: Option<String>,
    /// The connection, when known.
    pub connection_id: Option<String>,
    /// The terms hash the consumer sent.
    pub terms_hash: Option<String>,
    /// The execution kind the consumer expects (`customer` for its own calls).
    pub execution_kind: Option<String>,
    /// The reservation of a paid call (from `execution_reserve`).
    pub reservation_id: Option<String>,
    /// The execution grant's id of a paid call.
    pub grant_id: Option<String>,
    /// The admission id, when the consumer learnt it.
    pub admission_id: Option<String>,
    /// A receipt digest to compare with (e.g. the one a requester acknowledged).
    pub receipt_digest: Option<String>,
}

impl CallExpectation {
    /// The required members of the JSON form.
    pub const REQUIRED: [&'static str; 5] = [
        "execution_id",
        "collaboration_id",
        "capability_id",
        "requester_agent_id",
        "provider_agent_id",
    ];
    /// The optional members of the JSON form (checked when given).
    pub const OPTIONAL: [&'static str; 8] = [
        "capability_version",
        "connection_id",
        "terms_hash",
        "execution_kind",
        "reservation_id",
        "grant_id",
        "admission_id",
        "receipt_digest",
    ];

    /// The call from its JSON object, in wire names (docs/decisions.md#shapes): the five
    /// required ids, the optional ones when present and not `null`; an unknown member, or an
    /// empty string for any of them, is `INVALID_ARGUMENT` naming it (and the allowed ones).
    pub fn from_value(v: &Value<'_>) -> Result<CallExpectation> {
        use crate::shape::{members, opt_id as opt_str, req_id as req_str};
        let allowed: Vec<&str> = Self::REQUIRED
            .iter()
            .chain(&Self::OPTIONAL)
            .copied()
            .collect();
        members(v, "call", &allowed)?;
        let req = |k: &str| req_str(v, k, "call").map(str::to_owned);
        let opt = |k: &str| opt_str(v, k, "call").map(|s| s.map(str::to_owned));
        Ok(CallExpectation {
            execution_id: req("execution_id")?,
            collaboration_id: req("collaboration_id")?,
            capability_id: req("capability_id")?,
            requester_agent_id: req("requester_agent_id")?,
            provider_agent_id: req("provider_agent_id")?,
            capability_version: opt("capability_version")?,
            connection_id: opt("connection_id")?,
            terms_hash: opt("terms_hash")?,
            execution_kind: opt("execution_kind")?,
            reservation_id: opt("reservation_id")?,
            grant_id: opt("grant_id")?,
            admission_id: opt("admission_id")?,
            receipt_digest: opt("receipt_digest")?,
        })
    }
}

/// The detail of a commitment whose form is wrong (verifier and signer).
const NOT_A_COMMITMENT: &str = "not a sha-256 ekl-json-1 commitment";

/// The digest and salt of a commitment of the form §9.5 gives (`alg` `sha-256`, `canon`
/// `ekl-json-1`, `digest` and an optional `salt` of 64 lowercase hex, an optional non-empty
/// string `salt_id`), or `None`.
fn commitment_form<'v>(receipt_side: &'v Value<'_>) -> Option<(&'v str, Option<&'v str>)> {
    let alg = receipt_side.get("alg").and_then(Value::as_str);
    let canon = receipt_side.get("canon").and_then(Value::as_str);
    let digest = receipt_side.get("digest").and_then(Value::as_str);
    let salt = receipt_side.get("salt");
    let salt_id = receipt_side.get("salt_id");
    let hex64 = |s: &str| hex::decode_fixed::<32>(s, ErrorCode::InvalidHex, "digest").is_ok();
    let (Some("sha-256"), Some("ekl-json-1"), Some(digest)) = (alg, canon, digest) else {
        return None;
    };
    if !hex64(digest) {
        return None;
    }
    let salt = match salt {
        None => None,
        Some(Value::String(s)) if hex64(s) => Some(s.as_ref()),
        Some(_) => return None,
    };
    if !matches!(salt_id, None | Some(Value::String(_)))
        || salt_id.and_then(Value::as_str) == Some("")
    {
        return None;
    }
    Some((digest, salt))
}

fn commitment_matches(
    receipt_side: &Value<'_>,
    own: &Commitment,
) -> core::result::Result<bool, ()> {
    let (digest, salt) = commitment_form(receipt_side).ok_or(())?;
    Ok(digest == own.digest && salt == own.salt.as_deref())
}

fn str_field<'v>(receipt: &'v Value<'_>, name: &str) -> Option<&'v str> {
    receipt.get(name).and_then(Value::as_str)
}

/// An instant as RFC 3339 UTC text (the fraction only when it is not zero).
fn time_shown(t: Timestamp) -> String {
    let Some(utc) = utc_of_seconds(t.unix_seconds()) else {
        return format!("{} s since the epoch", t.unix_seconds());
    };
    if t.nanos() == 0 {
        return utc;
    }
    let fraction = format!("{:09}", t.nanos());
    format!(
        "{}.{}Z",
        utc.trim_end_matches('Z'),
        fraction.trim_end_matches('0')
    )
}

/// A key's id and validity window as a display text: `"rk-1" valid from X until Y`.
fn key_shown(e: &KeyEntry) -> String {
    match e.valid_until {
        Some(u) => format!(
            "{} valid from {} until {}",
            str_shown(&e.key_id),
            time_shown(e.valid_from),
            time_shown(u)
        ),
        None => format!(
            "{} valid from {}",
            str_shown(&e.key_id),
            time_shown(e.valid_from)
        ),
    }
}

/// The member `name` of the receipt as a display text (`None` when absent).
fn member_shown(receipt: &Value<'_>, name: &str) -> Option<String> {
    receipt.get(name).map(json_shown)
}

/// The `auth_tag` failure's detail. A MAC cannot tell its two causes apart, so it names both and
/// the key the tag was checked under (its id, never the key or its secret).
fn tag_mismatch_detail(key_id: &str) -> String {
    format!(
        "does not verify under key_id {}: the receipt changed after it was tagged, or it was \
         tagged under another secret",
        str_shown(key_id)
    )
}

/// A commitment as a display text: `digest <hex> (salted)`; never the salt itself.
fn commitment_shown(digest: Option<&str>, salted: bool) -> String {
    let salt = if salted { " (salted)" } else { "" };
    match digest {
        Some(d) => format!("digest {d}{salt}"),
        None => format!("no digest{salt}"),
    }
}

/// A list of names as a display text: `a, b, c` (`none` when empty).
fn names_shown(names: &[&str]) -> String {
    if names.is_empty() {
        "none".to_owned()
    } else {
        names.join(", ")
    }
}

fn is_non_negative_integer(v: &Value<'_>) -> bool {
    matches!(v, Value::Number(x) if x.fract() == 0.0 && *x >= 0.0 && *x <= MAX_SAFE_INTEGER_BOUND as f64)
}

/// The checks of a receipt's own form (§9.5), in verdict order: `receipt_version`,
/// `auth_profile`, `execution_kind` (one of the three kinds; the verifier then compares it with
/// the call), `required_fields`, `kind_fields`, `status`, `issued_at` (`issued` is its parse, when
/// it is a string). Written once: [`verify_receipt`] reports them, [`sign_receipt`] refuses a
/// receipt that fails any of them.
fn form_checks(receipt: &Value<'_>, issued: Option<&Result<Timestamp>>) -> Vec<Check> {
    let mut checks = Vec::with_capacity(7);
    checks.push(
        match str_field(receipt, "receipt_version") {
            Some(RECEIPT_VERSION) => Check::pass("receipt_version"),
            _ => Check::fail("receipt_version", "must be the string 1.1"),
        }
        .with_values(
            Some(str_shown(RECEIPT_VERSION)),
            member_shown(receipt, "receipt_version"),
        ),
    );
    checks.push(
        match str_field(receipt, "auth_profile") {
            Some(AUTH_PROFILE) => Check::pass("auth_profile"),
            _ => Check::fail("auth_profile", "must be ekl-evidence-mac-1.1"),
        }
        .with_values(
            Some(str_shown(AUTH_PROFILE)),
            member_shown(receipt, "auth_profile"),
        ),
    );
    let kind = str_field(receipt, "execution_kind").filter(|k| EXECUTION_KINDS.contains(k));
    let kinds: Vec<String> = EXECUTION_KINDS.iter().map(|k| str_shown(k)).collect();
    checks.push(
        match kind {
            None => Check::fail("execution_kind", "must be customer, trial or validation"),
            Some(_) => Check::pass("execution_kind"),
        }
        .with_values(
            Some(format!("one of {}", kinds.join(", "))),
            member_shown(receipt, "execution_kind"),
        ),
    );
    checks.push(required_fields(receipt));
    checks.push(kind_fields(receipt, kind));
    checks.push(
        match str_field(receipt, "status") {
            Some(s) if STATUSES.contains(&s) => Check::pass("status"),
            _ => Check::fail("status", "not an execution status"),
        }
        .with_values(
            Some(format!("one of {}", STATUSES.map(str_shown).join(", "))),
            member_shown(receipt, "status"),
        ),
    );
    checks.push(
        match issued {
            Some(Ok(_)) => Check::pass("issued_at"),
            Some(Err(_)) => Check::fail("issued_at", "not RFC 3339 UTC (YYYY-MM-DDTHH:MM:SS[.f]Z)"),
            None => Check::fail("issued_at", "missing or not a string"),
        }
        .with_values(
            Some("RFC 3339 UTC, YYYY-MM-DDTHH:MM:SS[.f]Z".to_owned()),
            member_shown(receipt, "issued_at"),
        ),
    );
    checks
}

/// The `required_fields` check of [`form_checks`]: the string, integer and commitment members
/// of §9.5, each present and of its type, the strings not empty.
fn required_fields(receipt: &Value<'_>) -> Check {
    let mut bad: Vec<&str> = Vec::new();
    let mut empty: Vec<&str> = Vec::new();
    for name in STRING_FIELDS {
        match receipt.get(name) {
            Some(Value::String(s)) if s.is_empty() => empty.push(name),
            Some(Value::String(_)) => {}
            _ => bad.push(name),
        }
    }
    for name in INTEGER_FIELDS {
        if !receipt.get(name).is_some_and(is_non_negative_integer) {
            bad.push(name);
        }
    }
    for name in COMMITMENT_FIELDS {
        if !matches!(receipt.get(name), Some(Value::Object(_))) {
            bad.push(name);
        }
    }
    // An empty string names nothing: a receipt id, key id or execution id that is empty is
    // refused like a missing one (docs/decisions/edges.md#empty).
    let mut problems = Vec::new();
    if !bad.is_empty() {
        problems.push(format!("missing or of the wrong type: {}", bad.join(", ")));
    }
    if !empty.is_empty() {
        problems.push(format!("empty: {}", empty.join(", ")));
    }
    let mut received = format!("missing or of the wrong type: {}", names_shown(&bad));
    if !empty.is_empty() {
        received.push_str(&format!("; empty: {}", names_shown(&empty)));
    }
    if problems.is_empty() {
        Check::pass("required_fields")
    } else {
        Check::fail("required_fields", problems.join("; "))
    }
    .with_values(
        Some(format!(
            "{} non-empty strings, {} integers, {} commitment objects",
            STRING_FIELDS.len(),
            INTEGER_FIELDS.len(),
            COMMITMENT_FIELDS.len()
        )),
        Some(received),
    )
}

/// The `kind_fields` check of [`form_checks`]: a customer receipt carries the customer fields
/// (non-empty strings), a trial or validation receipt none of them; `kind`: the valid
/// `execution_kind`, if any.
fn kind_fields(receipt: &Value<'_>, kind: Option<&str>) -> Check {
    let present: Vec<&str> = CUSTOMER_FIELDS
        .into_iter()
        .filter(|f| receipt.get(f).is_some())
        .collect();
    let kind_expected = match kind {
        None => None,
        Some("customer") => Some(format!(
            "non-empty strings: {}",
            names_shown(&CUSTOMER_FIELDS)
        )),
        Some(_) => Some(format!("absent: {}", names_shown(&CUSTOMER_FIELDS))),
    };
    let kind_received = Some(format!("present: {}", names_shown(&present)));
    match kind {
        None => Check::fail("kind_fields", "no valid execution_kind").blocked_by("execution_kind"),
        Some("customer") => {
            let missing: Vec<&str> = CUSTOMER_FIELDS
                .into_iter()
                .filter(|f| str_field(receipt, f).is_none_or(|s| s.is_empty()))
                .collect();
            if missing.is_empty() {
                Check::pass("kind_fields")
            } else {
                Check::fail(
                    "kind_fields",
                    format!("a customer receipt needs {}", missing.join(", ")),
                )
            }
        }
        Some(_) => {
            if present.is_empty() {
                Check::pass("kind_fields")
            } else {
                Check::fail(
                    "kind_fields",
                    format!(
                        "a trial or validation receipt must not carry {}",
                        present.join(", ")
                    ),
                )
            }
        }
    }
    .with_values(kind_expected, kind_received)
}

/// The refusal of [`sign_receipt`] for a receipt its verifier would fail on its form: the first
/// failing check of [`form_checks`] (then of the commitments' form), as `INVALID_RECEIPT`, or
/// `INVALID_TIMESTAMP` for an `issued_at` that is not RFC 3339 UTC; the message names the check.
#[cfg(feature = "signing")]
fn check_form(receipt: &Value<'_>) -> Result<()> {
    let issued = str_field(receipt, "issued_at").map(Timestamp::parse);
    if let Some(failed) = form_checks(receipt, issued.as_ref())
        .into_iter()
        .find(|c| c.outcome != Outcome::Pass)
    {
        let code = match (failed.name, &issued) {
            ("issued_at", Some(Err(_))) => ErrorCode::InvalidTimestamp,
            _ => ErrorCode::InvalidReceipt,
        };
        return Err(Error::new(
            code,
            format!("{}: {}", failed.name, failed.detail.unwrap_or_default()),
        ));
    }
    for name in COMMITMENT_FIELDS {
        if receipt.get(name).and_then(commitment_form).is_none() {
            return Err(Error::new(
                ErrorCode::InvalidReceipt,
                format!("{name}: {NOT_A_COMMITMENT}"),
            ));
        }
    }
    // No key ring holds an empty key id (`KeyRing::add`), so its `key_id` check could never pass.
    if str_field(receipt, "key_id") == Some("") {
        return Err(Error::new(ErrorCode::InvalidReceipt, "key_id: empty"));
    }
    Ok(())
}

/// Verifies a MAC receipt (§9.5) against a key ring, the call the consumer made and, when given,
/// the consumer's own commitments to the input it sent and the result it received.
///
/// Returns a [`Verdict`] with one [`Check`] per aspect (see the module documentation for the names
/// and their order). A commitment that differs from the consumer's own is
/// [`Outcome::Mismatch`]; every other problem is a
/// [`Outcome::Fail`] with a short detail. `Err` only for input that
/// cannot be a receipt: not an object (`INVALID_RECEIPT`), duplicate keys, values outside ekl-json-1.
pub fn verify_receipt(
    receipt: &Value<'_>,
    ring: &KeyRing,
    call: &CallExpectation,
    own_input_commitment: Option<&Commitment>,
    own_output_commitment: Option<&Commitment>,
) -> Result<Verdict> {
    members(receipt)?;
    let whole = canonical::canonicalize_value(receipt)?;
    let digest = sha256_hex(&whole);
    let tagged = tagged_bytes(receipt)?;
    let mut checks: Vec<Check> = Vec::with_capacity(24);

    // Key selection and tag. Shown: the ring's key ids (never a key or secret) and the receipt's.
    let issued_at = str_field(receipt, "issued_at").map(Timestamp::parse);
    key_and_tag_checks(receipt, ring, issued_at.as_ref(), &tagged, &mut checks);

    // Profile and format (the checks the signer runs too), then the kind against the call.
    kind_checks(receipt, call, issued_at.as_ref(), &mut checks);

    // References against the call.
    reference_checks(receipt, call, &mut checks);

    // The consumer's own commitments.
    own_commitment_checks(
        receipt,
        own_input_commitment,
        own_output_commitment,
        &mut checks,
    );

    if let Some(want) = &call.receipt_digest {
        checks.push(
            if ct_eq(want.as_bytes(), digest.as_bytes()) {
                Check::pass("receipt_digest")
            } else {
                Check::fail("receipt_digest", "differs from the expected digest")
            }
            .with_values(Some(str_shown(want)), Some(str_shown(&digest))),
        );
    }

    Ok(Verdict::new(checks, Some(digest)))
}

/// The `key_id` check (the ring's key for the receipt's key id at its `issued_at`) and the
/// `auth_tag` check with that key, pushed onto `checks`.
fn key_and_tag_checks(
    receipt: &Value<'_>,
    ring: &KeyRing,
    issued_at: Option<&Result<Timestamp>>,
    tagged: &[u8],
    checks: &mut Vec<Check>,
) {
    let ring_ids = || {
        let ids: Vec<String> = ring.entries.iter().map(|e| str_shown(&e.key_id)).collect();
        if ids.is_empty() {
            "a key of the key ring (it is empty)".to_owned()
        } else {
            format!("one of {}", ids.join(", "))
        }
    };
    let received_key = member_shown(receipt, "key_id");
    let key = match (str_field(receipt, "key_id"), issued_at) {
        (None, _) => {
            checks.push(
                Check::fail("key_id", "missing or not a string")
                    .with_values(Some(ring_ids()), received_key),
            );
            None
        }
        (Some(_), None | Some(Err(_))) => {
            checks.push(
                Check::fail("key_id", "no valid issued_at to choose the key by")
                    .with_values(Some(ring_ids()), received_key)
                    .blocked_by("issued_at"),
            );
            None
        }
        (Some(id), Some(Ok(t))) => {
            let at = received_key.map(|k| format!("{k} at issued_at {}", time_shown(*t)));
            match ring.select(id, *t) {
                KeySelection::Found(e) => {
                    checks.push(Check::pass("key_id").with_values(Some(key_shown(e)), at));
                    Some(e)
                }
                KeySelection::UnknownKeyId => {
                    checks.push(
                        Check::fail("key_id", "unknown key_id")
                            .with_values(Some(ring_ids()), at)
                            .because("unknown_key"),
                    );
                    None
                }
                KeySelection::NotValidAt => {
                    let entry = ring.entries.iter().find(|e| e.key_id == id);
                    // Issued before the key's window opens, or after it closed.
                    let reason = match entry {
                        Some(e) if *t < e.valid_from => "key_not_yet_valid",
                        _ => "key_expired",
                    };
                    checks.push(
                        Check::fail("key_id", "key not valid at issued_at")
                            .with_values(entry.map(key_shown), at)
                            .because(reason),
                    );
                    None
                }
            }
        }
    };
    checks.push(match (str_field(receipt, "auth_tag"), key) {
        (None, _) => Check::fail("auth_tag", "missing or not a string"),
        (Some(_), None) => {
            Check::fail("auth_tag", "no usable key to check it with").blocked_by("key_id")
        }
        (Some(tag), Some(e)) => {
            if hex_mac_matches(tag, &hmac_sha256(&e.key, &[tagged])) {
                Check::pass("auth_tag")
            } else {
                Check::fail("auth_tag", tag_mismatch_detail(&e.key_id))
            }
        }
    });
}

/// The format checks the signer runs too ([`form_checks`]), with `execution_kind` compared with the
/// call's when it gives one.
fn kind_checks(
    receipt: &Value<'_>,
    call: &CallExpectation,
    issued_at: Option<&Result<Timestamp>>,
    checks: &mut Vec<Check>,
) {
    for check in form_checks(receipt, issued_at) {
        checks.push(match call.execution_kind.as_deref() {
            Some(want) if check.name == "execution_kind" && check.outcome == Outcome::Pass => {
                match str_field(receipt, "execution_kind") {
                    Some(k) if k != want => Check::fail("execution_kind", "differs from the call")
                        .with_values(
                            Some(str_shown(want)),
                            member_shown(receipt, "execution_kind"),
                        ),
                    _ => check.with_values(
                        Some(str_shown(want)),
                        member_shown(receipt, "execution_kind"),
                    ),
                }
            }
            _ => check,
        });
    }
}

/// The receipt's references (ids, version, terms) against the call's, for those the call gives.
fn reference_checks(receipt: &Value<'_>, call: &CallExpectation, checks: &mut Vec<Check>) {
    let references: [(&'static str, Option<&str>); 11] = [
        ("execution_id", Some(&call.execution_id)),
        ("collaboration_id", Some(&call.collaboration_id)),
        ("capability_id", Some(&call.capability_id)),
        ("requester_agent_id", Some(&call.requester_agent_id)),
        ("provider_agent_id", Some(&call.provider_agent_id)),
        ("capability_version", call.capability_version.as_deref()),
        ("connection_id", call.connection_id.as_deref()),
        ("terms_hash", call.terms_hash.as_deref()),
        ("reservation_id", call.reservation_id.as_deref()),
        ("grant_id", call.grant_id.as_deref()),
        ("admission_id", call.admission_id.as_deref()),
    ];
    for (name, want) in references {
        let Some(want) = want else { continue };
        checks.push(
            match str_field(receipt, name) {
                Some(got) if got == want => Check::pass(name),
                Some(_) => Check::fail(name, "differs from the call"),
                None => Check::fail(name, "missing or not a string"),
            }
            .with_values(Some(str_shown(want)), member_shown(receipt, name)),
        );
    }
}

/// The receipt's commitments against the consumer's own, for those given.
fn own_commitment_checks(
    receipt: &Value<'_>,
    own_input_commitment: Option<&Commitment>,
    own_output_commitment: Option<&Commitment>,
    checks: &mut Vec<Check>,
) {
    for (name, own) in [
        ("input_commitment", own_input_commitment),
        ("output_commitment", own_output_commitment),
    ] {
        let Some(own) = own else { continue };
        // Shown: the digests (and whether salted), never the salts.
        let expected = Some(commitment_shown(
            Some(&str_shown(&own.digest)),
            own.salt.is_some(),
        ));
        let received = receipt.get(name).map(|v| {
            let digest = v.get("digest").map(json_shown);
            match digest {
                Some(d) => commitment_shown(Some(&d), v.get("salt").is_some()),
                None => commitment_shown(None, v.get("salt").is_some()),
            }
        });
        checks.push(
            match receipt.get(name) {
                None => Check::fail(name, "missing"),
                Some(v) => match commitment_matches(v, own) {
                    Ok(true) => Check::pass(name),
                    Ok(false) => {
                        Check::mismatch(name, "differs from the consumer's own commitment")
                    }
                    Err(()) => Check::fail(name, NOT_A_COMMITMENT),
                },
            }
            .with_values(expected, received),
        );
    }
}

/// One receipt to verify with [`verify_receipts`].
#[derive(Clone, Copy, Debug)]
pub struct ReceiptToVerify<'r, 'a> {
    /// The receipt as received.
    pub receipt: &'r Value<'a>,
    /// The call it must belong to.
    pub call: &'r CallExpectation,
    /// The consumer's own commitment to the input it sent.
    pub own_input_commitment: Option<&'r Commitment>,
    /// The consumer's own commitment to the result it received.
    pub own_output_commitment: Option<&'r Commitment>,
}

/// Verifies many receipts against one key ring; one result per receipt, in order. A receipt that
/// cannot be a receipt at all gives its `Err` without stopping the others.
pub fn verify_receipts(ring: &KeyRing, items: &[ReceiptToVerify<'_, '_>]) -> Vec<Result<Verdict>> {
    items
        .iter()
        .map(|it| {
            verify_receipt(
                it.receipt,
                ring,
                it.call,
                it.own_input_commitment,
                it.own_output_commitment,
            )
        })
        .collect()
}

/// What a provider has when it answers a call, and what it signs a MAC receipt from
/// ([`issue_mac_receipt`]). The call is the consumer's call object ([`CallExpectation`], the one
/// [`verify_receipt`] checks the receipt against); what the call does not carry is given here.
/// The core reads no clock and no random source: the time and the salts are the caller's (every
/// host passes its clock and fresh salts from its CSPRNG when they are left out).
#[derive(Clone, Copy, Debug)]
#[cfg(feature = "signing")]
pub struct CallAnswered<'r, 'a> {
    /// The call answered. It must name `execution_kind`, `connection_id`,
    /// `capability_version` and `terms_hash` (every receipt carries them), and for a `customer`
    /// call `reservation_id`, `grant_id` and `admission_id` (a trial or validation call none of
    /// them); it must not name `receipt_digest` (a receipt being issued has none yet).
    pub call: &'r CallExpectation,
    /// The call's `input` object (at most 256 KB as ekl-json-1, §2.5).
    pub input: &'r Value<'a>,
    /// The `result` object answered.
    pub output: &'r Value<'a>,
    /// The execution status (one of [`STATUSES`]).
    pub status: &'r str,
    /// The relationship version at admission (an integer in [0, 2^53]).
    pub rel_ver_at_admission: i64,
    /// The descriptor version (an integer in [0, 2^53]).
    pub dsc_ver: i64,
    /// The key id the receipt secret is known by ([`BASELINE_KEY_ID`] for the registration
    /// secret).
    pub key_id: &'r str,
    /// The receipt id; `None`: derived from the receipt ([`derived_receipt_id`]).
    pub receipt_id: Option<&'r str>,
    /// The time of issue, in whole seconds since the epoch (written as `format_timestamp` writes
    /// it: `YYYY-MM-DDTHH:MM:SSZ`).
    pub issued_at: i64,
    /// The salt of the input commitment (fresh for every receipt).
    pub input_salt: &'r Salt,
    /// The salt of the output commitment (fresh for every receipt).
    pub output_salt: &'r Salt,
}

/// The prefix of a receipt id derived by [`issue_mac_receipt`].
#[cfg(feature = "signing")]
pub const DERIVED_RECEIPT_ID_PREFIX: &str = "rcpt_";

/// The receipt id [`issue_mac_receipt`] gives a receipt when the caller names none: `rcpt_` and
/// the first 32 hex characters of the SHA-256 of ekl-json-1 of the receipt without
/// `receipt_id` and `auth_tag`. The receipt holds two fresh salts, so the id is unique whenever
/// the salts are, and the same salts and time give the same id (deterministic bytes for tests).
#[cfg(feature = "signing")]
pub fn derived_receipt_id(receipt_without_id: &Value<'_>) -> Result<String> {
    let m = members(receipt_without_id)?;
    let rest: Vec<(Cow<'_, str>, Value<'_>)> = m
        .iter()
        .filter(|(k, _)| k != "receipt_id" && k != "auth_tag")
        .map(|(k, v)| (Cow::Borrowed(k.as_ref()), v.clone()))
        .collect();
    let digest = sha256_hex(&canonical::canonicalize_value(&Value::Object(rest))?);
    Ok(format!("{DERIVED_RECEIPT_ID_PREFIX}{}", &digest[..32]))
}

/// `INVALID_RECEIPT` naming the verifier's check, for what the call or the caller lacks.
#[cfg(feature = "signing")]
fn refused(check: &str, detail: String) -> Error {
    Error::new(ErrorCode::InvalidReceipt, format!("{check}: {detail}"))
}

/// The checks [`issue_mac_receipt`] makes of the call and the caller's members before it builds
/// anything, each named after the verifier's check it stands for.
#[cfg(feature = "signing")]
fn check_answered(a: &CallAnswered<'_, '_>) -> Result<()> {
    let call = a.call;
    if call.receipt_digest.is_some() {
        return Err(Error::new(
            ErrorCode::InvalidArgument,
            "the call names receipt_digest: a receipt being issued has no digest yet",
        ));
    }
    let kind = match call.execution_kind.as_deref() {
        None => {
            return Err(refused(
                "execution_kind",
                "the call must name it (customer, trial or validation)".into(),
            ))
        }
        Some(k) if EXECUTION_KINDS.contains(&k) => k,
        Some(_) => {
            return Err(refused(
                "execution_kind",
                "must be customer, trial or validation".into(),
            ))
        }
    };
    let missing: Vec<&str> = [
        ("connection_id", &call.connection_id),
        ("capability_version", &call.capability_version),
        ("terms_hash", &call.terms_hash),
    ]
    .into_iter()
    .filter(|(_, v)| v.is_none())
    .map(|(name, _)| name)
    .collect();
    if !missing.is_empty() {
        return Err(refused(
            "required_fields",
            format!(
                "the call must name {} (every receipt carries it)",
                missing.join(", ")
            ),
        ));
    }
    let customer = [
        ("reservation_id", &call.reservation_id),
        ("grant_id", &call.grant_id),
        ("admission_id", &call.admission_id),
    ];
    if kind == "customer" {
        let missing: Vec<&str> = customer
            .iter()
            .filter(|(_, v)| v.as_deref().is_none_or(str::is_empty))
            .map(|(name, _)| *name)
            .collect();
        if !missing.is_empty() {
            return Err(refused(
                "kind_fields",
                format!(
                    "a customer receipt needs {}: the call must name them",
                    missing.join(", ")
                ),
            ));
        }
    } else {
        let present: Vec<&str> = customer
            .iter()
            .filter(|(_, v)| v.is_some())
            .map(|(name, _)| *name)
            .collect();
        if !present.is_empty() {
            return Err(refused(
                "kind_fields",
                format!(
                    "a trial or validation receipt must not carry {}: the call names them",
                    present.join(", ")
                ),
            ));
        }
    }
    for (name, n) in [
        ("rel_ver_at_admission", a.rel_ver_at_admission),
        ("dsc_ver", a.dsc_ver),
    ] {
        if !(0..=MAX_SAFE_INTEGER_BOUND as i64).contains(&n) {
            return Err(refused(
                "required_fields",
                format!("{name} must be an integer in [0, 2^53]"),
            ));
        }
    }
    if !STATUSES.contains(&a.status) {
        return Err(refused("status", "not an execution status".into()));
    }
    if a.key_id.is_empty() {
        return Err(refused("key_id", "empty".into()));
    }
    Ok(())
}

/// Issues a MAC receipt (ekl-evidence-mac-1.1, §9.5) for a call answered: every member the
/// verifier requires for the call's `execution_kind`, taken from the call and from `answered`,
/// the commitments to the input and the output salted with the given salts, `issued_at` as the
/// protocol writes it, and the `auth_tag` under `secret` and `key_id`.
///
/// Nothing it returns fails its own verifier: the receipt is signed by [`sign_receipt`] (every
/// check of the receipt's form) and then verified by [`verify_receipt`] with a key ring holding
/// `secret` under `key_id`, the call, and the commitments just made; any failing check refuses it.
///
/// Refused, in this order: a call that names `receipt_digest` (`INVALID_ARGUMENT`); a call
/// without `execution_kind` or with another kind, without `connection_id`,
/// `capability_version` or `terms_hash`, a customer call without `reservation_id`, `grant_id` or
/// `admission_id` (or one of them empty), a trial or validation call with any of them, a version
/// outside [0, 2^53], a status that is not an execution status, an empty key id
/// (`INVALID_RECEIPT`, the message `"<check>: <detail>"` naming the verifier's check); an input
/// beyond 256 KB (`BODY_TOO_LARGE`) or either value outside ekl-json-1 (its code); an
/// `issued_at` outside the years 0000–9999 (`INVALID_TIMESTAMP`); then anything [`sign_receipt`]
/// refuses.
#[cfg(feature = "signing")]
pub fn issue_mac_receipt(answered: &CallAnswered<'_, '_>, secret: &str) -> Result<Value<'static>> {
    check_answered(answered)?;
    let call = answered.call;
    let input = crate::digest::input_commitment(answered.input, Some(answered.input_salt), None)?;
    let output = crate::digest::commitment(answered.output, Some(answered.output_salt), None)?;
    let issued_at = Timestamp::from_unix(answered.issued_at, 0)?.format()?;
    let text = |s: &str| Value::from(s.to_owned());
    // Present once the call is checked (check_answered).
    let given = |s: &Option<String>| text(s.as_deref().unwrap_or_default());
    let mut m: Vec<(Cow<'static, str>, Value<'static>)> = Vec::with_capacity(22);
    let mut push = |name: &'static str, v: Value<'static>| m.push((Cow::Borrowed(name), v));
    push("receipt_version", text(RECEIPT_VERSION));
    push("execution_kind", given(&call.execution_kind));
    push("requester_agent_id", text(&call.requester_agent_id));
    push("provider_agent_id", text(&call.provider_agent_id));
    push("collaboration_id", text(&call.collaboration_id));
    push("connection_id", given(&call.connection_id));
    push("execution_id", text(&call.execution_id));
    push("capability_id", text(&call.capability_id));
    push("capability_version", given(&call.capability_version));
    push(
        "rel_ver_at_admission",
        Value::from_i64(answered.rel_ver_at_admission)?,
    );
    push("dsc_ver", Value::from_i64(answered.dsc_ver)?);
    push("terms_hash", given(&call.terms_hash));
    // A customer call's three ids (check_answered: all present, or none for the other kinds).
    for (name, v) in [
        ("reservation_id", &call.reservation_id),
        ("grant_id", &call.grant_id),
        ("admission_id", &call.admission_id),
    ] {
        if v.is_some() {
            push(name, given(v));
        }
    }
    push("input_commitment", input.to_value());
    push("output_commitment", output.to_value());
    push("status", text(answered.status));
    push("issued_at", Value::from(issued_at));
    push("key_id", text(answered.key_id));
    push("auth_profile", text(AUTH_PROFILE));
    let receipt_id = match answered.receipt_id {
        Some(id) => id.to_owned(),
        None => derived_receipt_id(&Value::Object(m.clone()))?,
    };
    m.insert(1, (Cow::Borrowed("receipt_id"), Value::from(receipt_id)));
    let signed = sign_receipt(&Value::Object(m), secret)?;

    // The verifier's own checks, with what the consumer would hold.
    let mut ring = KeyRing::new();
    ring.add(answered.key_id, secret, "0000-01-01T00:00:00Z", None)?;
    let verdict = verify_receipt(&signed, &ring, call, Some(&input), Some(&output))?;
    if let Some(failed) = verdict.checks.iter().find(|c| c.outcome != Outcome::Pass) {
        return Err(refused(
            failed.name,
            failed.detail.clone().unwrap_or_default(),
        ));
    }
    Ok(signed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canonical::parse;

    const SECRET: &str = "s3cr3t-never-printed";

    fn receipt() -> Value<'static> {
        parse(
            br#"{"receipt_version":"1.1","receipt_id":"r1","execution_kind":"validation",
            "requester_agent_id":"a","provider_agent_id":"b","collaboration_id":"c",
            "connection_id":"valcon_1","execution_id":"e","capability_id":"cap_x",
            "capability_version":"1.0.0","rel_ver_at_admission":0,"dsc_ver":1,"terms_hash":"t",
            "input_commitment":{"alg":"sha-256","canon":"ekl-json-1","digest":"0000000000000000000000000000000000000000000000000000000000000000"},
            "output_commitment":{"alg":"sha-256","canon":"ekl-json-1","digest":"1111111111111111111111111111111111111111111111111111111111111111"},
            "status":"succeeded","issued_at":"2026-11-29T00:00:00Z","key_id":"rk-1",
            "auth_profile":"ekl-evidence-mac-1.1"}"#,
        )
        .expect("valid")
        .into_owned()
    }

    fn call() -> CallExpectation {
        CallExpectation {
            execution_id: "e".into(),
            collaboration_id: "c".into(),
            capability_id: "cap_x".into(),
            requester_agent_id: "a".into(),
            provider_agent_id: "b".into(),
            ..CallExpectation::default()
        }
    }

    #[test]
    fn sign_then_verify_and_member_order_does_not_matter() {
        let signed = sign_receipt(&receipt(), SECRET).expect("signs");
        let ring = KeyRing::baseline(SECRET).unwrap();
        let v = verify_receipt(&signed, &ring, &call(), None, None).expect("a receipt");
        assert!(v.accepted, "{:?}", v.checks);
        assert_eq!(
            v.receipt_digest,
            Some(receipt_digest(&signed).expect("digest"))
        );
        let Value::Object(mut m) = signed.clone() else {
            unreachable!()
        };
        m.reverse();
        let reversed = Value::Object(m);
        assert_eq!(
            auth_tag(&reversed, SECRET).expect("tag"),
            signed.get("auth_tag").and_then(Value::as_str).expect("tag")
        );
        assert!(
            verify_receipt(&reversed, &ring, &call(), None, None)
                .expect("a receipt")
                .accepted
        );
        // Another secret: the tag fails, nothing else.
        let v = verify_receipt(
            &signed,
            &KeyRing::baseline("other").unwrap(),
            &call(),
            None,
            None,
        )
        .expect("a receipt");
        let bad: Vec<_> = v
            .checks
            .iter()
            .filter(|c| c.outcome != Outcome::Pass)
            .collect();
        assert_eq!(bad.len(), 1);
        assert_eq!(bad[0].name, "auth_tag");
    }

    #[test]
    fn refusals_are_errors_only_for_non_receipts() {
        let ring = KeyRing::baseline(SECRET).unwrap();
        // Values with duplicate members (text with them is refused by the parser already).
        let object = |members: &[(&'static str, &'static str)]| {
            Value::Object(
                members
                    .iter()
                    .map(|&(k, v)| (Cow::Borrowed(k), Value::from(v)))
                    .collect(),
            )
        };
        for (v, code) in [
            (parse(b"[1]").expect("parses"), ErrorCode::InvalidReceipt),
            (parse(b"\"x\"").expect("parses"), ErrorCode::InvalidReceipt),
            (
                object(&[("key_id", "rk-1"), ("a", "1"), ("a", "2")]),
                ErrorCode::DuplicateKey,
            ),
            (
                object(&[("key_id", "rk-1"), ("auth_tag", "x"), ("auth_tag", "y")]),
                ErrorCode::DuplicateKey,
            ),
        ] {
            let e = verify_receipt(&v, &ring, &call(), None, None).expect_err("refused");
            assert_eq!(e.code(), code);
            assert!(!e.message().contains(SECRET));
            assert_eq!(auth_tag(&v, SECRET).expect_err("refused").code(), code);
        }
        let nan = Value::Object(vec![
            ("key_id".into(), Value::from("rk-1")),
            ("x".into(), Value::Number(f64::NAN)),
        ]);
        assert_eq!(
            verify_receipt(&nan, &ring, &call(), None, None)
                .expect_err("refused")
                .code(),
            ErrorCode::NonFiniteNumber
        );
        // An empty object is a (failing) receipt, not an error.
        let v = verify_receipt(&Value::Object(Vec::new()), &ring, &call(), None, None)
            .expect("a verdict");
        assert!(!v.accepted);
        assert_eq!(v.outcome("key_id"), Some(Outcome::Fail));
        assert_eq!(v.outcome("required_fields"), Some(Outcome::Fail));
        // auth_tag needs a key_id; sign refuses an already signed receipt.
        let no_key = parse(br#"{"a":1}"#).expect("parses");
        assert_eq!(
            auth_tag(&no_key, SECRET).expect_err("refused").code(),
            ErrorCode::InvalidReceipt
        );
        let signed = sign_receipt(&receipt(), SECRET).expect("signs");
        assert_eq!(
            sign_receipt(&signed, SECRET).expect_err("refused").code(),
            ErrorCode::InvalidReceipt
        );
    }

    #[test]
    fn key_ring_refusals_and_windows() {
        let mut ring = KeyRing::new();
        let err = |r: Result<()>| r.expect_err("refused").code();
        assert_eq!(
            err(ring.add("", "s", "2026-01-01T00:00:00Z", None)),
            ErrorCode::InvalidArgument
        );
        assert_eq!(
            err(ring.add("rk-1", "s", "2026-01-01", None)),
            ErrorCode::InvalidTimestamp
        );
        assert_eq!(
            err(ring.add(
                "rk-1",
                "s",
                "2026-01-01T00:00:00Z",
                Some("2026-01-01T00:00:00Z")
            )),
            ErrorCode::InvalidArgument
        );
        ring.add(
            "rk-1",
            "s",
            "2026-01-01T00:00:00Z",
            Some("2026-02-01T00:00:00Z"),
        )
        .expect("added");
        assert_eq!(
            err(ring.add("rk-1", "t", "2026-03-01T00:00:00Z", None)),
            ErrorCode::InvalidArgument
        );
        let t = |s: &str| Timestamp::parse(s).expect("valid");
        assert!(matches!(
            ring.select("rk-1", t("2026-01-01T00:00:00Z")),
            KeySelection::Found(_)
        ));
        assert!(matches!(
            ring.select("rk-1", t("2026-01-31T23:59:59.999999999Z")),
            KeySelection::Found(_)
        ));
        assert!(matches!(
            ring.select("rk-1", t("2026-02-01T00:00:00Z")),
            KeySelection::NotValidAt
        ));
        assert!(matches!(
            ring.select("rk-1", t("2025-12-31T23:59:59.999999999Z")),
            KeySelection::NotValidAt
        ));
        assert!(matches!(
            ring.select("rk-2", t("2026-01-15T00:00:00Z")),
            KeySelection::UnknownKeyId
        ));
        // The ring never shows its keys.
        assert!(!format!("{ring:?}").contains(&hex::encode(&receipt_key("s", "rk-1").unwrap())));
    }

    #[test]
    fn batch_gives_one_result_per_receipt_in_order() {
        let ring = KeyRing::baseline(SECRET).unwrap();
        let good = sign_receipt(&receipt(), SECRET).expect("signs");
        let other_call = CallExpectation {
            execution_id: "other".into(),
            ..call()
        };
        let not_a_receipt = Value::Array(Vec::new());
        let c = call();
        let items = [
            ReceiptToVerify {
                receipt: &good,
                call: &c,
                own_input_commitment: None,
                own_output_commitment: None,
            },
            ReceiptToVerify {
                receipt: &not_a_receipt,
                call: &c,
                own_input_commitment: None,
                own_output_commitment: None,
            },
            ReceiptToVerify {
                receipt: &good,
                call: &other_call,
                own_input_commitment: None,
                own_output_commitment: None,
            },
        ];
        let out = verify_receipts(&ring, &items);
        assert_eq!(out.len(), 3);
        assert!(out[0].as_ref().expect("verdict").accepted);
        assert_eq!(
            out[1].as_ref().expect_err("refused").code(),
            ErrorCode::InvalidReceipt
        );
        let v = out[2].as_ref().expect("verdict");
        assert_eq!(v.outcome("execution_id"), Some(Outcome::Fail));
        assert!(!v.accepted && !v.is_dispute());
    }

    #[test]
    fn checks_show_expected_and_received_values_but_never_tags_or_keys() {
        let mut ring = KeyRing::new();
        ring.add(
            "rk-1",
            SECRET,
            "2026-01-01T00:00:00Z",
            Some("2026-06-01T00:00:00.5Z"),
        )
        .expect("added");
        let signed = sign_receipt(&receipt(), SECRET).expect("signs");
        let other_call = CallExpectation {
            execution_id: "ex-\"other\"".into(),
            ..call()
        };
        let v = verify_receipt(&signed, &ring, &other_call, None, None).expect("a verdict");
        let check = |name: &str| v.check(name).expect("present").clone();
        // A reference: both values as JSON text.
        let c = check("execution_id");
        assert_eq!(c.outcome, Outcome::Fail);
        assert_eq!(c.expected.as_deref(), Some(r#""ex-\"other\"""#));
        assert_eq!(c.received.as_deref(), Some(r#""e""#));
        // A passing check carries its values too.
        let c = check("capability_id");
        assert_eq!(c.outcome, Outcome::Pass);
        assert_eq!(c.expected, c.received);
        // The key: the ring's window and the receipt's key id and time, no key material.
        let c = check("key_id");
        assert_eq!(c.outcome, Outcome::Fail);
        assert_eq!(
            c.expected.as_deref(),
            Some(r#""rk-1" valid from 2026-01-01T00:00:00Z until 2026-06-01T00:00:00.5Z"#)
        );
        assert_eq!(
            c.received.as_deref(),
            Some(r#""rk-1" at issued_at 2026-11-29T00:00:00Z"#)
        );
        // The tag check shows nothing; no tag, secret or key appears anywhere in the verdict.
        let c = check("auth_tag");
        assert_eq!((c.expected, c.received), (None, None));
        let json =
            String::from_utf8(crate::canonical::canonicalize_value(&v.to_value()).expect("json"))
                .expect("utf-8");
        let tag = signed.get("auth_tag").and_then(Value::as_str).expect("tag");
        for secret_like in [
            tag,
            SECRET,
            &hex::encode(&receipt_key(SECRET, "rk-1").unwrap()),
        ] {
            assert!(!json.contains(secret_like), "{json}");
        }
        // Unknown key id: the ring's ids are named.
        let v = verify_receipt(&signed, &KeyRing::new(), &call(), None, None).expect("a verdict");
        let c = v.check("key_id").expect("present");
        assert_eq!(
            c.expected.as_deref(),
            Some("a key of the key ring (it is empty)")
        );
        // A value of the wrong type is shown as JSON, so "1.1" and 1.1 differ.
        let Value::Object(mut m) = receipt() else {
            unreachable!()
        };
        for (k, v) in m.iter_mut() {
            if k == "receipt_version" {
                *v = Value::Number(1.1);
            }
        }
        let v = verify_receipt(&Value::Object(m), &ring, &call(), None, None).expect("a verdict");
        let c = v.check("receipt_version").expect("present");
        assert_eq!(c.expected.as_deref(), Some(r#""1.1""#));
        assert_eq!(c.received.as_deref(), Some("1.1"));
        // Commitments: digests, never salts.
        let salted = Commitment {
            alg: "sha-256",
            canon: "ekl-json-1",
            digest: "2".repeat(64),
            salt_id: Some("s1".into()),
            salt: Some("ab".repeat(32)),
        };
        let v = verify_receipt(&signed, &ring, &call(), None, Some(&salted)).expect("a verdict");
        let c = v.check("output_commitment").expect("present");
        assert_eq!(c.outcome, Outcome::Mismatch);
        assert_eq!(
            c.expected.as_deref(),
            Some(format!("digest \"{}\" (salted)", "2".repeat(64)).as_str())
        );
        assert_eq!(
            c.received.as_deref(),
            Some(format!("digest \"{}\"", "1".repeat(64)).as_str())
        );
        assert!(!c
            .expected
            .as_deref()
            .unwrap_or("")
            .contains(&"ab".repeat(32)));
    }

    #[test]
    fn receipt_key_matches_its_definition() {
        // HMAC-SHA256(secret, "ekl-receipt-1.1" || 0x00 || key_id), built here from the parts.
        let direct = hmac_sha256(b"sec", &[b"ekl-receipt-1.1\x00rk-7"]);
        assert_eq!(receipt_key("sec", "rk-7").unwrap(), direct);
        assert_ne!(
            receipt_key("sec", "rk-7").unwrap(),
            receipt_key("sec", "rk-8").unwrap()
        );
    }

    /// A customer call, as the consumer's call object names it (every member a receipt needs).
    fn customer_call() -> CallExpectation {
        CallExpectation {
            capability_version: Some("1.0.0".into()),
            connection_id: Some("con_1".into()),
            terms_hash: Some("t".into()),
            execution_kind: Some("customer".into()),
            reservation_id: Some("rsv_1".into()),
            grant_id: Some("grt_1".into()),
            admission_id: Some("adm_1".into()),
            ..call()
        }
    }

    fn answered<'r>(
        call: &'r CallExpectation,
        input: &'r Value<'static>,
        output: &'r Value<'static>,
        salts: &'r (Salt, Salt),
    ) -> CallAnswered<'r, 'static> {
        CallAnswered {
            call,
            input,
            output,
            status: "succeeded",
            rel_ver_at_admission: 3,
            dsc_ver: 7,
            key_id: BASELINE_KEY_ID,
            receipt_id: None,
            issued_at: 1_800_000_000,
            input_salt: &salts.0,
            output_salt: &salts.1,
        }
    }

    fn salts(a: u8, b: u8) -> (Salt, Salt) {
        (
            Salt::from_hex(&format!("{a:02x}").repeat(32)).expect("hex"),
            Salt::from_hex(&format!("{b:02x}").repeat(32)).expect("hex"),
        )
    }

    #[test]
    fn an_issued_receipt_carries_every_member_and_verifies() {
        let (input, output) = (
            parse(br#"{"q":"ping"}"#).unwrap(),
            parse(br#"{"a":"pong"}"#).unwrap(),
        );
        let s = salts(1, 2);
        for call in [
            customer_call(),
            CallExpectation {
                execution_kind: Some("trial".into()),
                reservation_id: None,
                grant_id: None,
                admission_id: None,
                ..customer_call()
            },
        ] {
            let r =
                issue_mac_receipt(&answered(&call, &input, &output, &s), SECRET).expect("issued");
            let names: Vec<&str> = r
                .as_object()
                .unwrap()
                .iter()
                .map(|(k, _)| k.as_ref())
                .collect();
            let customer = call.execution_kind.as_deref() == Some("customer");
            assert_eq!(names.len(), if customer { 23 } else { 20 }, "{names:?}");
            assert_eq!(str_field(&r, "issued_at"), Some("2027-01-15T08:00:00Z"));
            assert_eq!(str_field(&r, "status"), Some("succeeded"));
            assert_eq!(r.get("dsc_ver"), Some(&Value::Number(7.0)));
            let id = str_field(&r, "receipt_id").unwrap();
            assert!(id.starts_with("rcpt_") && id.len() == 37, "{id}");
            assert_eq!(derived_receipt_id(&r).unwrap(), id);
            let (ci, co) = (
                crate::digest::commitment(&input, Some(&s.0), None).unwrap(),
                crate::digest::commitment(&output, Some(&s.1), None).unwrap(),
            );
            assert_eq!(r.get("input_commitment"), Some(&ci.to_value()));
            assert_eq!(r.get("output_commitment"), Some(&co.to_value()));
            let v = verify_receipt(
                &r,
                &KeyRing::baseline(SECRET).unwrap(),
                &call,
                Some(&ci),
                Some(&co),
            )
            .unwrap();
            assert!(v.accepted, "{:?}", v.checks);
            // The same salts and time give the same bytes; other salts another receipt and id.
            let again = issue_mac_receipt(&answered(&call, &input, &output, &s), SECRET).unwrap();
            assert_eq!(again, r);
            let other =
                issue_mac_receipt(&answered(&call, &input, &output, &salts(1, 3)), SECRET).unwrap();
            assert_ne!(str_field(&other, "receipt_id"), Some(id));
        }
    }

    #[test]
    fn an_issued_receipt_takes_the_key_id_and_receipt_id_given() {
        let (input, output) = (parse(b"{}").unwrap(), parse(b"[]").unwrap());
        let s = salts(9, 9);
        let call = customer_call();
        let a = CallAnswered {
            key_id: "rk-2",
            receipt_id: Some("r-42"),
            status: "outcome_unknown",
            ..answered(&call, &input, &output, &s)
        };
        let r = issue_mac_receipt(&a, SECRET).unwrap();
        assert_eq!(str_field(&r, "receipt_id"), Some("r-42"));
        assert_eq!(str_field(&r, "key_id"), Some("rk-2"));
        assert_eq!(
            str_field(&r, "auth_tag").map(str::to_owned),
            Some(auth_tag(&r, SECRET).unwrap())
        );
        // Under rk-1 the tag does not verify.
        let v = verify_receipt(&r, &KeyRing::baseline(SECRET).unwrap(), &call, None, None).unwrap();
        assert!(!v.accepted);
    }

    /// A tag that does not verify says both causes a MAC cannot tell apart and names the key id it
    /// was checked under, never the secret or the tag.
    #[test]
    fn a_failing_tag_names_both_causes_and_the_key_id() {
        let (input, output) = (parse(b"{}").unwrap(), parse(b"[]").unwrap());
        let s = salts(3, 4);
        let call = customer_call();
        let r = issue_mac_receipt(&answered(&call, &input, &output, &s), SECRET).unwrap();
        let tag = str_field(&r, "auth_tag").unwrap().to_owned();
        let detail = |receipt: &Value<'_>, secret: &str| {
            let v = verify_receipt(
                receipt,
                &KeyRing::baseline(secret).unwrap(),
                &call,
                None,
                None,
            )
            .unwrap();
            let c = v.checks.iter().find(|c| c.name == "auth_tag").unwrap();
            assert_eq!(c.outcome, Outcome::Fail);
            c.detail.clone().unwrap()
        };
        // Changed after it was tagged, and tagged under another secret: the same words.
        let mut changed = r.clone();
        if let Value::Object(m) = &mut changed {
            for (k, v) in m.iter_mut() {
                if k == "status" {
                    *v = Value::from("failed".to_owned());
                }
            }
        }
        let other = detail(&r, "another-secret");
        assert_eq!(detail(&changed, SECRET), other);
        assert!(other.contains("key_id \"rk-1\""), "{other}");
        assert!(other.contains("changed after it was tagged"), "{other}");
        assert!(other.contains("tagged under another secret"), "{other}");
        assert!(!other.contains(SECRET) && !other.contains(&tag));
    }

    /// A call, a change to the caller's members, the code and the message's start.
    type RefusalCase<'f> = (
        CallExpectation,
        &'f dyn Fn(&mut CallAnswered<'_, 'static>),
        ErrorCode,
        &'static str,
    );

    #[test]
    fn issuing_refuses_what_the_verifier_would_refuse() {
        let (input, output) = (parse(b"{}").unwrap(), parse(b"{}").unwrap());
        let s = salts(4, 5);
        let refusal = |call: CallExpectation, change: &dyn Fn(&mut CallAnswered<'_, 'static>)| {
            let mut a = answered(&call, &input, &output, &s);
            change(&mut a);
            let e = issue_mac_receipt(&a, SECRET).expect_err("refused");
            assert!(!e.message().contains(SECRET));
            (e.code(), e.message().to_owned())
        };
        let same = |_: &mut CallAnswered<'_, 'static>| {};
        let cases: Vec<RefusalCase<'_>> = vec![
            (
                CallExpectation {
                    receipt_digest: Some("d".into()),
                    ..customer_call()
                },
                &same,
                ErrorCode::InvalidArgument,
                "the call names receipt_digest",
            ),
            (
                CallExpectation {
                    execution_kind: None,
                    ..customer_call()
                },
                &same,
                ErrorCode::InvalidReceipt,
                "execution_kind: the call must name it",
            ),
            (
                CallExpectation {
                    execution_kind: Some("paid".into()),
                    ..customer_call()
                },
                &same,
                ErrorCode::InvalidReceipt,
                "execution_kind: must be",
            ),
            (
                CallExpectation {
                    connection_id: None,
                    terms_hash: None,
                    ..customer_call()
                },
                &same,
                ErrorCode::InvalidReceipt,
                "required_fields: the call must name connection_id, terms_hash",
            ),
            (
                CallExpectation {
                    grant_id: None,
                    ..customer_call()
                },
                &same,
                ErrorCode::InvalidReceipt,
                "kind_fields: a customer receipt needs grant_id",
            ),
            (
                CallExpectation {
                    admission_id: Some(String::new()),
                    ..customer_call()
                },
                &same,
                ErrorCode::InvalidReceipt,
                "kind_fields: a customer receipt needs admission_id",
            ),
            (
                CallExpectation {
                    execution_kind: Some("validation".into()),
                    grant_id: None,
                    admission_id: None,
                    ..customer_call()
                },
                &same,
                ErrorCode::InvalidReceipt,
                "kind_fields: a trial or validation receipt must not carry reservation_id",
            ),
            (
                customer_call(),
                &|a| a.dsc_ver = -1,
                ErrorCode::InvalidReceipt,
                "required_fields: dsc_ver",
            ),
            (
                customer_call(),
                &|a| a.rel_ver_at_admission = 1 << 54,
                ErrorCode::InvalidReceipt,
                "required_fields: rel_ver_at_admission",
            ),
            (
                customer_call(),
                &|a| a.status = "done",
                ErrorCode::InvalidReceipt,
                "status: not an execution status",
            ),
            (
                customer_call(),
                &|a| a.key_id = "",
                ErrorCode::InvalidReceipt,
                "key_id: empty",
            ),
            (
                customer_call(),
                &|a| a.issued_at = 253_402_300_800,
                ErrorCode::InvalidTimestamp,
                "",
            ),
        ];
        for (call, change, code, message) in cases {
            let (got, text) = refusal(call, change);
            assert_eq!(got, code, "{text}");
            assert!(text.starts_with(message), "{text}");
        }
        // Values outside ekl-json-1 and an input beyond 256 KB: the commitment's codes.
        let call = customer_call();
        let big = Value::String("x".repeat(300_000).into());
        let e = issue_mac_receipt(&answered(&call, &big, &output, &s), SECRET).unwrap_err();
        assert_eq!(e.code(), ErrorCode::BodyTooLarge);
        let dup = parse(br#"{"a":1}"#).unwrap();
        let dup = Value::Object([dup.as_object().unwrap(), dup.as_object().unwrap()].concat());
        let e = issue_mac_receipt(&answered(&call, &input, &dup, &s), SECRET).unwrap_err();
        assert_eq!(e.code(), ErrorCode::DuplicateKey);
    }
}
