#!/usr/bin/env python3
"""The conformance protocol (docs/conformance-protocol.md) over the Python package ekl_evidence:
one JSON request per line on stdin, one JSON answer per line on stdout.

    ekl conformance -- python3 examples/conformance/python_adapter.py

Run it with the interpreter of the environment where ekl_evidence is installed.
"""

from __future__ import annotations

import json
import struct
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Union, cast

import ekl_evidence as ekl

#: A request: a JSON object of the protocol.
Req = Dict[str, Any]


def text(data: bytes) -> str:
    return bytes(data).decode("utf-8")


def units_str(units: List[int]) -> str:
    """A str from UTF-16 code units: pairs combine, lone surrogates stay (as Python allows)."""
    return struct.pack("<%dH" % len(units), *units).decode("utf-16-le", "surrogatepass")


#: A host-value description of the protocol (canonicalize_host).
Desc = Union[None, bool, str, List["Desc"], Dict[str, Any]]


def host(d: Desc) -> Any:
    """The Python value a description stands for (the protocol's canonicalize_host)."""
    if d is None or isinstance(d, (bool, str)):
        return d
    if isinstance(d, list):
        return [host(x) for x in d]
    if "$num" in d:
        return float(d["$num"])
    if "$int" in d:
        return int(d["$int"])
    if "$str" in d:
        return units_str(d["$str"])
    if "$obj" in d:
        return {(k if isinstance(k, str) else units_str(k["$str"])): host(v) for k, v in d["$obj"]}
    raise ValueError("bad description")


# `call` (docs/conformance-protocol.md#call): any operation of the registry, dispatched from the
# package's own manifest: required parameters positional, optional ones keyword-only.
class Unsupported(Exception):
    """An operation this package does not have."""


# The registry's manifest, as checked in next to the package's sources (the package binds this
# very text: wasm/test/api.test.mjs and python/tests/test_registry.py check it).
_OPERATIONS = Path(__file__).resolve().parents[2] / "docs" / "operations.json"
_WHOLE: Req = json.loads(_OPERATIONS.read_text(encoding="utf-8"))
MANIFEST: Dict[str, Req] = {op["name"]: op for op in _WHOLE["operations"]}
#: The handle classes (docs/decisions/handles.md): a method row's ``self`` is described as
#: ``{"new": ARGS, "then": [[METHOD, ARGS], ...]}`` (docs/conformance-protocol.md#call).
HANDLES: Dict[str, Req] = {h["name"]: h for h in _WHOLE.get("handles", [])}


def argument(kind: str, v: Any) -> Any:
    """A request's argument as the package takes it (kinds of docs/operations.json; the handle
    forms of docs/conformance-protocol.md#handles build a Jwks or a SigningKey first)."""
    if kind == "jwks" and isinstance(v, dict):
        handle = cast(Dict[str, str], v)
        if "$jwks" in handle:
            return ekl.Jwks(ekl.JsonText(handle["$jwks"]))
        return ekl.Jwks(json.loads(handle["$jwks_value"]))
    if kind in ("value", "jwks"):
        return ekl.JsonText(v)
    if kind == "key":
        if "jwk" in v:
            return ekl.SigningKey.from_jwk(v["jwk"])
        if "pem" in v:
            return ekl.signing_key_from_pem(v["pem"], v["kid"])
        return ekl.signing_key(v["seed"], v["kid"])
    return v


def host_call(r: Req) -> str:
    """The protocol's ``host`` requests: the package's host-only helpers (docs/host-apis.json)."""
    name = r.get("name")
    args: Dict[str, Any] = r.get("args") or {}
    if name == "jwks_kids":
        jwks = args["jwks"]
        handle = argument("jwks", jwks) if isinstance(jwks, dict) else ekl.Jwks(ekl.JsonText(jwks))
        return text(ekl.canonicalize_value(handle.kids()))
    if name == "signing_key_kid":
        return text(ekl.canonicalize_value(argument("key", args["key"]).kid))
    if name == "signing_key_public_jwks":
        public: str = argument("key", args["key"]).public_jwks().to_json()
        return public
    if name == "canonicalize_many":
        outs = ekl.canonicalize_many(args["texts"], max_bytes=args.get("max_bytes"))
        return text(ekl.canonicalize_value([bytes(o).decode("utf-8") for o in outs]))
    if name == "error_codes":
        if list(ekl.ERROR_CODES) != ekl.error_codes():
            raise ValueError("ERROR_CODES differs from error_codes()")
        return text(ekl.canonicalize_value(ekl.error_codes()))
    if name == "core_version":
        if ekl.__version__ != ekl.CORE_VERSION:
            raise ValueError("__version__ differs from CORE_VERSION")
        return text(ekl.canonicalize_value(ekl.CORE_VERSION))
    raise Unsupported()


def handle(cls: str, v: Req) -> Any:
    """The handle a method's ``self`` describes: the class's constructor called with ``new``,
    then each method of ``then`` in turn (its refusals are its next state too)."""
    h = HANDLES[cls]

    def given(args: Req) -> Callable[[Req], Any]:
        return lambda p: by_kind(p, args.get(p["name"]))

    obj = invoke(MANIFEST[h["constructor"]], given(v.get("new") or {}))
    steps: List[Any] = v.get("then") or []
    for method, args in steps:
        op = MANIFEST.get(f"{h['constructor']}_{method}")
        if op is None or op.get("method_of") != cls:
            raise ekl.EklError("INVALID_ARGUMENT", "no such method")
        try:
            invoke(op, given(args), getattr(obj, op["python"]))
        except ekl.EklError:
            pass
    return obj


def by_kind(p: Req, v: Any) -> Any:
    """A request's argument for parameter ``p`` (None: left out)."""
    if v is None:
        return None
    return handle(p["handle"], v) if p["kind"] == "handle" else argument(p["kind"], v)


def wire(returns: str, result: Any) -> str:
    """The result in its wire shape, as canonical JSON text."""
    if returns in HANDLES:
        return text(ekl.canonicalize_value(returns))  # a new handle: its class name
    if returns == "Verdict":
        result = result.to_wire()
    elif returns == "Verdicts":
        result = [
            {"error": {"code": r.code, "message": r.message}} if isinstance(r, ekl.EklError) else r.to_wire()
            for r in result
        ]
    elif returns == "Jwks":
        jwks: str = result.to_json()
        return jwks
    elif returns == "KeySet":
        first: str = result[0].to_json()
        return first
    elif returns == "SigningKey":
        result = ekl.public_jwk(result)
    elif returns == "bytes":
        result = bytes(result).decode("utf-8")
    return text(ekl.canonicalize_value(result))


def invoke(op: Req, arg: Callable[[Req], Any], f: Optional[Callable[..., Any]] = None) -> Any:
    """Calls the package's function of ``op`` (or ``f``: a handle's method, ``self`` bound) with
    ``arg(p)`` for each parameter (None: left out): required ones positional, optional ones by
    keyword."""
    positional: List[Any] = []
    keywords: Dict[str, Any] = {}
    for p in op["params"]:
        if p["kind"] == "handle":
            continue  # the method's self, bound in f
        v = arg(p)
        if p["required"]:
            positional.append(v)
        elif v is not None:
            keywords[p["name"]] = v
    return (f or getattr(ekl, op["python"]))(*positional, **keywords)


def call(r: Req) -> str:
    op = MANIFEST.get(str(r.get("name")))
    if op is None:
        raise Unsupported()
    args: Dict[str, Any] = r.get("args") or {}
    names = [p["name"] for p in op["params"]]
    if any(k not in names for k in args):
        raise ekl.EklError("INVALID_ARGUMENT", "unknown argument")

    def arg(p: Req) -> Any:
        return by_kind(p, args.get(p["name"]))

    method = None
    if op.get("method_of"):
        method = getattr(handle(op["method_of"], args["self"]), op["python"])
    return wire(op["returns"], invoke(op, arg, method))


#: The legacy operations as calls of the registry (legacy-ops.json, shared with the JS adapters).
LEGACY: Dict[str, Req] = json.loads((Path(__file__).resolve().parent / "legacy-ops.json").read_text(encoding="utf-8"))["ops"]


def from_request(r: Req, spec: Union[str, Req], kind: str) -> Any:
    """A parameter of a legacy call: a request member (or its ``_hex`` form, as bytes), or a nested call."""
    if not isinstance(spec, str):
        return legacy_call(r, spec)
    v: Any = r.get(spec)
    if v is None and isinstance(r.get(spec + "_hex"), str):
        v = bytes.fromhex(r[spec + "_hex"])
    return None if v is None else argument(kind, v)


def legacy_call(r: Req, spec: Req) -> Any:
    """The package's result of the registry call a legacy operation stands for."""

    def arg(p: Req) -> Any:
        source = spec["args"].get(p["name"])
        return None if source is None else from_request(r, source, p["kind"])

    return invoke(MANIFEST[spec["call"]], arg)


def legacy_answer(spec: Req) -> Callable[[Req], str]:
    """A legacy operation's answer: the result when a string (bytes: their text), else canonical JSON."""

    def answer(r: Req) -> str:
        out = legacy_call(r, spec)
        if "pick" in spec:
            out = out[spec["pick"]]
        if isinstance(out, str):
            return out
        return text(out if isinstance(out, bytes) else ekl.canonicalize_value(out))

    return answer


OPS: Dict[str, Callable[[Req], Any]] = {
    **{name: legacy_answer(spec) for name, spec in LEGACY.items()},
    "call": call,
    "host": host_call,
    "canonicalize_host": lambda r: text(ekl.canonicalize_value(host(r["value"]))),
}


def answer(line: str) -> Dict[str, Any]:
    try:
        req = json.loads(line)
    except ValueError:
        return {"id": None, "error": "BAD_REQUEST"}
    op = OPS.get(req.get("op"))
    if op is None:
        return {"id": req.get("id"), "error": "UNSUPPORTED_OP"}
    try:
        return {"id": req["id"], "ok": op(req)}
    except ekl.EklError as e:
        return {"id": req["id"], "error": e.code}
    except Unsupported:
        return {"id": req["id"], "error": "UNSUPPORTED_OP"}
    except Exception as e:  # an adapter bug, reported as such
        return {"id": req["id"], "error": "ADAPTER_ERROR: %s: %s" % (type(e).__name__, e)}


def main() -> None:
    out = sys.stdout
    for line in sys.stdin:
        if line.strip():
            out.write(json.dumps(answer(line), ensure_ascii=False) + "\n")
            out.flush()


if __name__ == "__main__":
    main()
