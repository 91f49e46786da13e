//! A `text/event-stream` parser (MCP's Streamable HTTP transport carries JSON-RPC messages in its
//! `message` events) (the WHATWG HTML standard, "Server-sent events", §9.2.6), fed
//! bytes as they arrive, with a cap on what one event may hold.
//!
//! Lines end with CRLF, LF or CR (a CRLF split between two reads is one line end); a line that
//! starts with `:` is a comment; `field: value` (one space after the colon dropped); `data` lines
//! are joined with `\n`; an empty line dispatches the event (nothing is dispatched when no `data`
//! line came); `id` sets the last event id (kept across events; an id holding NUL is ignored);
//! `retry` sets the reconnection time when it is all ASCII digits; a leading UTF-8 byte-order
//! mark of the stream is dropped, as the standard says, and noted ([`Parser::bom`]: the official
//! MCP SDKs read it differently, so a client may refuse the stream). An event left without its
//! empty line when the stream ends is never dispatched.

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// The event type (`message` when no `event` line came).
    pub kind: String,
    /// The data lines joined with `\n`, as bytes (a JSON-RPC message for MCP's `message` events).
    pub data: Vec<u8>,
}

/// Why the stream was refused: a line or an event's data beyond the cap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooLong;

/// The parser's state between reads.
#[derive(Debug)]
pub struct Parser {
    cap: usize,
    line: Vec<u8>,
    after_cr: bool,
    started: bool,
    data: Vec<u8>,
    has_data: bool,
    kind: Vec<u8>,
    /// The last event id seen (the `Last-Event-ID` of a reconnection).
    pub last_id: Option<String>,
    /// The reconnection time the server asked for, in milliseconds.
    pub retry_ms: Option<u64>,
    /// Whether the stream opened with a UTF-8 byte-order mark (dropped). The TypeScript SDK's
    /// decoder drops it too; the Python SDK's parser keeps it, so its first line's field is
    /// unknown to it (docs/decisions/mcp.md).
    pub bom: bool,
}

impl Parser {
    /// A parser whose lines and events hold at most `cap` bytes.
    pub fn new(cap: usize) -> Parser {
        Parser {
            cap,
            line: Vec::new(),
            after_cr: false,
            started: false,
            data: Vec::new(),
            has_data: false,
            kind: Vec::new(),
            last_id: None,
            retry_ms: None,
            bom: false,
        }
    }

    /// Reads `bytes`, appending every event they complete to `out`.
    pub fn feed(&mut self, mut bytes: &[u8], out: &mut Vec<Event>) -> Result<(), TooLong> {
        if !self.started {
            // The byte-order mark may arrive split over reads: wait for three bytes (or a
            // prefix of the mark that stops matching).
            self.line.extend_from_slice(bytes);
            const BOM: &[u8] = b"\xEF\xBB\xBF";
            if self.line.len() < 3 && BOM.starts_with(&self.line) {
                return Ok(());
            }
            self.started = true;
            let held = std::mem::take(&mut self.line);
            self.bom = held.starts_with(BOM);
            let held = held.strip_prefix(BOM).unwrap_or(&held);
            return self.feed(held, out);
        }
        if self.after_cr {
            if let Some(rest) = bytes.strip_prefix(b"\n") {
                bytes = rest;
            }
            self.after_cr = false;
        }
        while let Some(i) = bytes.iter().position(|&b| b == b'\n' || b == b'\r') {
            if self.line.len() + i > self.cap {
                return Err(TooLong);
            }
            self.line.extend_from_slice(&bytes[..i]);
            let line = std::mem::take(&mut self.line);
            self.process(&line, out)?;
            if bytes[i] == b'\r' {
                match bytes.get(i + 1) {
                    Some(b'\n') => bytes = &bytes[i + 2..],
                    Some(_) => bytes = &bytes[i + 1..],
                    None => {
                        self.after_cr = true;
                        bytes = &[];
                    }
                }
            } else {
                bytes = &bytes[i + 1..];
            }
        }
        if self.line.len() + bytes.len() > self.cap {
            return Err(TooLong);
        }
        self.line.extend_from_slice(bytes);
        Ok(())
    }

    fn process(&mut self, line: &[u8], out: &mut Vec<Event>) -> Result<(), TooLong> {
        if line.is_empty() {
            if self.has_data {
                let kind = if self.kind.is_empty() {
                    "message".to_owned()
                } else {
                    String::from_utf8_lossy(&self.kind).into_owned()
                };
                out.push(Event {
                    kind,
                    data: std::mem::take(&mut self.data),
                });
            }
            self.data.clear();
            self.has_data = false;
            self.kind.clear();
            return Ok(());
        }
        if line[0] == b':' {
            return Ok(());
        }
        let (field, value) = match line.iter().position(|&b| b == b':') {
            Some(i) => {
                let v = &line[i + 1..];
                (&line[..i], v.strip_prefix(b" ").unwrap_or(v))
            }
            None => (line, &b""[..]),
        };
        match field {
            b"data" => {
                let extra = usize::from(self.has_data);
                if self.data.len() + extra + value.len() > self.cap {
                    return Err(TooLong);
                }
                if self.has_data {
                    self.data.push(b'\n');
                }
                self.data.extend_from_slice(value);
                self.has_data = true;
            }
            b"event" => self.kind = value.to_vec(),
            b"id" if !value.contains(&0) => {
                self.last_id = Some(String::from_utf8_lossy(value).into_owned());
            }
            b"retry" if !value.is_empty() && value.iter().all(u8::is_ascii_digit) => {
                self.retry_ms = std::str::from_utf8(value).ok().and_then(|s| s.parse().ok());
            }
            _ => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(chunks: &[&[u8]]) -> (Vec<Event>, Parser) {
        let mut p = Parser::new(1 << 20);
        let mut out = Vec::new();
        for c in chunks {
            p.feed(c, &mut out).expect("within the cap");
        }
        (out, p)
    }

    fn msg(data: &str) -> Event {
        Event {
            kind: "message".into(),
            data: data.as_bytes().to_vec(),
        }
    }

    #[test]
    fn data_lines_comments_and_types() {
        let stream = b"\xEF\xBB\xBF: a comment\nevent: message\nid: 7\ndata: {\"a\":\ndata:1}\n\n\
            event: ping\ndata: x\n\nretry: 1500\nid\n\ndata\n\ndata: tail without an empty line";
        let (out, p) = events(&[stream]);
        assert_eq!(
            out,
            vec![
                msg("{\"a\":\n1}"),
                Event {
                    kind: "ping".into(),
                    data: b"x".to_vec()
                },
                msg(""),
            ]
        );
        assert_eq!(p.last_id.as_deref(), Some(""));
        assert_eq!(p.retry_ms, Some(1500));
        assert!(p.bom);
        let (_, p) = events(&[b"\xEF\xBB", b"data: x\n\n"]);
        assert!(
            !p.bom,
            "a prefix of the mark that stops matching is no mark"
        );
    }

    #[test]
    fn every_split_and_every_line_end_gives_the_same_events() {
        let body = "event: message\r\nid: e1\r\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\r\n\r\n\
            :keep-alive\rdata: two\rdata: lines\r\rdata: ü\n\n";
        let want = vec![
            msg("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}"),
            msg("two\nlines"),
            msg("ü"),
        ];
        let bytes = body.as_bytes();
        for i in 0..=bytes.len() {
            for j in i..=bytes.len() {
                let (out, p) = events(&[&bytes[..i], &bytes[i..j], &bytes[j..]]);
                assert_eq!(out, want, "split at {i}, {j}");
                assert_eq!(p.last_id.as_deref(), Some("e1"));
            }
        }
        // A byte-order mark split over reads, then a CR at the end of one read and LF at the
        // start of the next: one line end, not two (two would dispatch an empty event early).
        let (out, _) = events(&[
            b"\xEF",
            b"\xBB",
            b"\xBFdata: a\r",
            b"\ndata: b\r",
            b"\n\r\n",
        ]);
        assert_eq!(out, vec![msg("a\nb")]);
        let (_, p) = events(&[b"\xEF", b"\xBB", b"\xBFdata: a\n\n"]);
        assert!(p.bom, "a mark split over reads is noted");
    }

    #[test]
    fn a_line_or_an_event_beyond_the_cap_is_refused() {
        let mut p = Parser::new(16);
        let mut out = Vec::new();
        assert_eq!(p.feed(b"data: 0123456789abcdef", &mut out), Err(TooLong));
        let mut p = Parser::new(16);
        assert!(p.feed(b"data: 0123456789\n", &mut out).is_ok());
        assert_eq!(p.feed(b"data: 0123456789\n", &mut out), Err(TooLong));
        // An endless line without a line end stops at the cap too.
        let mut p = Parser::new(16);
        assert!(p.feed(&[b'a'; 16], &mut out).is_ok());
        assert_eq!(p.feed(b"a", &mut out), Err(TooLong));
        assert!(out.is_empty());
    }
}
