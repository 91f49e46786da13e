//! MCP's Streamable HTTP transport (MCP 2025-06-18 and 2025-11-25, "Transports"), client side,
//! over `http://` and `https://` through `ureq` (rustls with the `ring` provider; the web PKI's
//! roots, or the CA certificates of `--ca FILE` for a private server): docs/decisions/mcp.md.
//!
//! Each message is a `POST` to the endpoint with `Accept: application/json, text/event-stream`;
//! the answer to a request is one JSON body, or an event stream whose `message` events hold
//! JSON-RPC messages (the answer among them; a request of the server is answered by another
//! `POST`), framed by the core's SSE parser ([`ekl_core::mcp::sse`]). A stream that ends before
//! the answer is resumed with `GET` and `Last-Event-ID` when its events had ids. The
//! `Mcp-Session-Id` the server gives at initialization and `MCP-Protocol-Version` go with every
//! later request; the session is ended with `DELETE` at the end. Every request is held to what is
//! left of the deadline (ureq's global timeout: connection, TLS, head and body); no redirect is
//! followed, no proxy is read from the environment; a body and an event are capped.
//!
//! Read as both official SDKs read it, or refused (docs/decisions/mcp.md#mcp-sdk-reading): a
//! `Content-Encoding` other than `identity` (this client asks for none and decodes none), a
//! `charset` other than UTF-8, and an event stream that opens with a byte-order mark (the Python
//! SDK's parser keeps it, the TypeScript SDK's decoder drops it) are `MCP_UNSUPPORTED_ENCODING`;
//! an answer on a request's event stream whose id is not that request's (the Python SDK takes the
//! first answer on the stream as the request's, the TypeScript SDK goes by its id) is
//! `MCP_AMBIGUOUS_ANSWER`.

use std::io::{self, Read};
use std::path::Path;
use std::time::{Duration, Instant};

use ekl_core::mcp::{read_message, sse, Message, Window};
use ekl_core::{Error, ErrorCode, Value};
use rustls::pki_types::CertificateDer;
use ureq::tls::PemItem;

use super::{route, McpFailure, Routed, Step, Transport, MAX_MESSAGE_BYTES};

/// The most times a stream is resumed for one request.
const MAX_RESUMES: usize = 100;
/// The most bytes of a `--ca` file.
const MAX_CA_BYTES: u64 = 1 << 20;

/// A Streamable HTTP client session.
pub(super) struct Http {
    agent: ureq::Agent,
    url: String,
    session: Option<String>,
    version: Option<String>,
}

/// A response: status, the headers the client reads, the body as a reader.
struct Response {
    status: u16,
    content_type: String,
    /// The `Content-Encoding`, when given.
    encoding: Option<String>,
    session: Option<String>,
    body: Box<dyn Read + Send>,
}

fn io_failure(e: &io::Error, what: &str) -> McpFailure {
    let timed_out = matches!(
        e.kind(),
        io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock
    ) || e.to_string().to_ascii_lowercase().contains("timeout");
    if timed_out {
        return McpFailure::Timeout(format!(
            "{what} did not finish before the deadline (--timeout)"
        ));
    }
    McpFailure::Unavailable(format!("{what}: {}", super::printable(&e.to_string())))
}

fn ureq_failure(e: ureq::Error, what: &str) -> McpFailure {
    match e {
        ureq::Error::Timeout(_) => McpFailure::Timeout(format!(
            "{what} did not finish before the deadline (--timeout)"
        )),
        ureq::Error::Io(e) => io_failure(&e, what),
        other => {
            McpFailure::Unavailable(format!("{what}: {}", super::printable(&other.to_string())))
        }
    }
}

fn unsupported(what: &str) -> McpFailure {
    McpFailure::Refused(Error::new(
        ErrorCode::McpUnsupportedEncoding,
        format!("{what} (the official MCP SDKs do not read it alike)"),
    ))
}

/// A response in a form both SDKs do not read alike: a `Content-Encoding` other than `identity`
/// (ureq decodes none here), a `charset` other than UTF-8 (`content_type` is lower case).
fn encoding_refusal(encoding: Option<&str>, content_type: &str) -> Result<(), McpFailure> {
    if let Some(coding) = encoding.map(str::trim) {
        if !coding.is_empty() && !coding.eq_ignore_ascii_case("identity") {
            return Err(unsupported(&format!(
                "a response in the Content-Encoding {}",
                super::printable(coding)
            )));
        }
    }
    for param in content_type.split(';').skip(1) {
        if let Some((name, value)) = param.split_once('=') {
            let value = value.trim().trim_matches('"');
            if name.trim() == "charset" && value != "utf-8" && value != "utf8" {
                return Err(unsupported(&format!(
                    "a response in the charset {}",
                    super::printable(value)
                )));
            }
        }
    }
    Ok(())
}

/// An answer (a result, or an error) on the event stream of a request, that is not the answer to
/// that request (the window's route saw another answer): the Python SDK would take it as the
/// request's answer, the TypeScript SDK by its id.
fn foreign_answer(raw: &[u8]) -> bool {
    matches!(
        read_message(raw),
        Ok(Message::Result { .. } | Message::Error { .. })
    )
}

fn too_large(what: &str) -> McpFailure {
    McpFailure::Refused(Error::new(
        ErrorCode::BodyTooLarge,
        format!("{what} holds more than {MAX_MESSAGE_BYTES} bytes (the limit of this input)"),
    ))
}

/// The endpoint: an `http://` or `https://` URL with a host, without user information or a
/// fragment.
fn check_url(url: &str) -> Result<(), String> {
    let (scheme, rest) = url
        .split_once("://")
        .ok_or("an http:// or https:// URL is needed")?;
    if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
        return Err("an http:// or https:// URL is needed".into());
    }
    if url.bytes().any(|b| b <= b' ' || b == 0x7f) {
        return Err("the URL holds a space or a control character".into());
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    if authority.contains('@') {
        return Err("user information in the URL is not supported".into());
    }
    if authority.is_empty() || authority.starts_with(':') {
        return Err("the URL has no host".into());
    }
    if url.contains('#') {
        return Err("a URL with a fragment (#) is not an endpoint".into());
    }
    url.parse::<ureq::http::Uri>()
        .map_err(|_| "the URL is not a valid URI".to_owned())?;
    Ok(())
}

/// The CA certificates of a PEM file (`--ca`).
fn ca_certificates(path: &Path) -> Result<Vec<CertificateDer<'static>>, String> {
    let mut pem = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_CA_BYTES + 1).read_to_end(&mut pem))
        .map_err(|e| format!("--ca: {} cannot be read ({})", path.display(), e.kind()))?;
    if pem.len() as u64 > MAX_CA_BYTES {
        return Err(format!("--ca: {} holds more than 1 MiB", path.display()));
    }
    let mut certs = Vec::new();
    for item in ureq::tls::parse_pem(&pem) {
        match item {
            Ok(PemItem::Certificate(c)) => certs.push(CertificateDer::from(c.der().to_vec())),
            Ok(_) => {}
            Err(_) => return Err(format!("--ca: {} is not PEM", path.display())),
        }
    }
    if certs.is_empty() {
        return Err(format!("--ca: {} holds no certificate", path.display()));
    }
    Ok(certs)
}

impl Http {
    /// A client of the endpoint at `url`; `ca`: the PEM file of the CA certificates to trust
    /// instead of the web PKI's roots.
    pub(super) fn new(url: &str, ca: Option<&Path>) -> Result<Http, String> {
        check_url(url)?;
        let tls = match ca {
            None => super::tls::TlsConnector::new(None, None)?,
            Some(path) => {
                super::tls::TlsConnector::new(Some((path, ca_certificates(path)?)), None)?
            }
        };
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_redirects(0)
            .proxy(None)
            .user_agent(concat!("ekl/", env!("CARGO_PKG_VERSION")))
            .build();
        let agent = super::tls::agent(config, tls);
        Ok(Http {
            agent,
            url: url.to_owned(),
            session: None,
            version: None,
        })
    }

    /// Sends one HTTP request and reads the response head, within what is left of `deadline`.
    fn exchange(
        &self,
        method: &str,
        body: Option<&[u8]>,
        extra: &[(&str, &str)],
        deadline: Instant,
    ) -> Result<Response, McpFailure> {
        let what = format!("the HTTP {method}");
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(McpFailure::Timeout(format!(
                "{what} did not start before the deadline (--timeout)"
            )));
        }
        let mut request = ureq::http::Request::builder()
            .method(method)
            .uri(&self.url)
            .header("Accept", "application/json, text/event-stream");
        if body.is_some() {
            request = request.header("Content-Type", "application/json");
        }
        if let Some(s) = &self.session {
            request = request.header("Mcp-Session-Id", s);
        }
        if let Some(v) = &self.version {
            request = request.header("MCP-Protocol-Version", v);
        }
        for (k, v) in extra {
            request = request.header(*k, *v);
        }
        let request = request
            .body(body.unwrap_or_default().to_vec())
            .map_err(|_| {
                McpFailure::Protocol(format!("{what}: a header the server gave is not valid"))
            })?;
        let config = self
            .agent
            .configure_request(request)
            .timeout_global(Some(left.max(Duration::from_millis(1))))
            .build();
        let response = self.agent.run(config).map_err(|e| ureq_failure(e, &what))?;
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        let status = response.status().as_u16();
        let content_type = header("content-type")
            .unwrap_or_default()
            .to_ascii_lowercase();
        let session = header("mcp-session-id");
        let encoding = match response
            .headers()
            .get_all("content-encoding")
            .iter()
            .count()
        {
            0 => None,
            1 => Some(header("content-encoding").unwrap_or_else(|| "?".to_owned())),
            _ => Some("?".to_owned()), // more than one coding: none is identity alone
        };
        let body = response.into_body().into_reader();
        Ok(Response {
            status,
            content_type,
            encoding,
            session,
            body: Box::new(body),
        })
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

    /// Reads the answer of `window` from a response: a JSON body, or an event stream.
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
        encoding_refusal(response.encoding.as_deref(), &response.content_type)?;
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
                .map_err(|e| io_failure(&e, &what))?;
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
                .map_err(|e| io_failure(&e, &what))?;
            if n == 0 {
                return Ok(None);
            }
            events
                .feed(&buf[..n], &mut out)
                .map_err(|sse::TooLong| too_large("an event of the server's stream"))?;
            if events.bom {
                return Err(unsupported(
                    "an event stream that opens with a byte-order mark (the Python SDK keeps it, \
                     the TypeScript SDK drops it)",
                ));
            }
            for event in out.drain(..) {
                // empty data (a priming event) is skipped, as both SDKs skip it
                if event.kind != "message" || event.data.is_empty() {
                    continue;
                }
                match route(window, &event.data, step)? {
                    Routed::Response(v) => return Ok(Some((v, event.data.len()))),
                    Routed::Request(answer) => self.post_answer(&answer, deadline)?,
                    Routed::Other if foreign_answer(&event.data) => {
                        return Err(McpFailure::Refused(Error::new(
                            ErrorCode::McpAmbiguousAnswer,
                            format!(
                                "an answer on the event stream of {step} whose id is not the \
                                 request's (the Python SDK takes it as the answer, the TypeScript \
                                 SDK does not)"
                            ),
                        )))
                    }
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
    use std::io::{BufRead, BufReader, Write};

    #[test]
    fn urls() {
        for good in [
            "http://127.0.0.1:8080/mcp?x=1",
            "HTTP://[::1]/",
            "https://example.org/mcp",
        ] {
            assert!(check_url(good).is_ok(), "{good}");
        }
        for bad in [
            "ftp://h/",
            "127.0.0.1:80",
            "http://:80/",
            "http://u:p@h/",
            "http://h/a b",
            "http://h/#f",
            "http:///mcp",
        ] {
            assert!(check_url(bad).is_err(), "{bad}");
        }
        let dir = std::env::temp_dir().join(format!("ekl-ca-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let not_pem = dir.join("not.pem");
        std::fs::write(&not_pem, "no certificate here").expect("write");
        assert!(Http::new("https://h/", Some(&not_pem))
            .err()
            .is_some_and(|e| e.contains("holds no certificate")));
        assert!(Http::new("https://h/", Some(&dir.join("absent.pem")))
            .err()
            .is_some_and(|e| e.contains("cannot be read")));
        std::fs::remove_dir_all(&dir).expect("clean");
    }

    #[test]
    fn encodings_charsets_and_answers_on_another_request_s_stream() {
        assert!(encoding_refusal(None, "text/event-stream").is_ok());
        assert!(encoding_refusal(Some(" Identity "), "text/event-stream; charset=utf-8").is_ok());
        assert!(encoding_refusal(None, "application/json; charset=\"utf8\"").is_ok());
        for (coding, content_type) in [
            (Some("gzip"), "text/event-stream"),
            (Some("deflate"), "application/json"),
            (Some("?"), "text/event-stream"),
            (None, "text/event-stream; charset=utf-16-le"),
            (None, "application/json; charset=iso-8859-1"),
        ] {
            match encoding_refusal(coding, content_type) {
                Err(McpFailure::Refused(e)) => {
                    assert_eq!(
                        e.code(),
                        ErrorCode::McpUnsupportedEncoding,
                        "{content_type}"
                    )
                }
                _ => panic!("{coding:?} {content_type}: not refused"),
            }
        }
        assert!(foreign_answer(br#"{"jsonrpc":"2.0","id":7,"result":{}}"#));
        assert!(foreign_answer(
            br#"{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"m"}}"#
        ));
        assert!(!foreign_answer(
            br#"{"jsonrpc":"2.0","method":"notifications/x"}"#
        ));
        assert!(!foreign_answer(
            br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#
        ));
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
        let r1 = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\
             mcp-session-id: s-1\r\nContent-Length: {}\r\n\r\n{init}",
            init.len()
        )
        .into_bytes();
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
        let mut t = Http::new(&url, None).expect("url");
        let deadline = Instant::now() + Duration::from_secs(20);
        let listing = super::super::list_tools(&mut t, deadline).expect("listed");
        t.close(deadline);
        assert_eq!(listing.pages, 2);
        assert_eq!(listing.tools.len(), 2);
        let seen: Vec<String> = server
            .join()
            .expect("server")
            .into_iter()
            .map(|s| s.to_ascii_lowercase())
            .collect();
        assert_eq!(seen.len(), 7);
        assert!(seen[0].starts_with("post /mcp http/1.1\r\n"), "{}", seen[0]);
        assert!(seen[0].contains("accept: application/json, text/event-stream\r\n"));
        assert!(!seen[0].contains("mcp-session-id"));
        for s in &seen[1..] {
            assert!(s.contains("mcp-session-id: s-1\r\n"), "{s}");
            assert!(s.contains("mcp-protocol-version: 2025-06-18\r\n"), "{s}");
        }
        assert!(seen[1].ends_with(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#));
        assert!(
            seen[3].ends_with(r#"{"id":9,"jsonrpc":"2.0","result":{}}"#),
            "{}",
            seen[3]
        );
        assert!(
            seen[4].starts_with("get /mcp http/1.1\r\n")
                && seen[4].contains("last-event-id: e1\r\n"),
            "{}",
            seen[4]
        );
        assert!(seen[5].ends_with(
            r#"{"id":3,"jsonrpc":"2.0","method":"tools/list","params":{"cursor":"c"}}"#
        ));
        assert!(seen[6].starts_with("delete /mcp http/1.1\r\n"));
    }

    #[test]
    fn errors_and_the_deadline() {
        let (url, server) = serve(vec![
            b"HTTP/1.1 500 Internal\r\nContent-Length: 0\r\n\r\n".to_vec()
        ]);
        let mut t = Http::new(&url, None).expect("url");
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
        let mut t = Http::new(&url, None).expect("url");
        let start = Instant::now();
        match super::super::list_tools(&mut t, start + Duration::from_millis(300)) {
            Err(McpFailure::Timeout(_)) => {}
            other => panic!("{other:?}"),
        }
        assert!(start.elapsed() < Duration::from_secs(5));
        drop(listener);
    }
}
