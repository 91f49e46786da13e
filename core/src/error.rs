//! One error type for the whole core, with stable codes.
//!
//! Every refusal of the library carries an [`ErrorCode`]. Its [`ErrorCode::as_str`] form is a
//! SCREAMING_SNAKE string that is part of the public contract: the Python exception's `.code`, the JS
//! `Error`'s `.code` and the CLI's exit message all carry exactly this string. Where EKP 1.2 already
//! names a refusal (`INPUT_TOO_DEEP`, `BODY_TOO_LARGE`, §2.5; `ENROLLMENT_AUTH_REQUIRED`, §4;
//! `ASSERTION_REPLAY`, §9.2) the protocol's name is used ([`ErrorCode::protocol_section`]).
//! Each code's meaning is its doc comment ([`ErrorCode::meaning`]); the table of every code is
//! docs/errors.md, generated from this file.
//!
//! Messages are short, lower-case, and never contain keys, secrets, tags or payloads: at most a byte
//! offset into the input or the name of a field.

use core::fmt;

/// The table below is the one place a code is written by hand: docs/errors.json, docs/errors.md,
/// the TS union `EklErrorCode` and Python's `ErrorCode` Literal are generated from it (CONTRIBUTING.md,
/// "Add an error code"). A row: the doc comment (the meaning), the variant, its string, and
/// `@ "§N"` when EKP 1.2 names the code in that section.
macro_rules! error_codes {
    (@section) => { None };
    (@section $section:literal) => { Some($section) };
    ($( $group:literal {
        $( $(#[doc = $doc:literal])* $variant:ident = $text:literal $(@ $section:literal)?, )*
    } )*) => {
        /// A stable reason for a refusal. The string form ([`ErrorCode::as_str`]) never changes.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum ErrorCode {
            $( $( $(#[doc = $doc])* $variant, )* )*
        }

        impl ErrorCode {
            /// Every code, in declaration order (bindings use this list to check their own).
            pub const ALL: &'static [ErrorCode] = &[ $( $( ErrorCode::$variant, )* )* ];

            /// The stable SCREAMING_SNAKE string of this code.
            pub const fn as_str(self) -> &'static str {
                match self { $( $( ErrorCode::$variant => $text, )* )* }
            }

            /// The code whose string is `text`, if any.
            pub fn from_str_code(text: &str) -> Option<ErrorCode> {
                match text { $( $( $text => Some(ErrorCode::$variant), )* )* _ => None }
            }

            /// What the code means, on one line: the variant's doc comment with its lines joined
            /// (docs/errors.md and the bindings' declarations are generated from it).
            pub const fn meaning(self) -> &'static str {
                match self { $( $( ErrorCode::$variant => concat!($($doc),*).trim_ascii(), )* )* }
            }

            /// The section of EKP 1.2 that names this code, when the protocol names it (`§2.5`):
            /// the string is then the protocol's own, on the wire as well as in this library.
            pub const fn protocol_section(self) -> Option<&'static str> {
                match self { $( $( ErrorCode::$variant => error_codes!(@section $($section)?), )* )* }
            }

            /// The heading of the group the code is declared in (what it concerns: `ekl-json-1
            /// (SPEC §1, PROTOCOL §9.5, §2.5)`, `JWS / JWKS (SPEC §7)`, ...).
            pub const fn group(self) -> &'static str {
                match self { $( $( ErrorCode::$variant => $group, )* )* }
            }
        }
    };
}

error_codes! {
    "ekl-json-1 (SPEC §1, PROTOCOL §9.5, §2.5)" {
        /// The input is not RFC 8259 JSON (syntax error, trailing data, comments, leading zeros, BOM, ...).
        InvalidJson = "INVALID_JSON",
        /// Byte input is not valid UTF-8.
        InvalidUtf8 = "INVALID_UTF8",
        /// A string or key holds a lone UTF-16 surrogate (escaped, or from a host string).
        LoneSurrogate = "LONE_SURROGATE",
        /// An object has the same key twice (compared after unescaping).
        DuplicateKey = "DUPLICATE_KEY",
        /// `NaN`, `Infinity`, a literal that overflows to infinity, or a non-finite host float.
        NonFiniteNumber = "NON_FINITE_NUMBER",
        /// An integer literal (or host integer) beyond ±2^53.
        IntegerOutOfRange = "INTEGER_OUT_OF_RANGE",
        /// Nesting deeper than 64 levels (PROTOCOL §2.5).
        InputTooDeep = "INPUT_TOO_DEEP" @ "§2.5",
        /// The canonical form exceeds the size limit in force (256 KB for a capability input, §2.5).
        BodyTooLarge = "BODY_TOO_LARGE" @ "§2.5",
        /// A host value that has no JSON form (set, bytes, date, function, undefined, symbol, Map, ...).
        UnsupportedType = "UNSUPPORTED_TYPE",
        /// A host mapping key that is not a string.
        NonStringKey = "NON_STRING_KEY",
        /// A host structure that contains itself.
        CyclicValue = "CYCLIC_VALUE",
    }
    "digests, commitments, fingerprints (SPEC §2–§4)" {
        /// A salt that is not exactly 64 lowercase hex characters (32 bytes).
        InvalidSalt = "INVALID_SALT",
        /// A value does not have the shape the operation needs (e.g. terms not an object, tools/list
        /// without a `tools` array, a tool result that is not an object).
        InvalidShape = "INVALID_SHAPE",
        /// A hex string argument that is not lowercase hex of the right length.
        InvalidHex = "INVALID_HEX",
    }
    "endpoint proofs and MAC receipts (SPEC §5–§6)" {
        /// A receipt that is not a JSON object with the members its profile needs as strings.
        InvalidReceipt = "INVALID_RECEIPT",
        /// A timestamp that is not RFC 3339 UTC (`YYYY-MM-DDTHH:MM:SS[.fff]Z`).
        InvalidTimestamp = "INVALID_TIMESTAMP",
        /// A key ring entry or another caller-supplied argument that is not usable.
        InvalidArgument = "INVALID_ARGUMENT",
        /// A v1 proof or authority offered where the no-downgrade state requires v2 (§3.1).
        ProofDowngrade = "PROOF_DOWNGRADE",
        /// An endpoint proof or enrollment authority that is missing or does not verify (an agent
        /// answers `ENROLLMENT_AUTH_REQUIRED` for it, §4; the network fails the challenge, §15.2).
        ProofInvalid = "PROOF_INVALID",
        /// An `ekl_enroll` whose `authority_version` is neither absent, 1 nor 2: no authority the
        /// protocol defines, so the agent refuses (§4 "otherwise it refuses with
        /// ENROLLMENT_AUTH_REQUIRED", the protocol's own code).
        EnrollmentAuthRequired = "ENROLLMENT_AUTH_REQUIRED" @ "§4",
    }
    "JWS / JWKS (SPEC §7)" {
        /// A compact JWS that is not three base64url segments with a JSON object header and payload.
        JwsMalformed = "JWS_MALFORMED",
        /// base64url that is not strict: padding, `+` or `/`, other characters, or stray trailing bits.
        InvalidBase64url = "INVALID_BASE64URL",
        /// A header `alg` other than `ES256` (`none` and HMAC algorithms included).
        AlgNotAllowed = "ALG_NOT_ALLOWED",
        /// A header `typ` missing or not exactly the type the caller expects.
        TypMismatch = "TYP_MISMATCH",
        /// A header without `kid`.
        KidMissing = "KID_MISSING",
        /// A `kid` that the key set does not hold (fetch the key set again).
        UnknownKid = "UNKNOWN_KID",
        /// A `kid` whose key in the set this library cannot use (another `kty`, curve, `alg` or
        /// `use`): the set was read, that key skipped (docs/decisions.md#jwks-wild).
        UnsupportedKey = "UNSUPPORTED_KEY",
        /// A remote key set that could not be fetched (network error, timeout, HTTP status, too large,
        /// not a usable JWKS) with no earlier good copy to serve: raised by the hosts' remote-JWKS
        /// helpers, never by the core (docs/decisions.md#remote-jwks).
        JwksUnavailable = "JWKS_UNAVAILABLE",
        /// A header with `crit` (no extension is understood).
        CritNotSupported = "CRIT_NOT_SUPPORTED",
        /// An ES256 signature that does not verify (wrong length, r or s out of range, wrong key).
        SignatureInvalid = "SIGNATURE_INVALID",
        /// A JWKS or JWK that is not a valid P-256 public key set (kty, crv, coordinates, curve, `d`).
        InvalidJwks = "INVALID_JWKS",
        /// A private signing key or seed that is not usable.
        InvalidKey = "INVALID_KEY",
        /// A required claim is absent.
        ClaimMissing = "CLAIM_MISSING",
        /// A claim of the wrong type or range (a time that is not an integer, a huge time, ...).
        ClaimInvalid = "CLAIM_INVALID",
        /// `iss` is not the expected issuer.
        IssuerMismatch = "ISSUER_MISMATCH",
        /// `aud` is not exactly the expected audience.
        AudienceMismatch = "AUDIENCE_MISMATCH",
        /// The token expired (beyond the allowed skew).
        TokenExpired = "TOKEN_EXPIRED",
        /// The token is not valid yet (`nbf` or `iat` in the future beyond the allowed skew).
        TokenNotYetValid = "TOKEN_NOT_YET_VALID",
        /// The token's lifetime (`exp - iat`) exceeds what its type allows.
        LifetimeTooLong = "LIFETIME_TOO_LONG",
        /// A platform call credential whose `purpose` is not the expected one (§3, §4.1).
        PurposeMismatch = "PURPOSE_MISMATCH",
    }
    "single use (PROTOCOL §9.2, §3): the replay guard (the core's rules, the hosts' stores)" {
        /// A relationship assertion whose `jti` was already consumed at this token endpoint, or one
        /// issued before a restore from backup within the 240 s after it (§9.2, the protocol's code):
        /// the replay guard's (`replay_answer`, docs/decisions.md#replay-guard).
        AssertionReplay = "ASSERTION_REPLAY" @ "§9.2",
        /// Another single-use credential (the platform call credential, §3, §4) whose `jti` was
        /// already consumed, or one issued before a restore from backup within the window after it:
        /// the replay guard's (`replay_answer`).
        CredentialReplay = "CREDENTIAL_REPLAY",
        /// The in-memory replay store holds its maximum of unexpired entries: the credential is
        /// refused, not consumed (fail closed; an unexpired `jti` is never forgotten).
        ReplayStoreFull = "REPLAY_STORE_FULL",
        /// The replay store could not answer (SQLite or Redis error, timeout, closed connection): the
        /// credential is refused, since whether it was consumed cannot be known (fail closed).
        ReplayStoreUnavailable = "REPLAY_STORE_UNAVAILABLE",
    }
    "MCP wire sessions (PROTOCOL §5.1, §15.3): what crossed the wire to an MCP client" {
        /// A message of an MCP server that an official MCP SDK would refuse (not one JSON-RPC 2.0
        /// object: a batch array, `jsonrpc` other than `"2.0"`, members JSON-RPC does not define),
        /// seen while waiting for an answer: refused, never read past (docs/decisions/mcp.md).
        McpInvalidMessage = "MCP_INVALID_MESSAGE",
        /// Two answers to the request awaited, an answer whose id is not a number or not the id of
        /// the request whose event stream carries it (the SDKs judge such an id differently), or a
        /// recorded answer that is not the one the SDK delivered: which answer the client was
        /// handed cannot be known.
        McpAmbiguousAnswer = "MCP_AMBIGUOUS_ANSWER",
        /// No answer to the request awaited was seen (the client sent none, or its answer was not
        /// recorded): nothing to fingerprint.
        McpNoAnswer = "MCP_NO_ANSWER",
        /// A `tools/list` cursor that repeats an earlier one or is not a string, or a listing of
        /// more pages or tools than the limits: the listing would not end.
        McpBadCursor = "MCP_BAD_CURSOR",
        /// An MCP server's HTTP response in a form the client does not read as the official SDKs
        /// do: a `Content-Encoding` other than `identity` the client does not decode, a `charset`
        /// other than UTF-8, or an event stream opening with a byte-order mark (the SDKs differ).
        McpUnsupportedEncoding = "MCP_UNSUPPORTED_ENCODING",
        /// An MCP call (the handshake, a page of `tools/list`, a `tools/call`) did not finish
        /// within the module's `timeout`: the SDK's call was cancelled, the session refuses the next.
        McpTimeout = "MCP_TIMEOUT",
    }
    "bindings" {
        /// A bug: a binding caught a panic of the core instead of letting it cross into the host
        /// language (never expected from any input; please report it).
        Internal = "INTERNAL_ERROR",
    }
}

/// A refusal: a stable [`ErrorCode`] and a short human message that never echoes secrets or payloads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    code: ErrorCode,
    message: String,
}

impl Error {
    /// A new error with a code and a message.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Error {
        Error {
            code,
            message: message.into(),
        }
    }

    /// The stable code.
    pub fn code(&self) -> ErrorCode {
        self.code
    }

    /// The human message (no secrets, no payload bytes).
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

impl std::error::Error for Error {}

/// The result type of the core.
pub type Result<T> = core::result::Result<T, Error>;

#[cfg(test)]
mod tests {
    use super::ErrorCode;
    use std::collections::HashSet;

    #[test]
    fn error_codes_are_unique_screaming_snake_and_round_trip() {
        let mut seen = HashSet::new();
        assert!(ErrorCode::ALL.len() >= 40);
        for &code in ErrorCode::ALL {
            let text = code.as_str();
            assert!(seen.insert(text), "{text} twice");
            assert!(
                !text.is_empty()
                    && text
                        .bytes()
                        .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_'),
                "{text} is not SCREAMING_SNAKE"
            );
            assert_eq!(ErrorCode::from_str_code(text), Some(code));
        }
        assert_eq!(ErrorCode::from_str_code("invalid_json"), None);
    }

    #[test]
    fn error_meanings_are_one_trimmed_line_each() {
        for &code in ErrorCode::ALL {
            let meaning = code.meaning();
            assert!(meaning.len() > 10, "{code}: no meaning");
            assert_eq!(meaning, meaning.trim(), "{code}");
            assert!(
                !meaning.contains('\n') && !meaning.contains("  "),
                "{code}: {meaning:?}"
            );
            assert!(!code.group().is_empty());
        }
        assert_eq!(
            ErrorCode::InputTooDeep.meaning(),
            "Nesting deeper than 64 levels (PROTOCOL §2.5)."
        );
        assert!(ErrorCode::InvalidShape
            .meaning()
            .contains("tools/list without a `tools` array"));
    }

    #[test]
    fn error_protocol_sections_are_the_codes_the_protocol_names() {
        let named: Vec<(&str, &str)> = ErrorCode::ALL
            .iter()
            .filter_map(|c| c.protocol_section().map(|s| (c.as_str(), s)))
            .collect();
        assert_eq!(
            named,
            [
                ("INPUT_TOO_DEEP", "§2.5"),
                ("BODY_TOO_LARGE", "§2.5"),
                ("ENROLLMENT_AUTH_REQUIRED", "§4"),
                ("ASSERTION_REPLAY", "§9.2"),
            ]
        );
        assert_eq!(ErrorCode::InvalidJson.protocol_section(), None);
    }
}
