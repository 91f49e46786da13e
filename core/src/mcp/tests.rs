use super::*;

fn code(r: Result<impl std::fmt::Debug>) -> ErrorCode {
    r.expect_err("refused").code()
}

const CALL: &str =
    r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{}}}"#;
const ANSWER: &str =
    r#"{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"real"}]}}"#;

fn window() -> Window {
    let mut w = Window::new("tools/call", vec![("name".into(), Value::from("echo"))]);
    assert!(w.sent(CALL.as_bytes()).expect("sent"));
    w
}

#[test]
fn messages_as_every_sdk_takes_them() {
    assert!(matches!(
        read_message(br#"{"jsonrpc":"2.0","id":"a","method":"ping"}"#),
        Ok(Message::Request {
            id: Id::String(_),
            ..
        })
    ));
    assert!(matches!(
        read_message(br#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"p":1}}"#),
        Ok(Message::Notification { .. })
    ));
    // An id is read by how it is written: `-0` and `2` are integers to both SDKs; `2.0` and
    // `2e0` are the integer 2 to the TypeScript SDK and no integer to the Python SDK (issue 41).
    for (good, want) in [
        (&br#"{"jsonrpc":"2.0","id":-0,"result":{}}"#[..], 0.0),
        (
            br#"{"result":{"a":["}",{"id":1.5}]}, "jsonrpc":"2.0" , "id" : 2 }"#,
            2.0,
        ),
        (
            br#" {"\u006asonrpc":"2.0","id":7,"result":{"s":"\"id\":1.0"}}"#,
            7.0,
        ),
    ] {
        assert!(
            matches!(read_message(good), Ok(Message::Result { id: Id::Number(n), .. }) if n == want),
            "{}",
            String::from_utf8_lossy(good)
        );
    }
    assert!(matches!(
        read_message(
            br#"{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"no","data":[1]}}"#
        ),
        Ok(Message::Error { .. })
    ));
    for bad in [
        r#"[{"jsonrpc":"2.0","id":5,"result":{}}]"#,
        r#"{"jsonrpc":"1.0","id":5,"result":{}}"#,
        r#"{"id":5,"result":{}}"#,
        r#"{"jsonrpc":2.0,"id":5,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":5,"result":{},"extra":1}"#,
        r#"{"jsonrpc":"2.0","id":5.5,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":2.0,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":2e0,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":20E-1,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","result":{"id":2},"\u0069d":2.0}"#,
        r#"{"jsonrpc":"2.0","id":-0.0,"error":{"code":1,"message":""}}"#,
        r#"{"jsonrpc":"2.0","id":null,"result":{}}"#,
        r#"{"jsonrpc":"2.0","result":{}}"#,
        r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","id":true,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":5,"result":[]}"#,
        r#"{"jsonrpc":"2.0","id":5,"result":{},"error":{"code":1,"message":""}}"#,
        r#"{"jsonrpc":"2.0","id":5,"error":{"code":1.5,"message":""}}"#,
        r#"{"jsonrpc":"2.0","id":5,"error":{"code":1}}"#,
        r#"{"jsonrpc":"2.0","id":5,"method":"x","result":{}}"#,
        r#"{"jsonrpc":"2.0","method":"x","params":[1]}"#,
        r#"{"jsonrpc":"2.0","method":5}"#,
        r#"{"jsonrpc":"2.0","id":5}"#,
        r#"{"jsonrpc":"2.0"}"#,
        r#"{"jsonrpc":"2.0","id":5,"params":{},"result":{}}"#,
        r#""2.0""#,
    ] {
        assert_eq!(
            code(read_message(bad.as_bytes())),
            ErrorCode::McpInvalidMessage,
            "{bad}"
        );
    }
    // The core reader's own refusals keep their codes.
    assert_eq!(
        code(read_message(b"{\"jsonrpc\":\"2.0\",\"method\":\"\xff\"}")),
        ErrorCode::InvalidUtf8
    );
    assert_eq!(
        code(read_message(
            br#"{"jsonrpc":"2.0","id":5,"id":6,"result":{}}"#
        )),
        ErrorCode::DuplicateKey
    );
    assert_eq!(
        code(read_message(
            br#"{"jsonrpc":"2.0","id":9007199254740993,"result":{}}"#
        )),
        ErrorCode::IntegerOutOfRange
    );
    assert_eq!(code(read_message(b"{")), ErrorCode::InvalidJson);
    // A byte-order mark before the message: neither SDK parses it (JSON.parse, pydantic).
    assert_eq!(
        code(read_message(
            b"\xEF\xBB\xBF{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}"
        )),
        ErrorCode::InvalidJson
    );
}

#[test]
fn the_answer_is_the_one_of_the_awaited_id_routed_messages_are_dropped() {
    let mut w = window();
    let seen = |w: &mut Window, m: &'static str| w.received(m.as_bytes()).expect("taken");
    assert_eq!(
        seen(
            &mut w,
            r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{}}"#
        ),
        Seen::Notification
    );
    assert!(matches!(
        seen(&mut w, r#"{"jsonrpc":"2.0","id":5,"method":"ping"}"#),
        Seen::Request { id: Id::Number(n), ref method } if n == 5.0 && method == "ping"
    ));
    assert_eq!(
        seen(
            &mut w,
            r#"{"jsonrpc":"2.0","id":4,"result":{"stale":true}}"#
        ),
        Seen::Other
    );
    // An error whose id is null or absent (the server could not read a request's id): no SDK
    // hands it to a call.
    assert_eq!(
        seen(
            &mut w,
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse"}}"#
        ),
        Seen::Other
    );
    assert_eq!(
        seen(
            &mut w,
            r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"parse"}}"#
        ),
        Seen::Other
    );
    assert!(!w.answered());
    assert_eq!(code(w.end()), ErrorCode::McpNoAnswer);
    match seen(&mut w, ANSWER) {
        Seen::Answer(r) => assert_eq!(
            r.get("content").and_then(|c| c.as_array()).map(<[_]>::len),
            Some(1)
        ),
        other => panic!("{other:?}"),
    }
    assert!(w.end().is_ok());
    // The state survives its value form.
    let again = Window::from_value(&w.to_value()).expect("state");
    assert_eq!(again, w);
}

#[test]
fn decoys_next_to_the_answer_are_refused_before_or_after_it() {
    let decoys = [
        (
            r#"{"jsonrpc":"1.0","id":5,"result":{"content":[]}}"#,
            ErrorCode::McpInvalidMessage,
        ),
        (
            r#"{"id":5,"result":{"content":[]}}"#,
            ErrorCode::McpInvalidMessage,
        ),
        (
            r#"[{"jsonrpc":"2.0","id":5,"result":{"content":[]}}]"#,
            ErrorCode::McpInvalidMessage,
        ),
        (
            r#"{"jsonrpc":"2.0","id":"5","result":{"content":[]}}"#,
            ErrorCode::McpAmbiguousAnswer,
        ),
        (
            r#"{"jsonrpc":"2.0","id":"x","error":{"code":1,"message":"m"}}"#,
            ErrorCode::McpAmbiguousAnswer,
        ),
        (
            r#"{"jsonrpc":"2.0","id":5,"result":{"content":[]}}"#,
            ErrorCode::McpAmbiguousAnswer,
        ),
        (
            r#"{"jsonrpc":"2.0","id":5.0,"error":{"code":1,"message":"m"}}"#,
            ErrorCode::McpInvalidMessage,
        ),
    ];
    for (decoy, want) in decoys {
        // After the answer.
        let mut w = window();
        assert!(matches!(w.received(ANSWER.as_bytes()), Ok(Seen::Answer(_))));
        assert_eq!(code(w.received(decoy.as_bytes())), want, "after: {decoy}");
        // Before it (a second real-looking answer before is the answer itself: skip that one).
        if want == ErrorCode::McpAmbiguousAnswer && decoy.contains("\"id\":5") {
            continue;
        }
        let mut w = window();
        assert_eq!(code(w.received(decoy.as_bytes())), want, "before: {decoy}");
    }
}

#[test]
fn the_last_matching_request_is_awaited() {
    let mut w = Window::new("tools/list", vec![("cursor".into(), Value::Null)]);
    // Another method, another cursor, the server's answer to a ping: not the request.
    assert!(!w
        .sent(br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}"#)
        .expect("sent"));
    assert!(!w
        .sent(br#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"c"}}"#)
        .expect("sent"));
    assert!(!w
        .sent(br#"{"jsonrpc":"2.0","id":7,"result":{}}"#)
        .expect("sent"));
    // An answer before any request of the call: another request's.
    assert_eq!(
        w.received(br#"{"jsonrpc":"2.0","id":"z","result":{}}"#),
        Ok(Seen::Other)
    );
    assert!(w
        .sent(br#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#)
        .expect("sent"));
    assert!(w
        .sent(br#"{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{}}"#)
        .expect("sent"));
    assert_eq!(
        w.received(br#"{"jsonrpc":"2.0","id":3,"result":{"tools":[]}}"#),
        Ok(Seen::Other)
    );
    assert!(matches!(
        w.received(br#"{"jsonrpc":"2.0","id":4,"result":{"tools":[]}}"#),
        Ok(Seen::Answer(_))
    ));
    let none = Window::new("initialize", Vec::new());
    assert_eq!(code(none.end()), ErrorCode::McpNoAnswer);
}

#[test]
fn bounds_of_a_message_and_a_window() {
    let mut w = window();
    let big = vec![b' '; MAX_MESSAGE_BYTES + 1];
    assert_eq!(code(w.received(&big)), ErrorCode::BodyTooLarge);
    let mut w = window();
    w.received = MAX_WINDOW_BYTES - 10;
    let note = br#"{"jsonrpc":"2.0","method":"n"}"#;
    assert_eq!(code(w.received(note)), ErrorCode::BodyTooLarge);
}

#[test]
fn listing_pages_and_cursors() {
    let mut l = Listing::new();
    assert_eq!(
        l.window().to_value().get("match"),
        Some(&Value::Object(vec![("cursor".into(), Value::Null)]))
    );
    let page = |c: &str| canonical::parse(c.as_bytes()).expect("json").into_owned();
    assert_eq!(
        l.page(&page(r#"{"tools":[{"name":"a"}],"nextCursor":"p2"}"#), 10),
        Ok(Some("p2".into()))
    );
    assert_eq!(l.cursor(), Some("p2"));
    let again = Listing::from_value(&l.to_value()).expect("state");
    assert_eq!(again, l);
    assert_eq!(
        l.page(&page(r#"{"tools":[],"nextCursor":"p3"}"#), 10),
        Ok(Some("p3".into()))
    );
    assert_eq!(
        code(
            l.clone()
                .page(&page(r#"{"tools":[],"nextCursor":"p2"}"#), 10)
        ),
        ErrorCode::McpBadCursor
    );
    assert_eq!(
        code(l.clone().page(&page(r#"{"tools":[],"nextCursor":5}"#), 10)),
        ErrorCode::McpBadCursor
    );
    assert_eq!(
        code(l.clone().page(&page(r#"{"nextCursor":"x"}"#), 10)),
        ErrorCode::InvalidShape
    );
    assert_eq!(
        code(l.clone().page(&page(r#"{"tools":[]}"#), MAX_LISTING_BYTES)),
        ErrorCode::BodyTooLarge
    );
    assert_eq!(
        l.page(&page(r#"{"tools":[],"nextCursor":null}"#), 10),
        Ok(None)
    );
    assert_eq!(l.pages(), 3);
    // Cursors that change forever stop at the page limit.
    let mut l = Listing::new();
    let mut n = 0;
    let e = loop {
        n += 1;
        match l.page(&page(&format!(r#"{{"tools":[],"nextCursor":"c{n}"}}"#)), 10) {
            Ok(_) => {}
            Err(e) => break e,
        }
    };
    assert_eq!((e.code(), n), (ErrorCode::McpBadCursor, MAX_PAGES + 1));
    // Too many tools.
    let mut l = Listing::new();
    let tools = format!(r#"{{"tools":[{}]}}"#, vec!["{}"; MAX_TOOLS + 1].join(","));
    assert_eq!(code(l.page(&page(&tools), 10)), ErrorCode::McpBadCursor);
}

#[test]
fn state_values_are_checked() {
    for bad in [
        r#"{"match":{}}"#,
        r#"{"method":"m","match":[]}"#,
        r#"{"method":"m","awaited":1.5}"#,
        r#"{"method":"m","answered":true}"#,
        r#"{"method":"m","received":-1}"#,
        r#"{"method":"m","other":1}"#,
    ] {
        let v = canonical::parse(bad.as_bytes()).expect("json");
        assert_eq!(
            code(Window::from_value(&v)),
            ErrorCode::InvalidArgument,
            "{bad}"
        );
    }
    for bad in [r#"{"cursors":[1]}"#, r#"{"pages":-1}"#, r#"[]"#] {
        let v = canonical::parse(bad.as_bytes()).expect("json");
        assert_eq!(
            code(Listing::from_value(&v)),
            ErrorCode::InvalidArgument,
            "{bad}"
        );
    }
}

#[test]
fn replies_to_the_servers_requests() {
    assert_eq!(
        reply_to(&Id::Number(7.0), "ping").expect("reply"),
        br#"{"id":7,"jsonrpc":"2.0","result":{}}"#
    );
    assert_eq!(
        reply_to(&Id::String("s".into()), "sampling/createMessage").expect("reply"),
        br#"{"error":{"code":-32601,"message":"method not found"},"id":"s","jsonrpc":"2.0"}"#
    );
}
