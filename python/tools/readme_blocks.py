#!/usr/bin/env python3
"""Writes the ```python blocks of the READMEs and doc pages a user copies from into a folder, one
module a block, for the strict type checkers (scripts/test/30-python.sh runs ``mypy --strict`` and
pyright in strict mode on the folder; python/tests/test_readme.py executes the same blocks).

    python python/tools/readme_blocks.py OUTDIR

Pages: README.md, python/README.md, examples/*/README.md and docs/*.md. Every block is written,
those marked ``<!-- not-tested -->`` (not executed: they need a network or a server) too, except a
block that imports a module this interpreter cannot find (a third-party SDK the test environment
does not install): it is named on stdout as skipped. Standard library only. Exit 1 when the pages
hold no block at all (a moved README must not pass by checking nothing).
"""

from __future__ import annotations

import ast
import importlib.util
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"(<!--\s*not-tested\s*-->\s*\n)?```python[ \t]*\n(.*?)\n```", re.S)


def pages(root: Path = ROOT) -> list[Path]:
    """The pages whose blocks a user copies, in a stable order."""
    found = [root / "README.md", root / "python" / "README.md"]
    found += sorted((root / "examples").glob("*/README.md"))
    found += sorted((root / "docs").glob("*.md"))
    return [p for p in found if p.is_file()]


def blocks(page: Path, root: Path = ROOT) -> list[tuple[str, str, bool]]:
    """(where, code, executed) of each ```python block of `page`; where is ``path:line``."""
    text = page.read_text(encoding="utf-8")
    rel = page.relative_to(root).as_posix()
    return [(f"{rel}:{text.count(chr(10), 0, m.start()) + 1}", m.group(2), not m.group(1))
            for m in BLOCK.finditer(text)]


def missing_imports(code: str) -> list[str]:
    """The top-level modules `code` imports that this interpreter cannot find."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return sorted(n for n in names if importlib.util.find_spec(n) is None)


def module_name(where: str) -> str:
    """A module name for a block: ``python_README_md_27``."""
    return "readme_" + re.sub(r"[^A-Za-z0-9]+", "_", where).strip("_")


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    out = Path(argv[1])
    out.mkdir(parents=True, exist_ok=True)
    written = 0
    for page in pages():
        for where, code, executed in blocks(page):
            missing = missing_imports(code)
            if missing:
                print(f"{where}: skipped (imports {', '.join(missing)}, not installed here)")
                continue
            note = "" if executed else " (not executed: marked not-tested)"
            (out / f"{module_name(where)}.py").write_text(f"# {where}{note}\n{code}\n", encoding="utf-8")
            written += 1
    print(f"{written} README blocks written to {out}")
    return 0 if written else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
