//! The deterministic benchmark corpus: receipt-like JSON documents of 1–2 KB and one ~5 MB
//! document, generated from a seeded PRNG so every run (and every worker process) sees the same
//! bytes.
//!
//! The text exercises what a canonicaliser has to get right and fast: unicode keys (BMP, astral
//! and the U+FF61 half-width range, which sorts after astral keys in UTF-16 order), strings with
//! escapes (`\n`, `\"`, `\u00e9`, `\ud83d\ude00`), integers, floats, nested objects and arrays,
//! random member order and random insignificant whitespace. Keys are unique after unescaping and
//! integers stay within ±2^53, so every document is valid ekl-json-1.

/// The corpus's generator: the project's one SplitMix64 (`ekl_core::test_rng`). Until issue 27
/// this file had its own copy with a wrong last constant (`…14EB` for `…11EB`), so the corpus
/// changed once then; figures before that were measured on the old corpus.
pub struct Rng(ekl_core::test_rng::SplitMix64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(ekl_core::test_rng::SplitMix64(seed))
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// Keys as (unescaped value, spellings in the JSON text). Several spell the same key with escapes.
const KEYS: &[(&str, &[&str])] = &[
    ("id", &["id"]),
    ("receipt_id", &["receipt_id"]),
    ("issued_at", &["issued_at"]),
    ("amount", &["amount"]),
    ("currency", &["currency"]),
    ("merchant", &["merchant"]),
    ("items", &["items"]),
    ("tax", &["tax"]),
    ("total", &["total"]),
    ("note", &["note"]),
    ("status", &["status"]),
    ("call_id", &["call_id"]),
    ("tool", &["tool"]),
    ("input_commitment", &["input_commitment"]),
    ("output_fingerprint", &["output_fingerprint"]),
    ("latency_ms", &["latency_ms"]),
    ("é", &["é", "\\u00e9", "\\u00E9"]),
    ("café", &["café", "caf\\u00e9"]),
    ("prix€", &["prix€", "prix\\u20ac"]),
    ("日本語", &["日本語"]),
    ("ｱｲｳ", &["ｱｲｳ", "\\uff71ｲｳ"]),
    ("｡end", &["｡end", "\\uff61end"]),
    ("ﾟ", &["ﾟ"]),
    ("\u{e000}private", &["\u{e000}private", "\\ue000private"]),
    ("😀", &["😀", "\\ud83d\\ude00", "\\uD83D\\uDE00"]),
    ("𝄞clef", &["𝄞clef", "\\ud834\\udd1eclef"]),
    ("🧾receipt", &["🧾receipt"]),
    ("a\nb", &["a\\nb"]),
    ("quote\"d", &["quote\\\"d"]),
    ("Zeta", &["Zeta"]),
    ("_under", &["_under"]),
    ("1num", &["1num"]),
];

const WORDS: &[&str] = &[
    "invoice",
    "Dublin",
    "loc:ca:dublin",
    "Grüße",
    "naïve",
    "Ελληνικά",
    "Москва",
    "東京",
    "ｶﾀｶﾅ",
    "😀",
    "🧾",
    "𝄞",
    "tab\\there",
    "line\\nbreak",
    "say \\\"hi\\\"",
    "back\\\\slash",
    "caf\\u00e9",
    "smile \\ud83d\\ude00",
    "ctl \\u0001\\u001f",
    "slash\\/ok",
    "\\b\\f\\r",
    "https://example.com/receipts/",
    "sha256:",
    "ok",
    "refused",
    "EUR",
    "USD",
    "lorem ipsum dolor sit amet, consectetur adipiscing elit",
];

/// Insignificant whitespace, often none.
fn ws(rng: &mut Rng, out: &mut String) {
    match rng.below(10) {
        0..=5 => {}
        6 => out.push(' '),
        7 => out.push_str("\n  "),
        8 => out.push('\t'),
        _ => out.push_str(" \r\n    "),
    }
}

fn string(rng: &mut Rng, out: &mut String) {
    out.push('"');
    let n = 1 + rng.below(5);
    for i in 0..n {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(rng.pick(WORDS));
    }
    if rng.chance(30) {
        // Hex digits, like a digest.
        for _ in 0..16 {
            out.push_str(&format!("{:04x}", rng.next_u64() & 0xffff));
        }
    }
    out.push('"');
}

fn number(rng: &mut Rng, out: &mut String) {
    match rng.below(10) {
        0..=3 => out.push_str(&(rng.next_u64() % 100_000).to_string()),
        4 => {
            let n = (rng.next_u64() % (1 << 53)) as i64;
            out.push_str(&(if rng.chance(50) { -n } else { n }).to_string());
        }
        5 => out.push_str(&format!("{}.{:02}", rng.below(10_000), rng.below(100))),
        6 => {
            // A random finite double in shortest form, sometimes in exponent form.
            let x = loop {
                let x = f64::from_bits(rng.next_u64());
                if x.is_finite() {
                    break x;
                }
            };
            // Rust prints large doubles as long integer literals, which ekl-json-1 refuses
            // beyond 2^53: those are written in exponent form.
            if rng.chance(50) || (x.abs() >= 9_007_199_254_740_992.0 && x.fract() == 0.0) {
                out.push_str(&format!("{x:e}"));
            } else {
                out.push_str(&format!("{x}"));
            }
        }
        7 => out.push_str(rng.pick(&[
            "0", "-0", "1.0", "1e21", "1e-7", "0.000001", "1E+2", "-0.0", "123e-20", "5e-324",
        ])),
        8 => out.push_str(&format!("{}", rng.below(1000) as f64 / 7.0)),
        _ => out.push_str(&format!(
            "{}e{}",
            rng.below(1000),
            rng.below(40) as i32 - 20
        )),
    }
}

fn scalar(rng: &mut Rng, out: &mut String) {
    match rng.below(10) {
        0..=4 => string(rng, out),
        5..=7 => number(rng, out),
        8 => out.push_str(rng.pick(&["true", "false"])),
        _ => out.push_str("null"),
    }
}

/// An object with `n` distinct keys in random order; values from `value`.
fn object(rng: &mut Rng, out: &mut String, n: usize, depth: usize) {
    let mut idx: Vec<usize> = (0..KEYS.len()).collect();
    // Fisher–Yates: random member order and distinct keys.
    for i in (1..idx.len()).rev() {
        let j = rng.below(i + 1);
        idx.swap(i, j);
    }
    out.push('{');
    for (m, &k) in idx.iter().take(n.min(KEYS.len())).enumerate() {
        if m > 0 {
            out.push(',');
        }
        ws(rng, out);
        out.push('"');
        out.push_str(rng.pick(KEYS[k].1));
        out.push('"');
        ws(rng, out);
        out.push(':');
        ws(rng, out);
        value(rng, out, depth + 1);
        ws(rng, out);
    }
    out.push('}');
}

fn value(rng: &mut Rng, out: &mut String, depth: usize) {
    let r = rng.below(100);
    if depth < 4 && r < 10 {
        let n = 1 + rng.below(6);
        object(rng, out, n, depth);
    } else if depth < 4 && r < 18 {
        out.push('[');
        let n = rng.below(6);
        for i in 0..n {
            if i > 0 {
                out.push(',');
            }
            ws(rng, out);
            value(rng, out, depth + 1);
        }
        ws(rng, out);
        out.push(']');
    } else {
        scalar(rng, out);
    }
}

/// One receipt-like document of roughly 1–2 KB.
pub fn receipt(rng: &mut Rng) -> String {
    loop {
        let mut out = String::with_capacity(2048);
        ws(rng, &mut out);
        let members = 14 + rng.below(12);
        object(rng, &mut out, members, 0);
        ws(rng, &mut out);
        if (1024..=2048).contains(&out.len()) {
            return out;
        }
    }
}

/// `count` receipt-like documents.
pub fn small_docs(seed: u64, count: usize) -> Vec<Vec<u8>> {
    let mut rng = Rng::new(seed);
    (0..count).map(|_| receipt(&mut rng).into_bytes()).collect()
}

/// One document of about `bytes` bytes: a batch object holding an array of receipts.
pub fn big_doc(seed: u64, bytes: usize) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut out = String::with_capacity(bytes + 4096);
    out.push_str(
        "{\"batch\": {\"id\": \"b-0001\", \"ｱｲｳ\": 1, \"😀\": [1.5, -0, 1e21]},\n \"receipts\": [",
    );
    let mut first = true;
    while out.len() < bytes {
        if !first {
            out.push_str(",\n");
        }
        first = false;
        out.push_str(&receipt(&mut rng));
    }
    out.push_str("],\n \"count\": 0}");
    out.into_bytes()
}

/// FNV-1a over every document, so a worker built from another version of this file is caught.
pub fn fingerprint(docs: &[Vec<u8>], big: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for d in docs
        .iter()
        .map(|d| d.as_slice())
        .chain(std::iter::once(big))
    {
        for &b in d.iter().chain(&[0xff]) {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}
