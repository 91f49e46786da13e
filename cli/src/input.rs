//! Where the `ekl` tool reads its inputs from: files, stdin, the environment, with a cap on each.
//!
//! Rules (docs/decisions.md#cli):
//! - a positional `FILE` is always a file (`-` or none: stdin); a token on the command line is only
//!   ever taken from `--token`, never guessed from the shape of an argument;
//! - at most [`MAX_DOCUMENT_BYTES`] are read from a JSON document or a token and at most
//!   [`MAX_SECRET_BYTES`] from a secret source; the read stops at the cap plus one byte (so
//!   `/dev/zero` is refused at once) and the input is refused with `BODY_TOO_LARGE`;
//! - a file that cannot be opened or read (missing, unreadable, a directory) is refused with
//!   `INVALID_ARGUMENT`, naming the option and the operating system's reason (`No such file or
//!   directory`), never the path;
//! - only one input may come from stdin;
//! - no message repeats a path, a token, a secret or an environment variable's name.

use std::cell::Cell;
use std::ffi::OsStr;
use std::io::Read;
use std::path::Path;

use ekl_core::{Error, ErrorCode};

use crate::Failure;

/// The most bytes read from one JSON document or token (a file or stdin): the core's bound on
/// any JSON text, 64 MiB (`ekl_core::limits::MAX_INPUT_BYTES`).
pub(crate) const MAX_DOCUMENT_BYTES: u64 = ekl_core::limits::MAX_INPUT_BYTES as u64;

/// The most bytes read from one secret source (a secret, seed, agent key, proof key or key ring
/// given by file, environment variable or stdin): 64 KiB.
pub(crate) const MAX_SECRET_BYTES: u64 = 64 << 10;

/// Reads at most `limit` bytes from `r`; more is refused with `BODY_TOO_LARGE` after reading
/// `limit + 1` bytes, so an endless source stops at once.
pub(crate) fn read_capped(r: impl Read, limit: u64, what: &str) -> Result<Vec<u8>, Failure> {
    let mut buf = Vec::new();
    r.take(limit.saturating_add(1))
        .read_to_end(&mut buf)
        .map_err(|e| unreadable_because(what, &e))?;
    if buf.len() as u64 > limit {
        return Err(Failure::Refused(Error::new(
            ErrorCode::BodyTooLarge,
            format!("{what} holds more than {limit} bytes (the limit of this input)"),
        )));
    }
    Ok(buf)
}

/// The refusal of a source that cannot be read, with the operating system's reason
/// ([`os_reason`]): `cannot read the input file: No such file or directory`.
pub(crate) fn unreadable_because(what: &str, e: &std::io::Error) -> Failure {
    Failure::Refused(Error::new(
        ErrorCode::InvalidArgument,
        format!("cannot read {what}: {}", os_reason(e)),
    ))
}

/// The operating system's words for `e` (`No such file or directory`, `Permission denied`, `Is a
/// directory`), without the error number; the kind's words for an error that is not the OS's.
/// An `std::io::Error` from opening or reading never holds the path, and these words are the
/// OS's table, never the caller's text.
pub(crate) fn os_reason(e: &std::io::Error) -> String {
    match e.raw_os_error() {
        Some(n) => {
            let text = std::io::Error::from_raw_os_error(n).to_string();
            match text.rfind(" (os error ") {
                Some(at) => text[..at].to_owned(),
                None => text,
            }
        }
        None => e.kind().to_string(),
    }
}

/// Reads a file (at most `limit` bytes), one refusal for every reason it cannot be read.
pub(crate) fn read_file_capped(path: &Path, limit: u64, what: &str) -> Result<Vec<u8>, Failure> {
    let file = std::fs::File::open(path).map_err(|e| unreadable_because(what, &e))?;
    read_capped(file, limit, what)
}

/// Whether `arg` has the shape of a compact JWS (three base64url segments): used only to add a
/// hint to the refusal of a file that cannot be read, never to decide what the argument is.
pub(crate) fn looks_like_token(arg: &OsStr) -> bool {
    let Some(s) = arg.to_str() else {
        return false;
    };
    s.len() > 16
        && s.bytes().filter(|&b| b == b'.').count() == 2
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.')
}

/// The reading context of one run: which input took stdin.
#[derive(Default)]
pub(crate) struct Inputs {
    stdin_taken_by: Cell<Option<&'static str>>,
}

impl Inputs {
    /// Reads stdin for `what`, refusing a second reader of stdin (a usage error).
    pub(crate) fn stdin(&self, what: &'static str, limit: u64) -> Result<Vec<u8>, Failure> {
        if let Some(first) = self.stdin_taken_by.replace(Some(what)) {
            return Err(Failure::Usage(format!(
                "{what} and {first} cannot both come from stdin"
            )));
        }
        read_capped(std::io::stdin().lock(), limit, what)
    }

    /// Reads `path`, or stdin for `-`.
    pub(crate) fn path(
        &self,
        path: &Path,
        what: &'static str,
        limit: u64,
    ) -> Result<Vec<u8>, Failure> {
        if path.as_os_str() == "-" {
            return self.stdin(what, limit);
        }
        read_file_capped(path, limit, what).map_err(|f| match f {
            Failure::Refused(e) if e.code() == ErrorCode::InvalidArgument => {
                if looks_like_token(path.as_os_str()) {
                    Failure::Refused(Error::new(
                        ErrorCode::InvalidArgument,
                        format!(
                            "cannot read {what} (FILE is always a file: give a token itself with --token)"
                        ),
                    ))
                } else {
                    Failure::Refused(e)
                }
            }
            other => other,
        })
    }

    /// The positional input: the file, or stdin for `-` or none.
    pub(crate) fn document(&self, file: Option<&Path>) -> Result<Vec<u8>, Failure> {
        match file {
            None => self.stdin("the input", MAX_DOCUMENT_BYTES),
            Some(p) if p.as_os_str() == "-" => self.stdin("the input", MAX_DOCUMENT_BYTES),
            Some(p) => self.path(p, "the input file", MAX_DOCUMENT_BYTES),
        }
    }

    /// A JSON side file given by an option (`--jwks FILE`, `--call FILE`, ...; `-`: stdin).
    pub(crate) fn option_file(
        &self,
        path: &Path,
        option: &'static str,
    ) -> Result<Vec<u8>, Failure> {
        self.path(path, option, MAX_DOCUMENT_BYTES)
    }

    /// A secret from the first source given (value, file, environment variable, stdin), or `None`
    /// when none is. One trailing line ending of a file or stdin is dropped. `name` is the option's
    /// name without dashes (`secret`, `seed`, ...), used in messages.
    pub(crate) fn secret(
        &self,
        src: SecretSource<'_>,
        name: &'static str,
    ) -> Result<Option<String>, Failure> {
        let bytes = match src {
            SecretSource::None => return Ok(None),
            // typed on the command line: as given (an empty value is the operation's to judge,
            // as `ekl call` gives it)
            SecretSource::Value(v) => return Ok(Some(v.to_owned())),
            SecretSource::Env(var) => {
                let value = std::env::var_os(var).ok_or_else(|| {
                    Failure::Refused(Error::new(
                        ErrorCode::InvalidArgument,
                        format!("the environment variable named by --{name}-env is not set"),
                    ))
                })?;
                let bytes = value.into_encoded_bytes();
                if bytes.len() as u64 > MAX_SECRET_BYTES {
                    return Err(Failure::Refused(Error::new(
                        ErrorCode::BodyTooLarge,
                        format!(
                            "the --{name}-env variable holds more than {MAX_SECRET_BYTES} bytes"
                        ),
                    )));
                }
                return utf8_secret(bytes, name)
                    .and_then(|s| not_empty(s, name))
                    .map(Some);
            }
            SecretSource::File(p) => self.path(p, secret_file_what(name), MAX_SECRET_BYTES)?,
            SecretSource::Stdin => self.stdin(secret_stdin_what(name), MAX_SECRET_BYTES)?,
        };
        let mut bytes = bytes;
        if bytes.last() == Some(&b'\n') {
            bytes.pop();
            if bytes.last() == Some(&b'\r') {
                bytes.pop();
            }
        }
        utf8_secret(bytes, name)
            .and_then(|s| not_empty(s, name))
            .map(Some)
    }
}

/// A secret, key or seed read from a file, a variable or stdin that is not empty: an empty one is
/// what a failed upstream of `--secret-stdin` or an empty variable gives, and a receipt MAC'd
/// under it would look valid.
fn not_empty(secret: String, name: &str) -> Result<String, Failure> {
    if secret.is_empty() {
        return Err(Failure::Refused(Error::new(
            ErrorCode::InvalidArgument,
            format!("the {name} is empty"),
        )));
    }
    Ok(secret)
}

fn utf8_secret(bytes: Vec<u8>, name: &str) -> Result<String, Failure> {
    String::from_utf8(bytes).map_err(|_| {
        Failure::Refused(Error::new(
            ErrorCode::InvalidUtf8,
            format!("the {name} is not UTF-8"),
        ))
    })
}

/// The label of a secret file in messages (a `'static` string per secret kind).
fn secret_file_what(name: &str) -> &'static str {
    match name {
        "secret" => "the secret file",
        "seed" => "the seed file",
        "agent-key" => "the agent key file",
        "proof-key" => "the proof key file",
        "key-ring" => "the key ring file",
        _ => "the secret file",
    }
}

/// The label of a secret read from stdin.
fn secret_stdin_what(name: &str) -> &'static str {
    match name {
        "seed" => "the seed",
        "agent-key" => "the agent key",
        "proof-key" => "the proof key",
        "key-ring" => "the key ring",
        _ => "the secret",
    }
}

/// Where a secret comes from.
#[derive(Clone, Copy)]
pub(crate) enum SecretSource<'a> {
    /// Not given.
    None,
    /// On the command line (visible to other local users in `ps`).
    Value(&'a str),
    /// A file (`-`: stdin).
    File(&'a Path),
    /// An environment variable, by name.
    Env(&'a OsStr),
    /// Stdin.
    Stdin,
}
