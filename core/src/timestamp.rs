//! RFC 3339 UTC timestamps as EKP writes them (`issued_at`, key validity windows; PROTOCOL §9.5).
//!
//! Only one form is accepted: `YYYY-MM-DDTHH:MM:SS` with an optional fraction of 1 to 9 digits,
//! then `Z`. Upper-case `T` and `Z` only, no offsets (not even `+00:00`), no leap second (`:60`),
//! no spaces. Everything else is refused with `INVALID_TIMESTAMP`. The parsed instant is kept as
//! seconds since the Unix epoch plus nanoseconds, so comparisons are exact.

use crate::error::{Error, ErrorCode, Result};

/// An instant parsed from an RFC 3339 UTC timestamp.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp {
    secs: i64,
    nanos: u32,
}

impl Timestamp {
    /// Parses `YYYY-MM-DDTHH:MM:SS(.fraction)?Z` (fraction 1–9 digits); `INVALID_TIMESTAMP` otherwise.
    ///
    /// ```
    /// use ekl_core::timestamp::Timestamp;
    /// let t = Timestamp::parse("2026-11-29T19:02:13.5Z").unwrap();
    /// assert_eq!((t.unix_seconds(), t.nanos()), (1_795_978_933, 500_000_000));
    /// assert!(Timestamp::parse("2026-11-29T19:02:13+00:00").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Timestamp> {
        let b = text.as_bytes();
        if b.len() < 20 || b.len() > 30 {
            return Err(invalid("timestamp must look like YYYY-MM-DDTHH:MM:SSZ"));
        }
        let digits = |range: core::ops::Range<usize>| -> Result<u32> {
            let mut n = 0u32;
            for &c in &b[range] {
                if !c.is_ascii_digit() {
                    return Err(invalid("timestamp must look like YYYY-MM-DDTHH:MM:SSZ"));
                }
                n = n * 10 + u32::from(c - b'0');
            }
            Ok(n)
        };
        if b[4] != b'-' || b[7] != b'-' || b[10] != b'T' || b[13] != b':' || b[16] != b':' {
            return Err(invalid("timestamp must look like YYYY-MM-DDTHH:MM:SSZ"));
        }
        let year = digits(0..4)?;
        let month = digits(5..7)?;
        let day = digits(8..10)?;
        let hour = digits(11..13)?;
        let minute = digits(14..16)?;
        let second = digits(17..19)?;
        let mut nanos = 0u32;
        let rest = &b[19..];
        let zone = match rest {
            [b'Z'] => 0,
            [b'.', frac @ .., b'Z'] if !frac.is_empty() && frac.len() <= 9 => {
                for (i, &c) in frac.iter().enumerate() {
                    if !c.is_ascii_digit() {
                        return Err(invalid("timestamp fraction must be digits"));
                    }
                    nanos += u32::from(c - b'0') * 10u32.pow(8 - i as u32);
                }
                0
            }
            _ => 1,
        };
        if zone != 0 {
            return Err(invalid(
                "timestamp must end in Z, with an optional fraction of 1 to 9 digits",
            ));
        }
        if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
            return Err(invalid("timestamp date does not exist"));
        }
        if hour > 23 || minute > 59 || second > 59 {
            return Err(invalid("timestamp time of day out of range"));
        }
        let days = days_from_civil(i64::from(year), month, day);
        let secs =
            days * 86_400 + i64::from(hour) * 3_600 + i64::from(minute) * 60 + i64::from(second);
        Ok(Timestamp { secs, nanos })
    }

    /// An instant from Unix seconds and nanoseconds (`INVALID_TIMESTAMP` if nanos ≥ 10^9).
    pub fn from_unix(secs: i64, nanos: u32) -> Result<Timestamp> {
        if nanos >= 1_000_000_000 {
            return Err(invalid("nanoseconds must be below one second"));
        }
        Ok(Timestamp { secs, nanos })
    }

    /// Whole seconds since 1970-01-01T00:00:00Z.
    pub fn unix_seconds(&self) -> i64 {
        self.secs
    }

    /// The nanoseconds within the second.
    pub fn nanos(&self) -> u32 {
        self.nanos
    }

    /// The protocol's form of the instant: `YYYY-MM-DDTHH:MM:SSZ`, with the fraction (trailing
    /// zeros dropped) when the nanoseconds are not zero. Years outside 0000–9999 have no such
    /// form: `INVALID_TIMESTAMP`. [`Timestamp::parse`] reads back the same instant.
    ///
    /// ```
    /// use ekl_core::timestamp::Timestamp;
    /// assert_eq!(Timestamp::from_unix(1_795_978_933, 500_000_000).unwrap().format().unwrap(),
    ///            "2026-11-29T19:02:13.5Z");
    /// assert_eq!(Timestamp::from_unix(0, 0).unwrap().format().unwrap(), "1970-01-01T00:00:00Z");
    /// ```
    pub fn format(&self) -> Result<String> {
        let days = self.secs.div_euclid(86_400);
        let rem = self.secs.rem_euclid(86_400);
        let (year, month, day) = civil_from_days(days);
        if !(0..=9999).contains(&year) {
            return Err(invalid("the instant's year is outside 0000-9999"));
        }
        let mut out = format!(
            "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}",
            rem / 3_600,
            rem % 3_600 / 60,
            rem % 60
        );
        if self.nanos != 0 {
            let frac = format!("{:09}", self.nanos);
            out.push('.');
            out.push_str(frac.trim_end_matches('0'));
        }
        out.push('Z');
        Ok(out)
    }
}

fn invalid(message: &str) -> Error {
    Error::new(ErrorCode::InvalidTimestamp, message)
}

/// The civil date (year, month, day) of a day count since 1970-01-01 (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

fn is_leap(year: u32) -> bool {
    (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400)
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if is_leap(year) => 29,
        _ => 28,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(t: &str) -> i64 {
        Timestamp::parse(t).expect("valid").unix_seconds()
    }

    #[test]
    fn epoch_and_known_instants() {
        assert_eq!(secs("1970-01-01T00:00:00Z"), 0);
        assert_eq!(secs("2000-03-01T00:00:00Z"), 951_868_800);
        assert_eq!(secs("2024-02-29T23:59:59Z"), 1_709_251_199);
        assert_eq!(secs("0000-01-01T00:00:00Z"), -62_167_219_200);
        assert_eq!(secs("9999-12-31T23:59:59Z"), 253_402_300_799);
        let t = Timestamp::parse("2026-11-29T19:02:13.123456789Z").expect("valid");
        assert_eq!(t.nanos(), 123_456_789);
        let t = Timestamp::parse("2026-11-29T19:02:13.1Z").expect("valid");
        assert_eq!(t.nanos(), 100_000_000);
    }

    #[test]
    fn ordering_uses_nanos() {
        let a = Timestamp::parse("2026-11-29T19:02:13Z").expect("valid");
        let b = Timestamp::parse("2026-11-29T19:02:13.000000001Z").expect("valid");
        assert!(a < b);
        assert_eq!(
            a,
            Timestamp::parse("2026-11-29T19:02:13.000Z").expect("valid")
        );
    }

    #[test]
    fn refusals() {
        for bad in [
            "",
            "2026-11-29",
            "2026-11-29T19:02:13",
            "2026-11-29t19:02:13Z",
            "2026-11-29T19:02:13z",
            "2026-11-29 19:02:13Z",
            "2026-11-29T19:02:13+00:00",
            "2026-11-29T19:02:13.Z",
            "2026-11-29T19:02:13.1234567890Z",
            "2026-11-29T19:02:60Z",
            "2026-11-29T24:00:00Z",
            "2026-11-29T19:60:00Z",
            "2026-13-01T00:00:00Z",
            "2026-00-01T00:00:00Z",
            "2026-02-29T00:00:00Z",
            "1900-02-29T00:00:00Z",
            "2026-04-31T00:00:00Z",
            "2026-11-00T00:00:00Z",
            "+026-11-29T19:02:13Z",
            "2026-11-29T19:02:13.1a3Z",
            "２026-11-29T19:02:13Z",
            "2026-11-29T19:02:13ZZ",
        ] {
            let e = Timestamp::parse(bad).expect_err(bad);
            assert_eq!(e.code(), ErrorCode::InvalidTimestamp, "{bad}");
        }
        assert!(Timestamp::parse("2000-02-29T00:00:00Z").is_ok());
    }
}
