#!/usr/bin/env python3
"""Generates python/ekl_evidence/_api.pyi, the types of the registry's operations, from
docs/operations.json (the manifest of ekl-bridge), the TypedDicts of the result shapes in
python/ekl_evidence/_types.py from the manifest's ``shapes`` (declared in bridge/src/shapes.rs), the
Literals of its string refinements there from its ``refinements`` (bridge/src/refinements.rs: a
parameter's ``type``, an operation's ``returns_type``), and
the ``ErrorCode`` Literal of python/ekl_evidence/_errors.py from docs/errors.json (the core's error
table). Standard library only.

    python3 python/tools/gen_stubs.py           # rewrite the stub
    python3 python/tools/gen_stubs.py --check   # exit 1 when the checked-in stub is stale

The runtime functions are built from the same manifest at import (ekl_evidence/_api.py);
python/tests/test_registry.py fails when this stub or the shapes of _types.py are stale or miss an
operation; python/tests/test_errors.py when the Literal is stale.
"""

from __future__ import annotations

import json
import re
import sys
import textwrap
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = ROOT / "docs" / "operations.json"
STUB = ROOT / "python" / "ekl_evidence" / "_api.pyi"
INIT = ROOT / "python" / "ekl_evidence" / "__init__.py"
ERRORS_JSON = ROOT / "docs" / "errors.json"
ERRORS = ROOT / "python" / "ekl_evidence" / "_errors.py"
ERRORS_BEGIN = "# begin: ErrorCode (python/tools/gen_stubs.py writes this block from docs/errors.json)\n"
ERRORS_END = "]\n# end\n"
TYPES = ROOT / "python" / "ekl_evidence" / "_types.py"
SHAPES_BEGIN = "# begin: result shapes (python/tools/gen_stubs.py writes this block from docs/operations.json)\n"
SHAPES_ALL_BEGIN = "    # begin: result shapes and refinements (python/tools/gen_stubs.py)\n"
BEGIN = "    # begin: the registry's operations (python/tools/gen_stubs.py writes this block)\n"
END = "    # end\n"

#: The Python type of each parameter kind.
KINDS = {
    "value": "_Value",
    "text": "_Text",
    "str": "str",
    "bytes": "_Bytes",
    "int": "int",
    "now": "_Now",
    "bool": "bool",
    "str_list": "Iterable[str]",
    "jwks": "_JwksLike",
    "key": "SigningKey",
    "salt": "str",
    "number": "float",
}

#: Results that are not a shape of ekl_evidence._types.
RETURNS = {
    "str": "str",
    "bool": "bool",
    "bytes": "bytes",
    "Verdict": "Verdict",
    "Verdicts": "list[Union[Verdict, EklError]]",
    "Jwks": "Jwks",
    "SigningKey": "SigningKey",
    "KeySet": "Tuple[Jwks, list[SigningKey]]",
}

#: The Python type of each type of the shapes' language (bridge/src/shapes.rs); literals, ``T[]``,
#: shape names and alternatives are translated by ``_py_type``.
TYPES_PY = {
    "str": "str",
    "int": "int",
    "bool": "bool",
    "null": "None",
    "json": "JsonValue",
    "object": "dict[str, JsonValue]",
    "error": "dict[str, str]",
}


def _shapes(manifest: dict[str, Any]) -> set[str]:
    """The names _types.py declares: the TypedDicts of the result shapes, the Literals and the
    input types of the refinements, and ``JsonValue``."""
    refined = {r["name"] for r in manifest.get("refinements", []) if r["is"] != "shape"}
    return {s["name"] for s in manifest["shapes"] if s["py_typeddict"]} | refined | {"JsonValue"}


def _inputs(manifest: dict[str, Any]) -> set[str]:
    """The input refinements: types _types.py declares (and exports) by hand."""
    return {r["name"] for r in manifest.get("refinements", []) if r["is"] == "input"}


def _generated_names(manifest: dict[str, Any]) -> list[str]:
    """The names of the generated blocks of ``__all__``: the result shapes and the Literals."""
    return sorted(_shapes(manifest) - _inputs(manifest) - {"JsonValue"})


def _literals(manifest: dict[str, Any]) -> list[dict[str, Any]]:
    """The refinements that are a union of strings (a ``Literal`` each in _types.py)."""
    return [r for r in manifest.get("refinements", []) if r["is"] == "literals"]


def literal_aliases(manifest: dict[str, Any]) -> str:
    """The ``Literal`` aliases of the string refinements, each with its doc, in manifest order."""
    out: list[str] = []
    for r in _literals(manifest):
        doc = textwrap.wrap(_rst(r["doc"]), 97, break_on_hyphens=False, break_long_words=False)
        values = [json.dumps(v) for v in r["values"]]
        one = f"{r['name']} = Literal[{', '.join(values)}]"
        alias = one if len(one) <= 100 else "\n".join([f"{r['name']} = Literal[", *[f"    {v}," for v in values], "]"])
        out.append("\n".join([*("#: " + line for line in doc), alias]))
    return "\n\n".join(out) + "\n" if out else ""


def _param_type(p: dict[str, Any]) -> str:
    """The Python type of a parameter: its kind's, or its refinement's (``type``): each
    alternative a name of _types.py, ``T[]`` a sequence of them, ``json`` the kind's own type; a
    value parameter refined to a structured type still takes a ``JsonText``, as every one does."""
    if not p.get("type"):
        return KINDS[p["kind"]]
    alts = p["type"].split(" | ")
    parts = [KINDS[p["kind"]] if a == "json" else f"Sequence[{a[:-2]}]" if a.endswith("[]") else a for a in alts]
    if p["kind"] == "value" and "json" not in alts:
        parts.append("JsonText")
    return parts[0] if len(parts) == 1 else f"Union[{', '.join(parts)}]"


def _refined_names(p: dict[str, Any]) -> set[str]:
    """The names of _types.py a parameter's refinement takes."""
    return {a.removesuffix("[]") for a in p.get("type", "").split(" | ") if a and a != "json"}


def _py_type(ty: str) -> str:
    """The Python type of a member's type."""
    literals: list[str] = []
    parts: list[str] = []
    for alt in ty.split(" | "):
        if alt.startswith("'") and alt.endswith("'"):
            if not literals:
                parts.append("")  # where the Literal goes
            literals.append(json.dumps(alt[1:-1]))
        elif alt.endswith("[]"):
            parts.append(f"list[{_py_type(alt[:-2])}]")
        else:
            parts.append(TYPES_PY.get(alt, alt))
    parts = [p or f"Literal[{', '.join(literals)}]" for p in parts]
    return parts[0] if len(parts) == 1 else f"Union[{', '.join(parts)}]"


def _rst(text: str) -> str:
    """A doc of the manifest (`code` in single backquotes) with ``code`` in double ones."""
    return re.sub(r"`([^`]+)`", r"``\1``", text)


def _py_doc(text: str, indent: str = "    ") -> list[str]:
    """A docstring, wrapped at 100 columns."""
    text = _rst(text)
    return [indent + line for line in textwrap.wrap(f'"""{text}"""', 100 - len(indent), break_on_hyphens=False, break_long_words=False)]


def shape_classes(manifest: dict[str, Any]) -> str:
    """The TypedDicts of the result shapes (a required part ``_NameRequired`` first when a shape
    has both required and optional members), in declaration order."""
    out: list[str] = []
    for shape in manifest["shapes"]:
        if not shape["py_typeddict"]:
            continue
        name, base = shape["name"], shape["extends"] or "TypedDict"

        def body(members: list[dict[str, Any]]) -> list[str]:
            lines = []
            for m in members:
                if m["doc"]:
                    lines.append("    #: " + _rst(m["doc"]))
                lines.append(f"    {m['name']}: {m.get('py') or _py_type(m['type'])}")
            return lines

        required = [m for m in shape["members"] if m["required"]]
        optional = [m for m in shape["members"] if not m["required"]]
        doc = _py_doc(shape["doc"])
        if required and optional:
            out.append("\n".join([f"class _{name}Required({base}):", *body(required)]))
            out.append("\n".join([f"class {name}(_{name}Required, total=False):", *doc, "", *body(optional)]))
        else:
            total = "" if required else ", total=False"
            out.append("\n".join([f"class {name}({base}{total}):", *doc, "", *body(required or optional)]))
    return "\n\n\n".join(out) + "\n"


def types_module(manifest: dict[str, Any], module: str) -> str:
    """``_types.py`` with its blocks of result shapes (the classes, and their names in
    ``__all__``) rewritten from the manifest's ``shapes``."""
    module = _names_block(module, SHAPES_ALL_BEGIN, _generated_names(manifest))
    head, _ = module.split(SHAPES_BEGIN, 1)
    for name in sorted(_inputs(manifest)):
        # An input refinement is declared by hand above the generated block, and exported.
        if not re.search(rf"^(class {name}\(|{name} = )", head, re.M) or f'    "{name}",\n' not in head:
            raise SystemExit(f"gen_stubs: _types.py does not declare and export the input type {name!r} (bridge/src/refinements.rs)")
    aliases = literal_aliases(manifest)
    return head + SHAPES_BEGIN + "\n" + (aliases + "\n\n" if aliases else "") + shape_classes(manifest)


def _returns(name: str, shapes: set[str], declared: set[str]) -> str:
    if name.endswith("[]"):
        return f"list[{_returns(name[:-2], shapes, declared)}]"
    if name in RETURNS:
        return RETURNS[name]
    if name not in declared:
        raise SystemExit(f"gen_stubs: no Python type for the result {name!r} (declare it in bridge/src/shapes.rs)")
    shapes.add(name)
    return name


def _docstring(op: dict[str, Any]) -> list[str]:
    lines = textwrap.wrap(op["doc"], 92) + [""]
    for p in op["params"]:
        if p["kind"] == "handle":
            continue
        how = "required" if p["required"] else "keyword-only, optional"
        text = f"{p['name']} ({how}): {p['doc']}"
        if p.get("times"):
            members = ", ".join(f"{m} ({form})" for m, form in p["times"].items())
            text += f"; an aware datetime is accepted for {members}"
        lines += textwrap.wrap(text, 92, subsequent_indent="    ")
    lines += ["", f"EKP {op['section']}." if op["section"] != "-" else "A utility."]
    body = "\n".join(("    " + line).rstrip() for line in lines)
    return [f'    """{body.lstrip()}', '    """']


def _signature(op: dict[str, Any], shapes: set[str], indent: str = "") -> list[str]:
    """The parameters of an operation's function (a method's ``self`` as it is)."""
    args = []
    star = False
    for p in op["params"]:
        if p["kind"] == "handle":
            args.append(f"{indent}    self,")
            continue
        kind = _param_type(p)
        shapes |= _refined_names(p)
        if p["required"]:
            args.append(f"{indent}    {p['name']}: {kind},")
        else:
            if not star:
                args.append(f"{indent}    *,")
                star = True
            args.append(f"{indent}    {p['name']}: Optional[{kind}] = None,")
    return args


def _handle_class(manifest: dict[str, Any], handle: dict[str, Any], shapes: set[str]) -> str:
    """The stub of a handle class (the manifest's ``handles``): its constructor and methods."""
    ops = {op["name"]: op for op in manifest["operations"]}
    new = ops[handle["constructor"]]
    doc = textwrap.wrap(handle["doc"], 92)
    lines = [f"class {handle['name']}:", f'    """{doc[0]}', *("    " + d for d in doc[1:]), '    """', ""]
    args = _signature(new, shapes, "    ")
    def indented(op: dict[str, Any]) -> list[str]:
        return [("    " + line).rstrip() for d in _docstring(op) for line in d.split("\n")]

    lines += ["    def __init__(", "        self,", *args, "    ) -> None:", *indented(new)]
    for name in handle["methods"]:
        op = ops[name]
        result = _returns(op.get("returns_type") or op["returns"], shapes, _shapes(manifest))
        lines += ["", f"    def {op['python']}(", *_signature(op, shapes, "    "), f"    ) -> {result}:"]
        lines += indented(op)
    return "\n".join(lines)


def generate(manifest: dict[str, Any]) -> str:
    shapes: set[str] = set()
    defs: list[str] = []
    names: list[str] = []
    handles = {h["constructor"]: h for h in manifest.get("handles", [])}
    for op in manifest["operations"]:
        if op.get("method_of"):
            continue
        names.append(op["python"])
        if op["name"] in handles:
            defs.append(_handle_class(manifest, handles[op["name"]], shapes))
            continue
        if op["class"]:
            continue
        args = _signature(op, shapes)
        result = _returns(op.get("returns_type") or op["returns"], shapes, _shapes(manifest))
        if result == "Commitment" and any(p["name"] == "salt" and not p["required"] for p in op["params"]):
            # A commitment given a salt is salted: two overloads (salt given: SaltedCommitment).
            salted = [a.replace("salt: Optional[str] = None", "salt: str") for a in args]
            plain = [a.replace("salt: Optional[str] = None", "salt: None = None") for a in args]
            shapes.add("SaltedCommitment")
            defs.append("\n".join(["@_overload", f"def {op['name']}(", *salted, ") -> SaltedCommitment: ..."]))
            defs.append("\n".join(["@_overload", f"def {op['name']}(", *plain, f") -> {result}:", *_docstring(op)]))
            continue
        defs.append("\n".join([f"def {op['name']}(", *args, f") -> {result}:", *_docstring(op)]))
    header = [
        "# Generated by python/tools/gen_stubs.py from docs/operations.json: do not edit.",
        "# The operations of the registry of ekl-bridge, as ekl_evidence._api builds them at import.",
        "import datetime",
        "from typing import Any, Iterable, List, Mapping, Optional, Sequence, Tuple, Union",
        "from typing import overload as _overload  # (private: the stub declares the package's names only)",
        "",
        "from ._errors import EklError",
        "from ._native import JsonText, Jwks as Jwks, SigningKey",
        f"from ._types import {', '.join(sorted(shapes))}",
        "from ._verdict import Verdict",
        "",
        "_Value = Any  # a host value (strict conversion) or a JsonText",
        "_Text = Union[str, bytes, bytearray, memoryview, JsonText]",
        "_Bytes = Union[bytes, bytearray, memoryview, str]",
        "_Now = Union[int, float, datetime.datetime]",
        "_JwksLike = Union[Jwks, Mapping[str, Any], str, bytes, JsonText]",
        "",
        "__all__ = [",
        *[f'    "{n}",' for n in sorted(names)],
        "]",
    ]
    return "\n".join(header) + "\n\n" + "\n\n".join(defs) + "\n"


def package_init(manifest: dict[str, Any], init: str) -> str:
    """The package's __init__.py with the blocks of its ``__all__`` rewritten: the result shapes
    and the operations (mypy reads ``__all__`` statically)."""
    init = _names_block(init, SHAPES_ALL_BEGIN, _generated_names(manifest))
    return _names_block(init, BEGIN, sorted(op["python"] for op in manifest["operations"] if not op.get("method_of")))


def _names_block(text: str, begin: str, names: list[str]) -> str:
    """``text`` with the names between ``begin`` and the next ``# end`` line rewritten."""
    head, rest = text.split(begin, 1)
    _, tail = rest.split(END, 1)
    return head + begin + "".join(f'    "{n}",\n' for n in names) + END + tail


def error_codes(errors: dict[str, Any], module: str) -> str:
    """``_errors.py`` with its ``ErrorCode = Literal[...]`` block rewritten from docs/errors.json."""
    head, rest = module.split(ERRORS_BEGIN, 1)
    _, tail = rest.split(ERRORS_END, 1)
    codes = "".join(f'    "{c["code"]}",\n' for c in errors["codes"])
    return head + ERRORS_BEGIN + "ErrorCode = Literal[\n" + codes + ERRORS_END + tail


def main(argv: list[str]) -> int:
    manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    errors = json.loads(ERRORS_JSON.read_text(encoding="utf-8"))
    outputs = {
        STUB: generate(manifest),
        INIT: package_init(manifest, INIT.read_text(encoding="utf-8")),
        TYPES: types_module(manifest, TYPES.read_text(encoding="utf-8")),
        ERRORS: error_codes(errors, ERRORS.read_text(encoding="utf-8")),
    }
    stale = [p for p, text in outputs.items() if p.read_text(encoding="utf-8") != text]
    if "--check" in argv:
        for p in stale:
            print(f"{p} is stale: run python3 python/tools/gen_stubs.py", file=sys.stderr)
        return 1 if stale else 0
    for p in stale:
        p.write_text(outputs[p], encoding="utf-8")
        print(f"wrote {p.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
