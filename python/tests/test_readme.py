"""The ```python blocks of README.md (repo root) and python/README.md are executed.

A block right after an HTML comment `<!-- not-tested -->` is skipped.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
READMES = [HERE.parents[1] / "README.md", HERE.parent / "README.md"]
BLOCK = re.compile(r"(<!--\s*not-tested\s*-->\s*\n)?```python[ \t]*\n(.*?)\n```", re.S)


def _blocks() -> list[tuple[str, str]]:
    out = []
    for readme in READMES:
        if not readme.is_file():
            continue
        text = readme.read_text(encoding="utf-8")
        for m in BLOCK.finditer(text):
            if m.group(1):
                continue
            line = text.count("\n", 0, m.start()) + 1
            out.append((f"{readme.parent.name}/{readme.name}:{line}", m.group(2)))
    return out


BLOCKS = _blocks()


def test_python_readme_has_snippets() -> None:
    assert any(name.startswith("python/README.md") for name, _ in BLOCKS), BLOCKS


@pytest.mark.parametrize("name,code", BLOCKS, ids=[b[0] for b in BLOCKS])
def test_readme_snippet(name: str, code: str) -> None:
    exec(compile(code, name, "exec"), {"__name__": "__readme__"})


def test_skip_marker_is_honoured() -> None:
    sample = "<!-- not-tested -->\n```python\nraise SystemExit\n```\n```python\nx = 1\n```\n"
    found = [m for m in BLOCK.finditer(sample)]
    assert [bool(m.group(1)) for m in found] == [True, False]


def test_the_type_checked_blocks_hold_every_executed_one() -> None:
    """python/tools/readme_blocks.py writes the blocks 30-python.sh type-checks (mypy --strict,
    pyright strict): every block executed here is among them, with the same code."""
    import importlib.util

    tool = HERE.parents[1] / "python" / "tools" / "readme_blocks.py"
    if not tool.is_file():
        pytest.skip("python/tools/readme_blocks.py is not beside these tests")
    spec = importlib.util.spec_from_file_location("readme_blocks", tool)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    checked = {code for page in mod.pages() for _, code, _ in mod.blocks(page)}
    executed = {code for _, code in BLOCKS}
    assert executed and executed <= checked, [name for name, code in BLOCKS if code not in checked]
