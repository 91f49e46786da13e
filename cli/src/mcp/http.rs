//! MCP's Streamable HTTP transport (MCP 2025-06-18 and 2025-11-25, "Transports"), client side,
//! over HTTP/1.1 on `std::net` (`http://` only: this build has no TLS, docs/decisions.md B10).
//!
//! Each message is a `POST` to the endpoint with `Accept: application/json, text/event-stream`;
//! the answer to a request is one JSON body, or an event stream whose `message` events hold
//! JSON-RPC messages (the response among them; a request of the server is answered by another
//! `POST`). A stream that ends before the response is resumed with `GET` and `Last-Event-ID`
//! when its events had ids. The `Mcp-Session-Id` the server gives at initialization and
//! `MCP-Protocol-Version` go with every later request; the session is ended with `DELETE` at the
//! end. One connection a request (`Connection: close`); every read and write is held to the
//! deadline; a body, an event and the response head are capped.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use ekl_core::{Error, ErrorCode, Value};

use ekl_core::mcp::{sse, Window};

use super::{route, McpFailure, Routed, Step, Transport, MAX_MESSAGE_BYTES};

/// The most bytes of a response's status line and headers.
const MAX_HEAD_BYTES: u64 = 64 << 10;
/// The most times a stream is resumed for one request.
const MAX_RESUMES: usize = 100;

/// An `http://` endpoint.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Url {
    /// The `Host` header: the authority as given.
    pub authority: String,
    /// The host name or address (an IPv6 address without its brackets).
    pub host: String,
    /// The port (80 by default).
    pub port: u16,
    /// The path and query (`/` when none).
    pub target: String,
}

/// Reads an `http://HOST[:PORT][/PATH][?QUERY]` URL (no user information, no fragment).
pub(super) fn parse_url(url: &str) -> Result<Url, String> {
    let rest = match url.split_once("://") {
        Some((scheme, rest)) if scheme.eq_ignore_ascii_case("http") => rest,
        Some((scheme, _)) if scheme.eq_ignore_ascii_case("https") => {
            return Err(
                "https is not supported by this build (no TLS; docs/decisions.md B10): \
                 give an http:// endpoint, or run the server over stdio with -- COMMAND"
                    .into(),
            )
        }
        _ => return Err("an http:// URL is needed".into()),
    };
    if url.bytes().any(|b| b <= b' ' || b == 0x7f) {
        return Err("the URL holds a space or a control character".into());
    }
    let (authority, target) = match rest.find(['/', '?', '#']) {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, ""),
    };
    if target.contains('#') {
        return Err("a URL with a fragment (#) is not an endpoint".into());
    }
    if authority.contains('@') {
        return Err("user information in the URL is not supported".into());
    }
    let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
        let (h, after) = v6.split_once(']').ok_or("an IPv6 address without its ]")?;
        (h, after.strip_prefix(':'))
    } else {
        match authority.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (authority, None),
        }
    };
    if host.is_empty() {
        return Err("the URL has no host".into());
    }
    let port = match port {
        None => 80,
        Some(p) => p
            .parse::<u16>()
            .ok()
            .filter(|&p| p != 0)
            .ok_or("the port is not a number from 1 to 65535")?,
    };
    let target = if target.is_empty() {
        "/".to_owned()
    } else if target.starts_with('?') {
        format!("/{target}")
    } else {
        target.to_owned()
    };
    Ok(Url {
        authority: authority.to_owned(),
        host: host.to_owned(),
        port,
        target,
    })
}

/// A Streamable HTTP client session.
pub(super) struct Http {
    url: Url,
    addrs: Vec<SocketAddr>,
    session: Option<String>,
    version: Option<String>,
}

/// How a response's body is delimited.
enum Framing {
    Length(u64),
    Chunked,
    Close,
}

/// A response: status, the headers the client reads, the body as a reader.
struct Response {
    status: u16,
    content_type: String,
    session: Option<String>,
    body: Body,
}

/// A socket whose every read waits at most until the deadline.
struct Timed {
    stream: TcpStream,
    deadline: Instant,
}

impl Read for Timed {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::ErrorKind::TimedOut.into());
        }
        self.stream.set_read_timeout(Some(left))?;
        self.stream.read(buf).map_err(|e| match e.kind() {
            io::ErrorKind::WouldBlock => io::ErrorKind::TimedOut.into(),
            _ => e,
        })
    }
}

/// A response body, de-chunked.
struct Body {
    r: BufReader<Timed>,
    framing: Framing,
    chunk_left: u64,
    done: bool,
}

impl Read for Body {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.done || buf.is_empty() {
            return Ok(0);
        }
        match self.framing {
            Framing::Close => self.r.read(buf),
            Framing::Length(ref mut left) => {
                if *left == 0 {
                    return Ok(0);
                }
                let n = buf.len().min(usize::try_from(*left).unwrap_or(usize::MAX));
                let got = self.r.read(&mut buf[..n])?;
                if got == 0 {
                    return Err(io::ErrorKind::UnexpectedEof.into());
                }
                *left -= got as u64;
                Ok(got)
            }
            Framing::Chunked => {
                if self.chunk_left == 0 {
                    let size = self.line()?;
                    let size = size.split(';').next().unwrap_or("").trim();
                    self.chunk_left = u64::from_str_radix(size, 16)
                        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "chunk size"))?;
                    if self.chunk_left == 0 {
                        while !self.line()?.is_empty() {}
                        self.done = true;
                        return Ok(0);
                    }
                }
                let n = buf
                    .len()
                    .min(usize::try_from(self.chunk_left).unwrap_or(usize::MAX));
                let got = self.r.read(&mut buf[..n])?;
                if got == 0 {
                    return Err(io::ErrorKind::UnexpectedEof.into());
                }
                self.chunk_left -= got as u64;
                if self.chunk_left == 0 && !self.line()?.is_empty() {
                    return Err(io::Error::new(io::ErrorKind::InvalidData, "chunk end"));
                }
                Ok(got)
            }
        }
    }
}

impl Body {
    /// One line of the chunked framing (at most 4 KiB), without its line end.
    fn line(&mut self) -> io::Result<String> {
        let mut line = Vec::new();
        (&mut self.r).take(4096).read_until(b'\n', &mut line)?;
        if line.last() != Some(&b'\n') {
            return Err(io::Error::new(io::ErrorKind::InvalidData, "chunk line"));
        }
        Ok(String::from_utf8_lossy(&line).trim_end().to_owned())
    }
}

fn io_failure(e: io::Error, what: &str) -> McpFailure {
    match e.kind() {
        io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock => McpFailure::Timeout(format!(
            "{what} did not finish before the deadline (--timeout)"
        )),
        io::ErrorKind::InvalidData => {
            McpFailure::Protocol(format!("{what}: the HTTP framing is broken ({e})"))
        }
        k => McpFailure::Unavailable(format!("{what}: {k}")),
    }
}

fn too_large(what: &str) -> McpFailure {
    McpFailure::Refused(Error::new(
        ErrorCode::BodyTooLarge,
        format!("{what} holds more than {MAX_MESSAGE_BYTES} bytes (the limit of this input)"),
    ))
}

impl Http {
    /// A client of the endpoint at `url` (the name is resolved here, once).
    pub(super) fn new(url: &str) -> Result<Http, String> {
        let url = parse_url(url)?;
        let addrs: Vec<SocketAddr> = (url.host.as_str(), url.port)
            .to_socket_addrs()
            .map_err(|_| "the host name could not be resolved".to_owned())?
            .collect();
        if addrs.is_empty() {
            return Err("the host name could not be resolved".into());
        }
        Ok(Http {
            url,
            addrs,
            session: None,
            version: None,
        })
    }

    /// Sends one HTTP request and reads the response head.
    fn exchange(
        &self,
        method: &str,
        body: Option<&[u8]>,
        extra: &[(&str, &str)],
        deadline: Instant,
    ) -> Result<Response, McpFailure> {
        let what = format!("the HTTP {method}");
        let mut last = None;
        let mut stream = None;
        for addr in &self.addrs {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            match TcpStream::connect_timeout(addr, left) {
                Ok(s) => {
                    stream = Some(s);
                    break;
                }
                Err(e) => last = Some(e),
            }
        }
        let stream = stream.ok_or_else(|| match last {
            Some(e) => {
                McpFailure::Unavailable(format!("the server could not be reached ({})", e.kind()))
            }
            None => McpFailure::Timeout("no connection before the deadline (--timeout)".into()),
        })?;
        let mut head = format!(
            "{method} {} HTTP/1.1\r\nHost: {}\r\nUser-Agent: ekl/{}\r\n\
             Accept: application/json, text/event-stream\r\nConnection: close\r\n",
            self.url.target,
            self.url.authority,
            env!("CARGO_PKG_VERSION")
        );
        if let Some(b) = body {
            head.push_str(&format!(
                "Content-Type: application/json\r\nContent-Length: {}\r\n",
                b.len()
            ));
        }
        if let Some(s) = &self.session {
            head.push_str(&format!("Mcp-Session-Id: {s}\r\n"));
        }
        if let Some(v) = &self.version {
            head.push_str(&format!("MCP-Protocol-Version: {v}\r\n"));
        }
        for (k, v) in extra {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str("\r\n");
        let mut request = head.into_bytes();
        request.extend_from_slice(body.unwrap_or_default());
        let left = deadline.saturating_duration_since(Instant::now());
        stream
            .set_write_timeout(Some(left.max(Duration::from_millis(1))))
            .and_then(|()| (&stream).write_all(&request))
            .map_err(|e| io_failure(e, &what))?;
        let mut r = BufReader::new(Timed { stream, deadline });
        loop {
            let mut head = Vec::new();
            loop {
                let mut line = Vec::new();
                (&mut r)
                    .take(MAX_HEAD_BYTES + 1 - head.len() as u64)
                    .read_until(b'\n', &mut line)
                    .map_err(|e| io_failure(e, &what))?;
                if line.last() != Some(&b'\n') {
                    return Err(McpFailure::Protocol(format!(
                        "{what}: the response head is cut off or longer than {MAX_HEAD_BYTES} bytes"
                    )));
                }
                head.extend_from_slice(&line);
                if line == b"\r\n" || line == b"\n" {
                    break;
                }
            }
            let head = String::from_utf8_lossy(&head).into_owned();
            let mut lines = head.lines();
            let status_line = lines.next().unwrap_or("");
            let status: u16 = match status_line.split(' ').collect::<Vec<_>>()[..] {
                [v, code, ..] if v.starts_with("HTTP/1.") => code.parse().unwrap_or(0),
                _ => 0,
            };
            if !(100..600).contains(&status) {
                return Err(McpFailure::Protocol(format!(
                    "{what}: not an HTTP/1.x response"
                )));
            }
            if status < 200 {
                continue; // 100 Continue and other interim answers
            }
            let mut content_type = String::new();
            let mut session = None;
            let mut framing = Framing::Close;
            for l in lines {
                let Some((k, v)) = l.split_once(':') else {
                    continue;
                };
                let v = v.trim();
                match k.trim().to_ascii_lowercase().as_str() {
                    "content-type" => content_type = v.to_ascii_lowercase(),
                    "mcp-session-id" => session = Some(v.to_owned()),
                    "transfer-encoding" if v.to_ascii_lowercase().contains("chunked") => {
                        framing = Framing::Chunked
                    }
                    "content-length" if !matches!(framing, Framing::Chunked) => {
                        framing = Framing::Length(v.parse().map_err(|_| {
                            McpFailure::Protocol(format!(
                                "{what}: a Content-Length that is not a number"
                            ))
                        })?)
                    }
                    _ => {}
                }
            }
            if status == 204 || status == 304 || method == "HEAD" {
                framing = Framing::Length(0);
            }
            return Ok(Response {
                status,
                content_type,
                session,
                body: Body {
                    r,
                    framing,
                    chunk_left: 0,
                    done: false,
                },
            });
        }
    }

    /// An HTTP error status as the client reports it.
    fn status_failure(&self, status: u16, what: &str) -> McpFailure {
        if status == 404 && self.session.is_some() {
            return McpFailure::Unavailable(format!(
                "the server answered {what} with HTTP 404: the session ended"
            ));
        }
        McpFailure::Unavailable(format!("the server answered {what} with HTTP {status}"))
    }

    /// Reads the answer to request `id` from a response: a JSON body, or an event stream.
    /// `Ok(None)`: the stream ended first (the caller resumes it if it can).
    fn answer(
        &mut self,
        mut response: Response,
        window: &mut Window,
        step: Step,
        events: &mut sse::Parser,
        deadline: Instant,
    ) -> Result<Option<(Value<'static>, usize)>, McpFailure> {
        let what = format!("the answer to {step}");
        let media = response
            .content_type
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_owned();
        if media == "application/json" {
            let mut raw = Vec::new();
            (&mut response.body)
                .take(MAX_MESSAGE_BYTES as u64 + 1)
                .read_to_end(&mut raw)
                .map_err(|e| io_failure(e, &what))?;
            if raw.len() > MAX_MESSAGE_BYTES {
                return Err(too_large(&what));
            }
            return match route(window, &raw, step)? {
                Routed::Response(v) => Ok(Some((v, raw.len()))),
                _ => Err(McpFailure::Protocol(format!(
                    "{what}: the JSON body is not the response to the request"
                ))),
            };
        }
        if media != "text/event-stream" {
            return Err(McpFailure::Protocol(format!(
                "{what} is neither application/json nor text/event-stream"
            )));
        }
        let mut buf = vec![0u8; 64 << 10];
        let mut out = Vec::new();
        loop {
            let n = response
                .body
                .read(&mut buf)
                .map_err(|e| io_failure(e, &what))?;
            if n == 0 {
                return Ok(None);
            }
            events
                .feed(&buf[..n], &mut out)
                .map_err(|sse::TooLong| too_large("an event of the server's stream"))?;
            for event in out.drain(..) {
                if event.kind != "message" || event.data.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                match route(window, &event.data, step)? {
                    Routed::Response(v) => return Ok(Some((v, event.data.len()))),
                    Routed::Request(answer) => self.post_answer(&answer, deadline)?,
                    Routed::Other => {}
                }
            }
        }
    }

    /// Answers a request of the server (a `ping`) with a `POST` of its own.
    fn post_answer(&self, answer: &[u8], deadline: Instant) -> Result<(), McpFailure> {
        let r = self.exchange("POST", Some(answer), &[], deadline)?;
        if !(200..300).contains(&r.status) {
            return Err(self.status_failure(r.status, "an answer to its request"));
        }
        Ok(())
    }

    /// Ends the session (`DELETE`, best effort: a server may answer 405).
    pub(super) fn close(&mut self, deadline: Instant) {
        if self.session.is_some() {
            let _ = self.exchange("DELETE", None, &[], deadline);
        }
    }
}

impl Transport for Http {
    fn notify(&mut self, body: &[u8], deadline: Instant) -> Result<(), McpFailure> {
        let r = self.exchange("POST", Some(body), &[], deadline)?;
        if !(200..300).contains(&r.status) {
            return Err(self.status_failure(r.status, "a notification"));
        }
        Ok(())
    }

    fn request(
        &mut self,
        window: &mut Window,
        body: &[u8],
        step: Step,
        deadline: Instant,
    ) -> Result<(Value<'static>, usize), McpFailure> {
        let r = self.exchange("POST", Some(body), &[], deadline)?;
        if !(200..300).contains(&r.status) || r.status == 202 {
            return Err(self.status_failure(r.status, &step.to_string()));
        }
        if matches!(step, Step::Initialize) {
            if let Some(s) = &r.session {
                if s.is_empty() || !s.bytes().all(|b| (0x21..=0x7e).contains(&b)) {
                    return Err(McpFailure::Protocol(
                        "the Mcp-Session-Id is not visible ASCII".into(),
                    ));
                }
                self.session = Some(s.clone());
            }
        }
        let mut events = sse::Parser::new(MAX_MESSAGE_BYTES);
        let mut response = r;
        for _ in 0..=MAX_RESUMES {
            if let Some(found) = self.answer(response, window, step, &mut events, deadline)? {
                return Ok(found);
            }
            let Some(last) = events.last_id.clone().filter(|l| !l.is_empty()) else {
                break;
            };
            if let Some(ms) = events.retry_ms {
                let wait = Duration::from_millis(ms.min(60_000));
                if Instant::now() + wait >= deadline {
                    return Err(McpFailure::Timeout(format!(
                        "no answer to {step} before the deadline (--timeout)"
                    )));
                }
                std::thread::sleep(wait);
            }
            response = self.exchange("GET", None, &[("Last-Event-ID", &last)], deadline)?;
            if response.status != 200 {
                return Err(self.status_failure(response.status, "the resumed stream"));
            }
            let last_id = events.last_id.take();
            events = sse::Parser::new(MAX_MESSAGE_BYTES);
            events.last_id = last_id;
        }
        Err(McpFailure::Protocol(format!(
            "the server's event stream ended before the answer to {step}"
        )))
    }

    fn negotiated(&mut self, version: &str) {
        if !version.is_empty() && version.bytes().all(|b| (0x21..=0x7e).contains(&b)) {
            self.version = Some(version.to_owned());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        let u = parse_url("http://127.0.0.1:8080/mcp?x=1").expect("url");
        assert_eq!(
            u,
            Url {
                authority: "127.0.0.1:8080".into(),
                host: "127.0.0.1".into(),
                port: 8080,
                target: "/mcp?x=1".into()
            }
        );
        let u = parse_url("HTTP://[::1]/").expect("url");
        assert_eq!(
            (u.host.as_str(), u.port, u.target.as_str()),
            ("::1", 80, "/")
        );
        assert_eq!(parse_url("http://h?q").expect("url").target, "/?q");
        for bad in [
            "https://example.org/mcp",
            "ftp://h/",
            "127.0.0.1:80",
            "http://:80/",
            "http://h:0/",
            "http://h:99999/",
            "http://u:p@h/",
            "http://h/a b",
            "http://h/#f",
            "http://[::1/",
        ] {
            assert!(parse_url(bad).is_err(), "{bad}");
        }
        assert!(parse_url("https://h/")
            .expect_err("https")
            .contains("https is not supported by this build"));
    }

    /// A one-shot HTTP server on 127.0.0.1 that answers each connection with the next response.
    fn serve(responses: Vec<Vec<u8>>) -> (String, std::thread::JoinHandle<Vec<String>>) {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let url = format!("http://{}/mcp", listener.local_addr().expect("addr"));
        let handle = std::thread::spawn(move || {
            let mut seen = Vec::new();
            for response in responses {
                let (mut s, _) = listener.accept().expect("accept");
                let mut r = BufReader::new(s.try_clone().expect("clone"));
                let mut head = String::new();
                let mut len = 0usize;
                loop {
                    let mut l = String::new();
                    r.read_line(&mut l).expect("line");
                    if let Some(v) = l.to_ascii_lowercase().strip_prefix("content-length:") {
                        len = v.trim().parse().expect("length");
                    }
                    head.push_str(&l);
                    if l == "\r\n" {
                        break;
                    }
                }
                let mut body = vec![0; len];
                r.read_exact(&mut body).expect("body");
                head.push_str(&String::from_utf8_lossy(&body));
                seen.push(head);
                s.write_all(&response).expect("write");
            }
            seen
        });
        (url, handle)
    }

    fn chunked(parts: &[&str]) -> Vec<u8> {
        let mut out = Vec::new();
        for p in parts {
            out.extend_from_slice(format!("{:x};ext=1\r\n{p}\r\n", p.len()).as_bytes());
        }
        out.extend_from_slice(b"0\r\nX-Trailer: 1\r\n\r\n");
        out
    }

    #[test]
    fn json_bodies_event_streams_sessions_and_resumption() {
        let init = r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"h","version":"2"}}}"#;
        let mut r1 = format!(
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\
             mcp-session-id: s-1\r\nContent-Length: {}\r\n\r\n{init}",
            init.len()
        )
        .into_bytes();
        r1.extend_from_slice(b"");
        let r2 = b"HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n".to_vec();
        // Page 1: an event stream, chunked, split mid-event; a ping of the server on the way,
        // then the stream ends before the response (with an event id: resumed by GET).
        let mut r3 = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
        r3.extend(chunked(&[
            "id: e1\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":9,",
            "\"method\":\"ping\"}\n\n: keep\n\nretry: 10\n\n",
        ]));
        let r4 = b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".to_vec();
        let mut r5 = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
        r5.extend(chunked(&[
            "id: e2\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"tools\":[{\"name\":\"a\"}],\"nextCursor\":\"c\"}}\n\n",
        ]));
        // Page 2: a JSON body ended by closing the connection.
        let r6 = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"tools\":[{\"name\":\"b\"}]}}".to_vec();
        let r7 = b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n".to_vec();
        let (url, server) = serve(vec![r1, r2, r3, r4, r5, r6, r7]);
        let mut t = Http::new(&url).expect("url");
        let deadline = Instant::now() + Duration::from_secs(20);
        let listing = super::super::list_tools(&mut t, deadline).expect("listed");
        t.close(deadline);
        assert_eq!(listing.pages, 2);
        assert_eq!(listing.tools.len(), 2);
        let seen = server.join().expect("server");
        assert_eq!(seen.len(), 7);
        assert!(seen[0].starts_with("POST /mcp HTTP/1.1\r\n"), "{}", seen[0]);
        assert!(seen[0].contains("Accept: application/json, text/event-stream\r\n"));
        assert!(!seen[0].contains("Mcp-Session-Id"));
        for s in &seen[1..] {
            assert!(s.contains("Mcp-Session-Id: s-1\r\n"), "{s}");
            assert!(s.contains("MCP-Protocol-Version: 2025-06-18\r\n"), "{s}");
        }
        assert!(seen[1].ends_with(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#));
        assert!(
            seen[3].ends_with(r#"{"id":9,"jsonrpc":"2.0","result":{}}"#),
            "{}",
            seen[3]
        );
        assert!(
            seen[4].starts_with("GET /mcp HTTP/1.1\r\n")
                && seen[4].contains("Last-Event-ID: e1\r\n"),
            "{}",
            seen[4]
        );
        assert!(seen[5].ends_with(
            r#"{"id":3,"jsonrpc":"2.0","method":"tools/list","params":{"cursor":"c"}}"#
        ));
        assert!(seen[6].starts_with("DELETE /mcp HTTP/1.1\r\n"));
    }

    #[test]
    fn errors_and_the_deadline() {
        let (url, server) = serve(vec![
            b"HTTP/1.1 500 Internal\r\nContent-Length: 0\r\n\r\n".to_vec()
        ]);
        let mut t = Http::new(&url).expect("url");
        let deadline = Instant::now() + Duration::from_secs(20);
        match super::super::list_tools(&mut t, deadline) {
            Err(McpFailure::Unavailable(m)) => {
                assert_eq!(m, "the server answered initialize with HTTP 500")
            }
            other => panic!("{other:?}"),
        }
        server.join().expect("server");
        // A server that accepts and never answers: the deadline, not a hang.
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let url = format!("http://{}/", listener.local_addr().expect("addr"));
        let mut t = Http::new(&url).expect("url");
        let start = Instant::now();
        match super::super::list_tools(&mut t, start + Duration::from_millis(300)) {
            Err(McpFailure::Timeout(_)) => {}
            other => panic!("{other:?}"),
        }
        assert!(start.elapsed() < Duration::from_secs(5));
        drop(listener);
    }
}
