//! The size bounds every surface applies before work starts (PROTOCOL §2.5 sets the 256 KB
//! capability-input limit and the nesting depth of 64; the bounds here are the library's own).
//!
//! A refusal past any of them is `BODY_TOO_LARGE`, raised before the input is copied or expanded,
//! so memory stays bounded whatever the input's shape. docs/decisions.md#limits lists every bound
//! of every surface and why.

use crate::error::{Error, ErrorCode, Result};

/// The largest JSON text (or token, or file) any operation reads: 64 MiB = 67,108,864 bytes.
///
/// The text path needs the text, its canonical form (about as long; numbers such as `1e20` are
/// written longer), the unescaped keys that keep an escape, and 36 bytes per member of the objects
/// open at once (none per array element): about twice the input for a document, and at most about
/// eight times for one object of members of 6 bytes (`"a":0,`). Measured at 64 MiB: 135 MB peak
/// for `[0,0,…]`, 419 MB for 6.2 million distinct members, 528 MB for 11 million `"a":0`.
pub const MAX_INPUT_BYTES: usize = 64 * 1024 * 1024;

/// The largest host value (a Python, JS or other in-memory value graph) a binding converts,
/// measured as a lower bound of its canonical text: 8 MiB = 8,388,608 bytes.
///
/// A converted value costs tens of bytes per node where its text costs two or more (a value and
/// its comma), so the bound on values is an eighth of the bound on text: at most about 4 million
/// nodes. A graph with shared references is measured as the text it expands to, so an
/// exponential DAG is refused after at most this much work.
pub const MAX_VALUE_BYTES: usize = 8 * 1024 * 1024;

/// Refuses an input of `len` bytes beyond `limit` with `BODY_TOO_LARGE`; `what` names it.
pub fn check_len(len: usize, limit: usize, what: &str) -> Result<()> {
    if len > limit {
        return Err(too_large(limit, what));
    }
    Ok(())
}

/// The `BODY_TOO_LARGE` refusal of an input beyond `limit` bytes; `what` names the input.
pub fn too_large(limit: usize, what: &str) -> Error {
    Error::new(
        ErrorCode::BodyTooLarge,
        format!("{what} is larger than the limit of {limit} bytes"),
    )
}

/// A `now` of this many seconds or more is milliseconds given as seconds (10^11 s is the year
/// 5138): refused, as on every surface (the replay guard's bound too: `replay::MILLISECONDS_FROM`).
pub const MILLISECONDS_FROM: i64 = 100_000_000_000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds() {
        assert!(check_len(MAX_INPUT_BYTES, MAX_INPUT_BYTES, "text").is_ok());
        let e = check_len(MAX_INPUT_BYTES + 1, MAX_INPUT_BYTES, "text").unwrap_err();
        assert_eq!(e.code(), ErrorCode::BodyTooLarge);
        assert!(e.message().contains("67108864"));
        const { assert!(MAX_VALUE_BYTES < MAX_INPUT_BYTES) };
    }

    #[test]
    fn text_beyond_the_bound_is_refused_before_it_is_read() {
        use crate::canonical;
        // A string of MAX_INPUT_BYTES bytes with its quotes: accepted; one byte more: refused,
        // although the extra byte is invalid UTF-8 (the size is checked first).
        let mut text = vec![b'a'; MAX_INPUT_BYTES];
        text[0] = b'"';
        text[MAX_INPUT_BYTES - 1] = b'"';
        assert_eq!(
            canonical::canonicalize(&text).map(|o| o.len()),
            Ok(MAX_INPUT_BYTES)
        );
        text.push(0xff);
        let code = |r: Result<()>| r.unwrap_err().code();
        assert_eq!(
            code(canonical::canonicalize(&text).map(|_| ())),
            ErrorCode::BodyTooLarge
        );
        assert_eq!(
            code(canonical::parse(&text).map(|_| ())),
            ErrorCode::BodyTooLarge
        );
    }
}
