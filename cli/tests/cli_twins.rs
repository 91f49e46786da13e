//! Every named command of `ekl` is an alias of registry operations (cli/src/aliases.rs, included
//! here): each is run next to its `ekl call` twin on the same inputs, valid, not accepted and
//! refused, and the two must give the same exit status, the same stderr and the same stdout (in
//! the command's print form: a string without JSON quotes, canonical bytes without the newline,
//! a check as `ok`). The table is the CLI's own, so a new named command without a twin case fails
//! `every_alias_agrees_with_its_twin`; a command missing from the table fails the unit test
//! `every_command_is_in_the_alias_table` and `the_table_is_the_commands_of_the_help` here.

mod common;

#[allow(dead_code)]
#[path = "../src/aliases.rs"]
mod aliases;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;

use aliases::{Named, Output, NAMED};
use common::{ekl_env, TestDir};
use serde_json::Value as J;

const SEED: &str = "656b6c2d636f7265206a777320766563746f72732073656564203230323621ff";
const OTHER_SEED: &str = "0101010101010101010101010101010101010101010101010101010101010101";
const SALT: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

/// What the twin runs saw: per (command, operation, output), the exit statuses of the cases.
static SEEN: Mutex<BTreeMap<(String, String, String), Vec<i32>>> = Mutex::new(BTreeMap::new());

fn vector(name: &str) -> J {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../vectors")
        .join(name);
    serde_json::from_slice(&std::fs::read(path).expect("vector file")).expect("json")
}

/// Files for the inputs, in the test's own folder (removed at its end).
struct Files {
    dir: TestDir,
    n: usize,
}

impl Files {
    fn new(tag: &str) -> Files {
        Files {
            dir: TestDir::new(&format!("cli-twins-{tag}")),
            n: 0,
        }
    }

    fn file(&mut self, content: impl AsRef<[u8]>) -> String {
        self.n += 1;
        self.dir.write(&format!("f{}", self.n), content)
    }
}

/// `--arg NAME=VALUE`.
fn a(name: &str, value: &str) -> Vec<String> {
    vec!["--arg".into(), format!("{name}={value}")]
}

/// `--arg-file NAME=PATH`.
fn f(name: &str, path: &str) -> Vec<String> {
    vec!["--arg-file".into(), format!("{name}={path}")]
}

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// Runs `ekl COMMAND NAMED..` and `ekl call OP CALL..` and compares them by `output`; returns
/// the named command's exit status and stdout.
fn twin(
    command: &str,
    op: &str,
    output: Output,
    named: &[String],
    call: &[String],
) -> (i32, String) {
    let alias = aliases::ops_of(command)
        .iter()
        .find(|x| x.op == op && x.output == output);
    assert!(
        alias.is_some(),
        "{command} is not listed as an alias of {op} ({output:?})"
    );
    let mut nargv: Vec<&str> = command.split(' ').collect();
    nargv.extend(named.iter().map(String::as_str));
    let mut cargv: Vec<&str> = vec!["call", op];
    cargv.extend(call.iter().map(String::as_str));
    let (nc, nout, nerr) = ekl_env(&nargv, b"", &[]);
    let (cc, cout, cerr) = ekl_env(&cargv, b"", &[]);
    let ctx = format!("\n  ekl {}\n  ekl {}", nargv.join(" "), cargv.join(" "));
    let ctx = if ctx.len() > 2000 {
        format!(
            "{}…",
            &ctx[..ctx.char_indices().nth(2000).map_or(ctx.len(), |(i, _)| i)]
        )
    } else {
        ctx
    };
    assert_eq!(nerr, cerr, "stderr differs:{ctx}");
    let nout = String::from_utf8(nout).expect("utf-8 stdout");
    let cout = String::from_utf8(cout).expect("utf-8 stdout");
    match output {
        Output::Json => assert_eq!((nc, &nout), (cc, &cout), "{ctx}"),
        _ if cc == 2 => assert_eq!((nc, nout.as_str()), (2, ""), "{ctx}"),
        Output::Text => {
            assert_eq!(cc, 0, "{ctx}");
            let s: String = serde_json::from_str(&cout).expect("a JSON string");
            assert_eq!((nc, nout.as_str()), (0, format!("{s}\n").as_str()), "{ctx}");
        }
        Output::Bytes => {
            assert_eq!(cc, 0, "{ctx}");
            assert_eq!((nc, format!("{nout}\n")), (0, cout.clone()), "{ctx}");
        }
        Output::Check => {
            assert_eq!(cc, 0, "{ctx}");
            let want = match cout.as_str() {
                "true\n" => (0, "ok\n"),
                "false\n" => (1, "signature does not verify\n"),
                other => panic!("{other}{ctx}"),
            };
            assert_eq!((nc, nout.as_str()), want, "{ctx}");
        }
        Output::PrivateKeys => {
            assert_eq!(cc, 0, "{ctx}");
            let mut private: J = serde_json::from_str(&nout).expect("json");
            for k in private["keys"].as_array_mut().expect("keys") {
                let d = k.as_object_mut().expect("jwk").remove("d");
                assert_eq!(d.and_then(|d| d.as_str().map(str::len)), Some(43), "{ctx}");
            }
            let public: J = serde_json::from_str(&cout).expect("json");
            assert_eq!((nc, private), (0, public), "{ctx}");
        }
    }
    SEEN.lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry((command.to_owned(), op.to_owned(), format!("{output:?}")))
        .or_default()
        .push(nc);
    (nc, nout)
}

fn the_json_commands() {
    let mut t = Files::new("json");
    let doc = t.file(br#"{"b":[1.0,2e3],"a":"x","c":"\u00e9"}"#);
    let dup = t.file(br#"{"a":1,"\u0061":2}"#);
    let broken = t.file(b"[1,]");
    let one = t.file(b"[1]");
    let big = t.file(format!("[\"{}\"]", "x".repeat(300_000)));
    let deep = t.file(format!("{}{}", "[".repeat(70), "]".repeat(70)));
    for file in [&doc, &dup, &broken, &deep] {
        twin(
            "canon",
            "canonicalize",
            Output::Bytes,
            std::slice::from_ref(file),
            &f("text", file),
        );
        twin(
            "digest",
            "value_digest",
            Output::Text,
            std::slice::from_ref(file),
            &f("value", file),
        );
        twin(
            "commit",
            "commitment",
            Output::Json,
            std::slice::from_ref(file),
            &f("value", file),
        );
        twin(
            "terms-hash",
            "terms_hash",
            Output::Text,
            std::slice::from_ref(file),
            &f("terms", file),
        );
    }
    for (max, file) in [
        ("2", &one),
        ("3", &one),
        ("-1", &one),
        ("x", &one),
        ("0", &doc),
    ] {
        let named = strs(&["--max-bytes", max, file]);
        let call = [f("text", file), a("max_bytes", max)].concat();
        twin("canon", "canonicalize", Output::Bytes, &named, &call);
    }
    let cap = (256 * 1024).to_string();
    for file in [&big, &doc] {
        let named = strs(&["--capability-input", file]);
        let call = [f("text", file), a("max_bytes", &cap)].concat();
        twin("canon", "canonicalize", Output::Bytes, &named, &call);
        twin(
            "commit",
            "input_commitment",
            Output::Json,
            &named,
            &f("input", file),
        );
    }
    let named = strs(&["--capability-input", "--max-bytes", "400000", &big]);
    let call = [f("text", &big), a("max_bytes", "400000")].concat();
    twin("canon", "canonicalize", Output::Bytes, &named, &call);

    // Salts: right, upper case, short; with a salt id.
    for salt in [SALT, &SALT.to_uppercase(), "00"] {
        let named = strs(&["--salt", salt, "--salt-id", "s-1", &doc]);
        let call = [f("value", &doc), a("salt", salt), a("salt_id", "s-1")].concat();
        twin("commit", "commitment", Output::Json, &named, &call);
        let mut named = named;
        named.insert(0, "--capability-input".into());
        let call = [f("input", &doc), a("salt", salt), a("salt_id", "s-1")].concat();
        twin("commit", "input_commitment", Output::Json, &named, &call);
        for (command, op, member) in [
            ("fingerprint", "fingerprint", "value"),
            ("output-fingerprint", "output_fingerprint", "result"),
        ] {
            let result = t
                .file(br#"{"content":[{"type":"text","text":"No homes match."}],"isError":false}"#);
            for file in [&doc, &result, &dup] {
                let named = strs(&["--salt", salt, file]);
                let call = [a("salt", salt), f(member, file)].concat();
                twin(command, op, Output::Text, &named, &call);
            }
        }
    }
    let terms = t.file(br#"{"a":1,"hash":"x"}"#);
    twin(
        "terms-hash",
        "terms_hash",
        Output::Text,
        std::slice::from_ref(&terms),
        &f("terms", &terms),
    );

    let tools = t.file(br#"{"tools":[{"name":"b","x":1},{"name":"a"}]}"#);
    for file in [&tools, &one, &dup] {
        twin(
            "upstream-fingerprint",
            "upstream_fingerprint",
            Output::Text,
            std::slice::from_ref(file),
            &f("tools", file),
        );
        for (offered, list) in [
            ("a", r#"["a"]"#),
            ("a,,b", r#"["a","b"]"#),
            ("c", r#"["c"]"#),
        ] {
            let named = strs(&["--offered", offered, file]);
            let call = [f("tools", file), a("offered", list)].concat();
            twin(
                "upstream-fingerprint",
                "upstream_fingerprint",
                Output::Text,
                &named,
                &call,
            );
        }
    }

    let d = vector("screening-scan.json");
    let rules = t.file(d["rules_sets"]["rules"].to_string());
    let bad_rules = t.file(d["invalid_rules"][0]["claims"].to_string());
    for case in d["cases"].as_array().expect("cases").iter().take(6) {
        let result = t.file(case["result"].to_string());
        twin(
            "screen",
            "screen",
            Output::Json,
            std::slice::from_ref(&result),
            &f("result", &result),
        );
        for r in [&rules, &bad_rules, &dup] {
            let named = strs(&["--rules", r, &result]);
            let call = [f("result", &result), f("rules", r)].concat();
            twin("screen", "screen", Output::Json, &named, &call);
        }
    }
    twin(
        "screen",
        "screen",
        Output::Json,
        std::slice::from_ref(&dup),
        &f("result", &dup),
    );
}

fn the_jws_commands() {
    let mut t = Files::new("jws");
    let claims = t.file(br#"{"iss":"https://n","aud":"ekl:agent:p","iat":1000,"exp":1060}"#);
    let long = t.file(br#"{"iss":"https://n","aud":"ekl:agent:p","iat":1000,"exp":999999}"#);
    let no_exp = t.file(br#"{"iss":"https://n","aud":"ekl:agent:p","iat":1000}"#);
    let dup = t.file(br#"{"iss":"https://n","iss":"https://m","iat":1000,"exp":1060}"#);
    let sign = |typ: &str, seed: &str, kid: &str, file: &str| {
        let named = strs(&["--typ", typ, "--seed", seed, "--kid", kid, file]);
        let call = [
            a("typ", typ),
            f("claims", file),
            a("key", &format!("{seed}:{kid}")),
        ]
        .concat();
        twin("jws sign", "sign_jws", Output::Text, &named, &call)
    };
    let (code, token) = sign("ekl-access+jwt", SEED, "n1", &claims);
    assert_eq!(code, 0);
    let token = token.trim().to_owned();
    let (_, long_token) = sign("ekl-access+jwt", SEED, "n1", &long);
    let (_, other_token) = sign("ekl-access+jwt", OTHER_SEED, "n1", &claims);
    for (typ, seed, kid, file) in [
        ("ekl-receipt+jwt", SEED, "n1", &claims),
        ("application/ekl-access+jwt", SEED, "n1", &claims),
        ("ekl-access+jwt", "00", "n1", &claims),
        ("ekl-access+jwt", &SEED.to_uppercase(), "n1", &claims),
        ("ekl-access+jwt", SEED, "", &claims),
        ("ekl-access+jwt", SEED, "n1", &no_exp),
        ("ekl-access+jwt", SEED, "n1", &dup),
    ] {
        sign(typ, seed, kid, file);
    }

    // The key sets: public and private, good and bad seeds and kids.
    for (seed, kids, list) in [
        (SEED, "n1", r#"["n1"]"#),
        (SEED, "a,b", r#"["a","b"]"#),
        (SEED, "a,,b", r#"["a","","b"]"#),
        (SEED, "a,a", r#"["a","a"]"#),
        ("00", "n1", r#"["n1"]"#),
        ("zz", "n1", r#"["n1"]"#),
    ] {
        let named = strs(&["--seed", seed, "--kid", kids]);
        let call = [a("seed", seed), a("kids", list)].concat();
        twin(
            "jwks from-seed",
            "jwks_from_seed",
            Output::Json,
            &named,
            &call,
        );
        let mut private = named.clone();
        private.push("--private".into());
        twin(
            "jwks from-seed",
            "jwks_from_seed",
            Output::PrivateKeys,
            &private,
            &call,
        );
    }
    let (_, jwks) = twin(
        "jwks from-seed",
        "jwks_from_seed",
        Output::Json,
        &strs(&["--seed", SEED, "--kid", "n1"]),
        &[a("seed", SEED), a("kids", r#"["n1"]"#)].concat(),
    );
    let jwks = t.file(jwks.trim_end());
    let (_, other_kid) = twin(
        "jwks from-seed",
        "jwks_from_seed",
        Output::Json,
        &strs(&["--seed", SEED, "--kid", "n2"]),
        &[a("seed", SEED), a("kids", r#"["n2"]"#)].concat(),
    );
    let other_kid = t.file(other_kid.trim_end());
    let empty_set = t.file(br#"{"keys":[]}"#);
    let broken_set = t.file(br#"{"keys":[}"#);
    let dup_set = t.file(br#"{"keys":[],"keys":[]}"#);

    let verify =
        |typ: &str, jwks: &str, now: Option<&str>, extra: &[(&str, &str, &str)], token: &str| {
            let mut named = strs(&["--typ", typ, "--jwks", jwks]);
            let mut call = [a("token", token), a("typ", typ), f("jwks", jwks)].concat();
            if let Some(n) = now {
                // `--now -inf` would be an option: such a value is given as `--now=-inf`.
                if n.starts_with('-') && !n[1..].starts_with(|c: char| c.is_ascii_digit()) {
                    named.push(format!("--now={n}"));
                } else {
                    named.extend(strs(&["--now", n]));
                }
                call.extend(a("now", n));
            }
            for (flag, name, value) in extra {
                named.extend(strs(&[flag, value]));
                call.extend(a(name, value));
            }
            named.extend(strs(&["--token", token]));
            twin("jws verify", "verify_jws", Output::Json, &named, &call)
        };
    // `now`: seconds, fractions floored, milliseconds refused, negative, not a number; expired,
    // not yet valid, at the edges of the skew.
    for now in [
        "1030",
        "1030.5",
        "1059.9",
        "1000.0",
        "1e3",
        "1120",
        "1120.999",
        "1121",
        "939",
        "940",
        "0",
        "-5",
        "-0.5",
        "100000000000",
        "99999999999",
        "99999999999.5",
        "-99999999999.5",
        "-100000000000",
        "1e11",
        "1e300",
        "123456789012345678901234567890",
        "soon",
        "NaN",
        "inf",
        "-inf",
        "",
        "0x10",
        "1.5.5",
    ] {
        verify("ekl-access+jwt", &jwks, Some(now), &[], &token);
    }
    // Lifetimes and issuers.
    verify(
        "ekl-access+jwt",
        &jwks,
        Some("1030"),
        &[],
        long_token.trim(),
    );
    for extra in [
        [
            ("--iss", "issuer", "https://n"),
            ("--aud", "audience", "ekl:agent:p"),
        ],
        [
            ("--iss", "issuer", "https://m"),
            ("--aud", "audience", "ekl:agent:p"),
        ],
        [
            ("--iss", "issuer", "https://n"),
            ("--aud", "audience", "ekl:agent:q"),
        ],
    ] {
        verify("ekl-access+jwt", &jwks, Some("1030"), &extra, &token);
    }
    // Types, key sets and tokens that do not verify.
    for typ in ["ekl-receipt+jwt", "application/ekl-access+jwt", "x"] {
        verify(typ, &jwks, Some("1030"), &[], &token);
    }
    for set in [&other_kid, &empty_set, &broken_set, &dup_set] {
        verify("ekl-access+jwt", set, Some("1030"), &[], &token);
    }
    verify(
        "ekl-access+jwt",
        &jwks,
        Some("1030"),
        &[],
        other_token.trim(),
    );
    let mut tampered = token.clone();
    tampered.replace_range(token.len() - 4.., "AAAA");
    for tok in [tampered.as_str(), "abc", "a.b.c"] {
        verify("ekl-access+jwt", &jwks, Some("1030"), &[], tok);
    }
    // The clock: a token of 1970 is expired now, on both.
    verify("ekl-access+jwt", &jwks, None, &[], &token);
}

fn the_receipt_commands() {
    let mut t = Files::new("receipts");
    let d = vector("call-receipt.json");
    let secret = d["receipt_secret"].as_str().expect("secret").to_owned();
    let receipt = t.file(d["receipt"].to_string());
    let not_receipt = t.file(b"[1]");
    let dup = t.file(br#"{"a":1,"a":2}"#);
    // receipt issue: every issue case of the vectors (explicit salts and time: the same bytes on
    // both), and a non-JSON input.
    let not_json = t.file(b"{\"q\": ");
    for case in d["issue"]["cases"].as_array().expect("issue cases") {
        let file = |t: &mut Files, k: &str| t.file(case[k].to_string());
        let (callf, inf, outf) = (
            file(&mut t, "call"),
            file(&mut t, "input"),
            file(&mut t, "output"),
        );
        let text = |k: &str| match &case[k] {
            J::String(s) => s.clone(),
            other => other.to_string(),
        };
        let inputs: Vec<&str> = if case["name"] == "customer call" {
            vec![inf.as_str(), not_json.as_str()]
        } else {
            vec![inf.as_str()]
        };
        for input in inputs {
            let mut named = strs(&["--call", &callf, "--input", input, "--output", &outf]);
            let mut call = [f("call", &callf), f("input", input), f("output", &outf)].concat();
            for (flag, name) in [
                ("--status", "status"),
                ("--rel-ver-at-admission", "rel_ver_at_admission"),
                ("--dsc-ver", "dsc_ver"),
                ("--secret", "secret"),
                ("--issued-at", "issued_at"),
                ("--input-salt", "input_salt"),
                ("--output-salt", "output_salt"),
                ("--key-id", "key_id"),
                ("--receipt-id", "receipt_id"),
            ] {
                if case.get(name).is_some() {
                    named.extend(strs(&[flag, &text(name)]));
                    call.extend(a(name, &text(name)));
                }
            }
            let (code, out) = twin(
                "receipt issue",
                "issue_mac_receipt",
                Output::Json,
                &named,
                &call,
            );
            let want = if input == not_json {
                None
            } else {
                case.get("expected")
            };
            match want {
                Some(expected) => {
                    assert_eq!(code, 0, "{}", case["name"]);
                    let got: J = serde_json::from_str(&out).expect("json");
                    assert_eq!(&got, expected, "{}", case["name"]);
                }
                None => assert_eq!(code, 2, "{}", case["name"]),
            }
        }
    }

    let (code, signed) = twin(
        "receipt sign",
        "sign_receipt",
        Output::Json,
        &strs(&["--secret", &secret, &receipt]),
        &[f("receipt", &receipt), a("secret", &secret)].concat(),
    );
    assert_eq!(code, 0);
    let signed = t.file(signed.trim_end());
    for file in [&signed, &not_receipt, &dup] {
        twin(
            "receipt sign",
            "sign_receipt",
            Output::Json,
            &strs(&["--secret", &secret, file]),
            &[f("receipt", file), a("secret", &secret)].concat(),
        );
    }
    for file in [&signed, &receipt, &not_receipt, &dup] {
        twin(
            "receipt digest",
            "receipt_digest",
            Output::Text,
            std::slice::from_ref(file),
            &f("receipt", file),
        );
    }

    let call = t.file(d["call"].to_string());
    let mut other_call = d["call"].clone();
    other_call["execution_id"] = J::from("ex_other");
    let other_call = t.file(other_call.to_string());
    let bad_call = t.file(br#"{"execution_id":1}"#);
    let ring = t.file(d["key_ring"]["keys"].to_string());
    let bad_ring = t.file(br#"[{"key_id":"k"}]"#);
    let input = t.file(d["input"].to_string());
    let result = t.file(d["result"].to_string());
    let mut other = d["result"].clone();
    other["total"] = J::from(41.5);
    let other = t.file(other.to_string());
    // The commitments `ekl call` is given for --own-input / --own-result.
    let commitment = |file: &str, salt: Option<&str>| {
        let mut argv = vec!["call".to_owned(), "commitment".to_owned()];
        argv.extend(f("value", file));
        if let Some(s) = salt {
            argv.extend(a("salt", s));
        }
        let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
        let (code, out, err) = ekl_env(&argv, b"", &[]);
        (code, String::from_utf8(out).expect("utf-8"), err)
    };
    let secret_json = serde_json::to_string(&secret).expect("json");
    for (keys_flag, keys_value, keys_arg) in [
        ("--secret", secret.as_str(), a("keys", &secret_json)),
        ("--secret", "other", a("keys", r#""other""#)),
        ("--key-ring", ring.as_str(), f("keys", &ring)),
        ("--key-ring", bad_ring.as_str(), f("keys", &bad_ring)),
    ] {
        for (receipt, call) in [
            (&signed, &call),
            (&signed, &other_call),
            (&signed, &bad_call),
            (&receipt, &call),
            (&not_receipt, &call),
            (&dup, &call),
        ] {
            let named = strs(&[keys_flag, keys_value, "--call", call, receipt]);
            let args = [f("receipt", receipt), keys_arg.clone(), f("call", call)].concat();
            twin(
                "receipt verify",
                "verify_receipt",
                Output::Json,
                &named,
                &args,
            );
        }
        // Your own copies of the input and result, salted or not.
        for (own_in, own_out, salt) in [
            (&input, &result, None),
            (&input, &other, None),
            (&input, &result, Some(SALT)),
            (&input, &dup, None),
            (&input, &result, Some("00")),
        ] {
            let mut named = strs(&[keys_flag, keys_value, "--call", &call]);
            named.extend(strs(&["--own-input", own_in, "--own-result", own_out]));
            if let Some(s) = salt {
                named.extend(strs(&["--salt", s]));
            }
            named.push(signed.clone());
            let (ci, cin, ein) = commitment(own_in, salt);
            let (co, cout, eout) = commitment(own_out, salt);
            if ci != 0 || co != 0 {
                // The commitment is refused: so is the command, with that refusal.
                let (code, _, err) = {
                    let argv: Vec<&str> = ["receipt", "verify"]
                        .into_iter()
                        .chain(named.iter().map(String::as_str))
                        .collect();
                    ekl_env(&argv, b"", &[])
                };
                assert_eq!(code, 2);
                assert_eq!(err, if ci != 0 { ein } else { eout });
                continue;
            }
            let args = [
                f("receipt", &signed),
                keys_arg.clone(),
                f("call", &call),
                f("input_commitment", &t.file(cin.trim_end())),
                f("output_commitment", &t.file(cout.trim_end())),
            ]
            .concat();
            twin(
                "receipt verify",
                "verify_receipt",
                Output::Json,
                &named,
                &args,
            );
        }
    }

    // Network-signed receipts (vectors/receipt-jws.json).
    let v = vector("receipt-jws.json");
    let jwks = t.file(v["jwks"].to_string());
    let call = t.file(v["call"].to_string());
    let bad_jwks = t.file(br#"{"keys":1}"#);
    for case in v["cases"].as_array().expect("cases") {
        for (set, c) in [(&jwks, &call), (&jwks, &bad_call), (&bad_jwks, &call)] {
            if let Some(token) = case["receipt_jws"].as_str() {
                let named = strs(&["--jwks", set, "--call", c, "--token", token]);
                let args = [a("token", token), f("jwks", set), f("call", c)].concat();
                twin(
                    "receipt verify-jws",
                    "verify_receipt_jws",
                    Output::Json,
                    &named,
                    &args,
                );
            }
            if case["receipt"].is_object() {
                let r = t.file(case["receipt"].to_string());
                let named = strs(&["--jwks", set, "--call", c, &r]);
                let args = [f("receipt", &r), f("jwks", set), f("call", c)].concat();
                twin(
                    "receipt verify-signed",
                    "verify_signed_receipt",
                    Output::Json,
                    &named,
                    &args,
                );
            }
        }
    }
    for file in [&not_receipt, &dup] {
        let named = strs(&["--jwks", &jwks, "--call", &call, file]);
        let args = [f("receipt", file), f("jwks", &jwks), f("call", &call)].concat();
        twin(
            "receipt verify-signed",
            "verify_signed_receipt",
            Output::Json,
            &named,
            &args,
        );
    }
}

fn the_proof_commands() {
    let d = vector("endpoint-proof-v2.json");
    let st = |v: &J, k: &str| v[k].as_str().expect("string").to_owned();
    let (ak, pk, hash) = (
        st(&d, "agent_key"),
        st(&d, "proof_key"),
        st(&d, "agent_key_sha256"),
    );
    for key in [ak.as_str(), "", "ak ü"] {
        twin(
            "proof key",
            "proof_key",
            Output::Text,
            &strs(&["--agent-key", key]),
            &a("agent_key", key),
        );
    }
    let mut t = Files::new("proofs");
    let key_file = t.file(format!("{ak}\n"));
    twin(
        "proof key",
        "proof_key",
        Output::Text,
        std::slice::from_ref(&key_file),
        &a("agent_key", &ak),
    );

    for c in d["challenges"].as_array().expect("challenges") {
        let (ch, ep) = (st(c, "challenge"), st(c, "endpoint"));
        let target = strs(&["--challenge", &ch, "--endpoint", &ep]);
        let call_target = [a("challenge", &ch), a("endpoint", &ep)].concat();
        for key in [pk.as_str(), "zz", &pk.to_uppercase(), ""] {
            let named = [target.clone(), strs(&["--proof-key", key])].concat();
            let args = [a("proof_key", key), call_target.clone()].concat();
            twin(
                "proof challenge",
                "challenge_proof_v2",
                Output::Text,
                &named,
                &args,
            );
        }
        // From the agent key: its proof key (the proof_key operation).
        let named = [target.clone(), strs(&["--agent-key", &ak])].concat();
        let args = [a("proof_key", &pk), call_target.clone()].concat();
        twin(
            "proof challenge",
            "challenge_proof_v2",
            Output::Text,
            &named,
            &args,
        );
        let named = [target.clone(), strs(&["--agent-key", &ak, "--v1"])].concat();
        let args = [a("credential", &ak), call_target.clone()].concat();
        twin(
            "proof challenge",
            "challenge_proof_v1",
            Output::Text,
            &named,
            &args,
        );

        // The network side: what it holds and what it received.
        for (holds, holds_arg) in [
            (strs(&["--proof-key", &pk]), a("proof_key", &pk)),
            (
                strs(&["--credential-sha256", &hash]),
                a("credential_hash", &hash),
            ),
            (strs(&["--proof-key", "zz"]), a("proof_key", "zz")),
            (
                strs(&["--credential-sha256", "00"]),
                a("credential_hash", "00"),
            ),
        ] {
            for (received, received_arg) in [
                (
                    strs(&["--proof-v2", &st(c, "proof_v2")]),
                    a("proof_v2", &st(c, "proof_v2")),
                ),
                (
                    strs(&["--proof", &st(c, "proof")]),
                    a("proof", &st(c, "proof")),
                ),
                (vec![], vec![]),
                (strs(&["--proof-v2", "00"]), a("proof_v2", "00")),
            ] {
                let named = [target.clone(), holds.clone(), received].concat();
                let args = [call_target.clone(), holds_arg.clone(), received_arg].concat();
                twin(
                    "proof verify-challenge",
                    "verify_challenge_proof",
                    Output::Text,
                    &named,
                    &args,
                );
            }
        }
    }

    let e = &d["enroll"][0];
    let n = strs(&[
        "--enrollment-id",
        &st(e, "enrollment_id"),
        "--nonce",
        &st(e, "nonce"),
        "--endpoint",
        &st(e, "endpoint"),
    ]);
    let call_n = [
        a("enrollment_id", &st(e, "enrollment_id")),
        a("nonce", &st(e, "nonce")),
        a("endpoint", &st(e, "endpoint")),
    ]
    .concat();
    let named = [n.clone(), strs(&["--agent-key", &ak])].concat();
    twin(
        "proof enroll",
        "enroll_authority_v2",
        Output::Text,
        &named,
        &[a("proof_key", &pk), call_n.clone()].concat(),
    );
    let named = [n.clone(), strs(&["--agent-key", &ak, "--v1"])].concat();
    twin(
        "proof enroll",
        "enroll_authority_v1",
        Output::Text,
        &named,
        &[a("agent_key", &ak), call_n.clone()].concat(),
    );
    for (announced, authority, version) in [
        ("v2", st(e, "authority_v2"), None),
        ("v2", st(e, "authority_v2"), Some("2")),
        ("v2", st(e, "authority_v1"), None),
        ("v1", st(e, "authority_v1"), None),
        ("v1", st(e, "authority_v1"), Some("1")),
        ("v3", st(e, "authority_v2"), None),
        ("v2", st(e, "authority_v2"), Some("3")),
        ("v2", st(e, "authority_v2"), Some("-1")),
        ("v2", st(e, "authority_v2"), Some("5000000000")),
        ("v2", st(e, "authority_v2"), Some("two")),
        ("v2", "0".repeat(64), None),
    ] {
        let mut named = [
            strs(&["--announced", announced, "--agent-key", &ak]),
            n.clone(),
        ]
        .concat();
        named.extend(strs(&["--authority", &authority]));
        let mut args = [
            a("announced", announced),
            a("agent_key", &ak),
            call_n.clone(),
        ]
        .concat();
        args.extend(a("authority", &authority));
        if let Some(v) = version {
            named.extend(strs(&["--authority-version", v]));
            args.extend(a("authority_version", v));
        }
        twin(
            "proof verify-enroll",
            "verify_enroll_authority",
            Output::Text,
            &named,
            &args,
        );
    }

    let s = &d["verify_signature"][0];
    let named = strs(&[
        "--secret",
        &st(s, "registration_secret"),
        "--agent-id",
        &st(s, "agent_id"),
        "--enrollment-id",
        &st(s, "enrollment_id"),
        "--challenge",
        &st(s, "challenge"),
    ]);
    let args = [
        a("registration_secret", &st(s, "registration_secret")),
        a("agent_id", &st(s, "agent_id")),
        a("enrollment_id", &st(s, "enrollment_id")),
        a("challenge", &st(s, "challenge")),
    ]
    .concat();
    let (_, sig) = twin(
        "proof verify-signature",
        "verify_signature",
        Output::Text,
        &named,
        &args,
    );
    assert_eq!(sig.trim(), st(s, "signature"));
    for signature in [st(s, "signature"), "0".repeat(64), String::new()] {
        let named = [named.clone(), strs(&["--signature", &signature])].concat();
        let args = [args.clone(), a("signature", &signature)].concat();
        twin(
            "proof verify-signature",
            "check_verify_signature",
            Output::Check,
            &named,
            &args,
        );
    }
}

/// Operations no named command can make refuse: every string is a valid input.
const NEVER_REFUSE: &[&str] = &[
    "proof_key",
    "challenge_proof_v1",
    "enroll_authority_v1",
    "enroll_authority_v2",
    "verify_signature",
    "check_verify_signature",
];

/// Every alias of the table, next to its twin, on the cases above (four groups at once); then
/// every alias must have had cases, ones that succeed and ones that are refused.
#[test]
fn every_alias_agrees_with_its_twin() {
    std::thread::scope(|s| {
        for group in [
            the_json_commands as fn(),
            the_jws_commands,
            the_receipt_commands,
            the_proof_commands,
        ] {
            s.spawn(group);
        }
    });
    let seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
    let mut aliases = 0;
    for (command, named) in NAMED {
        let Named::Alias(ops) = named else { continue };
        for x in *ops {
            aliases += 1;
            let key = (
                command.to_string(),
                x.op.to_owned(),
                format!("{:?}", x.output),
            );
            let codes = seen.get(&key).unwrap_or_else(|| {
                panic!("no twin case for {key:?}: add one to cli/tests/cli_twins.rs")
            });
            assert!(codes.contains(&0), "{key:?}: no case that succeeds");
            assert!(
                codes.contains(&2) || NEVER_REFUSE.contains(&x.op),
                "{key:?}: no case that is refused"
            );
        }
    }
    assert!(aliases >= 27, "{aliases}");
    let total: usize = seen.values().map(Vec::len).sum();
    let refused: usize = seen.values().flatten().filter(|&&c| c == 2).count();
    let rejected: usize = seen.values().flatten().filter(|&&c| c == 1).count();
    eprintln!("twin cases: {total}; refused {refused}; not accepted {rejected}");
    assert!(
        total >= 300 && refused >= 100 && rejected >= 10,
        "{total} {refused} {rejected}"
    );
}

/// The commands `ekl --help` lists are the table's (the unit test holds the table to the parser).
#[test]
fn the_table_is_the_commands_of_the_help() {
    let (code, out, _) = ekl_env(&["--help"], b"", &[]);
    assert_eq!(code, 0);
    let out = String::from_utf8(out).expect("utf-8");
    let commands = out.split("Commands").nth(1).expect("a Commands section");
    let mut listed: Vec<&str> = commands
        .lines()
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.trim_start().split("  ").next())
        .filter(|c| *c != "help")
        .collect();
    listed.sort_unstable();
    let mut table: Vec<&str> = NAMED.iter().map(|(c, _)| *c).collect();
    table.sort_unstable();
    assert_eq!(listed, table);
}

/// `receipt verify-archive` is host-only (it streams); each of its lines is the item of
/// `verify_receipt_lines` on the same archive.
#[test]
fn the_archive_lines_are_the_items_of_verify_receipt_lines() {
    let mut t = Files::new("archive");
    let d = vector("call-receipt.json");
    let secret = d["receipt_secret"].as_str().expect("secret");
    let receipt = t.file(d["receipt"].to_string());
    let signed = ekl_env(&["receipt", "sign", "--secret", secret, &receipt], b"", &[]).1;
    let signed: J = serde_json::from_slice(&signed).expect("json");
    let mut tampered = signed.clone();
    tampered["execution_id"] = J::from("ex_other");
    let v = vector("receipt-jws.json");
    let jws = |name: &str| {
        v["cases"]
            .as_array()
            .expect("cases")
            .iter()
            .find(|c| c["name"] == name)
            .expect("case")["receipt_jws"]
            .clone()
    };
    let lines = [
        serde_json::json!({"receipt": signed, "call": d["call"]}).to_string(),
        serde_json::json!({"receipt": tampered, "call": d["call"]}).to_string(),
        String::new(),
        serde_json::json!({"receipt_jws": jws("valid"), "call": v["call"]}).to_string(),
        serde_json::json!({"receipt_jws": jws("input_fingerprint_mismatch"), "call": v["call"]})
            .to_string(),
        "[1,]".to_owned(),
        r#"{"receipt":{},"receipt":{}}"#.to_owned(),
    ];
    let archive = t.file(lines.join("\n"));
    let jwks = t.file(v["jwks"].to_string());
    let (code, out, err) = ekl_env(
        &[
            "receipt",
            "verify-archive",
            "--jobs",
            "2",
            "--secret",
            secret,
            "--jwks",
            &jwks,
            &archive,
        ],
        b"",
        &[],
    );
    assert_eq!(code, 1, "{err}");
    let secret_json = serde_json::to_string(secret).expect("json");
    let (ccode, cout, cerr) = ekl_env(
        &[
            "call",
            "verify_receipt_lines",
            "--arg-file",
            &format!("lines={archive}"),
            "--arg",
            &format!("keys={secret_json}"),
            "--arg-file",
            &format!("jwks={jwks}"),
            "--arg",
            "jobs=2",
        ],
        b"",
        &[],
    );
    assert_eq!(ccode, 0, "{cerr}");
    let items: Vec<J> = serde_json::from_slice(&cout).expect("json");
    let got: Vec<J> = String::from_utf8(out)
        .expect("utf-8")
        .lines()
        .map(|l| {
            let mut v: J = serde_json::from_str(l).expect("json line");
            let o = v.as_object_mut().expect("object");
            o.remove("line");
            match o.remove("verdict") {
                Some(verdict) => verdict,
                None => v,
            }
        })
        .collect();
    assert_eq!(got.len(), 6);
    assert_eq!(got, items);
    let accepted: Vec<&J> = items.iter().map(|i| &i["accepted"]).collect();
    assert_eq!(
        accepted,
        [
            &J::Bool(true),
            &J::Bool(false),
            &J::Bool(true),
            &J::Bool(false),
            &J::Null,
            &J::Null
        ]
    );
}
