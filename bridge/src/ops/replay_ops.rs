//! The registry's rows of one domain: the replay guard's rules (PROTOCOL §9.2, §3, §4), the
//! sans-I/O machine of `ekl_core::replay` that the hosts' replay modules drive (their stores do
//! the I/O; docs/decisions.md#replay-guard).

use ekl_core::replay::{self, Admission, Credential};

use super::*;

const KIND_DOC: &str = "relationship_assertion or platform_call";
const SKEW_DOC: &str =
    "the clock skew, seconds in [0, 300] (default 60; the same on every replica)";

fn kind(a: &Args<'_>) -> Result<replay::Kind> {
    replay::Kind::from_name(a.str("kind")?)
}

fn skew(a: &Args<'_>) -> Result<i64> {
    Ok(a.opt_int("skew")?.unwrap_or(replay::DEFAULT_SKEW))
}

/// This domain's operations, in manifest order.
pub(super) const OPS: &[Op] = &[
    Op {
        name: "replay_key",
        class: None,
        section: "§9.2",
        doc: "The replay store key of a credential: lowercase hex SHA-256 of the ekl-json-1 array \
              [\"ekl-replay-1\", kind, issuer, audience, jti].",
        params: &[
            req("kind", Str, KIND_DOC),
            req("issuer", Str, "the credential's iss"),
            req(
                "audience",
                Str,
                "the token endpoint (assertion) or the audience (platform call)",
            ),
            req("jti", Str, "the credential's jti"),
        ],
        returns: Returns::Str,
        refine: None,
        run: |a| {
            s(replay::key(
                kind(a)?,
                a.str("issuer")?,
                a.str("audience")?,
                a.str("jti")?,
            )?)
        },
    },
    Op {
        name: "replay_admit",
        class: None,
        section: "§9.2",
        doc: "Admits a verified single-use credential at now_ms, or refuses it before any store \
              is asked (TOKEN_EXPIRED, TOKEN_NOT_YET_VALID, LIFETIME_TOO_LONG, \
              INVALID_ARGUMENT): what the replay store is asked (the key, until when it keeps \
              it, its now, the latest restore moment that lets it in). Hand the store's answers \
              to replay_answer.",
        params: &[
            req("kind", Str, KIND_DOC),
            req("issuer", Str, "the credential's iss"),
            req(
                "audience",
                Str,
                "the token endpoint (assertion) or the audience (platform call)",
            ),
            req("jti", Str, "the credential's jti"),
            req("iat", Int, "the credential's iat, seconds"),
            req("exp", Int, "the credential's exp, seconds"),
            req(
                "now_ms",
                Int,
                "the time, integer milliseconds since the epoch (not negative; seconds × 1000)",
            ),
            opt("skew", Int, SKEW_DOC),
        ],
        returns: Returns::Value("ReplayAdmission"),
        refine: None,
        run: |a| {
            let c = Credential {
                kind: kind(a)?,
                issuer: a.str("issuer")?,
                audience: a.str("audience")?,
                jti: a.str("jti")?,
                iat: a.int("iat")?,
                exp: a.int("exp")?,
            };
            Ok(Out::Value(
                replay::admit(&c, a.int("now_ms")?, skew(a)?)?.to_value(),
            ))
        },
    },
    Op {
        name: "replay_answer",
        class: None,
        section: "§9.2",
        doc: "Checks the replay store's answers for an admission: the restore moment it keeps \
              (read before the add) and whether it added the key. A restore moment later than \
              restored_after_ms, or an add that changed nothing, is the kind's replay code \
              (ASSERTION_REPLAY, CREDENTIAL_REPLAY); else true.",
        params: &[
            req("admission", Value, "what replay_admit returned").refine("ReplayAdmission"),
            opt(
                "restore_moment",
                Int,
                "the restore moment the store keeps, milliseconds (left out: none)",
            ),
            opt(
                "added",
                Bool,
                "whether the store added the key (left out: not asked yet)",
            ),
        ],
        returns: Returns::Bool,
        refine: None,
        run: |a| {
            let admission = Admission::from_value(&*a.value("admission")?)?;
            replay::answer(
                &admission,
                a.opt_int("restore_moment")?,
                a.opt_bool("added")?,
            )?;
            Ok(Out::Bool(true))
        },
    },
    Op {
        name: "replay_restore",
        class: None,
        section: "§9.2",
        doc: "A restore from an older backup detected at now_ms, to record in the replay store: \
              for the window (120 s + 2 × skew) every credential whose iat is before the moment \
              plus the skew is refused. With now_ms 0 it checks a skew and gives its window.",
        params: &[
            req(
                "now_ms",
                Int,
                "the time of detection, integer milliseconds since the epoch (not negative)",
            ),
            opt("skew", Int, SKEW_DOC),
        ],
        returns: Returns::Value("ReplayRestore"),
        refine: None,
        run: |a| {
            Ok(Out::Value(
                replay::restore(a.int("now_ms")?, skew(a)?)?.to_value(),
            ))
        },
    },
];
