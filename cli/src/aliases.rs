//! Every named command of `ekl` and what it is: an alias of registry operations (the command
//! maps its flags to the operation's arguments, the operation checks them and gives the result,
//! so `ekl COMMAND` and `ekl call OP` agree byte for byte), or host-only, with the reason.
//!
//! `commands.rs` runs an alias only through an operation this table names for it; the unit test
//! `every_command_is_in_the_alias_table` holds the table to the parser's commands, and
//! `cli/tests/cli_twins.rs` (which includes this file) runs every alias and its `ekl call` twin on
//! the same inputs, valid and refused, comparing stdout, stderr and the exit status. This file
//! depends on nothing, so that test can include it.

/// How a named command prints its operation's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Output {
    /// Exactly what `ekl call` prints: the result as canonical JSON and a newline (a verdict that
    /// is not accepted exits with 1).
    Json,
    /// A string result itself and a newline (`ekl call` prints it as a JSON string).
    Text,
    /// Canonical bytes as they are, without a newline (`ekl call` adds one).
    Bytes,
    /// A boolean check: `ok` (exit 0) or `signature does not verify` (exit 1) (`ekl call` prints
    /// `true` or `false`, exit 0).
    Check,
    /// The private JWKs of the keys (`ekl call` prints the public key set, never a secret).
    PrivateKeys,
}

/// One operation a named command runs, and when.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Alias {
    /// The operation's wire name.
    pub op: &'static str,
    /// How the command prints its result.
    pub output: Output,
    /// The flags that select this operation, and how the command's flags become its arguments
    /// where that is not by name (documentation, read by the tests).
    #[allow(dead_code)]
    pub when: &'static str,
}

/// What a named command is.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Named {
    /// An alias of these operations (one, or one per selecting flag).
    Alias(&'static [Alias]),
    /// Not a registry operation: why (documentation, read by the tests).
    HostOnly(#[allow(dead_code)] &'static str),
}

const fn alias(op: &'static str, output: Output, when: &'static str) -> Alias {
    Alias { op, output, when }
}

/// Every named command (its words, as typed after `ekl`), in the order of `ekl --help`.
pub(crate) const NAMED: &[(&str, Named)] = &[
    (
        "canon",
        Named::Alias(&[alias(
            "canonicalize",
            Output::Bytes,
            "FILE is text; --max-bytes N is max_bytes; --capability-input: max_bytes 262144 \
             unless --max-bytes is given",
        )]),
    ),
    (
        "digest",
        Named::Alias(&[alias("value_digest", Output::Text, "FILE is value")]),
    ),
    (
        "commit",
        Named::Alias(&[
            alias(
                "commitment",
                Output::Json,
                "FILE is value; --salt, --salt-id",
            ),
            alias(
                "input_commitment",
                Output::Json,
                "--capability-input; FILE is input; --salt, --salt-id",
            ),
        ]),
    ),
    (
        "terms-hash",
        Named::Alias(&[alias("terms_hash", Output::Text, "FILE is terms")]),
    ),
    (
        "fingerprint",
        Named::Alias(&[alias("fingerprint", Output::Text, "FILE is value; --salt")]),
    ),
    (
        "output-fingerprint",
        Named::Alias(&[alias(
            "output_fingerprint",
            Output::Text,
            "FILE is result; --salt",
        )]),
    ),
    (
        "upstream-fingerprint",
        Named::Alias(&[alias(
            "upstream_fingerprint",
            Output::Text,
            "FILE is tools; --offered A,B is offered [\"A\",\"B\"] (empty names dropped)",
        )]),
    ),
    (
        "jws verify",
        Named::Alias(&[alias(
            "verify_jws",
            Output::Json,
            "the token (--token, --token-file, FILE or stdin; surrounding whitespace dropped); \
             --typ; --jwks FILE is jwks; --now is now (default: the clock); --iss is issuer; \
             --aud is audience",
        )]),
    ),
    (
        "jws sign",
        Named::Alias(&[alias(
            "sign_jws",
            Output::Text,
            "FILE is claims; --typ; the seed and --kid are key (the signing_key operation, as \
             `ekl call` reads key=SEED:KID)",
        )]),
    ),
    (
        "jwks from-seed",
        Named::Alias(&[
            alias(
                "jwks_from_seed",
                Output::Json,
                "the seed; --kid A,B is kids [\"A\",\"B\"]",
            ),
            alias(
                "jwks_from_seed",
                Output::PrivateKeys,
                "--private: the private JWKs of the keys",
            ),
        ]),
    ),
    (
        "jwks new-seed",
        Named::HostOnly(
            "draws 32 bytes from the operating system's random source (the core reads none); \
             the keys are then the signing_key / jwks_from_seed operations of that seed",
        ),
    ),
    (
        "receipt issue",
        Named::Alias(&[alias(
            "issue_mac_receipt",
            Output::Json,
            "--call FILE is call; --input FILE is input; --output FILE is output; --status; \
             --rel-ver-at-admission, --dsc-ver (integers); the secret; --key-id; --receipt-id; \
             --issued-at (or --now) is issued_at (default: the clock); --input-salt, \
             --output-salt (default: fresh from the OS random source)",
        )]),
    ),
    (
        "receipt sign",
        Named::Alias(&[alias(
            "sign_receipt",
            Output::Json,
            "FILE is receipt; the secret",
        )]),
    ),
    (
        "receipt digest",
        Named::Alias(&[alias("receipt_digest", Output::Text, "FILE is receipt")]),
    ),
    (
        "receipt verify",
        Named::Alias(&[alias(
            "verify_receipt",
            Output::Json,
            "FILE is receipt; keys is the secret as a JSON string, or the key ring's text; \
             --call FILE is call; --own-input / --own-result FILE: its commitment (the \
             commitment operation, salted with --salt) is input_commitment / output_commitment",
        )]),
    ),
    (
        "receipt verify-jws",
        Named::Alias(&[alias(
            "verify_receipt_jws",
            Output::Json,
            "the token (as for jws verify); --jwks FILE is jwks; --call FILE is call",
        )]),
    ),
    (
        "receipt verify-signed",
        Named::Alias(&[alias(
            "verify_signed_receipt",
            Output::Json,
            "FILE is receipt; --jwks FILE is jwks; --call FILE is call",
        )]),
    ),
    (
        "receipt verify-archive",
        Named::HostOnly(
            "streams an archive of any size in bounded memory on --jobs threads, one line out \
             per item as it is verified ({line, verdict} or {error, line}) and a summary on \
             stderr; verify_receipt_lines takes the whole text and returns one array. Each line \
             is verified by the same core function (ekl_core::batch::verify_line), so its \
             verdict is the array's item (pinned by cli/tests/cli_twins.rs)",
        ),
    ),
    (
        "proof key",
        Named::Alias(&[alias(
            "proof_key",
            Output::Text,
            "the agent key (an --agent-key option, else FILE or stdin) is agent_key",
        )]),
    ),
    (
        "proof challenge",
        Named::Alias(&[
            alias(
                "challenge_proof_v2",
                Output::Text,
                "--challenge, --endpoint; the proof key, or the agent key's (the proof_key \
                 operation) is proof_key",
            ),
            alias(
                "challenge_proof_v1",
                Output::Text,
                "--v1; the agent key is credential; --challenge, --endpoint",
            ),
        ]),
    ),
    (
        "proof enroll",
        Named::Alias(&[
            alias(
                "enroll_authority_v2",
                Output::Text,
                "the agent key's proof key (the proof_key operation) is proof_key; \
                 --enrollment-id, --nonce, --endpoint",
            ),
            alias(
                "enroll_authority_v1",
                Output::Text,
                "--v1; the agent key is agent_key; --enrollment-id, --nonce, --endpoint",
            ),
        ]),
    ),
    (
        "proof verify-signature",
        Named::Alias(&[
            alias(
                "verify_signature",
                Output::Text,
                "the secret is registration_secret; --agent-id, --enrollment-id, --challenge",
            ),
            alias(
                "check_verify_signature",
                Output::Check,
                "--signature; the secret is registration_secret; --agent-id, \
                 --enrollment-id, --challenge",
            ),
        ]),
    ),
    (
        "proof verify-challenge",
        Named::Alias(&[alias(
            "verify_challenge_proof",
            Output::Text,
            "--challenge, --endpoint, --proof, --proof-v2; the proof key is proof_key; \
             --credential-sha256 is credential_hash",
        )]),
    ),
    (
        "proof verify-enroll",
        Named::Alias(&[alias(
            "verify_enroll_authority",
            Output::Text,
            "--announced, the agent key, --enrollment-id, --nonce, --endpoint, --authority, \
             --authority-version",
        )]),
    ),
    (
        "screen",
        Named::Alias(&[alias(
            "screen",
            Output::Json,
            "FILE is result; --rules FILE is rules",
        )]),
    ),
    (
        "mcp",
        Named::HostOnly(
            "talks MCP with a live server (a child process over stdio, or Streamable HTTP) and \
             reads every tools/list page as it crossed the wire; the tools of all pages, in \
             order, then go to the upstream_fingerprint and upstream_projection operations, so \
             its fingerprint is the operation's (pinned by the unit tests of cli/src/mcp.rs and \
             scripts/test/45-mcp.sh against independent.py)",
        ),
    ),
    (
        "conformance",
        Named::HostOnly(
            "runs another implementation (or serves this one) over the JSON-lines protocol of \
             docs/conformance-protocol.md; its `call` requests run the registry's operations",
        ),
    ),
    (
        "error-codes",
        Named::HostOnly(
            "lists the stable error codes of this build (ekl_core::ErrorCode::ALL), a constant \
             of each package rather than an operation",
        ),
    ),
    (
        "call",
        Named::HostOnly("the registry itself: any operation by its wire name"),
    ),
];

/// The operations a named command may run (empty for a host-only command or an unknown one).
pub(crate) fn ops_of(command: &str) -> &'static [Alias] {
    NAMED
        .iter()
        .find(|(c, _)| *c == command)
        .map_or(&[], |(_, n)| match n {
            Named::Alias(a) => a,
            Named::HostOnly(_) => &[],
        })
}
