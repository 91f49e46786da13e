//! The `ekl` JWS commands: `jwks from-seed`, `jws sign`, `jws verify`, `receipt verify-jws`,
//! `receipt verify-signed` (outputs, exit statuses, error codes), using vectors/receipt-jws.json.

mod common;
use common::ekl_text as ekl;
use common::TestDir;

const SEED: &str = "656b6c2d636f7265206a777320766563746f72732073656564203230323621ff";

fn vectors() -> serde_json::Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../vectors/receipt-jws.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("vectors")).expect("json")
}

#[test]
fn jwks_from_seed_matches_the_vectors() {
    let (code, out, _) = ekl(
        &[
            "jwks",
            "from-seed",
            "--seed",
            SEED,
            "--kid",
            "net-2026-05,net-2026-06",
        ],
        b"",
    );
    assert_eq!(code, 0);
    let got: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(got, vectors()["jwks"]);
    let (code, out, _) = ekl(
        &[
            "jwks",
            "from-seed",
            "--seed",
            SEED,
            "--kid",
            "k",
            "--private",
        ],
        b"",
    );
    assert_eq!(code, 0);
    assert!(out.contains("\"d\":"));
    let (code, _, err) = ekl(&["jwks", "from-seed", "--seed", "00", "--kid", "k"], b"");
    assert_eq!((code, err.starts_with("ekl: INVALID_KEY")), (2, true));
}

#[test]
fn sign_then_verify() {
    let dir = TestDir::new("cli-jws");
    let (_, jwks, _) = ekl(&["jwks", "from-seed", "--seed", SEED, "--kid", "n1"], b"");
    let jwks = dir.write("jwks.json", &jwks);
    let claims = br#"{"iss":"https://n","aud":"ekl:agent:p","iat":1000,"exp":1060}"#;
    let (code, token, _) = ekl(
        &[
            "jws",
            "sign",
            "--typ",
            "ekl-access+jwt",
            "--seed",
            SEED,
            "--kid",
            "n1",
        ],
        claims,
    );
    assert_eq!(code, 0);
    let token = token.trim().to_owned();
    let base = [
        "jws",
        "verify",
        "--typ",
        "ekl-access+jwt",
        "--jwks",
        jwks.as_str(),
        "--iss",
        "https://n",
        "--aud",
        "ekl:agent:p",
    ];
    let with = |extra: &[&str], stdin: &[u8]| {
        let mut a: Vec<&str> = base.to_vec();
        a.extend_from_slice(extra);
        ekl(&a, stdin)
    };
    let (code, out, _) = with(&["--now", "1030", "--token", &token], b"");
    assert_eq!(code, 0);
    assert!(out.contains(r#""kid":"n1""#));
    let (code, _, _) = with(&["--now", "1030", "-"], format!("{token}\n").as_bytes());
    assert_eq!(code, 0);
    let (code, _, err) = with(&["--now", "1120", "--token", &token], b"");
    assert_eq!(
        (code, err.trim()),
        (2, "ekl: TOKEN_EXPIRED: the token expired")
    );
    let mut a: Vec<&str> = base.to_vec();
    a[3] = "ekl-receipt+jwt";
    a.extend_from_slice(&["--now", "1030", "--token", &token]);
    let (code, _, err) = ekl(&a, b"");
    assert_eq!((code, err.starts_with("ekl: TYP_MISMATCH")), (2, true));
    // A --typ that is no EKP type: the operation's refusal, as from `ekl call verify_jws`.
    let (code, _, err) = ekl(
        &[
            "jws",
            "verify",
            "--typ",
            "application/ekl-access+jwt",
            "--jwks",
            &jwks,
            "--now",
            "1",
            "--token",
            &token,
        ],
        b"",
    );
    assert_eq!(
        (code, err.as_str()),
        (
            2,
            "ekl: INVALID_ARGUMENT: typ is not one of the EKP token types\n"
        )
    );
}

#[test]
fn receipt_verify_jws_and_signed() {
    let dir = TestDir::new("cli-jws");
    let v = vectors();
    let jwks = dir.write("rjwks.json", v["jwks"].to_string());
    let call = dir.write("call.json", v["call"].to_string());
    let case = |name: &str| {
        v["cases"]
            .as_array()
            .expect("cases")
            .iter()
            .find(|c| c["name"] == name)
            .expect("case")
            .clone()
    };
    let valid = case("valid")["receipt_jws"]
        .as_str()
        .expect("jws")
        .to_owned();
    let (code, out, _) = ekl(
        &[
            "receipt",
            "verify-jws",
            "--jwks",
            &jwks,
            "--call",
            &call,
            "--token",
            &valid,
        ],
        b"",
    );
    assert_eq!(code, 0);
    let verdict: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(verdict["accepted"], true);
    assert_eq!(
        verdict["receipt_digest"],
        case("valid")["expected"]["receipt_digest"]
    );
    let bad = case("input_fingerprint_mismatch")["receipt_jws"]
        .as_str()
        .expect("jws")
        .to_owned();
    let (code, out, _) = ekl(
        &[
            "receipt",
            "verify-jws",
            "--jwks",
            &jwks,
            "--call",
            &call,
            "-",
        ],
        bad.as_bytes(),
    );
    assert_eq!(code, 1);
    assert!(out.contains(r#""name":"input_fingerprint","outcome":"mismatch""#));
    let unknown = case("unknown_kid")["receipt_jws"]
        .as_str()
        .expect("jws")
        .to_owned();
    let (code, _, err) = ekl(
        &[
            "receipt",
            "verify-jws",
            "--jwks",
            &jwks,
            "--call",
            &call,
            "--token",
            &unknown,
        ],
        b"",
    );
    assert_eq!((code, err.starts_with("ekl: UNKNOWN_KID")), (2, true));
    let receipt = case("receipt_object_valid")["receipt"].to_string();
    let (code, out, _) = ekl(
        &["receipt", "verify-signed", "--jwks", &jwks, "--call", &call],
        receipt.as_bytes(),
    );
    assert_eq!(code, 0, "{out}");
    let tampered = case("receipt_object_tampered")["receipt"].to_string();
    let (code, out, _) = ekl(
        &["receipt", "verify-signed", "--jwks", &jwks, "--call", &call],
        tampered.as_bytes(),
    );
    assert_eq!(code, 1);
    assert!(out.contains(r#""name":"object_signature","outcome":"fail""#));
}

/// Issue 24.5: `jws verify` is `verify_jws`: a `--now` in milliseconds is refused as on every
/// surface (it answered TOKEN_EXPIRED), and the output has `typ` as `ekl call verify_jws` has.
#[test]
fn verify_refuses_milliseconds_and_prints_typ() {
    let dir = TestDir::new("cli-jws");
    let (_, jwks, _) = ekl(&["jwks", "from-seed", "--seed", SEED, "--kid", "n1"], b"");
    let jwks = dir.write("ms-jwks.json", &jwks);
    let claims = br#"{"iss":"https://n","aud":"ekl:agent:p","iat":1000,"exp":1060}"#;
    let (_, token, _) = ekl(
        &[
            "jws",
            "sign",
            "--typ",
            "ekl-access+jwt",
            "--seed",
            SEED,
            "--kid",
            "n1",
        ],
        claims,
    );
    let verify = |now: &str| {
        ekl(
            &[
                "jws",
                "verify",
                "--typ",
                "ekl-access+jwt",
                "--jwks",
                &jwks,
                "--now",
                now,
                "--token",
                token.trim(),
            ],
            b"",
        )
    };
    let ms = "ekl: INVALID_ARGUMENT: verify_jws: now must be seconds since the epoch, not milliseconds\n";
    for now in ["100000000000", "1800000000000", "-100000000000"] {
        assert_eq!(verify(now), (2, String::new(), ms.to_owned()), "{now}");
    }
    let (code, out, err) = verify("1030");
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let keys: Vec<&String> = v.as_object().expect("object").keys().collect();
    assert_eq!(keys, ["claims", "header", "kid", "token_sha256", "typ"]);
    assert_eq!(v["typ"], "ekl-access+jwt");
}

/// `jwks new-seed` (issue 44.6): 32 fresh random bytes as 64 hex, a new one each time; the keys
/// of `jws sign` and `jwks from-seed` derive from it, and a token signed under one seed does not
/// verify under another's key set.
#[test]
fn a_new_seed_is_random_and_is_the_secret_of_its_keys() {
    let dir = TestDir::new("cli-new-seed");
    let seed = |name: &str| {
        let (code, out, err) = ekl(&["jwks", "new-seed"], b"");
        assert_eq!(code, 0, "{err}");
        assert!(out.len() == 65 && out.ends_with('\n'), "{out:?}");
        assert!(out[..64]
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)));
        (dir.write(name, &out), out)
    };
    let (one, a) = seed("one.seed");
    let (two, b) = seed("two.seed");
    assert_ne!(a, b);
    let claims = dir.write(
        "claims.json",
        r#"{"iss":"https://net.example","aud":"agt_1","iat":1000,"exp":1060}"#,
    );
    let (code, token, err) = ekl(
        &[
            "jws",
            "sign",
            "--typ",
            "ekl-access+jwt",
            "--seed-file",
            &one,
            "--kid",
            "net-1",
            &claims,
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    for (seed_file, want) in [(&one, 0), (&two, 2)] {
        let (code, jwks, err) = ekl(
            &[
                "jwks",
                "from-seed",
                "--seed-file",
                seed_file,
                "--kid",
                "net-1",
            ],
            b"",
        );
        assert_eq!(code, 0, "{err}");
        let jwks = dir.write("jwks.json", jwks);
        let (code, _, err) = ekl(
            &[
                "jws",
                "verify",
                "--typ",
                "ekl-access+jwt",
                "--jwks",
                &jwks,
                "--now",
                "1030",
                "--token",
                token.trim(),
            ],
            b"",
        );
        assert_eq!(code, want, "{err}");
        if want == 2 {
            assert!(err.contains("SIGNATURE_INVALID"), "{err}");
        }
    }
}
