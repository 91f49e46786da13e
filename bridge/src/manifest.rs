//! `docs/operations.json`, generated from the registry (docs/decisions.md#bridge).
//!
//! The bindings' tests read this file to prove that every operation is bound and declared (in
//! the `.pyi` stubs and the `.d.ts` declarations); `cargo test -p ekl-bridge` fails when the
//! checked-in copy differs from [`operations_json`] (run it with `EKL_BLESS=1` to rewrite it).

use ekl_core::canonical::write_string;

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
         Python keywords and JS options, camelCase) and what it returns.",
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
        out.extend_from_slice(b", \"section\": ");
        push_str(&mut out, op.section);
        out.extend_from_slice(b", \"returns\": ");
        push_str(&mut out, op.returns.as_str());
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
            out.extend_from_slice(b", \"required\": ");
            out.extend_from_slice(if p.required { b"true" } else { b"false" });
            out.extend_from_slice(b", \"doc\": ");
            push_str(&mut out, p.doc);
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
    out.extend_from_slice(b"\n  ]\n}\n");
    String::from_utf8(out).unwrap_or_default()
}
