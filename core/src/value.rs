//! The in-memory JSON value that ekl-json-1 canonicalises (SPEC §1, PROTOCOL §9.5).
//!
//! [`Value`] is what the text parser produces and what the language bindings convert host values
//! into, so both paths meet the same writer and the same rules. Strings borrow from the input text
//! where they contain no escapes. Numbers are IEEE-754 doubles, as in ECMAScript; the constructors
//! [`Value::from_i64`], [`Value::from_u64`], [`Value::from_i128`] and [`Value::from_f64`] apply the
//! ekl-json-1 refusals (integers beyond ±2^53, non-finite floats) so a binding cannot bypass them.

use std::borrow::Cow;

use crate::error::{Error, ErrorCode, Result};

/// The largest integer magnitude ekl-json-1 accepts: 2^53 (PROTOCOL §9.5 "within ±2^53", inclusive).
pub const MAX_SAFE_INTEGER_BOUND: u64 = 1 << 53;

/// A JSON value. Object members keep their input order; the writer sorts them.
#[derive(Clone, Debug, PartialEq)]
pub enum Value<'a> {
    /// `null`
    Null,
    /// `true` or `false`
    Bool(bool),
    /// A finite double (the writer refuses NaN and ±inf with `NON_FINITE_NUMBER`).
    Number(f64),
    /// A string (always valid Unicode: Rust strings cannot hold a lone surrogate).
    String(Cow<'a, str>),
    /// An array.
    Array(Vec<Value<'a>>),
    /// An object's members in input order (duplicates are refused when written).
    Object(Vec<(Cow<'a, str>, Value<'a>)>),
}

impl<'a> Value<'a> {
    /// A number from a host integer, refused beyond ±2^53 with `INTEGER_OUT_OF_RANGE`.
    pub fn from_i64(n: i64) -> Result<Value<'a>> {
        Self::from_i128(i128::from(n))
    }

    /// A number from a host unsigned integer, refused beyond 2^53 with `INTEGER_OUT_OF_RANGE`.
    pub fn from_u64(n: u64) -> Result<Value<'a>> {
        Self::from_i128(i128::from(n))
    }

    /// A number from a host integer, refused beyond ±2^53 with `INTEGER_OUT_OF_RANGE`.
    pub fn from_i128(n: i128) -> Result<Value<'a>> {
        if n.unsigned_abs() > u128::from(MAX_SAFE_INTEGER_BOUND) {
            return Err(integer_out_of_range());
        }
        // Exact: every integer of magnitude <= 2^53 is a double.
        Ok(Value::Number(n as f64))
    }

    /// A number from a host float, refused when NaN or infinite with `NON_FINITE_NUMBER`.
    pub fn from_f64(x: f64) -> Result<Value<'a>> {
        if !x.is_finite() {
            return Err(Error::new(
                ErrorCode::NonFiniteNumber,
                "NaN and Infinity have no JSON form",
            ));
        }
        Ok(Value::Number(x))
    }

    /// The member `key` of an object (the first one, should there be duplicates), or `None`.
    pub fn get(&self, key: &str) -> Option<&Value<'a>> {
        match self {
            Value::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string, if this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The number, if this is a number.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Number(x) => Some(*x),
            _ => None,
        }
    }

    /// The members, if this is an object.
    pub fn as_object(&self) -> Option<&[(Cow<'a, str>, Value<'a>)]> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    /// The items, if this is an array.
    pub fn as_array(&self) -> Option<&[Value<'a>]> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// A copy that owns all its strings.
    pub fn into_owned(self) -> Value<'static> {
        // Depth is not bounded here by construction, so use an explicit stack.
        enum Job<'a> {
            Visit(Value<'a>),
            Array(usize),
            Object(Vec<Cow<'static, str>>),
        }
        let mut jobs = vec![Job::Visit(self)];
        let mut done: Vec<Value<'static>> = Vec::new();
        while let Some(job) = jobs.pop() {
            match job {
                Job::Visit(v) => match v {
                    Value::Null => done.push(Value::Null),
                    Value::Bool(b) => done.push(Value::Bool(b)),
                    Value::Number(x) => done.push(Value::Number(x)),
                    Value::String(s) => done.push(Value::String(Cow::Owned(s.into_owned()))),
                    Value::Array(items) => {
                        jobs.push(Job::Array(items.len()));
                        jobs.extend(items.into_iter().rev().map(Job::Visit));
                    }
                    Value::Object(members) => {
                        let (keys, values): (Vec<_>, Vec<_>) = members.into_iter().unzip();
                        jobs.push(Job::Object(
                            keys.into_iter()
                                .map(|k| Cow::Owned(k.into_owned()))
                                .collect(),
                        ));
                        jobs.extend(values.into_iter().rev().map(Job::Visit));
                    }
                },
                Job::Array(n) => {
                    let items = done.split_off(done.len() - n);
                    done.push(Value::Array(items));
                }
                Job::Object(keys) => {
                    let values = done.split_off(done.len() - keys.len());
                    done.push(Value::Object(keys.into_iter().zip(values).collect()));
                }
            }
        }
        done.pop().unwrap_or(Value::Null)
    }
}

pub(crate) fn integer_out_of_range() -> Error {
    Error::new(
        ErrorCode::IntegerOutOfRange,
        "integer beyond ±2^53 (ekl-json-1 accepts -9007199254740992 to 9007199254740992)",
    )
}

impl From<bool> for Value<'_> {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}

impl<'a> From<&'a str> for Value<'a> {
    fn from(s: &'a str) -> Self {
        Value::String(Cow::Borrowed(s))
    }
}

impl From<String> for Value<'_> {
    fn from(s: String) -> Self {
        Value::String(Cow::Owned(s))
    }
}
