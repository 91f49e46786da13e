//! `docs/operations.json`, generated from the registry (docs/decisions.md#bridge), and
//! `docs/errors.json` / `docs/errors.md`, generated from the core's error table. The manifest
//! also holds the result shapes of [`crate::shapes`] and the named refinements of
//! [`crate::refinements`].
//!
//! The bindings' tests read this file to prove that every operation is bound and declared (in
//! the `.pyi` stubs and the `.d.ts` declarations); `cargo test -p ekl-bridge` fails when the
//! checked-in copy differs from [`operations_json`] (run it with `EKL_BLESS=1` to rewrite it).

use std::collections::{BTreeMap, BTreeSet};

use ekl_core::canonical::write_string;
use ekl_core::ErrorCode;

use crate::{camel, OPERATIONS};

fn push_str(out: &mut Vec<u8>, s: &str) {
    write_string(s, out);
}

/// The manifest: every operation with its names per host, its parameters and its result, as
/// pretty JSON (one operation per block, stable order).
pub fn operations_json() -> String {
    let mut out: Vec<u8> = Vec::new();
    out.extend_from_slice(b"{\n  \"description\": ");
    push_str(
        &mut out,
        "Generated from the registry of the ekl-bridge crate (bridge/src/ops/): do not edit. \
         Every operation every surface binds: its wire name (the Python name and the name of \
         `ekl call`), its JS name, its parameters (required ones positional; optional ones as \
         Python keywords and JS options, camelCase) and what it returns; and every result shape \
         (bridge/src/shapes.rs) a `returns` names: its members with their wire names, types \
         (str, int, bool, null, json, object, error, 'literal', a shape, T[], alternatives \
         joined by ' | '), whether they are always present, and the hosts' own types where \
         they differ (ts, py). A parameter's `type` and an operation's `returns_type` narrow \
         its kind or its result for the hosts' declarations only (the call accepts what the \
         kind accepts): a name of `refinements` (string literals each host writes as a union, \
         a structured input each host declares, or a shape), `T[]`, alternatives joined by \
         ' | ', `json` any value of the kind. `handles`: the machines a host holds as objects \
         (bridge/src/handle.rs): each class's constructor (a row with `class`) and its methods \
         (rows whose first parameter is `self`, of kind `handle`, marked `method_of`; their \
         `python` and `js` names are the method's). `constants`: values the hosts read instead \
         of restating them (limits, the replay guard's and the remote key set's defaults and \
         bounds, the MCP bounds, SQL and Redis commands).",
    );
    out.extend_from_slice(b",\n  \"operations\": [");
    for (i, op) in OPERATIONS.iter().enumerate() {
        out.extend_from_slice(if i == 0 { b"\n    {" } else { b",\n    {" });
        out.extend_from_slice(b"\"name\": ");
        push_str(&mut out, op.name);
        out.extend_from_slice(b", \"python\": ");
        push_str(&mut out, op.python_name());
        out.extend_from_slice(b", \"js\": ");
        push_str(&mut out, &op.js_name());
        out.extend_from_slice(b", \"class\": ");
        out.extend_from_slice(if op.class.is_some() {
            b"true"
        } else {
            b"false"
        });
        if let Some((class, _)) = op.method_of() {
            out.extend_from_slice(b", \"method_of\": ");
            push_str(&mut out, class.name);
        }
        out.extend_from_slice(b", \"section\": ");
        push_str(&mut out, op.section);
        out.extend_from_slice(b", \"returns\": ");
        push_str(&mut out, op.returns.as_str());
        if let Some(ty) = op.refine {
            out.extend_from_slice(b", \"returns_type\": ");
            push_str(&mut out, ty);
        }
        out.extend_from_slice(b",\n     \"doc\": ");
        push_str(&mut out, op.doc);
        out.extend_from_slice(b",\n     \"params\": [");
        for (j, p) in op.params.iter().enumerate() {
            out.extend_from_slice(if j == 0 { b"\n      {" } else { b",\n      {" });
            out.extend_from_slice(b"\"name\": ");
            push_str(&mut out, p.name);
            out.extend_from_slice(b", \"js\": ");
            push_str(&mut out, &camel(p.name));
            out.extend_from_slice(b", \"kind\": ");
            push_str(&mut out, p.kind.as_str());
            if let crate::Kind::Handle(class) = p.kind {
                out.extend_from_slice(b", \"handle\": ");
                push_str(&mut out, class);
            }
            out.extend_from_slice(b", \"required\": ");
            out.extend_from_slice(if p.required { b"true" } else { b"false" });
            out.extend_from_slice(b", \"doc\": ");
            push_str(&mut out, p.doc);
            if let Some(ty) = p.refine {
                out.extend_from_slice(b", \"type\": ");
                push_str(&mut out, ty);
            }
            match p.limit {
                crate::Limit::Value => {}
                crate::Limit::Bytes(n) => {
                    out.extend_from_slice(format!(", \"limit\": {n}").as_bytes());
                }
                crate::Limit::Param(name) => {
                    out.extend_from_slice(b", \"limit\": {\"param\": ");
                    push_str(&mut out, name);
                    out.push(b'}');
                }
            }
            if !p.times.is_empty() {
                out.extend_from_slice(b", \"times\": {");
                for (k, (member, form)) in p.times.iter().enumerate() {
                    if k > 0 {
                        out.extend_from_slice(b", ");
                    }
                    push_str(&mut out, member);
                    out.extend_from_slice(b": ");
                    push_str(&mut out, form.as_str());
                }
                out.push(b'}');
            }
            out.push(b'}');
        }
        out.extend_from_slice(if op.params.is_empty() {
            b"]}"
        } else {
            b"\n     ]}"
        });
    }
    out.extend_from_slice(b"\n  ],\n  \"shapes\": [");
    write_shapes(&mut out);
    out.extend_from_slice(b"\n  ],\n  \"refinements\": [");
    write_refinements(&mut out);
    out.extend_from_slice(b"\n  ],\n  \"handles\": [");
    write_handles(&mut out);
    out.extend_from_slice(b"\n  ],\n  \"constants\": [");
    write_constants(&mut out);
    out.extend_from_slice(b"\n  ]\n}\n");
    String::from_utf8(out).unwrap_or_default()
}

/// The names a type of the manifest names (`A[] | B | 'literal' | null`): each alternative,
/// without `[]`.
fn type_names(ty: &'static str) -> impl Iterator<Item = &'static str> {
    ty.split(" | ").map(|alt| alt.trim_end_matches("[]"))
}

/// The shapes and refinements that the build's operations name (results, refined parameters),
/// with the shapes those name (members, `extends`): what the manifest declares. Every one of them
/// in the full build; a build without some operations (the wasm verify build) declares only what
/// its operations use (docs/decisions/wasm.md#verify-build).
fn used_names() -> BTreeSet<&'static str> {
    let mut todo: Vec<&'static str> = Vec::new();
    for op in OPERATIONS {
        todo.extend(type_names(op.returns.as_str()));
        todo.extend(op.refine.into_iter().flat_map(type_names));
        for p in op.params {
            todo.extend(p.refine.into_iter().flat_map(type_names));
        }
    }
    let mut seen = BTreeSet::new();
    while let Some(name) = todo.pop() {
        if !seen.insert(name) {
            continue;
        }
        if let Some(shape) = crate::shapes::find(name) {
            todo.extend(shape.extends);
            for m in shape.members {
                todo.extend(type_names(m.ty));
            }
        }
    }
    seen
}

/// The `shapes` of the manifest: one block per shape of [`crate::shapes::SHAPES`] that the
/// operations use ([`used_names`]), in order.
fn write_shapes(out: &mut Vec<u8>) {
    let flag = |out: &mut Vec<u8>, key: &[u8], on: bool| {
        out.extend_from_slice(key);
        out.extend_from_slice(if on { b"true" } else { b"false" });
    };
    let used = used_names();
    let shapes = crate::shapes::SHAPES
        .iter()
        .filter(|s| used.contains(s.name));
    for (i, shape) in shapes.enumerate() {
        out.extend_from_slice(if i == 0 { b"\n    {" } else { b",\n    {" });
        out.extend_from_slice(b"\"name\": ");
        push_str(out, shape.name);
        out.extend_from_slice(b", \"extends\": ");
        match shape.extends {
            Some(base) => push_str(out, base),
            None => out.extend_from_slice(b"null"),
        }
        flag(out, b", \"open\": ", shape.open);
        flag(out, b", \"ts_open\": ", shape.ts_open);
        flag(out, b", \"py_typeddict\": ", shape.py_typeddict);
        out.extend_from_slice(b",\n     \"doc\": ");
        push_str(out, shape.doc);
        out.extend_from_slice(b",\n     \"members\": [");
        for (j, m) in shape.members.iter().enumerate() {
            out.extend_from_slice(if j == 0 { b"\n      {" } else { b",\n      {" });
            out.extend_from_slice(b"\"name\": ");
            push_str(out, m.name);
            out.extend_from_slice(b", \"type\": ");
            push_str(out, m.ty);
            flag(out, b", \"required\": ", m.required);
            out.extend_from_slice(b", \"doc\": ");
            push_str(out, m.doc);
            if let Some(ts) = m.ts {
                out.extend_from_slice(b", \"ts\": ");
                push_str(out, ts);
            }
            if let Some(py) = m.py {
                out.extend_from_slice(b", \"py\": ");
                push_str(out, py);
            }
            if m.ts_index {
                out.extend_from_slice(b", \"ts_index\": true");
            }
            out.push(b'}');
        }
        out.extend_from_slice(b"\n     ]}");
    }
}

/// The `refinements` of the manifest: one line per refinement of
/// [`crate::refinements::REFINEMENTS`] that the operations use ([`used_names`]), in order, with
/// its strings when it is a union of them.
fn write_refinements(out: &mut Vec<u8>) {
    let used = used_names();
    let refinements = crate::refinements::REFINEMENTS
        .iter()
        .filter(|r| used.contains(r.name));
    for (i, r) in refinements.enumerate() {
        out.extend_from_slice(if i == 0 { b"\n    {" } else { b",\n    {" });
        out.extend_from_slice(b"\"name\": ");
        push_str(out, r.name);
        out.extend_from_slice(b", \"is\": ");
        push_str(out, r.is.as_str());
        if let crate::refinements::Refined::Literals(values) = r.is {
            out.extend_from_slice(b", \"values\": [");
            for (k, v) in values.iter().enumerate() {
                if k > 0 {
                    out.extend_from_slice(b", ");
                }
                push_str(out, v);
            }
            out.push(b']');
        }
        out.extend_from_slice(b", \"doc\": ");
        push_str(out, r.doc);
        out.push(b'}');
    }
}

/// The `handles` of the manifest: one line per class of [`crate::HANDLES`], with its
/// constructor's wire name and its methods' (in registry order).
fn write_handles(out: &mut Vec<u8>) {
    for (i, h) in crate::HANDLES.iter().enumerate() {
        out.extend_from_slice(if i == 0 { b"\n    {" } else { b",\n    {" });
        out.extend_from_slice(b"\"name\": ");
        push_str(out, h.name);
        out.extend_from_slice(b", \"constructor\": ");
        push_str(out, h.prefix);
        out.extend_from_slice(b", \"methods\": [");
        let methods = OPERATIONS
            .iter()
            .filter(|op| op.method_of().is_some_and(|(c, _)| c.name == h.name));
        for (k, op) in methods.enumerate() {
            if k > 0 {
                out.extend_from_slice(b", ");
            }
            push_str(out, op.name);
        }
        out.extend_from_slice(b"], \"doc\": ");
        push_str(out, h.doc);
        out.push(b'}');
    }
}

/// A constant of the manifest (`constants`): a value every host reads from the manifest instead of
/// restating it (bounds, defaults, a store's statements).
#[derive(Clone, Copy, Debug)]
pub struct Constant {
    /// Its name in the manifest.
    pub name: &'static str,
    /// One line for the documentation.
    pub doc: &'static str,
    /// Its value.
    pub value: fn() -> ekl_core::Value<'static>,
}

/// Every constant of the manifest, in order.
pub static CONSTANTS: &[Constant] = &[
    Constant {
        name: "limits",
        doc: "The bounds every host applies before it converts a value (ekl_core::limits, \
              ekl_core::canonical; docs/decisions.md#limits): the deepest nesting, the longest \
              JSON text, the longest converted value, a capability input's bound, and JSON's \
              exact integers (±2^53).",
        value: limits,
    },
    #[cfg(feature = "replay")]
    Constant {
        name: "replay",
        doc:
            "The replay guard's defaults and bounds (seconds unless named _ms), the SQLite schema \
              and statements (each with its parameters' names) and the Redis commands of its \
              stores (ekl_core::replay; docs/decisions.md#replay-guard).",
        value: ekl_core::replay::constants,
    },
    Constant {
        name: "remote_jwks",
        doc: "The options of a fetched key set's policy (RemoteJwksPolicy, \
              ekl_core::remote_jwks): each one's default and bounds (low excluded when \
              low_open), and the most redirects followed.",
        value: ekl_core::remote_jwks::constants,
    },
    #[cfg(feature = "mcp")]
    Constant {
        name: "mcp",
        doc:
            "The MCP bounds (ekl_core::mcp): the largest message, a call's window, a listing, the \
              most pages and tools; and settle_ms, how long a module waits for a call's answer \
              after the request crossed (the hosts' wait, to move into the core's session).",
        value: mcp,
    },
];

/// The `limits` constant.
fn limits() -> ekl_core::Value<'static> {
    use ekl_core::Value;
    let n = |x: usize| Value::Number(x as f64);
    Value::Object(vec![
        (
            "capability_input_max_bytes".into(),
            n(ekl_core::canonical::CAPABILITY_INPUT_MAX_BYTES),
        ),
        ("max_depth".into(), n(ekl_core::canonical::MAX_DEPTH)),
        (
            "max_input_bytes".into(),
            n(ekl_core::limits::MAX_INPUT_BYTES),
        ),
        (
            "max_safe_integer_bound".into(),
            Value::Number(ekl_core::MAX_SAFE_INTEGER_BOUND as f64),
        ),
        (
            "max_value_bytes".into(),
            n(ekl_core::limits::MAX_VALUE_BYTES),
        ),
    ])
}

#[cfg(feature = "mcp")]
/// How long an MCP module waits for a call's answer once its request crossed, milliseconds.
pub const MCP_SETTLE_MS: u64 = 10_000;

/// The `mcp` constant.
#[cfg(feature = "mcp")]
fn mcp() -> ekl_core::Value<'static> {
    use ekl_core::mcp;
    use ekl_core::Value;
    let n = |x: usize| Value::Number(x as f64);
    Value::Object(vec![
        ("max_listing_bytes".into(), n(mcp::MAX_LISTING_BYTES)),
        ("max_message_bytes".into(), n(mcp::MAX_MESSAGE_BYTES)),
        ("max_pages".into(), n(mcp::MAX_PAGES)),
        ("max_tools".into(), n(mcp::MAX_TOOLS)),
        (
            "max_window_bytes".into(),
            Value::Number(mcp::MAX_WINDOW_BYTES as f64),
        ),
        ("settle_ms".into(), Value::Number(MCP_SETTLE_MS as f64)),
    ])
}

/// The `constants` of the manifest: one block per constant of [`CONSTANTS`], its value as
/// canonical JSON on one line.
fn write_constants(out: &mut Vec<u8>) {
    for (i, c) in CONSTANTS.iter().enumerate() {
        out.extend_from_slice(if i == 0 { b"\n    {" } else { b",\n    {" });
        out.extend_from_slice(b"\"name\": ");
        push_str(out, c.name);
        out.extend_from_slice(b", \"doc\": ");
        push_str(out, c.doc);
        out.extend_from_slice(b",\n     \"value\": ");
        match ekl_core::canonical::canonicalize_value(&(c.value)()) {
            Ok(json) => out.extend_from_slice(&json),
            Err(_) => out.extend_from_slice(b"null"),
        }
        out.push(b'}');
    }
}

/// `docs/errors.json`: every stable error code of the core in declaration order, with the Rust
/// variant, the group it is declared in, the EKP 1.2 section that names it (`null` when the
/// protocol names none) and its meaning (the doc comment of `core/src/error.rs`). The bindings'
/// generators (`node/scripts/dts.js`, `python/tools/gen_stubs.py`) write their code lists from it.
pub fn errors_json() -> String {
    let mut out: Vec<u8> = Vec::new();
    out.extend_from_slice(b"{\n  \"description\": ");
    push_str(
        &mut out,
        "Generated from ekl_core::ErrorCode (the error_codes! table of core/src/error.rs, the one \
         place a code is written by hand): do not edit. Every stable error code in declaration \
         order: its string, the Rust variant, the group it is declared in, the section of EKP 1.2 \
         that names it (null when the protocol names none) and its meaning.",
    );
    out.extend_from_slice(b",\n  \"codes\": [");
    for (i, code) in ErrorCode::ALL.iter().enumerate() {
        out.extend_from_slice(if i == 0 { b"\n    {" } else { b",\n    {" });
        out.extend_from_slice(b"\"code\": ");
        push_str(&mut out, code.as_str());
        out.extend_from_slice(b", \"rust\": ");
        push_str(&mut out, &format!("{code:?}"));
        out.extend_from_slice(b", \"protocol\": ");
        match code.protocol_section() {
            Some(section) => push_str(&mut out, section),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b", \"group\": ");
        push_str(&mut out, code.group());
        out.extend_from_slice(b",\n     \"meaning\": ");
        push_str(&mut out, code.meaning());
        out.push(b'}');
    }
    out.extend_from_slice(b"\n  ]\n}\n");
    String::from_utf8(out).unwrap_or_default()
}

/// Which operations raise each code, as far as a caller can tell: code → (registry operations,
/// host helpers). The CLI's test fills it from the conformance stream (`ekl conformance --emit`).
pub type RaisedBy = BTreeMap<String, (BTreeSet<String>, BTreeSet<String>)>;

fn md_cell(text: &str) -> String {
    text.replace('|', "\\|")
}

fn md_names(names: &BTreeSet<String>) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    quoted.join(", ")
}

/// `docs/errors.md`: one table per group of [`errors_json`]'s codes (code, meaning, the EKP
/// section that names it, the operations and host helpers `raised` says raise it).
pub fn errors_md(raised: &RaisedBy) -> String {
    let mut out = String::from(
        "# Error codes\n\n\
         <!-- Generated from core/src/error.rs and the conformance stream by\n     \
         `EKL_BLESS=1 cargo test --release -p ekl-cli --test errors`: do not edit. -->\n\n\
         Every refusal of ekl-evidence carries one of these stable codes: the `.code` of Python's\n\
         `ekl_evidence.EklError` (a `ValueError`), of the JS `EklError` (an `Error`; the TS union\n\
         `EklErrorCode`), and the CLI's message (`ekl error-codes` lists them). A code never changes;\n\
         messages never contain keys, secrets, tags or payloads. The same list for programs:\n\
         [errors.json](errors.json). **EKP** is the section of EKP 1.2 that names the code (its\n\
         string is then the protocol's own). **Raised by** lists the registry operations\n\
         ([operations.json](operations.json)) and the host helpers for which the conformance\n\
         stream (`ekl conformance --emit`, built from `vectors/`) expects the code: what is tested,\n\
         not every way to reach it. A dash: no request of the stream expects it (where the host\n\
         libraries raise a code themselves, converting host values, guarding against replay or\n\
         fetching key sets, its meaning says so).\n",
    );
    let mut group = "";
    for code in ErrorCode::ALL {
        if code.group() != group {
            group = code.group();
            out.push_str(&format!(
                "\n## {group}\n\n| code | meaning | EKP | raised by |\n|---|---|---|---|\n"
            ));
        }
        let by = match raised.get(code.as_str()) {
            Some((ops, helpers)) => {
                let mut parts = Vec::new();
                if !ops.is_empty() {
                    parts.push(md_names(ops));
                }
                if !helpers.is_empty() {
                    parts.push(format!("host helpers: {}", md_names(helpers)));
                }
                parts.join("; ")
            }
            None => String::new(),
        };
        out.push_str(&format!(
            "| `{}` | {} | {} | {} |\n",
            code.as_str(),
            md_cell(code.meaning()),
            code.protocol_section().unwrap_or(""),
            if by.is_empty() { "—".to_string() } else { by }
        ));
    }
    out
}
