//! `ekl mcp`: the upstream fingerprint (PROTOCOL §5.1) of a live MCP server's tools, for the
//! presence report of §15.3 ("at start and at least every hour").
//!
//! A small JSON-RPC client of its own (docs/decisions.md, B10: why not the Rust SDK): `initialize`,
//! `notifications/initialized`, then `tools/list` page after page, following `nextCursor`, over
//! stdio (`-- COMMAND ARGS...`: one message a line) or Streamable HTTP (`--url`). Every message the
//! server sends is read as it crossed the wire by the core's ekl-json-1 reader
//! (`ekl_core::canonical::parse`: a duplicate member or an integer beyond 2^53 is refused with its
//! code, never read "first wins" or rounded); the `tools` of every page, in order, are given to the
//! registry's `upstream_fingerprint` and `upstream_projection` operations.
//!
//! Bounds: one deadline for the whole exchange (`--timeout`), at most 64 MiB a message and 64 MiB
//! of `tools/list` responses in all, at most `ekl_core::mcp::MAX_PAGES` pages; the server's process is ended
//! when the command ends, whatever the outcome; its stderr is passed through.

mod http;
mod stdio;
mod tls;

use std::borrow::Cow;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use ekl_bridge::{Arg, Out};
use ekl_core::canonical;
use ekl_core::mcp::{self, Listing, Seen, Window};
use ekl_core::{Error, ErrorCode, Value};

use crate::args::McpArgs;

/// The protocol version `initialize` asks for (the server answers the one it speaks).
pub(crate) const PROTOCOL_VERSION: &str = "2025-11-25";

/// The most bytes of one message, and of every `tools/list` response together: the CLI's cap on a
/// JSON document (docs/decisions.md, "Caps on every read").
pub(crate) const MAX_MESSAGE_BYTES: usize = ekl_core::limits::MAX_INPUT_BYTES;

/// Exit status: the server could not be started or reached, closed the connection, or answered
/// with an HTTP or JSON-RPC error (BSD `EX_UNAVAILABLE`).
pub(crate) const EXIT_UNAVAILABLE: u8 = 69;
/// Exit status: the exchange did not finish before the deadline (BSD `EX_TEMPFAIL`).
pub(crate) const EXIT_TIMEOUT: u8 = 75;
/// Exit status: the server's messages are not MCP as the exchange needs them (BSD `EX_PROTOCOL`).
pub(crate) const EXIT_PROTOCOL: u8 = 76;

/// Why the exchange stopped.
#[derive(Debug)]
pub(crate) enum McpFailure {
    /// A message refused by the core's reader, or the tools refused by the operation (exit 2).
    Refused(Error),
    /// Not reachable, closed, an HTTP or JSON-RPC error (exit 69).
    Unavailable(String),
    /// The deadline passed (exit 75).
    Timeout(String),
    /// Not MCP as expected (exit 76).
    Protocol(String),
}

impl From<Error> for McpFailure {
    fn from(e: Error) -> Self {
        McpFailure::Refused(e)
    }
}

/// What the client is waiting for, for messages.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Step {
    /// The answer to `initialize`.
    Initialize,
    /// The answer to page N (from 1) of `tools/list`.
    ToolsList(usize),
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Step::Initialize => f.write_str("initialize"),
            Step::ToolsList(n) => write!(f, "tools/list (page {n})"),
        }
    }
}

/// A message from the server, as the client sees it.
pub(crate) enum Routed {
    /// The answer to the request the client waits for: its `result` object (an error answer is
    /// [`McpFailure::Unavailable`]).
    Response(Value<'static>),
    /// A request of the server (the client answers it: `ping` with `{}`, anything else with
    /// "method not found"): the answer to send.
    Request(Vec<u8>),
    /// A notification, or an answer to another request: dropped.
    Other,
}

/// Reads one message of the server as it crossed the wire, while waiting for the answer of
/// `window` (`step`), through the core's MCP machine ([`ekl_core::mcp::Window`]): any refusal (a
/// duplicate member, an integer beyond 2^53, invalid UTF-8, a message an MCP SDK would refuse, a
/// second answer or an answer whose id is not a number, ...) stops the exchange with its code.
pub(crate) fn route(window: &mut Window, raw: &[u8], step: Step) -> Result<Routed, McpFailure> {
    let refused = |e: Error| {
        McpFailure::Refused(Error::new(
            e.code(),
            format!(
                "a message of the server, while waiting for the answer to {step}: {}",
                e.message()
            ),
        ))
    };
    match window.received(raw).map_err(refused)? {
        Seen::Answer(result) => Ok(Routed::Response(result.into_owned())),
        Seen::ErrorAnswer(e) => {
            let code = e
                .get("code")
                .and_then(Value::as_f64)
                .map_or("no code".to_owned(), |c| format!("code {c}"));
            let message = e.get("message").and_then(Value::as_str).unwrap_or("");
            Err(McpFailure::Unavailable(format!(
                "the server answered {step} with an error ({code}): {}",
                printable(message)
            )))
        }
        Seen::Request { id, method } => Ok(Routed::Request(mcp::reply_to(&id, &method)?)),
        Seen::Notification | Seen::Other => Ok(Routed::Other),
    }
}

/// A way of exchanging messages with the server.
pub(crate) trait Transport {
    /// Sends a notification (no answer awaited beyond the transport's own acknowledgement).
    fn notify(&mut self, body: &[u8], deadline: Instant) -> Result<(), McpFailure>;
    /// Sends the request of `window` and returns the `result` of the answer to it, read by
    /// [`route`] (and the answer's length in bytes; other messages are answered or dropped).
    fn request(
        &mut self,
        window: &mut Window,
        body: &[u8],
        step: Step,
        deadline: Instant,
    ) -> Result<(Value<'static>, usize), McpFailure>;
    /// The protocol version the server answered (HTTP sends it on every later request).
    fn negotiated(&mut self, _version: &str) {}
}

/// What the exchange found.
#[derive(Debug)]
pub(crate) struct Found {
    /// `serverInfo.name` and `.version` of the initialize result (null when absent).
    pub server: (Value<'static>, Value<'static>),
    /// The protocol version the server answered.
    pub protocol_version: String,
    /// Every page's `tools`, in order.
    pub tools: Vec<Value<'static>>,
    /// How many pages.
    pub pages: usize,
}

fn request_text(id: u64, method: &str, params: Value<'_>) -> Result<Vec<u8>, McpFailure> {
    Ok(canonical::canonicalize_value(&Value::Object(vec![
        ("jsonrpc".into(), Value::from("2.0")),
        ("id".into(), Value::Number(id as f64)),
        ("method".into(), Value::from(method)),
        ("params".into(), params),
    ]))?)
}

/// Text of the server made safe for a terminal: at most 200 characters, control characters
/// escaped as in JSON.
pub(crate) fn printable(s: &str) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i == 200 {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// The whole exchange: initialize, initialized, every page of tools/list.
pub(crate) fn list_tools(t: &mut dyn Transport, deadline: Instant) -> Result<Found, McpFailure> {
    let init = request_text(
        1,
        "initialize",
        Value::Object(vec![
            ("protocolVersion".into(), Value::from(PROTOCOL_VERSION)),
            ("capabilities".into(), Value::Object(Vec::new())),
            (
                "clientInfo".into(),
                Value::Object(vec![
                    ("name".into(), Value::from("ekl")),
                    ("version".into(), Value::from(env!("CARGO_PKG_VERSION"))),
                ]),
            ),
        ]),
    )?;
    let mut window = Window::new("initialize", Vec::new());
    window.sent(&init)?;
    let init = t.request(&mut window, &init, Step::Initialize, deadline)?.0;
    let protocol_version = match init.get("protocolVersion") {
        Some(Value::String(v)) => v.to_string(),
        _ => {
            return Err(McpFailure::Protocol(
                "the initialize result has no protocolVersion".into(),
            ))
        }
    };
    if !matches!(init.get("capabilities"), Some(Value::Object(c)) if c.iter().any(|(k, _)| k == "tools"))
    {
        return Err(McpFailure::Protocol(
            "the server does not offer tools (no capabilities.tools in its initialize result)"
                .into(),
        ));
    }
    let info = |k: &str| {
        init.get("serverInfo")
            .and_then(|i| i.get(k))
            .filter(|v| matches!(v, Value::String(_)))
            .cloned()
            .unwrap_or(Value::Null)
    };
    let server = (info("name"), info("version"));
    t.negotiated(&protocol_version);
    let initialized = canonical::canonicalize_value(&Value::Object(vec![
        ("jsonrpc".into(), Value::from("2.0")),
        ("method".into(), Value::from("notifications/initialized")),
    ]))?;
    t.notify(&initialized, deadline)?;

    let mut tools = Vec::new();
    let mut listing = Listing::new();
    let mut id = 1u64;
    loop {
        let page = listing.pages() + 1;
        id += 1;
        let params = match listing.cursor() {
            None => Value::Object(Vec::new()),
            Some(c) => Value::Object(vec![(
                "cursor".into(),
                Value::String(Cow::Owned(c.to_owned())),
            )]),
        };
        let step = Step::ToolsList(page);
        let body = request_text(id, "tools/list", params)?;
        let mut window = listing.window();
        window.sent(&body)?;
        let (result, len) = t.request(&mut window, &body, step, deadline)?;
        let next = listing.page(&result, len).map_err(|e| match e.code() {
            ErrorCode::InvalidShape => McpFailure::Protocol(e.message().to_owned()),
            _ => McpFailure::Refused(e),
        })?;
        if let Value::Object(members) = result {
            for (k, v) in members {
                if k == "tools" {
                    if let Value::Array(items) = v {
                        tools.extend(items);
                    }
                }
            }
        }
        if next.is_none() {
            return Ok(Found {
                server,
                protocol_version,
                tools,
                pages: listing.pages(),
            });
        }
    }
}

/// Refuses `--offered` names the server did not list (`INVALID_ARGUMENT`, naming them): a typo
/// would otherwise fingerprint fewer tools and exit 0 (docs/decisions/cli.md#mcp-offered).
fn not_listed(tools: &[Value<'static>], offered: &[&str]) -> Result<(), McpFailure> {
    let listed: std::collections::HashSet<&str> = tools
        .iter()
        .filter_map(|t| match t.get("name") {
            Some(Value::String(n)) => Some(n.as_ref()),
            _ => None,
        })
        .collect();
    let mut missing: Vec<&str> = offered
        .iter()
        .copied()
        .filter(|n| !listed.contains(n))
        .collect();
    missing.dedup();
    if missing.is_empty() {
        return Ok(());
    }
    let shown: Vec<String> = missing.iter().map(|n| format!("\"{n}\"")).collect();
    Err(Error::new(
        ErrorCode::InvalidArgument,
        printable(&format!(
            "--offered names {} tool(s) the server did not list: {} (names are exact: case, spaces)",
            missing.len(),
            shown.join(", ")
        )),
    )
    .into())
}

/// The printed object: `{pages, projection, server: {name, version}, tools, upstream_fingerprint}`
/// as canonical JSON, and the fingerprint.
pub(crate) fn report(
    listing: Found,
    offered: Option<&[&str]>,
) -> Result<(Vec<u8>, String), McpFailure> {
    let count = listing.tools.len();
    if let Some(names) = offered {
        not_listed(&listing.tools, names)?;
    }
    let all = Value::Object(vec![("tools".into(), Value::Array(listing.tools))]);
    let call = |op: &str| {
        let mut args = vec![("tools", Arg::Value(all.clone()))];
        if let Some(o) = offered {
            args.push(("offered", Arg::StrList(o.to_vec())));
        }
        ekl_bridge::call_named(op, &args)
    };
    let fingerprint = match call("upstream_fingerprint")? {
        Out::Str(s) => s,
        _ => return Err(Error::new(ErrorCode::Internal, "upstream_fingerprint").into()),
    };
    let projection = match call("upstream_projection")? {
        Out::Value(v) => v,
        _ => return Err(Error::new(ErrorCode::Internal, "upstream_projection").into()),
    };
    let (name, version) = listing.server;
    let out = Value::Object(vec![
        (
            "upstream_fingerprint".into(),
            Value::from(fingerprint.as_str()),
        ),
        ("projection".into(), projection),
        ("tools".into(), Value::Number(count as f64)),
        ("pages".into(), Value::Number(listing.pages as f64)),
        (
            "server".into(),
            Value::Object(vec![
                ("name".into(), name),
                ("version".into(), version),
                (
                    "protocol_version".into(),
                    Value::String(Cow::Owned(listing.protocol_version)),
                ),
            ]),
        ),
    ]);
    let mut text = canonical::canonicalize_value(&out)?;
    text.push(b'\n');
    Ok((text, fingerprint))
}

/// `ekl mcp`: prints the report; exit 0, or 1 when `--expect` differs, or the failure's status.
pub(crate) fn main(a: McpArgs, hint: &str) -> ExitCode {
    let deadline = Instant::now() + Duration::from_secs(a.timeout);
    let offered: Option<Vec<&str>> = a
        .offered
        .as_deref()
        .map(|s| s.split(',').filter(|n| !n.is_empty()).collect());
    if a.ca.is_some() && a.url.is_none() {
        say!("ekl: usage: --ca is for an https:// server given with --url ({hint})");
        return ExitCode::from(crate::EXIT_USAGE);
    }
    let listing = match (&a.url, a.command.is_empty()) {
        (Some(url), true) => match http::Http::new(url, a.ca.as_deref()) {
            Ok(mut t) => {
                let r = list_tools(&mut t, deadline);
                t.close(Instant::now() + Duration::from_secs(2));
                r
            }
            Err(m) => {
                say!("ekl: usage: --url: {m} ({hint})");
                return ExitCode::from(crate::EXIT_USAGE);
            }
        },
        (None, false) => match stdio::Stdio::spawn(&a.command) {
            Ok(mut t) => list_tools(&mut t, deadline),
            Err(f) => Err(f),
        },
        _ => {
            say!(
                "ekl: usage: give the server as -- COMMAND ARGS... (stdio) or --url URL \
                 (Streamable HTTP) ({hint})"
            );
            return ExitCode::from(crate::EXIT_USAGE);
        }
    };
    let result = listing.and_then(|l| report(l, offered.as_deref()));
    let (text, fingerprint) = match result {
        Ok(r) => r,
        Err(f) => return fail(f),
    };
    let for_people = a.human.then(|| crate::human::mcp_report(&text)).flatten();
    if crate::write_stdout(for_people.as_deref().unwrap_or(&text)).is_err() {
        return ExitCode::from(crate::EXIT_IO);
    }
    match a.expect {
        Some(want) if want != fingerprint => {
            say!(
                "ekl: mcp: the server's tools changed: upstream fingerprint {fingerprint}, \
                 expected {want} (§5.1: report it with the presence of §15.3; the network \
                 validates the agent again)"
            );
            ExitCode::from(1)
        }
        _ => ExitCode::SUCCESS,
    }
}

fn fail(f: McpFailure) -> ExitCode {
    let (status, line) = match f {
        McpFailure::Refused(e) => (
            crate::EXIT_REFUSED,
            format!("ekl: {}: {}", e.code().as_str(), e.message()),
        ),
        McpFailure::Unavailable(m) => (EXIT_UNAVAILABLE, format!("ekl: mcp: {m}")),
        McpFailure::Timeout(m) => (EXIT_TIMEOUT, format!("ekl: mcp: timeout: {m}")),
        McpFailure::Protocol(m) => (EXIT_PROTOCOL, format!("ekl: mcp: not MCP: {m}")),
    };
    say!("{line}");
    ExitCode::from(status)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    /// A transport that answers from a script: each request's raw text is checked against what
    /// the client must send, and answered with the raw text given.
    struct Script {
        sent: Vec<String>,
        answers: VecDeque<&'static str>,
    }

    impl Transport for Script {
        fn notify(&mut self, body: &[u8], _: Instant) -> Result<(), McpFailure> {
            self.sent
                .push(String::from_utf8(body.to_vec()).expect("UTF-8"));
            Ok(())
        }
        fn request(
            &mut self,
            window: &mut Window,
            body: &[u8],
            step: Step,
            _: Instant,
        ) -> Result<(Value<'static>, usize), McpFailure> {
            self.sent
                .push(String::from_utf8(body.to_vec()).expect("UTF-8"));
            loop {
                let raw = self.answers.pop_front().expect("an answer left");
                match route(window, raw.as_bytes(), step)? {
                    Routed::Response(v) => return Ok((v, raw.len())),
                    Routed::Request(answer) => {
                        self.sent.push(String::from_utf8(answer).expect("UTF-8"))
                    }
                    Routed::Other => {}
                }
            }
        }
    }

    const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1.0"}}}"#;

    fn run(answers: &[&'static str]) -> (Result<Found, McpFailure>, Vec<String>) {
        let mut t = Script {
            sent: Vec::new(),
            answers: answers.iter().copied().collect(),
        };
        let far = Instant::now() + Duration::from_secs(60);
        let r = list_tools(&mut t, far);
        (r, t.sent)
    }

    #[test]
    fn every_page_is_read_following_next_cursor() {
        let (r, sent) = run(&[
            INIT,
            r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info"}}"#,
            r#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":99,"result":{"tools":[{"name":"stale"}]}}"#,
            r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"b"},{"name":"a"}],"nextCursor":"p2"}}"#,
            r#"{"jsonrpc":"2.0","id":3,"result":{"tools":[],"nextCursor":"p3"}}"#,
            r#"{"jsonrpc":"2.0","id":4,"result":{"tools":[{"name":"c","inputSchema":{}}],"nextCursor":null}}"#,
        ]);
        let l = r.expect("listed");
        assert_eq!(l.pages, 3);
        let names: Vec<&str> = l
            .tools
            .iter()
            .filter_map(|t| t.get("name")?.as_str())
            .collect();
        assert_eq!(names, ["b", "a", "c"]);
        assert_eq!(l.protocol_version, "2025-06-18");
        assert_eq!(l.server, (Value::from("s"), Value::from("1.0")));
        assert!(sent[0].contains(r#""method":"initialize""#), "{}", sent[0]);
        assert_eq!(
            sent[1],
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#
        );
        assert_eq!(
            sent[2],
            r#"{"id":2,"jsonrpc":"2.0","method":"tools/list","params":{}}"#
        );
        assert_eq!(
            sent[3], r#"{"id":7,"jsonrpc":"2.0","result":{}}"#,
            "the ping answered"
        );
        assert_eq!(
            sent[4],
            r#"{"id":3,"jsonrpc":"2.0","method":"tools/list","params":{"cursor":"p2"}}"#
        );
        assert_eq!(
            sent[5],
            r#"{"id":4,"jsonrpc":"2.0","method":"tools/list","params":{"cursor":"p3"}}"#
        );
        let (text, fp) = report(l, Some(&["a", "c"])).expect("report");
        let text = String::from_utf8(text).expect("UTF-8");
        assert!(text.starts_with(r#"{"pages":3,"projection":[{"annotations":null,"description":null,"inputSchema":null,"name":"a","outputSchema":null},{"annotations":null,"description":null,"inputSchema":{},"name":"c""#), "{text}");
        assert!(text.contains(r#""server":{"name":"s","protocol_version":"2025-06-18","version":"1.0"},"tools":3,"#), "{text}");
        assert!(text.ends_with(&format!("\"upstream_fingerprint\":\"{fp}\"}}\n")));
        // The fingerprint is the operation's on the merged array.
        let merged = br#"[{"name":"b"},{"name":"a"},{"name":"c","inputSchema":{}}]"#;
        let want = ekl_bridge::call_named(
            "upstream_fingerprint",
            &[
                ("tools", Arg::Text(merged)),
                ("offered", Arg::StrList(vec!["a", "c"])),
            ],
        )
        .expect("op");
        assert!(matches!(want, Out::Str(s) if s == fp));
    }

    fn failure(answers: &[&'static str]) -> McpFailure {
        run(answers).0.expect_err("refused")
    }

    #[test]
    fn what_crossed_the_wire_is_refused_not_changed() {
        let dup = r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"a","inputSchema":{"type":"object","type":"string"}}]}}"#;
        assert!(
            matches!(failure(&[INIT, dup]), McpFailure::Refused(e) if e.code() == ErrorCode::DuplicateKey && e.message().contains("the answer to tools/list (page 1)"))
        );
        let big = r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"a","inputSchema":{"maximum":9007199254740993}}]}}"#;
        assert!(
            matches!(failure(&[INIT, big]), McpFailure::Refused(e) if e.code() == ErrorCode::IntegerOutOfRange)
        );
        // In a message that is not the response, too: the client cannot know its id otherwise.
        let note = r#"{"jsonrpc":"2.0","method":"n","params":{"a":1,"a":2}}"#;
        assert!(
            matches!(failure(&[INIT, note]), McpFailure::Refused(e) if e.code() == ErrorCode::DuplicateKey)
        );
        // Two tools of one name on two pages, offered: the operation's refusal.
        let p1 = r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"a"}],"nextCursor":"x"}}"#;
        let p2 = r#"{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"a"}]}}"#;
        let l = run(&[INIT, p1, p2]).0.expect("listed");
        assert!(
            matches!(report(l, None), Err(McpFailure::Refused(e)) if e.code() == ErrorCode::InvalidShape)
        );
    }

    #[test]
    fn protocol_failures() {
        let p = |answers: &[&'static str], want: &str| match failure(answers) {
            McpFailure::Protocol(m) => assert!(m.contains(want), "{m}"),
            other => panic!("{other:?}"),
        };
        let again = r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[],"nextCursor":"x"}}"#;
        let again3 = r#"{"jsonrpc":"2.0","id":3,"result":{"tools":[],"nextCursor":"x"}}"#;
        match failure(&[INIT, again, again3]) {
            McpFailure::Refused(e) => assert_eq!(
                (
                    e.code(),
                    e.message().contains("repeats an earlier nextCursor")
                ),
                (ErrorCode::McpBadCursor, true)
            ),
            other => panic!("{other:?}"),
        }
        p(
            &[INIT, r#"{"jsonrpc":"2.0","id":2,"result":{}}"#],
            "no tools array",
        );
        match failure(&[
            INIT,
            r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[],"nextCursor":5}}"#,
        ]) {
            McpFailure::Refused(e) => assert_eq!(e.code(), ErrorCode::McpBadCursor),
            other => panic!("{other:?}"),
        }
        p(
            &[
                r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{}}}"#,
            ],
            "does not offer tools",
        );
        // A batch, a message of another JSON-RPC version, an answer whose id is a string, a
        // second answer: refused with the core's codes, never read past (the decoys of
        // docs/decisions/mcp.md).
        let refused = |answers: &[&'static str], want: ErrorCode| match failure(answers) {
            McpFailure::Refused(e) => assert_eq!(e.code(), want, "{}", e.message()),
            other => panic!("{other:?}"),
        };
        refused(&[r#"[1]"#], ErrorCode::McpInvalidMessage);
        let real = r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"real"}]}}"#;
        for (decoy, want) in [
            (
                r#"[{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"decoy"}]}}]"#,
                ErrorCode::McpInvalidMessage,
            ),
            (
                r#"{"jsonrpc":"1.0","id":2,"result":{"tools":[{"name":"decoy"}]}}"#,
                ErrorCode::McpInvalidMessage,
            ),
            (
                r#"{"id":2,"result":{"tools":[{"name":"decoy"}]}}"#,
                ErrorCode::McpInvalidMessage,
            ),
            (
                r#"{"jsonrpc":"2.0","id":"2","result":{"tools":[{"name":"decoy"}]}}"#,
                ErrorCode::McpAmbiguousAnswer,
            ),
        ] {
            refused(&[INIT, decoy, real], want);
        }
        match failure(&[INIT, r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"boom\u001b[31m"}}"#]) {
            McpFailure::Unavailable(m) => assert_eq!(
                m,
                "the server answered tools/list (page 1) with an error (code -32603): boom\\u001b[31m"
            ),
            other => panic!("{other:?}"),
        }
    }
}
