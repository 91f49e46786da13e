//! `ekl`: the command-line tool over ekl-core.
//!
//! Every command reads JSON from a file or from stdin (`-` or no file), writes its result to
//! stdout, and on a refusal prints `ekl: CODE: message` to stderr and exits with status 2 (usage
//! errors exit with status 64). Run `ekl help` for the list of commands.
#![forbid(unsafe_code)]

mod conformance;

use std::io::{Read, Write};
use std::process::ExitCode;

use ekl_core::canonical::{self, Options};
use ekl_core::digest::{self, Salt};
use ekl_core::{fingerprint, Error, ErrorCode};

const USAGE: &str = "\
ekl — EKP 1.2 evidence bytes (ekl-json-1, commitments, fingerprints, proofs, receipts, JWS)

usage: ekl COMMAND [OPTIONS] [FILE|-]      (FILE defaults to stdin)

  canon [--capability-input | --max-bytes N] [FILE]
                         the ekl-json-1 canonical form
  digest [FILE]          lowercase hex SHA-256 of the canonical form
  commit [--salt HEX [--salt-id ID]] [--capability-input] [FILE]
                         the commitment {alg, canon, digest[, salt_id, salt]} as canonical JSON
  terms-hash [FILE]      the terms hash of §6.7.1 (digest of the terms without `hash`)
  fingerprint --salt HEX [FILE]
                         salted fingerprint SHA-256(salt ‖ ekl-json-1(value)) (§15.3)
  output-fingerprint --salt HEX [FILE]
                         fingerprint of an MCP tool result (structuredContent, else content)
  upstream-fingerprint [--offered NAME,NAME..] [FILE]
                         §5.1 fingerprint of a tools/list result (or an array of tools)
  jws verify --typ T --jwks FILE --now SECS [--iss ISS] [--aud AUD] [TOKEN|FILE|-]
                         verify an ES256 compact JWS of EKP type T (e.g. ekl-receipt+jwt);
                         prints {header, claims, kid, token_sha256}
  jws sign --typ T --seed HEX --kid KID [FILE]
                         sign the claims JSON (key from the 32-byte seed, RFC 6979 nonces)
  jwks from-seed --seed HEX --kid KID[,KID..] [--private]
                         the key set (or the private JWKs) derived from a 32-byte seed
  receipt verify-jws --jwks FILE --call FILE [TOKEN|FILE|-]
  receipt verify-signed --jwks FILE --call FILE [FILE|-]
                         verify a network-signed receipt's JWS (or the whole receipt object)
                         against the call (JSON: execution_id, provider_agent_id,
                         requester_agent_id, capability_id, input_fingerprint, own_agent_id,
                         network_issuer, sent_at, received_at); prints the verdict; exit 1
                         when it is not accepted
  receipt sign --secret S [FILE]
                         the receipt with its auth_tag (ekl-evidence-mac-1.1, §9.5)
  receipt digest [FILE]  receipt_digest: SHA-256 of ekl-json-1 of the whole receipt
  receipt verify (--secret S | --key-ring KEYS) --call CALL [--own-input IN] [--own-result OUT]
                 [--salt HEX] [FILE]
                         the verdict as JSON; exit 0 when accepted, 1 when not (KEYS: a JSON array
                         of {key_id, secret, valid_from, valid_until?}; CALL: JSON of the call)
  proof key [--agent-key K | FILE]
                         the proof key (hex) of an agent key (given, or read from FILE/stdin)
  proof challenge --challenge C --endpoint E (--proof-key HEX | --agent-key K) [--v1]
                         the challenge's proof_v2 (with --v1 and --agent-key: the v1 proof)
  proof enroll --enrollment-id ID --nonce N --endpoint E --agent-key K [--v1]
                         the ekl_enroll authority v2 (with --v1: v1)
  proof verify-signature --secret S --agent-id A --enrollment-id ID --challenge C [--signature SIG]
                         the ekl_verify signature, or with --signature: check it (exit 0 or 1)
  proof verify-challenge --challenge C --endpoint E (--proof-key HEX | --credential-sha256 HEX)
                 [--proof P] [--proof-v2 P]
                         network side, no downgrade: prints v1 or v2, or refuses (PROOF_DOWNGRADE,
                         PROOF_INVALID)
  proof verify-enroll --announced v1|v2 --agent-key K --enrollment-id ID --nonce N --endpoint E
                 [--authority A] [--authority-version 1|2]
                         agent side, no downgrade: prints v1 or v2, or refuses
  screen [--rules CLAIMS] [FILE]
                         safety flags of a tool result (§15.5) as a JSON array; CLAIMS: the claims
                         of a verified screening-rules token (local leak patterns only without it)
  conformance [--corpus N] [--seed S] [--only RULE] -- COMMAND [ARGS..]
                         check another implementation over the JSON-lines protocol of
                         docs/conformance-protocol.md (--serve: answer it; --help: details)
  error-codes            every stable error code, one per line
  help                   this text
";

/// A failure of the tool: a refusal of the core (exit 2) or a usage error (exit 64).
enum Failure {
    Refused(Error),
    Usage(String),
    Io(String),
    /// A verdict that is not accepted: printed to stdout, exit status 1.
    NotAccepted(Vec<u8>),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Failure::Refused(e)
    }
}

type CmdResult = Result<Vec<u8>, Failure>;

/// Parsed arguments: `--name value` options, `--flag` switches and at most one positional file.
struct Args {
    options: Vec<(String, Option<String>)>,
    file: Option<String>,
}

/// Options that take a value; every other `--x` is a switch.
const VALUED: &[&str] = &[
    "--salt",
    "--salt-id",
    "--max-bytes",
    "--offered",
    "--typ",
    "--jwks",
    "--iss",
    "--aud",
    "--now",
    "--seed",
    "--kid",
    "--secret",
    "--key-ring",
    "--call",
    "--rules",
    "--endpoint",
    "--challenge",
    "--agent-key",
    "--proof-key",
    "--enrollment-id",
    "--nonce",
    "--agent-id",
    "--own-input",
    "--own-result",
    "--credential-sha256",
    "--proof",
    "--proof-v2",
    "--authority",
    "--authority-version",
    "--announced",
    "--signature",
];

impl Args {
    fn parse(raw: &[String]) -> Result<Args, Failure> {
        let mut options = Vec::new();
        let mut file = None;
        let mut i = 0;
        while i < raw.len() {
            let a = &raw[i];
            if a.starts_with("--") {
                if VALUED.contains(&a.as_str()) {
                    let v = raw
                        .get(i + 1)
                        .ok_or_else(|| Failure::Usage(format!("{a} needs a value")))?;
                    options.push((a.clone(), Some(v.clone())));
                    i += 2;
                    continue;
                }
                options.push((a.clone(), None));
            } else if file.replace(a.clone()).is_some() {
                return Err(Failure::Usage("more than one input file".into()));
            }
            i += 1;
        }
        Ok(Args { options, file })
    }

    fn value(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_deref())
    }

    fn flag(&self, name: &str) -> bool {
        self.options.iter().any(|(n, _)| n == name)
    }

    fn only(&self, allowed: &[&str]) -> Result<(), Failure> {
        match self
            .options
            .iter()
            .find(|(n, _)| !allowed.contains(&n.as_str()))
        {
            Some((n, _)) => Err(Failure::Usage(format!("unknown option {n}"))),
            None => Ok(()),
        }
    }

    /// The input bytes: the file, or stdin for `-` or no file.
    fn input(&self) -> Result<Vec<u8>, Failure> {
        read_input(self.file.as_deref())
    }
}

/// Reads a file, or stdin for `None` and `-`.
fn read_input(path: Option<&str>) -> Result<Vec<u8>, Failure> {
    match path {
        None | Some("-") => {
            let mut buf = Vec::new();
            std::io::stdin()
                .read_to_end(&mut buf)
                .map_err(|e| Failure::Io(format!("cannot read stdin: {e}")))?;
            Ok(buf)
        }
        Some(p) => std::fs::read(p).map_err(|e| Failure::Io(format!("cannot read {p}: {e}"))),
    }
}

fn salt_arg(args: &Args) -> Result<Option<Salt>, Failure> {
    args.value("--salt")
        .map(Salt::from_hex)
        .transpose()
        .map_err(Failure::from)
}

fn required_salt(args: &Args) -> Result<Salt, Failure> {
    salt_arg(args)?.ok_or_else(|| Failure::Usage("--salt HEX is required".into()))
}

fn line(s: &str) -> Vec<u8> {
    format!("{s}\n").into_bytes()
}

fn cmd_canon(args: &Args) -> CmdResult {
    args.only(&["--capability-input", "--max-bytes"])?;
    let mut options = Options::default();
    if args.flag("--capability-input") {
        options = Options::capability_input();
    }
    if let Some(n) = args.value("--max-bytes") {
        let n = n
            .parse()
            .map_err(|_| Failure::Usage("--max-bytes needs a number".into()))?;
        options.max_bytes = Some(n);
    }
    Ok(canonical::canonicalize_with(&args.input()?, options)?)
}

fn cmd_digest(args: &Args) -> CmdResult {
    args.only(&[])?;
    let bytes = canonical::canonicalize(&args.input()?)?;
    Ok(line(&digest::sha256_hex(&bytes)))
}

fn cmd_commit(args: &Args) -> CmdResult {
    args.only(&["--salt", "--salt-id", "--capability-input"])?;
    let salt = salt_arg(args)?;
    let salt_id = args.value("--salt-id");
    if salt_id.is_some() && salt.is_none() {
        return Err(Failure::Usage("--salt-id needs --salt".into()));
    }
    let input = args.input()?;
    let value = canonical::parse(&input)?;
    let c = if args.flag("--capability-input") {
        digest::input_commitment(&value, salt.as_ref(), salt_id)?
    } else {
        digest::commitment(&value, salt.as_ref(), salt_id)?
    };
    Ok(line(&c.to_canonical_json()))
}

fn cmd_terms_hash(args: &Args) -> CmdResult {
    args.only(&[])?;
    let input = args.input()?;
    Ok(line(&digest::terms_hash(&canonical::parse(&input)?)?))
}

fn cmd_fingerprint(args: &Args) -> CmdResult {
    args.only(&["--salt"])?;
    let salt = required_salt(args)?;
    let input = args.input()?;
    Ok(line(&fingerprint::fingerprint(
        &salt,
        &canonical::parse(&input)?,
    )?))
}

fn cmd_output_fingerprint(args: &Args) -> CmdResult {
    args.only(&["--salt"])?;
    let salt = required_salt(args)?;
    let input = args.input()?;
    Ok(line(&fingerprint::output_fingerprint(
        &salt,
        &canonical::parse(&input)?,
    )?))
}

fn cmd_upstream_fingerprint(args: &Args) -> CmdResult {
    args.only(&["--offered"])?;
    let offered: Option<Vec<&str>> = args
        .value("--offered")
        .map(|s| s.split(',').filter(|n| !n.is_empty()).collect());
    let input = args.input()?;
    Ok(line(&fingerprint::upstream_fingerprint(
        &canonical::parse(&input)?,
        offered.as_deref(),
    )?))
}

fn cmd_error_codes(args: &Args) -> CmdResult {
    args.only(&[])?;
    Ok(ErrorCode::ALL
        .iter()
        .flat_map(|c| line(c.as_str()))
        .collect())
}

fn run(raw: &[String]) -> CmdResult {
    let Some((command, rest)) = raw.split_first() else {
        return Err(Failure::Usage("no command".into()));
    };
    if let Some(result) = run_jws_family(command, rest) {
        return result;
    }
    if let Some(out) = run_evidence(command, rest) {
        return out;
    }
    let args = Args::parse(rest)?;
    match command.as_str() {
        "canon" => cmd_canon(&args),
        "digest" => cmd_digest(&args),
        "commit" => cmd_commit(&args),
        "terms-hash" => cmd_terms_hash(&args),
        "fingerprint" => cmd_fingerprint(&args),
        "output-fingerprint" => cmd_output_fingerprint(&args),
        "upstream-fingerprint" => cmd_upstream_fingerprint(&args),
        "error-codes" => cmd_error_codes(&args),
        "help" | "--help" | "-h" => Ok(USAGE.as_bytes().to_vec()),
        other => Err(Failure::Usage(format!("unknown command {other}"))),
    }
}

// --- jws, jwks, receipt verify-jws / verify-signed (SPEC §7) -------------------------------------

/// The `jws`, `jwks` and signed-receipt commands (two words: the second picks the action).
fn run_jws_family(command: &str, rest: &[String]) -> Option<CmdResult> {
    let sub = rest.first().map(String::as_str);
    let run = |f: fn(&Args) -> CmdResult| Some(Args::parse(&rest[1..]).and_then(|a| f(&a)));
    match (command, sub) {
        ("jws", Some("verify")) => run(cmd_jws_verify),
        ("jws", Some("sign")) => run(cmd_jws_sign),
        ("jwks", Some("from-seed")) => run(cmd_jwks_from_seed),
        ("receipt", Some("verify-jws")) => run(cmd_receipt_verify_jws),
        ("receipt", Some("verify-signed")) => run(cmd_receipt_verify_signed),
        ("jws" | "jwks", _) => Some(Err(Failure::Usage(format!(
            "unknown or missing {command} subcommand"
        )))),
        _ => None,
    }
}

fn required<'a>(args: &'a Args, name: &str) -> Result<&'a str, Failure> {
    args.value(name)
        .ok_or_else(|| Failure::Usage(format!("{name} is required")))
}

fn typ_arg(args: &Args) -> Result<ekl_core::jws::Typ, Failure> {
    let t = required(args, "--typ")?;
    ekl_core::jws::Typ::from_header(t).ok_or_else(|| {
        Failure::Usage(format!(
            "--typ must be one of {}",
            ekl_core::jws::Typ::ALL.map(|t| t.as_str()).join(", ")
        ))
    })
}

fn jwks_arg(args: &Args) -> Result<ekl_core::jwk::Jwks, Failure> {
    let bytes = read_input(Some(required(args, "--jwks")?))?;
    Ok(ekl_core::jwk::Jwks::parse(&bytes)?)
}

fn seed_arg(args: &Args) -> Result<[u8; 32], Failure> {
    Ok(ekl_core::hex::decode_fixed::<32>(
        required(args, "--seed")?,
        ErrorCode::InvalidKey,
        "--seed",
    )?)
}

fn now_arg(args: &Args) -> Result<i64, Failure> {
    required(args, "--now")?
        .parse()
        .map_err(|_| Failure::Usage("--now needs seconds since the epoch".into()))
}

/// The token: the positional argument itself when it looks like a compact JWS (base64url and two
/// dots), otherwise the file it names (or stdin); surrounding whitespace is trimmed.
fn token_arg(args: &Args) -> Result<String, Failure> {
    if let Some(arg) = args.file.as_deref() {
        let looks_like_token = arg.bytes().filter(|&b| b == b'.').count() == 2
            && arg
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.');
        if looks_like_token {
            return Ok(arg.to_owned());
        }
    }
    let bytes = args.input()?;
    let text = String::from_utf8(bytes)
        .map_err(|_| Failure::Refused(Error::new(ErrorCode::JwsMalformed, "a token is ascii")))?;
    Ok(text.trim().to_owned())
}

fn json_line(value: &ekl_core::Value<'_>) -> CmdResult {
    let mut out = canonical::canonicalize_value(value)?;
    out.push(b'\n');
    Ok(out)
}

fn cmd_jws_verify(args: &Args) -> CmdResult {
    args.only(&["--typ", "--jwks", "--iss", "--aud", "--now"])?;
    let typ = typ_arg(args)?;
    let jwks = jwks_arg(args)?;
    let checks = ekl_core::jws::ClaimChecks {
        issuer: args.value("--iss"),
        audience: args.value("--aud"),
        ..ekl_core::jws::ClaimChecks::at(now_arg(args)?)
    };
    let token = token_arg(args)?;
    let v = ekl_core::jws::verify(&token, typ, &jwks, &checks)?;
    json_line(&ekl_core::Value::Object(vec![
        ("header".into(), v.header),
        ("claims".into(), v.claims),
        ("kid".into(), ekl_core::Value::from(v.kid)),
        ("token_sha256".into(), ekl_core::Value::from(v.token_sha256)),
    ]))
}

fn cmd_jws_sign(args: &Args) -> CmdResult {
    args.only(&["--typ", "--seed", "--kid"])?;
    let typ = typ_arg(args)?;
    let key = ekl_core::jwk::SigningKey::from_seed(&seed_arg(args)?, required(args, "--kid")?)?;
    let input = args.input()?;
    let claims = canonical::parse(&input)?;
    Ok(line(&ekl_core::jws::sign(typ, &claims, &key)?))
}

fn cmd_jwks_from_seed(args: &Args) -> CmdResult {
    args.only(&["--seed", "--kid", "--private"])?;
    let seed = seed_arg(args)?;
    let kids: Vec<&str> = required(args, "--kid")?.split(',').collect();
    let (jwks, keys) = ekl_core::jwk::jwks_from_seed(&seed, &kids)?;
    if args.flag("--private") {
        let items: Vec<String> = keys.iter().map(|k| k.to_private_jwk_json()).collect();
        return Ok(line(&format!("{{\"keys\":[{}]}}", items.join(","))));
    }
    Ok(line(&jwks.to_json()))
}

fn call_arg(bytes: &[u8]) -> Result<ekl_core::Value<'_>, Failure> {
    Ok(canonical::parse(bytes)?)
}

fn call_context<'a>(
    call: &'a ekl_core::Value<'a>,
) -> Result<ekl_core::receipt_sig::CallContext<'a>, Failure> {
    let s = |k: &str| {
        call.get(k)
            .and_then(ekl_core::Value::as_str)
            .ok_or_else(|| Failure::Usage(format!("--call: {k} must be a string")))
    };
    let n = |k: &str| {
        call.get(k)
            .and_then(ekl_core::Value::as_f64)
            .filter(|x| x.fract() == 0.0 && x.abs() <= 9_007_199_254_740_992.0)
            .map(|x| x as i64)
            .ok_or_else(|| Failure::Usage(format!("--call: {k} must be an integer")))
    };
    Ok(ekl_core::receipt_sig::CallContext {
        execution_id: s("execution_id")?,
        provider_agent_id: s("provider_agent_id")?,
        requester_agent_id: s("requester_agent_id")?,
        capability_id: s("capability_id")?,
        input_fingerprint: s("input_fingerprint")?,
        own_agent_id: s("own_agent_id")?,
        network_issuer: s("network_issuer")?,
        sent_at: n("sent_at")?,
        received_at: n("received_at")?,
    })
}

fn verdict_output(v: &ekl_core::verdict::Verdict) -> CmdResult {
    let out = json_line(&v.to_value())?;
    if v.accepted {
        Ok(out)
    } else {
        Err(Failure::NotAccepted(out))
    }
}

fn cmd_receipt_verify_jws(args: &Args) -> CmdResult {
    args.only(&["--jwks", "--call"])?;
    let jwks = jwks_arg(args)?;
    let call_bytes = read_input(Some(required(args, "--call")?))?;
    let call = call_arg(&call_bytes)?;
    let ctx = call_context(&call)?;
    let token = token_arg(args)?;
    verdict_output(&ekl_core::receipt_sig::verify_receipt_jws(
        &token, &jwks, &ctx,
    )?)
}

fn cmd_receipt_verify_signed(args: &Args) -> CmdResult {
    args.only(&["--jwks", "--call"])?;
    let jwks = jwks_arg(args)?;
    let call_bytes = read_input(Some(required(args, "--call")?))?;
    let call = call_arg(&call_bytes)?;
    let ctx = call_context(&call)?;
    let input = args.input()?;
    let receipt = canonical::parse(&input)?;
    verdict_output(&ekl_core::receipt_sig::verify_receipt(
        &receipt, &jwks, &ctx,
    )?)
}

fn main() -> ExitCode {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    if raw.first().map(String::as_str) == Some("conformance") {
        return conformance::main(&raw[1..]);
    }
    match run(&raw) {
        Ok(out) => {
            let mut stdout = std::io::stdout().lock();
            if stdout.write_all(&out).and_then(|_| stdout.flush()).is_err() {
                return ExitCode::from(74);
            }
            ExitCode::SUCCESS
        }
        Err(Failure::Refused(e)) => {
            eprintln!("ekl: {}: {}", e.code().as_str(), e.message());
            ExitCode::from(2)
        }
        Err(Failure::Usage(m)) => {
            eprintln!("ekl: usage: {m}\n\n{USAGE}");
            ExitCode::from(64)
        }
        Err(Failure::Io(m)) => {
            eprintln!("ekl: {m}");
            ExitCode::from(66)
        }
        Err(Failure::NotAccepted(out)) => {
            let _ = std::io::stdout().lock().write_all(&out);
            ExitCode::from(1)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Receipts, endpoint proofs and screening (`receipt`, `proof`, `screen`).

/// Dispatches the commands with a sub-verb; `None` for every other command.
fn run_evidence(command: &str, rest: &[String]) -> Option<CmdResult> {
    let sub = |f: fn(&str, &Args) -> CmdResult| -> CmdResult {
        let Some((verb, rest)) = rest.split_first() else {
            return Err(Failure::Usage(format!("{command} needs a sub-command")));
        };
        f(verb, &Args::parse(rest)?)
    };
    match (command, rest.first().map(String::as_str)) {
        // `receipt verify-jws` and `receipt verify-signed` (network-signed receipts) are the JWS
        // family's; this family answers the MAC receipt verbs.
        ("receipt", Some("sign" | "digest" | "verify") | None) => Some(sub(cmd_receipt)),
        ("proof", _) => Some(sub(cmd_proof)),
        ("screen", _) => Some(Args::parse(rest).and_then(|a| cmd_screen(&a))),
        _ => None,
    }
}

fn need<'a>(args: &'a Args, name: &str) -> Result<&'a str, Failure> {
    args.value(name)
        .ok_or_else(|| Failure::Usage(format!("{name} is required")))
}

fn parse_file(path: &str) -> Result<ekl_core::Value<'static>, Failure> {
    let bytes = read_input(Some(path))?;
    Ok(canonical::parse(&bytes)?.into_owned())
}

fn canonical_line(v: &ekl_core::Value<'_>) -> Result<Vec<u8>, Failure> {
    let mut out = canonical::canonicalize_value(v)?;
    out.push(b'\n');
    Ok(out)
}

fn cmd_receipt(verb: &str, args: &Args) -> CmdResult {
    use ekl_core::receipt;
    match verb {
        "sign" => {
            args.only(&["--secret"])?;
            let secret = need(args, "--secret")?;
            let input = args.input()?;
            canonical_line(&receipt::sign_receipt(&canonical::parse(&input)?, secret)?)
        }
        "digest" => {
            args.only(&[])?;
            let input = args.input()?;
            Ok(line(&receipt::receipt_digest(&canonical::parse(&input)?)?))
        }
        "verify" => match receipt_verify(args)? {
            (out, true) => Ok(out),
            (out, false) => Err(Failure::NotAccepted(out)),
        },
        other => Err(Failure::Usage(format!("unknown receipt command {other}"))),
    }
}

fn str_member(v: &ekl_core::Value<'_>, name: &str, what: &str) -> Result<Option<String>, Failure> {
    match v.get(name) {
        None | Some(ekl_core::Value::Null) => Ok(None),
        Some(x) => x.as_str().map(|s| Some(s.to_owned())).ok_or_else(|| {
            Failure::Refused(Error::new(
                ErrorCode::InvalidArgument,
                format!("{what}.{name} must be a string"),
            ))
        }),
    }
}

fn call_from(v: &ekl_core::Value<'_>) -> Result<ekl_core::receipt::CallExpectation, Failure> {
    let req = |name: &str| -> Result<String, Failure> {
        str_member(v, name, "call")?.ok_or_else(|| {
            Failure::Refused(Error::new(
                ErrorCode::InvalidArgument,
                format!("call.{name} is required"),
            ))
        })
    };
    let opt = |name: &str| str_member(v, name, "call");
    Ok(ekl_core::receipt::CallExpectation {
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

fn key_ring_from(v: &ekl_core::Value<'_>) -> Result<ekl_core::receipt::KeyRing, Failure> {
    let bad = |m: &str| Failure::Refused(Error::new(ErrorCode::InvalidArgument, m));
    let list = v
        .as_array()
        .or_else(|| v.get("keys").and_then(ekl_core::Value::as_array))
        .ok_or_else(|| bad("the key ring must be an array of keys (or {\"keys\": [...]})"))?;
    let mut ring = ekl_core::receipt::KeyRing::new();
    for k in list {
        let key_id =
            str_member(k, "key_id", "key")?.ok_or_else(|| bad("key.key_id is required"))?;
        let secret =
            str_member(k, "secret", "key")?.ok_or_else(|| bad("key.secret is required"))?;
        let from =
            str_member(k, "valid_from", "key")?.ok_or_else(|| bad("key.valid_from is required"))?;
        let until = str_member(k, "valid_until", "key")?;
        ring.add(&key_id, &secret, &from, until.as_deref())?;
    }
    Ok(ring)
}

fn receipt_verify(args: &Args) -> Result<(Vec<u8>, bool), Failure> {
    args.only(&[
        "--secret",
        "--key-ring",
        "--call",
        "--own-input",
        "--own-result",
        "--salt",
    ])?;
    let ring = match (args.value("--secret"), args.value("--key-ring")) {
        (Some(s), None) => ekl_core::receipt::KeyRing::baseline(s),
        (None, Some(path)) => key_ring_from(&parse_file(path)?)?,
        _ => {
            return Err(Failure::Usage(
                "give exactly one of --secret and --key-ring".into(),
            ))
        }
    };
    let call = call_from(&parse_file(need(args, "--call")?)?)?;
    let salt = salt_arg(args)?;
    let own = |name: &str| -> Result<Option<digest::Commitment>, Failure> {
        match args.value(name) {
            None => Ok(None),
            Some(p) => Ok(Some(digest::commitment(
                &parse_file(p)?,
                salt.as_ref(),
                None,
            )?)),
        }
    };
    let (own_in, own_out) = (own("--own-input")?, own("--own-result")?);
    let input = args.input()?;
    let verdict = ekl_core::receipt::verify_receipt(
        &canonical::parse(&input)?,
        &ring,
        &call,
        own_in.as_ref(),
        own_out.as_ref(),
    )?;
    Ok((canonical_line(&verdict.to_value())?, verdict.accepted))
}

/// The agent key: `--agent-key`, or the input (file or stdin) without a trailing newline.
fn agent_key(args: &Args, allow_input: bool) -> Result<String, Failure> {
    if let Some(k) = args.value("--agent-key") {
        return Ok(k.to_owned());
    }
    if !allow_input {
        return Err(Failure::Usage("--agent-key is required".into()));
    }
    let bytes = args.input()?;
    let text = String::from_utf8(bytes).map_err(|_| {
        Failure::Refused(Error::new(ErrorCode::InvalidUtf8, "agent key is not UTF-8"))
    })?;
    Ok(text.trim_end_matches(['\n', '\r']).to_owned())
}

fn cmd_proof(verb: &str, args: &Args) -> CmdResult {
    use ekl_core::proof::{self, NetworkHolds, ProofKey, ProofVersion};
    match verb {
        "key" => {
            args.only(&["--agent-key"])?;
            Ok(line(&ProofKey::derive(&agent_key(args, true)?).to_hex()))
        }
        "challenge" => {
            args.only(&[
                "--challenge",
                "--endpoint",
                "--proof-key",
                "--agent-key",
                "--v1",
            ])?;
            let (c, e) = (need(args, "--challenge")?, need(args, "--endpoint")?);
            if args.flag("--v1") {
                return Ok(line(&proof::challenge_proof_v1(
                    &agent_key(args, false)?,
                    c,
                    e,
                )));
            }
            let key = match args.value("--proof-key") {
                Some(h) => ProofKey::from_hex(h)?,
                None => ProofKey::derive(&agent_key(args, false)?),
            };
            Ok(line(&proof::challenge_proof_v2(&key, c, e)))
        }
        "enroll" => {
            args.only(&[
                "--enrollment-id",
                "--nonce",
                "--endpoint",
                "--agent-key",
                "--v1",
            ])?;
            let (id, n, e) = (
                need(args, "--enrollment-id")?,
                need(args, "--nonce")?,
                need(args, "--endpoint")?,
            );
            let k = agent_key(args, false)?;
            Ok(line(&if args.flag("--v1") {
                proof::enroll_authority_v1(&k, id, n, e)
            } else {
                proof::enroll_authority_v2(&ProofKey::derive(&k), id, n, e)
            }))
        }
        "verify-signature" => {
            args.only(&[
                "--secret",
                "--agent-id",
                "--enrollment-id",
                "--challenge",
                "--signature",
            ])?;
            let (s, a, i, c) = (
                need(args, "--secret")?,
                need(args, "--agent-id")?,
                need(args, "--enrollment-id")?,
                need(args, "--challenge")?,
            );
            match args.value("--signature") {
                None => Ok(line(&proof::verify_signature(s, a, i, c))),
                Some(sig) if proof::check_verify_signature(s, a, i, c, sig) => Ok(line("ok")),
                Some(_) => Err(Failure::NotAccepted(line("signature does not verify"))),
            }
        }
        "verify-challenge" => {
            args.only(&[
                "--challenge",
                "--endpoint",
                "--proof-key",
                "--credential-sha256",
                "--proof",
                "--proof-v2",
            ])?;
            let holds = match (args.value("--proof-key"), args.value("--credential-sha256")) {
                (Some(h), None) => NetworkHolds::ProofKey(ProofKey::from_hex(h)?),
                (None, Some(h)) => NetworkHolds::credential_hash_hex(h)?,
                _ => {
                    return Err(Failure::Usage(
                        "give exactly one of --proof-key and --credential-sha256".into(),
                    ))
                }
            };
            let v = proof::verify_challenge_proof(
                &holds,
                need(args, "--challenge")?,
                need(args, "--endpoint")?,
                args.value("--proof"),
                args.value("--proof-v2"),
            )?;
            Ok(line(v.as_str()))
        }
        "verify-enroll" => {
            args.only(&[
                "--announced",
                "--agent-key",
                "--enrollment-id",
                "--nonce",
                "--endpoint",
                "--authority",
                "--authority-version",
            ])?;
            let announced = ProofVersion::from_name(need(args, "--announced")?)?;
            let version = args
                .value("--authority-version")
                .map(|v| {
                    v.parse::<u32>()
                        .map_err(|_| Failure::Usage("--authority-version needs a number".into()))
                })
                .transpose()?;
            let v = proof::verify_enroll_authority(
                announced,
                &agent_key(args, false)?,
                need(args, "--enrollment-id")?,
                need(args, "--nonce")?,
                need(args, "--endpoint")?,
                args.value("--authority"),
                version,
            )?;
            Ok(line(v.as_str()))
        }
        other => Err(Failure::Usage(format!("unknown proof command {other}"))),
    }
}

fn cmd_screen(args: &Args) -> CmdResult {
    use ekl_core::screening::{self, ScreeningRules};
    args.only(&["--rules"])?;
    let rules = match args.value("--rules") {
        Some(p) => Some(ScreeningRules::from_claims(&parse_file(p)?)?),
        None => None,
    };
    let input = args.input()?;
    let flags = screening::scan(rules.as_ref(), &canonical::parse(&input)?);
    canonical_line(&ekl_core::Value::Array(
        flags.iter().map(|f| f.to_value()).collect(),
    ))
}
