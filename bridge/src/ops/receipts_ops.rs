//! The registry's rows of one domain: MAC receipts: timestamps, keys, tags, digests, signing, issuing and verifying one, many or an archive (PROTOCOL §9.5).

use super::*;

/// This domain's operations, in manifest order.
pub(super) const OPS: &[Op] = &[
    Op {
        name: "format_timestamp",
        class: None,
        section: "§9.5",
        doc: "The protocol's UTC timestamp form (YYYY-MM-DDTHH:MM:SSZ) of a time in seconds.",
        params: &[req("time", Now, "the time (seconds since the epoch, or the host's date type)")],
        returns: Returns::Str,
        refine: None,
        run: |a| s(ekl_core::timestamp::Timestamp::from_unix(a.int("time")?, 0)?.format()?),
    },
    #[cfg(feature = "signing")]
    Op {
        name: "receipt_key",
        class: None,
        section: "§9.5",
        doc: "The receipt key of a secret and key id: 64 lowercase hex.",
        params: &[
            req("secret", Str, "the registration secret"),
            req("key_id", Str, "the key id"),
        ],
        returns: Returns::Str,
        refine: None,
        run: |a| s(hex::encode(&*Zeroizing::new(receipt::receipt_key(a.str("secret")?, a.str("key_id")?)?))),
    },
    #[cfg(feature = "signing")]
    Op {
        name: "auth_tag",
        class: None,
        section: "§9.5",
        doc: "The auth_tag of a receipt (its other members) under a registration secret.",
        params: &[
            req("receipt", Value, "the receipt"),
            req("secret", Str, "the registration secret"),
        ],
        returns: Returns::Str,
        refine: None,
        run: |a| s(receipt::auth_tag(&*a.value("receipt")?, a.str("secret")?)?),
    },
    Op {
        name: "receipt_digest",
        class: None,
        section: "§9.5",
        doc: "The receipt digest: SHA-256 of ekl-json-1 of the whole receipt.",
        params: &[req("receipt", Value, "the receipt")],
        returns: Returns::Str,
        refine: None,
        run: |a| s(receipt::receipt_digest(&*a.value("receipt")?)?),
    },
    #[cfg(feature = "signing")]
    Op {
        name: "sign_receipt",
        class: None,
        section: "§9.5",
        doc: "The receipt with its auth_tag. Refuses what verify_receipt would refuse.",
        params: &[
            req("receipt", Value, "the receipt, without auth_tag").times(ISSUED_AT),
            req("secret", Str, "the registration secret"),
        ],
        returns: Returns::Value("Receipt"),
        refine: None,
        run: |a| Ok(Out::Value(receipt::sign_receipt(&*a.value("receipt")?, a.str("secret")?)?)),
    },
    #[cfg(feature = "signing")]
    Op {
        name: "issue_mac_receipt",
        class: None,
        section: "§9.5",
        doc: "Issues a MAC receipt (ekl-evidence-mac-1.1) for a call answered: every member the \
              verifier requires for the call's execution_kind, the commitments to the input and \
              the output with fresh salts, issued_at now, the auth_tag. Refuses what \
              verify_receipt would refuse, and verifies the receipt before returning it.",
        params: &[
            req("call", Value, "the call answered, as verify_receipt takes it; it must name execution_kind, connection_id, capability_version and terms_hash, and for a customer call reservation_id, grant_id and admission_id").refine("ReceiptCall"),
            req("input", Value, "the call's input object (at most 256 KB as ekl-json-1)"),
            req("output", Value, "the result answered"),
            req("status", Str, "the execution status: accepted, running, succeeded, failed_before_effect, cancelled or outcome_unknown").refine("ExecutionStatus"),
            req("rel_ver_at_admission", Int, "the relationship version at admission"),
            req("dsc_ver", Int, "the descriptor version"),
            req("secret", Str, "the receipt secret (the registration secret for rk-1)"),
            opt("key_id", Str, "the secret's key id (default rk-1)"),
            opt("receipt_id", Str, "the receipt id (default: rcpt_ and 32 hex of the SHA-256 of the receipt's other members)"),
            opt("issued_at", Now, "the time of issue (default: now)"),
            opt("input_salt", Salt, "the input commitment's salt, 64 lowercase hex (default: fresh from the host's CSPRNG)"),
            opt("output_salt", Salt, "the output commitment's salt, 64 lowercase hex (default: fresh from the host's CSPRNG)"),
        ],
        returns: Returns::Value("IssuedReceipt"),
        refine: None,
        run: |a| {
            let call = CallExpectation::from_value(&*a.value("call")?)?;
            let (input, output) = (a.value("input")?, a.value("output")?);
            let (input_salt, output_salt) = (a.salt("input_salt")?, a.salt("output_salt")?);
            let answered = receipt::CallAnswered {
                call: &call,
                input: &input,
                output: &output,
                status: a.str("status")?,
                rel_ver_at_admission: a.int("rel_ver_at_admission")?,
                dsc_ver: a.int("dsc_ver")?,
                key_id: a.opt_str("key_id")?.unwrap_or(receipt::BASELINE_KEY_ID),
                receipt_id: a.opt_str("receipt_id")?,
                issued_at: a.int("issued_at")?,
                input_salt: &input_salt,
                output_salt: &output_salt,
            };
            Ok(Out::Value(receipt::issue_mac_receipt(&answered, a.str("secret")?)?))
        },
    },
    Op {
        name: "verify_receipt",
        class: None,
        section: "§9.5",
        doc: "The verdict on a MAC receipt: every check, pass, fail or mismatch.",
        params: &[
            req("receipt", Value, "the receipt"),
            req("keys", Value, "the key ring: the registration secret, or a list of {key_id, secret, valid_from, valid_until?}").times(KEY_RING_TIMES).refine("ReceiptKeys"),
            req("call", Value, "the call: {execution_id, collaboration_id, capability_id, requester_agent_id, provider_agent_id, …}").refine("ReceiptCall"),
            opt("input_commitment", Value, "the consumer's own input commitment")
                .refine("Commitment | SaltedCommitment"),
            opt("output_commitment", Value, "the consumer's own output commitment")
                .refine("Commitment | SaltedCommitment"),
        ],
        returns: Returns::Verdict,
        refine: None,
        run: |a| {
            let ring = KeyRing::from_value(&*a.value("keys")?)?;
            let call = CallExpectation::from_value(&*a.value("call")?)?;
            let (own_in, own_out) = (own_commitment(a, "input_commitment")?, own_commitment(a, "output_commitment")?);
            verdict(receipt::verify_receipt(
                &*a.value("receipt")?,
                &ring,
                &call,
                own_in.as_ref(),
                own_out.as_ref(),
            )?)
        },
    },
    Op {
        name: "verify_receipts",
        class: None,
        section: "§9.5",
        doc: "Verdicts on many MAC receipts under one key ring; an item that cannot be read gives \
              {error: {code, message}} in its place.",
        params: &[
            req("items", Value, "a list of {receipt, call, input_commitment?, output_commitment?}").refine("ReceiptToVerify[]"),
            req("keys", Value, "the key ring: the registration secret, or a list of keys").times(KEY_RING_TIMES).refine("ReceiptKeys"),
            opt("jobs", Int, JOBS_DOC),
        ],
        returns: Returns::Verdicts,
        refine: None,
        run: |a| {
            let ring = KeyRing::from_value(&*a.value("keys")?)?;
            let jobs = jobs(a, "jobs")?;
            let items = a.value("items")?;
            let list = items
                .as_array()
                .ok_or_else(|| invalid("items must be a list"))?;
            let out = batch::map_ordered(
                list,
                jobs,
                |item| verify_item(&ring, item).unwrap_or_else(|e| error_value(&e)),
                &|_| {},
            );
            Ok(Out::Value(Value::Array(out)))
        },
    },
    Op {
        name: "verify_receipt_lines",
        class: None,
        section: "§9.5",
        doc: "Verdicts on a receipt archive: JSON lines, one item a line ({receipt, call, \
              input_commitment?, output_commitment?} for a MAC receipt, {receipt_jws, call} or \
              {receipt: signed object, call} for a network-signed one, an optional label); one \
              verdict per non-blank line, or {error: {code, message}} for an item that cannot be \
              verified.",
        params: ARCHIVE_PARAMS,
        returns: Returns::Verdicts,
        refine: None,
        run: |a| {
            archive(a, |text, keys, jobs| {
                batch::verify_lines(text, keys, jobs)
                    .into_iter()
                    .map(|r| r.map_or_else(|e| error_value(&e), |v| v.to_value()))
                    .collect()
            })
        },
    },
    Op {
        name: "summarize_receipt_lines",
        class: None,
        section: "§9.5",
        doc: "A receipt archive in brief (the items of verify_receipt_lines): one row per \
              non-blank line, {line, kind, label, receipt_id, execution_id, provider_agent_id, \
              capability_id, issued_at, accepted, receipt_digest, passed, failing: [{name, \
              outcome, detail?, reason?, blocked_by?}], cause, error}: the ids a table of the \
              archive shows and the verdict in short, with the first cause of a receipt not \
              accepted ({check, reason}; a knock-on check is blocked_by the one whose failure \
              left it unchecked); an item that cannot be verified has accepted null and error \
              {code, message}.",
        params: ARCHIVE_PARAMS,
        returns: Returns::Value("ReceiptLineSummary[]"),
        refine: None,
        run: |a| archive(a, batch::summarize_lines),
    },
    Op {
        name: "verify_archive",
        class: None,
        section: "§9.5",
        doc: "A receipt archive verified and written as `ekl receipt verify-archive` writes it: \
              {output, accepted, not_accepted, refused}, output the JSON lines \
              {\"line\": N, \"verdict\": V} or {\"error\": {code, message}, \"line\": N} (with \
              failures_only, the items not accepted alone, each with its failing checks); the \
              verdicts never become host objects (the form for large archives, Dask workers).",
        params: &[
            ARCHIVE_PARAMS[0],
            ARCHIVE_KEYS,
            ARCHIVE_PARAMS[2],
            ARCHIVE_PARAMS[3],
            ARCHIVE_PARAMS[4],
            ARCHIVE_PARAMS[5],
            opt(
                "failures_only",
                Bool,
                "only the items not accepted, each verdict with its failing checks alone",
            ),
            opt(
                "first_line",
                Int,
                "the number of the text's first line (default 1): a block of a larger archive",
            ),
        ],
        returns: Returns::Value("ArchiveOutput"),
        refine: None,
        run: |a| {
            let failures_only = a.opt_bool("failures_only")?.unwrap_or(false);
            let first_line = match a.opt_int("first_line")? {
                None => 1,
                Some(n) if n >= 1 => usize::try_from(n).unwrap_or(usize::MAX),
                Some(_) => return Err(invalid("first_line must be at least 1")),
            };
            archive_with(a, |text, keys, jobs| {
                let out = batch::verify_lines_output(text, keys, jobs, failures_only, first_line);
                let count = |n: usize| Value::Number(n as f64);
                Value::Object(vec![
                    ("accepted".into(), count(out.accepted)),
                    ("not_accepted".into(), count(out.not_accepted)),
                    (
                        "output".into(),
                        Value::from(String::from_utf8(out.text).unwrap_or_default()),
                    ),
                    ("refused".into(), count(out.refused)),
                ])
            })
        },
    },
];
