//! The registry's rows of one domain: ES256 JWS and JWKS: signing keys, key sets, tokens, network-signed receipts and every credential type (PROTOCOL §3, §4, §9, §15).

use super::*;

/// This domain's operations, in manifest order.
pub(super) const OPS: &[Op] = &[
    Op {
        name: "parse_jwks",
        class: Some("Jwks"),
        section: "§3",
        doc: "A validated JWKS of P-256 keys, parsed once for many verifications.",
        params: &[req("jwks", Jwks, "the key set")],
        returns: Returns::Jwks,
        refine: None,
        run: |a| Ok(Out::Jwks((*a.jwks("jwks")?).clone())),
    },
    Op {
        name: "verify_jws",
        class: None,
        section: "§3",
        doc: "Verifies a compact ES256 JWS of an EKP type: header, signature and claims. Returns \
              {header, claims, kid, typ, token_sha256}.",
        params: &[
            req("token", Str, "the compact JWS"),
            req("typ", Str, "the expected token type").refine("JwsTyp"),
            req("jwks", Jwks, "the key set"),
            opt("now", Now, "the time to check against (default: now)"),
            opt("issuer", Str, "the expected iss"),
            opt("audience", Str, "the expected aud"),
            opt("skew", Int, "the allowed clock skew in seconds (default 60)"),
            opt("max_lifetime", Int, "the longest exp − iat allowed"),
            opt("require_exp", Bool, "whether exp is required (default true)"),
            opt("require_iat", Bool, "whether iat is required (default true)"),
        ],
        returns: Returns::Value("VerifiedJws"),
        refine: None,
        run: |a| {
            let typ = typ(a.str("typ")?)?;
            let now = a.int("now")?;
            let defaults = ClaimChecks::at(now);
            let checks = ClaimChecks {
                issuer: a.opt_str("issuer")?,
                audience: a.opt_str("audience")?,
                now,
                skew: a.opt_int("skew")?.unwrap_or(defaults.skew),
                max_lifetime: a.opt_int("max_lifetime")?.or(defaults.max_lifetime),
                require_exp: a.opt_bool("require_exp")?.unwrap_or(defaults.require_exp),
                require_iat: a.opt_bool("require_iat")?.unwrap_or(defaults.require_iat),
            };
            let jwks = a.jwks("jwks")?;
            verified_json(&jws::verify(a.str("token")?, typ, &jwks, &checks)?)
        },
    },
    #[cfg(feature = "signing")]
    Op {
        name: "sign_jws",
        class: None,
        section: "§3",
        doc: "Signs claims as a compact ES256 JWS of an EKP type. Refuses what verify_jws would \
              refuse.",
        params: &[
            req("typ", Str, "the token type").refine("JwsTyp"),
            req("claims", Value, "the claims").times(CLAIM_TIMES),
            req("key", Key, "the signing key"),
        ],
        returns: Returns::Str,
        refine: None,
        run: |a| s(jws::sign(typ(a.str("typ")?)?, &*a.value("claims")?, a.key("key")?)?),
    },
    #[cfg(feature = "signing")]
    Op {
        name: "signing_key",
        class: None,
        section: "§3",
        doc: "An ES256 signing key derived from a 32-byte seed (deterministic; tests, vectors, \
              local networks).",
        params: &[
            req("seed", Str, "the seed: 64 lowercase hex"),
            req("kid", Str, "the key id"),
        ],
        returns: Returns::Key,
        refine: None,
        run: |a| Ok(Out::Key(SigningKey::from_seed(&*seed(a.str("seed")?)?, a.str("kid")?)?)),
    },
    #[cfg(feature = "signing")]
    Op {
        name: "signing_key_from_jwk",
        class: None,
        section: "§3",
        doc: "An ES256 signing key from a private JWK: d alone (the public point derived) or with \
              x and y (checked against d).",
        params: &[req("jwk", Value, "the private JWK (kty EC, crv P-256, kid, d)")],
        returns: Returns::Key,
        refine: None,
        run: |a| Ok(Out::Key(SigningKey::from_jwk_value(&*a.value("jwk")?)?)),
    },
    #[cfg(feature = "signing")]
    Op {
        name: "signing_key_from_pem",
        class: None,
        section: "§3",
        doc: "An ES256 signing key from a PEM file: PKCS#8 (BEGIN PRIVATE KEY) or SEC1 (BEGIN EC \
              PRIVATE KEY), P-256, unencrypted.",
        params: &[
            req("pem", Str, "the PEM text"),
            req("kid", Str, "the key id it signs under"),
        ],
        returns: Returns::Key,
        refine: None,
        run: |a| Ok(Out::Key(SigningKey::from_pem(a.str("pem")?, a.str("kid")?)?)),
    },
    #[cfg(feature = "signing")]
    Op {
        name: "public_jwk",
        class: None,
        section: "§3",
        doc: "The public JWK of a signing key (for the key set a verifier fetches).",
        params: &[req("key", Key, "the signing key")],
        returns: Returns::Value("Jwk"),
        refine: None,
        run: |a| Ok(Out::Value(a.key("key")?.public_jwk().to_value())),
    },
    #[cfg(feature = "signing")]
    Op {
        name: "jwks_from_seed",
        class: None,
        section: "§3",
        doc: "The JWKS and signing keys derived from one seed, one per kid.",
        params: &[
            req("seed", Str, "the seed: 64 lowercase hex"),
            req("kids", StrList, "the key ids"),
        ],
        returns: Returns::KeySet,
        refine: None,
        run: |a| {
            let (jwks, keys) = jwk::jwks_from_seed(&*seed(a.str("seed")?)?, a.str_list("kids")?)?;
            Ok(Out::KeySet(jwks, keys))
        },
    },
    Op {
        name: "verify_receipt_jws",
        class: None,
        section: "§9.5.1",
        doc: "The verdict on a network-signed receipt's compact JWS against the call.",
        params: &[
            req("token", Str, "the receipt_jws"),
            req("jwks", Jwks, "the network's key set"),
            req("call", Value, "the call: {execution_id, provider_agent_id, requester_agent_id, capability_id, input_fingerprint, own_agent_id, network_issuer, sent_at, received_at}").times(CALL_TIMES).refine("SignedReceiptCall"),
        ],
        returns: Returns::Verdict,
        refine: None,
        run: |a| {
            let call = a.value("call")?;
            let context = CallContext::from_value(&call)?;
            verdict(receipt_sig::verify_receipt_jws(
                a.str("token")?,
                &*a.jwks("jwks")?,
                &context,
            )?)
        },
    },
    Op {
        name: "verify_signed_receipt",
        class: None,
        section: "§9.5.1",
        doc: "The verdict on a network-signed receipt object: its signature, its JWS, and that \
              they agree.",
        params: &[
            req("receipt", Value, "the receipt object"),
            req("jwks", Jwks, "the network's key set"),
            req("call", Value, "the call (as for verify_receipt_jws)").times(CALL_TIMES).refine("SignedReceiptCall"),
        ],
        returns: Returns::Verdict,
        refine: None,
        run: |a| {
            let call = a.value("call")?;
            let context = CallContext::from_value(&call)?;
            verdict(receipt_sig::verify_receipt(
                &*a.value("receipt")?,
                &*a.jwks("jwks")?,
                &context,
            )?)
        },
    },
    #[cfg(feature = "signing")]
    Op {
        name: "issue_receipt",
        class: None,
        section: "§9.5.1",
        doc: "Issues a network-signed receipt (object signature and receipt_jws) from its fields. \
              Returns the fields with receipt_jws, key_id (the key's kid) and signature added. \
              Refuses what the verifier would refuse; fields holding iss, aud or iat, the claims \
              it adds, are INVALID_ARGUMENT.",
        params: &[
            req(
                "fields",
                Value,
                "the receipt's members (§9.5.1): issued_at (RFC 3339 UTC) and the call claims \
                 execution_id, provider_agent_id, requester_agent_id, capability_id, \
                 input_fingerprint (strings) are required, any other member (status, receipt_id, \
                 ...) is kept as given; not iss, aud or iat",
            )
            .times(ISSUED_AT),
            req("key", Key, "the network's signing key"),
            req("issuer", Str, "the network's issuer (iss)"),
            req("audience", Str, "the consumer's agent id (aud)"),
        ],
        returns: Returns::Value("SignedReceipt"),
        refine: None,
        run: |a| {
            Ok(Out::Value(receipt_sig::issue_receipt(
                &*a.value("fields")?,
                a.key("key")?,
                a.str("issuer")?,
                a.str("audience")?,
            )?))
        },
    },
    Op {
        name: "verify_execution_grant",
        class: None,
        section: "§9.3.2",
        doc: "Verifies an execution grant for a provider: typ ekl-execution-grant+jwt, aud \
              ekl:agent:{provider_id}, lifetime at most 600 s. Returns {header, claims, kid, typ, \
              token_sha256}.",
        params: &[
            req("token", Str, "the execution grant"),
            req("jwks", Jwks, "the network's key set"),
            req("issuer", Str, "the network's issuer"),
            req("provider_id", Str, "the provider's agent id"),
            opt("now", Now, "the time to check against (default: now)"),
        ],
        returns: Returns::Value("VerifiedJws"),
        refine: None,
        run: |a| {
            let grant = ekl_core::credential::verify_execution_grant(
                a.str("token")?,
                &*a.jwks("jwks")?,
                a.str("issuer")?,
                a.str("provider_id")?,
                a.int("now")?,
            )?;
            verified_json(&grant.verified)
        },
    },
    // The per-type credential verifiers (issue 25; result shapes: bridge/src/credential.rs).
    Op {
        name: "verify_relationship_assertion",
        class: None,
        section: "§9.1",
        doc: "Verifies a relationship assertion at a provider's token endpoint: typ \
              ekl-relationship+jwt, aud the token endpoint, lifetime at most 120 s, sub jti org \
              con rel_ver dsc_ver caps required, auth_profile ekl-auth-1.1. Returns the verified \
              token with {iss, iat, exp, sub, aud, jti, org, con, rel_ver, dsc_ver, caps}. Single \
              use: consuming jti is the caller's (§9.2).",
        params: &[
            req("token", Str, "the relationship assertion"),
            req("jwks", Jwks, "the network's key set"),
            req("issuer", Str, "the network's issuer"),
            req("token_endpoint", Str, "the provider's token endpoint (the aud)"),
            opt("now", Now, "the time to check against (default: now)"),
        ],
        returns: Returns::Value("VerifiedRelationshipAssertion"),
        refine: None,
        run: |a| {
            crate::credential::relationship_assertion(
                ekl_core::credential::verify_relationship_assertion(
                    a.str("token")?,
                    &*a.jwks("jwks")?,
                    a.str("issuer")?,
                    a.str("token_endpoint")?,
                    a.int("now")?,
                )?,
            )
        },
    },
    Op {
        name: "verify_platform_call",
        class: None,
        section: "§3, §4",
        doc: "Verifies a platform call credential for a tool that accepts one purpose: typ \
              ekl-platform-call+jwt, lifetime at most 60 s, jti required, purpose equal to the \
              expected one (PURPOSE_MISMATCH), aud checked when an audience is given. Returns the \
              verified token with {iss, iat, exp, jti, purpose}. Single use: consuming jti is the \
              caller's.",
        params: &[
            req("token", Str, "the platform call credential"),
            req("jwks", Jwks, "the network's key set"),
            req("issuer", Str, "the network's issuer"),
            req(
                "purpose",
                Str,
                "the purpose the tool accepts: enroll, validation, revalidation or deliver",
            )
            .refine("PlatformCallPurpose"),
            opt("audience", Str, "the expected aud (default: not checked)"),
            opt("now", Now, "the time to check against (default: now)"),
        ],
        returns: Returns::Value("VerifiedPlatformCall"),
        refine: None,
        run: |a| {
            let purpose = ekl_core::credential::Purpose::from_claim(a.str("purpose")?).ok_or_else(|| {
                invalid("purpose must be enroll, validation, revalidation or deliver")
            })?;
            crate::credential::platform_call(ekl_core::credential::verify_platform_call(
                a.str("token")?,
                &*a.jwks("jwks")?,
                a.str("issuer")?,
                a.opt_str("audience")?,
                purpose,
                a.int("now")?,
            )?)
        },
    },
    Op {
        name: "verify_revocation_feed",
        class: None,
        section: "§9.3.1",
        doc: "Verifies a revocation feed page or snapshot: typ ekl-revocation-feed+jwt, aud the \
              provider's agent id, iat required, exp checked when present. Returns the verified \
              token with {iss, iat, exp} (exp null when absent); the items are in claims.",
        params: &[
            req("token", Str, "the feed page or snapshot"),
            req("jwks", Jwks, "the network's key set"),
            req("issuer", Str, "the network's issuer"),
            req("provider_agent_id", Str, "the provider's agent id (the aud)"),
            opt("now", Now, "the time to check against (default: now)"),
        ],
        returns: Returns::Value("VerifiedRevocationFeed"),
        refine: None,
        run: |a| {
            crate::credential::registered(&ekl_core::credential::verify_revocation_feed(
                a.str("token")?,
                &*a.jwks("jwks")?,
                a.str("issuer")?,
                a.str("provider_agent_id")?,
                a.int("now")?,
            )?)
        },
    },
    Op {
        name: "verify_access_token",
        class: None,
        section: "§15.1",
        doc: "Verifies an access token at a provider: typ ekl-access+jwt, aud \
              ekl:agent:{provider_id}, lifetime at most 900 s. Returns the verified token with \
              {iss, iat, exp}.",
        params: &[
            req("token", Str, "the access token"),
            req("jwks", Jwks, "the network's key set"),
            req("issuer", Str, "the network's issuer"),
            req("provider_id", Str, "the provider's agent id"),
            opt("now", Now, "the time to check against (default: now)"),
        ],
        returns: Returns::Value("VerifiedAccessToken"),
        refine: None,
        run: |a| {
            crate::credential::registered(&ekl_core::credential::verify_access_token(
                a.str("token")?,
                &*a.jwks("jwks")?,
                a.str("issuer")?,
                a.str("provider_id")?,
                a.int("now")?,
            )?)
        },
    },
    #[cfg(feature = "signing")]
    Op {
        name: "issue_relationship_assertion",
        class: None,
        section: "§9.1",
        doc: "Issues a relationship assertion (typ ekl-relationship+jwt) from its claims: iss, aud (the provider's token endpoint), iat, exp (at most 120 s later), sub, jti, org, auth_profile ekl-auth-1.1, con, rel_ver, dsc_ver, caps [{id, ver}]. Refuses, with its code, what verify_relationship_assertion would refuse at the token's first valid second.",
        params: &[
            req("claims", Value, "the claims").times(CLAIM_TIMES),
            req("key", Key, "the network's signing key"),
        ],
        returns: Returns::Str,
        refine: None,
        run: |a| s(ekl_core::credential::issue_relationship_assertion(&*a.value("claims")?, a.key("key")?)?),
    },
    #[cfg(feature = "signing")]
    Op {
        name: "issue_platform_call",
        class: None,
        section: "§3",
        doc: "Issues a platform call credential (typ ekl-platform-call+jwt) from its claims: iss, iat, exp (at most 60 s later), jti, purpose (enroll, validation, revalidation or deliver), aud when the tool names one. Refuses, with its code, what verify_platform_call would refuse.",
        params: &[
            req("claims", Value, "the claims").times(CLAIM_TIMES),
            req("key", Key, "the network's signing key"),
        ],
        returns: Returns::Str,
        refine: None,
        run: |a| s(ekl_core::credential::issue_platform_call(&*a.value("claims")?, a.key("key")?)?),
    },
    #[cfg(feature = "signing")]
    Op {
        name: "issue_execution_grant",
        class: None,
        section: "§9.3.2",
        doc: "Issues an execution grant (typ ekl-execution-grant+jwt) from its claims: iss, aud ekl:agent:{provider_id}, iat, exp (at most 600 s later). Refuses, with its code, what verify_execution_grant would refuse.",
        params: &[
            req("claims", Value, "the claims").times(CLAIM_TIMES),
            req("key", Key, "the network's signing key"),
        ],
        returns: Returns::Str,
        refine: None,
        run: |a| s(ekl_core::credential::issue_execution_grant(&*a.value("claims")?, a.key("key")?)?),
    },
    #[cfg(feature = "signing")]
    Op {
        name: "issue_revocation_feed",
        class: None,
        section: "§9.3.1",
        doc: "Issues a revocation feed page or snapshot (typ ekl-revocation-feed+jwt) from its claims: iss, aud (the provider's agent id), iat, exp optional, the items. Refuses, with its code, what verify_revocation_feed would refuse.",
        params: &[
            req("claims", Value, "the claims").times(CLAIM_TIMES),
            req("key", Key, "the network's signing key"),
        ],
        returns: Returns::Str,
        refine: None,
        run: |a| s(ekl_core::credential::issue_revocation_feed(&*a.value("claims")?, a.key("key")?)?),
    },
    #[cfg(feature = "signing")]
    Op {
        name: "issue_access_token",
        class: None,
        section: "§15.1",
        doc: "Issues an access token (typ ekl-access+jwt) from its claims: iss, aud ekl:agent:{provider_id}, iat, exp (at most 900 s later). Refuses, with its code, what verify_access_token would refuse.",
        params: &[
            req("claims", Value, "the claims").times(CLAIM_TIMES),
            req("key", Key, "the network's signing key"),
        ],
        returns: Returns::Str,
        refine: None,
        run: |a| s(ekl_core::credential::issue_access_token(&*a.value("claims")?, a.key("key")?)?),
    },
    #[cfg(feature = "screening")]
    Op {
        name: "verify_screening_rules",
        class: None,
        section: "§15.5",
        doc: "Verifies a screening rules token: {iss, iat, exp, rules_version, rules}.",
        params: &[
            req("token", Str, "the token"),
            req("jwks", Jwks, "the network's key set"),
            req("issuer", Str, "the network's issuer"),
            opt("now", Now, "the time to check against (default: now)"),
        ],
        returns: Returns::Value("ScreeningRulesToken"),
        refine: None,
        run: |a| {
            let t = screening_rules::verify_screening_rules(
                a.str("token")?,
                &*a.jwks("jwks")?,
                a.str("issuer")?,
                a.int("now")?,
            )?;
            Ok(Out::Value(Value::Object(vec![
                ("iss".into(), Value::from(t.iss)),
                ("iat".into(), Value::from_i64(t.iat)?),
                ("exp".into(), Value::from_i64(t.exp)?),
                ("rules_version".into(), Value::from(t.rules_version)),
                ("rules".into(), t.rules),
            ])))
        },
    },
];
