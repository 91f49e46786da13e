//! Fuzz target: the replay guard's machine (PROTOCOL §9.2, §3; `ekl_core::replay`) driven by
//! arbitrary sequences of consumptions and restores, with arbitrary clocks (far-future, stepped
//! back, negative, milliseconds), against a model store that does what the core says a store does
//! (the hosts' memory stores: entries expire against the high-water mark, `replay::raise_mark`;
//! an entry expired then is not added).
//!
//! Invariants: no panic; an accepted credential passes every admission rule (a `now` in
//! [0, 10^11) s, before `exp` + skew, `iat` at most `now` + skew, the kind's lifetime); the same
//! credential (key and expiry) is never accepted twice, whatever the clocks; none issued before a
//! recorded restore plus the skew is accepted within the window after it; an admission survives
//! its round trip through a value; a key is 64 lowercase hex.
#![no_main]

use std::collections::{HashMap, HashSet};

use ekl_core::replay::{self, Admission, Credential, Kind};
use libfuzzer_sys::fuzz_target;

/// The store of the hosts' memory stores, as a model.
#[derive(Default)]
struct Store {
    entries: HashMap<String, i64>,
    seen: Option<i64>,
    last: Option<i64>,
    restore: Option<(i64, i64)>,
}

impl Store {
    fn add(&mut self, key: &str, expires_at: i64, now: i64) -> bool {
        let seen = replay::raise_mark(self.seen, self.last, now);
        (self.seen, self.last) = (Some(seen), Some(now));
        self.entries.retain(|_, e| *e > seen);
        if self.entries.contains_key(key) || expires_at <= seen {
            return false;
        }
        self.entries.insert(key.to_owned(), expires_at);
        true
    }

    fn restore_moment(&self, now: i64) -> Option<i64> {
        self.restore.filter(|r| r.1 > now).map(|r| r.0)
    }

    fn record_restore(&mut self, at: i64, until: i64, now: i64) {
        self.restore = match self.restore {
            Some((a, u)) if u > now => Some((a.max(at), u.max(until))),
            _ => Some((at, until)),
        };
    }
}

struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> Option<u8> {
        let (first, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(*first)
    }
    fn i32(&mut self) -> Option<i64> {
        let mut b = [0u8; 4];
        for x in &mut b {
            *x = self.byte()?;
        }
        Some(i64::from(i32::from_le_bytes(b)))
    }
}

const T: i64 = 1_800_000_000;
const JTIS: [&str; 4] = ["j1", "j2", "\"],[\"", "\u{0}"];

fuzz_target!(|data: &[u8]| {
    let mut input = Bytes(data);
    let Some(first) = input.byte() else { return };
    let skew = i64::from(first) * 2 - 100; // [-100, 410]: out-of-range skews too
    let mut store = Store::default();
    let mut accepted: HashSet<(String, i64)> = HashSet::new();
    while let Some(op) = input.byte() {
        // The clock: near T, in ms (a step), or a wild value (far future, negative, ms as s).
        let now_ms = match input.i32() {
            Some(x) if op & 0x80 == 0 => T * 1000 + x * 37,
            Some(x) => i64::from(x as i32).wrapping_mul(1 << (op & 0x1f)),
            None => return,
        };
        if op & 0x40 != 0 {
            match replay::restore(now_ms, skew) {
                Ok(r) => {
                    assert!(r.at_ms == now_ms && r.until_ms - r.at_ms == r.window * 1000);
                    store.record_restore(r.at_ms, r.until_ms, r.now_ms);
                }
                Err(_) => assert!(
                    now_ms < 0
                        || now_ms / 1000 >= replay::MILLISECONDS_FROM
                        || !(0..=300).contains(&skew)
                ),
            }
            continue;
        }
        let (Some(iat_off), Some(life)) = (input.i32(), input.byte()) else {
            return;
        };
        let kind = if op & 0x20 == 0 {
            Kind::RelationshipAssertion
        } else {
            Kind::PlatformCall
        };
        let iat = T + iat_off % 1000;
        let exp = iat + i64::from(life) - 8;
        let c = Credential {
            kind,
            issuer: "https://network.example",
            audience: "https://provider.example/oauth/token",
            jti: JTIS[usize::from(op & 3)],
            iat,
            exp,
        };
        let Ok(a) = replay::admit(&c, now_ms, skew) else {
            continue;
        };
        // Every admission rule holds for what is admitted.
        assert!(
            (0..=300).contains(&skew) && now_ms >= 0 && now_ms / 1000 < replay::MILLISECONDS_FROM
        );
        assert!(exp >= iat && exp - iat <= kind.max_lifetime());
        assert!(now_ms < (exp + skew) * 1000 && iat * 1000 <= now_ms + skew * 1000);
        assert_eq!(a.expires_at_ms, (exp + skew) * 1000);
        assert!(
            a.key.len() == 64
                && a.key
                    .bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        );
        assert_eq!(Admission::from_value(&a.to_value()).ok().as_ref(), Some(&a));
        // The restore rule, recomputed: refused exactly when a kept moment m has now within its
        // window and iat before m + skew.
        let moment = store.restore_moment(a.now_ms);
        let refused = replay::answer(&a, moment, None).is_err();
        let window = (replay::ASSERTION_MAX_LIFETIME + 2 * skew) * 1000;
        let should = moment.is_some_and(|m| now_ms < m + window && iat * 1000 < m + skew * 1000);
        assert_eq!(refused, should, "the restore rule");
        if refused {
            continue;
        }
        let added = store.add(&a.key, a.expires_at_ms, a.now_ms);
        if replay::answer(&a, None, Some(added)).is_ok() {
            assert!(added);
            assert!(
                accepted.insert((a.key.clone(), a.expires_at_ms)),
                "a credential was accepted twice"
            );
        }
    }
});
