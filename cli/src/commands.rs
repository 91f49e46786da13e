//! The commands of `ekl`. Every named command that corresponds to a registry operation is an
//! alias of it (cli/src/aliases.rs): it reads its inputs (files, stdin, secret sources), maps its
//! flags to the operation's arguments, and the operation checks them (the `now` rules included)
//! and gives the result, so `ekl COMMAND` and `ekl call OP` agree byte for byte. What the command
//! line decides is whether a flag is given (a usage error, exit 64); what a given value holds is
//! the operation's to check (a refusal, exit 2).

use std::path::Path;

use ekl_bridge::{Kind, Op, Out, Returns};
use ekl_core::canonical;
use ekl_core::{Error, ErrorCode, Value};

use crate::aliases::{self, Output};
use crate::args::{
    AgentKeySource, Command, Input, JwksCommand, JwsCommand, KeyRingSource, ProofCommand,
    ReceiptCommand, SecretArgs, TokenArgs,
};
use crate::input::{Inputs, SecretSource, MAX_DOCUMENT_BYTES};
use crate::Failure;
use ekl_conformance::call::{self as reg, Owned};

/// The bytes to print, or why not.
pub(crate) type CmdResult = Result<Vec<u8>, Failure>;

/// A named command's call of its registry operation: the arguments by wire name.
struct Via {
    op: &'static Op,
    output: Output,
    owned: Vec<Owned>,
}

fn internal(message: impl Into<String>) -> Failure {
    Failure::Refused(Error::new(ErrorCode::Internal, message))
}

impl Via {
    /// The call of `op` for `command`, which the alias table must list with `output`.
    fn new(command: &str, op: &str, output: Output) -> Result<Via, Failure> {
        if !aliases::ops_of(command)
            .iter()
            .any(|a| a.op == op && a.output == output)
        {
            return Err(internal(format!(
                "{command} is not an alias of {op} (cli/src/aliases.rs)"
            )));
        }
        let op = ekl_bridge::find(op).ok_or_else(|| internal("no such operation"))?;
        Ok(Via {
            op,
            output,
            owned: op.params.iter().map(|_| Owned::Absent).collect(),
        })
    }

    fn index(&self, name: &str) -> Result<usize, Failure> {
        self.op
            .param_index(name)
            .ok_or_else(|| internal(format!("{} has no parameter {name}", self.op.name)))
    }

    /// Sets argument `name`.
    fn set(mut self, name: &str, value: Owned) -> Result<Via, Failure> {
        let i = self.index(name)?;
        self.owned[i] = value;
        Ok(self)
    }

    /// Sets argument `name` when given.
    fn opt(self, name: &str, value: Option<Owned>) -> Result<Via, Failure> {
        match value {
            Some(v) => self.set(name, v),
            None => Ok(self),
        }
    }

    /// Sets argument `name` from command-line text, read as `ekl call --arg NAME=TEXT` reads it.
    fn text(self, name: &str, text: Option<String>) -> Result<Via, Failure> {
        let Some(text) = text else { return Ok(self) };
        let i = self.index(name)?;
        let p = self.op.params[i];
        let v = reg::from_text(p.name, p.kind, text)?;
        self.set(name, v)
    }

    /// Runs the operation and prints its result as the alias table says.
    fn print(mut self) -> CmdResult {
        let out = run_op(self.op, &mut self.owned)?;
        present(&out, self.output, self.op.returns)
    }
}

/// A JSON document or other text as a `value`/`text` argument.
fn text(bytes: Vec<u8>) -> Owned {
    Owned::Text(bytes)
}

/// A string argument.
fn string(s: impl Into<String>) -> Owned {
    Owned::Str(zeroize::Zeroizing::new(s.into()))
}

/// A fresh salt: 32 bytes of the operating system's random source as 64 lowercase hex.
fn fresh_salt() -> Result<String, Failure> {
    let mut bytes = zeroize::Zeroizing::new([0u8; 32]);
    getrandom::fill(&mut *bytes).map_err(|_| {
        Failure::Refused(Error::new(
            ErrorCode::Internal,
            "the operating system's random source failed",
        ))
    })?;
    Ok(ekl_core::hex::encode(&*bytes))
}

/// Runs `op` on owned arguments; a `now` left out is the system clock (read only then), a `salt`
/// left out a fresh one from the operating system's random source.
fn run_op(op: &Op, owned: &mut [Owned]) -> Result<Out, Failure> {
    for (p, o) in op.params.iter().zip(owned.iter_mut()) {
        if p.kind == Kind::Salt && matches!(o, Owned::Absent) {
            *o = string(fresh_salt()?);
        }
    }
    let needs_clock = op
        .params
        .iter()
        .zip(owned.iter())
        .any(|(p, o)| p.kind == Kind::Now && matches!(o, Owned::Absent));
    let clock = if needs_clock { Some(clock()?) } else { None };
    Ok(reg::run(op, owned, clock)?)
}

/// A step of a named command that runs another operation first (a proof key derived, a
/// commitment computed, a signing key made): its result as a string or JSON text.
fn step(op: &str, args: &[(&str, ekl_bridge::Arg<'_>)]) -> Result<Out, Failure> {
    Ok(ekl_bridge::call_named(op, args)?)
}

/// The result of an operation as a command prints it (cli/src/aliases.rs, [`Output`]).
pub(crate) fn present(out: &Out, output: Output, returns: Returns) -> CmdResult {
    match (output, out) {
        (Output::Json, _) => {
            let mut bytes = match out {
                Out::Bytes(b) => b.clone(),
                other => other.to_json()?,
            };
            bytes.push(b'\n');
            if returns == Returns::Verdict {
                if let Out::Value(v) = out {
                    if v.get("accepted") != Some(&Value::Bool(true)) {
                        return Err(Failure::NotAccepted(bytes));
                    }
                }
            }
            Ok(bytes)
        }
        (Output::Text, Out::Str(s)) => Ok(line(s)),
        (Output::Bytes, Out::Bytes(b)) => Ok(b.clone()),
        (Output::Check, Out::Bool(true)) => Ok(line("ok")),
        (Output::Check, Out::Bool(false)) => {
            Err(Failure::NotAccepted(line("signature does not verify")))
        }
        (Output::PrivateKeys, Out::KeySet(_, keys)) => {
            let items: Vec<String> = keys.iter().map(|k| k.to_private_jwk_json()).collect();
            Ok(line(&format!("{{\"keys\":[{}]}}", items.join(","))))
        }
        _ => Err(internal("the operation gave a result of another kind")),
    }
}

/// Runs one command (every command but `conformance` and `receipt verify-archive`).
pub(crate) fn run(command: Command, io: &Inputs) -> CmdResult {
    match command {
        Command::Canon {
            capability_input,
            max_bytes,
            input,
        } => {
            let limit = canonical::CAPABILITY_INPUT_MAX_BYTES as i64;
            Via::new("canon", "canonicalize", Output::Bytes)?
                .set("text", text(doc(io, &input)?))?
                .opt(
                    "max_bytes",
                    (capability_input && max_bytes.is_none()).then_some(Owned::Int(limit)),
                )?
                .text("max_bytes", max_bytes)?
                .print()
        }
        Command::Digest { input } => Via::new("digest", "value_digest", Output::Text)?
            .set("value", text(doc(io, &input)?))?
            .print(),
        Command::Commit {
            salt,
            salt_id,
            capability_input,
            input,
        } => {
            let (op, value) = if capability_input {
                ("input_commitment", "input")
            } else {
                ("commitment", "value")
            };
            Via::new("commit", op, Output::Json)?
                .set(value, text(doc(io, &input)?))?
                .opt("salt", salt.map(string))?
                .opt("salt_id", salt_id.map(string))?
                .print()
        }
        Command::TermsHash { input } => Via::new("terms-hash", "terms_hash", Output::Text)?
            .set("terms", text(doc(io, &input)?))?
            .print(),
        Command::Fingerprint { salt, input } => {
            Via::new("fingerprint", "fingerprint", Output::Text)?
                .set("salt", string(salt.salt))?
                .set("value", text(doc(io, &input)?))?
                .print()
        }
        Command::OutputFingerprint { salt, input } => {
            Via::new("output-fingerprint", "output_fingerprint", Output::Text)?
                .set("salt", string(salt.salt))?
                .set("result", text(doc(io, &input)?))?
                .print()
        }
        Command::UpstreamFingerprint { offered, input } => {
            let offered = offered.map(|s| {
                Owned::List(
                    s.split(',')
                        .filter(|n| !n.is_empty())
                        .map(str::to_owned)
                        .collect(),
                )
            });
            Via::new("upstream-fingerprint", "upstream_fingerprint", Output::Text)?
                .set("tools", text(doc(io, &input)?))?
                .opt("offered", offered)?
                .print()
        }
        Command::Jws(c) => jws(c, io),
        Command::Jwks(c) => jwks(c, io),
        Command::Receipt(c) => receipt(c, io),
        Command::Proof(c) => proof(c, io),
        Command::Screen { rules, input } => {
            let rules = match rules {
                Some(p) => Some(text(io.option_file(&p, "the --rules file")?)),
                None => None,
            };
            Via::new("screen", "screen", Output::Json)?
                .set("result", text(doc(io, &input)?))?
                .opt("rules", rules)?
                .print()
        }
        Command::ErrorCodes => Ok(ErrorCode::ALL
            .iter()
            .flat_map(|c| line(c.as_str()))
            .collect()),
        Command::Mcp(_) => Err(Failure::Usage(
            "mcp runs from main (it controls its own exit status)".into(),
        )),
        Command::Conformance(_) => Err(Failure::Usage(
            "conformance runs on its own (ekl conformance --help)".into(),
        )),
        Command::Call(a) => call(io, a),
    }
}

/// Where an argument of `ekl call` came from (for the message on a repeated one).
fn source_name(i: usize) -> &'static str {
    ["--args", "--arg", "--arg-file", "--arg-env"][i]
}

/// `ekl call --list`: one line per operation, `name(required, [optional])`, its section and the
/// first sentence of its doc, for people (`--json` gives the manifest).
fn operation_list() -> String {
    let width = ekl_bridge::OPERATIONS
        .iter()
        .map(|op| op.name.len())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for op in ekl_bridge::OPERATIONS {
        let params: Vec<String> = op
            .params
            .iter()
            .map(|p| {
                if p.required {
                    p.name.to_owned()
                } else {
                    format!("[{}]", p.name)
                }
            })
            .collect();
        let first = op
            .doc
            .split(". ")
            .next()
            .unwrap_or(op.doc)
            .trim_end_matches('.');
        out.push_str(&format!(
            "{:width$}  {} ({}): {}\n",
            op.name,
            params.join(" "),
            op.section,
            first
        ));
    }
    out.push_str("ekl call NAME --arg PARAM=VALUE ... runs one; ekl call --list --json prints the manifest\n");
    out
}

/// `ekl call NAME`: any operation of the registry (conformance/src/call.rs). An argument given twice
/// (by any two of --args, --arg, --arg-file, --arg-env) is a usage error, found before any value
/// is read from a file or the environment.
fn call(io: &Inputs, a: crate::args::CallArgs) -> CmdResult {
    if a.list {
        if a.json {
            return Ok(ekl_bridge::manifest::operations_json().into_bytes());
        }
        return Ok(operation_list().into_bytes());
    }
    let name = a.name.unwrap_or_default();
    let op = ekl_bridge::find(&name).ok_or_else(|| {
        Failure::Usage("no such operation (ekl call --list lists them)".to_owned())
    })?;
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
    // Every argument's parameter, and which of the four sources gave it, before reading any.
    let mut given: Vec<Option<usize>> = op.params.iter().map(|_| None).collect();
    let mut note = |i: usize, source: usize| -> Result<(), Failure> {
        if let Some(first) = given[i].replace(source) {
            return Err(Failure::Usage(format!(
                "{}: argument {} is given more than once ({} and {})",
                op.name,
                op.params[i].name,
                source_name(first),
                source_name(source)
            )));
        }
        Ok(())
    };
    let (mut owned, members): (Vec<Owned>, Vec<usize>) = match &a.args_file {
        Some(path) => {
            let bytes = io.option_file(path, "the --args file")?;
            let value = canonical::parse(&bytes)?;
            let owned = reg::decode_args(op, &value)?;
            let members = match &value {
                Value::Object(m) => m.iter().filter_map(|(k, _)| op.param_index(k)).collect(),
                _ => Vec::new(),
            };
            (owned, members)
        }
        None => (
            op.params.iter().map(|_| Owned::Absent).collect(),
            Vec::new(),
        ),
    };
    for i in members {
        note(i, 0)?;
    }
    let mut pairs: Vec<(usize, usize, String)> = Vec::new();
    for (source, list) in [(1, &a.args), (2, &a.arg_files), (3, &a.arg_envs)] {
        for pair in list {
            let (i, v) = split(pair)?;
            note(i, source)?;
            pairs.push((source, i, v));
        }
    }
    for (source, i, v) in pairs {
        if source == 2 && op.params[i].kind == Kind::Bytes {
            // bytes as the file holds them: no UTF-8 needed, no line ending dropped (the hash of
            // a file is `sha256sum`'s)
            let bytes = io.path(Path::new(&v), "an --arg-file file", MAX_DOCUMENT_BYTES)?;
            owned[i] = Owned::Text(bytes);
            continue;
        }
        let text = match source {
            1 => v,
            2 => {
                let bytes = io.path(Path::new(&v), "an --arg-file file", MAX_DOCUMENT_BYTES)?;
                let text = String::from_utf8(bytes).map_err(|_| {
                    Error::new(ErrorCode::InvalidUtf8, "an --arg-file file is not UTF-8")
                })?;
                text.strip_suffix('\n')
                    .map(|t| t.strip_suffix('\r').unwrap_or(t))
                    .unwrap_or(&text)
                    .to_owned()
            }
            _ => std::env::var(&v)
                .map_err(|_| invalid("an --arg-env variable is not set (or not UTF-8)"))?,
        };
        owned[i] = reg::from_text(op.params[i].name, op.params[i].kind, text)?;
    }
    let out = run_op(op, &mut owned)?;
    present(&out, Output::Json, op.returns)
}

fn doc(io: &Inputs, input: &Input) -> Result<Vec<u8>, Failure> {
    io.document(input.file.as_deref())
}

fn line(s: &str) -> Vec<u8> {
    format!("{s}\n").into_bytes()
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

/// The key set of a `--jwks FILE` option, parsed (`receipt verify-archive`).
pub(crate) fn jwks_file(io: &Inputs, path: &Path) -> Result<ekl_core::jwk::Jwks, Failure> {
    let bytes = io.option_file(path, "the --jwks file")?;
    Ok(ekl_core::jwk::Jwks::parse(&bytes)?)
}

/// The current time in seconds since the epoch (the core itself never reads a clock).
fn clock() -> Result<i64, Failure> {
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

fn jws(c: JwsCommand, io: &Inputs) -> CmdResult {
    match c {
        JwsCommand::Verify {
            typ,
            jwks,
            now,
            iss,
            aud,
            token: tok,
        } => {
            let jwks = io.option_file(&jwks, "the --jwks file")?;
            let token = token(io, &tok)?;
            Via::new("jws verify", "verify_jws", Output::Json)?
                .set("token", string(token))?
                .set("typ", string(typ.typ))?
                .set("jwks", text(jwks))?
                .text("now", now)?
                .opt("issuer", iss.map(string))?
                .opt("audience", aud.map(string))?
                .print()
        }
        JwsCommand::Sign {
            typ,
            seed,
            kid,
            input,
        } => {
            let seed = zeroize::Zeroizing::new(required_secret(io, seed.source(), "seed")?);
            let claims = doc(io, &input)?;
            let key = reg::key_of(&seed, &kid)?;
            Via::new("jws sign", "sign_jws", Output::Text)?
                .set("typ", string(typ.typ))?
                .set("claims", text(claims))?
                .set("key", key)?
                .print()
        }
    }
}

fn jwks(c: JwksCommand, io: &Inputs) -> CmdResult {
    match c {
        JwksCommand::FromSeed { seed, kid, private } => {
            let seed = required_secret(io, seed.source(), "seed")?;
            let output = if private {
                Output::PrivateKeys
            } else {
                Output::Json
            };
            Via::new("jwks from-seed", "jwks_from_seed", output)?
                .set("seed", string(seed))?
                .set(
                    "kids",
                    Owned::List(kid.split(',').map(str::to_owned).collect()),
                )?
                .print()
        }
        // 32 bytes of the operating system's random source, as a salt is drawn.
        JwksCommand::NewSeed => Ok(format!("{}\n", fresh_salt()?).into_bytes()),
    }
}

// --- MAC receipts (SPEC §6) ------------------------------------------------------------------------

/// The key ring of a secret (the baseline ring) or of a key ring source; `None` when neither is
/// given, a usage error when both are (`receipt verify-archive`).
pub(crate) fn key_ring_of(
    io: &Inputs,
    secret: &SecretArgs,
    key_ring: &KeyRingSource,
) -> Result<Option<ekl_core::receipt::KeyRing>, Failure> {
    use ekl_core::receipt::KeyRing;
    Ok(match keys_text(io, secret, key_ring)? {
        None => None,
        Some(text) => Some(KeyRing::from_value(&canonical::parse(&text)?)?),
    })
}

/// The `keys` argument of a secret (a JSON string: the baseline ring) or of a key ring source
/// (its text); `None` when neither is given, a usage error when both are.
fn keys_text(
    io: &Inputs,
    secret: &SecretArgs,
    key_ring: &KeyRingSource,
) -> Result<Option<zeroize::Zeroizing<Vec<u8>>>, Failure> {
    let mut out = zeroize::Zeroizing::new(Vec::new());
    match (secret.source(), key_ring.source()) {
        (SecretSource::None, SecretSource::None) => return Ok(None),
        (s, SecretSource::None) => {
            let secret = zeroize::Zeroizing::new(required_secret(io, s, "secret")?);
            canonical::write_string(&secret, &mut out);
        }
        (SecretSource::None, k) => {
            let ring = zeroize::Zeroizing::new(required_secret(io, k, "key-ring")?);
            out.extend_from_slice(ring.as_bytes());
        }
        _ => {
            return Err(Failure::Usage(
                "give a secret (--secret, --secret-file, --secret-env, --secret-stdin) or a key \
                 ring (--key-ring, --key-ring-env, --key-ring-stdin), not both"
                    .into(),
            ))
        }
    }
    Ok(Some(out))
}

fn receipt(c: ReceiptCommand, io: &Inputs) -> CmdResult {
    match c {
        ReceiptCommand::Sign { secret, input } => {
            let secret = required_secret(io, secret.source(), "secret")?;
            Via::new("receipt sign", "sign_receipt", Output::Json)?
                .set("receipt", text(doc(io, &input)?))?
                .set("secret", string(secret))?
                .print()
        }
        ReceiptCommand::Issue(a) => {
            let secret = required_secret(io, a.secret.source(), "secret")?;
            let call = io.option_file(&a.call, "the --call file")?;
            let input = io.option_file(&a.input, "the --input file")?;
            let output = io.option_file(&a.output, "the --output file")?;
            Via::new("receipt issue", "issue_mac_receipt", Output::Json)?
                .set("call", text(call))?
                .set("input", text(input))?
                .set("output", text(output))?
                .set("status", string(a.status))?
                .text("rel_ver_at_admission", Some(a.rel_ver_at_admission))?
                .text("dsc_ver", Some(a.dsc_ver))?
                .set("secret", string(secret))?
                .opt("key_id", a.key_id.map(string))?
                .opt("receipt_id", a.receipt_id.map(string))?
                .text("issued_at", a.issued_at)?
                .opt("input_salt", a.input_salt.map(string))?
                .opt("output_salt", a.output_salt.map(string))?
                .print()
        }
        ReceiptCommand::Digest { input } => {
            Via::new("receipt digest", "receipt_digest", Output::Text)?
                .set("receipt", text(doc(io, &input)?))?
                .print()
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
            if salt.is_some() && own_input.is_none() && own_result.is_none() {
                return Err(Failure::Usage(
                    "--salt salts the commitments of --own-input and --own-result: give one of \
                     them"
                        .into(),
                ));
            }
            let keys = keys_text(io, &secret, &key_ring)?.ok_or_else(|| {
                Failure::Usage(
                    "give exactly one of a secret (--secret, --secret-file, --secret-env, \
                     --secret-stdin) and a key ring (--key-ring, --key-ring-env, \
                     --key-ring-stdin)"
                        .into(),
                )
            })?;
            let call = io.option_file(&call, "the --call file")?;
            let receipt = doc(io, &input)?;
            // Your own copy of the input or result: its commitment (the commitment operation),
            // salted with --salt, else with the salt (and salt id) of the receipt's own
            // commitment on that side, as the consumer takes it (each side has its own salt).
            let own = |path: &Option<std::path::PathBuf>,
                       side: &str,
                       what: &'static str|
             -> Result<Option<Owned>, Failure> {
                let Some(p) = path else { return Ok(None) };
                let bytes = io.option_file(p, what)?;
                let mut args = vec![("value", ekl_bridge::Arg::Text(&bytes))];
                let (given_salt, given_id) = match &salt {
                    Some(s) => (Some(s.clone()), None),
                    None => receipt_salt(&receipt, side),
                };
                if let Some(s) = &given_salt {
                    args.push(("salt", ekl_bridge::Arg::Str(s)));
                }
                if let (Some(_), Some(id)) = (&given_salt, &given_id) {
                    args.push(("salt_id", ekl_bridge::Arg::Str(id)));
                }
                Ok(Some(text(step("commitment", &args)?.to_json()?)))
            };
            let own_in = own(&own_input, "input_commitment", "the --own-input file")?;
            let own_out = own(&own_result, "output_commitment", "the --own-result file")?;
            Via::new("receipt verify", "verify_receipt", Output::Json)?
                .set("receipt", text(receipt))?
                .set("keys", text(keys.to_vec()))?
                .set("call", text(call))?
                .opt("input_commitment", own_in)?
                .opt("output_commitment", own_out)?
                .print()
        }
        ReceiptCommand::VerifyJws { signed, token: t } => {
            let jwks = io.option_file(&signed.jwks, "the --jwks file")?;
            let call = io.option_file(&signed.call, "the --call file")?;
            let token = token(io, &t)?;
            Via::new("receipt verify-jws", "verify_receipt_jws", Output::Json)?
                .set("token", string(token))?
                .set("jwks", text(jwks))?
                .set("call", text(call))?
                .print()
        }
        ReceiptCommand::VerifyArchive(_) => Err(Failure::Usage(
            "receipt verify-archive runs on its own".into(),
        )),
        ReceiptCommand::VerifySigned { signed, input } => {
            let jwks = io.option_file(&signed.jwks, "the --jwks file")?;
            let call = io.option_file(&signed.call, "the --call file")?;
            Via::new(
                "receipt verify-signed",
                "verify_signed_receipt",
                Output::Json,
            )?
            .set("receipt", text(doc(io, &input)?))?
            .set("jwks", text(jwks))?
            .set("call", text(call))?
            .print()
        }
    }
}

// --- endpoint proofs (SPEC §5) ---------------------------------------------------------------------

/// The salt and salt id of the receipt's commitment `side` (`input_commitment`,
/// `output_commitment`), when the receipt reads and that commitment has them; a receipt that does
/// not read is left to the verifier, which refuses it with its own code.
fn receipt_salt(receipt: &[u8], side: &str) -> (Option<String>, Option<String>) {
    let Ok(value) = canonical::parse(receipt) else {
        return (None, None);
    };
    let member = |name: &str| {
        value
            .get(side)
            .and_then(|c| c.get(name))
            .and_then(|v| v.as_str())
            .map(str::to_owned)
    };
    (member("salt"), member("salt_id"))
}

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

/// The proof key (hex) of an agent key: the `proof_key` operation.
fn derived_proof_key(agent_key: &str) -> Result<String, Failure> {
    match step(
        "proof_key",
        &[("agent_key", ekl_bridge::Arg::Str(agent_key))],
    )? {
        Out::Str(hex) => Ok(hex),
        _ => Err(internal("proof_key gave no string")),
    }
}

fn proof(c: ProofCommand, io: &Inputs) -> CmdResult {
    match c {
        ProofCommand::Key { agent_key: k, file } => {
            if file.is_some() && !matches!(k.source(), SecretSource::None) {
                return Err(Failure::Usage(
                    "give the agent key once: an --agent-key option or FILE".into(),
                ));
            }
            let key = agent_key(io, &k, Some(file.as_deref()))?;
            Via::new("proof key", "proof_key", Output::Text)?
                .set("agent_key", string(key))?
                .print()
        }
        ProofCommand::Challenge {
            target,
            proof_key,
            agent_key: k,
            v1,
        } => {
            let pk = io.secret(proof_key.source(), "proof-key")?;
            if v1 {
                if pk.is_some() {
                    return Err(Failure::Usage(
                        "--v1 needs the agent key, not the proof key".into(),
                    ));
                }
                return Via::new("proof challenge", "challenge_proof_v1", Output::Text)?
                    .set("credential", string(agent_key(io, &k, None)?))?
                    .set("challenge", string(target.challenge))?
                    .set("endpoint", string(target.endpoint))?
                    .print();
            }
            let key = match pk {
                Some(h) => {
                    if !matches!(k.source(), SecretSource::None) {
                        return Err(Failure::Usage(
                            "give one of the proof key and the agent key".into(),
                        ));
                    }
                    h
                }
                None => derived_proof_key(&agent_key(io, &k, None)?)?,
            };
            Via::new("proof challenge", "challenge_proof_v2", Output::Text)?
                .set("proof_key", string(key))?
                .set("challenge", string(target.challenge))?
                .set("endpoint", string(target.endpoint))?
                .print()
        }
        ProofCommand::Enroll {
            enrollment: n,
            agent_key: k,
            v1,
        } => {
            let key = agent_key(io, &k, None)?;
            let via = if v1 {
                Via::new("proof enroll", "enroll_authority_v1", Output::Text)?
                    .set("agent_key", string(key))?
            } else {
                Via::new("proof enroll", "enroll_authority_v2", Output::Text)?
                    .set("proof_key", string(derived_proof_key(&key)?))?
            };
            via.set("enrollment_id", string(n.enrollment_id))?
                .set("nonce", string(n.nonce))?
                .set("endpoint", string(n.endpoint))?
                .print()
        }
        ProofCommand::VerifySignature {
            secret,
            agent_id,
            enrollment_id,
            challenge,
            signature,
        } => {
            let s = required_secret(io, secret.source(), "secret")?;
            let via = match signature {
                None => Via::new("proof verify-signature", "verify_signature", Output::Text)?,
                Some(sig) => Via::new(
                    "proof verify-signature",
                    "check_verify_signature",
                    Output::Check,
                )?
                .set("signature", string(sig))?,
            };
            via.set("registration_secret", string(s))?
                .set("agent_id", string(agent_id))?
                .set("enrollment_id", string(enrollment_id))?
                .set("challenge", string(challenge))?
                .print()
        }
        ProofCommand::VerifyChallenge {
            target,
            proof_key,
            credential_sha256,
            proof: p1,
            proof_v2,
        } => {
            let pk = io.secret(proof_key.source(), "proof-key")?;
            if pk.is_some() == credential_sha256.is_some() {
                return Err(Failure::Usage(
                    "give exactly one of the proof key (--proof-key, --proof-key-file, \
                     --proof-key-env, --proof-key-stdin) and --credential-sha256"
                        .into(),
                ));
            }
            Via::new(
                "proof verify-challenge",
                "verify_challenge_proof",
                Output::Text,
            )?
            .set("challenge", string(target.challenge))?
            .set("endpoint", string(target.endpoint))?
            .opt("proof", p1.map(string))?
            .opt("proof_v2", proof_v2.map(string))?
            .opt("proof_key", pk.map(string))?
            .opt("credential_hash", credential_sha256.map(string))?
            .print()
        }
        ProofCommand::VerifyEnroll {
            announced,
            agent_key: k,
            enrollment: n,
            authority,
            authority_version,
        } => {
            let key = agent_key(io, &k, None)?;
            Via::new(
                "proof verify-enroll",
                "verify_enroll_authority",
                Output::Text,
            )?
            .set("announced", string(announced))?
            .set("agent_key", string(key))?
            .set("enrollment_id", string(n.enrollment_id))?
            .set("nonce", string(n.nonce))?
            .set("endpoint", string(n.endpoint))?
            .opt("authority", authority.map(string))?
            .text("authority_version", authority_version)?
            .print()
        }
    }
}
