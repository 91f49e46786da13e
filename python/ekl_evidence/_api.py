"""The operations of ekl-bridge's registry, built at import from its manifest.

``_native.operations()`` is the registry's manifest (the text of ``docs/operations.json``). Each
operation becomes one plain function with the registry's signature: required parameters
positional, in order; optional ones keyword-only, ``None`` when left out. A ``now`` parameter
defaults to the host clock, a ``salt`` parameter to a fresh salt from the host's CSPRNG. The function hands its arguments to ``_native.call`` (one entry point
for all operations) and presents the result: a verdict as :class:`Verdict`, a batch of verdicts as
a list of :class:`Verdict` or :class:`EklError`, anything else as it comes (wire-shaped values).
The types are in ``_api.pyi``, generated from the same manifest (python/tools/gen_stubs.py).
"""

from __future__ import annotations

import datetime as _dt
import json as _json
import keyword as _keyword
import math as _math
import time as _time
from typing import Any as _Any
from typing import Union as _Union

from . import _native
from ._errors import EklError as _EklError
from ._host import new_salt as _new_salt
from ._verdict import Verdict as _Verdict

Jwks = _native.Jwks
_call = _native.call


def _salt(salt: _Any) -> _Any:
    """A salt: a fresh one from the host's CSPRNG (``secrets``) for None, else as given."""
    return _new_salt() if salt is None else salt


def _now(op: str, now: _Any, what: str = "now") -> int:
    """Seconds since the epoch: the host clock for None, an int as is, a finite float floored,
    an aware datetime's timestamp floored (a naive one is refused: its zone is unknown)."""
    if now is None:
        return int(_time.time())
    if isinstance(now, int) and not isinstance(now, bool):
        return now
    if isinstance(now, float):
        if not _math.isfinite(now):
            raise _EklError("INVALID_ARGUMENT", f"{op}: {what} must be a finite number of seconds")
        return _math.floor(now)
    if isinstance(now, _dt.datetime):
        if now.utcoffset() is None:
            raise _EklError(
                "INVALID_ARGUMENT", f"{op}: {what} is a naive datetime (give it a tzinfo, e.g. UTC)"
            )
        return _math.floor(now.timestamp())
    raise TypeError(
        f"{op}: {what} must be an int, a float or an aware datetime, got {type(now).__name__}"
    )


#: The index of ``format_timestamp`` in the registry (set by ``_build``).
_FORMAT_TIMESTAMP = -1


#: The most elements of a list whose objects ``_times`` looks at (a key ring has a few keys);
#: a longer list is handed on as it is.
_TIMES_MAX_ITEMS = 4096


def _times(op: str, name: str, value: _Any, times: dict[str, str]) -> _Any:
    """A value whose time members (the parameter's ``times`` in the registry: ``issued_at`` of a
    receipt, ``iat``/``nbf``/``exp`` of claims, ``valid_from``/``valid_until`` of each key of a
    key ring, ...) may hold an aware ``datetime``: a dict holding one, or a list of dicts some of
    which hold one, is copied (in its order) with those written in the form the core reads
    (``timestamp``: as ``format_timestamp`` writes it; ``seconds``: an int); anything else is
    handed on as it is."""
    if type(value) in (list, tuple) and len(value) <= _TIMES_MAX_ITEMS:
        if not any(_dated(item, times) for item in value):
            return value
        return [
            _timed(op, f"{name}[{i}]", item, times) if _dated(item, times) else item
            for i, item in enumerate(value)
        ]
    if not _dated(value, times):
        return value
    return _timed(op, name, value, times)


def _dated(value: _Any, times: dict[str, str]) -> bool:
    """Whether ``value`` is a dict with a ``datetime`` in one of its time members."""
    return isinstance(value, dict) and any(isinstance(value.get(m), _dt.datetime) for m in times)


def _timed(op: str, name: str, value: dict[_Any, _Any], times: dict[str, str]) -> _Any:
    """The copy of a dict of ``_times``."""
    out = {}
    for k, v in value.items():
        form = times.get(k) if isinstance(k, str) else None
        if form is not None and isinstance(v, _dt.datetime):
            secs = _now(op, v, f"{name}[{k!r}]")
            v = secs if form == "seconds" else _call(_FORMAT_TIMESTAMP, (secs,))
        out[k] = v
    return out


def _verdict(raw: dict[str, _Any]) -> _Verdict:
    return _Verdict._from_wire(raw)


def _verdicts(raw: list[dict[str, _Any]]) -> list[_Union[_Verdict, _EklError]]:
    return [
        _EklError(r["error"]["code"], r["error"]["message"]) if "error" in r else _Verdict._from_wire(r)
        for r in raw
    ]


_PRESENT = {"Verdict": "_verdict", "Verdicts": "_verdicts"}

#: Operations the native module binds directly (the same bridge operation without a Python frame:
#: the hottest ones, measured by ``./run bench``).
_DIRECT = ("canonicalize", "canonicalize_value")


def _doc(op: dict[str, _Any]) -> str:
    lines = [op["doc"], ""]
    for p in op["params"]:
        how = "required" if p["required"] else "optional, keyword-only"
        text = f"{p['name']} ({p['kind']}, {how}): {p['doc']}"
        if p.get("times"):
            members = ", ".join(f"{m} ({form})" for m, form in p["times"].items())
            text += f"; an aware datetime is accepted for {members}"
        lines.append(text)
    lines.append(f"\nReturns {op['returns']} (EKP {op['section']}).")
    return "\n".join(lines)


def _source(index: int, op: dict[str, _Any], name: _Any = None, indent: str = "") -> str:
    """The function of an operation; a constructor of a handle class (``name``: ``__init__``)
    keeps the handle in ``self._handle``; a method's ``self`` passes it."""
    params = op["params"]
    for p in params:
        if _keyword.iskeyword(p["name"]) or not p["name"].isidentifier():
            raise ImportError(f"ekl_evidence: parameter name {p['name']!r} is not a Python name")
    required = [p["name"] for p in params if p["required"]]
    optional = [f"{p['name']}=None" for p in params if not p["required"]]
    signature = ", ".join(required + (["*"] + optional if optional else []))
    def pass_(p: dict[str, _Any]) -> str:
        if p["kind"] == "now":
            return f"_now({op['name']!r}, {p['name']}, {p['name']!r}), "
        if p["kind"] == "salt":
            return f"_salt({p['name']}), "
        if p.get("times"):
            return f"_times({op['name']!r}, {p['name']!r}, {p['name']}, {p['times']!r}), "
        return f"{p['name']}, "

    passed = "".join("self._handle, " if p["kind"] == "handle" else pass_(p) for p in params)
    body = f"_call({index}, ({passed}))"
    present = _PRESENT.get(op["returns"])
    if present:
        body = f"{present}({body})"
    if name == "__init__":
        signature = ", ".join(["self", *([signature] if signature else [])])
        return f"{indent}def __init__({signature}):\n{indent}    self._handle = {body}\n"
    return f"{indent}def {name or op['name']}({signature}):\n{indent}    return {body}\n"


def _handle_class(manifest: dict[str, _Any], handle: dict[str, _Any]) -> type:
    """The class of a handle of the registry (the manifest's ``handles``): its constructor row
    makes the native handle (``_native.Handle``, the machine behind its own lock), each method row
    calls the registry with it as ``self``. No state of its own."""
    ops = manifest["operations"]
    index = {op["name"]: i for i, op in enumerate(ops)}
    new = ops[index[handle["constructor"]]]
    lines = [f"class {handle['name']}:", f"    __slots__ = ({'_handle'!r},)", ""]
    lines.append(_source(index[new["name"]], new, "__init__", "    "))
    for name in handle["methods"]:
        lines.append(_source(index[name], ops[index[name]], ops[index[name]]["python"], "    "))
    lines.append(f"    def __repr__(self):\n        return {handle['name'] + '(...)'!r}\n")
    namespace = dict(globals())
    exec(compile("\n".join(lines), f"<ekl_evidence.{handle['name']}>", "exec"), namespace)
    cls: type = namespace[handle["name"]]
    cls.__doc__ = handle["doc"] + "\n\n" + _doc(new)
    cls.__module__ = "ekl_evidence"
    for name in handle["methods"]:
        op = ops[index[name]]
        method = getattr(cls, op["python"])
        method.__doc__ = _doc(op)
        method.__qualname__ = f"{handle['name']}.{op['python']}"
    return cls


def _build() -> list[str]:
    global _FORMAT_TIMESTAMP
    names = []
    manifest = _json.loads(_native.operations())
    handles = {h["constructor"]: h for h in manifest.get("handles", [])}
    for index, op in enumerate(manifest["operations"]):
        name = op["python"]
        if name == "format_timestamp":
            _FORMAT_TIMESTAMP = index
        if op.get("method_of"):
            continue  # a method of its handle class (below)
        if op["name"] in handles:
            globals()[name] = _handle_class(manifest, handles[op["name"]])
        elif op["class"]:
            if not isinstance(globals().get(name), type):
                raise ImportError(f"ekl_evidence: the class {name} is not bound")
        elif name in _DIRECT:
            globals()[name] = getattr(_native, name)
        else:
            exec(compile(_source(index, op), f"<ekl_evidence.{name}>", "exec"), globals())
            fn = globals()[name]
            fn.__doc__ = _doc(op)
            fn.__qualname__ = name
        names.append(name)
    return sorted(names)


__all__ = _build()
