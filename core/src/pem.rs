//! P-256 private keys from PEM files: PKCS#8 (`BEGIN PRIVATE KEY`, RFC 5208 / RFC 5958) and SEC1
//! (`BEGIN EC PRIVATE KEY`, RFC 5915), as key-management tools and cloud KMS exports write them
//! (docs/decisions.md#keys).
//!
//! A small strict DER reader, for exactly these two structures: definite lengths in their
//! shortest form, the id-ecPublicKey algorithm with the prime256v1 curve, a 32-byte private key in
//! [1, n − 1]; a public key, when the file carries one, must be the key's own point. Anything else
//! (encrypted keys, other curves, RSA, public keys, trailing bytes, several PEM blocks) is
//! `INVALID_KEY`. Messages never quote the file.

use zeroize::Zeroizing;

use crate::error::{Error, ErrorCode, Result};

/// id-ecPublicKey, 1.2.840.10045.2.1.
const OID_EC_PUBLIC_KEY: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01];
/// prime256v1 (secp256r1), 1.2.840.10045.3.1.7.
const OID_P256: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07];
/// The largest PEM text read (a P-256 key file is a few hundred bytes).
const MAX_PEM_BYTES: usize = 16 * 1024;

fn invalid(message: &str) -> Error {
    Error::new(ErrorCode::InvalidKey, message)
}

/// What a PEM file held: the 32-byte secret scalar and, when present, the uncompressed public
/// point (65 bytes, `04 ‖ x ‖ y`).
pub struct PemKey {
    /// The secret scalar, big-endian; wiped when dropped.
    pub d: Zeroizing<[u8; 32]>,
    /// The public point the file carries, if any.
    pub public: Option<[u8; 65]>,
}

/// Reads one P-256 private key from PEM text (PKCS#8 or SEC1).
pub fn parse_private_key(pem: &str) -> Result<PemKey> {
    if pem.len() > MAX_PEM_BYTES {
        return Err(invalid("a PEM key file is at most 16 KiB"));
    }
    let (label, der) = decode_pem(pem)?;
    match label {
        "PRIVATE KEY" => pkcs8(&der),
        "EC PRIVATE KEY" => sec1(&der, true),
        "ENCRYPTED PRIVATE KEY" => Err(invalid(
            "encrypted private keys are not supported: decrypt the key first",
        )),
        _ => Err(invalid(
            "expected a PEM private key (BEGIN PRIVATE KEY or BEGIN EC PRIVATE KEY)",
        )),
    }
}

/// The label and the DER bytes of the one PEM block of `text`.
fn decode_pem(text: &str) -> Result<(&str, Zeroizing<Vec<u8>>)> {
    let begin = text
        .find("-----BEGIN ")
        .ok_or_else(|| invalid("no PEM block (-----BEGIN ...-----)"))?;
    let after = &text[begin + "-----BEGIN ".len()..];
    let label_end = after
        .find("-----")
        .ok_or_else(|| invalid("a PEM header is malformed"))?;
    let label = &after[..label_end];
    let body_and_rest = &after[label_end + 5..];
    let end_marker = format!("-----END {label}-----");
    let end = body_and_rest
        .find(&end_marker)
        .ok_or_else(|| invalid("a PEM block has no matching END line"))?;
    let rest = &body_and_rest[end + end_marker.len()..];
    if text[..begin].contains("-----BEGIN") || rest.contains("-----BEGIN") {
        return Err(invalid("expected exactly one PEM block"));
    }
    let body = &body_and_rest[..end];
    if body.contains(':') {
        return Err(invalid(
            "PEM headers (such as Proc-Type) mean an encrypted key: not supported",
        ));
    }
    Ok((label, Zeroizing::new(base64_standard(body)?)))
}

/// Standard base64 (RFC 4648 §4) with padding, whitespace between characters ignored.
fn base64_standard(body: &str) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(body.len() * 3 / 4);
    let mut acc: u32 = 0;
    let mut bits = 0u32;
    let mut pad = 0usize;
    let mut count = 0usize;
    for c in body.bytes() {
        if c.is_ascii_whitespace() {
            continue;
        }
        count += 1;
        if c == b'=' {
            pad += 1;
            continue;
        }
        if pad > 0 {
            return Err(invalid("PEM base64 has data after its padding"));
        }
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return Err(invalid("PEM body is not base64")),
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    if !count.is_multiple_of(4) || pad > 2 || acc != 0 {
        return Err(invalid("PEM base64 is not padded to whole groups"));
    }
    Ok(out)
}

/// A DER reader over one buffer.
struct Der<'a> {
    bytes: &'a [u8],
}

impl<'a> Der<'a> {
    fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    fn peek_tag(&self) -> Option<u8> {
        self.bytes.first().copied()
    }

    /// The next element of tag `tag`: its contents.
    fn take(&mut self, tag: u8) -> Result<&'a [u8]> {
        let bad = || invalid("the key's DER structure is not a P-256 private key");
        let (&t, rest) = self.bytes.split_first().ok_or_else(bad)?;
        if t != tag {
            return Err(bad());
        }
        let (&first, rest) = rest.split_first().ok_or_else(bad)?;
        let (len, rest) = match first {
            0..=0x7f => (usize::from(first), rest),
            0x81 => {
                let (&b, rest) = rest.split_first().ok_or_else(bad)?;
                if b < 0x80 {
                    return Err(bad());
                }
                (usize::from(b), rest)
            }
            0x82 => {
                if rest.len() < 2 || rest[0] == 0 {
                    return Err(bad());
                }
                let n = usize::from(rest[0]) << 8 | usize::from(rest[1]);
                if n < 0x100 {
                    return Err(bad());
                }
                (n, &rest[2..])
            }
            _ => return Err(bad()),
        };
        if rest.len() < len {
            return Err(bad());
        }
        let (contents, after) = rest.split_at(len);
        self.bytes = after;
        Ok(contents)
    }
}

fn expect_end(d: &Der<'_>) -> Result<()> {
    if d.is_empty() {
        Ok(())
    } else {
        Err(invalid("the key's DER structure has trailing bytes"))
    }
}

/// PKCS#8 PrivateKeyInfo / OneAsymmetricKey holding an ECPrivateKey for prime256v1.
fn pkcs8(der: &[u8]) -> Result<PemKey> {
    let mut outer = Der { bytes: der };
    let seq = outer.take(0x30)?;
    expect_end(&outer)?;
    let mut d = Der { bytes: seq };
    let version = d.take(0x02)?;
    if version != [0] && version != [1] {
        return Err(invalid("a PKCS#8 key of an unknown version"));
    }
    let mut alg = Der {
        bytes: d.take(0x30)?,
    };
    if alg.take(0x06)? != OID_EC_PUBLIC_KEY {
        return Err(invalid("not an elliptic-curve key (ES256 needs P-256)"));
    }
    if alg.take(0x06)? != OID_P256 {
        return Err(invalid("not a P-256 key (ES256 needs P-256)"));
    }
    expect_end(&alg)?;
    let key = sec1(d.take(0x04)?, false)?;
    // Optional attributes [0] and public key [1] (RFC 5958) follow; nothing else.
    if d.peek_tag() == Some(0xa0) {
        d.take(0xa0)?;
    }
    if d.peek_tag() == Some(0x81) || d.peek_tag() == Some(0xa1) {
        let tag = d.peek_tag().unwrap_or(0x81);
        d.take(tag)?;
    }
    expect_end(&d)?;
    Ok(key)
}

/// SEC1 ECPrivateKey (RFC 5915). `standalone`: the curve parameter is required (a SEC1 file names
/// its curve; inside PKCS#8 the algorithm does).
fn sec1(der: &[u8], standalone: bool) -> Result<PemKey> {
    let mut outer = Der { bytes: der };
    let seq = outer.take(0x30)?;
    expect_end(&outer)?;
    let mut d = Der { bytes: seq };
    if d.take(0x02)? != [1] {
        return Err(invalid("an EC private key of an unknown version"));
    }
    let scalar = d.take(0x04)?;
    let scalar: [u8; 32] = scalar
        .try_into()
        .map_err(|_| invalid("a P-256 private key has 32 bytes"))?;
    let scalar = Zeroizing::new(scalar);
    let mut named_curve = false;
    if d.peek_tag() == Some(0xa0) {
        let mut params = Der {
            bytes: d.take(0xa0)?,
        };
        if params.take(0x06)? != OID_P256 {
            return Err(invalid("not a P-256 key (ES256 needs P-256)"));
        }
        expect_end(&params)?;
        named_curve = true;
    }
    if standalone && !named_curve {
        return Err(invalid("an EC private key must name its curve (P-256)"));
    }
    let mut public = None;
    if d.peek_tag() == Some(0xa1) {
        let mut wrapper = Der {
            bytes: d.take(0xa1)?,
        };
        let bits = wrapper.take(0x03)?;
        expect_end(&wrapper)?;
        match bits {
            [0, rest @ ..] if rest.len() == 65 && rest[0] == 4 => {
                let mut point = [0u8; 65];
                point.copy_from_slice(rest);
                public = Some(point);
            }
            _ => {
                return Err(invalid(
                    "the key's public point must be uncompressed P-256 (65 bytes)",
                ))
            }
        }
    }
    expect_end(&d)?;
    Ok(PemKey { d: scalar, public })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_is_strict() {
        assert_eq!(base64_standard("TWFu").unwrap(), b"Man");
        assert_eq!(base64_standard("TWE=\n").unwrap(), b"Ma");
        assert!(base64_standard("TWE").is_err());
        assert!(base64_standard("TW=E").is_err());
        assert!(base64_standard("TWF=").is_err()); // non-zero bits after the data
        assert!(base64_standard("TW-_").is_err());
    }

    #[test]
    fn der_lengths_are_minimal() {
        assert!(Der {
            bytes: &[0x04, 0x81, 0x05, 1, 2, 3, 4, 5]
        }
        .take(0x04)
        .is_err());
        assert!(Der {
            bytes: &[0x04, 0x02, 1]
        }
        .take(0x04)
        .is_err());
        assert_eq!(
            Der {
                bytes: &[0x04, 0x01, 9]
            }
            .take(0x04)
            .unwrap(),
            &[9]
        );
    }
}
