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
  error-codes            every stable error code, one per line
  help                   this text
";

/// A failure of the tool: a refusal of the core (exit 2) or a usage error (exit 64).
enum Failure {
    Refused(Error),
    Usage(String),
    Io(String),
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
    }
}
