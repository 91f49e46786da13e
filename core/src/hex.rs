//! Lowercase hexadecimal, as every digest, tag and proof of EKP is written.

use crate::error::{Error, ErrorCode, Result};

const DIGITS: &[u8; 16] = b"0123456789abcdef";

/// Lowercase hex of `bytes`.
pub fn encode(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        s.push(DIGITS[(b >> 4) as usize] as char);
        s.push(DIGITS[(b & 15) as usize] as char);
    }
    s
}

/// Decodes exactly `N` bytes from `2N` lowercase hex characters; anything else (upper case, wrong
/// length, other characters) is refused with `code`. `what` names the argument in the message.
pub fn decode_fixed<const N: usize>(text: &str, code: ErrorCode, what: &str) -> Result<[u8; N]> {
    let b = text.as_bytes();
    if b.len() != 2 * N {
        return Err(Error::new(
            code,
            format!(
                "{what} must be {} lowercase hex characters, got {}",
                2 * N,
                b.len()
            ),
        ));
    }
    let mut out = [0u8; N];
    for (i, pair) in b.chunks_exact(2).enumerate() {
        let (Some(hi), Some(lo)) = (nibble(pair[0]), nibble(pair[1])) else {
            return Err(Error::new(code, format!("{what} must be lowercase hex")));
        };
        out[i] = (hi << 4) | lo;
    }
    Ok(out)
}

fn nibble(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        _ => None,
    }
}
