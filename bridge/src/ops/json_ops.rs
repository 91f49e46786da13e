//! The registry's rows of one domain: ekl-json-1 canonical bytes, SHA-256 commitments and digests, salted fingerprints (PROTOCOL §9.5, §15.3, §5.1).

use super::*;

/// This domain's operations, in manifest order.
pub(super) const OPS: &[Op] = &[
    Op {
        name: "canonicalize",
        class: None,
        section: "§9.5",
        doc: "ekl-json-1 canonical bytes of JSON text (RFC 8785 with EKP's refusals).",
        params: &[
            req("text", Text, "JSON text"),
            opt(
                "max_bytes",
                Int,
                "refuse output longer than this (BODY_TOO_LARGE)",
            ),
        ],
        returns: Returns::Bytes,
        refine: None,
        run: |a| {
            canonical::canonicalize_with(a.text("text")?, max_bytes(a, "max_bytes")?)
                .map(Out::Bytes)
        },
    },
    Op {
        name: "canonicalize_value",
        class: None,
        section: "§9.5",
        doc: "ekl-json-1 canonical bytes of a JSON value.",
        params: &[
            req("value", Value, "the value").limit(Limit::Param("max_bytes")),
            opt(
                "max_bytes",
                Int,
                "refuse output longer than this (BODY_TOO_LARGE)",
            ),
        ],
        returns: Returns::Bytes,
        refine: None,
        run: |a| {
            let options = max_bytes(a, "max_bytes")?;
            let bytes = canonical::canonicalize_value(&*a.value("value")?)?;
            if options.max_bytes.is_some_and(|m| bytes.len() > m) {
                return Err(Error::new(
                    ErrorCode::BodyTooLarge,
                    "the canonical form is longer than max_bytes",
                ));
            }
            Ok(Out::Bytes(bytes))
        },
    },
    Op {
        name: "sha256_hex",
        class: None,
        section: "-",
        doc: "Lowercase hex SHA-256 of bytes (a string: of its UTF-8 bytes).",
        params: &[req("data", Bytes, "the bytes")],
        returns: Returns::Str,
        refine: None,
        run: |a| s(digest::sha256_hex(a.bytes("data")?)),
    },
    Op {
        name: "commitment",
        class: None,
        section: "§9.5",
        doc: "The commitment {alg, canon, digest[, salt_id, salt]} of a value.",
        params: &[
            req("value", Value, "the value committed to"),
            opt("salt", Str, SALT_DOC),
            opt("salt_id", Str, "the salt's identifier"),
        ],
        returns: Returns::Value("Commitment"),
        refine: None,
        run: |a| {
            commitment_value(digest::commitment(
                &*a.value("value")?,
                salt(a, "salt")?.as_ref(),
                a.opt_str("salt_id")?,
            )?)
        },
    },
    Op {
        name: "input_commitment",
        class: None,
        section: "§2.5, §9.5",
        doc: "The commitment of a capability call's input (at most 256 KB as ekl-json-1).",
        params: &[
            req("input", Value, "the call's input")
                .limit(Limit::Bytes(canonical::CAPABILITY_INPUT_MAX_BYTES)),
            opt("salt", Str, SALT_DOC),
            opt("salt_id", Str, "the salt's identifier"),
        ],
        returns: Returns::Value("Commitment"),
        refine: None,
        run: |a| {
            commitment_value(digest::input_commitment(
                &*a.value("input")?,
                salt(a, "salt")?.as_ref(),
                a.opt_str("salt_id")?,
            )?)
        },
    },
    Op {
        name: "terms_hash",
        class: None,
        section: "§6.7.1",
        doc: "The terms hash: 64 lowercase hex.",
        params: &[req("terms", Value, "the terms object")],
        returns: Returns::Str,
        refine: None,
        run: |a| s(digest::terms_hash(&*a.value("terms")?)?),
    },
    Op {
        name: "value_digest",
        class: None,
        section: "§9.5",
        doc: "SHA-256 of (salt ‖) a value's ekl-json-1 bytes: 64 lowercase hex.",
        params: &[req("value", Value, "the value"), opt("salt", Str, SALT_DOC)],
        returns: Returns::Str,
        refine: None,
        run: |a| {
            s(digest::value_digest(
                &*a.value("value")?,
                salt(a, "salt")?.as_ref(),
            )?)
        },
    },
    Op {
        name: "fingerprint",
        class: None,
        section: "§15.3",
        doc: "The salted fingerprint SHA-256(salt ‖ ekl-json-1(value)).",
        params: &[req("salt", Str, SALT_DOC), req("value", Value, "the value")],
        returns: Returns::Str,
        refine: None,
        run: |a| {
            let salt = Salt::from_hex(a.str("salt")?)?;
            s(fp::fingerprint(&salt, &*a.value("value")?)?)
        },
    },
    Op {
        name: "output_fingerprint",
        class: None,
        section: "§15.3",
        doc:
            "The salted fingerprint of an MCP tool result's body (structuredContent, else content).",
        params: &[
            req("salt", Str, SALT_DOC),
            req("result", Value, "the tool result"),
        ],
        returns: Returns::Str,
        refine: None,
        run: |a| {
            let salt = Salt::from_hex(a.str("salt")?)?;
            s(fp::output_fingerprint(&salt, &*a.value("result")?)?)
        },
    },
    Op {
        name: "select_result_body",
        class: None,
        section: "§15.3",
        doc: "The body of a tool result that its fingerprint covers: {member, value}.",
        params: &[req("result", Value, "the tool result")],
        returns: Returns::Value("ResultBody"),
        refine: None,
        run: |a| {
            let result = a.value("result")?;
            // The whole result must be ekl-json-1, as for the fingerprint.
            canonical::canonicalize_value(&result)?;
            let (member, body) = fp::select_result_body(&result)?;
            Ok(Out::Value(Value::Object(vec![
                ("member".into(), Value::from(member.as_str())),
                ("value".into(), body.clone().into_owned()),
            ])))
        },
    },
    Op {
        name: "upstream_fingerprint",
        class: None,
        section: "§5.1",
        doc:
            "The upstream fingerprint of a tools/list result, optionally of the offered tools only.",
        params: &[
            req("tools", Value, "the tools/list result ({\"tools\": [...]})"),
            opt("offered", StrList, "the names of the tools offered"),
        ],
        returns: Returns::Str,
        refine: None,
        run: |a| {
            s(fp::upstream_fingerprint(
                &*a.value("tools")?,
                a.opt_str_list("offered")?,
            )?)
        },
    },
    Op {
        name: "upstream_projection",
        class: None,
        section: "§5.1",
        doc: "The array the upstream fingerprint hashes.",
        params: &[
            req("tools", Value, "the tools/list result ({\"tools\": [...]})"),
            opt("offered", StrList, "the names of the tools offered"),
        ],
        returns: Returns::Value("JsonValue[]"),
        refine: None,
        run: |a| {
            let tools = a.value("tools")?;
            let projection = fp::upstream_projection(&tools, a.opt_str_list("offered")?)?;
            Ok(Out::Value(projection.into_owned()))
        },
    },
];
