//! The command line of `ekl`: every command, subcommand and option (clap derive).

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::input::SecretSource;

/// The top-level help after the usage line: every command (two-word ones included), the input and
/// secret rules and the exit statuses. `tests` check that every leaf command is listed here.
pub(crate) const TOP_HELP: &str = "\
Commands (ekl COMMAND --help, or ekl help COMMAND, for the options of each):
  canon                   the ekl-json-1 canonical form of a JSON text
  digest                  lowercase hex SHA-256 of the canonical form
  commit                  the commitment {alg, canon, digest[, salt_id, salt]} (§15.3)
  terms-hash              the terms hash of §6.7.1 (digest of the terms without `hash`)
  fingerprint             salted fingerprint SHA-256(salt || ekl-json-1(value)) (§15.3)
  output-fingerprint      fingerprint of an MCP tool result (structuredContent, else content)
  upstream-fingerprint    §5.1 fingerprint of a tools/list result (or an array of tools)
  jws verify              verify an ES256 compact JWS of an EKP type; prints
                          {claims, header, kid, token_sha256, typ}
  jws sign                sign claims (key from a 32-byte seed, RFC 6979 nonces)
  jwks from-seed          the key set (or the private JWKs) derived from a 32-byte seed
  jwks new-seed           a fresh random 32-byte seed (64 hex): the secret of new ES256 keys
  receipt issue           a MAC receipt for a call answered: every member, fresh salts (§9.5)
  receipt sign            a MAC receipt with its auth_tag (ekl-evidence-mac-1.1, §9.5)
  receipt digest          receipt_digest: SHA-256 of ekl-json-1 of the whole receipt
  receipt verify          verify a MAC receipt against the call: the verdict as JSON
  receipt verify-jws      verify a network-signed receipt's JWS against the call (§9.5.1)
  receipt verify-signed   verify a network-signed receipt object against the call
  receipt verify-archive  verify a JSON-lines receipt archive on N threads (--jobs N)
  proof key               the proof key (hex) of an agent key
  proof challenge         a challenge's proof_v2 (with --v1: the v1 proof)
  proof enroll            the ekl_enroll authority v2 (with --v1: v1)
  proof verify-signature  the ekl_verify signature, or with --signature: check it
  proof verify-challenge  network side, no downgrade: prints v1 or v2, or refuses
  proof verify-enroll     agent side, no downgrade: prints v1 or v2, or refuses
  screen                  safety flags of a tool result (§15.5) as a JSON array
  mcp                     §5.1 fingerprint of a live MCP server's tools (stdio or Streamable
                          HTTP; every page); --expect FP: exit 1 when they changed
  conformance             check another implementation over docs/conformance-protocol.md
  error-codes             every stable error code, one a line
  call                    any operation of docs/operations.json by its wire name
  help                    this text; ekl help COMMAND: the help of a command

Inputs:
  FILE is always a file; `-` or no FILE: stdin. A token is given with --token TOKEN, or read
  from --token-file FILE, FILE or stdin. Options naming a file (--jwks, --call, --input, --output,
  --own-input, --own-result, --rules) take `-` for stdin; only one input may come from stdin.
  Limits: at most 64 MiB (67108864 bytes) is read from a JSON document or a token and 64 KiB
  (65536 bytes) from a secret source; more is refused with BODY_TOO_LARGE. A file that cannot be
  read is refused with INVALID_ARGUMENT.

Secrets (--secret, --seed, --agent-key, --proof-key, key rings):
  --NAME VALUE        on the command line (other local users can see it in `ps`)
  --NAME-file FILE    from a file (`-`: stdin)
  --NAME-env VAR      from the environment variable VAR
  --NAME-stdin        from stdin
  One trailing line ending of a file or stdin is dropped; an empty secret from a file, a
  variable or stdin is refused (INVALID_ARGUMENT: a failed `vault ... | ekl ... --secret-stdin`
  must not sign). A value that
  starts with `-` is given as --NAME=VALUE. A key ring is a file (--key-ring FILE),
  --key-ring-env VAR or --key-ring-stdin. No message repeats a token, a secret or a path.

Time: --now SECS (seconds since the Unix epoch) defaults to the system clock. A fraction is
  floored to whole seconds; 10^11 or more (in magnitude) is a time in milliseconds, refused.

Every command that corresponds to an operation of `ekl call` runs through it: the same checks,
error codes and output (ekl call OP prints strings as JSON strings).

Output: a verdict or a verified token (receipt verify, verify-jws, verify-signed, verify-archive,
  jws verify, call verify_*) is printed for people when stdout is a terminal: ACCEPTED or NOT
  ACCEPTED, then the checks that did not pass, one a line with their plain words, then the rest;
  ekl mcp prints the upstream fingerprint, the pages and the tools' names (--json: the JSON).
  Piped or redirected it is JSON, the same bytes as ever. --format json|human chooses either; the
  exit status is the same. Other commands print the same in both. Long runs (verify-archive,
  conformance) show progress on stderr only when stderr is a terminal.

Exit status:
  0    done; a verdict or check that is accepted
  1    a verdict or check that is not accepted (the verdict is printed on stdout)
  2    refused: one line `ekl: CODE: message` on stderr (every CODE: ekl error-codes)
  64   usage error: one line `ekl: usage: message` on stderr
  74   stdout could not be written
  69, 75, 76  ekl mcp: the server unavailable, no answer in time, not MCP (ekl mcp --help)
";

const TOP_TEMPLATE: &str = "\
{name} {version}: {about}

{usage-heading} {usage}

Options:
{options}{after-help}";

/// `ekl`: EKP 1.2 evidence bytes.
#[derive(Parser, Debug)]
#[command(
    name = "ekl",
    version,
    about = "EKP 1.2 evidence bytes (ekl-json-1, commitments, fingerprints, proofs, receipts, JWS)",
    help_template = TOP_TEMPLATE,
    after_help = TOP_HELP,
    subcommand_required = true,
    max_term_width = 100
)]
pub(crate) struct Cli {
    /// The command.
    #[command(subcommand)]
    pub command: Command,
    /// How a verdict or a verified token is printed (default: human on a terminal, else json)
    #[arg(long, global = true, value_enum, value_name = "FORM")]
    pub format: Option<crate::human::Format>,
}

/// The positional JSON input.
#[derive(Args, Debug)]
pub(crate) struct Input {
    /// The JSON input file (`-` or none: stdin; at most 64 MiB)
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
}

/// A salt option.
#[derive(Args, Debug)]
pub(crate) struct RequiredSalt {
    /// The 32-byte salt as 64 lowercase hex characters
    #[arg(long, value_name = "HEX", required = true)]
    pub salt: String,
}

/// Every command.
#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// The ekl-json-1 canonical form (RFC 8785 with the EKP refusals)
    Canon {
        /// Apply the limits of a capability call's input (§2.5: canonical form at most 256 KB)
        #[arg(long)]
        capability_input: bool,
        /// Refuse (BODY_TOO_LARGE) a canonical form longer than N bytes
        #[arg(long, value_name = "N", allow_negative_numbers = true)]
        max_bytes: Option<String>,
        #[command(flatten)]
        input: Input,
    },
    /// Lowercase hex SHA-256 of the canonical form
    Digest {
        #[command(flatten)]
        input: Input,
    },
    /// The commitment {alg, canon, digest[, salt_id, salt]} as canonical JSON
    Commit {
        /// Salt the commitment (64 lowercase hex characters)
        #[arg(long, value_name = "HEX")]
        salt: Option<String>,
        /// The salt's id (needs --salt)
        #[arg(long, value_name = "ID", requires = "salt")]
        salt_id: Option<String>,
        /// Apply the limits of a capability call's input (§2.5)
        #[arg(long)]
        capability_input: bool,
        #[command(flatten)]
        input: Input,
    },
    /// The terms hash of §6.7.1 (digest of the terms without `hash`)
    TermsHash {
        #[command(flatten)]
        input: Input,
    },
    /// Salted fingerprint SHA-256(salt || ekl-json-1(value)) (§15.3)
    Fingerprint {
        #[command(flatten)]
        salt: RequiredSalt,
        #[command(flatten)]
        input: Input,
    },
    /// Fingerprint of an MCP tool result (structuredContent, else content)
    OutputFingerprint {
        #[command(flatten)]
        salt: RequiredSalt,
        #[command(flatten)]
        input: Input,
    },
    /// §5.1 fingerprint of a tools/list result (or an array of tools)
    UpstreamFingerprint {
        /// The names of the offered tools, comma-separated
        #[arg(long, value_name = "NAME,NAME..")]
        offered: Option<String>,
        #[command(flatten)]
        input: Input,
    },
    /// ES256 compact JWS of the EKP types (§7)
    #[command(subcommand)]
    Jws(JwsCommand),
    /// Key sets (JWKS)
    #[command(subcommand)]
    Jwks(JwksCommand),
    /// MAC receipts (§9.5) and network-signed receipts (§9.5.1)
    #[command(subcommand)]
    Receipt(ReceiptCommand),
    /// Endpoint proofs and enrollment authorities (§3, §4)
    #[command(subcommand)]
    Proof(ProofCommand),
    /// Safety flags of a tool result (§15.5) as a JSON array
    Screen {
        /// The claims of a verified screening-rules token (JSON file; without it only the local
        /// leak patterns apply)
        #[arg(long, value_name = "CLAIMS")]
        rules: Option<PathBuf>,
        #[command(flatten)]
        input: Input,
    },
    /// §5.1 fingerprint of a live MCP server's tools: handshake, every tools/list page
    #[command(after_help = MCP_HELP)]
    Mcp(McpArgs),
    /// Check another implementation over the JSON-lines protocol of docs/conformance-protocol.md
    #[command(after_help = ekl_conformance::HELP)]
    Conformance(ConformanceArgs),
    /// Every stable error code, one a line
    ErrorCodes,
    /// Any operation of docs/operations.json, by its wire name (`ekl call --list` lists them)
    #[command(after_help = CALL_HELP)]
    Call(CallArgs),
}

/// The help after `ekl call --help`'s options.
pub(crate) const CALL_HELP: &str = "\
Arguments go by their wire names (docs/operations.json). By the parameter's kind:
  value, text, jwks   JSON text                 str, bytes   the string
  int                 an integer
  now                 seconds since the epoch (default: the system clock); a fraction is
                      floored, 10^11 or more is milliseconds and refused
  bool                true or false             str_list     a JSON array of strings
  salt                64 lowercase hex (default: fresh from the operating system's random source)
  key                 SEED_HEX:KID (a signing key from a 32-byte seed)
--arg-file and --arg-env read the text from a file (`-`: stdin) or an environment variable
(secrets); --arg-file drops one trailing line ending, except for a bytes argument, which is the
file's bytes as they are (sha256_hex of a file is sha256sum's). --args FILE gives all arguments as one JSON object, as a conformance `call` request
does (JSON values as strings holding their text; a key as {\"seed\", \"kid\"}). An argument given
twice (by --arg, --arg-file, --arg-env or --args, in any mix) is a usage error.
The result is printed as JSON (canonical bytes as they are); a verdict that is not accepted
exits with 1. On a terminal (or with --format human) the result of a verify_* operation (a
verdict, a list of verdicts, a verified token) is printed for people instead (ekl --help,
Output).";

/// The help after `ekl mcp --help`'s options.
pub(crate) const MCP_HELP: &str = "\
Examples:
  ekl mcp -- python server.py                     a server over stdio (one message a line)
  ekl mcp --url https://mcp.example/mcp           over Streamable HTTP (https:// or http://)
  ekl mcp --url https://10.0.0.5/mcp --ca ca.pem  a private server: its CA, not the web PKI
  ekl mcp --offered search,quote --expect FP -- node server.js
                                                  the presence check of §15.3 (at start, hourly)

It sends initialize (protocol 2025-11-25; the server answers the version it speaks) and
notifications/initialized, then tools/list until a page has no nextCursor, and prints one line:
  {\"pages\":N,\"projection\":[...],\"server\":{\"name\",\"protocol_version\",\"version\"},
   \"tools\":N,\"upstream_fingerprint\":\"...\"}
(canonical JSON; tools counts every tool listed, projection holds the offered ones, the array
the fingerprint hashes). On a terminal (or with --format human) it prints for people instead:
the fingerprint, the server, the tools listed and pages read, the names of the tools
fingerprinted; --json prints the JSON there too. Every message of the server is read as it crossed the wire with the
ekl-json-1 rules: a duplicate member or an integer beyond 2^53 is refused with its code, never
changed; a message an official MCP SDK would refuse (a batch, jsonrpc other than \"2.0\", a member
JSON-RPC does not define) is MCP_INVALID_MESSAGE, a second answer or an answer whose id is not a
number MCP_AMBIGUOUS_ANSWER, a repeated nextCursor or more than 1000 pages MCP_BAD_CURSOR.
The tools of every page, in order, are fingerprinted together; two offered tools of one
name are refused (INVALID_SHAPE). The server's stderr is passed through; its process is ended
when the command ends (stdin closed, killed after 1 s). A request of the server is answered
(ping: {}; others: method not found). Limits: --timeout for the whole exchange (every read and
every write), 64 MiB a message and for all tools/list answers together (BODY_TOO_LARGE), 1000
pages and 10000 tools.

Exit status:
  0    printed (and equal to --expect)
  1    printed, but the fingerprint is not --expect: the server's tools changed
  2    refused: `ekl: CODE: message` (a message or the tools refused by the ekl-json-1 or MCP
       rules)
  64   usage error
  69   the server could not be started or reached, ended, or answered an HTTP or JSON-RPC error
  75   no answer before the deadline (--timeout)
  76   the server's messages are not MCP as needed (no tools capability, no tools array,
       broken HTTP framing)";

/// A fingerprint given to `--expect`: 64 lowercase hex characters.
fn fingerprint_arg(s: &str) -> Result<String, String> {
    if s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        Ok(s.to_owned())
    } else {
        Err("an upstream fingerprint is 64 lowercase hex characters".into())
    }
}

/// `ekl mcp ...`
#[derive(Args, Debug)]
pub(crate) struct McpArgs {
    /// The server's Streamable HTTP endpoint (http:// or https://HOST:PORT/PATH)
    #[arg(long, value_name = "URL", conflicts_with = "command")]
    pub url: Option<String>,
    /// https: trust the CA certificates of this PEM file instead of the web PKI's roots
    #[arg(long, value_name = "FILE")]
    pub ca: Option<std::path::PathBuf>,
    /// The names of the offered tools, comma-separated (default: every tool listed)
    #[arg(long, value_name = "NAME,NAME..")]
    pub offered: Option<String>,
    /// Exit 1 unless the upstream fingerprint is FP (the one reported before)
    #[arg(long, value_name = "FP", value_parser = fingerprint_arg)]
    pub expect: Option<String>,
    /// Seconds the whole exchange may take (1 to 3600)
    #[arg(long, value_name = "SECS", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub timeout: u64,
    /// Print the report as JSON on a terminal too (piped or redirected it always is)
    #[arg(long)]
    pub json: bool,
    /// The server's command and arguments, after `--` (stdio)
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<OsString>,
    /// Whether the report is printed for people (set from --json, --format and the terminal).
    #[arg(skip)]
    pub human: bool,
}

/// `ekl call ...`
#[derive(Args, Debug)]
pub(crate) struct CallArgs {
    /// The operation's wire name (e.g. verify_receipt)
    #[arg(value_name = "NAME", required_unless_present = "list")]
    pub name: Option<String>,
    /// An argument: NAME=VALUE
    #[arg(long = "arg", value_name = "NAME=VALUE")]
    pub args: Vec<String>,
    /// An argument read from a file (`-`: stdin): NAME=FILE
    #[arg(long = "arg-file", value_name = "NAME=FILE")]
    pub arg_files: Vec<String>,
    /// An argument read from an environment variable: NAME=VAR
    #[arg(long = "arg-env", value_name = "NAME=VAR")]
    pub arg_envs: Vec<String>,
    /// Every argument as one JSON object (the conformance `call` form)
    #[arg(long = "args", value_name = "FILE")]
    pub args_file: Option<PathBuf>,
    /// List the operations, one a line with its parameters and what it does (--json: the
    /// manifest docs/operations.json)
    #[arg(long)]
    pub list: bool,
    /// With --list: the manifest as JSON (docs/operations.json)
    #[arg(long, requires = "list")]
    pub json: bool,
}

/// `ekl jws ...`
#[derive(Subcommand, Debug)]
pub(crate) enum JwsCommand {
    /// Verify an ES256 compact JWS of EKP type T; prints {claims, header, kid, token_sha256, typ}
    Verify {
        #[command(flatten)]
        typ: TypArg,
        /// The key set (JWKS JSON file; `-`: stdin)
        #[arg(long, value_name = "FILE", required = true)]
        jwks: PathBuf,
        /// Seconds since the epoch to check at (default: the clock; a fraction is floored)
        #[arg(long, value_name = "SECS", allow_negative_numbers = true)]
        now: Option<String>,
        /// The expected issuer (iss)
        #[arg(long, value_name = "ISS")]
        iss: Option<String>,
        /// The expected audience (aud)
        #[arg(long, value_name = "AUD")]
        aud: Option<String>,
        #[command(flatten)]
        token: TokenArgs,
    },
    /// Sign the claims JSON (key from the 32-byte seed, RFC 6979 nonces); prints the token
    Sign {
        #[command(flatten)]
        typ: TypArg,
        #[command(flatten)]
        seed: SeedSource,
        /// The key id (kid) of the signing key
        #[arg(long, value_name = "KID", required = true)]
        kid: String,
        #[command(flatten)]
        input: Input,
    },
}

/// `--typ`.
#[derive(Args, Debug)]
pub(crate) struct TypArg {
    /// The EKP token type (e.g. ekl-receipt+jwt, ekl-access+jwt)
    #[arg(long = "typ", value_name = "T", required = true)]
    pub typ: String,
}

/// `ekl jwks ...`
#[derive(Subcommand, Debug)]
pub(crate) enum JwksCommand {
    /// The key set (or with --private the private JWKs) derived from a 32-byte seed
    FromSeed {
        #[command(flatten)]
        seed: SeedSource,
        /// The key ids, comma-separated (one key per kid)
        #[arg(long, value_name = "KID[,KID..]", required = true)]
        kid: String,
        /// Print the private JWKs (with `d`) instead of the public key set
        #[arg(long)]
        private: bool,
    },
    /// A fresh random 32-byte seed (64 lowercase hex) from the operating system's random
    /// source: the secret of new ES256 keys. Keep it as a private key; `jws sign --seed-file`
    /// and `jwks from-seed --seed-file` derive the keys from it (one per kid). Example:
    /// `ekl jwks new-seed > net.seed && ekl jwks from-seed --seed-file net.seed --kid net-1`
    NewSeed,
}

/// The token of `jws verify` and `receipt verify-jws`: `--token`, `--token-file`, FILE or stdin.
#[derive(Args, Debug)]
pub(crate) struct TokenArgs {
    /// The compact JWS itself
    #[arg(long, value_name = "TOKEN", conflicts_with_all = ["token_file", "file"])]
    pub token: Option<String>,
    /// A file holding the compact JWS (`-`: stdin; surrounding whitespace is ignored)
    #[arg(long, value_name = "FILE", conflicts_with = "file")]
    pub token_file: Option<PathBuf>,
    /// A file holding the compact JWS (`-` or none: stdin); never a token itself
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
}

/// The help after `ekl receipt issue --help`'s options.
pub(crate) const RECEIPT_ISSUE_HELP: &str = "\
The receipt (ekl-evidence-mac-1.1, PROTOCOL §9.5) of a call answered, printed as JSON: from the
call (--call: the call object `receipt verify` takes) come execution_kind, requester_agent_id,
provider_agent_id, collaboration_id, connection_id, execution_id, capability_id,
capability_version, terms_hash, and for a customer call reservation_id, grant_id and admission_id
(a trial or validation call names none of them); the options give status, rel_ver_at_admission,
dsc_ver, key_id (default rk-1), receipt_id (default: rcpt_ and 32 hex of the SHA-256 of the other
members), issued_at (default: the system clock); input_commitment and output_commitment are the
salted commitments to --input and --output (salts: fresh from the operating system's random source
unless given). The receipt is verified before it is printed; what the verifier would refuse is
refused (exit 2). Runs the operation issue_mac_receipt (ekl call issue_mac_receipt).";

/// The help after `ekl receipt sign --help`'s options: the members it checks.
pub(crate) const RECEIPT_SIGN_HELP: &str = "\
FILE is the whole receipt without auth_tag; the signer refuses what the verifier would refuse.
Every receipt carries the strings receipt_version (\"1.1\"), receipt_id, execution_kind
(customer, trial, validation), requester_agent_id, provider_agent_id, collaboration_id,
connection_id, execution_id, capability_id, capability_version, terms_hash, status, issued_at
(YYYY-MM-DDTHH:MM:SSZ), key_id, auth_profile (\"ekl-evidence-mac-1.1\"); the integers
rel_ver_at_admission and dsc_ver; the commitments input_commitment and output_commitment. A
customer receipt also carries reservation_id, grant_id and admission_id; a trial or validation
receipt none of them. `ekl receipt issue` builds all of them from the call, the input and the
output.";

/// `ekl receipt ...`
#[derive(Subcommand, Debug)]
pub(crate) enum ReceiptCommand {
    /// A MAC receipt for a call answered: every member, fresh salts, verified (§9.5)
    #[command(after_help = RECEIPT_ISSUE_HELP)]
    Issue(ReceiptIssueArgs),
    /// The receipt with its auth_tag (ekl-evidence-mac-1.1, §9.5)
    #[command(after_help = RECEIPT_SIGN_HELP)]
    Sign {
        #[command(flatten)]
        secret: SecretArgs,
        #[command(flatten)]
        input: Input,
    },
    /// receipt_digest: SHA-256 of ekl-json-1 of the whole receipt
    Digest {
        #[command(flatten)]
        input: Input,
    },
    /// The verdict as JSON; exit 0 when accepted, 1 when not
    Verify {
        #[command(flatten)]
        secret: SecretArgs,
        #[command(flatten)]
        key_ring: KeyRingSource,
        /// The call (JSON file: execution_id, collaboration_id, capability_id,
        /// requester_agent_id, provider_agent_id, and optional members)
        #[arg(long, value_name = "CALL", required = true)]
        call: PathBuf,
        /// Your own copy of the input (JSON file), compared with the input commitment
        #[arg(long, value_name = "IN")]
        own_input: Option<PathBuf>,
        /// Your own copy of the result (JSON file), compared with the output commitment
        #[arg(long, value_name = "OUT")]
        own_result: Option<PathBuf>,
        /// The salt of both own commitments (64 lowercase hex characters); without it each side
        /// takes the salt (and salt id) of the receipt's own commitment, as the consumer does
        #[arg(long, value_name = "HEX")]
        salt: Option<String>,
        #[command(flatten)]
        input: Input,
    },
    /// Verify a network-signed receipt's JWS against the call; exit 1 when not accepted
    VerifyJws {
        #[command(flatten)]
        signed: SignedReceiptArgs,
        #[command(flatten)]
        token: TokenArgs,
    },
    /// Verify a network-signed receipt object (its JWS and signature) against the call
    VerifySigned {
        #[command(flatten)]
        signed: SignedReceiptArgs,
        #[command(flatten)]
        input: Input,
    },
    /// Verify a receipt archive (JSON lines, one {receipt | receipt_jws, call, ...} a line) on N
    /// threads: one line out per item, in order; exit 1 when any item is not accepted
    #[command(after_help = ARCHIVE_HELP)]
    VerifyArchive(ArchiveArgs),
}

/// `ekl receipt issue`.
#[derive(Args, Debug)]
pub(crate) struct ReceiptIssueArgs {
    /// The call answered (JSON file: execution_id, collaboration_id, capability_id,
    /// requester_agent_id, provider_agent_id, execution_kind, connection_id, capability_version,
    /// terms_hash; reservation_id, grant_id, admission_id for a customer call)
    #[arg(long, value_name = "CALL", required = true)]
    pub call: PathBuf,
    /// The call's input object (JSON file; at most 256 KB as ekl-json-1)
    #[arg(long, value_name = "IN", required = true)]
    pub input: PathBuf,
    /// The result answered (JSON file)
    #[arg(long, value_name = "OUT", required = true, visible_alias = "result")]
    pub output: PathBuf,
    /// The execution status: accepted, running, succeeded, failed_before_effect, cancelled,
    /// outcome_unknown
    #[arg(long, value_name = "STATUS", required = true)]
    pub status: String,
    /// The relationship version at admission (an integer)
    #[arg(long, value_name = "N", required = true, allow_negative_numbers = true)]
    pub rel_ver_at_admission: String,
    /// The descriptor version (an integer)
    #[arg(long, value_name = "N", required = true, allow_negative_numbers = true)]
    pub dsc_ver: String,
    /// The secret's key id (default rk-1: the registration secret)
    #[arg(long, value_name = "KEY_ID")]
    pub key_id: Option<String>,
    /// The receipt id (default: derived from the receipt, rcpt_ and 32 hex)
    #[arg(long, value_name = "ID")]
    pub receipt_id: Option<String>,
    /// The time of issue in seconds since the epoch (default: the clock; a fraction is floored)
    #[arg(
        long,
        value_name = "SECS",
        visible_alias = "now",
        allow_negative_numbers = true
    )]
    pub issued_at: Option<String>,
    /// The input commitment's salt, 64 lowercase hex (default: fresh from the OS random source)
    #[arg(long, value_name = "HEX")]
    pub input_salt: Option<String>,
    /// The output commitment's salt, 64 lowercase hex (default: fresh from the OS random source)
    #[arg(long, value_name = "HEX")]
    pub output_salt: Option<String>,
    #[command(flatten)]
    pub secret: SecretArgs,
}

/// The item format and the output of `receipt verify-archive`.
pub(crate) const ARCHIVE_HELP: &str = "\
Items (one JSON object a line; blank lines are skipped; at most 64 MiB a line):
  {\"receipt\": MAC receipt, \"call\": {...}, \"input_commitment\"?, \"output_commitment\"?}
  {\"receipt_jws\": \"<compact JWS>\", \"call\": {...}}
  {\"receipt\": network-signed receipt object, \"call\": {...}}
  and an optional \"label\". --agent-id and --issuer fill a call's own_agent_id,
  requester_agent_id and network_issuer when the item has none.
Output (stdout, one line per item, in the archive's order whatever --jobs is):
  {\"line\":N,\"verdict\":{accepted, checks, receipt_digest?}}  or  {\"error\":{code, message},\"line\":N}
  On a terminal (or with --format human) one line per item for people instead: line N: ACCEPTED,
  or the line with the item's receipt and execution ids (line N, receipt R, execution E) and NOT
  ACCEPTED with the failing checks in plain words, or REFUSED with the code; then the failing
  checks counted. A summary goes to stderr; when stderr is a terminal a progress line too (items,
  rate, and the share done and time left when the input's size is known: a file, or stdin
  redirected from a file); nothing else when stderr is not a terminal.";

/// `ekl receipt verify-archive`.
#[derive(Args, Debug)]
pub(crate) struct ArchiveArgs {
    /// Threads to verify on (default: every core available to the process)
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    /// The network's key set, for network-signed receipts (JWKS JSON file)
    #[arg(long, value_name = "FILE")]
    pub jwks: Option<PathBuf>,
    #[command(flatten)]
    pub secret: SecretArgs,
    #[command(flatten)]
    pub key_ring: KeyRingSource,
    /// Your agent id: a call's own_agent_id and requester_agent_id when the item has none
    #[arg(long, value_name = "ID")]
    pub agent_id: Option<String>,
    /// The network's issuer: a signed call's network_issuer when the item has none
    #[arg(long, value_name = "ISS")]
    pub issuer: Option<String>,
    /// No progress bar, even on a terminal
    #[arg(long)]
    pub no_progress: bool,
    /// Print only the items that are not accepted, each verdict with its failing checks alone
    #[arg(long)]
    pub failures_only: bool,
    /// The archive (`-` or none: stdin); read as a stream, any size
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
}

/// `--jwks` and `--call` of the network-signed receipt verifiers.
#[derive(Args, Debug)]
pub(crate) struct SignedReceiptArgs {
    /// The network's key set (JWKS JSON file; `-`: stdin)
    #[arg(long, value_name = "FILE", required = true)]
    pub jwks: PathBuf,
    /// The call (JSON file: execution_id, provider_agent_id, requester_agent_id, capability_id,
    /// input_fingerprint, own_agent_id, network_issuer, sent_at, received_at)
    #[arg(long, value_name = "FILE", required = true)]
    pub call: PathBuf,
}

/// `ekl proof ...`
#[derive(Subcommand, Debug)]
pub(crate) enum ProofCommand {
    /// The proof key (hex) of an agent key (given, or read from FILE or stdin)
    Key {
        #[command(flatten)]
        agent_key: AgentKeySource,
        /// A file holding the agent key (`-` or none: stdin) when no --agent-key* option is given
        #[arg(value_name = "FILE")]
        file: Option<PathBuf>,
    },
    /// The challenge's proof_v2 (with --v1 and an agent key: the v1 proof)
    Challenge {
        #[command(flatten)]
        target: ChallengeTarget,
        #[command(flatten)]
        proof_key: ProofKeySource,
        #[command(flatten)]
        agent_key: AgentKeySource,
        /// The v1 proof (needs the agent key)
        #[arg(long)]
        v1: bool,
    },
    /// The ekl_enroll authority v2 (with --v1: v1)
    Enroll {
        #[command(flatten)]
        enrollment: Enrollment,
        #[command(flatten)]
        agent_key: AgentKeySource,
        /// The v1 authority
        #[arg(long)]
        v1: bool,
    },
    /// The ekl_verify signature, or with --signature: check it (exit 0 or 1)
    VerifySignature {
        #[command(flatten)]
        secret: SecretArgs,
        /// The agent id
        #[arg(long, value_name = "A", required = true)]
        agent_id: String,
        /// The enrollment id
        #[arg(long, value_name = "ID", required = true)]
        enrollment_id: String,
        /// The challenge
        #[arg(long, value_name = "C", required = true)]
        challenge: String,
        /// The signature to check
        #[arg(long, value_name = "SIG")]
        signature: Option<String>,
    },
    /// Network side, no downgrade: prints v1 or v2, or refuses (PROOF_DOWNGRADE, PROOF_INVALID)
    VerifyChallenge {
        #[command(flatten)]
        target: ChallengeTarget,
        #[command(flatten)]
        proof_key: ProofKeySource,
        /// SHA-256 (hex) of the agent's credential, as the network holds it
        #[arg(long, value_name = "HEX")]
        credential_sha256: Option<String>,
        /// The v1 proof received
        #[arg(long, value_name = "P")]
        proof: Option<String>,
        /// The v2 proof received
        #[arg(long, value_name = "P")]
        proof_v2: Option<String>,
    },
    /// Agent side, no downgrade: prints v1 or v2, or refuses
    VerifyEnroll {
        /// The version the network announced
        #[arg(long, value_name = "v1|v2", required = true)]
        announced: String,
        #[command(flatten)]
        agent_key: AgentKeySource,
        #[command(flatten)]
        enrollment: Enrollment,
        /// The authority received
        #[arg(long, value_name = "A")]
        authority: Option<String>,
        /// The authority's version (1 or 2)
        #[arg(long, value_name = "1|2", allow_negative_numbers = true)]
        authority_version: Option<String>,
    },
}

/// `--challenge` and `--endpoint`.
#[derive(Args, Debug)]
pub(crate) struct ChallengeTarget {
    /// The challenge
    #[arg(long, value_name = "C", required = true)]
    pub challenge: String,
    /// The endpoint
    #[arg(long, value_name = "E", required = true)]
    pub endpoint: String,
}

/// `--enrollment-id`, `--nonce` and `--endpoint`.
#[derive(Args, Debug)]
pub(crate) struct Enrollment {
    /// The enrollment id
    #[arg(long, value_name = "ID", required = true)]
    pub enrollment_id: String,
    /// The nonce
    #[arg(long, value_name = "N", required = true)]
    pub nonce: String,
    /// The endpoint
    #[arg(long, value_name = "E", required = true)]
    pub endpoint: String,
}

/// The sources of one secret: `--NAME VALUE`, `--NAME-file FILE`, `--NAME-env VAR`, `--NAME-stdin`
/// (at most one of them).
macro_rules! secret_source {
    ($ty:ident, $what:literal, $value_name:literal,
     $val:ident = $long:literal, $file:ident = $long_file:literal,
     $env:ident = $long_env:literal, $stdin:ident = $long_stdin:literal) => {
        #[doc = concat!("The sources of the ", $what, " (at most one).")]
        #[derive(Args, Debug)]
        #[group(multiple = false)]
        pub(crate) struct $ty {
            #[doc = concat!("The ", $what, " on the command line.")]
            #[arg(long = $long, value_name = $value_name,
                  help = concat!("The ", $what, " itself (other local users can see it in `ps`)"))]
            pub $val: Option<String>,
            #[doc = concat!("A file holding the ", $what, ".")]
            #[arg(long = $long_file, value_name = "FILE",
                  help = concat!("Read the ", $what, " from FILE (`-`: stdin; at most 64 KiB)"))]
            pub $file: Option<PathBuf>,
            #[doc = concat!("An environment variable holding the ", $what, ".")]
            #[arg(long = $long_env, value_name = "VAR",
                  help = concat!("Read the ", $what, " from the environment variable VAR"))]
            pub $env: Option<OsString>,
            #[doc = concat!("Read the ", $what, " from stdin.")]
            #[arg(long = $long_stdin,
                  help = concat!("Read the ", $what, " from stdin (at most 64 KiB)"))]
            pub $stdin: bool,
        }

        impl $ty {
            /// The source given, if any.
            pub(crate) fn source(&self) -> SecretSource<'_> {
                if let Some(v) = &self.$val {
                    SecretSource::Value(v)
                } else if let Some(p) = &self.$file {
                    SecretSource::File(p)
                } else if let Some(e) = &self.$env {
                    SecretSource::Env(e)
                } else if self.$stdin {
                    SecretSource::Stdin
                } else {
                    SecretSource::None
                }
            }
        }
    };
}

secret_source!(
    SecretArgs,
    "secret",
    "S",
    secret = "secret",
    secret_file = "secret-file",
    secret_env = "secret-env",
    secret_stdin = "secret-stdin"
);
secret_source!(
    SeedSource,
    "32-byte seed (64 hex characters)",
    "HEX",
    seed = "seed",
    seed_file = "seed-file",
    seed_env = "seed-env",
    seed_stdin = "seed-stdin"
);
secret_source!(
    AgentKeySource,
    "agent key",
    "K",
    agent_key = "agent-key",
    agent_key_file = "agent-key-file",
    agent_key_env = "agent-key-env",
    agent_key_stdin = "agent-key-stdin"
);
secret_source!(
    ProofKeySource,
    "proof key (64 hex characters)",
    "HEX",
    proof_key = "proof-key",
    proof_key_file = "proof-key-file",
    proof_key_env = "proof-key-env",
    proof_key_stdin = "proof-key-stdin"
);

/// The sources of a key ring (a JSON array of {key_id, secret, valid_from, valid_until?}, read by
/// the core's `KeyRing::from_value`: unknown members refused): at most one.
#[derive(Args, Debug)]
#[group(multiple = false)]
pub(crate) struct KeyRingSource {
    /// The key ring file (`-`: stdin; at most 64 KiB)
    #[arg(long, value_name = "KEYS")]
    pub key_ring: Option<PathBuf>,
    /// Read the key ring from the environment variable VAR
    #[arg(long, value_name = "VAR")]
    pub key_ring_env: Option<OsString>,
    /// Read the key ring from stdin (at most 64 KiB)
    #[arg(long)]
    pub key_ring_stdin: bool,
}

impl KeyRingSource {
    /// The source given, if any.
    pub(crate) fn source(&self) -> SecretSource<'_> {
        if let Some(p) = &self.key_ring {
            SecretSource::File(p)
        } else if let Some(e) = &self.key_ring_env {
            SecretSource::Env(e)
        } else if self.key_ring_stdin {
            SecretSource::Stdin
        } else {
            SecretSource::None
        }
    }
}

/// `ekl conformance ...` (docs/conformance-protocol.md).
#[derive(Args, Debug)]
pub(crate) struct ConformanceArgs {
    /// The number of generated JSON texts
    #[arg(long, value_name = "N", default_value_t = ekl_conformance::Options::CORPUS)]
    pub corpus: usize,
    /// The seed of the generated corpus
    #[arg(long, value_name = "S", default_value_t = ekl_conformance::Options::SEED)]
    pub seed: u64,
    /// The number of random doubles (1000 to a request)
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub doubles: usize,
    /// Keep the requests whose rule name contains RULE (repeatable)
    #[arg(long, value_name = "RULE")]
    pub only: Vec<String>,
    /// How long to wait for one answer, in milliseconds
    #[arg(long, value_name = "MS", default_value_t = ekl_conformance::Options::TIMEOUT_MS)]
    pub timeout: u64,
    /// How many differing cases to print per rule
    #[arg(long, value_name = "K", default_value_t = ekl_conformance::Options::SHOW)]
    pub show: usize,
    /// How many requests to send before reading their answers
    #[arg(long, value_name = "N", default_value_t = ekl_conformance::Options::WINDOW)]
    pub window: usize,
    /// The vector files' folder (default: $EKL_VECTORS, ./vectors, the repository's)
    #[arg(long, value_name = "DIR")]
    pub vectors: Option<PathBuf>,
    /// Send no vector files, only the generated corpus
    #[arg(long)]
    pub no_vectors: bool,
    /// Answer the protocol on stdin/stdout with this core
    #[arg(long, conflicts_with_all = ["emit", "ops", "command"])]
    pub serve: bool,
    /// Print the request stream with the expected answers
    #[arg(long, conflicts_with_all = ["ops", "command"])]
    pub emit: bool,
    /// Print the operation names, one a line
    #[arg(long, conflicts_with = "command")]
    pub ops: bool,
    /// The implementation to check, after `--`
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<OsString>,
}
