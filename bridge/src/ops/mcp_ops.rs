//! The registry's rows of one domain: MCP wire sessions (PROTOCOL §5.1, §15.3): the core's
//! [`ekl_core::mcp`] machine, its state passed as a value (docs/decisions/mcp.md).

use ekl_core::mcp::{Listing, Seen, Window};

use super::*;

fn step(window: &Window, seen: &str, extra: Vec<(&str, Value<'_>)>) -> Result<Out> {
    let mut members = vec![
        ("window".into(), window.to_value()),
        ("seen".into(), Value::from(seen.to_owned())),
    ];
    for (k, v) in extra {
        members.push((k.to_owned().into(), v.into_owned()));
    }
    Ok(Out::Value(Value::Object(members)))
}

fn mcp_window(a: &Args<'_>) -> Result<Out> {
    let mut w = Window::from_value(&*a.value("window")?)?;
    let event = a.str("event")?;
    let message = || a.bytes("message");
    match event {
        "sent" => {
            let call = w.sent(message()?)?;
            step(&w, if call { "call" } else { "sent" }, Vec::new())
        }
        "received" => {
            let raw = message()?;
            let bytes = ("bytes", Value::Number(raw.len() as f64));
            match w.received(raw)? {
                Seen::Answer(result) => step(&w, "answer", vec![("result", result), bytes]),
                Seen::ErrorAnswer(error) => step(&w, "error", vec![("error", error)]),
                Seen::Request { id, method } => step(
                    &w,
                    "request",
                    vec![("id", id.to_value()), ("method", Value::String(method))],
                ),
                Seen::Notification => step(&w, "notification", Vec::new()),
                Seen::Other => step(&w, "other", Vec::new()),
            }
        }
        "end" => {
            w.end()?;
            step(&w, "end", Vec::new())
        }
        _ => Err(invalid("event must be \"sent\", \"received\" or \"end\"")),
    }
}

fn mcp_listing_page(a: &Args<'_>) -> Result<Out> {
    let mut listing = match a.opt_value("listing")? {
        None => Listing::new(),
        Some(v) => Listing::from_value(&v)?,
    };
    let next = match a.opt_value("result")? {
        None if listing.pages() == 0 => None,
        None => return Err(invalid("result is required after the first page")),
        Some(result) => {
            let bytes = a.opt_int("bytes")?.unwrap_or(0);
            let bytes =
                usize::try_from(bytes).map_err(|_| invalid("bytes must not be negative"))?;
            listing.page(&result, bytes)?
        }
    };
    let done = listing.pages() > 0 && next.is_none();
    Ok(Out::Value(Value::Object(vec![
        ("listing".into(), listing.to_value()),
        ("next".into(), next.map_or(Value::Null, Value::from)),
        (
            "window".into(),
            if done {
                Value::Null
            } else {
                listing.window().to_value()
            },
        ),
    ])))
}

/// This domain's operations, in manifest order.
pub(super) const OPS: &[Op] = &[
    Op {
        name: "mcp_window",
        class: None,
        section: "§5.1",
        doc: "One step of an MCP call's wire window: a message the client sent or received (its \
              bytes as they crossed), or the end of the call; the state comes back with what the \
              message was (the answer's result once; a second answer or a decoy refused).",
        params: &[
            req(
                "window",
                Value,
                "the state: {method, match} for a new call, else the window of the last step",
            ),
            req("event", Str, "\"sent\", \"received\" or \"end\""),
            opt(
                "message",
                Bytes,
                "the message's bytes as they crossed (sent, received)",
            ),
        ],
        returns: Returns::Value("McpWindowStep"),
        refine: None,
        run: mcp_window,
    },
    Op {
        name: "mcp_listing_page",
        class: None,
        section: "§5.1",
        doc: "One page of an MCP tools/list: the answer's result of the page asked (none: the \
              first page's window); the next cursor and its window, or none when the listing \
              ended (a repeated cursor or too many pages refused).",
        params: &[
            opt(
                "listing",
                Value,
                "the state of the last step (absent: a new listing)",
            ),
            opt("result", Value, "the result of the page's answer"),
            opt("bytes", Int, "the length of the page's answer in bytes"),
        ],
        returns: Returns::Value("McpListingStep"),
        refine: None,
        run: mcp_listing_page,
    },
];
