"""The package is the registry of ekl-bridge: every operation bound with the registry's signature,
declared in the generated stub (python/ekl_evidence/_api.pyi), and the stub fresh."""

from __future__ import annotations

import ast
import datetime
import importlib.util
import inspect
import json
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import ekl_evidence as ekl
from ekl_evidence import EklError, _native

REPO = Path(__file__).resolve().parents[2]
TOOL = REPO / "python" / "tools" / "gen_stubs.py"
MANIFEST = REPO / "docs" / "operations.json"
OPS: list[dict[str, Any]] = json.loads(_native.operations())["operations"]
#: The handle classes of the registry (docs/decisions/handles.md): built from its manifest.
HANDLE_CLASSES: set[str] = {h["name"] for h in json.loads(_native.operations()).get("handles", [])}
INSTALLED = Path(ekl.__file__).resolve().parent


def _tool() -> ModuleType:
    if not TOOL.is_file() or not MANIFEST.is_file():
        pytest.skip("python/tools/gen_stubs.py and docs/operations.json are not beside these tests")
    spec = importlib.util.spec_from_file_location("gen_stubs", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_checked_in_manifest_is_the_compiled_registry() -> None:
    if not MANIFEST.is_file():
        pytest.skip("docs/operations.json is not beside these tests")
    assert MANIFEST.read_text(encoding="utf-8") == _native.operations()


def test_the_stub_and_all_are_fresh() -> None:
    gen = _tool()
    manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    stub = gen.generate(manifest)
    assert gen.STUB.read_text(encoding="utf-8") == stub, "stale: run python3 python/tools/gen_stubs.py"
    init = gen.INIT.read_text(encoding="utf-8")
    assert gen.package_init(manifest, init) == init, "stale: run python3 python/tools/gen_stubs.py"
    # The TypedDicts of the result shapes are those the manifest's ``shapes`` declare (a shape
    # declared with one more member gives another module).
    types = gen.TYPES.read_text(encoding="utf-8")
    assert gen.types_module(manifest, types) == types, "stale: run python3 python/tools/gen_stubs.py"
    shapes = [dict(s, members=[*s["members"], {"name": "new_member", "type": "str", "required": True, "doc": ""}]) for s in manifest["shapes"]]
    grown_types = gen.types_module(dict(manifest, shapes=shapes), types)
    assert "    new_member: str\n" in grown_types and grown_types != types
    assert (INSTALLED / "_types.py").read_text(encoding="utf-8") == types
    # The installed package carries the same stub.
    assert (INSTALLED / "_api.pyi").read_text(encoding="utf-8") == stub
    # A registry entry the stub lacks is seen: the stub of a manifest with one more operation differs.
    extra = {
        "name": "new_op", "python": "new_op", "js": "newOp", "class": False, "section": "-",
        "returns": "str", "doc": "A new operation.",
        "params": [{"name": "x", "js": "x", "kind": "str", "required": True, "doc": "x"}],
    }
    grown = dict(manifest, operations=manifest["operations"] + [extra])
    assert "def new_op(" in gen.generate(grown) and gen.generate(grown) != stub


def test_every_operation_is_bound_and_declared() -> None:
    tree = ast.parse((INSTALLED / "_api.pyi").read_text(encoding="utf-8"))
    declared = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    declared |= {a.asname or a.name for n in tree.body if isinstance(n, ast.ImportFrom) for a in n.names}
    declared |= {n.name for n in tree.body if isinstance(n, ast.ClassDef)}
    for op in OPS:
        name = op["python"]
        if op.get("method_of"):
            # a method of its handle class (docs/decisions/handles.md): `self` then the row's own
            obj = getattr(getattr(ekl, op["method_of"]), name, None)
            assert callable(obj), f"{op['method_of']}.{name} is not bound"
        else:
            obj = getattr(ekl, name, None)
            assert callable(obj), f"{name} is not bound"
            assert name in ekl.__all__ and name in declared, name
        handle = op["class"] and name in HANDLE_CLASSES
        if op["class"] and not handle:
            assert isinstance(obj, type), name
            continue
        if handle:
            obj = obj.__init__  # a handle class: its constructor row is __init__ (self first)
        params = list(inspect.signature(obj).parameters.values())
        if handle:
            params = params[1:]
        assert [p.name for p in params] == [p["name"] for p in op["params"]], name
        for got, want in zip(params, op["params"]):
            if want["required"]:
                assert got.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD, (name, got)
                assert got.default is inspect.Parameter.empty, (name, got)
            else:
                assert got.kind is inspect.Parameter.KEYWORD_ONLY and got.default is None, (name, got)
    assert not [n for n in declared if not n.startswith("_") and n not in ekl.__all__ and n[0].islower()]


def test_dir_lists_only_the_api() -> None:
    listed = dir(ekl)
    assert listed == sorted(ekl.__all__ + ["__version__"])
    for leaked in ("Any", "Dict", "List", "Optional", "annotations", "_native", "_api", "json", "time"):
        assert leaked not in listed


def _token(iat: int, exp: int) -> Any:
    jwks, (key,) = ekl.jwks_from_seed("21" * 32, ["k1"])
    claims = {"iss": "https://net.example", "aud": "agt_1", "iat": iat, "exp": exp}
    return jwks, ekl.sign_jws("ekl-access+jwt", claims, key)


def test_now_forms() -> None:
    jwks, token = _token(1000, 1060)
    aware = datetime.datetime.fromtimestamp(1030, datetime.timezone.utc)
    for now in (1030, 1030.9, aware, aware.astimezone(datetime.timezone(datetime.timedelta(hours=5)))):
        assert ekl.verify_jws(token, "ekl-access+jwt", jwks, now=now)["kid"] == "k1"
    # A float is floored: 1059.9 is 1059, still before exp; 1060.0 is exp.
    ekl.verify_jws(token, "ekl-access+jwt", jwks, now=1059.9, skew=0)
    with pytest.raises(EklError) as info:
        ekl.verify_jws(token, "ekl-access+jwt", jwks, now=datetime.datetime(2026, 1, 1))
    assert info.value.code == "INVALID_ARGUMENT" and "now" in info.value.message
    with pytest.raises(EklError) as info:
        ekl.verify_jws(token, "ekl-access+jwt", jwks, now=float("nan"))
    assert info.value.code == "INVALID_ARGUMENT"
    for bad in ("1030", True, [1030]):
        with pytest.raises(TypeError, match="now must be"):
            ekl.verify_jws(token, "ekl-access+jwt", jwks, now=bad)
    # Left out: the host clock.
    t = int(time.time())
    jwks, fresh = _token(t - 10, t + 50)
    assert ekl.verify_jws(fresh, "ekl-access+jwt", jwks)["claims"]["iat"] == t - 10
    with pytest.raises(EklError) as info:
        ekl.verify_jws(token, "ekl-access+jwt", jwks)
    assert info.value.code == "TOKEN_EXPIRED"


def test_type_errors_name_the_argument_and_its_forms() -> None:
    jwks, (key,) = ekl.jwks_from_seed("21" * 32, ["k1"])
    cases = [
        (lambda: ekl.sign_jws("ekl-access+jwt", {}, "k1"), "sign_jws: key must be a SigningKey, got str"),
        (lambda: ekl.proof_key(None), "proof_key: agent_key must be a str, got NoneType"),
        (lambda: ekl.canonicalize(1), "canonicalize: text must be JSON text"),
        (lambda: ekl.sha256_hex(1), "sha256_hex: data must be bytes, bytearray, memoryview or str"),
        (lambda: ekl.upstream_fingerprint([], offered="a"), "offered must be an iterable of str"),
        (lambda: ekl.upstream_fingerprint([], offered=[1]), "offered must be an iterable of str"),
        (lambda: ekl.verify_jws("t", "ekl-access+jwt", 1, now=0), "jwks must be a Jwks, a dict or JSON text"),
        (lambda: ekl.verify_jws("t", "ekl-access+jwt", jwks, now=0, skew="1"), "skew must be an int"),
        (lambda: ekl.verify_jws("t", "ekl-access+jwt", jwks, now=0, require_exp=1), "require_exp must be a bool"),
        (lambda: ekl.commitment([], salt=1), "commitment: salt must be a str, got int"),
    ]
    for call, message in cases:
        with pytest.raises(TypeError) as info:
            call()
        assert message in str(info.value), (message, str(info.value))
    with pytest.raises(TypeError):
        ekl.commitment({}, "00" * 32)  # type: ignore[misc]  (optional parameters are keyword-only)


def test_jwks_forms() -> None:
    jwks, (key,) = ekl.jwks_from_seed("21" * 32, ["k1"])
    _, token = _token(1000, 1060)
    as_dict = json.loads(jwks.to_json())
    for form in (jwks, as_dict, jwks.to_json(), jwks.to_json().encode(), ekl.JsonText(jwks.to_json())):
        assert ekl.verify_jws(token, "ekl-access+jwt", form, now=1030)["kid"] == "k1"
        assert ekl.Jwks(form).kids() == ["k1"]
    with pytest.raises(EklError) as info:
        ekl.Jwks({"keys": []})
    assert info.value.code == "INVALID_JWKS"


def test_direct_bindings_agree_with_call() -> None:
    # canonicalize and canonicalize_value are bound directly (the hottest operations): the same
    # results and refusals as the registry's generic entry point.
    index = {op["name"]: i for i, op in enumerate(OPS)}
    cases: list[Any] = [
        ("canonicalize", '{"b":1,"a":[1.0,"\\u00e9"]}', None),
        ("canonicalize", b"[1,2,3]", 6),
        ("canonicalize", bytearray(b"[1,2,3]"), 7),
        ("canonicalize", '{"a":1,"a":2}', None),
        ("canonicalize", ekl.JsonText("[9007199254740993]"), None),
        ("canonicalize_value", {"b": 1, "a": [1.5, "é"]}, None),
        ("canonicalize_value", [1, 2, 3], 6),
        ("canonicalize_value", ekl.JsonText('{"a":1,"a":2}'), None),
        ("canonicalize_value", ekl.JsonText("[1e2]"), 4),
        ("canonicalize_value", {1, 2}, None),
        ("canonicalize_value", "\ud800", None),
    ]

    def outcome(fn: Any) -> Any:
        try:
            return fn()
        except EklError as e:
            return e.code

    for name, arg, max_bytes in cases:
        direct = outcome(lambda name=name, arg=arg, max_bytes=max_bytes: getattr(ekl, name)(arg, max_bytes=max_bytes))
        generic = outcome(lambda name=name, arg=arg, max_bytes=max_bytes: _native.call(index[name], (arg, max_bytes)))
        assert direct == generic, (name, arg, direct, generic)


def test_direct_bindings_refuse_a_malformed_max_bytes_as_call_does() -> None:
    # A negative max_bytes, or one beyond the range of an int64, is the library's refusal
    # (EklError INVALID_ARGUMENT, a ValueError) with call's message, not an OverflowError of the
    # argument's conversion; a bool or another type, call's answer.
    index = {op["name"]: i for i, op in enumerate(OPS)}

    def outcome(fn: Any) -> Any:
        try:
            return fn()
        except (EklError, TypeError) as e:
            return type(e), str(e)
    args: list[tuple[str, Any]] = [
        ("canonicalize", "[1]"),
        ("canonicalize", b"[1]"),
        ("canonicalize_value", [1]),
        ("canonicalize_value", ekl.JsonText("[1]")),
    ]
    for name, arg in args:
        for bad in (-1, -(2**63), -(2**63) - 1, 2**63, 2**64, -(2**64)):
            with pytest.raises(EklError) as direct:
                getattr(ekl, name)(arg, max_bytes=bad)
            with pytest.raises(EklError) as generic:
                _native.call(index[name], (arg, bad))
            assert isinstance(direct.value, ValueError)
            assert direct.value.code == "INVALID_ARGUMENT", (name, bad)
            assert str(direct.value) == str(generic.value), (name, bad)
        for wrong in (True, False, "5", 5.0, [1]):
            direct_outcome = outcome(lambda name=name, arg=arg, wrong=wrong: getattr(ekl, name)(arg, max_bytes=wrong))
            generic_outcome = outcome(lambda name=name, arg=arg, wrong=wrong: _native.call(index[name], (arg, wrong)))
            assert direct_outcome == generic_outcome, (name, wrong, direct_outcome, generic_outcome)
            # A bool is not an int here: refused as a type, never read as a bound of 1 or 0
            # (canonicalize_value read True as 1 and refused [1] as BODY_TOO_LARGE).
            if isinstance(wrong, bool):
                with pytest.raises(TypeError, match=f"{name}: max_bytes must be an int, got bool"):
                    getattr(ekl, name)(arg, max_bytes=wrong)
        assert getattr(ekl, name)(arg, max_bytes=2**53) == b"[1]"
        assert getattr(ekl, name)(arg, max_bytes=3) == b"[1]"
    for bad in (-1, 2**64):
        with pytest.raises(EklError) as many:
            ekl.canonicalize_many(["[1]"], max_bytes=bad)
        assert many.value.code == "INVALID_ARGUMENT"
    with pytest.raises(TypeError, match="canonicalize_many: max_bytes must be an int, got bool"):
        ekl.canonicalize_many(["[1]"], max_bytes=True)
    assert ekl.canonicalize_many(["[1]"], max_bytes=3) == [b"[1]"]
