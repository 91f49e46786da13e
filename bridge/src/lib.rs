//! # ekl-bridge — every operation of `ekl-core` once, in wire shape
//!
//! The layer between the core and its hosts (docs/decisions.md#bridge). Each operation that a
//! package exposes is one [`Op`] of the registry [`OPERATIONS`]: its wire name, its parameters
//! (name, [`Kind`], required or not), what it returns ([`Returns`]) and its implementation over
//! `ekl-core`. The Python, Node and wasm packages, the `ekl` CLI and the conformance server are
//! thin shims: they convert host values into [`Arg`]s by the parameter's kind, call [`call`],
//! and turn the [`Out`] into host values. Everything else, every rule of EKP and every argument
//! shape ([`ekl_core::shape`]), lives below this line, once.
//!
//! Conventions every host follows (generated into `docs/operations.json` by [`manifest`]):
//!
//! * the Python name of an operation is its wire name; the JS name is its camelCase form, unless
//!   the entry names a class (`Jwks`);
//! * required parameters are positional, in registry order; optional ones are keyword arguments
//!   in Python (snake_case) and members of a trailing options object in JS (camelCase);
//! * protocol objects passed as values (a receipt, a call, a key ring, claims, a JWKS) keep their
//!   wire names in every language, and results are wire-shaped values;
//! * a parameter of kind [`Kind::Now`] may be left out: the host passes its own clock (the core
//!   never reads one);
//! * a parameter of kind [`Kind::Salt`] may be left out: the host passes a fresh salt from its
//!   CSPRNG (the core never reads a random source).
//!
//! Features: `full` (the default) is every operation. Without it the registry holds what
//! verifying receipts and credentials needs; `mcp`, `replay`, `screening`, `signing` and `proofs`
//! each add their operations (and the core's feature of the same name): the WebAssembly verify
//! build is built without them (docs/decisions/wasm.md#verify-build).

mod args;
mod credential;
pub mod handle;
pub mod manifest;
mod ops;
pub mod refinements;
pub mod shapes;

pub use args::{
    seconds_of, Arg, Args, Out, MAX_CACHED_JWKS_BYTES, MILLISECONDS_FROM, NAMING_PARAMS,
};
use ekl_core::{Error, ErrorCode, Result};
pub use handle::{Handle, HandleClass, HANDLES};

/// How a host passes a parameter, and what the bridge accepts for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A JSON value: a host value (converted strictly) or JSON text marked as such (`JsonText`),
    /// as [`Arg::Value`] or [`Arg::Text`].
    Value,
    /// JSON text itself (`str` or bytes in Python, `string` or `Uint8Array` in JS): [`Arg::Text`].
    Text,
    /// A string: [`Arg::Str`].
    Str,
    /// Bytes, or a string taken as its UTF-8 bytes: [`Arg::Bytes`] or [`Arg::Str`].
    Bytes,
    /// An integer: [`Arg::Int`].
    Int,
    /// A time in whole seconds since the epoch: [`Arg::Int`]. When optional and left out, the host
    /// passes its own clock.
    Now,
    /// A boolean: [`Arg::Bool`].
    Bool,
    /// A list of strings: [`Arg::StrList`].
    StrList,
    /// A JWKS: a parsed handle ([`Arg::Jwks`]) or its JSON ([`Arg::Value`] / [`Arg::Text`]).
    Jwks,
    /// An ES256 signing key handle: [`Arg::Key`].
    Key,
    /// A salt, 64 lowercase hex (32 bytes): [`Arg::Str`]. When optional and left out, the host
    /// passes a fresh one from its CSPRNG (the core never reads a random source).
    Salt,
    /// A number, any double (a host's `float` or `number`; NaN and ±∞ reach the operation, which
    /// checks its bounds): [`Arg::Number`].
    Number,
    /// The handle of the named class ([`HANDLES`]): [`Arg::Handle`]. The `self` of a method row.
    Handle(&'static str),
}

impl Kind {
    /// The kind's name in `docs/operations.json`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Value => "value",
            Kind::Text => "text",
            Kind::Str => "str",
            Kind::Bytes => "bytes",
            Kind::Int => "int",
            Kind::Now => "now",
            Kind::Bool => "bool",
            Kind::StrList => "str_list",
            Kind::Jwks => "jwks",
            Kind::Key => "key",
            Kind::Salt => "salt",
            Kind::Number => "number",
            Kind::Handle(_) => "handle",
        }
    }
}

/// What an operation returns, which tells a host how to present the [`Out`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Returns {
    /// A string ([`Out::Str`]).
    Str,
    /// A boolean ([`Out::Bool`]).
    Bool,
    /// Canonical JSON bytes ([`Out::Bytes`]).
    Bytes,
    /// A JSON value ([`Out::Value`] or [`Out::Json`]) of the named shape (a type name every host
    /// declares: `Commitment`, `Receipt`, `ResultBody`, `VerifiedJws`, …, declared once in
    /// [`shapes::SHAPES`]; `Name[]` a list of them; or `JsonValue`).
    Value(&'static str),
    /// A verdict (`{accepted, checks, receipt_digest?}`) as [`Out::Value`].
    Verdict,
    /// A list with, per item, a verdict or `{"error": {"code", "message"}}` ([`Out::Value`]).
    Verdicts,
    /// A parsed JWKS handle ([`Out::Jwks`]).
    Jwks,
    /// A signing key handle ([`Out::Key`]).
    Key,
    /// A JWKS and its signing keys ([`Out::KeySet`]).
    KeySet,
    /// A new handle of the named class ([`Out::Handle`]): a constructor row.
    Handle(&'static str),
}

impl Returns {
    /// The result's name in `docs/operations.json`.
    pub fn as_str(self) -> &'static str {
        match self {
            Returns::Str => "str",
            Returns::Bool => "bool",
            Returns::Bytes => "bytes",
            Returns::Value(t) => t,
            Returns::Verdict => "Verdict",
            Returns::Verdicts => "Verdicts",
            Returns::Jwks => "Jwks",
            Returns::Key => "SigningKey",
            Returns::KeySet => "KeySet",
            Returns::Handle(class) => class,
        }
    }
}

/// One parameter of an operation.
#[derive(Clone, Copy, Debug)]
pub struct Param {
    /// The wire name (snake_case; the JS option name is its camelCase form).
    pub name: &'static str,
    /// What the host passes.
    pub kind: Kind,
    /// Whether it must be given (positional) or may be left out (keyword / option).
    pub required: bool,
    /// One line for the host's documentation.
    pub doc: &'static str,
    /// Members of a value parameter (an object, or each object of an array: the keys of a key
    /// ring) that hold a time, each with the form the core reads: a host may pass its date type
    /// there (a Python aware `datetime`, a JS `Date`) and writes it in that form first (the core
    /// stays free of host dates). Empty for most.
    pub times: &'static [(&'static str, TimeForm)],
    /// How long the canonical form of a value argument may be while a host converts it (the
    /// walk stops with `BODY_TOO_LARGE` as soon as it passes). [`Limit::Value`] for most.
    pub limit: Limit,
    /// A narrower type than the kind's, for the hosts' declarations only (the call accepts what
    /// the kind accepts; the core checks the value): a name of
    /// [`refinements::REFINEMENTS`] or of [`shapes::SHAPES`], `Name[]` a list of them, and
    /// alternatives joined by ` | `, where `json` is any value of the kind. `None` for most.
    pub refine: Option<&'static str>,
}

/// The bound on a value argument's canonical form while a host converts it (a parameter's `limit`):
/// declared here once, applied by every host the same way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// `limits::MAX_VALUE_BYTES`, the bound on every host value.
    Value,
    /// A tighter fixed bound (the 256 KB of a capability input, PROTOCOL §2.5).
    Bytes(usize),
    /// The integer argument of the named parameter when given (`max_bytes`), else
    /// `MAX_VALUE_BYTES`; never more than `MAX_VALUE_BYTES`.
    Param(&'static str),
}

impl Param {
    /// The bound on this value argument's canonical form, given the integer argument that a
    /// [`Limit::Param`] names (`None` when left out or not an integer ≥ 0).
    pub fn value_limit(&self, param_arg: Option<u64>) -> usize {
        let max = ekl_core::limits::MAX_VALUE_BYTES;
        match self.limit {
            Limit::Value => max,
            Limit::Bytes(n) => n.min(max),
            Limit::Param(_) => {
                param_arg.map_or(max, |n| usize::try_from(n).unwrap_or(max).min(max))
            }
        }
    }
}

/// The form of a time member of a value (see `Param::times`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeForm {
    /// The protocol's UTC timestamp, `YYYY-MM-DDTHH:MM:SSZ` (what `format_timestamp` writes).
    Timestamp,
    /// An integer number of seconds since the epoch (JWT NumericDate).
    Seconds,
}

impl TimeForm {
    /// The form's name in `docs/operations.json`.
    pub fn as_str(self) -> &'static str {
        match self {
            TimeForm::Timestamp => "timestamp",
            TimeForm::Seconds => "seconds",
        }
    }
}

/// One operation of the registry.
#[derive(Clone, Copy)]
pub struct Op {
    /// The wire name, also the Python name and the CLI's `ekl call` name.
    pub name: &'static str,
    /// The host name when it is a class rather than a function (`Jwks`), else `None`.
    pub class: Option<&'static str>,
    /// The PROTOCOL section it implements, or `-` for a utility.
    pub section: &'static str,
    /// One paragraph for the host's documentation.
    pub doc: &'static str,
    /// The parameters, required ones first.
    pub params: &'static [Param],
    /// What it returns.
    pub returns: Returns,
    /// A narrower type of the result than [`Op::returns`] names, for the hosts' declarations
    /// only: a name of [`refinements::REFINEMENTS`] (`ProofVersion` for a `"v1"` or `"v2"`
    /// string). `None` for most.
    pub refine: Option<&'static str>,
    /// The implementation (checked arguments in, result out).
    pub run: fn(&Args<'_>) -> Result<Out>,
}

impl std::fmt::Debug for Op {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Op").field("name", &self.name).finish()
    }
}

impl Op {
    /// Whether the operation is a batch split over threads (it has the `jobs` option): hosts run
    /// it without their interpreter lock, whatever its size.
    pub fn is_batch(&self) -> bool {
        self.params.iter().any(|p| p.name == "jobs")
    }

    /// The Python name: the class name, the method name of a method row ([`Op::method_of`]),
    /// or the wire name.
    pub fn python_name(&self) -> &'static str {
        match self.method_of() {
            Some((_, method)) => method,
            None => self.class.unwrap_or(self.name),
        }
    }

    /// The JS name: the class name, or the camelCase form of the wire name (of the method name
    /// for a method row).
    pub fn js_name(&self) -> String {
        match self.class {
            Some(c) => c.to_owned(),
            None => camel(self.python_name()),
        }
    }

    /// The handle class and the method name of a method row: a row whose first parameter is
    /// `self`, of kind [`Kind::Handle`], named `{prefix}_{method}` ([`HandleClass::prefix`]).
    pub fn method_of(&self) -> Option<(&'static HandleClass, &'static str)> {
        let first = self.params.first()?;
        let Kind::Handle(class) = first.kind else {
            return None;
        };
        let class = handle::class_of(class)?;
        let method = self
            .name
            .strip_prefix(class.prefix)
            .and_then(|m| m.strip_prefix('_'))?;
        (first.name == "self").then_some((class, method))
    }

    /// The index of the parameter named `name` (wire name).
    pub fn param_index(&self, name: &str) -> Option<usize> {
        self.params.iter().position(|p| p.name == name)
    }
}

/// The camelCase form of a snake_case name (`proof_v2` → `proofV2`).
pub fn camel(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut up = false;
    for c in name.chars() {
        if c == '_' {
            up = true;
        } else if up {
            out.push(c.to_ascii_uppercase());
            up = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// Every operation, in the order of `docs/operations.json`.
pub static OPERATIONS: &[Op] = ops::OPERATIONS;

/// The operation of a wire name.
pub fn find(name: &str) -> Option<&'static Op> {
    OPERATIONS.iter().find(|op| op.name == name)
}

/// The operation at `index` of [`OPERATIONS`] (hosts pass indexes: no string lookup per call).
pub fn by_index(index: usize) -> Result<&'static Op> {
    OPERATIONS
        .get(index)
        .ok_or_else(|| Error::new(ErrorCode::InvalidArgument, "no such operation"))
}

/// Runs `op` on `args` (one per parameter, in registry order; [`Arg::Absent`] for an optional
/// parameter left out): the arguments are checked against the parameters' kinds first, so an
/// implementation only sees what its signature promises.
pub fn call(op: &Op, args: &[Arg<'_>]) -> Result<Out> {
    let args = Args::check(op, args)?;
    (op.run)(&args)
}

/// Calls the operation named `name` (wire name) with arguments given by wire name; unknown names
/// are refused, naming the allowed ones (the conformance server and `ekl call` use this).
pub fn call_named<'a>(name: &str, named: &[(&str, Arg<'a>)]) -> Result<Out> {
    let op = find(name).ok_or_else(|| {
        Error::new(
            ErrorCode::InvalidArgument,
            "no such operation (see docs/operations.json)",
        )
    })?;
    let mut args: Vec<Arg<'a>> = op.params.iter().map(|_| Arg::Absent).collect();
    for (k, v) in named {
        let i = op.param_index(k).ok_or_else(|| {
            let allowed: Vec<&str> = op.params.iter().map(|p| p.name).collect();
            Error::new(
                ErrorCode::InvalidArgument,
                format!(
                    "{}: unknown argument (allowed: {})",
                    op.name,
                    allowed.join(", ")
                ),
            )
        })?;
        args[i] = v.clone();
    }
    call(op, &args)
}

/// Every stable error code, in declaration order.
pub fn error_codes() -> impl Iterator<Item = &'static str> {
    ErrorCode::ALL.iter().map(|c| c.as_str())
}

/// The version of the core (and of every package built from it).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
