//! Output for people (docs/decisions.md#first-minutes). One rule for every command that prints a
//! verdict or a verified token (`receipt verify`, `receipt verify-jws`, `receipt verify-signed`,
//! `receipt verify-archive`, `jws verify`, `ekl call verify_*`): when stdout is a terminal they
//! print a short form for people, the verdict first (ACCEPTED or NOT ACCEPTED), then the checks
//! that did not pass, one a line with their plain words (`ekl_core::verdict::CHECK_WORDS`), why,
//! and what was expected and found, then the checks that passed; when stdout is not a terminal (a
//! pipe, a file) they print the JSON, byte for byte as without this rule. `--format human|json`
//! chooses either form. The exit status is the same in both forms; every other command prints the
//! same bytes in both.
//!
//! The human form is made from the JSON the command prints (read back with the core's parser), so
//! the two forms cannot say different things; a result this module does not know is printed as
//! JSON.

use std::io::IsTerminal;

use ekl_core::canonical;
use ekl_core::verdict::{check_words, json_shown, seconds_shown, Outcome, Verdict};
use ekl_core::Value;

use crate::args::{Command, JwsCommand, ReceiptCommand};

/// The form of a verdict or a verified token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Format {
    /// For people: the verdict, then the checks that did not pass in plain words.
    Human,
    /// The JSON, as printed to a pipe.
    Json,
}

/// The form to print in: `given` (`--format`), else human when stdout is a terminal, else JSON.
pub(crate) fn chosen(given: Option<Format>) -> Format {
    given.unwrap_or_else(|| {
        if std::io::stdout().is_terminal() {
            Format::Human
        } else {
            Format::Json
        }
    })
}

/// Whether `command` prints a verdict or a verified token (and so has a human form).
pub(crate) fn applies(command: &Command) -> bool {
    match command {
        Command::Receipt(
            ReceiptCommand::Verify { .. }
            | ReceiptCommand::VerifyJws { .. }
            | ReceiptCommand::VerifySigned { .. },
        ) => true,
        Command::Jws(JwsCommand::Verify { .. }) => true,
        Command::Call(a) if !a.list => a.name.as_deref().is_some_and(|name| {
            name.starts_with("verify_")
                && ekl_bridge::find(name).is_some_and(|op| {
                    matches!(
                        op.returns,
                        ekl_bridge::Returns::Verdict
                            | ekl_bridge::Returns::Verdicts
                            | ekl_bridge::Returns::Value(_)
                    )
                })
        }),
        _ => false,
    }
}

/// The human form of what a command printed as JSON (one document and a line end): a verdict, a
/// list of verdicts or a verified token. `None` when `json` is none of them (it is then printed
/// as it is).
pub(crate) fn render(json: &[u8]) -> Option<Vec<u8>> {
    let text = json.strip_suffix(b"\n").unwrap_or(json);
    let value = canonical::parse(text).ok()?;
    let out = match &value {
        Value::Object(_) if is_verdict(&value) => verdict(&value),
        Value::Object(_) => verified(&value),
        Value::Array(items) => verdicts(items)?,
        _ => return None,
    };
    Some(out.into_bytes())
}

fn is_verdict(v: &Value<'_>) -> bool {
    matches!(v.get("accepted"), Some(Value::Bool(_)))
        && matches!(v.get("checks"), Some(Value::Array(_)))
}

/// One check of a verdict's JSON: name, outcome, detail, expected, received.
struct CheckText<'a> {
    name: &'a str,
    outcome: &'a str,
    detail: Option<&'a str>,
    expected: Option<&'a str>,
    received: Option<&'a str>,
}

fn checks_of<'a>(v: &'a Value<'a>) -> Vec<CheckText<'a>> {
    let Some(Value::Array(items)) = v.get("checks") else {
        return Vec::new();
    };
    items
        .iter()
        .map(|c| CheckText {
            name: c.get("name").and_then(Value::as_str).unwrap_or("?"),
            outcome: c.get("outcome").and_then(Value::as_str).unwrap_or("?"),
            detail: c.get("detail").and_then(Value::as_str),
            expected: c.get("expected").and_then(Value::as_str),
            received: c.get("received").and_then(Value::as_str),
        })
        .collect()
}

/// The plain words of a check, or its id alone when it has none.
fn words(name: &str) -> &str {
    check_words(name).unwrap_or("")
}

/// A verdict for people:
///
/// ```text
/// NOT ACCEPTED: 1 of 14 checks did not pass
///   FAIL  auth_tag          MAC tag over the receipt
///                           why: does not verify under key_id "rk-1": the receipt changed ...
///   pass  key_id            receipt key known and valid at issue time
///   ...
/// receipt digest: 3f2a...
/// ```
pub(crate) fn verdict(v: &Value<'_>) -> String {
    let checks = checks_of(v);
    let accepted = v.get("accepted") == Some(&Value::Bool(true));
    let failing: Vec<&CheckText> = checks.iter().filter(|c| c.outcome != "pass").collect();
    let mut out = if accepted {
        format!("ACCEPTED: all {} checks passed\n", checks.len())
    } else {
        format!(
            "NOT ACCEPTED: {} of {} checks did not pass\n",
            failing.len(),
            checks.len()
        )
    };
    if !accepted && !failing.is_empty() && failing.iter().all(|c| c.outcome == "mismatch") {
        out.push_str(
            "  (a dispute: the evidence is authentic but differs from your own copy; report it)\n",
        );
    }
    let id_width = checks.iter().map(|c| c.name.len()).max().unwrap_or(0);
    let tag_width = if failing.iter().any(|c| c.outcome == "mismatch") {
        8
    } else {
        4
    };
    let pad = " ".repeat(2 + tag_width + 2 + id_width + 2);
    let ordered = failing
        .iter()
        .copied()
        .chain(checks.iter().filter(|c| c.outcome == "pass"));
    for c in ordered {
        let tag = match c.outcome {
            "pass" => "pass".to_owned(),
            other => other.to_uppercase(),
        };
        let line = format!(
            "  {tag:tag_width$}  {:id_width$}  {}",
            c.name,
            words(c.name)
        );
        out.push_str(line.trim_end());
        out.push('\n');
        if c.outcome != "pass" {
            for (label, text) in [
                ("why", c.detail),
                ("expected", c.expected),
                ("received", c.received),
            ] {
                if let Some(t) = text {
                    out.push_str(&format!("{pad}{label}: {}\n", safe(t)));
                }
            }
        }
    }
    if let Some(d) = v.get("receipt_digest").and_then(Value::as_str) {
        out.push_str(&format!("receipt digest: {d}\n"));
    }
    out
}

/// One line for a verdict: `ACCEPTED`, or `NOT ACCEPTED: id (words); id (words)`.
pub(crate) fn verdict_line(v: &Verdict) -> String {
    if v.accepted {
        return "ACCEPTED".to_owned();
    }
    let failing: Vec<String> = v
        .checks
        .iter()
        .filter(|c| c.outcome != Outcome::Pass)
        .map(|c| match check_words(c.name) {
            Some(w) => format!("{} ({w})", c.name),
            None => c.name.to_owned(),
        })
        .collect();
    format!("NOT ACCEPTED: {}", failing.join("; "))
}

/// A list of verdicts (`verify_receipts`, `verify_receipt_lines`): a count, then one line an item.
fn verdicts(items: &[Value<'_>]) -> Option<String> {
    let (mut accepted, mut rejected, mut refused) = (0, 0, 0);
    let mut lines = String::new();
    for (i, item) in items.iter().enumerate() {
        let n = i + 1;
        if let Some(e) = item.get("error") {
            refused += 1;
            let code = e.get("code").and_then(Value::as_str).unwrap_or("?");
            let message = e.get("message").and_then(Value::as_str).unwrap_or("");
            lines.push_str(&format!(
                "item {n}: REFUSED: {}: {}\n",
                safe(code),
                safe(message)
            ));
        } else if is_verdict(item) {
            let checks = checks_of(item);
            if item.get("accepted") == Some(&Value::Bool(true)) {
                accepted += 1;
                lines.push_str(&format!("item {n}: ACCEPTED\n"));
            } else {
                rejected += 1;
                let failing: Vec<String> = checks
                    .iter()
                    .filter(|c| c.outcome != "pass")
                    .map(|c| match check_words(c.name) {
                        Some(w) => format!("{} ({w})", c.name),
                        None => c.name.to_owned(),
                    })
                    .collect();
                lines.push_str(&format!("item {n}: NOT ACCEPTED: {}\n", failing.join("; ")));
            }
        } else {
            return None;
        }
    }
    Some(format!(
        "{} items: {accepted} accepted, {rejected} not accepted, {refused} refused\n{lines}",
        items.len()
    ))
}

/// The longest id [`item_ids`] shows in full (a longer one is cut, with `…`).
const ID_CHARS: usize = 64;

/// `, label "L", receipt R, execution E`: what names an archive item (`ekl_core::batch`): its
/// `label` (a string, always shown: the archive's own name for the item), and with `ids` (an
/// item that did not pass) the ids to find it by: its receipt's `receipt_id`, its receipt's
/// `execution_id` or else its call's. Empty when the item is not JSON or holds none of them (a
/// token's ids are inside the token).
pub(crate) fn item_ids(item: &[u8], ids: bool) -> String {
    let Ok(v) = canonical::parse(item) else {
        return String::new();
    };
    let of = |at: &str, name: &str| v.get(at).and_then(|x| x.get(name)).and_then(Value::as_str);
    let shown = |id: &str| {
        let cut: String = id.chars().take(ID_CHARS).collect();
        let more = if cut.len() < id.len() { "…" } else { "" };
        format!("{}{more}", safe(&cut))
    };
    let mut out = String::new();
    if let Some(l) = v.get("label").and_then(Value::as_str) {
        out.push_str(&format!(", label \"{}\"", shown(l)));
    }
    if !ids {
        return out;
    }
    if let Some(r) = of("receipt", "receipt_id") {
        out.push_str(&format!(", receipt {}", shown(r)));
    }
    if let Some(e) = of("receipt", "execution_id").or_else(|| of("call", "execution_id")) {
        out.push_str(&format!(", execution {}", shown(e)));
    }
    out
}

/// The report of `ekl mcp` (`{pages, projection, server, tools, upstream_fingerprint}`, canonical
/// JSON) for people: the fingerprint, the server, the pages read and the tools listed, then the
/// names of the tools fingerprinted (the projection's), wrapped. `None` when `json` is not that
/// report (it is then printed as it is).
pub(crate) fn mcp_report(json: &[u8]) -> Option<Vec<u8>> {
    let text = json.strip_suffix(b"\n").unwrap_or(json);
    let v = canonical::parse(text).ok()?;
    let fingerprint = v.get("upstream_fingerprint")?.as_str()?;
    let Some(Value::Array(projection)) = v.get("projection") else {
        return None;
    };
    let number = |name: &str| match v.get(name) {
        Some(Value::Number(n)) if n.fract() == 0.0 && *n >= 0.0 => Some(*n as u64),
        _ => None,
    };
    let (pages, listed) = (number("pages")?, number("tools")?);
    let server = v.get("server");
    let text_of = |name: &str| match server.and_then(|s| s.get(name)) {
        Some(Value::String(s)) => safe(s),
        Some(other) => safe(&json_shown(other)),
        None => "?".to_owned(),
    };
    let plural = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut out = format!("upstream fingerprint: {fingerprint}\n");
    out.push_str(&format!(
        "server: {} {} (MCP {})\n",
        text_of("name"),
        text_of("version"),
        text_of("protocol_version")
    ));
    out.push_str(&format!(
        "{} listed on {}; {} fingerprinted",
        plural(listed, "tool", "tools"),
        plural(pages, "page", "pages"),
        projection.len()
    ));
    let names: Vec<String> = projection
        .iter()
        .map(|t| {
            t.get("name")
                .and_then(Value::as_str)
                .map_or("?".into(), safe)
        })
        .collect();
    if names.is_empty() {
        out.push('\n');
    } else {
        out.push(':');
        let mut width = 100;
        for (i, name) in names.iter().enumerate() {
            let sep = if i + 1 < names.len() { "," } else { "" };
            if width + 1 + name.chars().count() + sep.len() > 100 {
                out.push_str("\n ");
                width = 1;
            }
            out.push(' ');
            out.push_str(name);
            out.push_str(sep);
            width += 1 + name.chars().count() + sep.len();
        }
        out.push('\n');
    }
    Some(out.into_bytes())
}

/// `text` as a terminal may show it: control characters (C0, DEL, C1: escape sequences, carriage
/// returns, a bell) and the bidirectional overrides and isolates written as `\u{…}`, so a token's
/// claims or kid cannot move the cursor, recolour or forge a line of the verdict.
fn safe(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}') {
            out.push_str(&format!("\\u{{{:04x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// Members holding seconds since the epoch, shown with their UTC time.
const TIMES: [&str; 4] = ["iat", "exp", "nbf", "auth_time"];

fn member_text(key: &str, v: &Value<'_>) -> String {
    match v {
        Value::Number(x) if TIMES.contains(&key) && x.fract() == 0.0 && x.abs() < 1e15 => {
            seconds_shown(*x as i64)
        }
        Value::String(s) => safe(s),
        other => safe(&json_shown(other)),
    }
}

fn members_text(out: &mut String, members: &[(std::borrow::Cow<'_, str>, Value<'_>)]) {
    let width = members.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
    for (k, v) in members {
        let k = safe(k);
        out.push_str(&format!("  {k:width$}  {}\n", member_text(&k, v)));
    }
}

/// A verified token for people: `VERIFIED: typ, signed by key kid`, then its members (times with
/// their UTC time), then its claims one a line.
fn verified(v: &Value<'_>) -> String {
    let typ = v.get("typ").and_then(Value::as_str).map(safe);
    let kid = v.get("kid").and_then(Value::as_str).map(safe);
    let mut out = String::from("VERIFIED");
    match (typ, kid) {
        (Some(t), Some(k)) => out.push_str(&format!(": {t}, signed by key {k}")),
        (Some(t), None) => out.push_str(&format!(": {t}")),
        (None, Some(k)) => out.push_str(&format!(": signed by key {k}")),
        (None, None) => {}
    }
    out.push('\n');
    let Some(members) = v.as_object() else {
        return out;
    };
    let top: Vec<_> = members
        .iter()
        .filter(|(k, _)| !matches!(k.as_ref(), "typ" | "kid" | "header" | "claims"))
        .cloned()
        .collect();
    members_text(&mut out, &top);
    if let Some(Value::Object(claims)) = v.get("claims") {
        out.push_str("claims:\n");
        members_text(&mut out, claims);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verdict_shows_the_failing_checks_first_with_their_words() {
        let json = br#"{"accepted":false,"checks":[{"name":"key_id","outcome":"pass"},{"detail":"does not verify","name":"auth_tag","outcome":"fail"},{"detail":"differs from the call","expected":"\"ex_1\"","name":"execution_id","outcome":"fail","received":"\"ex_2\""}],"receipt_digest":"ab"}
"#;
        let text = String::from_utf8(render(json).expect("a verdict")).expect("utf-8");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "NOT ACCEPTED: 2 of 3 checks did not pass");
        assert!(
            lines[1].starts_with("  FAIL  auth_tag      MAC tag over the receipt"),
            "{text}"
        );
        assert_eq!(lines[2].trim(), "why: does not verify");
        assert!(lines[3].starts_with("  FAIL  execution_id  execution id of your call"));
        assert_eq!(lines[5].trim(), "expected: \"ex_1\"");
        assert_eq!(lines[6].trim(), "received: \"ex_2\"");
        assert!(lines[7].starts_with("  pass  key_id"));
        assert_eq!(lines[8], "receipt digest: ab");
    }

    #[test]
    fn a_dispute_and_an_acceptance() {
        let json = br#"{"accepted":false,"checks":[{"name":"key_id","outcome":"pass"},{"detail":"d","name":"output_commitment","outcome":"mismatch"}],"receipt_digest":null}"#;
        let text = String::from_utf8(render(json).expect("a verdict")).expect("utf-8");
        assert!(text.contains("a dispute"), "{text}");
        assert!(
            text.contains("  MISMATCH  output_commitment  commitment to the result you received"),
            "{text}"
        );
        let json = br#"{"accepted":true,"checks":[{"name":"key_id","outcome":"pass"}],"receipt_digest":"d"}"#;
        let text = String::from_utf8(render(json).expect("a verdict")).expect("utf-8");
        assert!(
            text.starts_with("ACCEPTED: all 1 checks passed\n  pass  key_id  "),
            "{text}"
        );
    }

    #[test]
    fn a_verified_token_and_a_list_and_what_is_neither() {
        let json = br#"{"claims":{"aud":"x","iat":1780000000},"header":{"alg":"ES256"},"kid":"net-1","token_sha256":"ab","typ":"ekl-access+jwt"}"#;
        let text = String::from_utf8(render(json).expect("a token")).expect("utf-8");
        assert_eq!(
            text,
            "VERIFIED: ekl-access+jwt, signed by key net-1\n  token_sha256  ab\nclaims:\n  aud  x\n  iat  1780000000 (2026-05-28T20:26:40Z)\n"
        );
        let json =
            br#"[{"accepted":true,"checks":[]},{"error":{"code":"INVALID_JSON","message":"m"}}]"#;
        let text = String::from_utf8(render(json).expect("a list")).expect("utf-8");
        assert_eq!(
            text,
            "2 items: 1 accepted, 0 not accepted, 1 refused\nitem 1: ACCEPTED\nitem 2: REFUSED: INVALID_JSON: m\n"
        );
        assert!(render(b"\"v2\"\n").is_none());
        assert!(render(b"[1]").is_none());
        assert!(render(b"not json").is_none());
    }

    #[test]
    fn what_a_token_or_an_item_says_cannot_drive_the_terminal() {
        // claims, keys and the kid come from whoever signed the token: escape sequences, a
        // carriage return and line feed forging a line, a bell, a C1 CSI, a bidi override
        let json = br#"{"claims":{"iss":"n\u001b[31mRED","\u001b[2Jk":"v\r\nFAKE: ACCEPTED\u0007","x":["\u009b1m"],"y":"\u202eevil"},"kid":"k\u001b]0;t\u0007","typ":"ekl-access+jwt"}"#;
        let text = String::from_utf8(render(json).expect("a token")).expect("utf-8");
        assert!(
            !text
                .chars()
                .any(|c| (c.is_control() && c != '\n') || c == '\u{202e}'),
            "{text:?}"
        );
        assert!(!text.contains("\nFAKE"), "{text}");
        assert!(
            text.contains(r"n\u{001b}[31mRED") && text.contains(r"\u{000d}\u{000a}FAKE"),
            "{text}"
        );
        let json = br#"[{"error":{"code":"INVALID_JSON","message":"m\u001b[2J"}}]"#;
        let text = String::from_utf8(render(json).expect("a list")).expect("utf-8");
        assert!(
            text.ends_with("item 1: REFUSED: INVALID_JSON: m\\u{001b}[2J\n"),
            "{text}"
        );
    }
}
