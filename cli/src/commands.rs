//! The commands of `ekl` over ekl-core: canonical JSON, digests and fingerprints (SPEC §1–§4),
//! MAC receipts and endpoint proofs (§5–§6), ES256 JWS and network-signed receipts (§7), screening.

use std::path::Path;

use ekl_core::canonical::{self, Options};
use ekl_core::digest::{self, Salt};
use ekl_core::{fingerprint, Error, ErrorCode, Value};

use crate::args::{
    AgentKeySource, Command, Input, JwksCommand, JwsCommand, KeyRingSource, ProofCommand,
    ReceiptCommand, SecretArgs, SignedReceiptArgs, TokenArgs,
};
use crate::input::{Inputs, SecretSource, MAX_DOCUMENT_BYTES};
use crate::Failure;

/// The bytes to print, or why not.
pub type CmdResult = Result<Vec<u8>, Failure>;

/// Runs one command (every command but `conformance`).
pub fn run(command: Command, io: &Inputs) -> CmdResult {
    match command {
        Command::Canon {
            capability_input,
            max_bytes,
            input,
        } => {
            let mut options = if capability_input {
                Options::capability_input()
            } else {
                Options::default()
            };
            if max_bytes.is_some() {
                options.max_bytes = max_bytes;
            }
            Ok(canonical::canonicalize_with(&doc(io, &input)?, options)?)
        }
        Command::Digest { input } => {
            let bytes = canonical::canonicalize(&doc(io, &input)?)?;
            Ok(line(&digest::sha256_hex(&bytes)))
        }
        Command::Commit {
            salt,
            salt_id,
            capability_input,
            input,
        } => {
            let salt = salt.as_deref().map(Salt::from_hex).transpose()?;
            let bytes = doc(io, &input)?;
            let value = canonical::parse(&bytes)?;
            let c = if capability_input {
                digest::input_commitment(&value, salt.as_ref(), salt_id.as_deref())?
            } else {
                digest::commitment(&value, salt.as_ref(), salt_id.as_deref())?
            };
            Ok(line(&c.to_canonical_json()))
        }
        Command::TermsHash { input } => {
            let bytes = doc(io, &input)?;
            Ok(line(&digest::terms_hash(&canonical::parse(&bytes)?)?))
        }
        Command::Fingerprint { salt, input } => {
            let salt = Salt::from_hex(&salt.salt)?;
            let bytes = doc(io, &input)?;
            Ok(line(&fingerprint::fingerprint(
                &salt,
                &canonical::parse(&bytes)?,
            )?))
        }
        Command::OutputFingerprint { salt, input } => {
            let salt = Salt::from_hex(&salt.salt)?;
            let bytes = doc(io, &input)?;
            Ok(line(&fingerprint::output_fingerprint(
                &salt,
                &canonical::parse(&bytes)?,
            )?))
        }
        Command::UpstreamFingerprint { offered, input } => {
            let offered: Option<Vec<&str>> = offered
                .as_deref()
                .map(|s| s.split(',').filter(|n| !n.is_empty()).collect());
            let bytes = doc(io, &input)?;
            Ok(line(&fingerprint::upstream_fingerprint(
                &canonical::parse(&bytes)?,
                offered.as_deref(),
            )?))
        }
        Command::Jws(c) => jws(c, io),
        Command::Jwks(c) => jwks(c, io),
        Command::Receipt(c) => receipt(c, io),
        Command::Proof(c) => proof(c, io),
        Command::Screen { rules, input } => {
            use ekl_core::screening::{self, ScreeningRules};
            let rules = match rules {
                Some(p) => {
                    let bytes = io.option_file(&p, "the --rules file")?;
                    Some(ScreeningRules::from_claims(&canonical::parse(&bytes)?)?)
                }
                None => None,
            };
            let bytes = doc(io, &input)?;
            let flags = screening::scan(rules.as_ref(), &canonical::parse(&bytes)?);
            canonical_line(&Value::Array(flags.iter().map(|f| f.to_value()).collect()))
        }
        Command::ErrorCodes => Ok(ErrorCode::ALL
            .iter()
            .flat_map(|c| line(c.as_str()))
            .collect()),
        Command::Conformance(_) => Err(Failure::Usage(
            "conformance runs on its own (ekl conformance --help)".into(),
        )),
        Command::Call(a) => call(io, a),
    }
}

/// `ekl call NAME`: any operation of the registry (cli/src/call.rs).
fn call(io: &Inputs, a: crate::args::CallArgs) -> CmdResult {
    use crate::call::{decode_args, from_text, run, Owned};
    if a.list {
        return Ok(ekl_bridge::manifest::operations_json().into_bytes());
    }
    let name = a.name.unwrap_or_default();
    let op = ekl_bridge::find(&name).ok_or_else(|| {
        Failure::Usage("no such operation (ekl call --list lists them)".to_owned())
    })?;
    let mut owned: Vec<Owned> = match &a.args_file {
        Some(path) => {
            let bytes = io.option_file(path, "the --args file")?;
            decode_args(op, &canonical::parse(&bytes)?)?
        }
        None => op.params.iter().map(|_| Owned::Absent).collect(),
    };
    let split = |pair: &str| -> Result<(usize, String), Failure> {
        let (k, v) = pair
            .split_once('=')
            .ok_or_else(|| Failure::Usage("an argument is NAME=VALUE".to_owned()))?;
        let i = op.param_index(k).ok_or_else(|| {
            let allowed: Vec<&str> = op.params.iter().map(|p| p.name).collect();
            Failure::Usage(format!(
                "{}: unknown argument (allowed: {})",
                op.name,
                allowed.join(", ")
            ))
        })?;
        Ok((i, v.to_owned()))
    };
    for pair in &a.args {
        let (i, v) = split(pair)?;
        owned[i] = from_text(op.params[i].name, op.params[i].kind, v)?;
    }
    for pair in &a.arg_files {
        let (i, path) = split(pair)?;
        let bytes = io.path(
            std::path::Path::new(&path),
            "an --arg-file file",
            MAX_DOCUMENT_BYTES,
        )?;
        let text = String::from_utf8(bytes)
            .map_err(|_| Error::new(ErrorCode::InvalidUtf8, "an --arg-file file is not UTF-8"))?;
        let text = text
            .strip_suffix('\n')
            .map(|t| t.strip_suffix('\r').unwrap_or(t))
            .unwrap_or(&text)
            .to_owned();
        owned[i] = from_text(op.params[i].name, op.params[i].kind, text)?;
    }
    for pair in &a.arg_envs {
        let (i, var) = split(pair)?;
        let text = std::env::var(&var)
            .map_err(|_| invalid("an --arg-env variable is not set (or not UTF-8)"))?;
        owned[i] = from_text(op.params[i].name, op.params[i].kind, text)?;
    }
    let out = run(op, &owned, Some(now_or_clock(None)?))?;
    let mut bytes = match &out {
        ekl_bridge::Out::Bytes(b) => b.clone(),
        other => other.to_json()?,
    };
    bytes.push(b'\n');
    if op.returns == ekl_bridge::Returns::Verdict {
        if let ekl_bridge::Out::Value(v) = &out {
            if v.get("accepted") != Some(&Value::Bool(true)) {
                return Err(Failure::NotAccepted(bytes));
            }
        }
    }
    Ok(bytes)
}

fn doc(io: &Inputs, input: &Input) -> Result<Vec<u8>, Failure> {
    io.document(input.file.as_deref())
}

fn line(s: &str) -> Vec<u8> {
    format!("{s}\n").into_bytes()
}

fn canonical_line(v: &Value<'_>) -> CmdResult {
    let mut out = canonical::canonicalize_value(v)?;
    out.push(b'\n');
    Ok(out)
}

fn invalid(message: impl Into<String>) -> Failure {
    Failure::Refused(Error::new(ErrorCode::InvalidArgument, message))
}

/// A secret that must be given: the first source, or a usage error naming every form.
fn required_secret(
    io: &Inputs,
    src: SecretSource<'_>,
    name: &'static str,
) -> Result<String, Failure> {
    io.secret(src, name)?.ok_or_else(|| {
        Failure::Usage(format!(
            "the {name} is required: --{name} VALUE, --{name}-file FILE, --{name}-env VAR or --{name}-stdin"
        ))
    })
}

// --- jws, jwks, receipt verify-jws / verify-signed (SPEC §7) -------------------------------------

fn typ(t: &str) -> Result<ekl_core::jws::Typ, Failure> {
    ekl_core::jws::Typ::from_header(t).ok_or_else(|| {
        Failure::Usage(format!(
            "--typ must be one of {}",
            ekl_core::jws::Typ::ALL.map(|t| t.as_str()).join(", ")
        ))
    })
}

pub fn jwks_file(io: &Inputs, path: &Path) -> Result<ekl_core::jwk::Jwks, Failure> {
    let bytes = io.option_file(path, "the --jwks file")?;
    Ok(ekl_core::jwk::Jwks::parse(&bytes)?)
}

fn seed(io: &Inputs, src: SecretSource<'_>) -> Result<[u8; 32], Failure> {
    let hex = required_secret(io, src, "seed")?;
    Ok(ekl_core::hex::decode_fixed::<32>(
        &hex,
        ErrorCode::InvalidKey,
        "the seed",
    )?)
}

/// The current time in seconds since the epoch (the core itself never reads a clock).
fn now_or_clock(now: Option<i64>) -> Result<i64, Failure> {
    if let Some(n) = now {
        return Ok(n);
    }
    let since = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_err(|_| invalid("the system clock is before 1970: give --now SECS"))?;
    i64::try_from(since.as_secs())
        .map_err(|_| invalid("the system clock is out of range: give --now SECS"))
}

/// The token: `--token`, else `--token-file` or FILE, else stdin; surrounding whitespace ignored.
fn token(io: &Inputs, t: &TokenArgs) -> Result<String, Failure> {
    if let Some(tok) = &t.token {
        return Ok(tok.trim().to_owned());
    }
    let bytes = match (&t.token_file, &t.file) {
        (Some(p), _) => io.path(p, "the --token-file file", MAX_DOCUMENT_BYTES)?,
        (None, Some(p)) if p.as_os_str() != "-" => {
            io.path(p, "the token file", MAX_DOCUMENT_BYTES)?
        }
        _ => io.stdin("the token", MAX_DOCUMENT_BYTES)?,
    };
    let text = String::from_utf8(bytes)
        .map_err(|_| Failure::Refused(Error::new(ErrorCode::JwsMalformed, "a token is ascii")))?;
    Ok(text.trim().to_owned())
}

/// `{claims, header, kid, token_sha256}` as canonical JSON, written around the canonical forms of
/// the already verified header and claims: the wrapper adds no nesting level to them, so claims
/// that reach the depth limit are printed as every other surface returns them (issue 14.6).
fn verified_json(v: &ekl_core::jws::Verified) -> CmdResult {
    let mut out = Vec::new();
    out.extend_from_slice(b"{\"claims\":");
    out.extend_from_slice(&canonical::canonicalize_value(&v.claims)?);
    out.extend_from_slice(b",\"header\":");
    out.extend_from_slice(&canonical::canonicalize_value(&v.header)?);
    out.extend_from_slice(b",\"kid\":");
    canonical::write_string(&v.kid, &mut out);
    out.extend_from_slice(b",\"token_sha256\":");
    canonical::write_string(&v.token_sha256, &mut out);
    out.extend_from_slice(b"}\n");
    Ok(out)
}

fn jws(c: JwsCommand, io: &Inputs) -> CmdResult {
    match c {
        JwsCommand::Verify {
            typ: t,
            jwks,
            now,
            iss,
            aud,
            token: tok,
        } => {
            let typ = typ(&t.typ)?;
            let jwks = jwks_file(io, &jwks)?;
            let checks = ekl_core::jws::ClaimChecks {
                issuer: iss.as_deref(),
                audience: aud.as_deref(),
                ..ekl_core::jws::ClaimChecks::at(now_or_clock(now)?)
            };
            let token = token(io, &tok)?;
            let v = ekl_core::jws::verify(&token, typ, &jwks, &checks)?;
            verified_json(&v)
        }
        JwsCommand::Sign {
            typ: t,
            seed: s,
            kid,
            input,
        } => {
            let typ = typ(&t.typ)?;
            let key = ekl_core::jwk::SigningKey::from_seed(&seed(io, s.source())?, &kid)?;
            let bytes = doc(io, &input)?;
            let claims = canonical::parse(&bytes)?;
            Ok(line(&ekl_core::jws::sign(typ, &claims, &key)?))
        }
    }
}

fn jwks(c: JwksCommand, io: &Inputs) -> CmdResult {
    match c {
        JwksCommand::FromSeed {
            seed: s,
            kid,
            private,
        } => {
            let seed = seed(io, s.source())?;
            let kids: Vec<&str> = kid.split(',').collect();
            let (jwks, keys) = ekl_core::jwk::jwks_from_seed(&seed, &kids)?;
            if private {
                let items: Vec<String> = keys.iter().map(|k| k.to_private_jwk_json()).collect();
                return Ok(line(&format!("{{\"keys\":[{}]}}", items.join(","))));
            }
            Ok(line(&jwks.to_json()))
        }
    }
}

fn call_context<'a>(
    call: &'a Value<'a>,
) -> Result<ekl_core::receipt_sig::CallContext<'a>, Failure> {
    Ok(ekl_core::receipt_sig::CallContext::from_value(call)?)
}

fn verdict_output(v: &ekl_core::verdict::Verdict) -> CmdResult {
    let out = canonical_line(&v.to_value())?;
    if v.accepted {
        Ok(out)
    } else {
        Err(Failure::NotAccepted(out))
    }
}

/// The key set and the call of a network-signed receipt check.
fn signed_receipt_inputs(
    io: &Inputs,
    a: &SignedReceiptArgs,
) -> Result<(ekl_core::jwk::Jwks, Vec<u8>), Failure> {
    let jwks = jwks_file(io, &a.jwks)?;
    let call = io.option_file(&a.call, "the --call file")?;
    Ok((jwks, call))
}

// --- MAC receipts (SPEC §6) ------------------------------------------------------------------------

/// The key ring of a secret (the baseline ring) or of a key ring source; `None` when neither is
/// given, a usage error when both are.
pub fn key_ring_of(
    io: &Inputs,
    secret: &SecretArgs,
    key_ring: &KeyRingSource,
) -> Result<Option<ekl_core::receipt::KeyRing>, Failure> {
    use ekl_core::receipt::KeyRing;
    Ok(match (secret.source(), key_ring.source()) {
        (SecretSource::None, SecretSource::None) => None,
        (s, SecretSource::None) => Some(KeyRing::baseline(&required_secret(io, s, "secret")?)),
        (SecretSource::None, k) => {
            let text = required_secret(io, k, "key-ring")?;
            Some(KeyRing::from_value(&canonical::parse(text.as_bytes())?)?)
        }
        _ => {
            return Err(Failure::Usage(
                "give a secret (--secret, --secret-file, --secret-env, --secret-stdin) or a key \
                 ring (--key-ring, --key-ring-env, --key-ring-stdin), not both"
                    .into(),
            ))
        }
    })
}

fn receipt(c: ReceiptCommand, io: &Inputs) -> CmdResult {
    use ekl_core::receipt;
    match c {
        ReceiptCommand::Sign { secret, input } => {
            let secret = required_secret(io, secret.source(), "secret")?;
            let bytes = doc(io, &input)?;
            canonical_line(&receipt::sign_receipt(&canonical::parse(&bytes)?, &secret)?)
        }
        ReceiptCommand::Digest { input } => {
            let bytes = doc(io, &input)?;
            Ok(line(&receipt::receipt_digest(&canonical::parse(&bytes)?)?))
        }
        ReceiptCommand::Verify {
            secret,
            key_ring,
            call,
            own_input,
            own_result,
            salt,
            input,
        } => {
            let ring = key_ring_of(io, &secret, &key_ring)?.ok_or_else(|| {
                Failure::Usage(
                    "give exactly one of a secret (--secret, --secret-file, --secret-env, \
                     --secret-stdin) and a key ring (--key-ring, --key-ring-env, \
                     --key-ring-stdin)"
                        .into(),
                )
            })?;
            let call_bytes = io.option_file(&call, "the --call file")?;
            let call = receipt::CallExpectation::from_value(&canonical::parse(&call_bytes)?)?;
            let salt = salt.as_deref().map(Salt::from_hex).transpose()?;
            let own = |path: &Option<std::path::PathBuf>,
                       what: &'static str|
             -> Result<Option<digest::Commitment>, Failure> {
                match path {
                    None => Ok(None),
                    Some(p) => {
                        let bytes = io.option_file(p, what)?;
                        Ok(Some(digest::commitment(
                            &canonical::parse(&bytes)?,
                            salt.as_ref(),
                            None,
                        )?))
                    }
                }
            };
            let own_in = own(&own_input, "the --own-input file")?;
            let own_out = own(&own_result, "the --own-result file")?;
            let bytes = doc(io, &input)?;
            let verdict = receipt::verify_receipt(
                &canonical::parse(&bytes)?,
                &ring,
                &call,
                own_in.as_ref(),
                own_out.as_ref(),
            )?;
            verdict_output(&verdict)
        }
        ReceiptCommand::VerifyJws { signed, token: t } => {
            let (jwks, call_bytes) = signed_receipt_inputs(io, &signed)?;
            let call = canonical::parse(&call_bytes)?;
            let ctx = call_context(&call)?;
            let token = token(io, &t)?;
            verdict_output(&ekl_core::receipt_sig::verify_receipt_jws(
                &token, &jwks, &ctx,
            )?)
        }
        ReceiptCommand::VerifyArchive(_) => Err(Failure::Usage(
            "receipt verify-archive runs on its own".into(),
        )),
        ReceiptCommand::VerifySigned { signed, input } => {
            let (jwks, call_bytes) = signed_receipt_inputs(io, &signed)?;
            let call = canonical::parse(&call_bytes)?;
            let ctx = call_context(&call)?;
            let bytes = doc(io, &input)?;
            let receipt = canonical::parse(&bytes)?;
            verdict_output(&ekl_core::receipt_sig::verify_receipt(
                &receipt, &jwks, &ctx,
            )?)
        }
    }
}

// --- endpoint proofs (SPEC §5) ---------------------------------------------------------------------

/// The agent key from its options, or (for `proof key` only) from FILE or stdin.
fn agent_key(
    io: &Inputs,
    src: &AgentKeySource,
    fallback: Option<Option<&Path>>,
) -> Result<String, Failure> {
    if let Some(k) = io.secret(src.source(), "agent-key")? {
        return Ok(k);
    }
    match fallback {
        Some(None) => Ok(io
            .secret(SecretSource::Stdin, "agent-key")?
            .unwrap_or_default()),
        Some(Some(p)) => Ok(io
            .secret(SecretSource::File(p), "agent-key")?
            .unwrap_or_default()),
        None => required_secret(io, SecretSource::None, "agent-key"),
    }
}

fn proof(c: ProofCommand, io: &Inputs) -> CmdResult {
    use ekl_core::proof::{self, NetworkHolds, ProofKey, ProofVersion};
    match c {
        ProofCommand::Key { agent_key: k, file } => {
            if file.is_some() && !matches!(k.source(), SecretSource::None) {
                return Err(Failure::Usage(
                    "give the agent key once: an --agent-key option or FILE".into(),
                ));
            }
            let key = agent_key(io, &k, Some(file.as_deref()))?;
            Ok(line(&ProofKey::derive(&key).to_hex()))
        }
        ProofCommand::Challenge {
            target,
            proof_key,
            agent_key: k,
            v1,
        } => {
            let (c, e) = (target.challenge.as_str(), target.endpoint.as_str());
            let pk = io.secret(proof_key.source(), "proof-key")?;
            if v1 {
                if pk.is_some() {
                    return Err(Failure::Usage(
                        "--v1 needs the agent key, not the proof key".into(),
                    ));
                }
                return Ok(line(&proof::challenge_proof_v1(
                    &agent_key(io, &k, None)?,
                    c,
                    e,
                )));
            }
            let key = match pk {
                Some(h) => {
                    if !matches!(k.source(), SecretSource::None) {
                        return Err(Failure::Usage(
                            "give one of the proof key and the agent key".into(),
                        ));
                    }
                    ProofKey::from_hex(&h)?
                }
                None => ProofKey::derive(&agent_key(io, &k, None)?),
            };
            Ok(line(&proof::challenge_proof_v2(&key, c, e)))
        }
        ProofCommand::Enroll {
            enrollment: n,
            agent_key: k,
            v1,
        } => {
            let key = agent_key(io, &k, None)?;
            let (id, nonce, e) = (&n.enrollment_id, &n.nonce, &n.endpoint);
            Ok(line(&if v1 {
                proof::enroll_authority_v1(&key, id, nonce, e)
            } else {
                proof::enroll_authority_v2(&ProofKey::derive(&key), id, nonce, e)
            }))
        }
        ProofCommand::VerifySignature {
            secret,
            agent_id,
            enrollment_id,
            challenge,
            signature,
        } => {
            let s = required_secret(io, secret.source(), "secret")?;
            let (a, i, c) = (&agent_id, &enrollment_id, &challenge);
            match signature {
                None => Ok(line(&proof::verify_signature(&s, a, i, c))),
                Some(sig) if proof::check_verify_signature(&s, a, i, c, &sig) => Ok(line("ok")),
                Some(_) => Err(Failure::NotAccepted(line("signature does not verify"))),
            }
        }
        ProofCommand::VerifyChallenge {
            target,
            proof_key,
            credential_sha256,
            proof: p1,
            proof_v2,
        } => {
            let pk = io.secret(proof_key.source(), "proof-key")?;
            let holds = match (pk, credential_sha256) {
                (Some(h), None) => NetworkHolds::ProofKey(ProofKey::from_hex(&h)?),
                (None, Some(h)) => NetworkHolds::credential_hash_hex(&h)?,
                _ => {
                    return Err(Failure::Usage(
                        "give exactly one of the proof key (--proof-key, --proof-key-file, \
                         --proof-key-env, --proof-key-stdin) and --credential-sha256"
                            .into(),
                    ))
                }
            };
            let v = proof::verify_challenge_proof(
                &holds,
                &target.challenge,
                &target.endpoint,
                p1.as_deref(),
                proof_v2.as_deref(),
            )?;
            Ok(line(v.as_str()))
        }
        ProofCommand::VerifyEnroll {
            announced,
            agent_key: k,
            enrollment: n,
            authority,
            authority_version,
        } => {
            let announced = ProofVersion::from_name(&announced)?;
            let v = proof::verify_enroll_authority(
                announced,
                &agent_key(io, &k, None)?,
                &n.enrollment_id,
                &n.nonce,
                &n.endpoint,
                authority.as_deref(),
                authority_version,
            )?;
            Ok(line(v.as_str()))
        }
    }
}
