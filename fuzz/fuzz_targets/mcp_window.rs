//! Fuzz target: arbitrary bytes through the MCP wire machine (`ekl_core::mcp`, PROTOCOL §5.1,
//! §15.3; docs/decisions/mcp.md): as one message, and split at newlines into a call's window
//! (a `>` first byte: a message the client sent; else one it received), then the SSE framing.
//!
//! Invariants: no panic; a message read is a JSON object the core's reader accepts; a window
//! gives at most one answer to a request and, once answered, `end` succeeds; the state's value form reads
//! back to the same state at every step; the SSE parser's events never exceed its cap.
#![no_main]

use ekl_core::canonical;
use ekl_core::mcp::{read_message, sse, Listing, Seen, Window};
use ekl_core::Value;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if read_message(data).is_ok() {
        assert!(matches!(canonical::parse(data), Ok(Value::Object(_))));
    }
    let mut w = Window::new("tools/call", vec![("name".into(), Value::from("echo"))]);
    w.sent(br#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo"}}"#)
        .expect("the call's own request");
    let mut answers = 0;
    for line in data.split(|&b| b == b'\n') {
        let step = if let Some(sent) = line.strip_prefix(b">") {
            w.sent(sent).map(|call| {
                if call {
                    answers = 0; // a request of the call sent again: its own answer awaited
                }
            })
        } else {
            match w.received(line) {
                Ok(Seen::Answer(_) | Seen::ErrorAnswer(_)) => {
                    answers += 1;
                    assert_eq!(answers, 1, "a second answer to the awaited request was given");
                    Ok(())
                }
                Ok(_) => Ok(()),
                Err(e) => Err(e),
            }
        };
        let again = Window::from_value(&w.to_value()).expect("the state reads back");
        assert_eq!(again, w);
        if step.is_err() {
            break;
        }
        if w.answered() {
            assert!(w.end().is_ok());
        }
    }
    if let Ok(v) = canonical::parse(data) {
        let mut l = Listing::new();
        let _ = l.page(&v, data.len());
        assert_eq!(Listing::from_value(&l.to_value()).expect("reads back"), l);
    }
    let cap = 256;
    let mut p = sse::Parser::new(cap);
    let mut out = Vec::new();
    for chunk in data.chunks(7) {
        if p.feed(chunk, &mut out).is_err() {
            break;
        }
    }
    assert!(out.iter().all(|e| e.data.len() <= cap));
});
