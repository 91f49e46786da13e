//! ES256 verification, ours against OpenSSL (through `node:crypto`), in one run.
//!
//! `cargo run --release -p ekl-core --example bench_es256 [ITERATIONS]` (run by scripts/bench-es256.sh).
//! Prints µs per verify for: our signature check with a parsed (ready) key, our full JWS verify
//! (split, decode, header checks, signature, payload parse), and OpenSSL; then the ratio.
use std::io::Write;
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

/// Keys without a table: `KEYS` keys, one token each, every verification a key's first (fresh
/// `PublicJwk`s each round, made outside the clock). Best of `rounds` rounds: (wall µs, CPU µs) per
/// verification.
fn fresh_keys(keys: &[SigningKey], sigs: &[[u8; 64]], message: &[u8], rounds: u32) -> (f64, f64) {
    let mut best = (f64::INFINITY, f64::INFINITY);
    for _ in 0..rounds {
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
        if wall < best.0 {
            best = (wall, cpu);
        }
    }
    best
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
    let (fresh_wall, fresh_cpu) = fresh_keys(&many, &many_sigs, signing_input.as_bytes(), 15);

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
    println!(
        "  {:<46}{fresh_wall:8.2} µs  (CPU {fresh_cpu:.2} µs)",
        format!("ekl-core, {KEYS} keys without a table, 1 each")
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
        println!("  openssl (node:crypto): node not found, no comparison");
        return;
    };
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write to node");
    let out = child.wait_with_output().expect("node runs");
    assert!(out.status.success(), "the node benchmark failed");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let value = canonical::parse(text.trim().as_bytes()).expect("node prints json");
    let openssl = value
        .get("us_per_verify")
        .and_then(|v| v.as_f64())
        .expect("us_per_verify");
    let version = value.get("openssl").and_then(|v| v.as_str()).unwrap_or("?");
    let number = |name: &str| value.get(name).and_then(|v| v.as_f64()).unwrap_or(f64::NAN);
    let (openssl_fresh, openssl_fresh_cpu) = (number("fresh_us"), number("fresh_cpu_us"));
    println!(
        "  {:<46}{openssl:8.2} µs",
        format!("OpenSSL {version} via node:crypto")
    );
    println!(
        "  {:<46}{openssl_fresh:8.2} µs  (CPU {openssl_fresh_cpu:.2} µs)",
        format!("OpenSSL, the same {KEYS} keys, 1 each")
    );
    println!(
        "  ratio ours/OpenSSL: signature {:.2}x, full JWS {:.2}x (target <= 2x); keys without a table {:.2}x wall, {:.2}x CPU (target <= 1x)",
        ours_sig / openssl,
        ours_jws / openssl,
        fresh_wall / openssl_fresh,
        fresh_cpu / openssl_fresh_cpu
    );
    // EKL_BENCH_JSON=FILE: the figures as JSON lines for the common report (scripts/bench/report.py).
    if let Ok(path) = std::env::var("EKL_BENCH_JSON") {
        let mut lines = String::new();
        for (operation, name, us, peer) in [
            (
                "ES256 verify (signature)",
                "ekl-core signature check",
                ours_sig,
                openssl,
            ),
            (
                "ES256 verify (full JWS)",
                "ekl-core verify_signature",
                ours_jws,
                openssl,
            ),
            (
                "ES256 verify, key without a table (CPU)",
                "ekl-core, first verification of each key",
                fresh_cpu,
                openssl_fresh_cpu,
            ),
        ] {
            lines.push_str(&format!(
                "{{\"step\":\"es256\",\"surface\":\"rust\",\"operation\":\"{operation}\",\"unit\":\"µs\",\"ours_name\":\"{name}\",\"ours\":{us},\"peer\":\"OpenSSL {version} (node:crypto)\",\"peer_value\":{peer},\"ratio\":{}}}\n",
                peer / us
            ));
        }
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut f| f.write_all(lines.as_bytes()))
            .expect("EKL_BENCH_JSON write");
    }
}
