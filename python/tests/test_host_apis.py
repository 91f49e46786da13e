"""Every public name of the package is an operation of the registry or a host-only API listed in
docs/host-apis.json, with how it is proven (docs/decisions.md#host-apis): a new export that is
neither fails here, and so does a listed name that is gone."""

from __future__ import annotations

import json
import typing
from pathlib import Path
from typing import Any

import ekl_evidence as ekl
from ekl_evidence import _native

REPO = Path(__file__).resolve().parents[2]
TABLE: list[dict[str, Any]] = json.loads((REPO / "docs" / "host-apis.json").read_text(encoding="utf-8"))["apis"]
MANIFEST: dict[str, Any] = json.loads(_native.operations())
OPS = MANIFEST["operations"]
LISTED: set[str] = {name for api in TABLE if "module" not in api for name in api["python"]}
#: The handle classes whose public members are host APIs.
HANDLES = {"Jwks": ekl.Jwks, "SigningKey": ekl.SigningKey, "RemoteJwks": ekl.RemoteJwks}


def _declared_type(name: str) -> bool:
    """A type the registry declares (a result shape or a refinement of docs/operations.json) and
    the package writes as a TypedDict or a Literal/Union alias: no behaviour of its own, so it needs
    no entry in docs/host-apis.json (adding a result shape then touches no host file). A class with
    behaviour under a shape's name (``Verdict``, ``Check``) is still listed there."""
    obj = getattr(ekl, name)
    if isinstance(obj, type):
        return issubclass(obj, dict)
    return typing.get_origin(obj) is not None


DECLARED: set[str] = {
    n
    for n in {s["name"] for s in MANIFEST["shapes"]} | {r["name"] for r in MANIFEST["refinements"]}
    if n in ekl.__all__ and _declared_type(n)
}


def test_every_export_is_an_operation_or_a_listed_host_api() -> None:
    registry = {op["python"] for op in OPS}
    module = {n for n in ekl.__all__ if n not in registry and n not in DECLARED}
    assert module == {n for n in LISTED if "." not in n}
    assert {"Commitment", "ReceiptCall", "JwsTyp", "ReceiptKeys"} <= DECLARED, DECLARED
    assert not {"Verdict", "Check"} & DECLARED
    members = {
        f"{cls}.{m}" for cls, c in HANDLES.items() for m in dir(c) if not m.startswith("_")
    }
    assert members == {n for n in LISTED if "." in n}


def test_every_listed_api_names_its_proof_and_its_twin_is_an_operation() -> None:
    names = {op["name"] for op in OPS}
    for api in TABLE:
        assert api["checked_by"].strip(), api["name"]
        assert api["twin"] is None or api["twin"] in names, api["name"]


def test_every_submodule_exports_what_its_entry_lists() -> None:
    import importlib

    modules = [api for api in TABLE if "module" in api]
    assert modules, "the replay guard's entry"
    for api in modules:
        module = importlib.import_module(api["module"]["python"])
        assert sorted(module.__all__) == sorted(api["python"]), api["name"]
        # every public class or function defined there is exported
        defined = {n for n, v in vars(module).items() if not n.startswith("_") and getattr(v, "__module__", None) == module.__name__}
        assert defined <= set(module.__all__), defined - set(module.__all__)
