//! `ekl mcp` against scripted stdio servers (`sh`): every page fingerprinted as the
//! `upstream_fingerprint` operation fingerprints the merged tools, `--expect`, refusals of what
//! crossed the wire, the deadline, a server that ends or cannot start, a request of the server,
//! a message beyond the cap. The real SDK servers (Python, TypeScript; stdio and Streamable HTTP)
//! are run by scripts/test/45-mcp.sh; HTTP framing and SSE by the unit tests of cli/src/mcp/.

mod common;

use std::time::{Duration, Instant};

use common::ekl_text;

const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"scripted","version":"0.9"}}}"#;

/// A server in `sh`: reads each message of the client and answers with the next line given
/// (`initialize`, then `notifications/initialized` with nothing, then one line a tools/list
/// page), then `tail` (shell code).
fn server(pages: &[&str], tail: &str) -> String {
    let mut s = format!("echo 'the server is up' >&2; read l; printf '%s\\n' '{INIT}'; read l; ");
    for p in pages {
        s.push_str(&format!("read l; printf '%s\\n' '{p}'; "));
    }
    s.push_str(tail);
    s
}

fn mcp(extra: &[&str], script: &str) -> (i32, String, String) {
    let mut args = vec!["mcp"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--", "sh", "-c", script]);
    ekl_text(&args, b"")
}

fn member<'a>(json: &'a serde_json::Value, k: &str) -> &'a serde_json::Value {
    json.get(k).unwrap_or_else(|| panic!("no {k} in {json}"))
}

const PAGE1: &str = r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"zeta","description":"Z","inputSchema":{"type":"object"},"title":"not counted"},{"name":"internal","inputSchema":{}}],"nextCursor":"2"}}"#;
const PAGE2: &str = r#"{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"Éclair","inputSchema":{"type":"object","properties":{"n":{"type":"number","maximum":9007199254740992}}},"annotations":{"readOnlyHint":true}},{"name":"alpha","inputSchema":{"type":"object"},"outputSchema":{"type":"object"}}]}}"#;

#[test]
fn every_page_is_fingerprinted_as_the_operation_fingerprints_the_merged_tools() {
    let script = server(&[PAGE1, PAGE2], "read l; exit 0");
    // A name the server did not list (a typo) is refused, naming it, not dropped (issue 44.6).
    let (code, out, err) = mcp(&["--offered", "zeta,alpha,Éclair,absent"], &script);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(
        err.contains(
            "ekl: INVALID_ARGUMENT: --offered names 1 tool(s) the server did not list: \"absent\""
        ),
        "{err}"
    );
    let (code, out, err) = mcp(&["--offered", "zeta,alpha,Éclair"], &script);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("the server is up"),
        "the server's stderr passes: {err}"
    );
    assert!(out.ends_with('\n') && out.lines().count() == 1, "{out}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(member(&json, "pages"), 2);
    assert_eq!(member(&json, "tools"), 4);
    assert_eq!(
        member(&json, "server"),
        &serde_json::json!({"name": "scripted", "version": "0.9", "protocol_version": "2025-11-25"})
    );
    // The merged tools of both pages, through the operation (file and `ekl call`).
    let merged = r#"{"tools":[{"name":"zeta","description":"Z","inputSchema":{"type":"object"},"title":"not counted"},{"name":"internal","inputSchema":{}},{"name":"Éclair","inputSchema":{"type":"object","properties":{"n":{"type":"number","maximum":9007199254740992}}},"annotations":{"readOnlyHint":true}},{"name":"alpha","inputSchema":{"type":"object"},"outputSchema":{"type":"object"}}]}"#;
    let (c, fp, e) = ekl_text(
        &[
            "upstream-fingerprint",
            "--offered",
            "zeta,alpha,Éclair,absent",
        ],
        merged.as_bytes(),
    );
    assert_eq!(c, 0, "{e}");
    let fp = fp.trim();
    assert_eq!(member(&json, "upstream_fingerprint"), fp);
    let (c, projection, e) = ekl_text(
        &[
            "call",
            "upstream_projection",
            "--arg",
            &format!("tools={merged}"),
            "--arg",
            r#"offered=["zeta","alpha","Éclair","absent"]"#,
        ],
        b"",
    );
    assert_eq!(c, 0, "{e}");
    let projection: serde_json::Value = serde_json::from_str(&projection).expect("JSON");
    assert_eq!(member(&json, "projection"), &projection);
    let names: Vec<&str> = projection
        .as_array()
        .expect("array")
        .iter()
        .map(|t| t["name"].as_str().expect("name"))
        .collect();
    assert_eq!(
        names,
        ["alpha", "zeta", "Éclair"],
        "UTF-16 order, offered only"
    );
    // Without --offered every tool counts: another fingerprint.
    let (code, all, err) = mcp(&[], &script);
    assert_eq!(code, 0, "{err}");
    let all: serde_json::Value = serde_json::from_str(&all).expect("JSON");
    assert_eq!(
        member(&all, "projection").as_array().expect("array").len(),
        4
    );
    assert_ne!(member(&all, "upstream_fingerprint"), fp);

    // --expect: the same fingerprint exits 0; another one exits 1, prints the same line and says
    // what changed.
    let offered = ["--offered", "zeta,alpha,Éclair", "--expect"];
    let (code, same, err) = mcp(&[&offered[..], &[fp]].concat(), &script);
    assert_eq!((code, same.as_str()), (0, out.as_str()), "{err}");
    let other = "0".repeat(64);
    let (code, changed, err) = mcp(&[&offered[..], &[other.as_str()]].concat(), &script);
    assert_eq!((code, changed.as_str()), (1, out.as_str()), "{err}");
    assert!(
        err.contains(&format!(
            "ekl: mcp: the server's tools changed: upstream fingerprint {fp}, expected {other}"
        )),
        "{err}"
    );
}

#[test]
fn what_crossed_the_wire_is_refused_with_its_code() {
    let cases = [
        (
            r#"{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"a","inputSchema":{"type":"object","type":"string"}}]}}"#,
            "DUPLICATE_KEY",
        ),
        (
            r#"{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"a","inputSchema":{"maximum":9007199254740993}}]}}"#,
            "INTEGER_OUT_OF_RANGE",
        ),
        ("the server logs to stdout by mistake", "INVALID_JSON"),
        // A tool of page 1 listed again on page 2: two tools of one name.
        (
            r#"{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"zeta","inputSchema":{}}]}}"#,
            "INVALID_SHAPE",
        ),
    ];
    for (page2, want) in cases {
        let (code, out, err) = mcp(&[], &server(&[PAGE1, page2], "read l"));
        assert_eq!(code, 2, "{want}: {err}");
        assert!(out.is_empty());
        let last = err.lines().last().unwrap_or_default();
        assert!(last.starts_with(&format!("ekl: {want}: ")), "{last}");
        if want != "INVALID_SHAPE" {
            assert!(
                last.contains("while waiting for the answer to tools/list (page 2)"),
                "{last}"
            );
        }
    }
}

#[test]
fn a_server_that_never_answers_meets_the_deadline_and_is_ended() {
    // `exec` keeps the pid the server printed: it must be gone once ekl has returned.
    let script = "echo \"pid $$\" >&2; read l; exec sleep 120";
    let start = Instant::now();
    let (code, out, err) = mcp(&["--timeout", "1"], script);
    let took = start.elapsed();
    assert_eq!(code, 75, "{err}");
    assert!(out.is_empty());
    assert!(
        err.ends_with(
            "ekl: mcp: timeout: no answer to initialize before the deadline (--timeout)\n"
        ),
        "{err}"
    );
    assert!(took < Duration::from_secs(10), "{took:?}");
    let pid = err
        .lines()
        .find_map(|l| l.strip_prefix("pid "))
        .expect("the server's pid");
    assert!(
        !std::path::Path::new(&format!("/proc/{pid}")).exists(),
        "the server {pid} still runs"
    );
    // A page that never comes: the same deadline.
    let (code, _, err) = mcp(
        &["--timeout", "1"],
        &server(&[PAGE1], "read l; exec sleep 120"),
    );
    assert_eq!(code, 75, "{err}");
    assert!(err.contains("no answer to tools/list (page 2)"), "{err}");
}

#[test]
fn a_server_that_ends_or_cannot_start() {
    let (code, _, err) = mcp(&[], "read l; exit 3");
    assert_eq!(code, 69, "{err}");
    assert!(
        err.contains("ekl: mcp: the server ended (exit status: 3): its output ended before the answer to initialize"),
        "{err}"
    );
    let (code, out, err) = ekl_text(&["mcp", "--", "/nonexistent/ekl-mcp-server"], b"");
    assert_eq!(code, 69, "{err}");
    assert!(out.is_empty());
    assert_eq!(
        err,
        "ekl: mcp: the server command could not be started (entity not found)\n"
    );
    // A JSON-RPC error answer, and a server without tools.
    let error = r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"no tools here"}}"#;
    let (code, _, err) = mcp(&[], &server(&[error], "read l"));
    assert_eq!(code, 69, "{err}");
    assert!(
        err.contains(
            "the server answered tools/list (page 1) with an error (code -32601): no tools here"
        ),
        "{err}"
    );
    let no_tools =
        r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{}}}"#;
    let (code, _, err) = mcp(&[], &format!("read l; printf '%s\\n' '{no_tools}'; read l"));
    assert_eq!(code, 76, "{err}");
    assert!(
        err.contains("ekl: mcp: not MCP: the server does not offer tools"),
        "{err}"
    );
}

#[test]
fn a_request_of_the_server_is_answered_and_notifications_are_skipped() {
    // Before answering tools/list the server pings the client and checks the answer.
    let ping = r#"{"jsonrpc":"2.0","id":"p1","method":"ping"}"#;
    let note = r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#;
    let page = r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}"#;
    let script = format!(
        "read l; printf '%s\\n' '{INIT}'; read l; read l; printf '%s\\n\\n%s\\n' '{note}' '{ping}'; \
         read answer; [ \"$answer\" = '{{\"id\":\"p1\",\"jsonrpc\":\"2.0\",\"result\":{{}}}}' ] || exit 9; \
         printf '%s\\r\\n' '{page}'; read l"
    );
    let (code, out, err) = mcp(&[], &script);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(member(&json, "tools"), 0);
    assert_eq!(member(&json, "projection"), &serde_json::json!([]));
    // SHA-256 of `[]`.
    assert_eq!(
        member(&json, "upstream_fingerprint"),
        "4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945"
    );
}

#[test]
fn a_message_beyond_the_cap_is_refused_in_bounded_memory() {
    // 80 MB without a line end after initialize.
    let script = "read l; head -c 80000000 /dev/zero | tr '\\0' ' '; sleep 5";
    let (code, out, err) = mcp(&[], script);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty());
    assert_eq!(
        err,
        "ekl: BODY_TOO_LARGE: a message of the server holds more than 67108864 bytes (the limit of this input)\n"
    );
}

/// `ekl mcp ARGS -- sh -c SCRIPT`, killed after `limit` if it has not ended: (exit code, stderr,
/// how long it ran); the code is `None` when it had to be killed.
fn mcp_bounded(extra: &[&str], script: &str, limit: Duration) -> (Option<i32>, String, Duration) {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_ekl"))
        .arg("mcp")
        .args(extra)
        .args(["--", "sh", "-c", script])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ekl runs");
    let code = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status.code();
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let took = start.elapsed();
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = e.read_to_string(&mut err);
    }
    (code, err, took)
}

#[test]
fn a_decoy_next_to_the_answer_is_refused_never_fingerprinted() {
    // Next to the real answer (before it or after it), a message that the official SDKs and a
    // lenient reader judge differently: it must never be the page fingerprinted.
    let real = r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"real","inputSchema":{}}]}}"#;
    let decoys = [
        (
            r#"{"jsonrpc":"1.0","id":2,"result":{"tools":[{"name":"decoy","inputSchema":{}}]}}"#,
            "MCP_INVALID_MESSAGE",
        ),
        (
            r#"{"id":2,"result":{"tools":[{"name":"decoy","inputSchema":{}}]}}"#,
            "MCP_INVALID_MESSAGE",
        ),
        (
            r#"[{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"decoy","inputSchema":{}}]}}]"#,
            "MCP_INVALID_MESSAGE",
        ),
        (
            r#"{"jsonrpc":"2.0","id":"2","result":{"tools":[{"name":"decoy","inputSchema":{}}]}}"#,
            "MCP_AMBIGUOUS_ANSWER",
        ),
        (
            r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"decoy","inputSchema":{}}]},"x":1}"#,
            "MCP_INVALID_MESSAGE",
        ),
    ];
    for (decoy, want) in decoys {
        let script = format!(
            "read l; printf '%s\\n' '{INIT}'; read l; read l; printf '%s\\n%s\\n' '{decoy}' '{real}'; read l"
        );
        let (code, out, err) = mcp(&[], &script);
        assert_eq!(code, 2, "{decoy}: {err}");
        assert!(out.is_empty(), "{decoy}: {out}");
        assert!(err.starts_with(&format!("ekl: {want}: ")), "{decoy}: {err}");
    }
}

#[test]
fn a_server_that_stops_reading_and_keeps_asking_meets_the_deadline() {
    // After initialize the server never reads again and sends pings without end: the client's
    // answers fill the pipe, and the write that blocks is held to --timeout like every read.
    let script = format!(
        "read l; printf '%s\\n' '{INIT}'; \
         while :; do printf '%s\\n' '{{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}}'; done"
    );
    let (code, err, took) = mcp_bounded(&["--timeout", "2"], &script, Duration::from_secs(30));
    assert_eq!(code, Some(75), "{err} (after {took:?})");
    assert!(
        err.contains("the server stopped reading its input"),
        "{err}"
    );
    assert!(took < Duration::from_secs(10), "{took:?}");
}

/// On a terminal (forced here with `--format human`, as the tests run piped) a person gets the
/// fingerprint, the server, the pages and the tools' names; `--json` and a pipe get the JSON.
#[test]
fn for_people_the_fingerprint_pages_and_tool_names() {
    let script = server(&[PAGE1, PAGE2], "read l; exit 0");
    let offered = ["--offered", "zeta,alpha,Éclair"];
    let (code, json_text, err) = mcp(&offered, &script);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&json_text).expect("JSON when piped");
    let fp = member(&json, "upstream_fingerprint").as_str().expect("fp");
    let human = ["--format", "human", "--offered", "zeta,alpha,Éclair"];
    let (code, out, err) = mcp(&human, &script);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], format!("upstream fingerprint: {fp}"), "{out}");
    assert_eq!(lines[1], "server: scripted 0.9 (MCP 2025-11-25)", "{out}");
    assert_eq!(
        lines[2], "4 tools listed on 2 pages; 3 fingerprinted:",
        "{out}"
    );
    // The projection's names, in its order (sorted by name).
    let names: Vec<&str> = member(&json, "projection")
        .as_array()
        .expect("array")
        .iter()
        .map(|t| t["name"].as_str().expect("name"))
        .collect();
    assert_eq!(lines[3].trim(), names.join(", "), "{out}");
    assert_eq!(lines.len(), 4, "{out}");
    assert!(out.len() < json_text.len() / 2, "{out}");
    // --json on a terminal: the JSON, byte for byte.
    let (code, again, err) = mcp(&["--format", "human", "--json"], &script);
    assert_eq!(code, 0, "{err}");
    let (_, plain, _) = mcp(&[], &script);
    assert_eq!(again, plain);
}
