//! `ekl`: the command-line tool over ekl-core.
//!
//! Every command reads JSON from a file or from stdin (`-` or no file), writes its result to
//! stdout, and on a refusal prints `ekl: CODE: message` to stderr and exits with status 2 (usage
//! errors exit with status 64). Run `ekl help` for the list of commands.
#![forbid(unsafe_code)]

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
    use ekl_core::Value;
    let checks = v
        .checks
        .iter()
        .map(|c| {
            let mut m = vec![
                ("name".into(), Value::from(c.name)),
                ("outcome".into(), Value::from(c.outcome.as_str())),
            ];
            if let Some(d) = &c.detail {
                m.push(("detail".into(), Value::from(d.as_str())));
            }
            Value::Object(m)
        })
        .collect();
    let out = json_line(&Value::Object(vec![
        ("accepted".into(), Value::Bool(v.accepted)),
        ("checks".into(), Value::Array(checks)),
        (
            "receipt_digest".into(),
            v.receipt_digest.as_deref().map_or(Value::Null, Value::from),
        ),
    ]))?;
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
