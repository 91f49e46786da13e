#!/usr/bin/env python3
"""No protocol literal in a host protocol module (issue 42, item 6's first check).

Every value a host uses of a protocol rule (limits, the replay guard's bounds and statements, the
remote key set's defaults and bounds, the MCP bounds and settle time) is a constant of the
manifest (docs/operations.json, ``constants``; bridge/src/manifest.rs). This check reads those
constants and fails when one of their values appears as a literal in a host protocol file: a
number literal (or a constant expression of literals: ``64 * 1024 * 1024``, ``1 << 20``,
``2 ** 53``) equal to a numeric constant, or a string literal equal to a string constant of at
least 8 characters (an SQL statement). 0 and 1 are everyone's (a count, a first index) and are not
looked at. Python files are read with ``ast`` (docstrings skipped), JS files with a small
tokenizer (comments skipped; template literals' text too, their ``${}`` read).

A file that could not be cleaned yet is in ``ALLOWED`` with the reason, reviewed; the check fails
too when an allowed file no longer holds such a literal (the entry is stale: remove it).

    python3 tools/docs/protocol_literals.py              # the check (scripts/test/85-docs.sh)
    python3 tools/docs/protocol_literals.py --self-test  # a planted literal is found

Standard library only.
"""

from __future__ import annotations

import ast
import json
import operator
import re
import sys
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = ROOT / "docs" / "operations.json"

#: The host protocol files (issue 42).
FILES = [
    "python/ekl_evidence/_remote.py",
    "python/ekl_evidence/replay.py",
    "python/ekl_evidence/mcp.py",
    "python/ekl_evidence/_mcp_relay.py",
    "node/js/remote.js",
    "node/replay.js",
    "node/mcp/index.mjs",
    "node/mcp/relay.mjs",
    # and the JS layer that converts host values: its limits are the manifest's too (issue 42)
    "node/js/convert.js",
    "node/js/api.js",
]

#: Files not cleaned yet, each with why (reviewed). Every literal of a listed file is allowed.
ALLOWED = {
    "python/ekl_evidence/mcp.py": "the MCP modules are being rewritten over the core's McpSession "
    "(issue 42 item 2, another branch); MAX_PAGES, MAX_MESSAGE_BYTES and the settle time move to "
    "the manifest's `mcp` constant there",
    "python/ekl_evidence/_mcp_relay.py": "as mcp.py: the relay's line bound (MAX_LINE) is the "
    "manifest's mcp.max_message_bytes once the relays copy bytes for the core's record reader "
    "(issue 42 item 2)",
    "node/mcp/index.mjs": "as mcp.py, in JS (issue 42 item 2)",
    "node/mcp/relay.mjs": "as _mcp_relay.py, in JS (issue 42 item 2)",
}

#: Literals of a file that equal a constant by chance, each with what it is (reviewed).
ALLOWED_VALUES = {
    ("python/ekl_evidence/replay.py", 64): "_WAITING, the most store calls waiting on a worker "
    "thread: the host's own I/O bound, equal to limits.max_depth by chance",
    ("node/js/convert.js", 64): "KEY_CACHE_MAX_LENGTH, the longest key the quoting cache keeps: a "
    "cache bound, equal to limits.max_depth by chance",
}

#: Numbers too common to be a rule: 0 and 1, and 1000, milliseconds per second (a unit: the hosts
#: convert their clocks with it). Blind spot: mcp.max_pages is 1000 too, so a MAX_PAGES written
#: as 1000 is not found; the MCP modules read it from the manifest's `mcp` once cleaned.
IGNORED_NUMBERS = {0, 1, 1000}
#: The shortest string constant looked for (shorter ones are words such as "GET" or "PX").
MIN_STRING = 8


def constants(manifest: dict[str, Any]) -> tuple[dict[float, list[str]], dict[str, list[str]]]:
    """The manifest's constants' numbers and long strings, each with where it is."""
    numbers: dict[float, list[str]] = {}
    strings: dict[str, list[str]] = {}

    def walk(v: Any, where: str) -> None:
        if isinstance(v, bool) or v is None:
            return
        if isinstance(v, (int, float)):
            if v not in IGNORED_NUMBERS:
                numbers.setdefault(float(v), []).append(where)
        elif isinstance(v, str):
            if len(v) >= MIN_STRING:
                strings.setdefault(v, []).append(where)
        elif isinstance(v, list):
            for i, x in enumerate(v):
                walk(x, f"{where}[{i}]")
        elif isinstance(v, dict):
            for k, x in v.items():
                walk(x, f"{where}.{k}")

    for c in manifest.get("constants", []):
        walk(c["value"], c["name"])
    return numbers, strings


_OPS = {ast.Mult: operator.mul, ast.Pow: operator.pow, ast.LShift: operator.lshift,
        ast.Add: operator.add, ast.Sub: operator.sub}


def _fold(node: ast.AST) -> Any:
    """The value of a constant expression of number literals, or None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        v = _fold(node.operand)
        return None if v is None else -v
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        a, b = _fold(node.left), _fold(node.right)
        if a is None or b is None or (isinstance(node.op, ast.Pow) and abs(b) > 64):
            return None
        return _OPS[type(node.op)](a, b)
    return None


def python_literals(text: str) -> Iterator[tuple[int, Any]]:
    """(line, value) of each number literal (constant expressions folded, the largest one) and
    string literal of a Python module, docstrings left out."""
    tree = ast.parse(text)
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    inner: set[int] = set()
    for node in ast.walk(tree):
        if id(node) in inner or id(node) in docstrings:
            continue
        if isinstance(node, (ast.BinOp, ast.UnaryOp)):
            v = _fold(node)
            if v is not None:
                inner.update(id(n) for n in ast.walk(node))
                yield node.lineno, v
                continue
        if isinstance(node, ast.Constant) and not isinstance(node.value, bool):
            if isinstance(node.value, (int, float, str)):
                yield node.lineno, node.value
        if isinstance(node, ast.JoinedStr):
            inner.update(id(n) for n in node.values if isinstance(n, ast.Constant))


_JS_NUMBER = re.compile(r"(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|(?:\d[\d_]*\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)n?")
_JS_EXPR = re.compile(r"(\d[\w.]*)\s*(\*\*|\*|<<)\s*(\d[\w.]*)(?:\s*(\*)\s*(\d[\w.]*))?")


def _js_number(token: str) -> Any:
    t = token.replace("_", "").rstrip("n")
    try:
        return int(t, 0) if t[:2].lower() in ("0x", "0b") else (int(t) if t.isdigit() else float(t))
    except ValueError:
        return None


def js_literals(text: str) -> Iterator[tuple[int, Any]]:
    """(line, value) of each number literal (``a * b``, ``a ** b``, ``a << b`` of literals folded)
    and string literal of a JS module, comments left out (a template literal's text is a string;
    its ``${…}`` is code)."""
    code: list[str] = []  # the code with strings and comments blanked (line breaks kept)
    strings: list[tuple[int, str]] = []
    i, n, line = 0, len(text), 1
    depth: list[int] = []  # open ${ of template literals: the brace depth to return at
    braces = 0
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            i = j
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            code.append("\n" * text.count("\n", i, j))
            line += text.count("\n", i, j)
            i = j
            continue
        if c in "'\"" or c == "`" or (c == "}" and depth and depth[-1] == braces):
            quote = "`" if c in "`}" else c
            if c == "}":
                depth.pop()
            j, buf, start = i + 1, [], line
            while j < n and text[j] != quote:
                if text[j] == "\\":
                    buf.append(text[j:j + 2])
                    j += 2
                    continue
                if quote == "`" and text.startswith("${", j):
                    break
                if text[j] == "\n":
                    line += 1
                buf.append(text[j])
                j += 1
            strings.append((start, "".join(buf)))
            if quote == "`" and text.startswith("${", j):
                depth.append(braces)
                j += 2
            else:
                j += 1
            code.append(" ")
            i = j
            continue
        if c == "{":
            braces += 1
        elif c == "}":
            braces -= 1
        code.append(c)
        i += 1
    joined = "".join(code)
    spans: list[tuple[int, int]] = []
    for m in _JS_EXPR.finditer(joined):
        if m.start() > 0 and (joined[m.start() - 1].isalnum() or joined[m.start() - 1] in "_$."):
            continue
        a, op, b = _js_number(m.group(1)), m.group(2), _js_number(m.group(3))
        if a is None or b is None:
            continue
        v = a ** b if op == "**" and abs(b) <= 64 else a << b if op == "<<" and isinstance(a, int) and isinstance(b, int) else a * b
        if m.group(5):
            c5 = _js_number(m.group(5))
            v = None if c5 is None else v * c5
        if v is not None:
            spans.append((m.start(), m.end()))
            yield joined.count("\n", 0, m.start()) + 1, v
    for m in _JS_NUMBER.finditer(joined):
        if any(a <= m.start() < b for a, b in spans):
            continue
        if m.start() > 0 and (joined[m.start() - 1].isalnum() or joined[m.start() - 1] in "_$"):
            continue  # part of a name
        v = _js_number(m.group(0))
        if v is not None:
            yield joined.count("\n", 0, m.start()) + 1, v
    for start, s in strings:
        yield start, s


def findings(path: str, text: str, numbers: dict[float, list[str]], strings: dict[str, list[str]]) -> list[str]:
    """Each literal of the file that is a constant of the manifest."""
    read = python_literals if path.endswith(".py") else js_literals
    out = []
    for line, v in read(text):
        if isinstance(v, str):
            if v in strings:
                out.append(f"{path}:{line}: the string of {', '.join(strings[v])}")
        elif isinstance(v, (int, float)) and float(v) in numbers and (path, v) not in ALLOWED_VALUES:
            out.append(f"{path}:{line}: {v} is {', '.join(numbers[float(v)])}")
    return out


def check(manifest: dict[str, Any]) -> list[str]:
    numbers, strings = constants(manifest)
    problems = []
    for (path, value), why in ALLOWED_VALUES.items():
        if not why or path not in FILES:
            problems.append(f"{path}: {value} allowed without a reason or in no checked file")
    for path in FILES:
        text = (ROOT / path).read_text(encoding="utf-8")
        found = findings(path, text, numbers, strings)
        if path in ALLOWED:
            if not found:
                problems.append(f"{path}: allowed in tools/docs/protocol_literals.py but holds no protocol literal: remove it from ALLOWED")
            continue
        problems += found
    return problems


def self_test(manifest: dict[str, Any]) -> None:
    numbers, strings = constants(manifest)
    assert numbers and strings, "the manifest's constants were read"
    planted = {
        "x.py": ("x = 64 * 1024 * 1024\ny = 'a'\n", 1),
        "y.py": ('"""30 in a docstring"""\ndef f(cooldown=30.0):\n    return cooldown\n', 1),
        "z.js": ("// 300 in a comment\nconst a = `${5000} ms`\nconst b = 1 << 20\nconst c = 'x300'\n", 2),
        "w.js": ("const skew = 60 // seconds\nconst d = `a ${f({ x: 1 })} b`\nconst e = 2 ** 53\n", 2),
        "v.py": ("n = 1\nm = 0\nk = len(x) + 1\nms = t * 1000\n", 0),
    }
    for name, (text, want) in planted.items():
        got = findings(name, text, numbers, strings)
        assert len(got) == want, (name, got)
    sql = next(iter(strings))
    assert findings("s.py", f"q = {sql!r}\n", numbers, strings), "a statement of the manifest is found"
    print("protocol_literals: self-test passed")


def main(argv: list[str]) -> int:
    manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    if "--self-test" in argv:
        self_test(manifest)
        return 0
    problems = check(manifest)
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print(f"{len(problems)} protocol literal(s) in host protocol files: read them from the manifest's constants", file=sys.stderr)
        return 1
    print(f"protocol_literals: {len(FILES) - len(ALLOWED)} host protocol files hold no protocol literal ({len(ALLOWED)} allowed, with reasons)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
