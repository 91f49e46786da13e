//! Salted fingerprints of the adapter profile and the upstream fingerprint (PROTOCOL §15.3, §5.1;
//! SPEC §3–§4).
//!
//! * `fingerprint(salt, value)` = lowercase hex SHA-256(salt bytes ‖ ekl-json-1(value)). §15.3 says
//!   "JCS is RFC 8785"; we canonicalise with ekl-json-1, which gives the same bytes for every value
//!   RFC 8785 and ekl-json-1 both accept and refuses integers beyond ±2^53 instead of rounding them
//!   (docs/decisions.md, D3).
//! * The output fingerprint of an MCP tool result covers `structuredContent` when it is present and
//!   not `null`, otherwise the `content` array; never `isError`, `_meta` or anything else (D4).
//! * The upstream fingerprint covers the offered tools of a `tools/list`, sorted by name in UTF-16
//!   code units, each projected to `name, description, inputSchema, outputSchema, annotations` with
//!   a missing member written as `null`. No salt.
//! * A Python SDK object dumped by field names instead of wire names (pydantic's `model_dump()`
//!   without `by_alias=True`) is refused rather than fingerprinted as something else
//!   (docs/decisions.md, B10): a tool result with a `structured_content` member and no
//!   `structuredContent` (the selection would fall back to `content`), and a tool with an
//!   `input_schema` member and no `inputSchema` (the projection would write `null`). MCP requires
//!   `inputSchema` of every tool and names the result body `structuredContent`, so no message
//!   as the protocol defines it is refused.

use std::borrow::Cow;

use crate::canonical::{self, cmp_utf16};
use crate::digest::{sha256_hex, sha256_hex_prefixed, Salt};
use crate::error::{Error, ErrorCode, Result};
use crate::value::Value;

/// The salted fingerprint of a value: SHA-256(salt ‖ ekl-json-1(value)), lowercase hex.
pub fn fingerprint(salt: &Salt, value: &Value<'_>) -> Result<String> {
    let bytes = canonical::canonicalize_value(value)?;
    Ok(sha256_hex_prefixed(salt.bytes(), &bytes))
}

/// Which body of an MCP tool result is fingerprinted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultBody {
    /// `structuredContent` (present and not `null`).
    StructuredContent,
    /// The `content` array.
    Content,
}

impl ResultBody {
    /// The member name.
    pub fn as_str(self) -> &'static str {
        match self {
            ResultBody::StructuredContent => "structuredContent",
            ResultBody::Content => "content",
        }
    }
}

/// Selects the body of an MCP tool result that the output fingerprint covers.
/// Refused with `INVALID_SHAPE` when the result is not an object or has neither body.
/// A result with two members of one name is refused (`DUPLICATE_KEY`), never read "first wins".
/// A result without `structuredContent` (or with it `null`) that holds `structured_content` is
/// refused (`INVALID_SHAPE`): it is an SDK object dumped by field names, whose `content` is not
/// what the server meant to be fingerprinted.
pub fn select_result_body<'v, 'a>(result: &'v Value<'a>) -> Result<(ResultBody, &'v Value<'a>)> {
    let Value::Object(members) = result else {
        return Err(Error::new(
            ErrorCode::InvalidShape,
            "a tool result must be a JSON object",
        ));
    };
    canonical::check_unique_keys(members)?;
    match result.get("structuredContent") {
        Some(Value::Null) | None => {}
        Some(v) => return Ok((ResultBody::StructuredContent, v)),
    }
    if result.get("structured_content").is_some() {
        return Err(Error::new(ErrorCode::InvalidShape, SNAKE_CASE_RESULT));
    }
    match result.get("content") {
        Some(v @ Value::Array(_)) => Ok((ResultBody::Content, v)),
        Some(_) => Err(Error::new(
            ErrorCode::InvalidShape,
            "a tool result's content must be an array",
        )),
        None => Err(Error::new(
            ErrorCode::InvalidShape,
            "a tool result has neither structuredContent nor content",
        )),
    }
}

/// The refusal of a tool result dumped by field names (pydantic's `model_dump()` without aliases).
pub const SNAKE_CASE_RESULT: &str = "a tool result has structured_content, not structuredContent: \
     an SDK object dumped by field names; fingerprint the response's JSON text as it crossed the wire \
     (ekl_evidence.mcp), or model_dump(mode=\"json\", by_alias=True, exclude_unset=True)";

/// The refusal of a tool dumped by field names (pydantic's `model_dump()` without aliases).
pub const SNAKE_CASE_TOOL: &str = "a tool has input_schema, not inputSchema: \
     an SDK object dumped by field names; fingerprint the tools/list response's JSON text as it \
     crossed the wire (ekl_evidence.mcp), or model_dump(mode=\"json\", by_alias=True, exclude_unset=True)";

/// The output fingerprint of an MCP tool result (§15.3).
pub fn output_fingerprint(salt: &Salt, result: &Value<'_>) -> Result<String> {
    let (_, body) = select_result_body(result)?;
    fingerprint(salt, body)
}

/// The members of a tool that the upstream fingerprint keeps, in this order before sorting.
pub const UPSTREAM_MEMBERS: [&str; 5] = [
    "name",
    "description",
    "inputSchema",
    "outputSchema",
    "annotations",
];

/// The array the upstream fingerprint hashes (§5.1): `tools` is a `tools/list` result
/// (`{"tools": [...]}`) or its array; `offered`, when given, keeps only the tools of those names.
/// Refused with `INVALID_SHAPE` when a tool is not an object with a string `name`, or when two
/// kept tools share a name, or when a tool holds `input_schema` and no `inputSchema` (an SDK
/// object dumped by field names, whose projection would lose its schemas); with `DUPLICATE_KEY` when the result or a tool holds one member name
/// twice (never read "first wins").
pub fn upstream_projection<'v, 'a>(
    tools: &'v Value<'a>,
    offered: Option<&[&str]>,
) -> Result<Value<'a>> {
    let list = match tools {
        Value::Array(items) => items.as_slice(),
        Value::Object(members) => {
            match canonical::check_unique_keys(members).map(|()| tools.get("tools"))? {
                Some(Value::Array(items)) => items.as_slice(),
                _ => {
                    return Err(Error::new(
                        ErrorCode::InvalidShape,
                        "a tools/list result must have a tools array",
                    ))
                }
            }
        }
        _ => {
            return Err(Error::new(
                ErrorCode::InvalidShape,
                "tools must be a tools/list result or an array of tools",
            ))
        }
    };
    let mut kept: Vec<(&str, &'v Value<'a>)> = Vec::new();
    for tool in list {
        if let Value::Object(members) = tool {
            canonical::check_unique_keys(members)?;
            if tool.get("input_schema").is_some() && tool.get("inputSchema").is_none() {
                return Err(Error::new(ErrorCode::InvalidShape, SNAKE_CASE_TOOL));
            }
        }
        let Some(name) = tool.get("name").and_then(Value::as_str) else {
            return Err(Error::new(
                ErrorCode::InvalidShape,
                "every tool must be an object with a string name",
            ));
        };
        if offered.is_none_or(|names| names.contains(&name)) {
            kept.push((name, tool));
        }
    }
    // Unstable: two tools with one name are refused just below.
    crate::sort::sort_unstable_by(&mut kept, |a, b| cmp_utf16(a.0, b.0));
    if kept.windows(2).any(|w| w[0].0 == w[1].0) {
        return Err(Error::new(
            ErrorCode::InvalidShape,
            "two offered tools share a name",
        ));
    }
    Ok(Value::Array(
        kept.into_iter()
            .map(|(_, tool)| {
                Value::Object(
                    UPSTREAM_MEMBERS
                        .iter()
                        .map(|&m| {
                            (
                                Cow::Borrowed(m),
                                tool.get(m).cloned().unwrap_or(Value::Null),
                            )
                        })
                        .collect(),
                )
            })
            .collect(),
    ))
}

/// The upstream fingerprint (§5.1): lowercase hex SHA-256 of the ekl-json-1 bytes of
/// [`upstream_projection`].
pub fn upstream_fingerprint(tools: &Value<'_>, offered: Option<&[&str]>) -> Result<String> {
    let projected = upstream_projection(tools, offered)?;
    Ok(sha256_hex(&canonical::canonicalize_value(&projected)?))
}
