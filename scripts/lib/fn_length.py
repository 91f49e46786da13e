#!/usr/bin/env python3
"""The house rule "functions stay under 150 lines (non-test)", checked (CONTRIBUTING.md).

Counts every Rust function of the workspace's sources from its `fn` line to its closing brace
(inclusive; rustfmt puts the brace at the `fn` line's indentation), outside test code: files under
a `tests/`, `benches/`, `fuzz/` or `examples/` folder and `#[cfg(test)]` modules are skipped. Fails
naming each function of 150 lines or more, longest first.

    usage: python3 scripts/lib/fn_length.py [ROOT]      (exit 1 on a function too long)
"""

import os
import re
import sys

LIMIT = 150
SOURCES = ["core/src", "bridge/src", "conformance/src", "cli/src", "python/src", "node/src", "wasm/src"]
SKIP_DIRS = {"tests", "benches", "fuzz", "examples", "target"}
FN = re.compile(r"^(\s*)(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+\"[^\"]*\"\s+)?fn\s+([A-Za-z_][A-Za-z0-9_]*)")


def functions(path):
    """Yields (name, first line, length) of each non-test function of one file."""
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped == "#[cfg(test)]":
            # the item that follows (a module or a function): skipped to its closing brace
            j = i + 1
            while j < len(lines) and lines[j].strip().startswith("#["):
                j += 1
            if j < len(lines) and lines[j].rstrip().endswith("{"):
                indent = lines[j][: len(lines[j]) - len(lines[j].lstrip())]
                k = j + 1
                while k < len(lines) and lines[k] != indent + "}":
                    k += 1
                i = k + 1
                continue
        m = FN.match(line)
        if m:
            indent, name = m.group(1), m.group(2)
            # the signature may span lines: a body starts with `{`; a declaration ends with `;`
            j = i
            while j < len(lines) and not lines[j].rstrip().endswith("{") and not lines[j].rstrip().endswith(";"):
                j += 1
            if j < len(lines) and lines[j].rstrip().endswith("{") and not lines[j].rstrip().endswith("}"):
                k = j + 1
                while k < len(lines) and lines[k] != indent + "}":
                    k += 1
                yield name, i + 1, k - i + 1
        i += 1


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    found = []
    for src in SOURCES:
        for d, dirs, files in os.walk(os.path.join(root, src)):
            dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS)
            for f in sorted(files):
                if f.endswith(".rs"):
                    p = os.path.join(d, f)
                    for name, line, n in functions(p):
                        found.append((n, os.path.relpath(p, root), line, name))
    found.sort(reverse=True)
    too_long = [f for f in found if f[0] >= LIMIT]
    for n, p, line, name in too_long:
        print(f"fn-length: {p}:{line} `{name}` is {n} lines (the house's limit: under {LIMIT})", file=sys.stderr)
    if found:
        n, p, line, name = found[0]
        print(f"fn-length: {len(found)} functions, the longest {p}:{line} `{name}` ({n} lines)")
    return 1 if too_long else 0


if __name__ == "__main__":
    sys.exit(main())
