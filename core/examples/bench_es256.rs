//! ES256 verification, ours against OpenSSL (through `node:crypto`), in one run.
//!
//! `cargo run --release -p ekl-core --example bench_es256 [ITERATIONS]` (run by scripts/bench-es256.sh).
//! Prints µs per verify for: our signature check with a parsed (ready) key, our full JWS verify
//! (split, decode, header checks, signature, payload parse), and OpenSSL; then the ratio. The row
//! of keys seen for the first time (no table) is paired: rounds of ours and OpenSSL's alternate
//! in one run (Node kept running between them), each round timed in wall and thread CPU time, and
//! the ratio is the median of the pairs' ratios, printed with the CPU's model name.
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Instant;

use ekl_core::base64url;
use ekl_core::canonical;
use ekl_core::jwk::{jwks_from_seed, PublicJwk, SigningKey};
use ekl_core::jws::{self, Typ};

fn time<F: FnMut()>(n: u32, mut f: F) -> f64 {
    for _ in 0..n.min(200) {
        f();
    }
    let mut best = f64::INFINITY;
    for _ in 0..3 {
        let t0 = Instant::now();
        for _ in 0..n {
            f();
        }
        best = best.min(t0.elapsed().as_secs_f64() * 1e6 / f64::from(n));
    }
    best
}

/// This thread's CPU time in ns (`/proc/thread-self/schedstat`, first field), when the host has it.
fn cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// One round of keys without a table: `KEYS` keys, one token each, every verification a key's
/// first (fresh `PublicJwk`s, made outside the clock): (wall µs, CPU µs) per verification.
fn fresh_round(keys: &[SigningKey], sigs: &[[u8; 64]], message: &[u8]) -> Round {
    let fresh: Vec<PublicJwk> = keys
        .iter()
        .map(|k| {
            let p = k.public_jwk();
            PublicJwk::from_coordinates(p.kid(), *p.x(), *p.y()).expect("key")
        })
        .collect();
    let c0 = cpu_ns();
    let t0 = Instant::now();
    for (key, sig) in fresh.iter().zip(sigs) {
        key.verify_es256(message, sig).expect("verifies");
    }
    let wall = t0.elapsed().as_secs_f64() * 1e6 / keys.len() as f64;
    let cpu = match (c0, cpu_ns()) {
        (Some(a), Some(b)) => (b - a) as f64 / 1e3 / keys.len() as f64,
        _ => f64::NAN,
    };
    (wall, cpu)
}

/// The CPU's model name (Linux: /proc/cpuinfo), or the architecture.
fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string())
}

/// (wall µs, CPU µs) per verification of one round.
type Round = (f64, f64);
/// One pair of rounds: ours, then OpenSSL's.
type Pair = (Round, Round);

/// The median of some figures.
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        return f64::NAN;
    }
    let m = v.len() / 2;
    if v.len() % 2 == 1 {
        v[m]
    } else {
        (v[m - 1] + v[m]) / 2.0
    }
}

/// The paired no-table row: `rounds` pairs of one round of ours and one of OpenSSL's (the Node
/// child answers a line `fresh` with one round), alternating which goes first, after two untimed
/// pairs. Returns ours and OpenSSL's (wall, CPU) per round.
fn paired_fresh(
    keys: &[SigningKey],
    sigs: &[[u8; 64]],
    message: &[u8],
    node: &mut (impl Write, impl BufRead),
    rounds: usize,
) -> Vec<Pair> {
    let mut theirs = || {
        node.0.write_all(b"fresh\n").expect("write to node");
        node.0.flush().expect("flush");
        let mut line = String::new();
        node.1.read_line(&mut line).expect("node answers");
        let value = canonical::parse(line.trim().as_bytes()).expect("node prints json");
        let number = |name: &str| value.get(name).and_then(|v| v.as_f64()).unwrap_or(f64::NAN);
        (number("wall_us"), number("cpu_us"))
    };
    let mut pairs = Vec::with_capacity(rounds);
    for round in 0..rounds + 2 {
        let pair = if round % 2 == 0 {
            let ours = fresh_round(keys, sigs, message);
            (ours, theirs())
        } else {
            let peer = theirs();
            (fresh_round(keys, sigs, message), peer)
        };
        if round >= 2 {
            pairs.push(pair);
        }
    }
    pairs
}

/// How many keys the no-table row verifies (one token each).
const KEYS: usize = 200;

fn main() {
    let n: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(5000);
    let (jwks, keys) = jwks_from_seed(&[0x42; 32], &["bench-1"]).expect("seed keys");
    let claims = canonical::parse(
        br#"{"iss":"https://network.example","aud":"ekl:agent:agt_consumer","iat":1780000000,
            "execution_id":"exe_01","provider_agent_id":"agt_provider","requester_agent_id":"agt_consumer",
            "capability_id":"cap.search","input_fingerprint":"46839dcf7511e1b9789e56ccbce9a4e7a562adc9aa9b1088337802fec1018a3c",
            "status":"succeeded","issued_at":"2026-05-28T20:26:40Z"}"#,
    )
    .expect("claims");
    let token = jws::sign(Typ::Receipt, &claims, &keys[0]).expect("sign");
    let (signing_input, sig_b64) = token.rsplit_once('.').expect("three segments");
    let sig = base64url::decode(sig_b64).expect("signature");
    let key = jwks.get("bench-1").expect("key");
    key.precompute();
    let many: Vec<SigningKey> = (0..KEYS)
        .map(|i| SigningKey::from_seed(&[0x43; 32], &format!("fresh-{i}")).expect("seed key"))
        .collect();
    let many_sigs: Vec<[u8; 64]> = many
        .iter()
        .map(|k| k.sign_es256(signing_input.as_bytes()))
        .collect();

    let ours_sig = time(n, || {
        key.verify_es256(signing_input.as_bytes(), &sig)
            .expect("verifies");
    });
    let ours_jws = time(n, || {
        jws::verify_signature(&token, Typ::Receipt, &jwks).expect("verifies");
    });
    // The p256 crate's own verifier (no alloc feature: wNAF tables rebuilt per call), for reference.
    let plain = {
        use p256::ecdsa::signature::Verifier;
        let mut sec1 = vec![4u8];
        sec1.extend_from_slice(key.x());
        sec1.extend_from_slice(key.y());
        let vk = p256::ecdsa::VerifyingKey::from_sec1_bytes(&sec1).expect("key");
        let sig = p256::ecdsa::Signature::from_slice(&sig).expect("signature");
        time(n.min(1000), || {
            vk.verify(signing_input.as_bytes(), &sig).expect("verifies");
        })
    };
    println!("ES256 verify, {n} iterations, best of 3 (µs per verify)");
    println!(
        "  {:<46}{plain:8.2} µs",
        "p256 crate VerifyingKey::verify (no tables)"
    );
    println!(
        "  {:<46}{ours_sig:8.2} µs",
        "ekl-core signature check (precomputed key)"
    );
    println!(
        "  {:<46}{ours_jws:8.2} µs",
        "ekl-core full JWS verify_signature"
    );

    let jwk_json = |k: &PublicJwk| {
        String::from_utf8(canonical::canonicalize_value(&k.to_value()).expect("jwk"))
            .expect("utf-8")
    };
    let fresh_json: Vec<String> = many
        .iter()
        .zip(&many_sigs)
        .map(|(k, sig)| {
            format!(
                r#"{{"jwk":{},"signature_b64url":"{}"}}"#,
                jwk_json(&k.public_jwk()),
                base64url::encode(sig)
            )
        })
        .collect();
    let input = format!(
        r#"{{"jwk":{},"message_b64url":"{}","signature_b64url":"{}","iterations":{},"fresh":[{}]}}"#,
        jwk_json(key),
        base64url::encode(signing_input.as_bytes()),
        sig_b64,
        n,
        fresh_json.join(",")
    );
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../scripts/bench/es256-openssl.mjs"
    );
    let child = Command::new("node")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn();
    let Ok(mut child) = child else {
        let (wall, cpu) = fresh_round(&many, &many_sigs, signing_input.as_bytes());
        println!(
            "  {:<46}{wall:8.2} µs  (CPU {cpu:.2} µs)",
            format!("ekl-core, {KEYS} keys without a table, 1 each")
        );
        println!("  openssl (node:crypto): node not found, no comparison");
        return;
    };
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    stdin.write_all(input.as_bytes()).expect("write to node");
    stdin.write_all(b"\n").expect("write to node");
    stdin.flush().expect("flush");
    let mut line = String::new();
    stdout.read_line(&mut line).expect("node answers");
    let value = canonical::parse(line.trim().as_bytes()).expect("node prints json");
    let openssl = value
        .get("us_per_verify")
        .and_then(|v| v.as_f64())
        .expect("us_per_verify");
    let version = value.get("openssl").and_then(|v| v.as_str()).unwrap_or("?");
    let mut node = (stdin, stdout);
    let pairs = paired_fresh(&many, &many_sigs, signing_input.as_bytes(), &mut node, 15);
    drop(node);
    let status = child.wait().expect("node exits");
    assert!(status.success(), "the node benchmark failed");
    let cpu = cpu_model();
    report(&Figures {
        ours_sig,
        ours_jws,
        openssl,
        version,
        pairs: &pairs,
        cpu: &cpu,
    });
}

/// The figures of one run.
struct Figures<'a> {
    ours_sig: f64,
    ours_jws: f64,
    openssl: f64,
    version: &'a str,
    pairs: &'a [Pair],
    cpu: &'a str,
}

/// Prints the OpenSSL rows and the ratios, and appends the JSON lines when EKL_BENCH_JSON is set.
fn report(f: &Figures<'_>) {
    let Figures {
        ours_sig,
        ours_jws,
        openssl,
        version,
        pairs,
        cpu,
    } = *f;
    let best = |pick: &dyn Fn(&Pair) -> f64| pairs.iter().map(pick).fold(f64::INFINITY, f64::min);
    let (ours_wall, ours_cpu) = (best(&|p| p.0 .0), best(&|p| p.0 .1));
    let (peer_wall, peer_cpu) = (best(&|p| p.1 .0), best(&|p| p.1 .1));
    // Per pair, how many times faster ours is (peer / ours); the median of the pairs.
    let cpu_ratios: Vec<f64> = pairs.iter().map(|p| p.1 .1 / p.0 .1).collect();
    let wall_ratios: Vec<f64> = pairs.iter().map(|p| p.1 .0 / p.0 .0).collect();
    let (lo, hi) = cpu_ratios
        .iter()
        .fold((f64::INFINITY, 0f64), |(lo, hi), &r| (lo.min(r), hi.max(r)));
    let (cpu_median, wall_median) = (median(cpu_ratios), median(wall_ratios));
    let ours_cpu_median = median(pairs.iter().map(|p| p.0 .1).collect());
    let peer_cpu_median = median(pairs.iter().map(|p| p.1 .1).collect());
    println!(
        "  {:<46}{openssl:8.2} µs",
        format!("OpenSSL {version} via node:crypto")
    );
    println!(
        "  {:<46}{ours_wall:8.2} µs  (CPU {ours_cpu:.2} µs)",
        format!("ekl-core, {KEYS} keys without a table, 1 each")
    );
    println!(
        "  {:<46}{peer_wall:8.2} µs  (CPU {peer_cpu:.2} µs)",
        format!("OpenSSL, the same {KEYS} keys, 1 each")
    );
    println!(
        "  ratio ours/OpenSSL: signature {:.2}x, full JWS {:.2}x (target <= 2x)",
        ours_sig / openssl,
        ours_jws / openssl,
    );
    println!(
        "  keys without a table, {} pairs of rounds alternated: ours/OpenSSL CPU {:.2}x (median; pairs {:.2}-{:.2}x), wall {:.2}x (target <= 1x) on {cpu}",
        pairs.len(),
        1.0 / cpu_median,
        1.0 / hi,
        1.0 / lo,
        1.0 / wall_median,
    );
    // EKL_BENCH_JSON=FILE: the figures as JSON lines for the common report (scripts/bench/report.py);
    // the no-table row: each side's median CPU µs a round, and the median of the pairs' ratios.
    let Ok(path) = std::env::var("EKL_BENCH_JSON") else {
        return;
    };
    let mut cpu_json = Vec::new();
    canonical::write_string(cpu, &mut cpu_json);
    let cpu_json = String::from_utf8(cpu_json).expect("utf-8");
    let mut lines = String::new();
    for (operation, name, us, peer, ratio) in [
        (
            "ES256 verify (signature)",
            "ekl-core signature check",
            ours_sig,
            openssl,
            openssl / ours_sig,
        ),
        (
            "ES256 verify (full JWS)",
            "ekl-core verify_signature",
            ours_jws,
            openssl,
            openssl / ours_jws,
        ),
        (
            "ES256 verify, key without a table (CPU)",
            "ekl-core, first verification of each key",
            ours_cpu_median,
            peer_cpu_median,
            cpu_median,
        ),
    ] {
        lines.push_str(&format!(
            "{{\"step\":\"es256\",\"surface\":\"rust\",\"operation\":\"{operation}\",\"unit\":\"µs\",\"ours_name\":\"{name}\",\"ours\":{us},\"peer\":\"OpenSSL {version} (node:crypto)\",\"peer_value\":{peer},\"ratio\":{ratio},\"cpu\":{cpu_json}}}\n"
        ));
    }
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut f| f.write_all(lines.as_bytes()))
        .expect("EKL_BENCH_JSON write");
}
