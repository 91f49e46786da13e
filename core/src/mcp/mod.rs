//! MCP wire sessions (PROTOCOL §5.1 fingerprints the tools a server lists, §15.3 a tool result):
//! the messages that crossed the wire between an MCP client and a server, judged as the official
//! MCP SDKs judge them, with no I/O of its own (docs/decisions/mcp.md).
//!
//! A host (the `ekl mcp` command, the Python and JS modules around the official SDKs) does the
//! I/O and feeds each message here, as the bytes that crossed:
//!
//! * [`read_message`]: one message, read by the core's ekl-json-1 reader (a duplicate member, an
//!   integer beyond 2^53, invalid UTF-8: refused with its code) and checked to be what every
//!   official SDK takes without doubt: one JSON-RPC 2.0 object (no batch: MCP 2025-06-18 dropped
//!   them), a request, a notification, a result or an error, and no other member
//!   (`MCP_INVALID_MESSAGE`);
//! * [`Window`]: one call of the client (`initialize`, one `tools/list` page, one `tools/call`):
//!   the request the client sent for it (the last one of its method whose params match) and the
//!   one answer to it, an id equal in type and value. A second answer, or an answer whose id is
//!   not a number, is `MCP_AMBIGUOUS_ANSWER` (the TypeScript SDK takes `"2"` for `2`, the Python
//!   SDK does not: which one the caller got cannot be known); every other message (the server's
//!   own requests, notifications, answers to other requests) is routed and dropped, never kept;
//! * [`Listing`]: the pages of one `tools/list`, each next page asked with the `nextCursor` of the
//!   page before: a cursor repeated or not a string, more than [`MAX_PAGES`] pages or
//!   [`MAX_TOOLS`] tools is `MCP_BAD_CURSOR`;
//! * [`sse`]: the `text/event-stream` framing of Streamable HTTP.
//!
//! Every bound is explicit: [`MAX_MESSAGE_BYTES`] a message, [`MAX_WINDOW_BYTES`] received in one
//! call, [`MAX_LISTING_BYTES`] of one listing's answers (`BODY_TOO_LARGE`). The state of a
//! [`Window`] and a [`Listing`] converts to and from a JSON value ([`Window::to_value`]), so that
//! the bindings hand it back and forth through the registry.

pub mod sse;

use std::borrow::Cow;

use crate::canonical;
use crate::error::{Error, ErrorCode, Result};
use crate::limits;
use crate::value::Value;

/// The most bytes of one message (the core's bound on an input, `limits::MAX_INPUT_BYTES`).
pub const MAX_MESSAGE_BYTES: usize = limits::MAX_INPUT_BYTES;
/// The most bytes received during one call (its window): 256 MiB, counted, never kept.
pub const MAX_WINDOW_BYTES: u64 = 256 * 1024 * 1024;
/// The most bytes of the answers of one listing's pages together (64 MiB).
pub const MAX_LISTING_BYTES: usize = limits::MAX_INPUT_BYTES;
/// The most pages of one `tools/list`.
pub const MAX_PAGES: usize = 1000;
/// The most tools of one `tools/list`, every page together.
pub const MAX_TOOLS: usize = 10_000;

fn invalid_message(what: &str) -> Error {
    Error::new(
        ErrorCode::McpInvalidMessage,
        format!("a message of the server is not one an MCP SDK takes: {what}"),
    )
}

/// A JSON-RPC id: an integer or a string.
#[derive(Clone, Debug, PartialEq)]
pub enum Id<'a> {
    /// An integer (a number without a fraction).
    Number(f64),
    /// A string.
    String(Cow<'a, str>),
}

impl<'a> Id<'a> {
    fn of(v: &Value<'a>) -> Option<Id<'a>> {
        match v {
            Value::Number(n) if n.fract() == 0.0 => Some(Id::Number(*n)),
            Value::String(s) => Some(Id::String(s.clone())),
            _ => None,
        }
    }

    /// The id as a JSON value.
    pub fn to_value(&self) -> Value<'a> {
        match self {
            Id::Number(n) => Value::Number(*n),
            Id::String(s) => Value::String(s.clone()),
        }
    }

    fn into_owned(self) -> Id<'static> {
        match self {
            Id::Number(n) => Id::Number(n),
            Id::String(s) => Id::String(Cow::Owned(s.into_owned())),
        }
    }
}

/// One JSON-RPC 2.0 message, as every official MCP SDK reads it.
#[derive(Clone, Debug, PartialEq)]
pub enum Message<'a> {
    /// A request: it awaits an answer.
    Request {
        /// Its id.
        id: Id<'a>,
        /// Its method.
        method: Cow<'a, str>,
        /// Its params (an object), when given.
        params: Option<Value<'a>>,
    },
    /// A notification: no answer.
    Notification {
        /// Its method.
        method: Cow<'a, str>,
    },
    /// A successful answer.
    Result {
        /// The id of the request it answers.
        id: Id<'a>,
        /// Its `result` (an object).
        result: Value<'a>,
    },
    /// An error answer.
    Error {
        /// The id of the request it answers; `None` when `null` or absent (JSON-RPC's answer to a
        /// request whose id could not be read: no SDK hands it to a call).
        id: Option<Id<'a>>,
        /// Its `error` (`{code, message, data?}`).
        error: Value<'a>,
    },
}

/// Reads one message as it crossed the wire: at most [`MAX_MESSAGE_BYTES`] (`BODY_TOO_LARGE`),
/// through the core's reader (its codes), then one JSON-RPC 2.0 object as the SDKs take it
/// (`MCP_INVALID_MESSAGE` otherwise: a batch array, `jsonrpc` missing or not `"2.0"`, a member
/// JSON-RPC does not define, an id that is neither an integer nor a string (`null` only on an
/// error answer; a number written with a fraction or an exponent, `2.0`, is not one), params that are not an object, a result that is not an object, an error without an integer code and a string
/// message, both a method and an answer, or both a result and an error).
pub fn read_message(raw: &[u8]) -> Result<Message<'_>> {
    limits::check_len(raw.len(), MAX_MESSAGE_BYTES, "a message of the server")?;
    let value = canonical::parse(raw)?;
    let members = match value {
        Value::Object(m) => m,
        Value::Array(_) => {
            return Err(invalid_message(
                "a batch array (JSON-RPC batches are not MCP since 2025-06-18)",
            ))
        }
        _ => return Err(invalid_message("not a JSON object")),
    };
    let (mut jsonrpc, mut id, mut method, mut params, mut result, mut error) =
        (None, None, None, None, None, None);
    for (k, v) in members {
        let slot = match &*k {
            "jsonrpc" => &mut jsonrpc,
            "id" => &mut id,
            "method" => &mut method,
            "params" => &mut params,
            "result" => &mut result,
            "error" => &mut error,
            _ => {
                return Err(invalid_message(
                    "a member JSON-RPC 2.0 does not define (one SDK refuses the message, another keeps it)",
                ))
            }
        };
        *slot = Some(v);
    }
    if jsonrpc.as_ref().and_then(Value::as_str) != Some("2.0") {
        return Err(invalid_message("jsonrpc is not \"2.0\""));
    }
    let null_id = matches!(id, Some(Value::Null));
    if matches!(id, Some(Value::Number(_))) && !integer_text(top_level_id_text(raw)) {
        return Err(invalid_message(
            "an id written with a fraction or an exponent (the TypeScript SDK reads the integer, \
             the Python SDK refuses the message)",
        ));
    }
    let id = match &id {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            Id::of(v)
                .ok_or_else(|| invalid_message("an id that is neither an integer nor a string"))?,
        ),
    };
    if let Some(method) = method {
        let Value::String(method) = method else {
            return Err(invalid_message("a method that is not a string"));
        };
        if result.is_some() || error.is_some() {
            return Err(invalid_message("both a method and an answer"));
        }
        if null_id {
            return Err(invalid_message("a request whose id is null"));
        }
        if !matches!(params, None | Some(Value::Object(_))) {
            return Err(invalid_message("params that are not an object"));
        }
        return Ok(match id {
            Some(id) => Message::Request { id, method, params },
            None => Message::Notification { method },
        });
    }
    if params.is_some() {
        return Err(invalid_message("params without a method"));
    }
    match (result, error) {
        (Some(result @ Value::Object(_)), None) => match id {
            Some(id) => Ok(Message::Result { id, result }),
            None => Err(invalid_message("a result without an id")),
        },
        (Some(_), None) => Err(invalid_message("a result that is not an object")),
        (None, Some(error)) => {
            let code_ok = matches!(error.get("code"), Some(Value::Number(c)) if c.fract() == 0.0);
            let message_ok = matches!(error.get("message"), Some(Value::String(_)));
            if !code_ok || !message_ok {
                return Err(invalid_message(
                    "an error without an integer code and a string message",
                ));
            }
            Ok(Message::Error { id, error })
        }
        (Some(_), Some(_)) => Err(invalid_message("both a result and an error")),
        (None, None) => Err(invalid_message("neither a method, a result nor an error")),
    }
}

/// Whether `text` (a JSON number as written) is an integer without a fraction or an exponent
/// (`-0` and `12` are; `2.0`, `2e0` and a missing text are not).
fn integer_text(text: Option<&[u8]>) -> bool {
    text.is_some_and(|t| !t.is_empty() && !t.iter().any(|b| matches!(b, b'.' | b'e' | b'E')))
}

fn is_json_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// The index just past the string that opens at `raw[at]` (a `"`), escapes skipped.
fn string_end(raw: &[u8], at: usize) -> Option<usize> {
    let mut i = at + 1;
    while i < raw.len() {
        match raw[i] {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// The index just past the JSON value that starts at `raw[at]`: a string, an object or an array
/// (nesting counted, never recursed into), or a scalar (up to the next delimiter).
fn value_end(raw: &[u8], at: usize) -> Option<usize> {
    match raw.get(at)? {
        b'"' => string_end(raw, at),
        b'{' | b'[' => {
            let (mut depth, mut i) = (0usize, at);
            while i < raw.len() {
                match raw[i] {
                    b'"' => {
                        i = string_end(raw, i)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            None
        }
        _ => Some(
            raw[at..]
                .iter()
                .position(|&b| matches!(b, b',' | b'}' | b']') || is_json_space(b))
                .map_or(raw.len(), |n| at + n),
        ),
    }
}

/// The text of the top-level member `id` of `raw`, a JSON object the core's reader took (so its
/// syntax is known good and its keys are unique): the official SDKs read a number id by how it
/// is written (`2.0` is the integer 2 to the TypeScript SDK, not an integer to the Python SDK's
/// strict `int`), which the core's value (an `f64`) no longer shows.
fn top_level_id_text(raw: &[u8]) -> Option<&[u8]> {
    let skip = |mut i: usize| {
        while i < raw.len() && is_json_space(raw[i]) {
            i += 1;
        }
        i
    };
    let mut i = skip(0);
    if raw.get(i) != Some(&b'{') {
        return None;
    }
    i += 1;
    loop {
        i = skip(i);
        match raw.get(i)? {
            b',' => {
                i += 1;
                continue;
            }
            b'"' => {}
            _ => return None,
        }
        let key_end = string_end(raw, i)?;
        let key = &raw[i..key_end];
        let is_id = key == b"\"id\""
            || (key.contains(&b'\\')
                && matches!(canonical::parse(key), Ok(Value::String(k)) if k == "id"));
        i = skip(key_end);
        if raw.get(i) != Some(&b':') {
            return None;
        }
        let start = skip(i + 1);
        let end = value_end(raw, start)?;
        if is_id {
            return Some(&raw[start..end]);
        }
        i = end;
    }
}

/// What a message received during a [`Window`] was.
#[derive(Clone, Debug, PartialEq)]
pub enum Seen<'a> {
    /// The answer to the request awaited: its `result` object.
    Answer(Value<'a>),
    /// The error answer to the request awaited: its `error` object.
    ErrorAnswer(Value<'a>),
    /// A request of the server (the client answers it; [`reply_to`]).
    Request {
        /// Its id.
        id: Id<'a>,
        /// Its method.
        method: Cow<'a, str>,
    },
    /// A notification of the server.
    Notification,
    /// An answer to another request of the client, or one that came before the request awaited
    /// was sent.
    Other,
}

/// One call of the client: the request of `method` whose params match, and the one answer to it.
///
/// Fed every message that crosses during the call, in the order they crossed: what the client
/// sent ([`Window::sent`]) and what it received ([`Window::received`]); [`Window::end`] when the
/// client has its answer. Only the state below is kept: never a message.
#[derive(Clone, Debug, PartialEq)]
pub struct Window {
    method: String,
    matcher: Vec<(String, Value<'static>)>,
    awaited: Option<Id<'static>>,
    answered: bool,
    received: u64,
}

impl Window {
    /// A call of `method` whose request's params hold each member of `matcher` (a member absent
    /// from the params, or params absent, reads as `null`): `{"name": "echo"}` for a tools/call,
    /// `{"cursor": null}` for the first page of tools/list, nothing for `initialize`.
    pub fn new(method: &str, matcher: Vec<(String, Value<'static>)>) -> Window {
        Window {
            method: method.to_owned(),
            matcher,
            awaited: None,
            answered: false,
            received: 0,
        }
    }

    /// A message the client sent. It is the request of this call when its method and params
    /// match (the last such one: a client may send again); returns whether it was.
    pub fn sent(&mut self, raw: &[u8]) -> Result<bool> {
        let Message::Request { id, method, params } = read_message(raw)? else {
            return Ok(false);
        };
        if method != self.method.as_str() {
            return Ok(false);
        }
        let matches = self.matcher.iter().all(|(k, want)| {
            let got = params
                .as_ref()
                .and_then(|p| p.get(k))
                .unwrap_or(&Value::Null);
            got == want
        });
        if matches {
            self.awaited = Some(id.into_owned());
            self.answered = false;
        }
        Ok(matches)
    }

    /// A message the client received, judged: the answer to the request awaited (once), a
    /// request or a notification of the server, or another answer. Refused: what
    /// [`read_message`] refuses, a second answer to the request awaited or an answer whose id
    /// is of another type than its (`MCP_AMBIGUOUS_ANSWER`), more than [`MAX_WINDOW_BYTES`]
    /// received during the call (`BODY_TOO_LARGE`).
    pub fn received<'a>(&mut self, raw: &'a [u8]) -> Result<Seen<'a>> {
        self.received = self.received.saturating_add(raw.len() as u64);
        if self.received > MAX_WINDOW_BYTES {
            return Err(Error::new(
                ErrorCode::BodyTooLarge,
                format!(
                    "the server sent more than {MAX_WINDOW_BYTES} bytes while the client waited for \
                     its answer to {}",
                    self.method
                ),
            ));
        }
        let (id, answer) = match read_message(raw)? {
            Message::Request { id, method, .. } => return Ok(Seen::Request { id, method }),
            Message::Notification { .. } => return Ok(Seen::Notification),
            Message::Result { id, result } => (id, Seen::Answer(result)),
            // An error without an id answers a request whose id the server could not read: no
            // SDK hands it to a call.
            Message::Error { id: None, .. } => return Ok(Seen::Other),
            Message::Error {
                id: Some(id),
                error,
            } => (id, Seen::ErrorAnswer(error)),
        };
        let Some(awaited) = &self.awaited else {
            return Ok(Seen::Other);
        };
        let same_type = matches!(
            (&id, awaited),
            (Id::Number(_), Id::Number(_)) | (Id::String(_), Id::String(_))
        );
        if !same_type {
            return Err(Error::new(
                ErrorCode::McpAmbiguousAnswer,
                format!(
                    "an answer whose id is not of the type of the request's, while waiting for the \
                     answer to {} (the SDKs judge it differently)",
                    self.method
                ),
            ));
        }
        if id != *awaited {
            return Ok(Seen::Other);
        }
        if self.answered {
            return Err(Error::new(
                ErrorCode::McpAmbiguousAnswer,
                format!("a second answer to the request of {}", self.method),
            ));
        }
        self.answered = true;
        Ok(answer)
    }

    /// The call is over (the client has its answer): refused with `MCP_NO_ANSWER` when no
    /// request of this call was sent or no answer to it was received.
    pub fn end(&self) -> Result<()> {
        if self.awaited.is_none() {
            return Err(Error::new(
                ErrorCode::McpNoAnswer,
                format!("the client sent no {} request that matches", self.method),
            ));
        }
        if !self.answered {
            return Err(Error::new(
                ErrorCode::McpNoAnswer,
                format!("no answer to the {} request was seen", self.method),
            ));
        }
        Ok(())
    }

    /// Whether the answer to the request awaited was received.
    pub fn answered(&self) -> bool {
        self.answered
    }

    /// The state as a JSON value: `{method, match, awaited, answered, received}`.
    pub fn to_value(&self) -> Value<'static> {
        Value::Object(vec![
            (
                "method".into(),
                Value::String(Cow::Owned(self.method.clone())),
            ),
            (
                "match".into(),
                Value::Object(
                    self.matcher
                        .iter()
                        .map(|(k, v)| (Cow::Owned(k.clone()), v.clone()))
                        .collect(),
                ),
            ),
            (
                "awaited".into(),
                self.awaited.as_ref().map_or(Value::Null, Id::to_value),
            ),
            ("answered".into(), Value::Bool(self.answered)),
            ("received".into(), Value::Number(self.received as f64)),
        ])
    }

    /// The state from [`Window::to_value`]'s value; a new call from `{method, match?}`
    /// (`INVALID_ARGUMENT` for anything else).
    pub fn from_value(v: &Value<'_>) -> Result<Window> {
        let bad = |what: &str| Error::new(ErrorCode::InvalidArgument, format!("window: {what}"));
        crate::shape::members(
            v,
            "window",
            &["method", "match", "awaited", "answered", "received"],
        )?;
        let method = v
            .get("method")
            .and_then(Value::as_str)
            .ok_or_else(|| bad("method must be a string"))?;
        let matcher = match v.get("match") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Object(m)) => m
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone().into_owned()))
                .collect(),
            Some(_) => return Err(bad("match must be an object")),
        };
        let awaited = match v.get("awaited") {
            None | Some(Value::Null) => None,
            Some(a) => Some(
                Id::of(a)
                    .ok_or_else(|| bad("awaited must be an integer or a string"))?
                    .into_owned(),
            ),
        };
        let answered = match v.get("answered") {
            None => false,
            Some(Value::Bool(b)) => *b,
            Some(_) => return Err(bad("answered must be a boolean")),
        };
        let received = match v.get("received") {
            None => 0,
            Some(Value::Number(n)) if *n >= 0.0 && n.fract() == 0.0 => *n as u64,
            Some(_) => return Err(bad("received must be a whole number")),
        };
        if answered && awaited.is_none() {
            return Err(bad("answered without a request awaited"));
        }
        Ok(Window {
            method: method.to_owned(),
            matcher,
            awaited,
            answered,
            received,
        })
    }
}

/// The client's answer to a request of the server: `{}` to `ping`, "method not found" (-32601)
/// to anything else (a client that offers no capabilities: sampling, roots and elicitation are
/// not its to answer).
pub fn reply_to(id: &Id<'_>, method: &str) -> Result<Vec<u8>> {
    let mut answer = vec![
        ("jsonrpc".into(), Value::from("2.0")),
        ("id".into(), id.to_value()),
    ];
    if method == "ping" {
        answer.push(("result".into(), Value::Object(Vec::new())));
    } else {
        answer.push((
            "error".into(),
            Value::Object(vec![
                ("code".into(), Value::Number(-32601.0)),
                ("message".into(), Value::from("method not found")),
            ]),
        ));
    }
    canonical::canonicalize_value(&Value::Object(answer))
}

/// The pages of one `tools/list`: each page's answer given in order ([`Listing::page`]), the next
/// one asked with the cursor it returns.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Listing {
    pages: usize,
    tools: usize,
    bytes: usize,
    cursors: Vec<String>,
}

impl Listing {
    /// A listing before its first page.
    pub fn new() -> Listing {
        Listing::default()
    }

    /// The cursor of the next page to ask (`None`: the first page).
    pub fn cursor(&self) -> Option<&str> {
        self.cursors.last().map(String::as_str)
    }

    /// The [`Window`] of the next page: `tools/list` with this cursor.
    pub fn window(&self) -> Window {
        let cursor = self
            .cursor()
            .map_or(Value::Null, |c| Value::String(Cow::Owned(c.to_owned())));
        Window::new("tools/list", vec![("cursor".to_owned(), cursor)])
    }

    /// The answer's `result` of the next page (`bytes`: the length of its message): the cursor
    /// of the page after it, or `None` when it was the last. Refused: a result without a `tools`
    /// array (`INVALID_SHAPE`), a `nextCursor` that repeats an earlier one or is not a string,
    /// more than [`MAX_PAGES`] pages or [`MAX_TOOLS`] tools (`MCP_BAD_CURSOR`), more than
    /// [`MAX_LISTING_BYTES`] of answers (`BODY_TOO_LARGE`).
    pub fn page(&mut self, result: &Value<'_>, bytes: usize) -> Result<Option<String>> {
        let page = self.pages + 1;
        if page > MAX_PAGES {
            return Err(Error::new(
                ErrorCode::McpBadCursor,
                format!("the server gives more than {MAX_PAGES} pages of tools"),
            ));
        }
        self.bytes = self.bytes.saturating_add(bytes);
        limits::check_len(self.bytes, MAX_LISTING_BYTES, "the answers of tools/list")?;
        let Some(Value::Array(tools)) = result.get("tools") else {
            return Err(Error::new(
                ErrorCode::InvalidShape,
                format!("the answer to tools/list (page {page}) has no tools array"),
            ));
        };
        self.tools = self.tools.saturating_add(tools.len());
        if self.tools > MAX_TOOLS {
            return Err(Error::new(
                ErrorCode::McpBadCursor,
                format!("the server lists more than {MAX_TOOLS} tools"),
            ));
        }
        self.pages = page;
        match result.get("nextCursor") {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(c)) => {
                if self.cursors.iter().any(|seen| seen == c) {
                    return Err(Error::new(
                        ErrorCode::McpBadCursor,
                        format!(
                            "the answer to tools/list (page {page}) repeats an earlier nextCursor \
                             (the listing would not end)"
                        ),
                    ));
                }
                self.cursors.push(c.to_string());
                Ok(Some(c.to_string()))
            }
            Some(_) => Err(Error::new(
                ErrorCode::McpBadCursor,
                format!(
                    "the answer to tools/list (page {page}) has a nextCursor that is not a string"
                ),
            )),
        }
    }

    /// How many pages were read.
    pub fn pages(&self) -> usize {
        self.pages
    }

    /// The state as a JSON value: `{pages, tools, bytes, cursors}`.
    pub fn to_value(&self) -> Value<'static> {
        Value::Object(vec![
            ("pages".into(), Value::Number(self.pages as f64)),
            ("tools".into(), Value::Number(self.tools as f64)),
            ("bytes".into(), Value::Number(self.bytes as f64)),
            (
                "cursors".into(),
                Value::Array(
                    self.cursors
                        .iter()
                        .map(|c| Value::String(Cow::Owned(c.clone())))
                        .collect(),
                ),
            ),
        ])
    }

    /// The state from [`Listing::to_value`]'s value (`null` or `{}`: a new listing;
    /// `INVALID_ARGUMENT` for anything else).
    pub fn from_value(v: &Value<'_>) -> Result<Listing> {
        if matches!(v, Value::Null) {
            return Ok(Listing::new());
        }
        let bad = |what: &str| Error::new(ErrorCode::InvalidArgument, format!("listing: {what}"));
        crate::shape::members(v, "listing", &["pages", "tools", "bytes", "cursors"])?;
        let count = |k: &str| match v.get(k) {
            None => Ok(0),
            Some(Value::Number(n)) if *n >= 0.0 && n.fract() == 0.0 && *n <= 1e15 => {
                Ok(*n as usize)
            }
            Some(_) => Err(bad("pages, tools and bytes must be whole numbers")),
        };
        let cursors = match v.get("cursors") {
            None => Vec::new(),
            Some(Value::Array(items)) => items
                .iter()
                .map(|c| c.as_str().map(str::to_owned))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| bad("cursors must be strings"))?,
            Some(_) => return Err(bad("cursors must be an array")),
        };
        Ok(Listing {
            pages: count("pages")?,
            tools: count("tools")?,
            bytes: count("bytes")?,
            cursors,
        })
    }
}

#[cfg(test)]
mod tests;
