//! The result shapes: the members of every JSON object an operation returns, declared once
//! (docs/decisions.md#result-shapes).
//!
//! An operation's `returns` ([`crate::Returns`]) names a shape; [`SHAPES`] declares each one
//! (its members, their wire names, types and whether they are always present), and
//! [`crate::manifest::operations_json`] writes the table into `docs/operations.json` (member
//! `shapes`). The hosts' declarations are generated from it: the Python TypedDicts of
//! `python/ekl_evidence/_types.py` (`python/tools/gen_stubs.py`) and the TS interfaces of
//! `node/index.d.ts` (`node/scripts/dts.js`, which the wasm package's declarations copy). The
//! conformance stream's results are checked against it ([`check`], `ekl-cli`'s tests), so a
//! member added to a result without being declared here fails a test.
//!
//! A member's type ([`Member::ty`]) is written in a small language that both hosts translate:
//! `str`, `int`, `bool`, `null`, `json` (any JSON value), `object` (an object of JSON values),
//! `error` (`{"code", "message"}` of a refusal), a literal `'text'`, a shape's name, `T[]` (a
//! list of `T`, one word), and alternatives joined by ` | `.

use ekl_core::Value;

/// One result shape: a JSON object with named members.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// The type name every host declares (the `returns` of the operations that give it).
    pub name: &'static str,
    /// One paragraph for the hosts' documentation (`code` in single backquotes).
    pub doc: &'static str,
    /// The shape whose members it has too, declared before it, or `None`.
    pub extends: Option<&'static str>,
    /// Whether other members may be present (the members the caller gave): TS declares an index
    /// signature `[member: string]: unknown`, and [`check`] accepts undeclared members.
    pub open: bool,
    /// Whether TS declares an index signature `[member: string]: unknown` (every open shape, and
    /// a closed one that TS has always declared so).
    pub ts_open: bool,
    /// Whether Python declares it as a TypedDict (`false`: the package's own class, as the
    /// `Verdict` dataclass of `ekl_evidence._verdict`).
    pub py_typeddict: bool,
    /// The members, in the order the hosts declare them.
    pub members: &'static [Member],
}

/// One member of a [`Shape`].
#[derive(Clone, Copy, Debug)]
pub struct Member {
    /// The wire name (the same in every host).
    pub name: &'static str,
    /// Its type (the language of this module's documentation).
    pub ty: &'static str,
    /// Whether it is always present (else it may be absent).
    pub required: bool,
    /// One line for the hosts' documentation, or empty.
    pub doc: &'static str,
    /// The TS type when it is narrower than `ty`'s translation (a type of `index.d.ts`).
    pub ts: Option<&'static str>,
    /// The Python type when it is wider than `ty`'s translation (as the package declares it).
    pub py: Option<&'static str>,
    /// Whether TS declares it only through the index signature of an open shape.
    pub ts_index: bool,
}

const fn req(name: &'static str, ty: &'static str) -> Member {
    Member {
        name,
        ty,
        required: true,
        doc: "",
        ts: None,
        py: None,
        ts_index: false,
    }
}

const fn opt(name: &'static str, ty: &'static str) -> Member {
    Member {
        required: false,
        ..req(name, ty)
    }
}

impl Member {
    const fn doc(self, doc: &'static str) -> Member {
        Member { doc, ..self }
    }
    const fn ts(self, ts: &'static str) -> Member {
        Member {
            ts: Some(ts),
            ..self
        }
    }
    const fn py(self, py: &'static str) -> Member {
        Member {
            py: Some(py),
            ..self
        }
    }
    const fn ts_index(self) -> Member {
        Member {
            ts_index: true,
            ..self
        }
    }
}

const fn shape(name: &'static str, doc: &'static str, members: &'static [Member]) -> Shape {
    Shape {
        name,
        doc,
        extends: None,
        open: false,
        ts_open: false,
        py_typeddict: true,
        members,
    }
}

impl Shape {
    const fn extends(self, base: &'static str) -> Shape {
        Shape {
            extends: Some(base),
            ..self
        }
    }
    const fn open(self) -> Shape {
        Shape {
            open: true,
            ts_open: true,
            ..self
        }
    }
    const fn ts_open(self) -> Shape {
        Shape {
            ts_open: true,
            ..self
        }
    }
    const fn not_python(self) -> Shape {
        Shape {
            py_typeddict: false,
            ..self
        }
    }
}

/// Every result shape, in declaration order (a shape after those it names).
pub static SHAPES: &[Shape] = &[
    shape(
        "Commitment",
        "A commitment (PROTOCOL §9.5), `{\"alg\": \"sha-256\", \"canon\": \"ekl-json-1\", \"digest\": hex}`, \
         plus `salt_id` and the disclosed `salt` when salted, with the protocol's member names: \
         embed it as it is.",
        &[
            req("alg", "'sha-256'"),
            req("canon", "'ekl-json-1'"),
            req("digest", "str")
                .doc("Lowercase hex SHA-256 of (salt bytes ‖) the canonical bytes."),
            opt("salt_id", "str").doc("Present when a salt id was given (`salt_id`, JS `saltId`)."),
            opt("salt", "str")
                .doc("Present when salted: the disclosed salt, 64 lowercase hex characters."),
        ],
    ),
    shape(
        "SaltedCommitment",
        "A salted commitment, as an issued MAC receipt holds them: a `Commitment` whose `salt` is \
         always present (the salt to commit to the value with, §9.5).",
        &[
            req("alg", "'sha-256'"),
            req("canon", "'ekl-json-1'"),
            req("digest", "str")
                .doc("Lowercase hex SHA-256 of the salt bytes ‖ the canonical bytes."),
            opt("salt_id", "str").doc("Present when a salt id was given (`salt_id`, JS `saltId`)."),
            req("salt", "str").doc("The disclosed salt, 64 lowercase hex characters."),
        ],
    ),
    shape(
        "ResultBody",
        "The body of an MCP tool result that its output fingerprint covers, and which member it is.",
        &[
            req("member", "'structuredContent' | 'content'"),
            req("value", "json").doc("The selected body, as plain data."),
        ],
    ),
    shape(
        "VerifiedJws",
        "A verified compact JWS: its header and claims, the kid used, its typ and its SHA-256.",
        &[
            req("header", "object"),
            req("claims", "object"),
            req("kid", "str"),
            req("typ", "str").ts("JwsTyp"),
            req("token_sha256", "str").doc("SHA-256 hex of the token's ASCII bytes."),
        ],
    ),
    shape(
        "AssertionCap",
        "One capability of a relationship assertion's `caps`.",
        &[req("id", "str"), req("ver", "int | str")],
    ),
    shape(
        "VerifiedRelationshipAssertion",
        "A verified relationship assertion (§9.1): the token, its registered claims and its own \
         members. `aud` is the token endpoint it was verified for. Consuming `jti` once per \
         (issuer, token endpoint, jti) is the caller's (§9.2).",
        &[
            req("iss", "str"),
            req("iat", "int"),
            req("exp", "int"),
            req("sub", "str"),
            req("aud", "str"),
            req("jti", "str"),
            req("org", "str"),
            req("con", "str"),
            req("rel_ver", "int | str"),
            req("dsc_ver", "int | str"),
            req("caps", "AssertionCap[]"),
        ],
    )
    .extends("VerifiedJws"),
    shape(
        "VerifiedPlatformCall",
        "A verified platform call credential (§3, §4): `purpose` is the one the caller expected. \
         Single use: recording `jti` until `exp` + 60 s is the caller's.",
        &[
            req("iss", "str"),
            req("iat", "int"),
            req("exp", "int"),
            req("jti", "str"),
            req("purpose", "'enroll' | 'validation' | 'revalidation' | 'deliver'")
                .ts("PlatformCallPurpose")
                .py("PlatformCallPurpose"),
        ],
    )
    .extends("VerifiedJws"),
    shape(
        "VerifiedRevocationFeed",
        "A verified revocation feed page or snapshot (§9.3.1); its items are in `claims`.",
        &[
            req("iss", "str"),
            req("iat", "int"),
            req("exp", "int | null").doc("`null` (Python: `None`) when the token has none."),
        ],
    )
    .extends("VerifiedJws"),
    shape(
        "VerifiedAccessToken",
        "A verified access token (§15.1).",
        &[req("iss", "str"), req("iat", "int"), req("exp", "int")],
    )
    .extends("VerifiedJws"),
    shape(
        "ScreeningRule",
        "One rule of screening rules: its id, its category and its phrases.",
        &[
            req("rule_id", "str"),
            req("category", "str"),
            req("phrases", "str[]"),
        ],
    ),
    shape(
        "ScreeningRules",
        "Validated screening rules (§15.5): what `screen` takes as `rules`.",
        &[req("rules_version", "str"), req("rules", "ScreeningRule[]")],
    ),
    shape(
        "ScreeningRulesToken",
        "A verified screening rules token; also accepted as the `rules` of `screen`.",
        &[req("iss", "str"), req("iat", "int"), req("exp", "int")],
    )
    .extends("ScreeningRules"),
    shape(
        "SafetyFlag",
        "A safety flag of a screened result (§15.5, §6.8): never the matched text.",
        &[
            req("category", "str"),
            req("rules_version", "str"),
            opt("rule_id", "str").doc("The first matching rule (network rules only)."),
        ],
    ),
    shape(
        "Receipt",
        "A MAC receipt (profile ekl-evidence-mac-1.1, §9.5) as `sign_receipt` returns it (plain \
         data, wire names): the members it was given, with its `key_id` and `auth_tag` always.",
        &[
            req("key_id", "str"),
            req("auth_tag", "str"),
            opt("receipt_version", "str").ts_index(),
            opt("receipt_id", "str").ts_index(),
            opt("execution_kind", "str").ts_index(),
            opt("requester_agent_id", "str").ts_index(),
            opt("provider_agent_id", "str").ts_index(),
            opt("collaboration_id", "str").ts_index(),
            opt("connection_id", "str").ts_index(),
            opt("execution_id", "str").ts_index(),
            opt("capability_id", "str").ts_index(),
            opt("capability_version", "str").ts_index(),
            opt("rel_ver_at_admission", "int").ts_index(),
            opt("dsc_ver", "int").ts_index(),
            opt("terms_hash", "str").ts_index(),
            opt("input_commitment", "Commitment").ts_index(),
            opt("output_commitment", "Commitment").ts_index(),
            opt("status", "str").ts_index(),
            opt("issued_at", "str").ts_index(),
            opt("auth_profile", "str").ts_index(),
            opt("reservation_id", "str").ts_index(),
            opt("grant_id", "str").ts_index(),
            opt("admission_id", "str").ts_index(),
        ],
    )
    .open(),
    shape(
        "IssuedReceipt",
        "A MAC receipt as `issue_mac_receipt` returns it: every member of §9.5, both commitments \
         salted; `reservation_id`, `grant_id` and `admission_id` for a customer call only.",
        &[
            req("receipt_version", "str"),
            req("receipt_id", "str"),
            req("execution_kind", "str"),
            req("requester_agent_id", "str"),
            req("provider_agent_id", "str"),
            req("collaboration_id", "str"),
            req("connection_id", "str"),
            req("execution_id", "str"),
            req("capability_id", "str"),
            req("capability_version", "str"),
            req("rel_ver_at_admission", "int"),
            req("dsc_ver", "int"),
            req("terms_hash", "str"),
            req("input_commitment", "SaltedCommitment")
                .doc("Salted: `salt` is the salt to commit to what was sent with."),
            req("output_commitment", "SaltedCommitment")
                .doc("Salted: `salt` is the salt to commit to what was received with."),
            req("status", "str").ts("ExecutionStatus").py("ExecutionStatus"),
            req("issued_at", "str"),
            req("key_id", "str"),
            req("auth_profile", "str"),
            req("auth_tag", "str"),
            opt("reservation_id", "str"),
            opt("grant_id", "str"),
            opt("admission_id", "str"),
        ],
    )
    .ts_open(),
    shape(
        "Check",
        "One named check of a verdict. Names are stable snake_case strings, like error codes.",
        &[
            req("name", "str"),
            req("outcome", "'pass' | 'fail' | 'mismatch'"),
            opt("detail", "str").doc("Why it did not pass (never a secret, tag or payload)."),
            opt("expected", "str").doc(
                "What the verifier expected, as a short display text (never a secret, tag or signature).",
            ),
            opt("received", "str").doc(
                "What the receipt holds, as a short display text (never a tag or signature).",
            ),
            opt("reason", "'unknown_key' | 'key_not_yet_valid' | 'key_expired'").doc(
                "Why `key_id` failed: the key is unknown, not yet valid or expired at `issued_at`.",
            ),
            opt("blocked_by", "str").doc(
                "A knock-on: not checked, because the check it names failed (`auth_tag` without a \
                 usable key is blocked by `key_id`); not a cause of its own.",
            ),
        ],
    )
    .not_python(),
    shape(
        "Verdict",
        "A verdict: every check; accepted only when every check passed. A mismatch is a dispute, \
         not an error.",
        &[
            req("accepted", "bool"),
            req("checks", "Check[]"),
            opt("receipt_digest", "str").doc(
                "The digest to report (`collaboration_report`), when it could be computed.",
            ),
        ],
    )
    .not_python(),
    shape(
        "FailingCheck",
        "A check of a verdict that did not pass, in brief: `name` and `outcome` always.",
        &[
            req("name", "str"),
            req("outcome", "'fail' | 'mismatch'"),
            opt("detail", "str"),
            opt("reason", "'unknown_key' | 'key_not_yet_valid' | 'key_expired'")
                .doc("Why `key_id` failed (as in a verdict's check)."),
            opt("blocked_by", "str")
                .doc("A knock-on: not checked, because the check it names failed."),
        ],
    ),
    shape(
        "FirstCause",
        "The first cause of a receipt that is not accepted (`summarize_receipt_lines`): its first \
         failing check that was made (`check`; a knock-on, blocked by another's failure, is not a \
         cause) and, for `key_id`, why (`reason`: an unknown key, a key not yet valid or expired \
         at `issued_at`; else null). A table counts each failed receipt once, under it.",
        &[
            req("check", "str"),
            req("reason", "'unknown_key' | 'key_not_yet_valid' | 'key_expired' | null"),
        ],
    ),
    shape(
        "ReceiptLineSummary",
        "One line of a receipt archive in brief (`summarize_receipt_lines`): its ids as written in \
         the receipt (a JWS's claims; any JSON value, null when absent), its verdict in short, or \
         the error of an item that cannot be verified (`accepted` is then null).",
        &[
            req("line", "int"),
            req("kind", "'mac' | 'jws' | 'object' | 'unknown'"),
            req("label", "json"),
            req("receipt_id", "json"),
            req("execution_id", "json"),
            req("provider_agent_id", "json"),
            req("capability_id", "json"),
            req("issued_at", "json"),
            req("accepted", "bool | null"),
            req("receipt_digest", "str | null"),
            req("passed", "int"),
            req("failing", "FailingCheck[]"),
            req("cause", "FirstCause | null"),
            req("error", "error | null"),
        ],
    ),
    shape(
        "ArchiveOutput",
        "A receipt archive verified as `ekl receipt verify-archive` writes it (`verify_archive`): \
         `output` the JSON lines `{\"line\": N, \"verdict\": V}` or `{\"error\": {code, message}, \
         \"line\": N}`, and the items counted.",
        &[
            req("output", "str"),
            req("accepted", "int"),
            req("not_accepted", "int"),
            req("refused", "int"),
        ],
    ),
    shape(
        "SignedReceipt",
        "A network-signed receipt (profile ekl-evidence-sig-1.2, §9.5.1) as `issue_receipt` \
         returns it: its fields (`issued_at` and the call claims always, which it requires), then \
         `receipt_jws`, `key_id` and `signature` (always present).",
        &[
            req("receipt_jws", "str"),
            req("key_id", "str"),
            req("signature", "str"),
            req("issued_at", "str"),
            req("execution_id", "str"),
            req("provider_agent_id", "str"),
            req("requester_agent_id", "str"),
            req("capability_id", "str"),
            req("input_fingerprint", "str"),
        ],
    )
    .open(),
    shape(
        "Jwk",
        "A public P-256 JWK as this library writes it (`public_jwk`, the keys of a JWKS).",
        &[
            req("kty", "'EC'").py("str"),
            req("crv", "'P-256'").py("str"),
            req("alg", "'ES256'").py("str"),
            req("use", "'sig'").py("str"),
            req("kid", "str"),
            req("x", "str"),
            req("y", "str"),
        ],
    ),
    shape(
        "ReplayAdmission",
        "What the replay store is asked for an admitted credential (`replay_admit`); handed \
         back to `replay_answer` with the store's answers.",
        &[
            req("kind", "str").doc("relationship_assertion or platform_call"),
            req("key", "str").doc("the store key, 64 lowercase hex"),
            req("now_ms", "int").doc("the now the store is given, milliseconds"),
            req("expires_at_ms", "int").doc("until when the store keeps the key (exclusive), ms"),
            req("restored_after_ms", "int")
                .doc("a restore moment later than this refuses the credential, ms"),
        ],
    ),
    shape(
        "ReplayRestore",
        "A restore to record in the replay store (`replay_restore`).",
        &[
            req("at_ms", "int").doc("the moment of detection, milliseconds"),
            req("until_ms", "int").doc("until when the store keeps it, milliseconds"),
            req("now_ms", "int").doc("the now the store is given, milliseconds"),
            req("window", "int").doc("the window, seconds: 120 + 2 x skew"),
        ],
    ),
    shape(
        "RemoteJwksDecision",
        "What a RemoteJwksPolicy asks of its host now: serve the set held, fetch it, fail with \
         `error`, follow the redirect, or read the body.",
        &[
            req("action", "'serve' | 'fetch' | 'fail' | 'follow' | 'read'")
                .doc("serve, fetch, fail, follow or read"),
            opt("error", "error").doc("the refusal (action `fail`)"),
            opt("timeout", "json")
                .doc("the deadline of the whole fetch in seconds (action `fetch`)")
                .ts("number")
                .py("float"),
            opt("max_bytes", "int").doc("the largest body (actions `fetch` and `read`)"),
        ],
    ),
    shape(
        "McpWindow",
        "The state of one MCP call's wire window (`mcp_window`): pass it back as it is.",
        &[
            req("method", "str").doc("The method of the call's request."),
            req("match", "object").doc("The members its params must hold (absent reads as null)."),
            req("awaited", "int | str | null").doc("The id of the call's request, once sent."),
            req("answered", "bool").doc("Whether its answer was received."),
            req("received", "int").doc("The bytes received during the call."),
        ],
    ),
    shape(
        "McpWindowStep",
        "What one message of an MCP call was (`mcp_window`): `seen` is `call` (the call's \
         request), `sent`, `answer` (with `result`, once), `error` (the JSON-RPC error answer), \
         `request` (the server's, with `id` and `method`), `notification`, `other` (an answer to \
         another request) or `end`.",
        &[
            req("window", "McpWindow").doc("The state for the next step."),
            req(
                "seen",
                "'call' | 'sent' | 'answer' | 'error' | 'request' | 'notification' | 'other' | 'end'",
            ),
            opt("result", "object").doc("The answer's result, read by the core's reader."),
            opt("bytes", "int").doc("The answer's length in bytes."),
            opt("error", "json").doc("The error answer's error object."),
            opt("id", "int | str").doc("The id of the server's request."),
            opt("method", "str").doc("The method of the server's request."),
        ],
    ),
    shape(
        "McpListing",
        "The state of one MCP tools/list (`mcp_listing_page`): pass it back as it is.",
        &[
            req("pages", "int"),
            req("tools", "int"),
            req("bytes", "int"),
            req("cursors", "str[]"),
        ],
    ),
    shape(
        "McpListingStep",
        "One page of an MCP tools/list (`mcp_listing_page`): the state, the next cursor and the \
         window of the next page (`null` when the listing ended).",
        &[
            req("listing", "McpListing"),
            req("next", "str | null"),
            req("window", "McpWindow | null"),
        ],
    ),
];

/// The shape named `name`.
pub fn find(name: &str) -> Option<&'static Shape> {
    SHAPES.iter().find(|s| s.name == name)
}

/// Every member of `shape`: those of the shapes it extends first.
pub fn all_members(shape: &Shape) -> Vec<&'static Member> {
    let mut out = match shape.extends.and_then(find) {
        Some(base) => all_members(base),
        None => Vec::new(),
    };
    out.extend(shape.members.iter());
    out
}

/// Checks that `value` is of the type `ty` (the language of this module's documentation; `T[]`
/// and a `returns` name such as `Verdicts` or `JsonValue` included): an error naming the first
/// member at fault (`at` is the path so far).
pub fn check(ty: &str, value: &Value<'_>, at: &str) -> Result<(), String> {
    let alternatives: Vec<&str> = ty.split(" | ").collect();
    let mut first_error = None;
    for alt in &alternatives {
        match check_one(alt.trim(), value, at) {
            Ok(()) => return Ok(()),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    Err(if alternatives.len() == 1 {
        first_error.unwrap_or_default()
    } else {
        format!("{at}: not {ty}")
    })
}

fn check_one(ty: &str, value: &Value<'_>, at: &str) -> Result<(), String> {
    let ok = match ty {
        "str" => matches!(value, Value::String(_)),
        "int" => matches!(value, Value::Number(n) if n.fract() == 0.0),
        "bool" => matches!(value, Value::Bool(_)),
        "null" => matches!(value, Value::Null),
        "json" | "JsonValue" => true,
        "object" => matches!(value, Value::Object(_)),
        "error" => {
            let Value::Object(members) = value else {
                return Err(format!("{at}: not an error object"));
            };
            let code = value.get("code").and_then(Value::as_str);
            members.len() == 2
                && code.is_some_and(|c| crate::error_codes().any(|k| k == c))
                && matches!(value.get("message"), Some(Value::String(_)))
        }
        "Verdicts" => {
            let Value::Array(items) = value else {
                return Err(format!("{at}: not a list"));
            };
            for (i, item) in items.iter().enumerate() {
                let at = format!("{at}[{i}]");
                match item.get("error") {
                    Some(e) if matches!(item, Value::Object(m) if m.len() == 1) => {
                        check("error", e, &at)?
                    }
                    _ => check("Verdict", item, &at)?,
                }
            }
            true
        }
        _ if ty.len() > 2 && ty.starts_with('\'') && ty.ends_with('\'') => {
            matches!(value, Value::String(s) if s.as_ref() == &ty[1..ty.len() - 1])
        }
        _ if ty.ends_with("[]") => {
            let Value::Array(items) = value else {
                return Err(format!("{at}: not a list"));
            };
            for (i, item) in items.iter().enumerate() {
                check(&ty[..ty.len() - 2], item, &format!("{at}[{i}]"))?;
            }
            true
        }
        _ => {
            let shape = find(ty).ok_or_else(|| format!("{at}: no shape {ty:?} is declared"))?;
            return check_shape(shape, value, at);
        }
    };
    if ok {
        Ok(())
    } else {
        Err(format!("{at}: not {ty}"))
    }
}

fn check_shape(shape: &Shape, value: &Value<'_>, at: &str) -> Result<(), String> {
    let Value::Object(present) = value else {
        return Err(format!("{at}: not an object ({})", shape.name));
    };
    let members = all_members(shape);
    for m in &members {
        let path = format!("{at}.{}", m.name);
        match value.get(m.name) {
            Some(v) => check(m.ty, v, &path)?,
            None if m.required => {
                return Err(format!("{path}: missing (required by {})", shape.name))
            }
            None => {}
        }
    }
    if !shape.open {
        for (name, _) in present {
            if !members.iter().any(|m| m.name == name.as_ref()) {
                return Err(format!(
                    "{at}.{name}: not a member of {} (declare it in bridge/src/shapes.rs)",
                    shape.name
                ));
            }
        }
    }
    Ok(())
}
