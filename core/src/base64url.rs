//! Strict base64url without padding (RFC 7515 §2, RFC 4648 §5), as every JWS segment and JWK
//! coordinate of EKP is written (SPEC §7, PROTOCOL §3).
//!
//! The decoder accepts exactly one spelling of every byte string, so that a token has exactly one
//! form: only `A–Z a–z 0–9 - _`; no `=` padding, no `+` or `/`, no whitespace; a length whose
//! remainder modulo 4 is not 1; and the unused low bits of the last character must be zero (no
//! "stray trailing bits"). Anything else is refused with `INVALID_BASE64URL`.

use crate::error::{Error, ErrorCode, Result};

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// base64url of `bytes`, without padding.
pub fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b0 = chunk[0];
        let b1 = chunk.get(1).copied().unwrap_or(0);
        let b2 = chunk.get(2).copied().unwrap_or(0);
        let n = (u32::from(b0) << 16) | (u32::from(b1) << 8) | u32::from(b2);
        let chars = chunk.len() + 1;
        for i in 0..chars {
            let index = (n >> (18 - 6 * i)) & 63;
            out.push(ALPHABET[index as usize] as char);
        }
    }
    out
}

fn sextet(c: u8) -> Option<u8> {
    match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'-' => Some(62),
        b'_' => Some(63),
        _ => None,
    }
}

fn invalid(message: &'static str) -> Error {
    Error::new(ErrorCode::InvalidBase64url, message)
}

/// Decodes strict unpadded base64url; anything but the one canonical spelling is refused with
/// `INVALID_BASE64URL`.
///
/// ```
/// use ekl_core::base64url;
/// assert_eq!(base64url::decode("_-8").unwrap(), vec![0xff, 0xef]);
/// assert!(base64url::decode("_-8=").is_err()); // padding
/// assert!(base64url::decode("_-9").is_err()); // stray trailing bits
/// assert!(base64url::decode("/+8").is_err()); // standard alphabet
/// ```
pub fn decode(text: &str) -> Result<Vec<u8>> {
    decode_bytes(text.as_bytes())
}

/// [`decode`] of ASCII bytes.
pub fn decode_bytes(text: &[u8]) -> Result<Vec<u8>> {
    if text.len() % 4 == 1 {
        return Err(invalid("base64url length leaves a lone character"));
    }
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 2);
    let mut chunks = text.chunks_exact(4);
    for chunk in &mut chunks {
        let mut n = 0u32;
        for &c in chunk {
            n = (n << 6) | u32::from(sextet(c).ok_or_else(bad_char)?);
        }
        out.extend_from_slice(&[(n >> 16) as u8, (n >> 8) as u8, n as u8]);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut n = 0u32;
        for &c in rest {
            n = (n << 6) | u32::from(sextet(c).ok_or_else(bad_char)?);
        }
        // 2 characters carry 12 bits = 1 byte + 4 unused bits; 3 carry 18 = 2 bytes + 2 unused.
        let (bytes, unused) = if rest.len() == 2 { (1, 4) } else { (2, 2) };
        if n & ((1 << unused) - 1) != 0 {
            return Err(invalid("base64url has non-zero trailing bits"));
        }
        let n = n >> unused;
        if bytes == 1 {
            out.push(n as u8);
        } else {
            out.extend_from_slice(&[(n >> 8) as u8, n as u8]);
        }
    }
    Ok(out)
}

fn bad_char() -> Error {
    invalid("base64url holds a character outside A-Z a-z 0-9 - _ (padding, '+', '/', whitespace)")
}

/// Decodes exactly `N` bytes of strict base64url; a wrong length is refused with `code`
/// (the decoding errors keep `INVALID_BASE64URL` unless `code` is given for those too).
///
/// The intermediate buffer is wiped before returning (the bytes may be a private key, `d`).
pub fn decode_fixed<const N: usize>(text: &str, code: ErrorCode, what: &str) -> Result<[u8; N]> {
    let mut bytes =
        decode(text).map_err(|e| Error::new(code, format!("{what}: {}", e.message())))?;
    let fixed = <[u8; N]>::try_from(bytes.as_slice()).map_err(|_| {
        Error::new(
            code,
            format!("{what} must be {N} bytes, got {}", bytes.len()),
        )
    });
    zeroize::Zeroize::zeroize(&mut bytes);
    fixed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_all_lengths() {
        let data: Vec<u8> = (0u8..=255).collect();
        for n in 0..70 {
            let enc = encode(&data[..n]);
            assert!(!enc.contains('='));
            assert_eq!(decode(&enc).unwrap(), &data[..n]);
        }
    }

    #[test]
    fn rfc4648_vectors() {
        for (raw, enc) in [
            ("", ""),
            ("f", "Zg"),
            ("fo", "Zm8"),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg"),
            ("fooba", "Zm9vYmE"),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(encode(raw.as_bytes()), enc);
            assert_eq!(decode(enc).unwrap(), raw.as_bytes());
        }
        assert_eq!(encode(&[0xfb, 0xff]), "-_8");
    }

    #[test]
    fn refusals() {
        for bad in [
            "Zg==", "Zg=", "Zm8=", "Z", "Zm9vY", "Zh", "Zm9", "+/8", "Zm 9v", "Zm9v\n", " Zm9v",
            "Zm9v.", "Zm\u{e9}",
        ] {
            let e = decode(bad).unwrap_err();
            assert_eq!(e.code(), ErrorCode::InvalidBase64url, "{bad:?}");
        }
    }

    #[test]
    fn trailing_bits_every_char() {
        // "Zg" is the only spelling of [0x66]; "Zh".."Zv" decode to the same byte in lenient decoders.
        let mut accepted = 0;
        for c in ALPHABET {
            let s = format!("Z{}", *c as char);
            if decode(&s).is_ok() {
                accepted += 1;
            }
        }
        assert_eq!(accepted, 4); // only A, Q, g, w: the sextets whose low 4 bits are zero
    }

    #[test]
    fn fixed() {
        let enc = encode(&[7u8; 32]);
        assert_eq!(
            decode_fixed::<32>(&enc, ErrorCode::InvalidJwks, "x").unwrap(),
            [7u8; 32]
        );
        let e = decode_fixed::<31>(&enc, ErrorCode::InvalidJwks, "x").unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidJwks);
    }
}
